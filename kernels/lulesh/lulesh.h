/* kernels/lulesh/lulesh.h: the per-element and per-node arithmetic of the
 * LULESH 2.0 Lagrangian shock-hydrodynamics scheme (Sedov blast on hex
 * meshes), as plain C that the CPU loops and CUDA kernels both call.
 *
 * Bit-for-bit agreement with LULESH's serial code needs its exact order of
 * floating-point operations: every expression below keeps the grouping of
 * the reference scheme (left-to-right sums, the same products), and the
 * code that includes this header must be compiled without contraction to
 * fused multiply-adds (-ffp-contract=off; nvcc: --fmad=false).
 *
 * Conventions: a hex element has 8 corners in LULESH's order (corners 0-3
 * the bottom face counter-clockwise seen from inside, 4-7 the top face
 * above them); local arrays x[8], y[8], z[8] hold the corner coordinates. */
#ifndef TSR_KERNELS_LULESH_H
#define TSR_KERNELS_LULESH_H

#include <math.h>

#include "tessera/common.h"

/* Element face boundary flags (elemBC): three bits per face, at most one set:
 * SYMM = symmetry plane, FREE = free surface, COMM = neighbour on another
 * rank. A face with no flag has a face neighbour in the mesh. */
enum {
  LULESH_XI_M = 0x00007, LULESH_XI_M_SYMM = 0x00001, LULESH_XI_M_FREE = 0x00002,
  LULESH_XI_M_COMM = 0x00004,
  LULESH_XI_P = 0x00038, LULESH_XI_P_SYMM = 0x00008, LULESH_XI_P_FREE = 0x00010,
  LULESH_XI_P_COMM = 0x00020,
  LULESH_ETA_M = 0x001c0, LULESH_ETA_M_SYMM = 0x00040, LULESH_ETA_M_FREE = 0x00080,
  LULESH_ETA_M_COMM = 0x00100,
  LULESH_ETA_P = 0x00e00, LULESH_ETA_P_SYMM = 0x00200, LULESH_ETA_P_FREE = 0x00400,
  LULESH_ETA_P_COMM = 0x00800,
  LULESH_ZETA_M = 0x07000, LULESH_ZETA_M_SYMM = 0x01000, LULESH_ZETA_M_FREE = 0x02000,
  LULESH_ZETA_M_COMM = 0x04000,
  LULESH_ZETA_P = 0x38000, LULESH_ZETA_P_SYMM = 0x08000, LULESH_ZETA_P_FREE = 0x10000,
  LULESH_ZETA_P_COMM = 0x20000
};

/* The scheme's constants (LULESH 2.0 defaults). */
typedef struct {
  double e_cut, p_cut, q_cut, v_cut, u_cut; /* cut-offs to zero (v: to one) */
  double hgcoef;                            /* hourglass coefficient */
  double ss4o3;
  double qstop;                             /* q above this is QStopError */
  double monoq_max_slope, monoq_limiter_mult;
  double qlc_monoq, qqc_monoq;              /* linear, quadratic q coefficients */
  double qqc;                               /* Courant q coefficient */
  double eosvmax, eosvmin;                  /* relative volume bounds of the EOS */
  double pmin, emin;                        /* pressure and energy floors */
  double dvovmax;                           /* largest relative volume change */
  double refdens;                           /* reference density */
} lulesh_params_t;

static inline TSR_HD lulesh_params_t lulesh_default_params(void) {
  lulesh_params_t c;
  c.e_cut = 1.0e-7;
  c.p_cut = 1.0e-7;
  c.q_cut = 1.0e-7;
  c.v_cut = 1.0e-10;
  c.u_cut = 1.0e-7;
  c.hgcoef = 3.0;
  c.ss4o3 = 4.0 / 3.0;
  c.qstop = 1.0e+12;
  c.monoq_max_slope = 1.0;
  c.monoq_limiter_mult = 2.0;
  c.qlc_monoq = 0.5;
  c.qqc_monoq = 2.0 / 3.0;
  c.qqc = 2.0;
  c.eosvmax = 1.0e+9;
  c.eosvmin = 1.0e-9;
  c.pmin = 0.0;
  c.emin = -1.0e+15;
  c.dvovmax = 0.1;
  c.refdens = 1.0;
  return c;
}

/* ---- geometry ---------------------------------------------------------- */

/* a . (b x c) in the grouping of the reference volume formula. */
static inline TSR_HD double lulesh_triple(double ax, double ay, double az, double bx, double by,
                                          double bz, double cx, double cy, double cz) {
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

/* Volume of a trilinear hex (exact for the trilinear map): three triple
 * products of diagonal sums, over 12. */
static inline TSR_HD double lulesh_elem_volume(const double x[8], const double y[8],
                                               const double z[8]) {
  const double twelfth = 1.0 / 12.0;
#define LULESH_D_(a, b) (x[a] - x[b]), (y[a] - y[b]), (z[a] - z[b])
  double d61[3] = {LULESH_D_(6, 1)}, d70[3] = {LULESH_D_(7, 0)}, d63[3] = {LULESH_D_(6, 3)};
  double d20[3] = {LULESH_D_(2, 0)}, d50[3] = {LULESH_D_(5, 0)}, d64[3] = {LULESH_D_(6, 4)};
  double d31[3] = {LULESH_D_(3, 1)}, d72[3] = {LULESH_D_(7, 2)}, d43[3] = {LULESH_D_(4, 3)};
  double d57[3] = {LULESH_D_(5, 7)}, d14[3] = {LULESH_D_(1, 4)}, d25[3] = {LULESH_D_(2, 5)};
#undef LULESH_D_
  double v = lulesh_triple(d31[0] + d72[0], d31[1] + d72[1], d31[2] + d72[2], d63[0], d63[1],
                           d63[2], d20[0], d20[1], d20[2]) +
             lulesh_triple(d43[0] + d57[0], d43[1] + d57[1], d43[2] + d57[2], d64[0], d64[1],
                           d64[2], d70[0], d70[1], d70[2]) +
             lulesh_triple(d14[0] + d25[0], d14[1] + d25[1], d14[2] + d25[2], d61[0], d61[1],
                           d61[2], d50[0], d50[1], d50[2]);
  v *= twelfth;
  return v;
}

/* Shape-function derivatives at the element centre times the volume (one-point
 * quadrature of dN_i/dx over the element): b[0][i], b[1][i], b[2][i] for x, y,
 * z. For a parallelepiped they equal dV/dx_i exactly. Returns the Jacobian
 * volume 8 det(J). */
static inline TSR_HD double lulesh_shape_derivs(const double x[8], const double y[8],
                                                const double z[8], double b[3][8]) {
  const double *c[3] = {x, y, z};
  double fxi[3], fet[3], fze[3]; /* columns of the Jacobian at the centre */
  for (int d = 0; d < 3; d++) {
    const double *p = c[d];
    double a = p[6] - p[0], s = p[5] - p[3], t = p[7] - p[1], u = p[4] - p[2];
    fxi[d] = 0.125 * (a + s - t - u);
    fet[d] = 0.125 * (a - s + t - u);
    fze[d] = 0.125 * (a + s + t + u);
  }
  /* cofactors: cof[d][0..2] = row d of the adjugate, by xi, eta, zeta */
  double cof[3][3];
  cof[0][0] = (fet[1] * fze[2]) - (fet[2] * fze[1]);
  cof[0][1] = -(fxi[1] * fze[2]) + (fxi[2] * fze[1]);
  cof[0][2] = (fxi[1] * fet[2]) - (fxi[2] * fet[1]);
  cof[1][0] = -(fet[0] * fze[2]) + (fet[2] * fze[0]);
  cof[1][1] = (fxi[0] * fze[2]) - (fxi[2] * fze[0]);
  cof[1][2] = -(fxi[0] * fet[2]) + (fxi[2] * fet[0]);
  cof[2][0] = (fet[0] * fze[1]) - (fet[1] * fze[0]);
  cof[2][1] = -(fxi[0] * fze[1]) + (fxi[1] * fze[0]);
  cof[2][2] = (fxi[0] * fet[1]) - (fxi[1] * fet[0]);
  for (int d = 0; d < 3; d++) {
    double cx = cof[d][0], ce = cof[d][1], cz = cof[d][2];
    b[d][0] = -cx - ce - cz;
    b[d][1] = cx - ce - cz;
    b[d][2] = cx + ce - cz;
    b[d][3] = -cx + ce - cz;
    b[d][4] = -b[d][2];
    b[d][5] = -b[d][3];
    b[d][6] = -b[d][0];
    b[d][7] = -b[d][1];
  }
  return 8.0 * (fet[0] * cof[0][1] + fet[1] * cof[1][1] + fet[2] * cof[2][1]);
}

/* Adds a quarter of the area vector of face (a, b, c, d) to its 4 corners. */
static inline TSR_HD void lulesh_face_normal(double pf[3][8], const double x[8],
                                             const double y[8], const double z[8], int a,
                                             int b, int c, int d) {
  double b0x = 0.5 * (x[d] + x[c] - x[b] - x[a]);
  double b0y = 0.5 * (y[d] + y[c] - y[b] - y[a]);
  double b0z = 0.5 * (z[d] + z[c] - z[b] - z[a]);
  double b1x = 0.5 * (x[c] + x[b] - x[d] - x[a]);
  double b1y = 0.5 * (y[c] + y[b] - y[d] - y[a]);
  double b1z = 0.5 * (z[c] + z[b] - z[d] - z[a]);
  double ax = 0.25 * (b0y * b1z - b0z * b1y);
  double ay = 0.25 * (b0z * b1x - b0x * b1z);
  double az = 0.25 * (b0x * b1y - b0y * b1x);
  const int k[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++) {
    pf[0][k[i]] += ax;
    pf[1][k[i]] += ay;
    pf[2][k[i]] += az;
  }
}

/* Area-weighted corner normals of the 6 faces: pf[d][i] approximates dV/dx_i;
 * a uniform stress sigma gives corner force -sigma * pf. */
static inline TSR_HD void lulesh_node_normals(const double x[8], const double y[8],
                                              const double z[8], double pf[3][8]) {
  for (int i = 0; i < 8; i++) pf[0][i] = pf[1][i] = pf[2][i] = 0.0;
  lulesh_face_normal(pf, x, y, z, 0, 1, 2, 3);
  lulesh_face_normal(pf, x, y, z, 0, 4, 5, 1);
  lulesh_face_normal(pf, x, y, z, 1, 5, 6, 2);
  lulesh_face_normal(pf, x, y, z, 2, 6, 7, 3);
  lulesh_face_normal(pf, x, y, z, 3, 7, 4, 0);
  lulesh_face_normal(pf, x, y, z, 4, 7, 6, 5);
}

/* Corner forces of an isotropic stress sig (= -p - q): f[d][i] = -(sig pf). */
static inline TSR_HD void lulesh_stress_forces(const double pf[3][8], double sig,
                                               double f[3][8]) {
  for (int i = 0; i < 8; i++) {
    f[0][i] = -(sig * pf[0][i]);
    f[1][i] = -(sig * pf[1][i]);
    f[2][i] = -(sig * pf[2][i]);
  }
}

/* dV/d(corner 0) of the trilinear volume written on the 6 other corners a..f
 * that it depends on (the caller passes them in a rotated order). */
static inline TSR_HD void lulesh_volu_der(const double *x, const double *y, const double *z,
                                          const int n[6], double *dx, double *dy, double *dz) {
  const double twelfth = 1.0 / 12.0;
  double x0 = x[n[0]], x1 = x[n[1]], x2 = x[n[2]], x3 = x[n[3]], x4 = x[n[4]], x5 = x[n[5]];
  double y0 = y[n[0]], y1 = y[n[1]], y2 = y[n[2]], y3 = y[n[3]], y4 = y[n[4]], y5 = y[n[5]];
  double z0 = z[n[0]], z1 = z[n[1]], z2 = z[n[2]], z3 = z[n[3]], z4 = z[n[4]], z5 = z[n[5]];
  double vx = (y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) + (y0 + y4) * (z3 + z4) -
              (y3 + y4) * (z0 + z4) - (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5);
  double vy = -(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) - (x0 + x4) * (z3 + z4) +
              (x3 + x4) * (z0 + z4) + (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5);
  double vz = -(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) - (y0 + y4) * (x3 + x4) +
              (y3 + y4) * (x0 + x4) + (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5);
  *dx = vx * twelfth;
  *dy = vy * twelfth;
  *dz = vz * twelfth;
}

/* Exact derivatives of lulesh_elem_volume with respect to every corner. */
static inline TSR_HD void lulesh_volume_derivs(const double x[8], const double y[8],
                                               const double z[8], double dv[3][8]) {
  /* for each corner, the 6 corners its derivative depends on */
  const int nb[8][6] = {{1, 2, 3, 4, 5, 7}, {2, 3, 0, 5, 6, 4}, {3, 0, 1, 6, 7, 5},
                        {0, 1, 2, 7, 4, 6}, {7, 6, 5, 0, 3, 1}, {4, 7, 6, 1, 0, 2},
                        {5, 4, 7, 2, 1, 3}, {6, 5, 4, 3, 2, 0}};
  for (int i = 0; i < 8; i++) lulesh_volu_der(x, y, z, nb[i], &dv[0][i], &dv[1][i], &dv[2][i]);
}

/* ---- Flanagan-Belytschko hourglass control ------------------------------- */

/* The hourglass base vectors of one element made orthogonal to its linear
 * field, hg[corner][mode], and the force coefficient: x, y, z corner
 * coordinates, determ = reference volume times relative volume, ss sound
 * speed, mass element mass, hgcoef the coefficient (3). */
static inline TSR_HD void lulesh_hourglass_basis(const double x[8], const double y[8],
                                                 const double z[8], double determ, double ss,
                                                 double mass, double hgcoef, double hg[8][4],
                                                 double *coef) {
  /* the four hourglass base vectors */
  const double g[4][8] = {{1., 1., -1., -1., -1., -1., 1., 1.},
                          {1., -1., -1., 1., -1., 1., 1., -1.},
                          {1., -1., 1., -1., 1., -1., 1., -1.},
                          {-1., 1., -1., 1., 1., -1., 1., -1.}};
  double dv[3][8];
  lulesh_volume_derivs(x, y, z, dv);
  double volinv = 1.0 / determ;
  for (int m = 0; m < 4; m++) {
    double hx = x[0] * g[m][0], hy = y[0] * g[m][0], hz = z[0] * g[m][0];
    for (int i = 1; i < 8; i++) {
      hx = hx + x[i] * g[m][i];
      hy = hy + y[i] * g[m][i];
      hz = hz + z[i] * g[m][i];
    }
    for (int i = 0; i < 8; i++)
      hg[i][m] = g[m][i] - volinv * (dv[0][i] * hx + dv[1][i] * hy + dv[2][i] * hz);
  }
  *coef = -hgcoef * 0.01 * ss * mass / cbrt(determ);
}

/* The hourglass forces along one axis at the 8 corners, from the corner
 * velocities v along it. */
static inline TSR_HD void lulesh_hourglass_axis(const double hg[8][4], double coef,
                                                const double v[8], double f[8]) {
  double h[4];
  for (int m = 0; m < 4; m++) {
    double s = hg[0][m] * v[0];
    for (int i = 1; i < 8; i++) s = s + hg[i][m] * v[i];
    h[m] = s;
  }
  for (int i = 0; i < 8; i++)
    f[i] = coef * (hg[i][0] * h[0] + hg[i][1] * h[1] + hg[i][2] * h[2] + hg[i][3] * h[3]);
}

/* Hourglass corner forces of one element (Flanagan-Belytschko): the basis,
 * then each axis; xd, yd, zd corner velocities, the rest as above. */
static inline TSR_HD void lulesh_hourglass_forces(const double x[8], const double y[8],
                                                  const double z[8], const double xd[8],
                                                  const double yd[8], const double zd[8],
                                                  double determ, double ss, double mass,
                                                  double hgcoef, double hgf[3][8]) {
  double hg[8][4], coef;
  lulesh_hourglass_basis(x, y, z, determ, ss, mass, hgcoef, hg, &coef);
  lulesh_hourglass_axis(hg, coef, xd, hgf[0]);
  lulesh_hourglass_axis(hg, coef, yd, hgf[1]);
  lulesh_hourglass_axis(hg, coef, zd, hgf[2]);
}

/* ---- kinematics ---------------------------------------------------------- */

/* Squared-area measure of a quadrilateral face (|f|^2 |g|^2 - (f.g)^2 of its
 * diagonals' sum and difference). */
static inline TSR_HD double lulesh_area_face(const double x[8], const double y[8],
                                             const double z[8], int a, int b, int c, int d) {
  double fx = (x[c] - x[a]) - (x[d] - x[b]);
  double fy = (y[c] - y[a]) - (y[d] - y[b]);
  double fz = (z[c] - z[a]) - (z[d] - z[b]);
  double gx = (x[c] - x[a]) + (x[d] - x[b]);
  double gy = (y[c] - y[a]) + (y[d] - y[b]);
  double gz = (z[c] - z[a]) + (z[d] - z[b]);
  double fg = fx * gx + fy * gy + fz * gz;
  return (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz) - fg * fg;
}

/* Characteristic length: 4 V / sqrt(largest face measure). */
static inline TSR_HD double lulesh_char_length(const double x[8], const double y[8],
                                               const double z[8], double volume) {
  const int f[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                       {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  double m = 0.0;
  for (int i = 0; i < 6; i++) {
    double a = lulesh_area_face(x, y, z, f[i][0], f[i][1], f[i][2], f[i][3]);
    m = (a < m) ? m : a;
  }
  return 4.0 * volume / sqrt(m);
}

/* Velocity gradient (symmetric part) from the shape derivatives b and
 * Jacobian volume detJ: d[0..2] = dxx, dyy, dzz; d[3] = (dzdy + dydz)/2,
 * d[4] = (dxdz + dzdx)/2, d[5] = (dxdy + dydx)/2. */
static inline TSR_HD double lulesh_grad_(const double p[8], const double v[8], double inv) {
  return inv * (p[0] * (v[0] - v[6]) + p[1] * (v[1] - v[7]) + p[2] * (v[2] - v[4]) +
                p[3] * (v[3] - v[5]));
}
static inline TSR_HD void lulesh_velocity_gradient(const double xd[8], const double yd[8],
                                                   const double zd[8], const double b[3][8],
                                                   double detJ, double d[6]) {
  double inv = 1.0 / detJ;
  d[0] = lulesh_grad_(b[0], xd, inv);
  d[1] = lulesh_grad_(b[1], yd, inv);
  d[2] = lulesh_grad_(b[2], zd, inv);
  double dyddx = lulesh_grad_(b[0], yd, inv), dxddy = lulesh_grad_(b[1], xd, inv);
  double dzddx = lulesh_grad_(b[0], zd, inv), dxddz = lulesh_grad_(b[2], xd, inv);
  double dzddy = lulesh_grad_(b[1], zd, inv), dyddz = lulesh_grad_(b[2], yd, inv);
  d[5] = 0.5 * (dxddy + dyddx);
  d[4] = 0.5 * (dxddz + dzddx);
  d[3] = 0.5 * (dzddy + dyddz);
}

/* Kinematics of one element after the nodal update: new volume, relative
 * volume vnew = V / volo, characteristic length, and the volumetric strain
 * rate vdov = trace of the velocity gradient evaluated at the half step
 * (coordinates moved back by dt/2 along the velocities). x, y, z are
 * modified (moved back). */
static inline TSR_HD void lulesh_kinematics(double x[8], double y[8], double z[8],
                                            const double xd[8], const double yd[8],
                                            const double zd[8], double volo, double dt,
                                            double *vnew, double *arealg, double *vdov) {
  double volume = lulesh_elem_volume(x, y, z);
  *vnew = volume / volo;
  *arealg = lulesh_char_length(x, y, z, volume);
  double dt2 = 0.5 * dt;
  for (int j = 0; j < 8; j++) {
    x[j] -= dt2 * xd[j];
    y[j] -= dt2 * yd[j];
    z[j] -= dt2 * zd[j];
  }
  double b[3][8], d[6];
  double detJ = lulesh_shape_derivs(x, y, z, b);
  lulesh_velocity_gradient(xd, yd, zd, b, detJ, d);
  *vdov = d[0] + d[1] + d[2];
}

/* ---- monotonic artificial viscosity -------------------------------------- */

/* Sum of 4 corners, grouped left to right. */
static inline TSR_HD double lulesh_sum4_(const double *p, int a, int b, int c, int d) {
  return p[a] + p[b] + p[c] + p[d];
}

/* One logical direction of the Q gradients: position gradient length delx and
 * velocity gradient delv along the direction whose cross-section is spanned
 * by (di, dj). */
static inline TSR_HD void lulesh_qgrad_dir_(const double di[3], const double dj[3], double vol,
                                            double norm, const double dv[3], double *delx,
                                            double *delv) {
  const double ptiny = 1.e-36;
  double ax = di[1] * dj[2] - di[2] * dj[1];
  double ay = di[2] * dj[0] - di[0] * dj[2];
  double az = di[0] * dj[1] - di[1] * dj[0];
  *delx = vol / sqrt(ax * ax + ay * ay + az * az + ptiny);
  ax *= norm;
  ay *= norm;
  az *= norm;
  *delv = ax * dv[0] + ay * dv[1] + az * dv[2];
}

/* Position and velocity gradients of one element along xi, eta, zeta for the
 * monotonic Q: x, y, z and xd, yd, zd at the corners, vol = volo * vnew.
 * delx[3], delv[3] by xi, eta, zeta. */
static inline TSR_HD void lulesh_monoq_gradients(const double x[8], const double y[8],
                                                 const double z[8], const double xd[8],
                                                 const double yd[8], const double zd[8],
                                                 double vol, double delx[3], double delv[3]) {
  const double ptiny = 1.e-36;
  double norm = 1.0 / (vol + ptiny);
  const double *c[3] = {x, y, z}, *v[3] = {xd, yd, zd};
  double di[3], dj[3], dk[3], vi[3], vj[3], vk[3];
  for (int d = 0; d < 3; d++) {
    const double *p = c[d], *q = v[d];
    dj[d] = -0.25 * (lulesh_sum4_(p, 0, 1, 5, 4) - lulesh_sum4_(p, 3, 2, 6, 7));
    di[d] = 0.25 * (lulesh_sum4_(p, 1, 2, 6, 5) - lulesh_sum4_(p, 0, 3, 7, 4));
    dk[d] = 0.25 * (lulesh_sum4_(p, 4, 5, 6, 7) - lulesh_sum4_(p, 0, 1, 2, 3));
    vk[d] = 0.25 * (lulesh_sum4_(q, 4, 5, 6, 7) - lulesh_sum4_(q, 0, 1, 2, 3));
    vi[d] = 0.25 * (lulesh_sum4_(q, 1, 2, 6, 5) - lulesh_sum4_(q, 0, 3, 7, 4));
    vj[d] = -0.25 * (lulesh_sum4_(q, 0, 1, 5, 4) - lulesh_sum4_(q, 3, 2, 6, 7));
  }
  lulesh_qgrad_dir_(di, dj, vol, norm, vk, &delx[2], &delv[2]); /* zeta: i x j */
  lulesh_qgrad_dir_(dj, dk, vol, norm, vi, &delx[0], &delv[0]); /* xi: j x k */
  lulesh_qgrad_dir_(dk, di, vol, norm, vj, &delx[1], &delv[1]); /* eta: k x i */
}

/* The limiter phi of one direction from the element's own velocity gradient
 * delv and its neighbours' (already chosen by the face flags). */
static inline TSR_HD double lulesh_monoq_phi(double delv, double delvm, double delvp,
                                             const lulesh_params_t *c) {
  const double ptiny = 1.e-36;
  double norm = 1.0 / (delv + ptiny);
  delvm = delvm * norm;
  delvp = delvp * norm;
  double phi = 0.5 * (delvm + delvp);
  delvm *= c->monoq_limiter_mult;
  delvp *= c->monoq_limiter_mult;
  if (delvm < phi) phi = delvm;
  if (delvp < phi) phi = delvp;
  if (phi < 0.0) phi = 0.0;
  if (phi > c->monoq_max_slope) phi = c->monoq_max_slope;
  return phi;
}

/* Neighbour value across a face by its 3 flag bits: a face neighbour (no
 * flag, or COMM: the ghost's value), the element itself (SYMM), 0 (FREE). */
static inline TSR_HD double lulesh_face_value(int bits, int symm, int freeb, double self,
                                              double nb) {
  return (bits & symm) ? self : (bits & freeb) ? 0.0 : nb;
}

/* Linear and quadratic Q terms of one element: phi[3] limiters, delx[3],
 * delv[3] its gradients, vdov, rho = mass / (volo vnew). */
static inline TSR_HD void lulesh_monoq_terms(const double phi[3], const double delx[3],
                                             const double delv[3], double vdov, double rho,
                                             const lulesh_params_t *c, double *ql,
                                             double *qq) {
  if (vdov > 0.0) {
    *ql = 0.0;
    *qq = 0.0;
    return;
  }
  double dx[3];
  for (int d = 0; d < 3; d++) {
    dx[d] = delv[d] * delx[d];
    if (dx[d] > 0.0) dx[d] = 0.0;
  }
  *ql = -c->qlc_monoq * rho *
        (dx[0] * (1.0 - phi[0]) + dx[1] * (1.0 - phi[1]) + dx[2] * (1.0 - phi[2]));
  *qq = c->qqc_monoq * rho *
        (dx[0] * dx[0] * (1.0 - phi[0] * phi[0]) + dx[1] * dx[1] * (1.0 - phi[1] * phi[1]) +
         dx[2] * dx[2] * (1.0 - phi[2] * phi[2]));
}

/* ---- equation of state (ideal gas, gamma 5/3) ---------------------------- */

/* Pressure from energy: bvc = 2/3 (compression + 1), pbvc = 2/3, then the
 * cut-off, the eosvmax rule and the floor. */
static inline TSR_HD double lulesh_pressure(double e, double compression, double vnewc,
                                            const lulesh_params_t *c, double *bvc,
                                            double *pbvc) {
  const double c1s = 2.0 / 3.0;
  *bvc = c1s * (compression + 1.0);
  *pbvc = c1s;
  double p = *bvc * e;
  if (fabs(p) < c->p_cut) p = 0.0;
  if (vnewc >= c->eosvmax) p = 0.0;
  if (p < c->pmin) p = c->pmin;
  return p;
}

/* The sound-speed-like term sqrt((pbvc e + v^2 bvc p) / rho0) with its floor. */
static inline TSR_HD double lulesh_ssc(double pbvc, double e, double v2bvc_p, double rho0) {
  double ssc = (pbvc * e + v2bvc_p) / rho0;
  return (ssc <= .1111111e-36) ? .3333333e-18 : sqrt(ssc);
}

/* The EOS update of one element: the energy integrated over the step with a
 * half-step pressure predictor and q correction (the reference scheme's
 * CalcEnergy), then the pressure, q and energy at the new volume.
 * In: e_old, p_old, q_old, ql, qq, delvc (volume change), vnewc (bounded
 * new relative volume). Out: *p_new, *e_new, *q_new and *bvc (for the sound
 * speed; pbvc is always 2/3). */
static inline TSR_HD void lulesh_eos(double e_old, double p_old, double q_old, double ql_old,
                                     double qq_old, double delvc, double vnewc,
                                     const lulesh_params_t *c, double *p_out, double *e_out,
                                     double *q_out, double *bvc_out) {
  const double rho0 = c->refdens;
  double compression = 1.0 / vnewc - 1.0;
  double vchalf = vnewc - delvc * .5;
  double comp_half = 1.0 / vchalf - 1.0;
  if (c->eosvmin != 0.0 && vnewc <= c->eosvmin) comp_half = compression;
  if (c->eosvmax != 0.0 && vnewc >= c->eosvmax) {
    p_old = 0.0;
    compression = 0.0;
    comp_half = 0.0;
  }
  const double work = 0.0;
  double bvc, pbvc;

  double e_new = e_old - 0.5 * delvc * (p_old + q_old) + 0.5 * work;
  if (e_new < c->emin) e_new = c->emin;

  double p_half = lulesh_pressure(e_new, comp_half, vnewc, c, &bvc, &pbvc);
  double q_new;
  if (delvc > 0.0) {
    q_new = 0.0;
  } else {
    double vhalf = 1.0 / (1.0 + comp_half);
    double ssc = lulesh_ssc(pbvc, e_new, vhalf * vhalf * bvc * p_half, rho0);
    q_new = (ssc * ql_old + qq_old);
  }
  e_new = e_new + 0.5 * delvc * (3.0 * (p_old + q_old) - 4.0 * (p_half + q_new));

  e_new += 0.5 * work;
  if (fabs(e_new) < c->e_cut) e_new = 0.0;
  if (e_new < c->emin) e_new = c->emin;

  double p_new = lulesh_pressure(e_new, compression, vnewc, c, &bvc, &pbvc);
  double q_tilde;
  if (delvc > 0.0) {
    q_tilde = 0.0;
  } else {
    double ssc = lulesh_ssc(pbvc, e_new, vnewc * vnewc * bvc * p_new, rho0);
    q_tilde = (ssc * ql_old + qq_old);
  }
  const double sixth = 1.0 / 6.0;
  e_new = e_new - (7.0 * (p_old + q_old) - 8.0 * (p_half + q_new) + (p_new + q_tilde)) * delvc *
                      sixth;
  if (fabs(e_new) < c->e_cut) e_new = 0.0;
  if (e_new < c->emin) e_new = c->emin;

  p_new = lulesh_pressure(e_new, compression, vnewc, c, &bvc, &pbvc);
  if (delvc <= 0.0) {
    double ssc = lulesh_ssc(pbvc, e_new, vnewc * vnewc * bvc * p_new, rho0);
    q_new = (ssc * ql_old + qq_old);
    if (fabs(q_new) < c->q_cut) q_new = 0.0;
  }
  *p_out = p_new;
  *e_out = e_new;
  *q_out = q_new;
  *bvc_out = bvc;
}

/* Sound speed at the new state (pbvc = 2/3 as the EOS gives it). */
static inline TSR_HD double lulesh_sound_speed(double e, double p, double vnewc, double bvc,
                                               const lulesh_params_t *c) {
  const double pbvc = 2.0 / 3.0;
  double s = (pbvc * e + vnewc * vnewc * bvc * p) / c->refdens;
  return (s <= .1111111e-36) ? .3333333e-18 : sqrt(s);
}

/* ---- time-step constraints ---------------------------------------------- */

/* Courant constraint of one element (only meaningful where vdov != 0). */
static inline TSR_HD double lulesh_dt_courant(double ss, double vdov, double arealg,
                                              const lulesh_params_t *c) {
  double qqc2 = 64.0 * c->qqc * c->qqc;
  double dtf = ss * ss;
  if (vdov < 0.0) dtf = dtf + qqc2 * arealg * arealg * vdov * vdov;
  dtf = sqrt(dtf);
  return arealg / dtf;
}

/* Hydro (volume change) constraint of one element (where vdov != 0). */
static inline TSR_HD double lulesh_dt_hydro(double vdov, const lulesh_params_t *c) {
  return c->dvovmax / (fabs(vdov) + 1.e-20);
}

#endif /* TSR_KERNELS_LULESH_H */
