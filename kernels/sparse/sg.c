/* kernels/sparse/sg.c: setup of the compact sparse grid (descriptor, block
 * ranges, the inv4 and sred1 tables, point layouts). */
#include "config.h"
#include "kernels/sparse/sg_kernels.h"
#include "tessera/error.h"

#include <math.h>
#include <string.h>

double fastsg_grid_count(int D, int n) {
  double N = 0;
  for (int g = 0; g < n; g++) {
    double c = 1; /* C(g+D-1, D-1) in floating point */
    for (int j = 1; j <= g; j++) c = c * (double)(D - 1 + j) / (double)j;
    N += ldexp(c, g);
  }
  return N;
}

int fastsg_grid_init(int D, int n, fastsg_grid_t *G) {
  TSR_CHECK(G, TSR_ERR_ARG, "fastsg_grid_init: NULL descriptor");
  TSR_CHECK(D >= 1 && D <= FASTSG_MAX_DIM, TSR_ERR_ARG,
            "dimension D = %d is out of range: expected 1 <= D <= %d", D, FASTSG_MAX_DIM);
  TSR_CHECK(n >= 1 && n <= FASTSG_MAX_LEVEL, TSR_ERR_ARG,
            "level n = %d is out of range: expected 1 <= n <= %d", n, FASTSG_MAX_LEVEL);
  double Nd = fastsg_grid_count(D, n);
  TSR_CHECK(Nd <= (double)FASTSG_MAX_POINTS, TSR_ERR_ARG,
            "sparse grid D = %d, n = %d has %.4g points (%.4g bytes in double): more than the "
            "2^50 points fastsg supports; lower --level or --dim",
            D, n, Nd, 8 * Nd);
  memset(G, 0, sizeof *G);
  G->dim = D;
  G->level = n;
  int64_t pos = 0, blk = 0;
  for (int g = 0; g < n; g++) {
    G->gstart[g] = pos;
    G->bstart[g] = blk;
    int64_t nb = fastsg_group_blocks(D, g);
    blk += nb;
    pos += nb << g;
  }
  G->gstart[n] = pos;
  G->bstart[n] = blk;
  G->npoints = pos;
  G->nblocks = blk;
  return TSR_SUCCESS;
}

int fastsg_gblock_group(const fastsg_grid_t *G, int64_t b) {
  int g = 0;
  while (g + 1 < G->level && G->bstart[g + 1] <= b) g++;
  return g;
}

int64_t fastsg_gblock_pos(const fastsg_grid_t *G, int64_t b) {
  if (b >= G->nblocks) return G->npoints;
  int g = fastsg_gblock_group(G, b);
  return G->gstart[g] + ((b - G->bstart[g]) << g);
}

void fastsg_block_range(const fastsg_grid_t *G, int part, int nparts, int64_t *b0, int64_t *b1) {
  /* first block whose start position is >= the part's share of points */
  int64_t lim[2];
  for (int e = 0; e < 2; e++) {
    int q = part + e;
    if (q >= nparts) {
      lim[e] = G->nblocks;
      continue;
    }
    int64_t target = (int64_t)((double)G->npoints * q / nparts);
    int64_t lo = 0, hi = G->nblocks;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (fastsg_gblock_pos(G, mid) < target) lo = mid + 1;
      else hi = mid;
    }
    lim[e] = lo;
  }
  *b0 = lim[0];
  *b1 = lim[1];
}

size_t fastsg_par1d_count(int n) { return (size_t)2 << n; }

void fastsg_par1d_fill(int n, uint32_t *par) {
  size_t half = (size_t)1 << n;
  for (int lv = 0; lv < n; lv++)
    for (int iv = 0; iv < (1 << lv); iv++)
      for (int side = 0; side < 2; side++) {
        int lp, ip;
        uint32_t e = 0;
        if (fastsg_parent1d(lv, iv, side, &lp, &ip)) e = fastsg_heap1d(lp, ip) + 1u;
        par[side * half + fastsg_heap1d(lv, iv)] = e;
      }
  par[half - 1] = par[2 * half - 1] = 0; /* unused slot 2^n - 1 */
}

void fastsg_btab_fill(const fastsg_grid_t *G, uint8_t *btab) {
  const int D = G->dim;
  int l[FASTSG_MAX_DIM];
  int64_t b = 0;
  for (int g = 0; g < G->level; g++) {
    fastsg_block_first(D, g, l);
    do {
      uint8_t *lv = btab + (size_t)b * 2 * D, *sh = lv + D;
      int s = 0;
      for (int t = D - 1; t >= 0; t--) {
        lv[t] = (uint8_t)l[t];
        sh[t] = (uint8_t)s;
        s += l[t];
      }
      b++;
    } while (fastsg_block_next(D, l));
  }
}

fastsg_xlayout_t fastsg_eval_layout(int variant) {
  if (variant == FASTSG_V_cpu_eval_vec1) return FASTSG_X_TILE16;
  if (variant == FASTSG_V_cuda_eval_vec1p) return FASTSG_X_TILE32;
  return FASTSG_X_ROWS;
}

int64_t fastsg_x_count(fastsg_xlayout_t lay, int64_t npts, int D) {
  if (lay == FASTSG_X_ROWS) return npts * D;
  return (npts / lay + 1) * lay * D;
}

void fastsg_x_relayout(fastsg_xlayout_t lay, tsr_dtype_t prec, int64_t npts, int D,
                       const void *x, void *xt) {
  const int64_t cnt = fastsg_x_count(lay, npts, D);
  if (lay == FASTSG_X_ROWS) {
    memcpy(xt, x, (size_t)cnt * tsr_dtype_size(prec));
    return;
  }
  const int m = (int)lay;
  for (int64_t e = 0; e < cnt; e++) {
    int64_t tile = e / ((int64_t)m * D), rem = e % ((int64_t)m * D);
    int t = (int)(rem / m), q = (int)(rem % m);
    int64_t j = tile * m + q;
    if (prec == TSR_FLOAT)
      ((float *)xt)[e] = j < npts ? ((const float *)x)[j * D + t] : 0.5f;
    else
      ((double *)xt)[e] = j < npts ? ((const double *)x)[j * D + t] : 0.5;
  }
}

#ifndef TSR_HAVE_CUDA
/* A build without CUDA keeps every CUDA row; running one says so. */
#define FASTSG_VARIANT(dev, kernel, name, help) FASTSG_NOCUDA_##dev(kernel, name)
#define FASTSG_NOCUDA_cpu(kernel, name)
#define FASTSG_NOCUDA_cuda(kernel, name)                                                   \
  int fastsg_##kernel##_##name##_cuda(const fastsg_kernel_args_t *args) {                  \
    (void)args;                                                                            \
    return TSR_RAISE(TSR_ERR_NOCUDA, "variant cuda/" #kernel "/" #name                     \
                     ": Tessera was built without CUDA (configure --with-cuda)");          \
  }
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
#endif
