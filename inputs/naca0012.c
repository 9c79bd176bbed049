/* inputs/naca0012.c: the NACA0012 C-mesh generator and new_grid.dat I/O.
 *
 * Construction (the algorithm of OP2's naca0012.m, 2012):
 *  1. 100 points of the upper surface at x = sin^2(t), t evenly spaced in
 *     [0, pi/2], y the NACA0012 thickness polynomial (scaled; y = 0 at the
 *     trailing edge).
 *  2. Conformal map w = sqrt(z - x0), x0 = 0.0077 (principal branch), and
 *     the mirror image -conj(w) for the lower surface: 199 points of a
 *     curve that is nearly flat in the w plane.
 *  3. A grid in the w plane: 3I+1 abscissae evenly in [-3, 3]; the bottom
 *     row follows the aerofoil curve (a not-a-knot cubic spline through the
 *     199 points, MATLAB's spline) for the I-1 interior abscissae of
 *     (-1, 1), and 0 elsewhere (the cut line); each column runs evenly from
 *     the bottom row to 3 in J steps.
 *  4. Back to the physical plane: z = w^2.
 * Nodes, cells, edges and boundary edges are numbered as OP2's generator
 * numbers them (see the loops below), so the maps are identical.
 */
#include "config.h"

#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "kernels/airfoil/airfoil.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

/* MATLAB's linspace(a, b, n), element k: a + k*(b-a)/(n-1), the last exactly b. */
static double af_linspace(double a, double b, int n, int k) {
  return k == n - 1 ? b : a + (double)k * ((b - a) / (double)(n - 1));
}

/* Not-a-knot cubic spline through (x[k], y[k]), k < n (n >= 4, x strictly
 * increasing): the slopes s[k] of the piecewise cubic Hermite form. */
static int af_spline_slopes(int n, const double *x, const double *y, double *s) {
  double *h = malloc(sizeof(double) * (size_t)n), *d = malloc(sizeof(double) * (size_t)n);
  double *lo = malloc(sizeof(double) * (size_t)n), *di = malloc(sizeof(double) * (size_t)n);
  double *up = malloc(sizeof(double) * (size_t)n);
  if (!h || !d || !lo || !di || !up) {
    free(h); free(d); free(lo); free(di); free(up);
    return TSR_RAISE(TSR_ERR_ALLOC, "naca0012: no memory for the spline");
  }
  for (int k = 0; k < n - 1; k++) {
    h[k] = x[k + 1] - x[k];
    d[k] = (y[k + 1] - y[k]) / h[k];
  }
  /* Row 0 and row n-1: the third derivative is continuous at x[1] and x[n-2]. */
  lo[0] = 0;
  di[0] = h[1];
  up[0] = h[0] + h[1];
  s[0] = ((h[0] + 2 * (h[0] + h[1])) * h[1] * d[0] + h[0] * h[0] * d[1]) / (h[0] + h[1]);
  for (int k = 1; k < n - 1; k++) { /* C2 continuity at x[k] */
    lo[k] = h[k];
    di[k] = 2 * (h[k - 1] + h[k]);
    up[k] = h[k - 1];
    s[k] = 3 * (h[k] * d[k - 1] + h[k - 1] * d[k]);
  }
  int m = n - 1;
  lo[m] = h[m - 1] + h[m - 2];
  di[m] = h[m - 2];
  up[m] = 0;
  s[m] = (h[m - 1] * h[m - 1] * d[m - 2] + (2 * (h[m - 2] + h[m - 1]) + h[m - 1]) * h[m - 2] * d[m - 1]) /
         (h[m - 2] + h[m - 1]);
  /* Tridiagonal solve (Thomas; the system is diagonally dominant inside). */
  for (int k = 1; k < n; k++) {
    double w = lo[k] / di[k - 1];
    di[k] -= w * up[k - 1];
    s[k] -= w * s[k - 1];
  }
  s[m] /= di[m];
  for (int k = m - 1; k >= 0; k--) s[k] = (s[k] - up[k] * s[k + 1]) / di[k];
  free(h); free(d); free(lo); free(di); free(up);
  return 0;
}

/* Value at xq of the spline (x, y, s); outside [x[0], x[n-1]] the end pieces
 * are extended, as MATLAB does. */
static double af_spline_eval(int n, const double *x, const double *y, const double *s, double xq) {
  int a = 0, b = n - 1; /* find k with x[k] <= xq < x[k+1], clamped to [0, n-2] */
  while (b - a > 1) {
    int c = (a + b) / 2;
    if (x[c] <= xq) a = c;
    else b = c;
  }
  double h = x[a + 1] - x[a], dl = (y[a + 1] - y[a]) / h, t = xq - x[a];
  double c2 = (3 * dl - 2 * s[a] - s[a + 1]) / h, c3 = (s[a] + s[a + 1] - 2 * dl) / (h * h);
  return y[a] + t * (s[a] + t * (c2 + t * c3));
}

/* The rounding of OP2's text pipeline: printf("%f") then strtod; zeros are
 * made +0 (whether MATLAB printed "-0.000000" depends on the last bit of
 * values near 0: see docs/AIRFOIL.md). */
static double af_round_dp6(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%f", v);
  return strtod(buf, NULL) + 0.0;
}

/* Steps 1-4: node coordinates x[(3I+1)(J+1)][2], node (i, j) at i + j(3I+1). */
static int af_coords(int nI, int nJ, int round_dp6, double *xy) {
  enum { NS = 100, NP = 2 * NS - 1 };
  double px[NP], py[NP], ps[NP];
  double complex w[NS];
  for (int k = 0; k < NS; k++) {
    double t = af_linspace(0, M_PI / 2, NS, k);
    double sx = sin(t), x = sx * sx;
    double y = 0.594689181 * (0.298222773 * sqrt(x) - 0.127125232 * x - 0.357907906 * x * x +
                              0.291984971 * x * x * x - 0.105174696 * x * x * x * x);
    if (k == NS - 1) y = 0;
    w[k] = csqrt(CMPLX(x - 0.0077, y));
  }
  for (int k = 0; k < NS; k++) { /* mirror: -conj(w) in reverse order, then w[1..] */
    px[k] = -creal(w[NS - 1 - k]);
    py[k] = cimag(w[NS - 1 - k]);
  }
  for (int k = 1; k < NS; k++) {
    px[NS - 1 + k] = creal(w[k]);
    py[NS - 1 + k] = cimag(w[k]);
  }
  for (int k = 1; k < NP; k++)
    TSR_CHECK(px[k] > px[k - 1], TSR_ERR_INTERNAL, "naca0012: surface abscissae not increasing at %d", k);
  TSR_CALL(af_spline_slopes(NP, px, py, ps));
  const int ni = 3 * nI + 1;
  for (int i = 0; i < ni; i++) {
    double xb = af_linspace(-3, 3, ni, i);
    double yb = (i >= nI + 1 && i <= 2 * nI - 1) ? af_spline_eval(NP, px, py, ps, xb) : 0.0;
    for (int j = 0; j <= nJ; j++) {
      double yg = af_linspace(yb, 3, nJ + 1, j);
      double complex z = CMPLX(xb, yg);
      z = z * z;
      double *o = xy + 2 * ((int64_t)i + (int64_t)j * ni);
      o[0] = round_dp6 ? af_round_dp6(creal(z)) : creal(z);
      o[1] = round_dp6 ? af_round_dp6(cimag(z)) : cimag(z);
    }
  }
  return 0;
}

/* Build the mesh from its arrays (adopted) plus OP2's defaults for the rest. */
static int af_mesh_build(int64_t nn, int64_t nc, int64_t ne, int64_t nb, double *x, int32_t *cell,
                         int32_t *edge, int32_t *ecell, int32_t *bedge, int32_t *becell,
                         int32_t *bound, tsr_mesh_t **out) {
  tsr_mesh_t *m = NULL;
  airfoil_consts_t c;
  airfoil_consts_default(&c);
  int rc = tsr_mesh_create(&m), nodes = -1, edges = -1, bedges = -1, cells = -1;
  if (!rc) rc = tsr_mesh_add_set(m, "nodes", nn, &nodes);
  if (!rc) rc = tsr_mesh_add_set(m, "edges", ne, &edges);
  if (!rc) rc = tsr_mesh_add_set(m, "bedges", nb, &bedges);
  if (!rc) rc = tsr_mesh_add_set(m, "cells", nc, &cells);
  /* the mesh frees every array it adopts, so adopt each exactly once */
  int32_t *maps[5] = {edge, ecell, bedge, becell, cell};
  static const char *mname[5] = {"pedge", "pecell", "pbedge", "pbecell", "pcell"};
  int mfrom[5] = {edges, edges, bedges, bedges, cells}, mto[5] = {nodes, cells, nodes, cells, nodes};
  int mdim[5] = {2, 2, 2, 1, 4};
  for (int i = 0; i < 5; i++) {
    if (!rc) rc = tsr_mesh_add_map(m, mname[i], mfrom[i], mto[i], mdim[i], maps[i], TSR_ADOPT, NULL);
    else free(maps[i]);
  }
  if (!rc) rc = tsr_mesh_add_dat(m, "p_x", nodes, 2, TSR_DOUBLE, x, TSR_ADOPT, NULL);
  else free(x);
  if (!rc) rc = tsr_mesh_add_dat(m, "p_bound", bedges, 1, TSR_INT32, bound, TSR_ADOPT, NULL);
  else free(bound);
  int q = -1;
  if (!rc) rc = tsr_mesh_add_dat(m, "p_q", cells, 4, TSR_DOUBLE, NULL, TSR_COPY, &q);
  if (!rc) {
    double *qd = tsr_mesh_dat(m, q)->data;
    for (int64_t k = 0; k < nc; k++)
      for (int n = 0; n < 4; n++) qd[4 * k + n] = c.qinf[n];
  }
  if (!rc) rc = tsr_mesh_add_dat(m, "p_qold", cells, 4, TSR_DOUBLE, NULL, TSR_COPY, NULL);
  if (!rc) rc = tsr_mesh_add_dat(m, "p_adt", cells, 1, TSR_DOUBLE, NULL, TSR_COPY, NULL);
  if (!rc) rc = tsr_mesh_add_dat(m, "p_res", cells, 4, TSR_DOUBLE, NULL, TSR_COPY, NULL);
  if (!rc) rc = airfoil_mesh_add_consts(m, &c);
  if (rc) {
    tsr_mesh_destroy(&m);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  *out = m;
  return 0;
}

static void *af_alloc(int64_t n, size_t size) { return malloc((size_t)(n > 0 ? n : 1) * size); }

int airfoil_naca0012(int nI, int nJ, int round_dp6, tsr_mesh_t **out) {
  *out = NULL;
  TSR_CHECK(nI >= 2 && nJ >= 2 && nI <= 100000 && nJ <= 100000 &&
                (3 * (int64_t)nI + 1) * ((int64_t)nJ + 1) < INT32_MAX,
            TSR_ERR_ARG, "naca0012: nI = %d, nJ = %d: need 2 <= nI, nJ and fewer than 2^31 nodes", nI, nJ);
  const int64_t ni = 3 * (int64_t)nI + 1, nn = ni * (nJ + 1), nc = 3 * (int64_t)nI * nJ;
  const int64_t ne = (3 * (int64_t)nI - 1) * nJ + 3 * (int64_t)nI * (nJ - 1) + nI;
  const int64_t nb = 4 * (int64_t)nI + 2 * nJ;
  double *x = af_alloc(2 * nn, sizeof(double));
  int32_t *cell = af_alloc(4 * nc, 4), *edge = af_alloc(2 * ne, 4), *ecell = af_alloc(2 * ne, 4);
  int32_t *bedge = af_alloc(2 * nb, 4), *becell = af_alloc(nb, 4), *bound = af_alloc(nb, 4);
  if (!x || !cell || !edge || !ecell || !bedge || !becell || !bound) {
    free(x); free(cell); free(edge); free(ecell); free(bedge); free(becell); free(bound);
    return TSR_RAISE(TSR_ERR_ALLOC, "naca0012: no memory for a %dx%d mesh", nI, nJ);
  }
  int rc = af_coords(nI, nJ, round_dp6, x);
  if (rc) {
    free(x); free(cell); free(edge); free(ecell); free(bedge); free(becell); free(bound);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
#define NODE(i, j) ((int32_t)((i) + (int64_t)(j) * ni))
#define CELL(i, j) ((int32_t)((i) + (int64_t)(j) * 3 * nI))
  for (int j = 0; j < nJ; j++)
    for (int i = 0; i < 3 * nI; i++) {
      int32_t *c4 = cell + 4 * (int64_t)CELL(i, j);
      c4[0] = NODE(i, j);
      c4[1] = NODE(i + 1, j);
      c4[2] = NODE(i + 1, j + 1);
      c4[3] = NODE(i, j + 1);
    }
  int64_t e = 0;
  for (int j = 0; j < nJ; j++)
    for (int i = 0; i < 3 * nI; i++) {
      if (j == 0 && i < nI) { /* cut line: the bottom row meets itself */
        edge[2 * e] = NODE(i, 0), edge[2 * e + 1] = NODE(i + 1, 0);
        ecell[2 * e] = CELL(3 * nI - 1 - i, 0), ecell[2 * e + 1] = CELL(i, 0);
        e++;
      }
      if (j < nJ - 1) { /* top side of cell (i, j) */
        edge[2 * e] = NODE(i, j + 1), edge[2 * e + 1] = NODE(i + 1, j + 1);
        ecell[2 * e] = CELL(i, j), ecell[2 * e + 1] = CELL(i, j + 1);
        e++;
      }
      if (i < 3 * nI - 1) { /* right side of cell (i, j) */
        edge[2 * e] = NODE(i + 1, j), edge[2 * e + 1] = NODE(i + 1, j + 1);
        ecell[2 * e] = CELL(i + 1, j), ecell[2 * e + 1] = CELL(i, j);
        e++;
      }
    }
  int64_t b = 0;
  for (int i = nI; i < 2 * nI; i++, b++) { /* aerofoil wall */
    bedge[2 * b] = NODE(i + 1, 0), bedge[2 * b + 1] = NODE(i, 0);
    becell[b] = CELL(i, 0), bound[b] = 1;
  }
  for (int j = 0; j < nJ; j++, b++) { /* far field: right end */
    bedge[2 * b] = NODE(3 * nI, j + 1), bedge[2 * b + 1] = NODE(3 * nI, j);
    becell[b] = CELL(3 * nI - 1, j), bound[b] = 2;
  }
  for (int i = 3 * nI - 1; i >= 0; i--, b++) { /* far field: outer arc */
    bedge[2 * b] = NODE(i, nJ), bedge[2 * b + 1] = NODE(i + 1, nJ);
    becell[b] = CELL(i, nJ - 1), bound[b] = 2;
  }
  for (int j = nJ - 1; j >= 0; j--, b++) { /* far field: left end */
    bedge[2 * b] = NODE(0, j), bedge[2 * b + 1] = NODE(0, j + 1);
    becell[b] = CELL(0, j), bound[b] = 2;
  }
#undef NODE
#undef CELL
  if (e != ne || b != nb) {
    free(x); free(cell); free(edge); free(ecell); free(bedge); free(becell); free(bound);
    return TSR_RAISE(TSR_ERR_INTERNAL, "naca0012: made %lld edges and %lld bedges, expected %lld and %lld",
                     (long long)e, (long long)b, (long long)ne, (long long)nb);
  }
  TSR_CALL(af_mesh_build(nn, nc, ne, nb, x, cell, edge, ecell, bedge, becell, bound, out));
  return 0;
}

/* ---- new_grid.dat ------------------------------------------------------ */
static int af_dat_ints(FILE *f, const char *path, const char *what, int64_t row, int n, int32_t *v) {
  for (int k = 0; k < n; k++) {
    long long t;
    TSR_CHECK(fscanf(f, "%lld", &t) == 1, TSR_ERR_FORMAT,
              "%s: %s %lld: expected %d integers (file truncated or not OP2's new_grid.dat?)", path,
              what, (long long)row, n);
    TSR_CHECK(t >= INT32_MIN && t <= INT32_MAX, TSR_ERR_FORMAT, "%s: %s %lld: value %lld out of range",
              path, what, (long long)row, t);
    v[k] = (int32_t)t;
  }
  return 0;
}

static int af_dat_read_body(FILE *f, const char *path, tsr_mesh_t **out) {
  long long h[4];
  TSR_CHECK(fscanf(f, "%lld %lld %lld %lld", &h[0], &h[1], &h[2], &h[3]) == 4, TSR_ERR_FORMAT,
            "%s: expected the header \"nnode ncell nedge nbedge\" (not OP2's new_grid.dat?)", path);
  for (int k = 0; k < 4; k++)
    TSR_CHECK(h[k] >= 0 && h[k] < INT32_MAX, TSR_ERR_FORMAT, "%s: header count %lld out of range",
              path, h[k]);
  const int64_t nn = h[0], nc = h[1], ne = h[2], nb = h[3];
  double *x = af_alloc(2 * nn, sizeof(double));
  int32_t *cell = af_alloc(4 * nc, 4), *edge = af_alloc(2 * ne, 4), *ecell = af_alloc(2 * ne, 4);
  int32_t *bedge = af_alloc(2 * nb, 4), *becell = af_alloc(nb, 4), *bound = af_alloc(nb, 4);
  int rc = 0;
  if (!x || !cell || !edge || !ecell || !bedge || !becell || !bound)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for %lld nodes and %lld cells", path,
                   (long long)nn, (long long)nc);
  for (int64_t k = 0; !rc && k < nn; k++)
    if (fscanf(f, "%lf %lf", &x[2 * k], &x[2 * k + 1]) != 2)
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: node %lld: expected two coordinates", path, (long long)k);
  for (int64_t k = 0; !rc && k < nc; k++) rc = af_dat_ints(f, path, "cell", k, 4, cell + 4 * k);
  for (int64_t k = 0; !rc && k < ne; k++) {
    int32_t v[4];
    rc = af_dat_ints(f, path, "edge", k, 4, v);
    edge[2 * k] = v[0], edge[2 * k + 1] = v[1], ecell[2 * k] = v[2], ecell[2 * k + 1] = v[3];
  }
  for (int64_t k = 0; !rc && k < nb; k++) {
    int32_t v[4];
    rc = af_dat_ints(f, path, "boundary edge", k, 4, v);
    bedge[2 * k] = v[0], bedge[2 * k + 1] = v[1], becell[k] = v[2], bound[k] = v[3];
  }
  if (rc) {
    free(x); free(cell); free(edge); free(ecell); free(bedge); free(becell); free(bound);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  TSR_CALL(af_mesh_build(nn, nc, ne, nb, x, cell, edge, ecell, bedge, becell, bound, out));
  return 0;
}

int airfoil_dat_read(const char *path, tsr_mesh_t **out) {
  *out = NULL;
  FILE *f = fopen(path, "r");
  TSR_CHECK(f, TSR_ERR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
  int rc = af_dat_read_body(f, path, out);
  fclose(f);
  TSR_CALL(rc);
  return 0;
}

int airfoil_dat_write(const char *path, const tsr_mesh_t *mesh) {
  airfoil_problem_t p;
  TSR_CALL(airfoil_problem_from_mesh(mesh, path, &p));
  FILE *f = fopen(path, "w");
  TSR_CHECK(f, TSR_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
  fprintf(f, " %lld %lld %lld %lld \n", (long long)p.nnode, (long long)p.ncell,
          (long long)p.nedge, (long long)p.nbedge);
  for (int64_t k = 0; k < p.nnode; k++) fprintf(f, " %f %f \n", p.x[2 * k], p.x[2 * k + 1]);
  for (int64_t k = 0; k < p.ncell; k++)
    fprintf(f, " %d %d %d %d \n", p.pcell[4 * k], p.pcell[4 * k + 1], p.pcell[4 * k + 2],
            p.pcell[4 * k + 3]);
  for (int64_t k = 0; k < p.nedge; k++)
    fprintf(f, " %d %d %d %d \n", p.pedge[2 * k], p.pedge[2 * k + 1], p.pecell[2 * k],
            p.pecell[2 * k + 1]);
  for (int64_t k = 0; k < p.nbedge; k++)
    fprintf(f, " %d %d %d %d \n", p.pbedge[2 * k], p.pbedge[2 * k + 1], p.pbecell[k], p.bound[k]);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  TSR_CHECK(!bad, TSR_ERR_IO, "%s: writing failed (disk full?)", path);
  return 0;
}
