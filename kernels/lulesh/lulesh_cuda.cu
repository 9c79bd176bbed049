/* kernels/lulesh/lulesh_cuda.cu: LULESH's time step on one GPU, one thread
 * per element or node, calling the arithmetic of lulesh.h (the CPU's), built
 * with --fmad=false (kernels/lulesh/local.mk). See lulesh_cuda.h.
 *
 * Kernels: corner forces (stress and hourglass of an element, 8 x 3 each),
 * the per-node gather of those corner forces through the node -> corner CSR
 * (the CPU's order: stress sum, then each hourglass force added on), the
 * node update, kinematics with the Q gradients, the monotonic Q limiter,
 * the EOS of one region (with its repetitions; also sound speed and the
 * volume update), and a two-pass minimum of the time constraints. The run-
 * time checks (VolumeError, QStopError) record the lowest failing element in
 * a status word read back with the dt constraints once per cycle. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/cuda.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "kernels/lulesh/lulesh_cuda.cuh"

namespace {

/* In the kernels below, list (when not NULL) names the n elements or nodes
 * of a launch (a part of a distributed step's split), else 0 .. n-1. */

/* Stress and hourglass corner forces of each element into fs, fh. */
__global__ void k_corner_forces(lulesh_cuda_t d, int hg, const int32_t *list, int32_t base,
                                int32_t n) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int32_t e = list ? list[i] : base + i;
  double fs[3][8], fh[3][8];
  lulesh_elem_forces(d, e, hg, fs, fh);
  int64_t k = 8 * (int64_t)e;
  for (int m = 0; m < 3; m++)
    for (int i = 0; i < 8; i++) d.fs[m][k + i] = fs[m][i];
  if (!hg) return;
  for (int m = 0; m < 3; m++)
    for (int i = 0; i < 8; i++) d.fh[m][k + i] = fh[m][i];
}

__global__ void k_gather_forces(lulesh_cuda_t d, int hg, const int32_t *list, int32_t base,
                                int32_t len) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const int32_t n = list ? list[i] : base + i;
  const int32_t c0 = d.node_elem_start[n], c1 = d.node_elem_start[n + 1];
  double *out[3] = {d.fx, d.fy, d.fz};
  for (int m = 0; m < 3; m++) {
    double f = 0.0;
    for (int32_t c = c0; c < c1; c++) f += d.fs[m][d.node_elem_corner[c]];
    if (hg)
      for (int32_t c = c0; c < c1; c++) f += d.fh[m][d.node_elem_corner[c]];
    out[m][n] = f;
  }
}

__global__ void k_update_nodes(lulesh_cuda_t d, double dt, const int32_t *list, int32_t base,
                               int32_t len) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const int32_t n = list ? list[i] : base + i;
  double *pos[3] = {d.x, d.y, d.z}, *vel[3] = {d.xd, d.yd, d.zd};
  const double *frc[3] = {d.fx, d.fy, d.fz};
  const double mass = d.nodal_mass[n];
  const int mask = d.symm_mask[n];
  for (int m = 0; m < 3; m++) {
    double a = frc[m][n] / mass;
    if (mask & (1 << m)) a = 0.0;
    double v = vel[m][n] + a * dt;
    if (fabs(v) < d.par.u_cut) v = 0.0;
    vel[m][n] = v;
    pos[m][n] += v * dt;
  }
}

/* Kinematics (new volume, characteristic length, strain rate), then the Q
 * gradients at the new positions with the new volume (list, when not NULL:
 * the n elements of the launch, else 0 .. n-1). Capped at LULESH_KIN_MAXREG
 * registers (ptxas would take 176): 12 resident warps per SM instead of 8 with
 * 128-thread blocks, with no spills; 5 % faster per cycle at -s 150 on an
 * H100 (docs/LULESH.md, design alternatives). */
__global__ void __maxnreg__(LULESH_KIN_MAXREG) k_kinematics(lulesh_cuda_t d, double dt,
                                                            const int32_t *list, int32_t base,
                                                            int32_t n, int reset) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 && reset) /* the fused element kernels take the dt minima from here */
    d.status->dtcourant = d.status->dthydro = 1.0e+20;
  if (i >= n) return;
  const int32_t e = list ? list[i] : base + i;
  const int32_t *c = &d.nodelist[8 * (int64_t)e];
  double x[8], y[8], z[8], xd[8], yd[8], zd[8], hx[8], hy[8], hz[8];
  lulesh_gather8(c, d.x, d.y, d.z, x, y, z);
  lulesh_gather8(c, d.xd, d.yd, d.zd, xd, yd, zd);
  for (int i = 0; i < 8; i++) hx[i] = x[i], hy[i] = y[i], hz[i] = z[i];
  double vnew, arealg, vdov;
  const double volo = d.volo[e];
  lulesh_kinematics(hx, hy, hz, xd, yd, zd, volo, dt, &vnew, &arealg, &vdov);
  d.vnew[e] = vnew;
  if (!d.fuse) d.delv[e] = vnew - d.v[e]; /* fused: the EOS kernel takes it itself */
  d.arealg[e] = arealg;
  d.vdov[e] = vdov;
  if (vnew <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_VNEW, e);
  double dx[3], dv[3];
  lulesh_monoq_gradients(x, y, z, xd, yd, zd, volo * vnew, dx, dv);
  for (int m = 0; m < 3; m++) {
    d.delx[m][e] = dx[m];
    d.delvg[m][e] = dv[m];
  }
}

/* The monotonic Q limiter with the face neighbours' velocity gradients, the
 * linear and quadratic terms; the QStopError and EOS volume checks. */
__global__ void k_monoq(lulesh_cuda_t d) {
  int32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.num_elem) return;
  const int32_t *nbm[3] = {d.lxim, d.letam, d.lzetam}, *nbp[3] = {d.lxip, d.letap, d.lzetap};
  const int bc = d.elem_bc[e];
  double phi[3], dx[3], dv[3];
  for (int m = 0; m < 3; m++) {
    const double *g = d.delvg[m];
    int bm = (bc >> (6 * m)) & 7, bp = (bc >> (6 * m + 3)) & 7;
    double ge = g[e];
    double vm = lulesh_face_value(bm, 1, 2, ge, g[nbm[m][e]]);
    double vp = lulesh_face_value(bp, 1, 2, ge, g[nbp[m][e]]);
    phi[m] = lulesh_monoq_phi(ge, vm, vp, &d.par);
    dx[m] = d.delx[m][e];
    dv[m] = ge;
  }
  double rho = d.elem_mass[e] / (d.volo[e] * d.vnew[e]);
  double ql, qq;
  lulesh_monoq_terms(phi, dx, dv, d.vdov[e], rho, &d.par, &ql, &qq);
  d.ql[e] = ql;
  d.qq[e] = qq;
  if (d.q[e] > d.par.qstop) lulesh_flag(d.status, LULESH_CUDA_BAD_QSTOP, e);
  double vc = d.v[e];
  if (d.par.eosvmin != 0.0 && vc < d.par.eosvmin) vc = d.par.eosvmin;
  if (d.par.eosvmax != 0.0 && vc > d.par.eosvmax) vc = d.par.eosvmax;
  if (vc <= 0.0) lulesh_flag(d.status, LULESH_CUDA_BAD_VC, e);
}

/* The EOS of the len elements list[] of one region, reps times (LULESH's
 * cost model; each evaluation stores its results), then p, e, q, the sound
 * speed and the new relative volume (element by element, as the CPU's
 * later loop does). */
__global__ void k_eos(lulesh_cuda_t d, const int32_t *list, int32_t len, int reps) {
  int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const int32_t e = list[i];
  const lulesh_params_t &c = d.par;
  double vnewc = d.vnew[e];
  if (c.eosvmin != 0.0 && vnewc < c.eosvmin) vnewc = c.eosvmin;
  if (c.eosvmax != 0.0 && vnewc > c.eosvmax) vnewc = c.eosvmax;
  const double e_old = d.e[e], p_old = d.p[e], q_old = d.q[e], ql = d.ql[e], qq = d.qq[e],
               delv = d.delv[e];
  double pn = 0.0, en = 0.0, qn = 0.0, bvc = 0.0;
  for (int rep = 0; rep < reps; rep++) {
    lulesh_eos(e_old, p_old, q_old, ql, qq, delv, vnewc, &c, &pn, &en, &qn, &bvc);
    d.eos_p[e] = pn;
    d.eos_e[e] = en;
    d.eos_q[e] = qn;
    d.eos_bvc[e] = bvc;
  }
  d.p[e] = pn;
  d.e[e] = en;
  d.q[e] = qn;
  d.ss[e] = lulesh_sound_speed(en, pn, vnewc, bvc, &c);
  double v = d.vnew[e];
  if (fabs(v - 1.0) < c.v_cut) v = 1.0;
  d.v[e] = v;
}

/* Shared-memory tree minimum of two values per thread (blockDim a power of 2). */
__device__ inline void block_min2(double *sc, double *sh, double a, double b) {
  const int t = threadIdx.x;
  sc[t] = a;
  sh[t] = b;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) {
      sc[t] = lulesh_dmin(sc[t], sc[t + w]);
      sh[t] = lulesh_dmin(sh[t], sh[t + w]);
    }
    __syncthreads();
  }
}

__global__ void k_dt_partial(lulesh_cuda_t d) {
  extern __shared__ double sm[];
  int32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  double a = 1.0e+20, b = 1.0e+20;
  if (e < d.num_elem) lulesh_dt_elem(d, e, d.ss[e], &a, &b);
  block_min2(sm, sm + blockDim.x, a, b);
  if (threadIdx.x == 0) {
    d.partial[2 * blockIdx.x] = sm[0];
    d.partial[2 * blockIdx.x + 1] = sm[blockDim.x];
  }
}

__global__ void k_dt_final(lulesh_cuda_t d, int nblk) {
  extern __shared__ double sm[];
  double a = 1.0e+20, b = 1.0e+20;
  for (int i = threadIdx.x; i < nblk; i += blockDim.x) {
    a = lulesh_dmin(a, d.partial[2 * i]);
    b = lulesh_dmin(b, d.partial[2 * i + 1]);
  }
  block_min2(sm, sm + blockDim.x, a, b);
  if (threadIdx.x == 0) {
    d.status->dtcourant = sm[0];
    d.status->dthydro = sm[blockDim.x];
  }
}

/* Every array of the device state with its host counterpart and size; mesh
 * arrays (state 0) only travel to the device. */
struct field {
  void **dev;
  const void *host;
  size_t bytes; /* copied */
  int state;
  size_t alloc; /* allocated (>= bytes) */
};
enum { MAX_FIELDS = 64 };

int fields(lulesh_cuda_t *d, const lulesh_state_t *s, field *f) {
  const lulesh_mesh_t *m = s->mesh;
  const size_t ne = (size_t)s->num_elem, nn = (size_t)s->num_node, I = sizeof(int32_t),
               D = sizeof(double);
  int k = 0;
#define LF_(dv, hv, b, st) (f[k].dev = (void **)(dv), f[k].host = (hv), f[k].bytes = (b), \
                            f[k].state = (st), f[k].alloc = (b), k++)
  LF_(&d->nodelist, m->nodelist, 8 * ne * I, 0);
  LF_(&d->lxim, m->lxim, ne * I, 0);
  LF_(&d->lxip, m->lxip, ne * I, 0);
  LF_(&d->letam, m->letam, ne * I, 0);
  LF_(&d->letap, m->letap, ne * I, 0);
  LF_(&d->lzetam, m->lzetam, ne * I, 0);
  LF_(&d->lzetap, m->lzetap, ne * I, 0);
  LF_(&d->elem_bc, m->elem_bc, ne * I, 0);
  LF_(&d->reg_elems, m->reg_elems, ne * I, 0);
  LF_(&d->node_elem_start, m->node_elem_start, (nn + 1) * I, 0);
  LF_(&d->node_elem_corner, m->node_elem_corner, 8 * ne * I, 0);
  LF_(&d->symm_mask, s->symm_mask, nn, 0);
  double **dn[] = {&d->x, &d->y, &d->z, &d->xd, &d->yd, &d->zd, &d->fx, &d->fy, &d->fz,
                   &d->nodal_mass};
  double *const hn[] = {s->x, s->y, s->z, s->xd, s->yd, s->zd, s->fx, s->fy, s->fz,
                        s->nodal_mass};
  for (size_t i = 0; i < sizeof dn / sizeof *dn; i++) LF_(dn[i], hn[i], nn * D, 1);
  double **de[] = {&d->e, &d->p, &d->q, &d->ql, &d->qq, &d->v, &d->volo, &d->delv, &d->vdov,
                   &d->arealg, &d->ss, &d->elem_mass, &d->vnew, &d->delx[0], &d->delx[1],
                   &d->delx[2], &d->delvg[0], &d->delvg[1], &d->delvg[2], &d->eos_p,
                   &d->eos_e, &d->eos_q, &d->eos_bvc};
  double *const he[] = {s->e, s->p, s->q, s->ql, s->qq, s->v, s->volo, s->delv, s->vdov,
                        s->arealg, s->ss, s->elem_mass, s->vnew, s->delx[0], s->delx[1],
                        s->delx[2], s->delvg[0], s->delvg[1], s->delvg[2], s->eos_p,
                        s->eos_e, s->eos_q, s->eos_bvc};
  for (size_t i = 0; i < sizeof de / sizeof *de; i++) LF_(de[i], he[i], ne * D, 1);
  /* the velocity gradients have room for the ghosts (filled on the device) */
  for (int i = 0; i < k; i++)
    for (int j = 0; j < 3; j++)
      if (f[i].dev == (void **)&d->delvg[j]) f[i].alloc = (ne + (size_t)d->num_ghost) * D;
  for (int i = 0; i < 3; i++) LF_(&d->fs[i], s->fs[i], 8 * ne * D, 1);
  for (int i = 0; i < 3; i++) LF_(&d->fh[i], s->fh[i], 8 * ne * D, 1);
#undef LF_
  return k;
}

int clear_status(const lulesh_cuda_t *d) {
  lulesh_cuda_status_t h;
  h.dtcourant = h.dthydro = 1.0e+20;
  for (int i = 0; i < LULESH_CUDA_NCHECK; i++) h.bad[i] = d->num_elem;
  TSR_CALL_CUDA(cudaMemcpy(d->status, &h, sizeof h, cudaMemcpyHostToDevice));
  return 0;
}

/* Raise the first failed check of st (the CPU's order), else 0. */
int raise_status(const lulesh_cuda_status_t *st, int32_t ne, int cycle) {
  static const char *what[LULESH_CUDA_NCHECK] = {
      "a non-positive Jacobian volume (corner forces)",
      "a non-positive relative volume (corner forces)",
      "a non-positive new relative volume (kinematics)", "",
      "a non-positive relative volume (EOS)"};
  for (int i = 0; i < LULESH_CUDA_NCHECK; i++) {
    if (st->bad[i] >= ne) continue;
    if (i == LULESH_CUDA_BAD_QSTOP)
      return TSR_RAISE(LULESH_QSTOP_ERROR,
                       "lulesh: QStopError at cycle %d: element %d has q above qstop (GPU)",
                       cycle, st->bad[i]);
    return TSR_RAISE(LULESH_VOLUME_ERROR, "lulesh: VolumeError at cycle %d: element %d has %s",
                     cycle, st->bad[i], what[i]);
  }
  return 0;
}

} // namespace

extern "C" void lulesh_cuda_free(lulesh_cuda_t *d) {
  if (!d) return;
  if (d->nodelist || d->x) {
    /* fields() needs a state only for its host pointers and sizes */
    lulesh_mesh_t m;
    memset(&m, 0, sizeof m);
    lulesh_state_t s;
    memset(&s, 0, sizeof s);
    s.mesh = &m;
    field f[MAX_FIELDS];
    int n = fields(d, &s, f);
    for (int i = 0; i < n; i++) cudaFree(*f[i].dev);
  }
  cudaFree(d->partial);
  cudaFree(d->status);
  cudaFree(d->reg_start_dev);
  cudaFree(d->reg_reps);
  cudaFree(d->sp_elem);
  cudaFree(d->sp_node);
  cudaFree(d->sp_kin);
  tsr_queue_destroy(&d->queue);
  lulesh_cuda__asm_free(d);
  memset(d, 0, sizeof *d);
}

extern "C" int lulesh_cuda_init(lulesh_cuda_t *d, const lulesh_state_t *s, int block) {
  lulesh_cuda_opts_t o;
  memset(&o, 0, sizeof o);
  o.assembly = LULESH_ASM_GATHER;
  o.block = block;
  return lulesh_cuda_init_opts(d, s, &o);
}

extern "C" int lulesh_cuda_init_opts(lulesh_cuda_t *d, const lulesh_state_t *s,
                                     const lulesh_cuda_opts_t *o) {
  memset(d, 0, sizeof *d);
  int block = o->block ? o->block : 128;
  TSR_CHECK(o->assembly >= LULESH_ASM_GATHER && o->assembly <= LULESH_ASM_TWOLEVEL, TSR_ERR_ARG,
            "lulesh cuda: unknown node-force assembly %d", (int)o->assembly);
  TSR_CHECK(block >= 32 && block <= 1024 && (block & (block - 1)) == 0, TSR_ERR_ARG,
            "lulesh cuda: the block size must be a power of 2 in [32, 1024], not %d", block);
  d->num_elem = s->num_elem;
  d->num_node = s->num_node;
  d->num_reg = s->mesh->num_reg;
  d->num_ghost = s->mesh->num_ghost;
  TSR_CALL_CUDA(cudaGetDevice(&d->device_id));
  d->assembly = o->assembly;
  d->fuse = o->fuse != 0;
  d->fma = o->fma != 0;
  TSR_CHECK(!d->fma || o->assembly != LULESH_ASM_GATHER, TSR_ERR_ARG,
            "lulesh cuda: FMA contraction is for the atomic, colour and two-level assemblies");
  d->cost = s->cost;
  d->block = block;
  d->par = s->par;
  d->reg_start = s->mesh->reg_start;
  field f[MAX_FIELDS];
  int n = fields(d, s, f);
  for (int i = 0; i < n; i++) {
    cudaError_t rc = tsr_cuda_fault(cudaMalloc(f[i].dev, f[i].alloc ? f[i].alloc : 1));
    if (rc != cudaSuccess) {
      lulesh_cuda_free(d);
      return tsr__error_cuda((int)rc, "cudaMalloc (lulesh state)", __FILE__, __LINE__, __func__);
    }
  }
  cudaError_t rc =
      tsr_cuda_fault(cudaMalloc(&d->partial, sizeof(double) * 2 * (lulesh_nblocks(d->num_elem, block) + 1)));
  if (rc == cudaSuccess) rc = tsr_cuda_fault(cudaMalloc(&d->status, sizeof(lulesh_cuda_status_t)));
  /* the region offsets and repetitions, for the one-launch EOS */
  const size_t nr = (size_t)d->num_reg;
  int32_t *reps = (int32_t *)malloc(sizeof(int32_t) * (nr + 1));
  if (!reps) {
    lulesh_cuda_free(d);
    return TSR_RAISE(TSR_ERR_ALLOC, "lulesh cuda: no memory for %d regions", d->num_reg);
  }
  for (int32_t r = 0; r < d->num_reg; r++) reps[r] = lulesh_region_reps(r, d->num_reg, d->cost);
  if (rc == cudaSuccess) rc = tsr_cuda_fault(cudaMalloc(&d->reg_start_dev, sizeof(int32_t) * (nr + 1)));
  if (rc == cudaSuccess) rc = tsr_cuda_fault(cudaMalloc(&d->reg_reps, sizeof(int32_t) * (nr + 1)));
  if (rc == cudaSuccess)
    rc = tsr_cuda_fault(cudaMemcpy(d->reg_start_dev, d->reg_start, sizeof(int32_t) * (nr + 1),
                                   cudaMemcpyHostToDevice));
  if (rc == cudaSuccess)
    rc = tsr_cuda_fault(cudaMemcpy(d->reg_reps, reps, sizeof(int32_t) * nr, cudaMemcpyHostToDevice));
  free(reps);
  if (rc != cudaSuccess) {
    lulesh_cuda_free(d);
    return tsr__error_cuda((int)rc, "cudaMalloc (lulesh reduction, regions)", __FILE__, __LINE__,
                           __func__);
  }
  int err = lulesh_cuda_copy(d, (lulesh_state_t *)s, LULESH_CUDA_TO_DEVICE);
  if (!err && s->ex) err = lulesh_cuda_dist_setup(d, s, o); /* before the assembly's set-up */
  if (!err) err = lulesh_cuda__asm_setup(d, s, o);
  if (err) lulesh_cuda_free(d);
  return err;
}

extern "C" int lulesh_cuda_copy(lulesh_cuda_t *d, lulesh_state_t *s, lulesh_cuda_dir_t dir) {
  TSR_CHECK(s->num_elem == d->num_elem && s->num_node == d->num_node, TSR_ERR_ARG,
            "lulesh cuda: a state of %d elements, %d nodes does not match the device's %d, %d",
            s->num_elem, s->num_node, d->num_elem, d->num_node);
  field f[MAX_FIELDS];
  int n = fields(d, s, f);
  for (int i = 0; i < n; i++) {
    if (dir == LULESH_CUDA_TO_DEVICE)
      TSR_CALL_CUDA(cudaMemcpy(*f[i].dev, f[i].host, f[i].bytes, cudaMemcpyHostToDevice));
    else if (f[i].state)
      TSR_CALL_CUDA(cudaMemcpy((void *)f[i].host, *f[i].dev, f[i].bytes, cudaMemcpyDeviceToHost));
  }
  if (dir == LULESH_CUDA_TO_DEVICE) {
    d->par = s->par;
    TSR_CALL(clear_status(d));
  }
  return 0;
}

extern "C" int lulesh_cuda_corner_forces(const lulesh_cuda_t *d) {
  if (d->num_elem == 0) return 0;
  k_corner_forces<<<lulesh_nblocks(d->num_elem, d->block), d->block>>>(*d, d->par.hgcoef > 0.0,
                                                                      NULL, 0, d->num_elem);
  TSR_CHECK_LAUNCH("lulesh corner forces");
  return 0;
}

extern "C" int lulesh_cuda_gather_forces(const lulesh_cuda_t *d) {
  if (d->num_node == 0) return 0;
  k_gather_forces<<<lulesh_nblocks(d->num_node, d->block), d->block>>>(*d, d->par.hgcoef > 0.0,
                                                                      NULL, 0, d->num_node);
  TSR_CHECK_LAUNCH("lulesh force gather");
  return 0;
}

extern "C" int lulesh_cuda_node_forces(const lulesh_cuda_t *d) {
  if (d->assembly != LULESH_ASM_GATHER)
    return d->fma ? lulesh_cuda__scatter_forces_fma(d, -1) : lulesh_cuda__scatter_forces(d, -1);
  TSR_CALL(lulesh_cuda_corner_forces(d));
  TSR_CALL(lulesh_cuda_gather_forces(d));
  return 0;
}

extern "C" int lulesh_cuda_update_nodes(const lulesh_cuda_t *d, double dt) {
  if (d->num_node == 0) return 0;
  k_update_nodes<<<lulesh_nblocks(d->num_node, d->block), d->block>>>(*d, dt, NULL, 0, d->num_node);
  TSR_CHECK_LAUNCH("lulesh node update");
  return 0;
}

extern "C" int lulesh_cuda_lagrange_nodal(const lulesh_cuda_t *d, double dt) {
  if (d->fuse && d->assembly == LULESH_ASM_GATHER) {
    TSR_CALL(lulesh_cuda_corner_forces(d));
    return lulesh_cuda_gather_update(d, dt);
  }
  TSR_CALL(lulesh_cuda_node_forces(d));
  return lulesh_cuda_update_nodes(d, dt);
}

extern "C" int lulesh_cuda_kinematics(const lulesh_cuda_t *d, double dt) {
  /* one thread at least: it resets the dt minima */
  k_kinematics<<<lulesh_nblocks(d->num_elem > 0 ? d->num_elem : 1, d->block), d->block>>>(
      *d, dt, NULL, 0, d->num_elem, 1);
  TSR_CHECK_LAUNCH("lulesh kinematics");
  return 0;
}

/* The parts of a distributed step (lulesh_cuda.h). sp_elem, sp_node and
 * sp_kin hold each split's first part, then the rest. */
extern "C" int lulesh_cuda_node_forces_part(const lulesh_cuda_t *d, int part) {
  TSR_CHECK(d->split, TSR_ERR_ARG, "lulesh cuda: node forces in parts need the run's split");
  if (d->assembly != LULESH_ASM_GATHER)
    return d->fma ? lulesh_cuda__scatter_forces_fma(d, part) : lulesh_cuda__scatter_forces(d, part);
  const lulesh_split_t *sp = d->split;
  const int32_t nb = sp->num_bnd, n = part ? sp->num_elem - nb : nb;
  const int hg = d->par.hgcoef > 0.0;
  const cudaStream_t st = part == 0 ? (cudaStream_t)d->part0_stream : 0;
  if (n > 0) {
    const int32_t base = d->sp_base[0][part];
    k_corner_forces<<<lulesh_nblocks(n, d->block), d->block, 0, st>>>(
        *d, hg, base >= 0 ? NULL : d->sp_elem + (part ? nb : 0), base, n);
    TSR_CHECK_LAUNCH("lulesh corner forces (part)");
  }
  /* the shared nodes' corners all belong to part 0's elements */
  if (part == 0 && sp->num_shared > 0) {
    k_gather_forces<<<lulesh_nblocks(sp->num_shared, d->block), d->block, 0, st>>>(
        *d, hg, d->sp_base[1][0] >= 0 ? NULL : d->sp_node, d->sp_base[1][0], sp->num_shared);
    TSR_CHECK_LAUNCH("lulesh force gather (shared nodes)");
  }
  return 0;
}

extern "C" int lulesh_cuda_zero_forces(const lulesh_cuda_t *d) {
  const size_t nb = sizeof(double) * (size_t)d->num_node;
  TSR_CALL_CUDA(cudaMemsetAsync(d->fx, 0, nb));
  TSR_CALL_CUDA(cudaMemsetAsync(d->fy, 0, nb));
  TSR_CALL_CUDA(cudaMemsetAsync(d->fz, 0, nb));
  return 0;
}

extern "C" int lulesh_cuda_update_nodes_part(const lulesh_cuda_t *d, double dt, int part) {
  TSR_CHECK(d->split, TSR_ERR_ARG, "lulesh cuda: the node update in parts needs the run's split");
  const lulesh_split_t *sp = d->split;
  const int32_t ns = sp->num_shared, n = part ? sp->num_node - ns : ns;
  const int32_t base = d->sp_base[1][part];
  const int32_t *list = base >= 0 ? NULL : d->sp_node + (part ? ns : 0);
  if (n == 0) return 0;
  if (part == 1 && d->assembly == LULESH_ASM_GATHER) { /* the other nodes' gather too */
    if (d->fuse) return lulesh_cuda__gather_update_list(d, dt, list, base, n);
    k_gather_forces<<<lulesh_nblocks(n, d->block), d->block>>>(*d, d->par.hgcoef > 0.0, list, base,
                                                               n);
    TSR_CHECK_LAUNCH("lulesh force gather (part)");
  }
  k_update_nodes<<<lulesh_nblocks(n, d->block), d->block, 0,
                   part == 0 ? (cudaStream_t)d->part0_stream : 0>>>(*d, dt, list, base, n);
  TSR_CHECK_LAUNCH("lulesh node update (part)");
  return 0;
}

extern "C" int lulesh_cuda_kinematics_part(const lulesh_cuda_t *d, double dt, int part) {
  TSR_CHECK(d->split, TSR_ERR_ARG, "lulesh cuda: the kinematics in parts need the run's split");
  const int32_t ns = d->split->num_send, n = part ? d->split->num_elem - ns : ns;
  /* part 0: one thread at least, for the reset of the dt minima */
  if (part && n == 0) return 0;
  k_kinematics<<<lulesh_nblocks(n > 0 ? n : 1, d->block), d->block, 0,
                 part == 0 ? (cudaStream_t)d->part0_stream : 0>>>(
      *d, dt, d->sp_base[2][part] >= 0 ? NULL : d->sp_kin + (part ? ns : 0), d->sp_base[2][part], n,
      part == 0);
  TSR_CHECK_LAUNCH("lulesh kinematics (part)");
  return 0;
}

extern "C" int lulesh_cuda_lagrange_elements(const lulesh_cuda_t *d, double dt) {
  TSR_CALL(lulesh_cuda_kinematics(d, dt));
  return lulesh_cuda_monoq_eos(d);
}

extern "C" int lulesh_cuda_monoq_eos(const lulesh_cuda_t *d) {
  if (d->num_elem == 0) return 0;
  if (d->fuse)
    return d->fma ? lulesh_cuda__monoq_eos_fused_fma(d) : lulesh_cuda__monoq_eos_fused(d);
  const unsigned g = lulesh_nblocks(d->num_elem, d->block);
  k_monoq<<<g, d->block>>>(*d);
  TSR_CHECK_LAUNCH("lulesh monotonic q");
  for (int32_t r = 0; r < d->num_reg; r++) {
    int32_t off = d->reg_start[r], len = d->reg_start[r + 1] - off;
    if (len == 0) continue;
    int reps = lulesh_region_reps(r, d->num_reg, d->cost);
    k_eos<<<lulesh_nblocks(len, d->block), d->block>>>(*d, d->reg_elems + off, len, reps);
    TSR_CHECK_LAUNCH("lulesh eos");
  }
  return 0;
}

extern "C" int lulesh_cuda_check(lulesh_cuda_t *d, const lulesh_state_t *s) {
  lulesh_cuda_status_t st;
  TSR_CALL_CUDA(cudaMemcpy(&st, d->status, sizeof st, cudaMemcpyDeviceToHost));
  return raise_status(&st, d->num_elem, s->cycle);
}

extern "C" int lulesh_cuda_time_constraints(lulesh_cuda_t *d, lulesh_state_t *s) {
  const unsigned g = lulesh_nblocks(d->num_elem, d->block);
  const size_t sh = 2 * sizeof(double) * (size_t)d->block;
  if (d->fuse) { /* the fused EOS kernels took the minima */
  } else {
    if (g > 0) {
      k_dt_partial<<<g, d->block, sh>>>(*d);
      TSR_CHECK_LAUNCH("lulesh dt constraints");
    }
    k_dt_final<<<1, d->block, sh>>>(*d, (int)g);
    TSR_CHECK_LAUNCH("lulesh dt minimum");
  }
  lulesh_cuda_status_t st;
  TSR_CALL_CUDA(cudaMemcpy(&st, d->status, sizeof st, cudaMemcpyDeviceToHost));
  TSR_CALL(raise_status(&st, d->num_elem, s->cycle));
  s->dtcourant = st.dtcourant;
  s->dthydro = st.dthydro;
  return 0;
}

extern "C" int lulesh_cuda_step(lulesh_cuda_t *d, lulesh_state_t *s) {
  if (s->ex) return lulesh_cuda_step_dist(d, s);
  lulesh_time_increment(s);
  TSR_CALL(lulesh_cuda_lagrange_nodal(d, s->deltatime));
  TSR_CALL(lulesh_cuda_lagrange_elements(d, s->deltatime));
  TSR_CALL(lulesh_cuda_time_constraints(d, s));
  return 0;
}

namespace {
/* Stage k ends: wait for stop, add the time since start. */
int prof_end(cudaEvent_t start, cudaEvent_t stop, lulesh_cuda_prof_t *p, int k) {
  TSR_CALL_CUDA(cudaEventRecord(stop));
  TSR_CALL_CUDA(cudaEventSynchronize(stop));
  float ms = 0.0f;
  TSR_CALL_CUDA(cudaEventElapsedTime(&ms, start, stop));
  p->seconds[k] += 1e-3 * (double)ms;
  p->calls[k]++;
  TSR_CALL_CUDA(cudaEventRecord(start));
  return 0;
}

int step_profiled(lulesh_cuda_t *d, lulesh_state_t *s, lulesh_cuda_prof_t *p, cudaEvent_t a,
                  cudaEvent_t b) {
  lulesh_time_increment(s);
  const double dt = s->deltatime;
  const int gather = d->assembly == LULESH_ASM_GATHER;
  TSR_CALL_CUDA(cudaEventRecord(a));
  if (gather) TSR_CALL(lulesh_cuda_corner_forces(d)); /* the gather is the next stage's */
  else TSR_CALL(lulesh_cuda_node_forces(d));
  TSR_CALL(prof_end(a, b, p, LULESH_STAGE_FORCES));
  if (gather && d->fuse) TSR_CALL(lulesh_cuda_gather_update(d, dt));
  else {
    if (gather) TSR_CALL(lulesh_cuda_gather_forces(d));
    TSR_CALL(lulesh_cuda_update_nodes(d, dt));
  }
  TSR_CALL(prof_end(a, b, p, LULESH_STAGE_NODES));
  TSR_CALL(lulesh_cuda_kinematics(d, dt));
  TSR_CALL(prof_end(a, b, p, LULESH_STAGE_KINEMATICS));
  TSR_CALL(lulesh_cuda_monoq_eos(d));
  TSR_CALL(prof_end(a, b, p, LULESH_STAGE_MONOQ_EOS));
  TSR_CALL(lulesh_cuda_time_constraints(d, s));
  TSR_CALL(prof_end(a, b, p, LULESH_STAGE_DT));
  return 0;
}
}  // namespace

extern "C" int lulesh_cuda_step_profiled(lulesh_cuda_t *d, lulesh_state_t *s,
                                         lulesh_cuda_prof_t *p) {
  TSR_CHECK(!s->ex, TSR_ERR_UNSUPPORTED, "lulesh cuda: the stage profile runs on one rank");
  cudaEvent_t a, b;
  TSR_CALL_CUDA(cudaEventCreate(&a));
  cudaError_t e = tsr_cuda_fault(cudaEventCreate(&b));
  if (e != cudaSuccess) {
    cudaEventDestroy(a);
    return tsr__error_cuda((int)e, "cudaEventCreate", __FILE__, __LINE__, __func__);
  }
  int rc = step_profiled(d, s, p, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return rc;
}

extern "C" int lulesh_cuda_steps(lulesh_cuda_t *d, lulesh_state_t *s, int max_cycles) {
  while (s->time < s->stoptime && (max_cycles <= 0 || s->cycle < max_cycles))
    TSR_CALL(lulesh_cuda_step(d, s));
  return 0;
}

extern "C" int lulesh_cuda_run(lulesh_state_t *s, int max_cycles, lulesh_result_t *res) {
  return lulesh_cuda_run_opts(s, NULL, max_cycles, res);
}

extern "C" int lulesh_cuda_run_opts(lulesh_state_t *s, const lulesh_cuda_opts_t *o,
                                    int max_cycles, lulesh_result_t *res) {
  lulesh_cuda_t d;
  if (o) TSR_CALL(lulesh_cuda_init_opts(&d, s, o));
  else TSR_CALL(lulesh_cuda_init(&d, s, 0));
  int rc = lulesh_cuda_steps(&d, s, max_cycles);
  int rc2 = lulesh_cuda_copy(&d, s, LULESH_CUDA_TO_HOST);
  lulesh_cuda_free(&d);
  TSR_CALL(rc);
  TSR_CALL(rc2);
  if (res) TSR_CALL(lulesh_state_result(s, res)); /* global values on several ranks */
  return 0;
}
