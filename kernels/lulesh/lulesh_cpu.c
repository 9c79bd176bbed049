/* kernels/lulesh/lulesh_cpu.c: the serial CPU reference of LULESH 2.0's
 * time step on an unstructured hex mesh (lulesh_mesh.h), with the reference
 * code's order of floating-point operations, so that it reproduces LULESH's
 * serial results bit for bit on the mesh LULESH builds. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/fault.h"
#include "kernels/lulesh/lulesh_mesh.h"
#include "kernels/lulesh/lulesh_dist.h"

/* ---- state --------------------------------------------------------------- */

void lulesh_state_free(lulesh_state_t *s) {
  if (!s) return;
  double **f[] = {&s->x, &s->y, &s->z, &s->xd, &s->yd, &s->zd, &s->fx, &s->fy, &s->fz,
                  &s->nodal_mass, &s->e, &s->p, &s->q, &s->ql, &s->qq, &s->v, &s->volo,
                  &s->delv, &s->vdov, &s->arealg, &s->ss, &s->elem_mass, &s->vnew,
                  &s->fs[0], &s->fs[1], &s->fs[2], &s->fh[0], &s->fh[1], &s->fh[2],
                  &s->delx[0], &s->delx[1], &s->delx[2], &s->delvg[0], &s->delvg[1],
                  &s->delvg[2], &s->eos_p, &s->eos_e, &s->eos_q, &s->eos_bvc};
  for (size_t i = 0; i < sizeof f / sizeof *f; i++) free(*f[i]);
  free(s->symm_mask);
  memset(s, 0, sizeof *s);
}

static int state_alloc(lulesh_state_t *s) {
  int64_t nn = s->num_node, ne = s->num_elem;
  double **node[] = {&s->x, &s->y, &s->z, &s->xd, &s->yd, &s->zd, &s->fx, &s->fy, &s->fz,
                     &s->nodal_mass};
  double **elem[] = {&s->e, &s->p, &s->q, &s->ql, &s->qq, &s->v, &s->volo, &s->delv, &s->vdov,
                     &s->arealg, &s->ss, &s->elem_mass, &s->vnew, &s->delx[0], &s->delx[1],
                     &s->delx[2], &s->eos_p, &s->eos_e, &s->eos_q, &s->eos_bvc};
  /* the velocity gradients of ghost elements follow the owned ones */
  int64_t ng = s->mesh->num_ghost;
  double **corner[] = {&s->fs[0], &s->fs[1], &s->fs[2], &s->fh[0], &s->fh[1], &s->fh[2]};
  for (size_t i = 0; i < sizeof node / sizeof *node; i++)
    TSR_CHECK(*node[i] = tsr_calloc((size_t)nn, sizeof(double)), TSR_ERR_ALLOC,
              "lulesh: cannot allocate node fields of %lld nodes", (long long)nn);
  for (size_t i = 0; i < sizeof elem / sizeof *elem; i++)
    TSR_CHECK(*elem[i] = tsr_calloc((size_t)ne, sizeof(double)), TSR_ERR_ALLOC,
              "lulesh: cannot allocate element fields of %lld elements", (long long)ne);
  for (int d = 0; d < 3; d++)
    TSR_CHECK(s->delvg[d] = calloc((size_t)(ne + ng), sizeof(double)), TSR_ERR_ALLOC,
              "lulesh: cannot allocate gradients of %lld elements", (long long)(ne + ng));
  for (size_t i = 0; i < sizeof corner / sizeof *corner; i++)
    TSR_CHECK(*corner[i] = tsr_calloc((size_t)(8 * ne), sizeof(double)), TSR_ERR_ALLOC,
              "lulesh: cannot allocate corner forces of %lld elements", (long long)ne);
  TSR_CHECK(s->symm_mask = tsr_calloc((size_t)nn, 1), TSR_ERR_ALLOC,
            "lulesh: cannot allocate %lld node flags", (long long)nn);
  return 0;
}

static void gather_corners(const lulesh_state_t *s, int32_t e, const double *fx,
                           const double *fy, const double *fz, double x[8], double y[8],
                           double z[8]) {
  const int32_t *c = &s->mesh->nodelist[8 * (int64_t)e];
  for (int i = 0; i < 8; i++) {
    x[i] = fx[c[i]];
    y[i] = fy[c[i]];
    z[i] = fz[c[i]];
  }
}

/* The rank-local part of the initial state. */
static int state_init_local(lulesh_state_t *s, const lulesh_mesh_t *m, int cost) {
  TSR_CALL(lulesh_mesh_check(m, "lulesh mesh"));
  TSR_CHECK(m->origin >= 0 || s->ex, TSR_ERR_FORMAT, "lulesh mesh: no origin element");
  TSR_CHECK(cost >= 0, TSR_ERR_ARG, "lulesh: the cost (-c) must be >= 0, not %d", cost);
  s->mesh = m;
  s->par = lulesh_default_params();
  s->cost = cost;
  s->num_elem = m->num_elem;
  s->num_node = m->num_node;
  TSR_CALL(state_alloc(s));
  memcpy(s->x, m->x, sizeof(double) * (size_t)m->num_node);
  memcpy(s->y, m->y, sizeof(double) * (size_t)m->num_node);
  memcpy(s->z, m->z, sizeof(double) * (size_t)m->num_node);
  for (int32_t i = 0; i < m->num_symm_x; i++) s->symm_mask[m->symm_x[i]] |= 1;
  for (int32_t i = 0; i < m->num_symm_y; i++) s->symm_mask[m->symm_y[i]] |= 2;
  for (int32_t i = 0; i < m->num_symm_z; i++) s->symm_mask[m->symm_z[i]] |= 4;
  for (int32_t e = 0; e < s->num_elem; e++) {
    double x[8], y[8], z[8];
    gather_corners(s, e, s->x, s->y, s->z, x, y, z);
    double vol = lulesh_elem_volume(x, y, z);
    if (!(vol > 0.0))
      return TSR_RAISE(TSR_ERR_FORMAT, "lulesh mesh: element %d has volume %g (inverted or "
                       "degenerate hex; corners in LULESH's order?)", e, vol);
    s->v[e] = 1.0;
    s->volo[e] = vol;
    s->elem_mass[e] = vol;
    const int32_t *c = &m->nodelist[8 * (int64_t)e];
    for (int i = 0; i < 8; i++) s->nodal_mass[c[i]] += vol / 8.0;
  }
  if (m->origin >= 0) s->e[m->origin] = m->einit;
  s->dtfixed = -1.0e-6;
  s->stoptime = 1.0e-2;
  s->deltatimemultlb = 1.1;
  s->deltatimemultub = 1.2;
  s->dtcourant = 1.0e+20;
  s->dthydro = 1.0e+20;
  s->dtmax = 1.0e-2;
  s->time = 0.0;
  s->cycle = 0;
  s->deltatime = m->origin >= 0 ? (0.5 * cbrt(s->volo[m->origin])) / sqrt(2.0 * m->einit)
                                 : 1.0e+20;
  return 0;
}

int lulesh_state_init_ex(lulesh_state_t *s, const lulesh_mesh_t *m, int cost,
                         const lulesh_exchange_t *ex) {
  memset(s, 0, sizeof *s);
  s->ex = ex;
  int rc = state_init_local(s, m, cost);
  if (ex) rc = ex->agree(ex->ctx, rc);
  if (!rc && ex) { /* nodal masses summed over the copies; the first dt from the origin */
    double *mass[1] = {s->nodal_mass};
    rc = ex->node_sum(ex->ctx, NULL, 1, mass);
    if (!rc) rc = ex->min(ex->ctx, 1, &s->deltatime);
    if (!rc && !(s->deltatime < 1.0e+20))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "lulesh mesh: no rank holds the origin element");
  }
  if (rc) {
    lulesh_state_free(s);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return 0;
}

int lulesh_state_init(lulesh_state_t *s, const lulesh_mesh_t *m, int cost) {
  return lulesh_state_init_ex(s, m, cost, NULL);
}

/* ---- time increment ------------------------------------------------------ */

void lulesh_time_increment(lulesh_state_t *s) {
  double targetdt = s->stoptime - s->time;
  if (s->dtfixed <= 0.0 && s->cycle != 0) {
    double olddt = s->deltatime, newdt = 1.0e+20;
    if (s->dtcourant < newdt) newdt = s->dtcourant / 2.0;
    if (s->dthydro < newdt) newdt = s->dthydro * 2.0 / 3.0;
    double ratio = newdt / olddt;
    if (ratio >= 1.0) {
      if (ratio < s->deltatimemultlb) newdt = olddt;
      else if (ratio > s->deltatimemultub) newdt = olddt * s->deltatimemultub;
    }
    if (newdt > s->dtmax) newdt = s->dtmax;
    s->deltatime = newdt;
  }
  /* avoid a tiny last step: split the remainder when it is under 4/3 dt */
  if (targetdt > s->deltatime && targetdt < 4.0 * s->deltatime / 3.0)
    targetdt = 2.0 * s->deltatime / 3.0;
  if (targetdt < s->deltatime) s->deltatime = targetdt;
  s->time += s->deltatime;
  ++s->cycle;
}

/* ---- nodal phase --------------------------------------------------------- */

static int volume_error(const lulesh_state_t *s, int32_t e, const char *what, double val) {
  return TSR_RAISE(LULESH_VOLUME_ERROR, "lulesh: VolumeError at cycle %d: element %d has %s %g",
                   s->cycle, e, what, val);
}

int lulesh_corner_forces(lulesh_state_t *s) {
  for (int32_t e = 0; e < s->num_elem; e++) {
    double x[8], y[8], z[8], b[3][8], f[3][8];
    gather_corners(s, e, s->x, s->y, s->z, x, y, z);
    double detj = lulesh_shape_derivs(x, y, z, b);
    if (detj <= 0.0) return volume_error(s, e, "Jacobian volume", detj);
    lulesh_node_normals(x, y, z, b);
    lulesh_stress_forces(b, -s->p[e] - s->q[e], f);
    int64_t k = 8 * (int64_t)e;
    for (int d = 0; d < 3; d++)
      for (int i = 0; i < 8; i++) s->fs[d][k + i] = f[d][i];
  }
  for (int32_t e = 0; e < s->num_elem; e++)
    if (s->v[e] <= 0.0) return volume_error(s, e, "relative volume", s->v[e]);
  if (!(s->par.hgcoef > 0.0)) return 0;
  for (int32_t e = 0; e < s->num_elem; e++) {
    double x[8], y[8], z[8], xd[8], yd[8], zd[8], f[3][8];
    gather_corners(s, e, s->x, s->y, s->z, x, y, z);
    gather_corners(s, e, s->xd, s->yd, s->zd, xd, yd, zd);
    lulesh_hourglass_forces(x, y, z, xd, yd, zd, s->volo[e] * s->v[e], s->ss[e],
                            s->elem_mass[e], s->par.hgcoef, f);
    int64_t k = 8 * (int64_t)e;
    for (int d = 0; d < 3; d++)
      for (int i = 0; i < 8; i++) s->fh[d][k + i] = f[d][i];
  }
  return 0;
}

void lulesh_gather_forces(lulesh_state_t *s) {
  const int32_t *start = s->mesh->node_elem_start, *corner = s->mesh->node_elem_corner;
  double *out[3] = {s->fx, s->fy, s->fz};
  const int hg = s->par.hgcoef > 0.0;
  for (int32_t n = 0; n < s->num_node; n++)
    for (int d = 0; d < 3; d++) {
      /* the serial reference sums the stress forces over the node's elements
       * in element order, then adds each hourglass force onto that sum */
      double f = 0.0;
      for (int32_t c = start[n]; c < start[n + 1]; c++) f += s->fs[d][corner[c]];
      if (hg)
        for (int32_t c = start[n]; c < start[n + 1]; c++) f += s->fh[d][corner[c]];
      out[d][n] = f;
    }
}

void lulesh_update_nodes(lulesh_state_t *s) {
  const double dt = s->deltatime, u_cut = s->par.u_cut;
  double *pos[3] = {s->x, s->y, s->z}, *vel[3] = {s->xd, s->yd, s->zd};
  const double *frc[3] = {s->fx, s->fy, s->fz};
  for (int32_t n = 0; n < s->num_node; n++)
    for (int d = 0; d < 3; d++) {
      double a = frc[d][n] / s->nodal_mass[n];
      if (s->symm_mask[n] & (1 << d)) a = 0.0;
      double v = vel[d][n] + a * dt;
      if (fabs(v) < u_cut) v = 0.0;
      vel[d][n] = v;
      pos[d][n] += v * dt;
    }
}

int lulesh_lagrange_nodal(lulesh_state_t *s) {
  TSR_CALL(lulesh_corner_forces(s));
  lulesh_gather_forces(s);
  lulesh_update_nodes(s);
  return 0;
}

/* ---- element phase ------------------------------------------------------- */

static void calc_kinematics(lulesh_state_t *s) {
  for (int32_t e = 0; e < s->num_elem; e++) {
    double x[8], y[8], z[8], xd[8], yd[8], zd[8], vnew, arealg, vdov;
    gather_corners(s, e, s->x, s->y, s->z, x, y, z);
    gather_corners(s, e, s->xd, s->yd, s->zd, xd, yd, zd);
    lulesh_kinematics(x, y, z, xd, yd, zd, s->volo[e], s->deltatime, &vnew, &arealg, &vdov);
    s->vnew[e] = vnew;
    s->delv[e] = vnew - s->v[e];
    s->arealg[e] = arealg;
    s->vdov[e] = vdov;
  }
}

static void calc_monoq_gradients(lulesh_state_t *s) {
  for (int32_t e = 0; e < s->num_elem; e++) {
    double x[8], y[8], z[8], xd[8], yd[8], zd[8], dx[3], dv[3];
    gather_corners(s, e, s->x, s->y, s->z, x, y, z);
    gather_corners(s, e, s->xd, s->yd, s->zd, xd, yd, zd);
    lulesh_monoq_gradients(x, y, z, xd, yd, zd, s->volo[e] * s->vnew[e], dx, dv);
    for (int d = 0; d < 3; d++) {
      s->delx[d][e] = dx[d];
      s->delvg[d][e] = dv[d];
    }
  }
}

static void calc_monoq(lulesh_state_t *s) {
  const lulesh_mesh_t *m = s->mesh;
  const int32_t *nbm[3] = {m->lxim, m->letam, m->lzetam}, *nbp[3] = {m->lxip, m->letap, m->lzetap};
  for (int32_t e = 0; e < s->num_elem; e++) {
    int bc = m->elem_bc[e];
    double phi[3], dx[3], dv[3];
    for (int d = 0; d < 3; d++) {
      const double *g = s->delvg[d];
      /* the face's 3 flag bits, shifted down: 1 SYMM, 2 FREE, 4 COMM */
      int bm = (bc >> (6 * d)) & 7, bp = (bc >> (6 * d + 3)) & 7;
      double vm = lulesh_face_value(bm, 1, 2, g[e], g[nbm[d][e]]);
      double vp = lulesh_face_value(bp, 1, 2, g[e], g[nbp[d][e]]);
      phi[d] = lulesh_monoq_phi(g[e], vm, vp, &s->par);
      dx[d] = s->delx[d][e];
      dv[d] = g[e];
    }
    double rho = s->elem_mass[e] / (s->volo[e] * s->vnew[e]);
    lulesh_monoq_terms(phi, dx, dv, s->vdov[e], rho, &s->par, &s->ql[e], &s->qq[e]);
  }
}

static void apply_material(lulesh_state_t *s) {
  const lulesh_mesh_t *m = s->mesh;
  const lulesh_params_t *c = &s->par;
  for (int32_t r = 0; r < m->num_reg; r++) {
    const int32_t *list = &m->reg_elems[m->reg_start[r]];
    int32_t len = m->reg_start[r + 1] - m->reg_start[r];
    int reps = lulesh_region_reps(r, m->num_reg, s->cost);
    /* the repetitions redo the same evaluation (LULESH's load imbalance) */
    for (int rep = 0; rep < reps; rep++)
      for (int32_t i = 0; i < len; i++) {
        int32_t e = list[i];
        double vnewc = s->vnew[e];
        if (c->eosvmin != 0.0 && vnewc < c->eosvmin) vnewc = c->eosvmin;
        if (c->eosvmax != 0.0 && vnewc > c->eosvmax) vnewc = c->eosvmax;
        lulesh_eos(s->e[e], s->p[e], s->q[e], s->ql[e], s->qq[e], s->delv[e], vnewc, c,
                   &s->eos_p[e], &s->eos_e[e], &s->eos_q[e], &s->eos_bvc[e]);
      }
    for (int32_t i = 0; i < len; i++) {
      int32_t e = list[i];
      double vnewc = s->vnew[e];
      if (c->eosvmin != 0.0 && vnewc < c->eosvmin) vnewc = c->eosvmin;
      if (c->eosvmax != 0.0 && vnewc > c->eosvmax) vnewc = c->eosvmax;
      s->p[e] = s->eos_p[e];
      s->e[e] = s->eos_e[e];
      s->q[e] = s->eos_q[e];
      s->ss[e] = lulesh_sound_speed(s->eos_e[e], s->eos_p[e], vnewc, s->eos_bvc[e], c);
    }
  }
}

/* The element phase up to the Q gradients, and from the monotonic Q on
 * (between them, a distributed step fills the ghosts' gradients). */
static int elements_gradients(lulesh_state_t *s) {
  calc_kinematics(s);
  for (int32_t e = 0; e < s->num_elem; e++)
    if (s->vnew[e] <= 0.0) return volume_error(s, e, "new relative volume", s->vnew[e]);
  calc_monoq_gradients(s);
  return 0;
}

static int elements_q_eos(lulesh_state_t *s) {
  const lulesh_params_t *c = &s->par;
  calc_monoq(s);
  for (int32_t e = 0; e < s->num_elem; e++)
    if (s->q[e] > c->qstop)
      return TSR_RAISE(LULESH_QSTOP_ERROR,
                       "lulesh: QStopError at cycle %d: element %d has q = %g above %g",
                       s->cycle, e, s->q[e], c->qstop);
  for (int32_t e = 0; e < s->num_elem; e++) {
    double vc = s->v[e];
    if (c->eosvmin != 0.0 && vc < c->eosvmin) vc = c->eosvmin;
    if (c->eosvmax != 0.0 && vc > c->eosvmax) vc = c->eosvmax;
    if (vc <= 0.0) return volume_error(s, e, "relative volume", vc);
  }
  apply_material(s);
  for (int32_t e = 0; e < s->num_elem; e++) {
    double v = s->vnew[e];
    if (fabs(v - 1.0) < c->v_cut) v = 1.0;
    s->v[e] = v;
  }
  return 0;
}

int lulesh_lagrange_elements(lulesh_state_t *s) {
  TSR_CALL(elements_gradients(s));
  if (s->ex) TSR_CALL(s->ex->elem_ghosts(s->ex->ctx, NULL, 3, s->delvg));
  TSR_CALL(elements_q_eos(s));
  return 0;
}

void lulesh_time_constraints(lulesh_state_t *s) {
  double dtc = 1.0e+20, dth = 1.0e+20;
  for (int32_t e = 0; e < s->num_elem; e++) {
    double vdov = s->vdov[e];
    if (vdov == 0.0) continue;
    double a = lulesh_dt_courant(s->ss[e], vdov, s->arealg[e], &s->par);
    double b = lulesh_dt_hydro(vdov, &s->par);
    if (a < dtc) dtc = a;
    if (b < dth) dth = b;
  }
  s->dtcourant = dtc;
  s->dthydro = dth;
}

/* A step on one rank of a distributed run: the exchanges between the
 * stages. A rank whose stage fails (VolumeError, QStopError) skips the
 * remaining computation but still takes part in every exchange of the
 * step; the dt reduction carries a flag, and on a failure every rank
 * returns the lowest failing rank's error. */
static int step_dist(lulesh_state_t *s) {
  const lulesh_exchange_t *ex = s->ex;
  lulesh_time_increment(s);
  int err = lulesh_corner_forces(s);
  if (!err) lulesh_gather_forces(s);
  double *f[3] = {s->fx, s->fy, s->fz};
  TSR_CALL(ex->node_sum(ex->ctx, NULL, 3, f));
  if (!err) lulesh_update_nodes(s);
  if (!err) err = elements_gradients(s);
  TSR_CALL(ex->elem_ghosts(ex->ctx, NULL, 3, s->delvg));
  if (!err) err = elements_q_eos(s);
  if (!err) lulesh_time_constraints(s);
  double v[3] = {s->dtcourant, s->dthydro, err ? 0.0 : 1.0};
  TSR_CALL(ex->min(ex->ctx, 3, v));
  if (v[2] == 0.0) return ex->agree(ex->ctx, err);
  s->dtcourant = v[0];
  s->dthydro = v[1];
  return 0;
}

int lulesh_step(lulesh_state_t *s) {
  if (s->ex) return step_dist(s);
  lulesh_time_increment(s);
  TSR_CALL(lulesh_lagrange_nodal(s));
  TSR_CALL(lulesh_lagrange_elements(s));
  lulesh_time_constraints(s);
  return 0;
}

int lulesh_run(lulesh_state_t *s, int max_cycles, lulesh_result_t *res) {
  while (s->time < s->stoptime && (max_cycles <= 0 || s->cycle < max_cycles))
    TSR_CALL(lulesh_step(s));
  if (res) TSR_CALL(lulesh_state_result(s, res));
  return 0;
}

int lulesh_state_result(const lulesh_state_t *s, lulesh_result_t *res) {
  res->cycles = s->cycle;
  res->time = s->time;
  double t = 0.0, v[2];
  for (int32_t e = 0; e < s->num_elem; e++) t += s->e[e];
  v[0] = s->mesh->origin >= 0 ? s->e[s->mesh->origin] : 0.0;
  v[1] = t;
  /* one rank holds the origin: its e(0) plus zeros is e(0) exactly */
  if (s->ex) TSR_CALL(s->ex->sum(s->ex->ctx, 2, v));
  res->e_origin = v[0];
  res->e_total = v[1];
  return 0;
}
