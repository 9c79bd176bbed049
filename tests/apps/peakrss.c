/* peakrss PREFIX CMD [ARGS...]: runs CMD (under mpiexec, once per rank) and
 * writes its peak resident memory (VmHWM of the process, from wait4's
 * ru_maxrss, kB) to PREFIX.RANK (the rank from Open MPI's, MPICH's or
 * Slurm's environment; PREFIX.0 without one). Exits with CMD's status.
 * memscale.sh measures peak memory per rank with it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *env_rank(void) {
  static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                      "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *v = getenv(names[i]);
    if (v && *v) return v;
  }
  return "0";
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peakrss PREFIX CMD [ARGS...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "peakrss: fork: %s\n", strerror(errno));
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "peakrss: %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int st = 0;
  struct rusage ru;
  pid_t w;
  while ((w = wait4(pid, &st, 0, &ru)) < 0 && errno == EINTR) continue;
  if (w < 0) {
    fprintf(stderr, "peakrss: wait4: %s\n", strerror(errno));
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s.%s", argv[1], env_rank());
  FILE *f = fopen(path, "w");
  if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
    fprintf(stderr, "peakrss: cannot write %s\n", path);
    return 2;
  }
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
