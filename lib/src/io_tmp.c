/* io_tmp.c: temporary outputs (PATH.tmp-XXXXXX, renamed when complete):
 * their creation, the table the SIGINT/SIGTERM handler and tsr_abort remove
 * them from, and the up-front check of an output flag's path. */
#include "config.h"
#include "tessera/error.h"
#include "tessera/io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- temporary outputs --------------------------------------------------
 * Every output (HDF5, XDMF, CSV) is written as PATH.tmp-XXXXXX and renamed.
 * The temporary is made by open(2) with mode 0666, so the kernel applies the
 * umask (and a directory's default ACL) exactly as for PATH itself; mkstemp
 * would give 0600 whatever the umask. Live temporaries are kept in a fixed
 * table that the SIGINT/SIGTERM handler and tsr_abort walk with unlink(2)
 * only. A slot is 0 (free), 1 (being filled) or 2 (live): the handler looks
 * at live slots only, and a path is complete before its slot turns live. */
#define TSR__TMP_SLOTS 32
static char tsr__tmp_path[TSR__TMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t tsr__tmp_state[TSR__TMP_SLOTS];
static struct sigaction tsr__tmp_old[2];
static const int tsr__tmp_sig[2] = {SIGINT, SIGTERM};
static volatile sig_atomic_t tsr__tmp_handlers;

void tsr__tmp_remove_all(void) {
  for (int i = 0; i < TSR__TMP_SLOTS; i++)
    if (tsr__tmp_state[i] == 2) {
      tsr__tmp_state[i] = 0;
      unlink(tsr__tmp_path[i]);
    }
}

static void tsr__tmp_signal(int sig) {
  int e = errno;
  tsr__tmp_remove_all();
  /* the previous disposition (the default: ended by the signal) takes over */
  for (int i = 0; i < 2; i++)
    if (tsr__tmp_sig[i] == sig) sigaction(sig, &tsr__tmp_old[i], NULL);
  raise(sig); /* pending until this handler returns */
  errno = e;
}

static void tsr__tmp_install(void) {
  if (tsr__tmp_handlers) return;
  tsr__tmp_handlers = 1;
  for (int i = 0; i < 2; i++) {
    struct sigaction old, sa;
    if (sigaction(tsr__tmp_sig[i], NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue; /* nohup etc. */
    tsr__tmp_old[i] = old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tsr__tmp_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(tsr__tmp_sig[i], &sa, NULL);
  }
}

void tsr_tmp_register(const char *tmp) {
  tsr__tmp_install();
  if (strlen(tmp) >= PATH_MAX) return;
  for (int i = 0; i < TSR__TMP_SLOTS; i++)
    if (__sync_bool_compare_and_swap(&tsr__tmp_state[i], 0, 1)) {
      memcpy(tsr__tmp_path[i], tmp, strlen(tmp) + 1);
      __sync_synchronize();
      tsr__tmp_state[i] = 2;
      return;
    }
  /* more than TSR__TMP_SLOTS outputs open at once: this one is not removed
   * on a signal (it still is by tsr_file_discard and on errors) */
}

void tsr_tmp_forget(const char *tmp) {
  for (int i = 0; i < TSR__TMP_SLOTS; i++)
    if (tsr__tmp_state[i] == 2 && strcmp(tsr__tmp_path[i], tmp) == 0) {
      tsr__tmp_state[i] = 0;
      __sync_synchronize();
      return;
    }
}

int tsr_tmp_create(const char *path, char *tmp, size_t n) {
  static unsigned long long counter;
  static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  if (snprintf(tmp, n, "%s.tmp-XXXXXX", path) >= (int)n) {
    errno = ENAMETOOLONG;
    return -1;
  }
  char *x = tmp + strlen(tmp) - 6;
  for (int attempt = 0; attempt < 100; attempt++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t z = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 40) ^ (++counter * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL; /* splitmix64 finaliser */
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    for (int i = 0; i < 6; i++, z /= 62) x[i] = al[z % 62];
    int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      tsr_tmp_register(tmp);
      return fd;
    }
    if (errno != EEXIST) return -1;
  }
  return -1;
}

int tsr_output_check(MPI_Comm comm, const char *flag, const char *path) {
  int rank = 0, init = 0, fin = 0, rc = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) MPI_Comm_rank(comm, &rank);
  if (rank == 0 && path) {
    struct stat st;
    char tmp[PATH_MAX];
    int fd = -1;
    if (!*path)
      rc = TSR_RAISE(TSR_ERR_ARG, "option %s: empty file name", flag);
    else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      rc = TSR_RAISE(TSR_ERR_ARG, "option %s %s: is a directory, not a file name", flag, path);
    else if ((fd = tsr_tmp_create(path, tmp, sizeof tmp)) < 0)
      rc = TSR_RAISE(TSR_ERR_IO, "option %s %s: cannot create a file there: %s", flag, path,
                     strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(tmp);
      tsr_tmp_forget(tmp);
    }
  }
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}
