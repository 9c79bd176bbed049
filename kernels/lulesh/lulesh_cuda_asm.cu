/* kernels/lulesh/lulesh_cuda_asm.cu: the node forces fx, fy, fz of LULESH's
 * step by the assemblies that add each element's corner forces straight to
 * its nodes, without the [3][8 ne] corner temporaries of the gather
 * (lulesh_cuda.h: lulesh_asm_t):
 *   ATOMIC    one thread per element, FP64 atomicAdd into fx, fy, fz;
 *   COLOUR    one launch per colour of a greedy element colouring
 *             (tessera/colour.h), plain read-modify-write of the nodes;
 *   TWOLEVEL  Sulyok et al.'s (2019) shared-memory staging with two-level
 *             colouring (tessera/colour.h's plan): one CUDA block per plan
 *             block; the block's node increments sf[3][targets] zeroed in
 *             shared memory, each thread computes its element's forces, the
 *             threads add them colour by colour (a barrier per colour), then
 *             each staged node gets one plain add in global memory; blocks of
 *             one block colour share no node, one launch per block colour.
 * Every element adds fs + fh per corner (stress plus hourglass, one rounding
 * more than the gather's two sums), in an order that is not the CPU's.
 * lulesh_cuda_fma.cu compiles this file a second time with FMA contraction
 * (LULESH_CUDA_FMA: the launcher gets the suffix _fma; the set-up is this
 * build's only). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/colour.h"
#include "tessera/cuda.h"
#include "tessera/error.h"
#include "kernels/lulesh/lulesh_cuda.cuh"

namespace {

__device__ inline void elem_total(const lulesh_cuda_t &d, int32_t e, int hg, double f[3][8]) {
  double fh[3][8];
  lulesh_elem_forces(d, e, hg, f, fh);
  if (hg)
    for (int m = 0; m < 3; m++)
      for (int i = 0; i < 8; i++) f[m][i] += fh[m][i];
}

/* One thread per element (list, when not NULL: the n elements of the
 * launch, else 0 .. n-1). The stress forces first; then the hourglass
 * basis, and axis by axis the corner velocities, the hourglass forces and
 * the atomic adds of fs + fh: only one axis's velocities and forces are
 * live, so the kernel needs no more registers than fit 12 warps per SM
 * (the same fs + fh per corner as elem_total). */
__global__ void __maxnreg__(LULESH_FORCES_MAXREG)
    k_forces_atomic(lulesh_cuda_t d, int hg, const int32_t *list, int32_t base, int32_t ne) {
  const int32_t i0 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i0 >= ne) return;
  const int32_t e = list ? list[i0] : base + i0;
  const int32_t *c = &d.nodelist[8 * (int64_t)e];
  int32_t n[8];
  double x[8], y[8], z[8], fs[3][8];
  for (int i = 0; i < 8; i++) {
    n[i] = c[i];
    x[i] = d.x[n[i]];
    y[i] = d.y[n[i]];
    z[i] = d.z[n[i]];
  }
  {
    double b[3][8];
    const double detj = lulesh_shape_derivs(x, y, z, b);
    if (detj <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_JACOBIAN, e);
    lulesh_node_normals(x, y, z, b);
    lulesh_stress_forces(b, -d.p[e] - d.q[e], fs);
  }
  const double v = d.v[e];
  if (v <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_V, e);
  double *const frc[3] = {d.fx, d.fy, d.fz};
  if (!hg) {
    for (int m = 0; m < 3; m++)
      for (int i = 0; i < 8; i++) atomicAdd(&frc[m][n[i]], fs[m][i]);
    return;
  }
  double hgb[8][4], coef;
  lulesh_hourglass_basis(x, y, z, d.volo[e] * v, d.ss[e], d.elem_mass[e], d.par.hgcoef, hgb,
                         &coef);
  const double *const vel[3] = {d.xd, d.yd, d.zd};
  for (int m = 0; m < 3; m++) {
    double vc[8], fh[8];
    for (int i = 0; i < 8; i++) vc[i] = vel[m][n[i]];
    lulesh_hourglass_axis(hgb, coef, vc, fh);
    for (int i = 0; i < 8; i++) atomicAdd(&frc[m][n[i]], fs[m][i] + fh[i]);
  }
}

/* The len elements list[] of one colour: no two share a node. */
__global__ void k_forces_colour(lulesh_cuda_t d, const int32_t *__restrict__ list, int32_t len,
                                int hg) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const int32_t e = list[i];
  double f[3][8];
  elem_total(d, e, hg, f);
  const int32_t *c = &d.nodelist[8 * (int64_t)e];
  for (int k = 0; k < 8; k++) {
    const int32_t n = c[k];
    d.fx[n] += f[0][k];
    d.fy[n] += f[1][k];
    d.fz[n] += f[2][k];
  }
}

/* Plan blocks blocks[blockIdx.x] (one block colour). */
__global__ void k_forces_twolevel(lulesh_cuda_t d, const int32_t *__restrict__ blocks, int hg) {
  extern __shared__ double sf[];
  const int b = blocks[blockIdx.x], t = threadIdx.x, B = blockDim.x;
  const int64_t t0 = d.tl_tgt_off[b];
  const int nt = (int)(d.tl_tgt_off[b + 1] - t0);
  for (int j = t; j < 3 * nt; j += B) sf[j] = 0.0;
  const int64_t pos = d.tl_off[b] + t;
  const bool active = pos < d.tl_off[b + 1];
  double f[3][8];
  int col = -1;
  if (active) {
    elem_total(d, d.tl_elems[pos], hg, f);
    col = d.tl_tcol[pos];
  }
  __syncthreads();
  const int ncol = d.tl_ntcol[b];
  for (int c = 0; c < ncol; c++) {
    if (col == c) {
      const int32_t *loc = &d.tl_loc[8 * pos];
      for (int k = 0; k < 8; k++) {
        const int l = loc[k];
        sf[l] += f[0][k];
        sf[nt + l] += f[1][k];
        sf[2 * nt + l] += f[2][k];
      }
    }
    __syncthreads();
  }
  if (ncol == 0) __syncthreads(); /* the zeroing before the write-back */
  for (int j = t; j < nt; j += B) {
    const int32_t n = d.tl_tgt[t0 + j];
    d.fx[n] += sf[j];
    d.fy[n] += sf[nt + j];
    d.fz[n] += sf[2 * nt + j];
  }
}

#ifndef LULESH_CUDA_FMA
/* Upload `bytes` from h into a new device array *p. */
int up(void **p, const void *h, size_t bytes) {
  TSR_CALL_CUDA(cudaMalloc(p, bytes ? bytes : 1));
  if (bytes) TSR_CALL_CUDA(cudaMemcpy(*p, h, bytes, cudaMemcpyHostToDevice));
  return 0;
}

/* sp (a distributed step's split, or NULL): each colour's elements that
 * touch shared nodes moved to its head (in order), colour_nbnd of them. */
int setup_colour(lulesh_cuda_t *d, const lulesh_mesh_t *m, const lulesh_split_t *sp) {
  int32_t *colour = (int32_t *)malloc(sizeof(int32_t) * ((size_t)m->num_elem + 1));
  TSR_CHECK(colour, TSR_ERR_ALLOC, "lulesh cuda colour: no memory for %d colours", m->num_elem);
  tsr_idx_t *off = NULL;
  int32_t *order = NULL;
  int ncol = 0;
  int rc = tsr_colour_greedy(m->nodelist, m->num_elem, 8, m->num_node, colour, &ncol);
  if (!rc) rc = tsr_colour_groups(colour, m->num_elem, ncol, &off, &order);
  free(colour);
  if (!rc) {
    d->ncolours = ncol;
    d->colour_off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)ncol + 1));
    if (!d->colour_off) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda colour: no memory");
    for (int c = 0; !rc && c <= ncol; c++) d->colour_off[c] = off[c];
  }
  if (!rc && sp) {
    unsigned char *bnd = (unsigned char *)calloc((size_t)m->num_elem + 1, 1);
    int32_t *tmp = (int32_t *)malloc(sizeof(int32_t) * ((size_t)m->num_elem + 1));
    d->colour_nbnd = (int64_t *)malloc(sizeof(int64_t) * ((size_t)ncol + 1));
    if (!bnd || !tmp || !d->colour_nbnd)
      rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda colour: no memory");
    for (int32_t k = 0; !rc && k < sp->num_bnd; k++) bnd[sp->elem[k]] = 1;
    for (int c = 0; !rc && c < ncol; c++) {
      int64_t k = off[c];
      for (int pass = 1; pass >= 0; pass--)
        for (int64_t j = off[c]; j < off[c + 1]; j++)
          if (bnd[order[j]] == pass) tmp[k++] = order[j];
      d->colour_nbnd[c] = 0;
      for (int64_t j = off[c]; j < off[c + 1]; j++) d->colour_nbnd[c] += bnd[order[j]];
    }
    if (!rc) memcpy(order, tmp, sizeof(int32_t) * (size_t)m->num_elem);
    free(bnd);
    free(tmp);
  }
  if (!rc) rc = up((void **)&d->colour_elems, order, sizeof(int32_t) * (size_t)m->num_elem);
  free(off);
  free(order);
  return rc;
}

/* sp (a distributed step's split, or NULL): the plan is made over the
 * elements in sp->elem's order (the num_bnd touching shared nodes first) in
 * uniform blocks of each part apart; each block colour then lists its
 * blocks of the first part first (ascending), bcolour_nbnd of them. */
int setup_twolevel(lulesh_cuda_t *d, const lulesh_mesh_t *m, const lulesh_cuda_opts_t *o,
                   const lulesh_split_t *sp) {
  const tsr_idx_t ne = m->num_elem;
  tsr_idx_t nb = 0, *off = NULL, nbb = 0;
  const int32_t *map = m->nodelist;
  int32_t *pmap = NULL;
  TSR_CHECK(!(sp && o->block_off), TSR_ERR_ARG,
            "lulesh cuda two-level: given element blocks are for one rank");
  if (sp) {
    const tsr_idx_t n0 = sp->num_bnd, n1 = ne - n0, B = d->block;
    nbb = (n0 + B - 1) / B;
    nb = nbb + (n1 + B - 1) / B;
    off = (tsr_idx_t *)malloc(sizeof(tsr_idx_t) * (size_t)(nb + 1));
    pmap = (int32_t *)calloc(8 * ((size_t)ne + 1), sizeof(int32_t));
    if (!off || !pmap) {
      free(off);
      free(pmap);
      return TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda two-level: no memory for the split plan");
    }
    for (tsr_idx_t b = 0; b < nbb; b++) off[b] = b * B;
    for (tsr_idx_t b = nbb; b < nb; b++) off[b] = n0 + (b - nbb) * B;
    off[nb] = ne;
    for (tsr_idx_t r = 0; r < ne; r++)
      for (int i = 0; i < 8; i++) pmap[8 * r + i] = m->nodelist[8 * (int64_t)sp->elem[r] + i];
    map = pmap;
  } else if (o->block_off) {
    nb = o->nblocks;
    off = (tsr_idx_t *)malloc(sizeof(tsr_idx_t) * (size_t)(nb + 1));
    TSR_CHECK(off, TSR_ERR_ALLOC, "lulesh cuda two-level: no memory for blocks");
    for (tsr_idx_t b = 0; b <= nb; b++) off[b] = o->block_off[b];
    int ok = off[0] == 0 && off[nb] == ne;
    for (tsr_idx_t b = 0; ok && b < nb; b++)
      ok = off[b + 1] >= off[b] && off[b + 1] - off[b] <= d->block;
    if (!ok) {
      free(off);
      return TSR_RAISE(TSR_ERR_ARG, "lulesh cuda two-level: the element blocks must cover the "
                       "%lld elements in blocks of at most %d", (long long)ne, d->block);
    }
  } else
    TSR_CALL(tsr_plan_uniform_blocks(ne, d->block, &nb, &off));
  tsr_plan_t *pl = NULL;
  int rc = tsr_plan_create(map, 8, m->num_node, 0, ne, nb, off, &pl);
  free(off);
  free(pmap);
  TSR_CALL(rc);
  if (sp) { /* rows of the plan are positions in sp->elem: back to elements */
    for (tsr_idx_t r = 0; r < ne; r++) pl->order[r] = sp->elem[pl->order[r]];
    d->bcolour_nbnd = (int64_t *)malloc(sizeof(int64_t) * ((size_t)pl->nblock_colours + 1));
    if (!d->bcolour_nbnd) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda two-level: no memory");
    for (int c = 0; !rc && c < pl->nblock_colours; c++) {
      d->bcolour_nbnd[c] = 0;
      for (tsr_idx_t k = pl->bcolour_off[c]; k < pl->bcolour_off[c + 1]; k++)
        d->bcolour_nbnd[c] += pl->bcolour_blocks[k] < nbb;
      for (tsr_idx_t k = pl->bcolour_off[c]; k < pl->bcolour_off[c] + d->bcolour_nbnd[c]; k++)
        if (pl->bcolour_blocks[k] >= nbb)
          rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh cuda two-level: block colour %d is not in "
                         "ascending block order", c);
    }
    if (rc) {
      tsr_plan_destroy(&pl);
      return rc;
    }
  }
  d->nblocks = nb;
  d->nbcolours = pl->nblock_colours;
  d->max_block = pl->max_block;
  d->smem = 3 * sizeof(double) * (size_t)(pl->inc.max_targets > 0 ? pl->inc.max_targets : 1);
  d->bcolour_off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)pl->nblock_colours + 1));
  if (!d->bcolour_off) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda two-level: no memory");
  for (int c = 0; !rc && c <= pl->nblock_colours; c++) d->bcolour_off[c] = pl->bcolour_off[c];
  const size_t I = sizeof(int32_t), L = sizeof(int64_t);
  if (!rc) rc = up((void **)&d->tl_elems, pl->order, I * (size_t)ne);
  if (!rc) rc = up((void **)&d->tl_tcol, pl->thread_colour, I * (size_t)ne);
  if (!rc) rc = up((void **)&d->tl_ntcol, pl->block_ncolours, I * (size_t)nb);
  if (!rc) rc = up((void **)&d->bcolour_blocks, pl->bcolour_blocks, I * (size_t)nb);
  if (!rc) rc = up((void **)&d->tl_off, pl->block_off, L * (size_t)(nb + 1));
  if (!rc) rc = up((void **)&d->tl_tgt_off, pl->inc.target_off, L * (size_t)(nb + 1));
  if (!rc) rc = up((void **)&d->tl_tgt, pl->inc.target, I * (size_t)pl->inc.target_off[nb]);
  if (!rc) rc = up((void **)&d->tl_loc, pl->inc.local, I * 8 * (size_t)ne);
  tsr_plan_destroy(&pl);
  TSR_CALL(rc);
  int dev = 0, optin = 0;
  TSR_CALL_CUDA(cudaGetDevice(&dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  TSR_CHECK(d->smem <= (size_t)optin, TSR_ERR_UNSUPPORTED,
            "lulesh cuda/twolevel: a block stages %zu bytes of node increments, the GPU allows "
            "%d per block; use a smaller --block", d->smem, optin);
  TSR_CALL(lulesh_cuda__twolevel_allow(d));
  TSR_CALL(lulesh_cuda__twolevel_allow_fma(d));
  return 0;
}
#endif /* !LULESH_CUDA_FMA */

}  // namespace

#ifdef LULESH_CUDA_FMA
#define LULESH_FN_(name) name##_fma
#else
#define LULESH_FN_(name) name
#endif

int LULESH_FN_(lulesh_cuda__twolevel_allow)(const lulesh_cuda_t *d) {
  if (d->smem > 48 * 1024)
    TSR_CALL_CUDA(cudaFuncSetAttribute(k_forces_twolevel,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)d->smem));
  return 0;
}

#ifndef LULESH_CUDA_FMA
int lulesh_cuda__asm_setup(lulesh_cuda_t *d, const lulesh_state_t *s,
                           const lulesh_cuda_opts_t *o) {
  static_assert(sizeof(tsr_idx_t) == sizeof(int64_t), "plan offsets are 64-bit");
  if (d->assembly == LULESH_ASM_COLOUR) return setup_colour(d, s->mesh, d->split);
  if (d->assembly == LULESH_ASM_TWOLEVEL) return setup_twolevel(d, s->mesh, o, d->split);
  return 0;
}

void lulesh_cuda__asm_free(lulesh_cuda_t *d) {
  void *p[] = {d->colour_elems, d->tl_elems, d->tl_tcol, d->tl_ntcol, d->tl_tgt,
               d->tl_loc, d->bcolour_blocks, d->tl_off, d->tl_tgt_off};
  for (size_t i = 0; i < sizeof p / sizeof *p; i++) cudaFree(p[i]);
  free(d->colour_off);
  free(d->bcolour_off);
  free(d->colour_nbnd);
  free(d->bcolour_nbnd);
}

#endif /* !LULESH_CUDA_FMA */

/* The first or second part of [o, o + n) whose first nb are part 0's. */
static inline void part_range(int part, int64_t nb, int64_t *o, int64_t *n) {
  if (part == 0) *n = nb;
  else if (part == 1) *o += nb, *n -= nb;
}

int LULESH_FN_(lulesh_cuda__scatter_forces)(const lulesh_cuda_t *d, int part) {
  TSR_CHECK(part < 0 || d->split, TSR_ERR_ARG, "lulesh cuda: node forces in parts need the split");
  /* part 0's elements add into nodes part 1's add to as well; with part
     0 on its own stream the caller zeroes before either part */
  if (part < 0 || (part == 0 && !d->part0_stream)) TSR_CALL(lulesh_cuda_zero_forces(d));
  if (d->num_elem == 0) return 0;
  const int hg = d->par.hgcoef > 0.0;
  switch (d->assembly) {
  case LULESH_ASM_ATOMIC: {
    int64_t o = 0, n = d->num_elem;
    if (part >= 0) part_range(part, d->split->num_bnd, &o, &n);
    if (n == 0) break;
    k_forces_atomic<<<lulesh_nblocks(n, d->block), d->block, 0,
                      part == 0 ? (cudaStream_t)d->part0_stream : 0>>>(
        *d, hg, part >= 0 && d->sp_base[0][part] < 0 ? d->sp_elem + o : NULL,
        part >= 0 && d->sp_base[0][part] >= 0 ? d->sp_base[0][part] : 0, (int32_t)n);
    TSR_CHECK_LAUNCH("lulesh forces (atomic)");
    break;
  }
  case LULESH_ASM_COLOUR:
    for (int c = 0; c < d->ncolours; c++) {
      int64_t o = d->colour_off[c], n = d->colour_off[c + 1] - o;
      if (part >= 0) part_range(part, d->colour_nbnd[c], &o, &n);
      if (n == 0) continue;
      k_forces_colour<<<lulesh_nblocks(n, d->block), d->block>>>(*d, d->colour_elems + o,
                                                                 (int32_t)n, hg);
    }
    TSR_CHECK_LAUNCH("lulesh forces (colour)");
    break;
  case LULESH_ASM_TWOLEVEL:
    for (int c = 0; c < d->nbcolours; c++) {
      int64_t o = d->bcolour_off[c], n = d->bcolour_off[c + 1] - o;
      if (part >= 0) part_range(part, d->bcolour_nbnd[c], &o, &n);
      if (n == 0) continue;
      k_forces_twolevel<<<(unsigned)n, d->block, d->smem>>>(*d, d->bcolour_blocks + o, hg);
    }
    TSR_CHECK_LAUNCH("lulesh forces (two-level)");
    break;
  default:
    return TSR_RAISE(TSR_ERR_ARG, "lulesh cuda: assembly %d has no scatter", (int)d->assembly);
  }
  return 0;
}

#undef LULESH_FN_
