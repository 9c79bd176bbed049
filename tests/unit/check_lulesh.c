/* check_lulesh: the LULESH physics library: element geometry (unit cube,
 * shape-function and volume derivatives against finite differences, no
 * hourglass force under affine motion), LULESH's region sets, VolumeError
 * and QStopError, and the serial reference values of LULESH 2.0 (exact),
 * also after random, GPS and METIS renumberings of elements and nodes. */
#include "config.h"

#include <math.h>
#include <unistd.h> /* tsr_check.h uses getpid() */

#include "tsr_check.h"
#include "kernels/lulesh/lulesh.h"
#include "kernels/lulesh/lulesh_mesh.h"
#include "kernels/lulesh/lulesh_io.h"

/* Corner i of the reference cube [0,1]^3 in LULESH's order. */
static const double CUBE[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                  {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

/* An affine image A c + t of the unit cube, A near the identity. */
static void affine_hex(unsigned long long *seed, double A[3][3], double t[3], double x[8],
                       double y[8], double z[8]) {
  for (int r = 0; r < 3; r++) {
    t[r] = tsr_test_rand(seed, -2.0, 2.0);
    for (int c = 0; c < 3; c++) A[r][c] = (r == c ? 1.0 : 0.0) + tsr_test_rand(seed, -0.3, 0.3);
  }
  double *p[3] = {x, y, z};
  for (int i = 0; i < 8; i++)
    for (int r = 0; r < 3; r++)
      p[r][i] = A[r][0] * CUBE[i][0] + A[r][1] * CUBE[i][1] + A[r][2] * CUBE[i][2] + t[r];
}

static double det3(double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
         A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}

/* dV/d(coordinate d of corner i) by central differences. */
static double fd_volume(double x[8], double y[8], double z[8], int d, int i) {
  double *p[3] = {x, y, z}, h = 1e-5, save = p[d][i];
  p[d][i] = save + h;
  double vp = lulesh_elem_volume(x, y, z);
  p[d][i] = save - h;
  double vm = lulesh_elem_volume(x, y, z);
  p[d][i] = save;
  return (vp - vm) / (2 * h);
}

START_TEST(test_unit_cube) {
  double x[8], y[8], z[8], b[3][8], pf[3][8];
  for (int i = 0; i < 8; i++) x[i] = CUBE[i][0], y[i] = CUBE[i][1], z[i] = CUBE[i][2];
  REQ_DEQ(lulesh_elem_volume(x, y, z), 1.0);
  REQ_DEQ(lulesh_shape_derivs(x, y, z, b), 1.0);
  lulesh_node_normals(x, y, z, pf);
  /* each corner's normal is a quarter of 3 unit faces pointing out */
  for (int i = 0; i < 8; i++) {
    REQ_DEQ(pf[0][i], CUBE[i][0] ? 0.25 : -0.25);
    REQ_DEQ(pf[0][i], b[0][i]);
    REQ_DEQ(pf[1][i], b[1][i]);
    REQ_DEQ(pf[2][i], b[2][i]);
  }
  /* a box a x b x c anywhere: volume abc; characteristic length = its
   * smallest edge (4 V / sqrt of the largest face measure 4 (ab)^2) */
  for (int i = 0; i < 8; i++)
    x[i] = 3.0 + 0.5 * CUBE[i][0], y[i] = -1.0 + 2.0 * CUBE[i][1], z[i] = 0.25 * CUBE[i][2];
  ck_assert_double_eq_tol(lulesh_elem_volume(x, y, z), 0.25, 1e-15);
  ck_assert_double_eq_tol(lulesh_char_length(x, y, z, 0.25), 0.25, 1e-15);
}
END_TEST

START_TEST(test_derivatives_fd) {
  unsigned long long seed = 17;
  for (int trial = 0; trial < 20; trial++) {
    double A[3][3], t[3], x[8], y[8], z[8], b[3][8], pf[3][8], dv[3][8];
    affine_hex(&seed, A, t, x, y, z);
    double vol = lulesh_elem_volume(x, y, z);
    ck_assert_double_eq_tol(vol, det3(A), 1e-13);
    ck_assert_double_eq_tol(lulesh_shape_derivs(x, y, z, b), det3(A), 1e-13);
    lulesh_node_normals(x, y, z, pf);
    /* affine: shape derivatives x volume, the face normals and the exact
     * volume derivatives all equal dV/dx_i */
    for (int d = 0; d < 3; d++)
      for (int i = 0; i < 8; i++) {
        double fd = fd_volume(x, y, z, d, i);
        REQUIRE(fabs(b[d][i] - fd) < 1e-9, "affine trial %d: b[%d][%d] = %.17g, fd %.17g",
                trial, d, i, b[d][i], fd);
        REQUIRE(fabs(pf[d][i] - fd) < 1e-9, "affine trial %d: normal[%d][%d] = %.17g, fd %.17g",
                trial, d, i, pf[d][i], fd);
      }
    /* a general hex (corners moved independently): the volume derivatives
     * stay exact */
    for (int i = 0; i < 8; i++) {
      x[i] += tsr_test_rand(&seed, -0.15, 0.15);
      y[i] += tsr_test_rand(&seed, -0.15, 0.15);
      z[i] += tsr_test_rand(&seed, -0.15, 0.15);
    }
    lulesh_volume_derivs(x, y, z, dv);
    for (int d = 0; d < 3; d++)
      for (int i = 0; i < 8; i++) {
        double fd = fd_volume(x, y, z, d, i);
        REQUIRE(fabs(dv[d][i] - fd) < 1e-9, "trial %d: dV[%d][%d] = %.17g, fd %.17g", trial, d,
                i, dv[d][i], fd);
      }
  }
}
END_TEST

/* A hex with every corner of the unit cube moved independently (not a
 * parallelepiped: the trilinear map is not affine). */
static void general_hex(unsigned long long *seed, double x[8], double y[8], double z[8]) {
  for (int i = 0; i < 8; i++) {
    x[i] = CUBE[i][0] + tsr_test_rand(seed, -0.2, 0.2);
    y[i] = CUBE[i][1] + tsr_test_rand(seed, -0.2, 0.2);
    z[i] = CUBE[i][2] + tsr_test_rand(seed, -0.2, 0.2);
  }
}

/* The trilinear map X(xi) of corners c[3][8] at xi in [-1,1]^3, its
 * Jacobian J[r][a] = dX_r/dxi_a, and the shape functions N[8]. */
static void trilinear(const double *c[3], const double xi[3], double X[3], double J[3][3],
                      double N[8]) {
  for (int r = 0; r < 3; r++) {
    X[r] = 0;
    for (int a = 0; a < 3; a++) J[r][a] = 0;
  }
  for (int i = 0; i < 8; i++) {
    double s[3] = {2 * CUBE[i][0] - 1, 2 * CUBE[i][1] - 1, 2 * CUBE[i][2] - 1};
    double f[3] = {1 + s[0] * xi[0], 1 + s[1] * xi[1], 1 + s[2] * xi[2]};
    N[i] = f[0] * f[1] * f[2] / 8;
    double dN[3] = {s[0] * f[1] * f[2] / 8, f[0] * s[1] * f[2] / 8, f[0] * f[1] * s[2] / 8};
    for (int r = 0; r < 3; r++) {
      X[r] += c[r][i] * N[i];
      for (int a = 0; a < 3; a++) J[r][a] += c[r][i] * dN[a];
    }
  }
}

/* The interpolant sum u_i N_i at the physical point P: xi by Newton. */
static double interp_at(const double *c[3], const double u[8], const double P[3]) {
  double xi[3] = {0, 0, 0}, X[3], J[3][3], N[8];
  for (int it = 0; it < 50; it++) {
    trilinear(c, xi, X, J, N);
    double r[3] = {P[0] - X[0], P[1] - X[1], P[2] - X[2]}, d = det3(J), dx[3];
    for (int a = 0; a < 3; a++) { /* Cramer: J dx = r */
      double M[3][3];
      memcpy(M, J, sizeof M);
      for (int q = 0; q < 3; q++) M[q][a] = r[q];
      dx[a] = det3(M) / d;
    }
    for (int a = 0; a < 3; a++) xi[a] += dx[a];
  }
  trilinear(c, xi, X, J, N);
  double v = 0;
  for (int i = 0; i < 8; i++) v += u[i] * N[i];
  return v;
}

/* Shape-function derivatives of a general (non-affine) hex against finite
 * differences of the interpolated field in physical space: at the element
 * centre, du/dx_d = sum_i u_i b[d][i] / (8 det J), where b and 8 det J are
 * lulesh_shape_derivs' results. */
START_TEST(test_shape_fd_general) {
  unsigned long long seed = 91;
  for (int trial = 0; trial < 20; trial++) {
    double x[8], y[8], z[8], b[3][8], u[8];
    general_hex(&seed, x, y, z);
    for (int i = 0; i < 8; i++) u[i] = tsr_test_rand(&seed, -1.0, 1.0);
    double vol8 = lulesh_shape_derivs(x, y, z, b);
    const double *c[3] = {x, y, z};
    double xi0[3] = {0, 0, 0}, X0[3], J[3][3], N[8];
    trilinear(c, xi0, X0, J, N);
    ck_assert_double_eq_tol(vol8, 8 * det3(J), 1e-13);
    for (int d = 0; d < 3; d++) {
      double h = 1e-5, P[3];
      memcpy(P, X0, sizeof P);
      P[d] = X0[d] + h;
      double up = interp_at(c, u, P);
      P[d] = X0[d] - h;
      double um = interp_at(c, u, P);
      double fd = (up - um) / (2 * h), g = 0;
      for (int i = 0; i < 8; i++) g += u[i] * b[d][i];
      g /= vol8;
      REQUIRE(fabs(g - fd) < 1e-8, "trial %d: du/dx_%d = %.17g, finite differences %.17g",
              trial, d, g, fd);
    }
  }
}
END_TEST

/* A linear velocity field v = L x + c on a general hex: the velocity
 * gradient of the kinematics is the symmetric part of L to rounding (the
 * one-point gradient is exact for linear fields on any hex). */
START_TEST(test_linear_gradient) {
  unsigned long long seed = 12;
  for (int trial = 0; trial < 20; trial++) {
    double x[8], y[8], z[8], b[3][8], v[3][8], L[3][3], d[6];
    general_hex(&seed, x, y, z);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) L[r][c] = tsr_test_rand(&seed, -1.0, 1.0);
    for (int i = 0; i < 8; i++)
      for (int r = 0; r < 3; r++) v[r][i] = L[r][0] * x[i] + L[r][1] * y[i] + L[r][2] * z[i] + r;
    double detJ = lulesh_shape_derivs(x, y, z, b);
    lulesh_velocity_gradient(v[0], v[1], v[2], b, detJ, d);
    const double want[6] = {L[0][0], L[1][1], L[2][2], 0.5 * (L[2][1] + L[1][2]),
                            0.5 * (L[0][2] + L[2][0]), 0.5 * (L[0][1] + L[1][0])};
    for (int k = 0; k < 6; k++)
      REQUIRE(fabs(d[k] - want[k]) < 1e-13, "trial %d: gradient[%d] = %.17g, expected %.17g",
              trial, k, d[k], want[k]);
  }
}
END_TEST

/* lib's hex volume (the hex-mesh reader's inversion check) agrees with the
 * physics' on general hexes, and changes sign when the element is turned
 * inside out (bottom and top faces swapped). */
START_TEST(test_lib_volume) {
  unsigned long long seed = 33;
  for (int trial = 0; trial < 20; trial++) {
    double x[8], y[8], z[8], c[8][3];
    general_hex(&seed, x, y, z);
    for (int i = 0; i < 8; i++) c[i][0] = x[i], c[i][1] = y[i], c[i][2] = z[i];
    double v = lulesh_elem_volume(x, y, z), w = tsr_hex_volume((const double(*)[3])c);
    REQUIRE(v > 0 && fabs(v - w) <= 1e-14 * v, "trial %d: volumes %.17g and %.17g", trial, v, w);
    for (int i = 0; i < 4; i++)
      for (int r = 0; r < 3; r++) {
        double t = c[i][r];
        c[i][r] = c[i + 4][r], c[i + 4][r] = t;
      }
    w = tsr_hex_volume((const double(*)[3])c);
    REQUIRE(fabs(w + v) <= 1e-14 * v, "trial %d: inverted volume %.17g, expected %.17g", trial,
            w, -v);
  }
}
END_TEST

START_TEST(test_hourglass_affine) {
  unsigned long long seed = 5;
  for (int trial = 0; trial < 20; trial++) {
    double A[3][3], t[3], L[3][3], x[8], y[8], z[8], v[3][8], f[3][8];
    affine_hex(&seed, A, t, x, y, z);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) L[r][c] = tsr_test_rand(&seed, -1.0, 1.0);
    for (int i = 0; i < 8; i++)
      for (int r = 0; r < 3; r++)
        v[r][i] = L[r][0] * x[i] + L[r][1] * y[i] + L[r][2] * z[i] + 0.3 * (r + 1);
    double vol = lulesh_elem_volume(x, y, z), ss = 2.0, mass = 1.5;
    lulesh_hourglass_forces(x, y, z, v[0], v[1], v[2], vol, ss, mass, 3.0, f);
    /* force scale of a unit hourglass velocity: 0.03 ss mass / V^(1/3) */
    double scale = 0.03 * ss * mass / cbrt(vol);
    for (int d = 0; d < 3; d++)
      for (int i = 0; i < 8; i++)
        REQUIRE(fabs(f[d][i]) < 1e-13 * scale, "affine trial %d: hourglass f[%d][%d] = %g",
                trial, d, i, f[d][i]);
    /* an hourglass mode is resisted: force opposes the velocity */
    const double g[8] = {1, -1, 1, -1, 1, -1, 1, -1};
    lulesh_hourglass_forces(x, y, z, g, v[1], v[2], vol, ss, mass, 3.0, f);
    double power = 0.0;
    for (int i = 0; i < 8; i++) power += f[0][i] * g[i];
    REQUIRE(power < -1e-3 * scale, "trial %d: hourglass mode power %g not negative", trial, power);
  }
}
END_TEST

/* Region sets of LULESH's -r/-b rule for a 1000-element mesh, as LULESH 2.0
 * builds them (region sizes of its serial run of -s 10). */
START_TEST(test_regions) {
  static const int r11[11] = {0, 14, 14, 78, 389, 55, 73, 44, 148, 85, 100};
  static const int r4b3[4] = {0, 62, 326, 612};
  int32_t reg[1000];
  int count[11];
  ck_tsr(lulesh_regions_assign(1000, 11, 1, reg));
  memset(count, 0, sizeof count);
  for (int i = 0; i < 1000; i++) count[reg[i]]++;
  for (int r = 0; r < 11; r++) REQ_EQ(count[r], r11[r]);
  REQ_EQ(reg[0], 10);
  ck_tsr(lulesh_regions_assign(1000, 4, 3, reg));
  memset(count, 0, sizeof count);
  for (int i = 0; i < 1000; i++) count[reg[i]]++;
  for (int r = 0; r < 4; r++) REQ_EQ(count[r], r4b3[r]);
  REQ_EQ(lulesh_region_reps(0, 11, 1), 1);
  REQ_EQ(lulesh_region_reps(5, 11, 1), 2);
  REQ_EQ(lulesh_region_reps(10, 11, 1), 20);
  REQ_EQ(lulesh_region_reps(9, 11, 1), 2);
}
END_TEST

static void run_sedov(int nx, int its, int nr, int balance, int cost, lulesh_result_t *res) {
  lulesh_mesh_t m;
  lulesh_state_t s;
  ck_tsr(lulesh_mesh_sedov(&m, nx, nr, balance));
  ck_tsr(lulesh_state_init(&s, &m, cost));
  ck_tsr(lulesh_run(&s, its, res));
  lulesh_state_free(&s);
  lulesh_mesh_free(&m);
}

/* Reference values printed by LULESH 2.0's serial build (USE_MPI=0, no
 * OpenMP; g++ -O3 on x86-64) with e(0) and the sum of e in element order at
 * 17 digits: -s, -i (0: to completion), -r, -b, -c, cycles, e(0), sum e.
 * The regions only change the cost, never the result: -r 1 gives -r 11's. */
static const struct {
  int nx, its, nr, b, c, cycles;
  double e0, etot;
} REF[] = {
    {5, 0, 11, 1, 1, 72, 7.85366510214584468e+03, 2.90383634164630748e+04},
    {5, 0, 1, 1, 1, 72, 7.85366510214584468e+03, 2.90383634164630748e+04},
    {5, 20, 11, 1, 1, 20, 2.02794711316166176e+04, 2.96971799174211992e+04},
    {6, 0, 3, 2, 2, 102, 1.04541759859089834e+04, 5.09415622872700842e+04},
    {10, 0, 11, 1, 1, 231, 2.7205311684703469e+04, 2.4174621052262728e+05},
    {15, 0, 11, 1, 1, 400, 5.70289379332839599e+04, 8.15375615189622971e+05},
    {20, 100, 11, 1, 1, 100, 3.9190279432401841e+05, 1.88671553514233301e+06},
};

START_TEST(test_reference) {
  lulesh_result_t r;
  run_sedov(REF[_i].nx, REF[_i].its, REF[_i].nr, REF[_i].b, REF[_i].c, &r);
  REQUIRE(r.cycles == REF[_i].cycles, "-s %d: %d cycles, LULESH %d", REF[_i].nx, r.cycles,
          REF[_i].cycles);
  if (REF[_i].its == 0) REQ_DEQ(r.time, 1.0e-2);
  REQUIRE(r.e_origin == REF[_i].e0 && r.e_total == REF[_i].etot,
          "-s %d -i %d -r %d -b %d -c %d: e(0) %.17g (LULESH %.17g), sum %.17g (LULESH %.17g)",
          REF[_i].nx, REF[_i].its, REF[_i].nr, REF[_i].b, REF[_i].c, r.e_origin, REF[_i].e0,
          r.e_total, REF[_i].etot);
}
END_TEST

START_TEST(test_reference_s10_i10) {
  static const double dt[3] = {6.04222231003001547e-05, 7.25066677203601776e-05,
                               2.48525205960514583e-05};
  lulesh_mesh_t m;
  lulesh_state_t s;
  ck_tsr(lulesh_mesh_sedov(&m, 10, 11, 1));
  ck_tsr(lulesh_state_init(&s, &m, 1));
  for (int c = 0; c < 10; c++) {
    ck_tsr(lulesh_step(&s));
    if (c < 3) REQ_DEQ(s.deltatime, dt[c]);
  }
  REQ_DEQ(s.e[0], 2.59676419555243687e+05);
  lulesh_state_free(&s);
  lulesh_mesh_free(&m);
}
END_TEST


/* Fisher-Yates permutation of 0..n-1. */
static int32_t *random_perm(int32_t n, unsigned long long *seed) {
  int32_t *p = malloc((size_t)n * sizeof *p);
  for (int32_t i = 0; i < n; i++) p[i] = i;
  for (int32_t i = n - 1; i > 0; i--) {
    int32_t j = (int32_t)tsr_test_rand(seed, 0.0, (double)(i + 1));
    int32_t t = p[i];
    p[i] = p[j], p[j] = t;
  }
  return p;
}

/* Renumbered elements and nodes (each element keeps its corner order): the
 * nodal masses and each node's force sums add the same terms in another
 * order, and so does the sum of e, so agreement is to rounding: relative
 * 1e-13 stated, about 1e-15 measured to completion (printed). Cases: -s 5
 * three times (REF[0]), -s 10 once (REF[4]). */
START_TEST(test_renumbered) {
  const double tol = 1e-13;
  const int ref = _i < 3 ? 0 : 4, nx = REF[ref].nx;
  lulesh_mesh_t m, pm;
  lulesh_state_t s, s0;
  lulesh_result_t r;
  unsigned long long seed = 2024 + (unsigned long long)_i;
  ck_tsr(lulesh_mesh_sedov(&m, nx, 11, 1));
  int32_t *ep = random_perm(m.num_elem, &seed), *np = random_perm(m.num_node, &seed);
  ck_tsr(lulesh_mesh_permute(&m, ep, np, &pm));
  ck_tsr(lulesh_mesh_check(&pm, "renumbered"));
  REQ_EQ(pm.origin, ep[0]);
  ck_tsr(lulesh_state_init(&s, &pm, 1));
  ck_tsr(lulesh_run(&s, 0, &r));
  REQ_EQ(r.cycles, REF[ref].cycles);
  double d0 = fabs(r.e_origin / REF[ref].e0 - 1.0), dt = fabs(r.e_total / REF[ref].etot - 1.0);
  /* every element's energy against its original element's */
  ck_tsr(lulesh_state_init(&s0, &m, 1));
  ck_tsr(lulesh_run(&s0, 0, NULL));
  double de = 0.0;
  for (int32_t e = 0; e < m.num_elem; e++) de = fmax(de, fabs(s.e[ep[e]] - s0.e[e]));
  de /= s0.e[0];
  printf("# renumbered -s %d (perm %d): relative differences e(origin) %.2g, sum e %.2g, "
         "max element %.2g\n", nx, _i, d0, dt, de);
  REQUIRE(d0 <= tol && dt <= tol && de <= tol,
          "renumbered -s %d: e(origin) %.17g (rel %.3g), sum %.17g (rel %.3g), element max %.3g",
          nx, r.e_origin, d0, r.e_total, dt, de);
  lulesh_state_free(&s0);
  lulesh_state_free(&s);
  lulesh_mesh_free(&pm);
  lulesh_mesh_free(&m);
  free(ep);
  free(np);
}
END_TEST

/* GPS and METIS renumberings from lib (lulesh_mesh_renumber): same energies
 * as LULESH's to the tolerance of test_renumbered (1e-13 relative; the
 * measured differences are printed). Cases: -s 5 and -s 10, GPS, METIS. */
START_TEST(test_renumbered_lib) {
  const double tol = 1e-13;
  const int ref = _i < 2 ? 0 : 4, nx = REF[ref].nx;
  const lulesh_order_t how = _i % 2 ? LULESH_ORDER_METIS : LULESH_ORDER_GPS;
  lulesh_mesh_t m, pm;
  lulesh_state_t s;
  lulesh_result_t r;
  ck_tsr(lulesh_mesh_sedov(&m, nx, 11, 1));
  ck_tsr(lulesh_mesh_renumber(&m, how, 0, &pm));
  ck_tsr(lulesh_mesh_check(&pm, "renumbered"));
  int moved = 0;
  for (int32_t e = 0; e < m.num_elem && !moved; e++)
    moved = memcmp(&m.nodelist[8 * e], &pm.nodelist[8 * e], 8 * sizeof(int32_t)) != 0;
  REQUIRE(moved, "-s %d: the renumbering changed nothing", nx);
  ck_tsr(lulesh_state_init(&s, &pm, 1));
  ck_tsr(lulesh_run(&s, 0, &r));
  REQ_EQ(r.cycles, REF[ref].cycles);
  double d0 = fabs(r.e_origin / REF[ref].e0 - 1.0), dt = fabs(r.e_total / REF[ref].etot - 1.0);
  printf("# %s -s %d: origin element %d, relative differences e(origin) %.2g, sum e %.2g\n",
         _i % 2 ? "METIS" : "GPS", nx, pm.origin, d0, dt);
  REQUIRE(d0 <= tol && dt <= tol, "%s -s %d: e(origin) %.17g (rel %.3g), sum %.17g (rel %.3g)",
          _i % 2 ? "METIS" : "GPS", nx, r.e_origin, d0, r.e_total, dt);
  lulesh_state_free(&s);
  lulesh_mesh_free(&pm);
  lulesh_mesh_free(&m);
}
END_TEST

START_TEST(test_errors) {
  lulesh_mesh_t m;
  lulesh_state_t s;
  ck_tsr(lulesh_mesh_sedov(&m, 3, 11, 1));
  /* QStopError: any compression q above a tiny qstop */
  ck_tsr(lulesh_state_init(&s, &m, 1));
  s.par.qstop = 1e-30;
  ck_tsr_fails(lulesh_run(&s, 20, NULL), LULESH_QSTOP_ERROR);
  lulesh_state_free(&s);
  /* VolumeError: a fixed time step far too long folds the origin element */
  ck_tsr(lulesh_state_init(&s, &m, 1));
  s.dtfixed = 1.0;
  s.stoptime = 1.0;
  s.deltatime = 0.05;
  ck_tsr_fails(lulesh_run(&s, 20, NULL), LULESH_VOLUME_ERROR);
  lulesh_state_free(&s);
  /* bad meshes: repeated corner, inverted element, neighbour out of range */
  int32_t save = m.nodelist[3];
  m.nodelist[3] = m.nodelist[5];
  ck_tsr_fails(lulesh_mesh_check(&m, "bad"), TSR_ERR_FORMAT);
  m.nodelist[3] = save;
  for (int i = 0; i < 4; i++) {
    int32_t t = m.nodelist[8 * 4 + i];
    m.nodelist[8 * 4 + i] = m.nodelist[8 * 4 + 4 + i];
    m.nodelist[8 * 4 + 4 + i] = t;
  }
  ck_tsr_fails(lulesh_state_init(&s, &m, 1), TSR_ERR_FORMAT);
  for (int i = 0; i < 4; i++) {
    int32_t t = m.nodelist[8 * 4 + i];
    m.nodelist[8 * 4 + i] = m.nodelist[8 * 4 + 4 + i];
    m.nodelist[8 * 4 + 4 + i] = t;
  }
  m.lxip[0] = m.num_elem;
  ck_tsr_fails(lulesh_mesh_check(&m, "bad"), TSR_ERR_RANGE);
  m.lxip[0] = 1;
  m.elem_bc[0] |= LULESH_XI_M_FREE; /* SYMM and FREE on one face */
  ck_tsr_fails(lulesh_mesh_check(&m, "bad"), TSR_ERR_FORMAT);
  m.elem_bc[0] &= ~LULESH_XI_M_FREE;
  ck_tsr(lulesh_mesh_check(&m, "repaired"));
  lulesh_mesh_free(&m);
}
END_TEST

static Suite *lulesh_suite(void) {
  Suite *s = suite_create("lulesh");
  TCase *g = tcase_create("geometry");
  tcase_add_test(g, test_unit_cube);
  tcase_add_test(g, test_derivatives_fd);
  tcase_add_test(g, test_hourglass_affine);
  tcase_add_test(g, test_shape_fd_general);
  tcase_add_test(g, test_linear_gradient);
  tcase_add_test(g, test_lib_volume);
  tcase_add_test(g, test_regions);
  suite_add_tcase(s, g);
  TCase *r = tcase_create("reference");
  tcase_add_loop_test(r, test_reference, 0, (int)(sizeof REF / sizeof *REF));
  tcase_add_test(r, test_reference_s10_i10);
  tcase_add_loop_test(r, test_renumbered, 0, 4);
  tcase_add_loop_test(r, test_renumbered_lib, 0, 4);
  tcase_add_test(r, test_errors);
  suite_add_tcase(s, r);
  return s;
}

int main(void) { return tsr_test_run(lulesh_suite()); }
