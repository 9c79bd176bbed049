/* lib/src/colour_plan.c: two-level (block + thread) colouring plans for
 * shared-memory staging of indirect increments (tessera/colour.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/colour.h"
#include "tessera/error.h"

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* slot of t in the sorted list l[n], or -1 */
static int32_t find_slot(const int32_t *l, tsr_idx_t n, int32_t t) {
  tsr_idx_t lo = 0, hi = n;
  while (lo < hi) {
    tsr_idx_t mid = lo + (hi - lo) / 2;
    if (l[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && l[lo] == t ? (int32_t)lo : -1;
}

void tsr_plan_stage_free(tsr_plan_stage_t *st) {
  if (!st) return;
  free(st->target_off);
  free(st->target);
  free(st->local);
  memset(st, 0, sizeof *st);
}

/* Staging of `map` for rows order[0..nelem) cut by block_off. */
static int plan_stage(const int32_t *map, int dim, tsr_idx_t ntargets, tsr_idx_t nelem,
                      const int32_t *order, tsr_idx_t nblocks, const tsr_idx_t *block_off,
                      tsr_plan_stage_t *st) {
  memset(st, 0, sizeof *st);
  st->dim = dim;
  st->target_off = calloc((size_t)nblocks + 1, sizeof(tsr_idx_t));
  st->target = malloc(sizeof(int32_t) * (size_t)(nelem * dim + 1));
  st->local = malloc(sizeof(int32_t) * (size_t)(nelem * dim + 1));
  if (!st->target_off || !st->target || !st->local) {
    tsr_plan_stage_free(st);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_plan: no memory for %lld elements", (long long)nelem);
  }
  st->reuse_min = nblocks > 0 ? 1e300 : 0;
  tsr_idx_t w = 0, staged = 0;
  for (tsr_idx_t b = 0; b < nblocks; b++) {
    tsr_idx_t start = w, acc = 0;
    for (tsr_idx_t i = block_off[b]; i < block_off[b + 1]; i++)
      for (int k = 0; k < dim; k++) {
        int32_t t = map[(tsr_idx_t)order[i] * dim + k];
        if (t >= ntargets) {
          tsr_plan_stage_free(st);
          return TSR_RAISE(TSR_ERR_RANGE, "tsr_plan: row %d column %d: target %d not below %lld",
                           order[i], k, t, (long long)ntargets);
        }
        if (t >= 0) st->target[w++] = t, acc++;
      }
    qsort(st->target + start, (size_t)(w - start), sizeof(int32_t), cmp_i32);
    tsr_idx_t u = start;
    for (tsr_idx_t j = start; j < w; j++)
      if (j == start || st->target[j] != st->target[j - 1]) st->target[u++] = st->target[j];
    w = u;
    st->target_off[b + 1] = w;
    tsr_idx_t nt = w - start;
    if (nt > st->max_targets) st->max_targets = (int)nt;
    for (tsr_idx_t i = block_off[b]; i < block_off[b + 1]; i++)
      for (int k = 0; k < dim; k++) {
        int32_t t = map[(tsr_idx_t)order[i] * dim + k];
        st->local[i * dim + k] = t >= 0 ? find_slot(st->target + start, nt, t) : -1;
      }
    st->accesses += acc;
    staged += nt;
    double r = nt > 0 ? (double)acc / (double)nt : 1;
    if (r < st->reuse_min) st->reuse_min = r;
    if (r > st->reuse_max) st->reuse_max = r;
  }
  st->reuse_mean = staged > 0 ? (double)st->accesses / (double)staged : 0;
  return 0;
}

int tsr_plan_stage(const tsr_plan_t *plan, const int32_t *map, int dim, tsr_idx_t ntargets,
                   tsr_plan_stage_t *st) {
  TSR_CHECK(plan && (map || plan->nelem == 0) && dim >= 1, TSR_ERR_ARG,
            "tsr_plan_stage: needs a plan and a map of dim >= 1");
  TSR_CALL(plan_stage(map, dim, ntargets, plan->nelem, plan->order, plan->nblocks,
                      plan->block_off, st));
  return 0;
}

int tsr_plan_uniform_blocks(tsr_idx_t nelem, int block, tsr_idx_t *nblocks, tsr_idx_t **block_off) {
  TSR_CHECK(block >= 1 && nelem >= 0, TSR_ERR_ARG, "tsr_plan_uniform_blocks: block %d", block);
  tsr_idx_t nb = TSR_CEIL_DIV(nelem, (tsr_idx_t)block);
  tsr_idx_t *off = malloc(sizeof(tsr_idx_t) * (size_t)(nb + 1));
  TSR_CHECK(off, TSR_ERR_ALLOC, "tsr_plan_uniform_blocks: no memory");
  for (tsr_idx_t b = 0; b <= nb; b++) off[b] = TSR_MIN(b * block, nelem);
  *nblocks = nb;
  *block_off = off;
  return 0;
}

int tsr_plan_destroy(tsr_plan_t **plan) {
  if (!plan || !*plan) return 0;
  tsr_plan_t *p = *plan;
  free(p->block_off);
  free(p->order);
  free(p->thread_colour);
  free(p->block_ncolours);
  free(p->block_colour);
  free(p->bcolour_off);
  free(p->bcolour_blocks);
  tsr_plan_stage_free(&p->inc);
  free(p);
  *plan = NULL;
  return 0;
}

/* Thread colours of every block (greedy in row order), then the rows of
 * each block sorted by colour (stable). */
static int plan_threads(tsr_plan_t *p, const int32_t *map, int dim, tsr_idx_t ntargets) {
  tsr_plan_stage_t st;
  TSR_CALL(plan_stage(map, dim, ntargets, p->nelem, p->order, p->nblocks, p->block_off, &st));
  uint64_t *used = calloc((size_t)st.max_targets + 1, sizeof(uint64_t));
  int32_t *tmp = malloc(sizeof(int32_t) * (size_t)(2 * p->max_block + 1));
  int rc = used && tmp ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "tsr_plan: no memory");
  for (tsr_idx_t b = 0; !rc && b < p->nblocks; b++) {
    tsr_idx_t b0 = p->block_off[b], b1 = p->block_off[b + 1];
    int nc = 0;
    memset(used, 0, sizeof(uint64_t) * ((size_t)st.max_targets + 1));
    for (tsr_idx_t i = b0; i < b1 && !rc; i++) {
      uint64_t m = 0;
      for (int k = 0; k < dim; k++)
        if (st.local[i * dim + k] >= 0) m |= used[st.local[i * dim + k]];
      if (m == ~(uint64_t)0) {
        rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "tsr_plan: row %d needs more than %d thread colours",
                       p->order[i], TSR_COLOUR_MAX);
        break;
      }
      int c = 0;
      while (m & ((uint64_t)1 << c)) c++;
      p->thread_colour[i] = c;
      if (c + 1 > nc) nc = c + 1;
      for (int k = 0; k < dim; k++)
        if (st.local[i * dim + k] >= 0) used[st.local[i * dim + k]] |= (uint64_t)1 << c;
    }
    if (rc) break;
    p->block_ncolours[b] = nc;
    if (nc > p->max_thread_colours) p->max_thread_colours = nc;
    /* counting sort of the block's positions by colour */
    int32_t *row = tmp, *col = tmp + p->max_block;
    tsr_idx_t w = 0;
    for (int c = 0; c < nc; c++)
      for (tsr_idx_t i = b0; i < b1; i++)
        if (p->thread_colour[i] == c) row[w] = p->order[i], col[w] = c, w++;
    for (tsr_idx_t j = 0; j < w; j++) p->order[b0 + j] = row[j], p->thread_colour[b0 + j] = col[j];
  }
  free(used);
  free(tmp);
  tsr_plan_stage_free(&st);
  TSR_CALL(rc);
  return 0;
}

/* Greedy block colours: no two blocks of a colour stage a common target. */
static int plan_blocks(tsr_plan_t *p, tsr_idx_t ntargets) {
  uint64_t *used = calloc((size_t)ntargets + 1, sizeof(uint64_t));
  TSR_CHECK(used, TSR_ERR_ALLOC, "tsr_plan: no memory for %lld targets", (long long)ntargets);
  int rc = 0;
  for (tsr_idx_t b = 0; b < p->nblocks; b++) {
    uint64_t m = 0;
    for (tsr_idx_t j = p->inc.target_off[b]; j < p->inc.target_off[b + 1]; j++)
      m |= used[p->inc.target[j]];
    if (m == ~(uint64_t)0) {
      rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "tsr_plan: block %lld needs more than %d block colours",
                     (long long)b, TSR_COLOUR_MAX);
      break;
    }
    int c = 0;
    while (m & ((uint64_t)1 << c)) c++;
    p->block_colour[b] = c;
    if (c + 1 > p->nblock_colours) p->nblock_colours = c + 1;
    for (tsr_idx_t j = p->inc.target_off[b]; j < p->inc.target_off[b + 1]; j++)
      used[p->inc.target[j]] |= (uint64_t)1 << c;
  }
  free(used);
  TSR_CALL(rc);
  TSR_CALL(tsr_colour_groups(p->block_colour, p->nblocks, p->nblock_colours, &p->bcolour_off,
                             &p->bcolour_blocks));
  return 0;
}

int tsr_plan_create(const int32_t *map, int dim, tsr_idx_t ntargets, tsr_idx_t first,
                    tsr_idx_t nelem, tsr_idx_t nblocks, const tsr_idx_t *block_off,
                    tsr_plan_t **out) {
  *out = NULL;
  TSR_CHECK((map || nelem == 0) && dim >= 1 && first >= 0 && nelem >= 0 && nelem < INT32_MAX &&
                nblocks >= 0 && nblocks < INT32_MAX && block_off,
            TSR_ERR_ARG, "tsr_plan_create: map %p, dim %d, rows [%lld, +%lld), %lld blocks",
            (const void *)map, dim, (long long)first, (long long)nelem, (long long)nblocks);
  TSR_CHECK(block_off[0] == 0 && block_off[nblocks] == nelem, TSR_ERR_ARG,
            "tsr_plan_create: blocks cover [%lld, %lld), expected [0, %lld)",
            (long long)block_off[0], (long long)block_off[nblocks], (long long)nelem);
  tsr_plan_t *p = calloc(1, sizeof *p);
  TSR_CHECK(p, TSR_ERR_ALLOC, "tsr_plan_create: no memory");
  p->first = first, p->nelem = nelem, p->nblocks = nblocks;
  p->block_off = malloc(sizeof(tsr_idx_t) * (size_t)(nblocks + 1));
  p->order = malloc(sizeof(int32_t) * (size_t)(nelem + 1));
  p->thread_colour = malloc(sizeof(int32_t) * (size_t)(nelem + 1));
  p->block_ncolours = malloc(sizeof(int32_t) * (size_t)(nblocks + 1));
  p->block_colour = malloc(sizeof(int32_t) * (size_t)(nblocks + 1));
  int rc = 0;
  if (!p->block_off || !p->order || !p->thread_colour || !p->block_ncolours || !p->block_colour)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_plan_create: no memory for %lld elements", (long long)nelem);
  for (tsr_idx_t b = 0; !rc && b < nblocks; b++) {
    tsr_idx_t sz = block_off[b + 1] - block_off[b];
    if (sz < 0 || sz > INT32_MAX) {
      rc = TSR_RAISE(TSR_ERR_ARG, "tsr_plan_create: block %lld has %lld elements", (long long)b,
                     (long long)sz);
      break;
    }
    if (sz > p->max_block) p->max_block = (int)sz;
  }
  if (!rc) {
    memcpy(p->block_off, block_off, sizeof(tsr_idx_t) * (size_t)(nblocks + 1));
    for (tsr_idx_t i = 0; i < nelem; i++) p->order[i] = (int32_t)(first + i);
  }
  if (!rc) rc = plan_threads(p, map, dim, ntargets);
  if (!rc) rc = plan_stage(map, dim, ntargets, nelem, p->order, nblocks, p->block_off, &p->inc);
  if (!rc) rc = plan_blocks(p, ntargets);
  if (rc) {
    tsr_plan_destroy(&p);
    TSR_CALL(rc);
  }
  *out = p;
  return 0;
}
