/* kernels/sparse/sg_dist.c: the plan of a distributed hierarchization
 * (which rank owns which block in each layout, the pole tables of every
 * sweep, the runs of every exchange) and the CPU sweep kernel. See
 * sg_dist.h for the scheme. */
#include "config.h"
#include "kernels/sparse/sg_dist.h"
#include "tessera/error.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ ownership */

/* The classes of one phase: blocks with equal level components in the key
 * dimensions [k0, k1). A class is numbered like a block of the sparse grid
 * of dimension k1 - k0 and level n (one class when the key is empty). */
typedef struct {
  int k0, k1;
  fastsg_grid_t K;
  int64_t nclass;
} fastsg_keys_t;

static int fastsg_keys_init(const fastsg_grid_t *G, int k0, int k1, fastsg_keys_t *k) {
  memset(k, 0, sizeof *k);
  k->k0 = k0;
  k->k1 = k1;
  k->nclass = 1;
  if (k1 > k0) {
    TSR_CALL(fastsg_grid_init(k1 - k0, G->level, &k->K));
    k->nclass = k->K.nblocks;
  }
  return TSR_SUCCESS;
}

static int64_t fastsg_keys_class(const fastsg_keys_t *k, const int *l) {
  if (k->k1 == k->k0) return 0;
  int g = 0;
  for (int t = k->k0; t < k->k1; t++) g += l[t];
  return k->K.bstart[g] + fastsg_block_rank(k->k1 - k->k0, l + k->k0);
}

typedef struct {
  int64_t w, id;
} fastsg_wid_t;

static int fastsg_wid_cmp(const void *x, const void *y) {
  const fastsg_wid_t *a = x, *b = y;
  if (a->w != b->w) return a->w > b->w ? -1 : 1; /* heaviest first */
  return a->id < b->id ? -1 : a->id > b->id;
}

/* Longest processing time first: classes by decreasing weight, each to the
 * least loaded rank (the lowest on ties). Deterministic on every rank. */
static int fastsg_assign(int64_t nc, const int64_t *w, int P, int32_t *cown) {
  fastsg_wid_t *v = malloc(sizeof *v * (size_t)nc);
  int64_t *load = calloc((size_t)P, sizeof *load);
  if (!v || !load) {
    free(v);
    free(load);
    return TSR_RAISE(TSR_ERR_ALLOC, "fastsg distribution: cannot allocate %lld classes",
                     (long long)nc);
  }
  for (int64_t c = 0; c < nc; c++) v[c] = (fastsg_wid_t){w[c], c};
  qsort(v, (size_t)nc, sizeof *v, fastsg_wid_cmp);
  for (int64_t j = 0; j < nc; j++) {
    int best = 0;
    for (int q = 1; q < P; q++)
      if (load[q] < load[best]) best = q;
    cown[v[j].id] = best;
    load[best] += v[j].w;
  }
  free(v);
  free(load);
  return TSR_SUCCESS;
}

/* Owner of every block in phase layouts A and B (own[1], own[2]) and in
 * the rows layout (own[0]). */
static int fastsg_owners(fastsg_dist_t *d) {
  const fastsg_grid_t *G = &d->grid;
  const int D = G->dim, n = G->level, P = d->size;
  fastsg_keys_t key[2];
  TSR_CALL(fastsg_keys_init(G, d->split, D, &key[0])); /* A sweeps t < h: key l_h.. */
  TSR_CALL(fastsg_keys_init(G, 0, d->split, &key[1])); /* B sweeps t >= h: key ..l_{h-1} */
  int rc = TSR_SUCCESS;
  for (int ph = 0; ph < 2 && rc == 0; ph++) {
    const int64_t nc = key[ph].nclass;
    int64_t *w = calloc((size_t)nc, sizeof *w);
    int32_t *cown = malloc(sizeof *cown * (size_t)nc);
    if (!w || !cown) rc = TSR_RAISE(TSR_ERR_ALLOC, "fastsg distribution: out of memory");
    int l[FASTSG_MAX_DIM];
    for (int g = 0; g < n && rc == 0; g++) {
      fastsg_block_first(D, g, l);
      do w[fastsg_keys_class(&key[ph], l)] += (int64_t)1 << g;
      while (fastsg_block_next(D, l));
    }
    if (rc == 0) rc = fastsg_assign(nc, w, P, cown);
    int64_t b = 0;
    for (int g = 0; g < n && rc == 0; g++) {
      fastsg_block_first(D, g, l);
      do d->own[1 + ph][b++] = cown[fastsg_keys_class(&key[ph], l)];
      while (fastsg_block_next(D, l));
    }
    free(w);
    free(cown);
  }
  for (int q = 0; q < P; q++) {
    int64_t b0, b1;
    fastsg_block_range(G, q, P, &b0, &b1);
    for (int64_t b = b0; b < b1; b++) d->own[0][b] = q;
    if (q == d->rank) {
      d->row_b0 = b0;
      d->row_b1 = b1;
      d->row_p0 = fastsg_gblock_pos(G, b0);
      d->row_p1 = fastsg_gblock_pos(G, b1);
    }
  }
  return rc;
}

/* Local start of every block of this rank in layout lay (-1 elsewhere). */
static void fastsg_locals(fastsg_dist_t *d, int lay, int64_t *loc) {
  const fastsg_grid_t *G = &d->grid;
  int64_t off = 0, nb = 0;
  for (int g = 0; g < G->level; g++)
    for (int64_t b = G->bstart[g]; b < G->bstart[g + 1]; b++) {
      loc[b] = -1;
      if (d->own[lay][b] != d->rank) continue;
      loc[b] = off;
      off += (int64_t)1 << g;
      nb++;
    }
  d->nlocal[lay] = off;
  d->nblk[lay] = nb;
}

/* ------------------------------------------------------------ exchanges */

/* Append run {x, y, len} to list r (n entries), merging with the last run
 * when both offsets continue it. */
static void fastsg_run_add(int64_t *r, int64_t *n, int64_t *last, int64_t x, int64_t y,
                           int64_t len) {
  if (*last >= 0) {
    int64_t *p = r + 3 * *last;
    if (p[0] + p[2] == x && p[1] + p[2] == y) {
      p[2] += len;
      return;
    }
  }
  *last = *n;
  r[3 * *n] = x;
  r[3 * *n + 1] = y;
  r[3 * *n + 2] = len;
  (*n)++;
}

/* Transfer from layout X (local starts lx) to layout Y (ly). */
static int fastsg_xfer_build(fastsg_dist_t *d, int X, int Y, const int64_t *lx,
                             const int64_t *ly, fastsg_xfer_t *f) {
  const fastsg_grid_t *G = &d->grid;
  const int P = d->size, me = d->rank;
  f->scount = calloc((size_t)P, sizeof(int64_t));
  f->rcount = calloc((size_t)P, sizeof(int64_t));
  f->sdispl = calloc((size_t)P + 1, sizeof(int64_t));
  f->rdispl = calloc((size_t)P + 1, sizeof(int64_t));
  f->srun = malloc(sizeof(int64_t) * 3 * (size_t)(d->nblk[X] + 1));
  f->rrun = malloc(sizeof(int64_t) * 3 * (size_t)(d->nblk[Y] + 1));
  int64_t *lasts = malloc(sizeof(int64_t) * 2 * (size_t)P), *lastr = lasts + P;
  if (!f->scount || !f->rcount || !f->sdispl || !f->rdispl || !f->srun || !f->rrun || !lasts) {
    free(lasts);
    return TSR_RAISE(TSR_ERR_ALLOC, "fastsg distribution: cannot allocate the exchange lists");
  }
  for (int g = 0; g < G->level; g++)
    for (int64_t b = G->bstart[g]; b < G->bstart[g + 1]; b++) {
      if (d->own[X][b] == me) f->scount[d->own[Y][b]] += (int64_t)1 << g;
      if (d->own[Y][b] == me) f->rcount[d->own[X][b]] += (int64_t)1 << g;
    }
  for (int q = 0; q < P; q++) {
    f->sdispl[q + 1] = f->sdispl[q] + f->scount[q];
    f->rdispl[q + 1] = f->rdispl[q] + f->rcount[q];
    lasts[q] = lastr[q] = -1;
  }
  int64_t *sfill = calloc((size_t)P * 2, sizeof(int64_t)), *rfill = sfill + P;
  if (!sfill) {
    free(lasts);
    return TSR_RAISE(TSR_ERR_ALLOC, "fastsg distribution: out of memory");
  }
  f->nsrun = f->nrrun = 0;
  for (int g = 0; g < G->level; g++)
    for (int64_t b = G->bstart[g]; b < G->bstart[g + 1]; b++) {
      const int64_t len = (int64_t)1 << g;
      if (d->own[X][b] == me) {
        const int q = d->own[Y][b];
        fastsg_run_add(f->srun, &f->nsrun, &lasts[q], lx[b], f->sdispl[q] + sfill[q], len);
        sfill[q] += len;
      }
      if (d->own[Y][b] == me) {
        const int q = d->own[X][b];
        fastsg_run_add(f->rrun, &f->nrrun, &lastr[q], f->rdispl[q] + rfill[q], ly[b], len);
        rfill[q] += len;
      }
    }
  free(sfill);
  free(lasts);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ poles */

/* The poles of sweep t in layout lay (local starts loc). Each block lies
 * in exactly one pole of a sweep, so npoles, npb <= the blocks held. */
static int fastsg_poles_build(fastsg_dist_t *d, int t, int lay, const int64_t *loc) {
  const fastsg_grid_t *G = &d->grid;
  const int D = G->dim, n = G->level;
  fastsg_sweep_t *s = &d->sw[t];
  const size_t cap = (size_t)d->nblk[lay] + 1;
  s->poles = malloc(sizeof *s->poles * cap);
  s->pb = malloc(sizeof *s->pb * cap);
  TSR_CHECK(s->poles && s->pb, TSR_ERR_ALLOC, "fastsg distribution: cannot allocate the poles");
  s->npoles = s->npb = 0;
  int l[FASTSG_MAX_DIM];
  int64_t b = 0;
  for (int g = 0; g < n - 1; g++) { /* roots: l_t = 0, groups < n-1 */
    fastsg_block_first(D, g, l);
    do {
      const int64_t root = b++;
      if (l[t] != 0 || d->own[lay][root] != d->rank) continue;
      fastsg_pole_t p = {s->npb, g, n - 1 - g, 0, 0};
      for (int u = t + 1; u < D; u++) p.low += l[u];
      for (int k = 0; k <= p.top; k++) {
        l[t] = k;
        const int64_t gb = G->bstart[g + k] + fastsg_block_rank(D, l);
        TSR_CHECK(loc[gb] >= 0, TSR_ERR_INTERNAL,
                  "fastsg distribution: sweep %d: block %lld of a local pole is on rank %d",
                  t, (long long)gb, d->own[lay][gb]);
        s->pb[s->npb++] = loc[gb];
      }
      l[t] = 0;
      s->poles[s->npoles++] = p;
    } while (fastsg_block_next(D, l));
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ plan */

int fastsg_dist_create(const fastsg_grid_t *G, int rank, int size, fastsg_dist_t **out) {
  TSR_CHECK(G && out && size >= 1 && rank >= 0 && rank < size, TSR_ERR_ARG,
            "fastsg_dist_create: bad arguments (rank %d of %d)", rank, size);
  *out = NULL;
  fastsg_dist_t *d = calloc(1, sizeof *d);
  TSR_CHECK(d, TSR_ERR_ALLOC, "fastsg_dist_create: out of memory");
  d->grid = *G;
  d->rank = rank;
  d->size = size;
  d->split = G->dim / 2;
  const size_t nb = (size_t)G->nblocks;
  int64_t *loc[3] = {NULL, NULL, NULL};
  int rc = TSR_SUCCESS;
  for (int k = 0; k < 3; k++) {
    d->own[k] = malloc(sizeof(int32_t) * nb);
    loc[k] = malloc(sizeof(int64_t) * nb);
    if (!d->own[k] || !loc[k])
      rc = TSR_RAISE(TSR_ERR_ALLOC, "fastsg_dist_create: cannot allocate the tables of %lld "
                     "blocks", (long long)nb);
  }
  if (rc == 0) rc = fastsg_owners(d);
  for (int k = 0; k < 3 && rc == 0; k++) fastsg_locals(d, k, loc[k]);
  d->cap = TSR_MAX(TSR_MAX(d->nlocal[0], d->nlocal[1]), d->nlocal[2]);
  static const int xl[3][2] = {{FASTSG_L_ROWS, FASTSG_L_A}, {FASTSG_L_A, FASTSG_L_B},
                               {FASTSG_L_B, FASTSG_L_ROWS}};
  for (int k = 0; k < 3 && rc == 0; k++)
    rc = fastsg_xfer_build(d, xl[k][0], xl[k][1], loc[xl[k][0]], loc[xl[k][1]], &d->xf[k]);
  for (int t = 0; t < G->dim && rc == 0; t++) {
    const int lay = t < d->split ? FASTSG_L_A : FASTSG_L_B;
    rc = fastsg_poles_build(d, t, lay, loc[lay]);
  }
  for (int k = 0; k < 3; k++) free(loc[k]);
  if (rc) {
    fastsg_dist_destroy(&d);
    return rc;
  }
  *out = d;
  return TSR_SUCCESS;
}

void fastsg_dist_destroy(fastsg_dist_t **dp) {
  if (!dp || !*dp) return;
  fastsg_dist_t *d = *dp;
  for (int k = 0; k < 3; k++) {
    fastsg_xfer_t *f = &d->xf[k];
    free(f->scount); free(f->rcount); free(f->sdispl); free(f->rdispl);
    free(f->srun); free(f->rrun);
    free(d->own[k]);
  }
  for (int t = 0; t < FASTSG_MAX_DIM; t++) {
    free(d->sw[t].poles);
    free(d->sw[t].pb);
  }
  free(d);
  *dp = NULL;
}

int fastsg_dist_owner(const fastsg_dist_t *d, int lay, int64_t b) { return d->own[lay][b]; }

/* ------------------------------------------------------------ CPU sweep */

/* One task per pole walks its blocks (hierarchize: l_t from top down, so a
 * block's parents, lower in the same pole, still hold their values from
 * before the sweep; dehierarchize: upwards, parents already nodal): the
 * arithmetic of cpu/hier/ichg1 and fastsg_dehier_cpu on the same values. */
#define FASTSG_DIST_SWEEP(R, NAME)                                                         \
  static void NAME(const fastsg_dist_args_t *A) {                                          \
    R *a = (R *)A->a;                                                                      \
    const int n = A->grid->level, up = A->dehier;                                          \
    _Pragma("omp parallel for schedule(dynamic, 4)")                                       \
    for (int64_t p = 0; p < A->npoles; p++) {                                              \
      const fastsg_pole_t P = A->poles[p];                                                 \
      const int64_t *ps = A->pb + P.first;                                                 \
      for (int j = 0; j < P.top; j++) {                                                    \
        const int k = up ? j + 1 : P.top - j;                                              \
        const int64_t base = ps[k], bsize = (int64_t)1 << (P.s + k);                       \
        for (int64_t loc = 0; loc < bsize; loc++) {                                        \
          R v0 = 0, v1 = 0;                                                                \
          int64_t q = fastsg_parent_pos_o1(loc, k, P.low, ps, 0, NULL, n);                 \
          if (q >= 0) v0 = a[q];                                                           \
          q = fastsg_parent_pos_o1(loc, k, P.low, ps, 1, NULL, n);                         \
          if (q >= 0) v1 = a[q];                                                           \
          a[base + loc] = up ? FASTSG_DEHIER(a[base + loc], v0, v1)                        \
                             : FASTSG_HIER(a[base + loc], v0, v1);                         \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  }
FASTSG_DIST_SWEEP(double, fastsg_dist_sweep_d)
FASTSG_DIST_SWEEP(float, fastsg_dist_sweep_f)

int fastsg_dist_sweep_cpu(const fastsg_dist_args_t *A) {
  TSR_CHECK(A && A->grid && (A->a || A->npoles == 0) && (A->poles || A->npoles == 0),
            TSR_ERR_ARG, "fastsg_dist_sweep_cpu: NULL argument");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg_dist_sweep_cpu: precision must be double or float, not %s",
            tsr_dtype_name(A->prec));
  if (A->prec == TSR_DOUBLE) fastsg_dist_sweep_d(A);
  else fastsg_dist_sweep_f(A);
  return TSR_SUCCESS;
}

#ifndef TSR_HAVE_CUDA
int fastsg_dist_sweep_cuda(const fastsg_dist_args_t *args) {
  (void)args;
  return TSR_RAISE(TSR_ERR_NOCUDA, "fastsg distributed CUDA sweep: Tessera was built without "
                   "CUDA (configure --with-cuda)");
}

int fastsg_dist_cuda_meminfo(size_t *free_bytes, size_t *total_bytes) {
  *free_bytes = *total_bytes = 0;
  return TSR_SUCCESS;
}
#endif
