/* kernels/stencil/stencil_grid.c: problems on the regular grid, their
 * X-Y-unstructured storage, random inputs and the verification compare. */
#include "config.h"
#include "kernels/stencil/stencil_problem.h"
#include "tessera/error.h"
#include "tessera/zorder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t stencil_problem_esize(const stencil_problem_t *P) {
  return P->prec == STENCIL_FLOAT ? sizeof(float) : sizeof(double);
}

int64_t stencil_problem_elems(const stencil_problem_t *P, int constant) {
  if (P->kind == STENCIL_FASTWAVES) return constant ? P->Lc.size : P->Luv.size;
  if (constant) return P->kind == STENCIL_HDIFF ? P->L.size : 0;
  return P->L.size;
}

int stencil_problem_create(int kind, int prec, const int64_t size[3], int placement,
                           stencil_problem_t *P) {
  TSR_CHECK(P && size, TSR_ERR_ARG, "stencil_problem_create: NULL argument");
  memset(P, 0, sizeof *P);
  TSR_CHECK(stencil_name(kind), TSR_ERR_ARG, "unknown stencil %d", kind);
  TSR_CHECK(prec == STENCIL_DOUBLE || prec == STENCIL_FLOAT, TSR_ERR_ARG, "unknown precision %d", prec);
  TSR_CHECK(placement == TSR_SOA || (kind == STENCIL_FASTWAVES &&
                                     (placement == TSR_AOS || placement == TSR_AOSOA)),
            TSR_ERR_ARG, "%s: field placement %s is not available (fastwaves only)",
            stencil_name(kind), tsr_layout_fields_name(placement));
  P->kind = kind;
  P->prec = prec;
  stencil_halo(kind, P->halo);
  int64_t n[3];
  for (int d = 0; d < 3; d++) {
    P->size[d] = size[d];
    n[d] = size[d] - 2 * P->halo[d];
    const int64_t need = 2 * P->halo[d] + (kind == STENCIL_FASTWAVES && d == 2 ? 2 : 1);
    TSR_CHECK(size[d] >= need, TSR_ERR_ARG,
              "%s: domain %lldx%lldx%lld (halo included) is too small for its halo %d,%d,%d: "
              "%c needs at least %lld points",
              stencil_name(kind), (long long)size[0], (long long)size[1], (long long)size[2],
              P->halo[0], P->halo[1], P->halo[2], "XYZ"[d], (long long)need);
  }
  P->L = tsr_layout_with_align(
      tsr_layout_with_halo(tsr_layout_rowmajor(n[0], n[1], n[2]), P->halo[0], P->halo[1], P->halo[2]),
      TSR_LAYOUT_ALIGN);
  TSR_CALL(tsr_layout_check(&P->L));
  const size_t es = stencil_problem_esize(P);
  if (kind == STENCIL_FASTWAVES) {
    P->Lc = tsr_layout_with_fields(P->L, STENCIL_FW_NCST, (tsr_fields_t)placement);
    P->Luv = tsr_layout_with_fields(P->L, STENCIL_FW_NUV, (tsr_fields_t)placement);
    TSR_CALL(tsr_layout_check(&P->Lc));
    TSR_CALL(tsr_layout_check(&P->Luv));
    P->cst = calloc((size_t)P->Lc.size, es);
    P->uv = calloc((size_t)P->Luv.size, es);
    if (!P->cst || !P->uv) {
      stencil_problem_destroy(P);
      return TSR_RAISE(TSR_ERR_ALLOC, "fastwaves: cannot allocate the fields of %lldx%lldx%lld",
                       (long long)size[0], (long long)size[1], (long long)size[2]);
    }
  } else {
    P->in = calloc((size_t)P->L.size, es);
    if (kind == STENCIL_HDIFF) P->coeff = calloc((size_t)P->L.size, es);
    if (!P->in || (kind == STENCIL_HDIFF && !P->coeff)) {
      stencil_problem_destroy(P);
      return TSR_RAISE(TSR_ERR_ALLOC, "%s: cannot allocate the fields of %lldx%lldx%lld",
                       stencil_name(kind), (long long)size[0], (long long)size[1],
                       (long long)size[2]);
    }
  }
  return TSR_SUCCESS;
}

void stencil_problem_destroy(stencil_problem_t *P) {
  if (!P) return;
  free(P->in);
  free(P->coeff);
  free(P->cst);
  free(P->uv);
  P->in = P->coeff = P->cst = P->uv = NULL;
}

/* splitmix64 of (seed, field, cell): a counter-based generator. */
static double st_rand(uint64_t seed, uint64_t field, uint64_t cell) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + field * 0xD1B54A32D192ED03ULL + cell + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static void st_set(void *a, int prec, int64_t e, double v) {
  if (prec == STENCIL_FLOAT) ((float *)a)[e] = (float)v;
  else ((double *)a)[e] = v;
}

void stencil_problem_fill(stencil_problem_t *P, uint64_t seed, const int64_t off[3]) {
  const tsr_layout_t *L = &P->L;
  const int64_t o[3] = {off ? off[0] : 0, off ? off[1] : 0, off ? off[2] : 0};
  /* global ids of the cells: independent of the local array */
  const uint64_t gx = 1u << 20, gy = 1u << 20;
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++) {
        const int64_t c = tsr_layout_rm_cell(L, x, y, z);
        const uint64_t id = (uint64_t)(x + o[0]) + gx * ((uint64_t)(y + o[1]) + gy * (uint64_t)(z + o[2]));
        if (P->kind != STENCIL_FASTWAVES) {
          st_set(P->in, P->prec, c, 2 * st_rand(seed, 0, id) - 1);
          if (P->kind == STENCIL_HDIFF) st_set(P->coeff, P->prec, c, 2 * st_rand(seed, 1, id) - 1);
          continue;
        }
        for (int f = 0; f < STENCIL_FW_NUV; f++)
          st_set(P->uv, P->prec, stencil__off(&P->Luv, c, f), 2 * st_rand(seed, (uint64_t)f, id) - 1);
        for (int f = 0; f < STENCIL_FW_NCST; f++) {
          double r = st_rand(seed, (uint64_t)(2 + f), id), v = 2 * r - 1;
          if (f == STENCIL_FW_RHO) v = 1 + r;
          if (f == STENCIL_FW_HHL) v = (double)(z + o[2]) + 0.5 * r;
          st_set(P->cst, P->prec, stencil__off(&P->Lc, c, f), v);
        }
      }
}

stencil_grid_t stencil_problem_grid(const stencil_problem_t *P) {
  stencil_grid_t g;
  memset(&g, 0, sizeof g);
  g.kind = STENCIL_GRID_REGULAR;
  g.L = P->L;
  g.zs = P->L.sz;
  for (int d = 0; d < 3; d++) {
    g.lo[d] = P->halo[d];
    g.hi[d] = P->halo[d] + P->L.n[d];
  }
  if (P->kind == STENCIL_FASTWAVES) g.hi[2] -= 1; /* the top inner level is not updated */
  return g;
}

stencil_fields_t stencil_problem_fields(const stencil_problem_t *P, const void *in,
                                        const void *coeff_or_cst, void *out, int flat_limit) {
  stencil_fields_t f;
  memset(&f, 0, sizeof f);
  f.prec = P->prec;
  if (P->kind == STENCIL_FASTWAVES) {
    f.cst = coeff_or_cst;
    f.uvin = in;
    f.uvout = out;
    f.Lc = P->Lc;
    f.Luv = P->Luv;
    f.flat_level = P->halo[2] + flat_limit;
  } else {
    f.in = in;
    f.coeff = coeff_or_cst;
    f.out = out;
  }
  return f;
}

/* ------------------------------------------------------------ unstructured */

/* The updated slots [0, nown) row by row through the tables alone: the
 * bottom slots (south neighbour not updated) from the one whose west
 * neighbour is not updated, eastwards, then each column northwards. Stays
 * NULL (no error: only the unstructured jwindow needs it) unless that
 * covers every updated slot as ncol columns of equal height. */
static int st_ugrid_columns(stencil_ugrid_t *U, const stencil_problem_t *P) {
  stencil_grid_t g;
  TSR_CALL(stencil_ugrid_grid(U, P, 0, 0, U->nown, &g));
  const int64_t n = U->nown;
  if (n <= 0) return TSR_SUCCESS;
#define ST_UPD(s) ((s) >= 0 && (s) < n)
#define ST_NB(s, r) ((s) + stencil_tab_off(&g, s, r))
  int64_t corner = -1, ncol = 0, nrow = 0;
  for (int64_t s = 0; s < n; s++)
    if (!ST_UPD(ST_NB(s, TSR_NB_YM1)) && !ST_UPD(ST_NB(s, TSR_NB_XM1))) {
      if (corner >= 0) return TSR_SUCCESS; /* two south-west corners: not a rectangle */
      corner = s;
    }
  if (corner < 0) return TSR_SUCCESS;
  for (int64_t s = corner; ST_UPD(s) && !ST_UPD(ST_NB(s, TSR_NB_YM1)); s = ST_NB(s, TSR_NB_XP1)) ncol++;
  for (int64_t s = corner; ST_UPD(s); s = ST_NB(s, TSR_NB_YP1)) nrow++;
  if (ncol * nrow != n) return TSR_SUCCESS;
  int32_t *col = malloc((size_t)n * sizeof *col);
  TSR_CHECK(col, TSR_ERR_ALLOC, "cannot allocate the column order of %lld slots", (long long)n);
  int64_t b = corner, seen = 0;
  for (int64_t i = 0; i < ncol; i++, b = ST_NB(b, TSR_NB_XP1)) {
    int64_t s = b, p = 0;
    for (; p < nrow && ST_UPD(s); p++, s = ST_NB(s, TSR_NB_YP1)) col[p * ncol + i] = (int32_t)s, seen++;
    if (p != nrow || ST_UPD(s)) break; /* a column of another height */
  }
#undef ST_UPD
#undef ST_NB
  if (seen != n) {
    free(col);
    return TSR_SUCCESS;
  }
  U->col = col, U->ncol = ncol, U->nrow = nrow;
  return TSR_SUCCESS;
}

int stencil_ugrid_create_cells(const stencil_problem_t *P, int64_t nx, int64_t ny, int64_t np,
                               int64_t nown, int64_t ncore, const int64_t *cells, int depth,
                               int comp, stencil_ugrid_t *U) {
  TSR_CHECK(P && U && cells, TSR_ERR_ARG, "stencil_ugrid_create_cells: NULL argument");
  memset(U, 0, sizeof *U);
  TSR_CHECK(0 <= ncore && ncore <= nown && nown <= np, TSR_ERR_ARG,
            "stencil_ugrid_create_cells: need 0 <= core %lld <= owned %lld <= slots %lld",
            (long long)ncore, (long long)nown, (long long)np);
  TSR_CHECK(depth == 1 || depth == 2, TSR_ERR_ARG, "unstructured grid: depth must be 1 or 2, got %d",
            depth);
  U->nx = nx;
  U->ny = ny;
  U->nz = P->size[2];
  U->np = np;
  U->nown = nown;
  U->ncore = ncore;
  U->depth = depth;
  for (int d = 0; d < 3; d++) U->halo[d] = P->halo[d];
  U->cells = malloc((size_t)np * sizeof *U->cells);
  TSR_CHECK(U->cells, TSR_ERR_ALLOC, "cannot allocate %lld slots", (long long)np);
  memcpy(U->cells, cells, (size_t)np * sizeof *U->cells);
  int rc = tsr_neigh_create_subset(nx, ny, U->nz, np, cells, depth, TSR_NEIGH_ZREGULAR, &U->nb);
  if (!rc && comp) {
    tsr_neigh_stats_t st;
    rc = tsr_neigh_compress(U->nb, STENCIL_CUDA_DICT_BYTES, &st);
    U->comp = 1;
  }
  if (!rc) {
    U->L = tsr_layout_with_align(tsr_layout_rowmajor(np, U->nz, 1), TSR_LAYOUT_ALIGN);
    rc = tsr_layout_check(&U->L);
  }
  if (!rc && P->kind != STENCIL_FASTWAVES) rc = st_ugrid_columns(U, P);
  if (!rc && P->kind == STENCIL_FASTWAVES) {
    U->Lc = tsr_layout_with_fields(U->L, STENCIL_FW_NCST, (tsr_fields_t)P->Lc.fields);
    U->Luv = tsr_layout_with_fields(U->L, STENCIL_FW_NUV, (tsr_fields_t)P->Luv.fields);
    rc = tsr_layout_check(&U->Lc);
    if (!rc) rc = tsr_layout_check(&U->Luv);
  }
  if (rc) {
    stencil_ugrid_destroy(U);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return TSR_SUCCESS;
}

int stencil_ugrid_create(const stencil_problem_t *P, int order, int zw, uint64_t seed, int depth,
                         int comp, stencil_ugrid_t *U) {
  const int64_t nx = P->size[0], ny = P->size[1], hx = P->halo[0], hy = P->halo[1];
  const int64_t nxi = nx - 2 * hx, nyi = ny - 2 * hy, ni = nxi * nyi;
  int64_t *ord = malloc((size_t)ni * sizeof *ord), *cells = malloc((size_t)(nx * ny) * sizeof *cells);
  int rc = ord && cells ? TSR_SUCCESS
                        : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate a plane order of %lld cells",
                                    (long long)(nx * ny));
  if (!rc) {
    if (order == STENCIL_ORDER_ZCURVE) rc = tsr_zorder_plane_order(nxi, nyi, zw, ord);
    else if (order == STENCIL_ORDER_RANDOM) rc = tsr_neigh_order_random(nxi, nyi, seed, ord);
    else if (order == STENCIL_ORDER_ROWMAJOR) rc = tsr_neigh_order_rowmajor(nxi, nyi, ord);
    else rc = TSR_RAISE(TSR_ERR_ARG, "unknown storage order %d", order);
  }
  if (!rc) {
    for (int64_t y = 0; y < nyi; y++)
      for (int64_t x = 0; x < nxi; x++) cells[ord[x + nxi * y]] = (x + hx) + nx * (y + hy);
    int64_t s = ni;
    for (int64_t y = 0; y < ny; y++)
      for (int64_t x = 0; x < nx; x++)
        if (x < hx || x >= nx - hx || y < hy || y >= ny - hy) cells[s++] = x + nx * y;
    rc = stencil_ugrid_create_cells(P, nx, ny, nx * ny, ni, ni, cells, depth, comp, U);
  }
  free(ord);
  free(cells);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

void stencil_ugrid_destroy(stencil_ugrid_t *U) {
  if (!U) return;
  free(U->cells);
  free(U->col);
  U->cells = NULL;
  U->col = NULL;
  tsr_neigh_destroy(&U->nb);
}

int stencil_ugrid_grid(const stencil_ugrid_t *U, const stencil_problem_t *P, int device,
                       int64_t s0, int64_t s1, stencil_grid_t *g) {
  memset(g, 0, sizeof *g);
  g->kind = STENCIL_GRID_UNSTR;
  g->L = U->L;
  g->zs = U->L.sy;
  g->lo[0] = s0;
  g->hi[0] = s1;
  g->lo[1] = 0;
  g->hi[1] = 1;
  g->lo[2] = P->halo[2];
  g->hi[2] = U->nz - P->halo[2] - (P->kind == STENCIL_FASTWAVES ? 1 : 0);
  g->np = U->np;
  g->depth = U->depth;
  g->comp = U->comp;
  if (s0 == 0 && s1 == U->nown && U->col) g->col = U->col, g->ncol = U->ncol, g->nrow = U->nrow;
  const tsr_neigh_where_t w = device ? TSR_NEIGH_DEVICE : TSR_NEIGH_HOST;
  if (U->comp) {
    tsr_neigh_cview_t v;
    TSR_CALL(tsr_neigh_cview(U->nb, w, &v));
    g->proto = v.proto;
    g->dict = v.dict;
    g->nrel = v.nrel;
    g->nproto = v.nproto;
  } else {
    tsr_neigh_view_t v;
    TSR_CALL(tsr_neigh_view(U->nb, w, &v));
    g->tab = v.tab;
    g->nrel = v.nrel;
  }
  return TSR_SUCCESS;
}

void stencil_ugrid_scatter(const stencil_ugrid_t *U, const tsr_layout_t *Lr, const void *src,
                           const tsr_layout_t *Lu, void *dst, size_t esize) {
  const char *a = (const char *)src;
  char *b = (char *)dst;
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < U->np; s++) {
    const int64_t x = U->cells[s] % U->nx, y = U->cells[s] / U->nx;
    for (int64_t z = 0; z < U->nz; z++) {
      const int64_t cr = tsr_layout_rm_cell(Lr, x, y, z), cu = s + z * Lu->sy;
      for (int f = 0; f < Lu->nf; f++)
        memcpy(b + (size_t)stencil__off(Lu, cu, f) * esize,
               a + (size_t)stencil__off(Lr, cr, f) * esize, esize);
    }
  }
}

void stencil_ugrid_gather(const stencil_ugrid_t *U, const tsr_layout_t *Lu, const void *src,
                          const tsr_layout_t *Lr, void *dst, size_t esize, int64_t s1) {
  const char *a = (const char *)src;
  char *b = (char *)dst;
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < s1; s++) {
    const int64_t x = U->cells[s] % U->nx, y = U->cells[s] / U->nx;
    for (int64_t z = 0; z < U->nz; z++) {
      const int64_t cr = tsr_layout_rm_cell(Lr, x, y, z), cu = s + z * Lu->sy;
      for (int f = 0; f < Lu->nf; f++)
        memcpy(b + (size_t)stencil__off(Lr, cr, f) * esize,
               a + (size_t)stencil__off(Lu, cu, f) * esize, esize);
    }
  }
}

void stencil_compare(const stencil_grid_t *g, const tsr_layout_t *L, int prec, const void *a,
                     const void *r, double *maxerr, double *maxref) {
  double err = 0, ref = 0;
  for (int64_t z = g->lo[2]; z < g->hi[2]; z++)
    for (int64_t y = g->lo[1]; y < g->hi[1]; y++)
      for (int64_t x = g->lo[0]; x < g->hi[0]; x++) {
        const int64_t c = tsr_layout_rm_cell(L, x, y, z);
        for (int f = 0; f < L->nf; f++) {
          const int64_t e = stencil__off(L, c, f);
          const double va = prec == STENCIL_FLOAT ? ((const float *)a)[e] : ((const double *)a)[e];
          const double vr = prec == STENCIL_FLOAT ? ((const float *)r)[e] : ((const double *)r)[e];
          const double d = fabs(va - vr);
          if (!(d <= err)) err = isnan(d) ? INFINITY : d; /* NaN counts as a failure */
          if (fabs(vr) > ref) ref = fabs(vr);
        }
      }
  *maxerr = err;
  *maxref = ref;
}

double stencil_tolerance(int prec) { return prec == STENCIL_FLOAT ? 1e-5 : 1e-12; }
