/* kernels/lulesh/lulesh_cuda.cuh: what the CUDA files of LULESH's step share
 * (lulesh_cuda.cu: state, stages, driver; lulesh_cuda_asm.cu: the atomic,
 * colour and two-level node-force assemblies; lulesh_cuda_fused.cu: the
 * fused node update and element kernels). Device helpers and the internal
 * launchers; every file is built with --fmad=false. */
#ifndef TSR_KERNELS_LULESH_CUDA_CUH
#define TSR_KERNELS_LULESH_CUDA_CUH

#include "kernels/lulesh/lulesh_cuda.h"

/* Register caps (__maxnreg__) of the three big element kernels, each the row kept in
 * docs/LULESH.md's "Design alternatives" table (resident warps per SM at 128-thread blocks): */
#define LULESH_KIN_MAXREG 168   /* k_kinematics: 12 warps/SM instead of 8, no spills */
#define LULESH_FORCES_MAXREG 168 /* k_forces_atomic: 12 warps/SM, 136 B of spills */
#define LULESH_MONOQ_MAXREG 56  /* k_monoq_eos: 36 warps/SM instead of 32, 24 B of spills */

/* The 8 corner values of a[], b[], cc[] through the corner list c. */
static __device__ inline void lulesh_gather8(const int32_t *c, const double *a, const double *b,
                                             const double *cc, double x[8], double y[8],
                                             double z[8]) {
  for (int i = 0; i < 8; i++) {
    const int32_t n = c[i];
    x[i] = a[n];
    y[i] = b[n];
    z[i] = cc[n];
  }
}

/* Record a failed run-time check at element e (the lowest one wins). */
static __device__ inline void lulesh_flag(lulesh_cuda_status_t *st, int check, int32_t e) {
  if (st->bad[check] > e) atomicMin(&st->bad[check], e);
}

/* The CPU keeps a dt candidate only if it is below the running minimum,
 * which starts at 1e20: so NaN and values >= 1e20 never count. */
static __device__ inline double lulesh_dt_cand(double a) { return a < 1.0e+20 ? a : 1.0e+20; }
static __device__ inline double lulesh_dmin(double a, double b) { return b < a ? b : a; }

/* The Courant and hydro candidates of element e (1e20 where vdov is 0). */
static __device__ inline void lulesh_dt_elem(const lulesh_cuda_t &d, int32_t e, double ss,
                                             double *a, double *b) {
  *a = *b = 1.0e+20;
  const double vdov = d.vdov[e];
  if (vdov != 0.0) {
    *a = lulesh_dt_cand(lulesh_dt_courant(ss, vdov, d.arealg[e], &d.par));
    *b = lulesh_dt_cand(lulesh_dt_hydro(vdov, &d.par));
  }
}

/* The stress and hourglass corner forces of element e at the current
 * positions and velocities (the CPU's arithmetic), with the Jacobian and
 * relative-volume checks. fs, fh: the two parts; hg: hourglass control on. */
static __device__ inline void lulesh_elem_forces(const lulesh_cuda_t &d, int32_t e, int hg,
                                                 double fs[3][8], double fh[3][8]) {
  const int32_t *c = &d.nodelist[8 * (int64_t)e];
  double x[8], y[8], z[8], b[3][8];
  lulesh_gather8(c, d.x, d.y, d.z, x, y, z);
  const double detj = lulesh_shape_derivs(x, y, z, b);
  if (detj <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_JACOBIAN, e);
  lulesh_node_normals(x, y, z, b);
  lulesh_stress_forces(b, -d.p[e] - d.q[e], fs);
  const double v = d.v[e];
  if (v <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_V, e);
  if (!hg) {
    for (int m = 0; m < 3; m++)
      for (int i = 0; i < 8; i++) fh[m][i] = 0.0;
    return;
  }
  double xd[8], yd[8], zd[8];
  lulesh_gather8(c, d.xd, d.yd, d.zd, xd, yd, zd);
  lulesh_hourglass_forces(x, y, z, xd, yd, zd, d.volo[e] * v, d.ss[e], d.elem_mass[e],
                          d.par.hgcoef, fh);
}

static inline unsigned lulesh_nblocks(int64_t n, int block) {
  return (unsigned)((n + block - 1) / block);
}

/* lulesh_cuda_asm.cu: the colouring or plan of d's assembly (host work,
 * uploaded), its release, and fx, fy, fz by ATOMIC, COLOUR or TWOLEVEL. */
int lulesh_cuda__asm_setup(lulesh_cuda_t *d, const lulesh_state_t *s,
                           const lulesh_cuda_opts_t *o);
void lulesh_cuda__asm_free(lulesh_cuda_t *d);
/* part -1: every element; 0, 1: the parts of lulesh_cuda_node_forces_part
 * (0 zeroes fx, fy, fz as -1 does, 1 does not). */
int lulesh_cuda__scatter_forces(const lulesh_cuda_t *d, int part);
/* The two-level kernel's shared-memory allowance above 48 KiB. */
int lulesh_cuda__twolevel_allow(const lulesh_cuda_t *d);

/* lulesh_cuda_fused.cu (besides lulesh_cuda_gather_update): the monotonic
 * Q + EOS + sound speed + volume update + dt constraints in one launch over
 * all regions (the dt minima into d->status by atomicMin; the kinematics
 * kernel resets them). */
int lulesh_cuda__monoq_eos_fused(const lulesh_cuda_t *d);
/* lulesh_cuda_gather_update on the n nodes list[] only (list NULL: the
 * nodes base .. base + n - 1). */
int lulesh_cuda__gather_update_list(const lulesh_cuda_t *d, double dt, const int32_t *list,
                                    int32_t base, int32_t n);

/* lulesh_cuda_fma.cu: the same launchers built with FMA contraction. */
int lulesh_cuda__scatter_forces_fma(const lulesh_cuda_t *d, int part);
int lulesh_cuda__twolevel_allow_fma(const lulesh_cuda_t *d);
int lulesh_cuda__monoq_eos_fused_fma(const lulesh_cuda_t *d);

#endif /* TSR_KERNELS_LULESH_CUDA_CUH */
