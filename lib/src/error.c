/* error.c: the error table, the per-thread error record and its reporting. */
#include "config.h"
#include "tessera/error.h"

#include <limits.h>
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
  int remote; /* learnt from another rank's failure notice (tsr__wait_all) */
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
  tsr__err.remote = 0;
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
  tsr__err.remote = 0;
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

/* Failure notices: a rank that fails alone in the middle of a time step
 * enters tsr_error_agree while its neighbours wait in a halo exchange for
 * messages it may never send. The protocol:
 *
 * - Every process counts the halo exchanges whose outgoing data it has
 *   posted (tsr__halo_posted, called by halo.c at that point in every path,
 *   also with no neighbours), so all ranks number their exchanges alike:
 *   exchange k of one rank is exchange k of every rank.
 * - A rank whose own error is not yet known to the others (not agreed, not
 *   learnt from a notice) sends, on entering tsr_error_agree, a notice to
 *   every other rank of the communicator (MPI_COMM_WORLD, tag
 *   TSR__NOTICE_TAG, so that it reaches waits on any duplicate): its count c.
 *   It has posted exchanges 1..c and will post no more.
 * - tsr__wait_all, the wait of a rank's exchange k, takes the notices queued
 *   for it while its messages are incomplete and remembers the count per
 *   sender. It ends with an error (remote) only when some remembered count
 *   c < k: that sender will never send exchange k. With c >= k the sender's
 *   messages of exchange k are posted, the wait completes as usual, and the
 *   notice stays remembered for the exchanges after it (k + 1 > c: an error
 *   at once, before any waiting) and for the agreement.
 * - tsr_error_agree gathers who sent notices, takes those not yet received
 *   (the remembered ones count) so that none is left for a later wait, waits
 *   for its own notices to be taken, and chooses the lowest rank whose error
 *   is its own. After an agreed error, every rank's count is set to the
 *   highest count of the communicator: the exchanges in flight are abandoned,
 *   and the next one has the same number everywhere.
 * An error that came out of an agreement is known everywhere: no notice. */
#define TSR__NOTICE_TAG 32123

static long long tsr__posted;     /* this process's exchanges posted */
static int tsr__nworld;           /* 0: not set up; -1: no memory for it */
static long long *tsr__heard;     /* [nworld] count + 1 of a notice taken, 0 none */
static long long tsr__heard_min;  /* the lowest remembered count; LLONG_MAX none */
static int tsr__heard_from;       /* its sender (world rank) */
static MPI_Request *tsr__nreq;    /* [nworld] this rank's notices in flight */
static int *tsr__sent;            /* [nworld] who sent notices (the agreement's gather) */
static long long tsr__notice_c;   /* the content of this rank's notices in flight */

long long tsr__halo_posted(void) { return ++tsr__posted; }

static int tsr__notice_setup(void) {
  if (tsr__nworld) return tsr__nworld > 0 ? 0 : -1;
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  tsr__heard = calloc((size_t)n, sizeof *tsr__heard);
  tsr__nreq = malloc((size_t)n * sizeof *tsr__nreq);
  tsr__sent = malloc((size_t)n * sizeof *tsr__sent);
  if (!tsr__heard || !tsr__nreq || !tsr__sent) {
    free(tsr__heard), free(tsr__nreq), free(tsr__sent);
    tsr__nworld = -1;
    return -1;
  }
  tsr__nworld = n;
  tsr__heard_min = LLONG_MAX;
  tsr__heard_from = -1;
  return 0;
}

static int tsr__world_rank(MPI_Comm comm, int r) {
  if (comm == MPI_COMM_WORLD) return r;
  MPI_Group g, w;
  int out = MPI_UNDEFINED;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &w);
  MPI_Group_translate_ranks(g, 1, &r, w, &out);
  MPI_Group_free(&g);
  MPI_Group_free(&w);
  return out;
}

/* Receive every notice queued for this rank and remember it. */
static void tsr__notice_take(void) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, TSR__NOTICE_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS ||
        !flag)
      return;
    long long c = 0;
    MPI_Recv(&c, 1, MPI_LONG_LONG, st.MPI_SOURCE, TSR__NOTICE_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    tsr__heard[st.MPI_SOURCE] = c + 1;
    if (c < tsr__heard_min) tsr__heard_min = c, tsr__heard_from = st.MPI_SOURCE;
  }
}

int tsr__wait_all(int n, MPI_Request *req, long long k) {
  if (!tsr__mpi_live() || tsr__notice_setup() != 0) {
    if (MPI_Waitall(n, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      return TSR_RAISE(TSR_ERR_MPI, "halo exchange: MPI_Waitall failed");
    return TSR_SUCCESS;
  }
  /* notices are looked for once the messages are found incomplete, then
     every millisecond: a probe per test would slow the exchange itself */
  double next = 0;
  while (tsr__heard_min >= k) {
    int done = 0;
    if (MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      return TSR_RAISE(TSR_ERR_MPI, "halo exchange: MPI_Testall failed");
    if (done) return TSR_SUCCESS;
    const double now = MPI_Wtime();
    if (now >= next) {
      tsr__notice_take();
      next = now + 1e-3;
    }
  }
  /* the messages of the failed rank never come: the receives are withdrawn
     (the buffers may be freed), the sends left to complete on their own */
  for (int i = 0; i < n; i++)
    if (req[i] != MPI_REQUEST_NULL) {
      MPI_Cancel(&req[i]);
      MPI_Request_free(&req[i]);
    }
  TSR_RAISE(TSR_ERR_MPI, "rank %d (of MPI_COMM_WORLD) failed before halo exchange %lld",
            tsr__heard_from, k);
  tsr__err.remote = 1;
  return TSR_ERR_MPI;
}

int tsr_error_agree(MPI_Comm comm, int code) {
  if (!tsr__mpi_live()) return code;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int ready = tsr__notice_setup() == 0;
  const int own = code && !tsr__err.remote;
  /* this rank's failure, unknown to the others: the notices, before the
     collective */
  const int notify = own && !tsr__err.collective && size > 1 && ready;
  if (notify) {
    tsr__notice_c = tsr__posted;
    for (int r = 0; r < size; r++) {
      tsr__nreq[r] = MPI_REQUEST_NULL;
      const int w = r == rank ? MPI_UNDEFINED : tsr__world_rank(comm, r);
      if (w != MPI_UNDEFINED)
        MPI_Isend(&tsr__notice_c, 1, MPI_LONG_LONG, w, TSR__NOTICE_TAG, MPI_COMM_WORLD,
                  &tsr__nreq[r]);
    }
  }
  /* the lowest rank failed on its own, the lowest failing rank, the highest
     exchange count, whether every rank can take part in the notices, whether
     some rank sent them */
  long long v[5] = {own ? rank : size, code ? rank : size, -tsr__posted, ready ? 0 : -1,
                    notify ? -1 : 0}, m[5];
  MPI_Allreduce(v, m, 5, MPI_LONG_LONG, MPI_MIN, comm);
  if (m[4] < 0 && m[3] == 0) { /* take the notices not taken yet */
    int mine = notify;
    MPI_Allgather(&mine, 1, MPI_INT, tsr__sent, 1, MPI_INT, comm);
    for (int r = 0; r < size; r++) {
      const int w = !tsr__sent[r] || r == rank ? MPI_UNDEFINED : tsr__world_rank(comm, r);
      if (w == MPI_UNDEFINED) continue;
      if (!tsr__heard[w]) {
        long long c;
        MPI_Recv(&c, 1, MPI_LONG_LONG, w, TSR__NOTICE_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      tsr__heard[w] = 0;
    }
    tsr__heard_min = LLONG_MAX, tsr__heard_from = -1;
    for (int w = 0; w < tsr__nworld; w++) /* notices of ranks outside comm stay */
      if (tsr__heard[w] && tsr__heard[w] - 1 < tsr__heard_min)
        tsr__heard_min = tsr__heard[w] - 1, tsr__heard_from = w;
  }
  if (notify && m[3] == 0) /* taken by every rank above */
    MPI_Waitall(size, tsr__nreq, MPI_STATUSES_IGNORE);
  else if (notify) /* a rank without the notices' memory never takes them */
    for (int r = 0; r < size; r++)
      if (tsr__nreq[r] != MPI_REQUEST_NULL) MPI_Request_free(&tsr__nreq[r]);
  if (m[1] == size) return 0;
  tsr__posted = -m[2];
  /* Everyone takes the code and message of the lowest rank whose error is its
     own (else of the lowest failing rank). */
  const int first = (int)(m[0] < size ? m[0] : m[1]);
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
  tsr__err.remote = 0;
  return rec.code;
}

void tsr__tmp_remove_all(void); /* io_tmp.c: temporary outputs left open */

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
