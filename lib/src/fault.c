/* fault.c: TSR_FAULT, the fault-injection switch (tessera/fault.h). */
#include "config.h"
#include "tessera/fault.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TSR__FAULT_MAX 8

typedef struct {
  int site, rank; /* rank -1: every rank */
  long long after, count;
  long long calls; /* calls of the site seen so far */
} tsr__fault_t;

static tsr__fault_t tsr__faults[TSR__FAULT_MAX];
static int tsr__nfaults = -1; /* -1: TSR_FAULT not read yet */

static const char *const tsr__site_names[TSR_FAULT_NSITES_] = {"alloc", "h5read", "cuda"};

static int tsr__fault_parse_one(char *s, tsr__fault_t *f) {
  char *save = NULL, *tok = strtok_r(s, ":", &save);
  if (!tok) return -1;
  f->site = -1;
  for (int i = 0; i < TSR_FAULT_NSITES_; i++)
    if (strcmp(tok, tsr__site_names[i]) == 0) f->site = i;
  if (f->site < 0) return -1;
  f->rank = -1, f->after = 0, f->count = 1, f->calls = 0;
  while ((tok = strtok_r(NULL, ":", &save))) {
    char *eq = strchr(tok, '='), *end = NULL;
    if (!eq) return -1;
    *eq = '\0';
    long long v = strtoll(eq + 1, &end, 10);
    if (end == eq + 1 || *end || v < 0) return -1;
    if (strcmp(tok, "rank") == 0 && v <= INT32_MAX) f->rank = (int)v;
    else if (strcmp(tok, "after") == 0) f->after = v;
    else if (strcmp(tok, "count") == 0) f->count = v;
    else return -1;
  }
  return 0;
}

static void tsr__fault_init(void) {
  tsr__nfaults = 0;
  const char *env = getenv("TSR_FAULT");
  if (!env || !*env) return;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", env);
  char *save = NULL;
  for (char *spec = strtok_r(buf, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
    char one[128];
    snprintf(one, sizeof one, "%s", spec);
    if (tsr__nfaults == TSR__FAULT_MAX || tsr__fault_parse_one(one, &tsr__faults[tsr__nfaults])) {
      fprintf(stderr, "tessera: TSR_FAULT: ignoring '%s' (expected SITE[:rank=R][:after=N]"
                      "[:count=K], SITE alloc, h5read or cuda)\n", spec);
      continue;
    }
    tsr__nfaults++;
  }
}

static int tsr__world_rank(void) {
  int init = 0, fin = 0, rank = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int tsr_fault(tsr_fault_site_t site) {
  if (tsr__nfaults == 0) return 0;
  int hit = 0;
#ifdef _OPENMP
#pragma omp critical(tsr__fault)
#endif
  {
    if (tsr__nfaults < 0) tsr__fault_init();
    int rank = -2;
    for (int i = 0; i < tsr__nfaults; i++) {
      tsr__fault_t *f = &tsr__faults[i];
      if (f->site != (int)site) continue;
      if (f->rank >= 0) {
        if (rank == -2) rank = tsr__world_rank();
        if (rank != f->rank) continue;
      }
      long long c = f->calls++;
      if (c >= f->after && c - f->after < f->count) hit = 1;
    }
  }
  return hit;
}

void *tsr_malloc(size_t bytes) {
  if (tsr_fault(TSR_FAULT_ALLOC)) return NULL;
  return malloc(bytes ? bytes : 1);
}

void *tsr_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  if (tsr_fault(TSR_FAULT_ALLOC)) return NULL;
  return calloc(n ? n : 1, size ? size : 1);
}
