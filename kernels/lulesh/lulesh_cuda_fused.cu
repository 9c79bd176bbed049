/* kernels/lulesh/lulesh_cuda_fused.cu: the fused kernels of LULESH's step
 * (lulesh_cuda.h's fuse option). Fusion moves no arithmetic: every value is
 * computed by the same lulesh.h expressions as in the one-kernel-per-stage
 * path, so the results keep the same bits; it only saves the round trips of
 * the intermediate arrays through global memory and the launches:
 *   gather_update  per node: the CSR gather of the corner forces (stress
 *                  sum, then the hourglass forces, the CPU's order), the
 *                  acceleration, the symmetry conditions, velocity with its
 *                  cut-off and position, in registers (fx, fy, fz are still
 *                  stored, for the profile and the tests);
 *   monoq_eos      per element, one launch for all regions (each thread
 *                  finds its region's EOS repetitions): the monotonic Q limiter and
 *                  terms, the QStopError and EOS volume checks, the EOS with
 *                  its repetitions, sound speed, volume update (delv = vnew -
 *                  v, ql, qq and the EOS results stay in registers: d->delv,
 *                  ql, qq, eos_* are not written), and the
 *                  Courant and hydro dt candidates: a warp minimum, then one
 *                  atomicMin per warp on the doubles' bit patterns (positive
 *                  doubles order as their bits), which is exact and
 *                  independent of the order.
 * lulesh_cuda_fma.cu compiles this file a second time with FMA contraction
 * (LULESH_CUDA_FMA): only the monotonic Q + EOS launcher, suffixed _fma. */
#include "config.h"

#include "tessera/cuda.h"
#include "tessera/error.h"
#include "kernels/lulesh/lulesh_cuda.cuh"

namespace {

#ifndef LULESH_CUDA_FMA
/* list (when not NULL): the len nodes of the launch, else 0 .. len-1 */
__global__ void k_gather_update(lulesh_cuda_t d, double dt, int hg, const int32_t *list,
                                int32_t base, int32_t len) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const int32_t n = list ? list[i] : base + i;
  const int32_t c0 = d.node_elem_start[n], c1 = d.node_elem_start[n + 1];
  double *pos[3] = {d.x, d.y, d.z}, *vel[3] = {d.xd, d.yd, d.zd}, *frc[3] = {d.fx, d.fy, d.fz};
  const double mass = d.nodal_mass[n];
  const int mask = d.symm_mask[n];
  for (int m = 0; m < 3; m++) {
    double f = 0.0;
    for (int32_t c = c0; c < c1; c++) f += d.fs[m][d.node_elem_corner[c]];
    if (hg)
      for (int32_t c = c0; c < c1; c++) f += d.fh[m][d.node_elem_corner[c]];
    frc[m][n] = f;
    double a = f / mass;
    if (mask & (1 << m)) a = 0.0;
    double v = vel[m][n] + a * dt;
    if (fabs(v) < d.par.u_cut) v = 0.0;
    vel[m][n] = v;
    pos[m][n] += v * dt;
  }
}

#endif /* !LULESH_CUDA_FMA */

__device__ inline void atomic_min_pos(double *where, double v) {
  atomicMin(reinterpret_cast<unsigned long long *>(where),
            (unsigned long long)__double_as_longlong(v));
}

/* One launch over every element in region order (reg_elems): thread i's
 * region by a binary search of the region offsets, its repetitions from
 * the region's entry. Capped at LULESH_MONOQ_MAXREG registers (64 uncapped, 24 bytes of
 * spills): 36 resident warps per SM instead of 32 (docs/LULESH.md, design
 * alternatives). */
__global__ void __maxnreg__(LULESH_MONOQ_MAXREG) k_monoq_eos(lulesh_cuda_t d) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double dta = 1.0e+20, dtb = 1.0e+20;
  if (i < d.num_elem) {
    int lo = 0, hi = d.num_reg; /* reg_start_dev[lo] <= i < reg_start_dev[hi] */
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (d.reg_start_dev[mid] <= i) lo = mid;
      else hi = mid;
    }
    const int reps = d.reg_reps[lo];
    const int32_t e = d.reg_elems[i];
    const lulesh_params_t &c = d.par;
    /* monotonic Q */
    const int32_t *nbm[3] = {d.lxim, d.letam, d.lzetam}, *nbp[3] = {d.lxip, d.letap, d.lzetap};
    const int bc = d.elem_bc[e];
    double phi[3], dx[3], dv[3];
    for (int m = 0; m < 3; m++) {
      const double *g = d.delvg[m];
      const int bm = (bc >> (6 * m)) & 7, bp = (bc >> (6 * m + 3)) & 7;
      const double ge = g[e];
      const double vm = lulesh_face_value(bm, 1, 2, ge, (bm & 3) ? 0.0 : g[nbm[m][e]]);
      const double vp = lulesh_face_value(bp, 1, 2, ge, (bp & 3) ? 0.0 : g[nbp[m][e]]);
      phi[m] = lulesh_monoq_phi(ge, vm, vp, &c);
      dx[m] = d.delx[m][e];
      dv[m] = ge;
    }
    const double vnew = d.vnew[e], vdov = d.vdov[e];
    const double rho = d.elem_mass[e] / (d.volo[e] * vnew);
    double ql, qq;
    lulesh_monoq_terms(phi, dx, dv, vdov, rho, &c, &ql, &qq);
    const double q_old = d.q[e];
    if (q_old > c.qstop) lulesh_flag(d.status, LULESH_CUDA_BAD_QSTOP, e);
    const double v_old = d.v[e];
    double vc = v_old;
    if (c.eosvmin != 0.0 && vc < c.eosvmin) vc = c.eosvmin;
    if (c.eosvmax != 0.0 && vc > c.eosvmax) vc = c.eosvmax;
    if (vc <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_VC, e);
    /* EOS (LULESH's repetitions) */
    double vnewc = vnew;
    if (c.eosvmin != 0.0 && vnewc < c.eosvmin) vnewc = c.eosvmin;
    if (c.eosvmax != 0.0 && vnewc > c.eosvmax) vnewc = c.eosvmax;
    const double e_old = d.e[e], p_old = d.p[e], delv = vnew - v_old; /* the kinematics' */
    double pn = 0.0, en = 0.0, qn = 0.0, bvc = 0.0;
    for (int rep = 0; rep < reps; rep++) {
      /* an opaque copy, so that the compiler evaluates every repetition */
      double eo = e_old;
      asm volatile("" : "+d"(eo));
      lulesh_eos(eo, p_old, q_old, ql, qq, delv, vnewc, &c, &pn, &en, &qn, &bvc);
    }
    d.p[e] = pn;
    d.e[e] = en;
    d.q[e] = qn;
    const double ss = lulesh_sound_speed(en, pn, vnewc, bvc, &c);
    d.ss[e] = ss;
    double v = vnew;
    if (fabs(v - 1.0) < c.v_cut) v = 1.0;
    d.v[e] = v;
    lulesh_dt_elem(d, e, ss, &dta, &dtb);
  }
  for (int o = 16; o > 0; o /= 2) {
    dta = lulesh_dmin(dta, __shfl_down_sync(0xffffffffu, dta, o));
    dtb = lulesh_dmin(dtb, __shfl_down_sync(0xffffffffu, dtb, o));
  }
  if ((threadIdx.x & 31) == 0) {
    if (dta < 1.0e+20) atomic_min_pos(&d.status->dtcourant, dta);
    if (dtb < 1.0e+20) atomic_min_pos(&d.status->dthydro, dtb);
  }
}

}  // namespace

#ifndef LULESH_CUDA_FMA
extern "C" int lulesh_cuda_gather_update(const lulesh_cuda_t *d, double dt) {
  if (d->num_node == 0) return 0;
  k_gather_update<<<lulesh_nblocks(d->num_node, d->block), d->block>>>(
      *d, dt, d->par.hgcoef > 0.0, NULL, 0, d->num_node);
  TSR_CHECK_LAUNCH("lulesh node gather + update");
  return 0;
}

int lulesh_cuda__gather_update_list(const lulesh_cuda_t *d, double dt, const int32_t *list,
                                    int32_t base, int32_t n) {
  if (n == 0) return 0;
  k_gather_update<<<lulesh_nblocks(n, d->block), d->block>>>(*d, dt, d->par.hgcoef > 0.0, list,
                                                             base, n);
  TSR_CHECK_LAUNCH("lulesh node gather + update (part)");
  return 0;
}

#endif /* !LULESH_CUDA_FMA */

#ifdef LULESH_CUDA_FMA
int lulesh_cuda__monoq_eos_fused_fma(const lulesh_cuda_t *d) {
#else
int lulesh_cuda__monoq_eos_fused(const lulesh_cuda_t *d) {
#endif
  if (d->num_elem == 0) return 0;
  k_monoq_eos<<<lulesh_nblocks(d->num_elem, d->block), d->block>>>(*d);
  TSR_CHECK_LAUNCH("lulesh monotonic q + eos");
  return 0;
}
