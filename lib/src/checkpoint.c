/* checkpoint.c: checkpoint files (tessera/checkpoint.h, docs/FORMAT.md):
 * the root attributes that identify one, the options a restart must
 * repeat, and the schedule of iterations between checkpoints. The state
 * itself is the app's, written and read through tessera/io.h. */
#include "config.h"
#include "tessera/checkpoint.h"
#include "tessera/error.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsr_checkpoint_match_init(tsr_checkpoint_match_t *m, const char *app) {
  memset(m, 0, sizeof *m);
  snprintf(m->app, sizeof m->app, "%s", app ? app : "");
}

int tsr_checkpoint_match_add(tsr_checkpoint_match_t *m, const char *key, const char *fmt, ...) {
  TSR_CHECK(m && key && *key && strlen(key) < sizeof m->key[0] && !strpbrk(key, "=\n"),
            TSR_ERR_ARG, "checkpoint: bad match key '%s'", key ? key : "");
  TSR_CHECK(m->n < TSR_CHECKPOINT_MAXKEYS, TSR_ERR_ARG, "checkpoint: more than %d match keys",
            TSR_CHECKPOINT_MAXKEYS);
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(m->value[m->n], sizeof m->value[0], fmt, ap);
  va_end(ap);
  TSR_CHECK(w >= 0 && (size_t)w < sizeof m->value[0] && !strchr(m->value[m->n], '\n'), TSR_ERR_ARG,
            "checkpoint: value of match key '%s' too long or not one line", key);
  snprintf(m->key[m->n], sizeof m->key[0], "%s", key);
  m->n++;
  return TSR_SUCCESS;
}

/* splitmix64's finaliser: every bit of the element and its index mixed */
static uint64_t tsr__mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t tsr_checkpoint_hash_add(uint64_t h, const void *elem, size_t size, int64_t gindex) {
  uint64_t z = tsr__mix((uint64_t)gindex);
  const unsigned char *b = elem;
  for (size_t i = 0; i < size; i += 8) {
    uint64_t w = 0;
    memcpy(&w, b + i, size - i < 8 ? size - i : 8);
    z = tsr__mix(z ^ w);
  }
  return h + z; /* a sum: independent of the order and of who adds what */
}

int tsr_checkpoint_match_hash(tsr_checkpoint_match_t *m, MPI_Comm comm, const char *key,
                              uint64_t local) {
  uint64_t sum = local;
  TSR_CALL_MPI(MPI_Allreduce(&local, &sum, 1, MPI_UINT64_T, MPI_SUM, comm));
  TSR_CALL(tsr_checkpoint_match_add(m, key, "%016" PRIx64, sum));
  return TSR_SUCCESS;
}

int64_t tsr_checkpoint_next(int64_t k, int64_t n, int64_t every) {
  if (k >= n) return 0;
  if (every <= 0) return n - k;
  const int64_t next = (k / every + 1) * every;
  return (next < n ? next : n) - k;
}

int tsr_checkpoint_due(int64_t k, int64_t every) {
  return every > 0 && k > 0 && k % every == 0;
}

/* "key=value\n" lines of m */
static void tsr__match_text(const tsr_checkpoint_match_t *m, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < m->n && at < n; i++)
    at += (size_t)snprintf(buf + at, n - at, "%s=%s\n", m->key[i], m->value[i]);
}

enum { TSR__MATCH_TEXT = TSR_CHECKPOINT_MAXKEYS * 200 };

int tsr_checkpoint_create(MPI_Comm comm, const char *path, const tsr_checkpoint_match_t *m,
                          int64_t iteration, const tsr_provenance_t *p, tsr_file_t **out) {
  *out = NULL;
  TSR_CHECK(m && iteration >= 0, TSR_ERR_ARG, "checkpoint %s: needs the match and an iteration",
            path ? path : "");
  char *text = malloc(TSR__MATCH_TEXT);
  TSR_CHECK(text, TSR_ERR_ALLOC, "checkpoint %s: no memory", path);
  tsr__match_text(m, text, TSR__MATCH_TEXT);
  tsr_provenance_t prov = {m->app, "", "", "", 0};
  if (p) prov = *p, prov.app = m->app;
  tsr_file_t *f = NULL;
  int rc = tsr_file_create(comm, path, &f);
  if (!rc) rc = tsr_file_write_attr_string(f, NULL, "kind", TSR_CHECKPOINT_KIND);
  if (!rc) rc = tsr_file_write_attr_int(f, NULL, "iteration", &iteration, 1);
  if (!rc) rc = tsr_file_write_attr_string(f, NULL, "match", text);
  if (!rc) rc = tsr_file_write_provenance(f, &prov);
  free(text);
  if (rc && f) tsr_file_discard(&f);
  TSR_CALL(rc);
  *out = f;
  return TSR_SUCCESS;
}

int tsr_checkpoint_commit(tsr_file_t **f, int rc) {
  if (!f || !*f) return rc;
  if (rc) {
    tsr_file_discard(f);
    return rc;
  }
  TSR_CALL(tsr_file_close(f));
  return TSR_SUCCESS;
}

/* The first key of m whose value in the file's text differs: its name, the
 * file's value (or NULL: missing) in *had. Returns -1 when all match. */
static int tsr__match_diff(const tsr_checkpoint_match_t *m, char *text, const char **had) {
  for (int i = 0; i < m->n; i++) {
    const size_t kl = strlen(m->key[i]);
    *had = NULL;
    for (char *line = text; line && *line;) {
      char *nl = strchr(line, '\n');
      if (strncmp(line, m->key[i], kl) == 0 && line[kl] == '=') {
        if (nl) *nl = '\0';
        *had = line + kl + 1;
        const int same = strcmp(*had, m->value[i]) == 0;
        if (same && nl) *nl = '\n';
        if (!same) return i;
        break;
      }
      line = nl ? nl + 1 : NULL;
    }
    if (!*had) return i;
  }
  return -1;
}

static int tsr__check(tsr_file_t *f, const char *path, const tsr_checkpoint_match_t *m,
                      int64_t *iteration) {
  char kind[64], app[64];
  TSR_CALL(tsr_file_kind(f, kind, sizeof kind));
  TSR_CHECK(strcmp(kind, TSR_CHECKPOINT_KIND) == 0, TSR_ERR_FORMAT,
            "--restart %s: a file of kind '%s', not a checkpoint (written by --checkpoint-every)",
            path, kind);
  TSR_CHECK(tsr_file_has_attr(f, "/", "app") && tsr_file_has_attr(f, "/", "iteration") &&
                tsr_file_has_attr(f, "/", "match"),
            TSR_ERR_FORMAT, "--restart %s: a checkpoint without its app, iteration or match "
            "attribute", path);
  TSR_CALL(tsr_file_attr_string(f, "/", "app", app, sizeof app));
  TSR_CHECK(strcmp(app, m->app) == 0, TSR_ERR_FORMAT,
            "--restart %s: a checkpoint of %s, not of %s", path, app, m->app);
  TSR_CALL(tsr_file_attr_int(f, "/", "iteration", iteration, 1));
  TSR_CHECK(*iteration >= 0, TSR_ERR_FORMAT, "--restart %s: iteration %lld is negative", path,
            (long long)*iteration);
  char *text = malloc(TSR__MATCH_TEXT);
  TSR_CHECK(text, TSR_ERR_ALLOC, "--restart %s: no memory", path);
  int rc = tsr_file_attr_string(f, "/", "match", text, TSR__MATCH_TEXT);
  const char *had = NULL;
  const int i = rc ? -1 : tsr__match_diff(m, text, &had);
  if (!rc && i >= 0 && had)
    rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: written for %s=%s, this run has %s=%s", path,
                   m->key[i], had, m->key[i], m->value[i]);
  else if (!rc && i >= 0)
    rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: the checkpoint does not record %s (this run "
                   "has %s=%s)", path, m->key[i], m->key[i], m->value[i]);
  free(text);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int tsr_checkpoint_open(MPI_Comm comm, const char *path, const tsr_checkpoint_match_t *m,
                        int64_t *iteration, tsr_file_t **out) {
  *out = NULL;
  tsr_file_t *f = NULL;
  int rc = tsr_file_open(comm, path, &f);
  if (rc) { /* the reader's message ("PATH: cannot open: ..."), said to be --restart's */
    char why[512];
    snprintf(why, sizeof why, "%s", tsr_error_message());
    tsr_error_clear();
    TSR_CALL(tsr_error_agree(comm, TSR_RAISE(rc, "--restart %s", why)));
  }
  rc = tsr_error_agree(comm, tsr__check(f, path, m, iteration));
  if (rc) {
    tsr_file_close(&f);
    TSR_CALL(rc);
  }
  *out = f;
  return TSR_SUCCESS;
}
