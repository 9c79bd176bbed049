/* error.c: the error table, the per-thread error record and its reporting. */
#include "config.h"
#include "tessera/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TSR__MSG_MAX 1024
#define TSR__TRACE_MAX 32

typedef struct {
  const char *file;
  const char *func;
  int line;
} tsr__frame_t;

typedef struct {
  int code;
  int collective;
  char msg[TSR__MSG_MAX];
  int nframes;
  tsr__frame_t frames[TSR__TRACE_MAX];
} tsr__error_t;

static _Thread_local tsr__error_t tsr__err;
static char tsr__progname[64] = "tessera";

static const char *const tsr__err_str[] = {
#define TSR__ERR_STR(name, str) str,
    TSR_ERROR_TABLE(TSR__ERR_STR)
#undef TSR__ERR_STR
};
static const char *const tsr__err_name[] = {
#define TSR__ERR_NAME(name, str) #name,
    TSR_ERROR_TABLE(TSR__ERR_NAME)
#undef TSR__ERR_NAME
};

const char *tsr_strerror(int code) {
  if (code < 0 || code >= TSR_ERR_COUNT_) return "unknown error";
  return tsr__err_str[code];
}

const char *tsr_errname(int code) {
  if (code < 0 || code >= TSR_ERR_COUNT_) return "UNKNOWN";
  return tsr__err_name[code];
}

static void tsr__push_frame(const char *file, int line, const char *func) {
  if (tsr__err.nframes >= TSR__TRACE_MAX) return;
  tsr__frame_t *f = &tsr__err.frames[tsr__err.nframes++];
  f->file = file;
  f->line = line;
  f->func = func;
}

int tsr_error_raise(int code, const char *file, int line, const char *func,
                    const char *fmt, ...) {
  /* format first: the arguments may point at the previous message */
  char msg[TSR__MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tsr__err.code = code;
  tsr__err.collective = 0;
  tsr__err.nframes = 0;
  memcpy(tsr__err.msg, msg, sizeof msg);
  tsr__push_frame(file, line, func);
  return code;
}

int tsr_error_trace(int code, const char *file, int line, const char *func) {
  if (tsr__err.code == 0) {
    /* A code nobody raised with a message (e.g. a raw return): describe it. */
    tsr__err.code = code;
    tsr__err.nframes = 0;
    snprintf(tsr__err.msg, sizeof tsr__err.msg, "%s", tsr_strerror(code));
  }
  tsr__push_frame(file, line, func);
  return code;
}

const char *tsr_error_message(void) { return tsr__err.msg; }
int tsr_error_code(void) { return tsr__err.code; }
int tsr_error_is_collective(void) { return tsr__err.collective; }

void tsr_error_clear(void) {
  tsr__err.code = 0;
  tsr__err.collective = 0;
  tsr__err.nframes = 0;
  tsr__err.msg[0] = '\0';
}

void tsr_error_set_progname(const char *name) {
  if (!name) return;
  const char *slash = strrchr(name, '/');
  if (slash) name = slash + 1;
  /* libtool's uninstalled wrappers run lt-NAME */
  if (strncmp(name, "lt-", 3) == 0) name += 3;
  snprintf(tsr__progname, sizeof tsr__progname, "%s", name);
}

static int tsr__trace_wanted(void) {
  const char *t = getenv("TSR_TRACE");
  return t && *t && strcmp(t, "0") != 0;
}

static void tsr__print(FILE *f, const char *prefix) {
  const char *msg = tsr__err.msg[0] ? tsr__err.msg : tsr_strerror(tsr__err.code);
  fprintf(f, "%s: %serror: %s\n", tsr__progname, prefix, msg);
  if (tsr__trace_wanted()) {
    fprintf(f, "  [%s] %s\n", tsr_errname(tsr__err.code), tsr_strerror(tsr__err.code));
    for (int i = 0; i < tsr__err.nframes; i++)
      fprintf(f, "  at %s:%d (%s)\n", tsr__err.frames[i].file,
              tsr__err.frames[i].line, tsr__err.frames[i].func);
  }
  fflush(f);
}

void tsr_error_print(FILE *f) { tsr__print(f, ""); }

int tsr__error_mpi(int mpierr, const char *expr, const char *file, int line,
                   const char *func) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(mpierr, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "code %d", mpierr);
  return tsr_error_raise(TSR_ERR_MPI, file, line, func, "%s failed: %s", expr, s);
}

static int tsr__mpi_live(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

int tsr_error_agree(MPI_Comm comm, int code) {
  if (!tsr__mpi_live()) return code;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = code ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return 0;
  /* Everyone takes the lowest failing rank's code and message. */
  struct { int code; char msg[TSR__MSG_MAX]; } rec;
  if (rank == first) {
    rec.code = tsr__err.code ? tsr__err.code : code;
    memcpy(rec.msg, tsr__err.msg, sizeof rec.msg);
  }
  MPI_Bcast(&rec, (int)sizeof rec, MPI_BYTE, first, comm);
  if (rank != first) {
    tsr__err.code = rec.code;
    tsr__err.nframes = 0;
    memcpy(tsr__err.msg, rec.msg, sizeof rec.msg);
  }
  tsr__err.collective = 1;
  return rec.code;
}

void tsr__tmp_remove_all(void); /* io_file.c: temporary outputs left open */

void tsr_abort(MPI_Comm comm, int code) {
  tsr__tmp_remove_all();
  if (code == 0) code = TSR_ERR_INTERNAL;
  if (tsr__err.code == 0) tsr__err.code = code;
  if (!tsr__mpi_live()) {
    tsr__print(stderr, "");
    exit(1);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (tsr__err.collective || size == 1) {
    /* every rank knows (or there is one): a clean end, no abort banner */
    if (rank == 0) tsr__print(stderr, "");
    MPI_Finalize();
    exit(1);
  }
  if (size > 1) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "rank %d: ", rank);
    tsr__print(stderr, prefix);
  } else {
    tsr__print(stderr, "");
  }
  MPI_Abort(comm, 1);
  exit(1); /* not reached */
}
