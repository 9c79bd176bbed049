/* check_airfoil: the NACA0012 generator, the mesh checks, the OP2 file
 * formats (HDF5 and new_grid.dat), the colouring module and the CPU
 * reference on small meshes. */
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

/* Counts of OP2's formulas, and every cell's corners form a counter-clockwise
 * quadrilateral of positive area (brute-force shoelace). */
START_TEST(test_generator_shape) {
  int sizes[3][2] = {{40, 60}, {7, 5}, {2, 2}};
  for (int s = 0; s < 3; s++) {
    int I = sizes[s][0], J = sizes[s][1];
    tsr_mesh_t *m = NULL;
    ck_tsr(airfoil_naca0012(I, J, 1, &m));
    airfoil_problem_t p;
    ck_tsr(airfoil_problem_from_mesh(m, "test", &p));
    ck_assert_int_eq(p.nnode, (3 * I + 1) * (J + 1));
    ck_assert_int_eq(p.ncell, 3 * I * J);
    ck_assert_int_eq(p.nedge, (3 * I - 1) * J + 3 * I * (J - 1) + I);
    ck_assert_int_eq(p.nbedge, 4 * I + 2 * J);
    /* every cell side is exactly one edge or one boundary edge: count sides */
    int64_t sides = 2 * p.nedge + p.nbedge;
    ck_assert_int_eq(sides, 4 * p.ncell);
    for (int64_t c = 0; c < p.ncell; c++) {
      double a = 0;
      for (int k = 0; k < 4; k++) {
        const double *u = p.x + 2 * p.pcell[4 * c + k], *v = p.x + 2 * p.pcell[4 * c + (k + 1) % 4];
        a += u[0] * v[1] - v[0] * u[1];
      }
      ck_assert_msg(fabs(a) > 0, "cell %lld has zero area", (long long)c);
    }
    int walls = 0;
    for (int64_t b = 0; b < p.nbedge; b++) walls += p.bound[b] == 1;
    ck_assert_int_eq(walls, I);
    tsr_mesh_destroy(&m);
  }
}
END_TEST

/* Rounded coordinates are the unrounded ones printed with %f; the aerofoil
 * surface (bottom row between the trailing-edge nodes) is closed: node i and
 * node 3I-i of the bottom row coincide along the cut. */
START_TEST(test_generator_values) {
  const int I = 40, J = 60;
  tsr_mesh_t *a = NULL, *b = NULL;
  ck_tsr(airfoil_naca0012(I, J, 1, &a));
  ck_tsr(airfoil_naca0012(I, J, 0, &b));
  airfoil_problem_t pa, pb;
  ck_tsr(airfoil_problem_from_mesh(a, "rounded", &pa));
  ck_tsr(airfoil_problem_from_mesh(b, "exact", &pb));
  for (int64_t i = 0; i < 2 * pa.nnode; i++) {
    char buf[64];
    snprintf(buf, sizeof buf, "%f", pb.x[i]);
    ck_assert_double_eq(pa.x[i], strtod(buf, NULL) + 0.0);
    ck_assert(fabs(pa.x[i] - pb.x[i]) <= 5.0000001e-7);
  }
  for (int i = 0; i <= I; i++) { /* the cut line: (x, y) of node i == node 3I - i */
    ck_assert_double_eq_tol(pb.x[2 * i], pb.x[2 * (3 * I - i)], 1e-12);
    ck_assert_double_eq_tol(fabs(pb.x[2 * i + 1]), 0, 1e-12);
  }
  /* the aerofoil: leading edge near x = 0, trailing edge at x = 1 - x0 ... in
   * the physical plane the wall nodes lie in [-0.01, 1.0] x [-0.07, 0.07] */
  for (int i = I; i <= 2 * I; i++) {
    ck_assert(pb.x[2 * i] > -0.01 && pb.x[2 * i] <= 1.0 + 1e-12);
    ck_assert(fabs(pb.x[2 * i + 1]) < 0.07);
  }
  tsr_mesh_destroy(&a);
  tsr_mesh_destroy(&b);
}
END_TEST

static int same_mesh(const airfoil_problem_t *a, const airfoil_problem_t *b) {
  if (a->nnode != b->nnode || a->ncell != b->ncell || a->nedge != b->nedge || a->nbedge != b->nbedge)
    return 0;
  return !memcmp(a->x, b->x, 16 * a->nnode) && !memcmp(a->pcell, b->pcell, 16 * a->ncell) &&
         !memcmp(a->pedge, b->pedge, 8 * a->nedge) && !memcmp(a->pecell, b->pecell, 8 * a->nedge) &&
         !memcmp(a->pbedge, b->pbedge, 8 * a->nbedge) &&
         !memcmp(a->pbecell, b->pbecell, 4 * a->nbedge) && !memcmp(a->bound, b->bound, 4 * a->nbedge) &&
         !memcmp(a->q0, b->q0, 32 * a->ncell) && !memcmp(&a->c, &b->c, sizeof a->c);
}

/* generated -> HDF5 -> read, and generated -> new_grid.dat -> read: identical. */
START_TEST(test_file_round_trip) {
  char h5[256], dat[256];
  tsr_test_tmpname(h5, sizeof h5, "af-rt.h5");
  tsr_test_tmpname(dat, sizeof dat, "af-rt.dat");
  tsr_mesh_t *g = NULL, *r = NULL, *d = NULL;
  ck_tsr(airfoil_naca0012(9, 7, 1, &g));
  ck_tsr(airfoil_mesh_write(MPI_COMM_WORLD, h5, g, NULL));
  ck_tsr(airfoil_dat_write(dat, g));
  ck_tsr(airfoil_mesh_read(MPI_COMM_WORLD, h5, &r));
  ck_tsr(airfoil_dat_read(dat, &d));
  airfoil_problem_t pg, pr, pd;
  ck_tsr(airfoil_problem_from_mesh(g, "g", &pg));
  ck_tsr(airfoil_problem_from_mesh(r, "r", &pr));
  ck_tsr(airfoil_problem_from_mesh(d, "d", &pd));
  ck_assert(same_mesh(&pg, &pr));
  ck_assert(same_mesh(&pg, &pd));
  tsr_mesh_destroy(&g);
  tsr_mesh_destroy(&r);
  tsr_mesh_destroy(&d);
  unlink(h5);
  unlink(dat);
}
END_TEST

static void expect_bad(tsr_mesh_t *m, const char *needle) {
  airfoil_problem_t p;
  int rc = airfoil_problem_from_mesh(m, "bad.h5", &p);
  ck_assert_msg(rc != 0, "accepted a mesh that should fail with '%s'", needle);
  ck_assert_msg(strstr(tsr_error_message(), needle) && strstr(tsr_error_message(), "bad.h5"),
                "message '%s' lacks '%s'", tsr_error_message(), needle);
  tsr_error_clear();
}

START_TEST(test_bad_meshes) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(5, 4, 1, &m));
  tsr_map_t *pecell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pecell"));
  pecell->data[7] = 99999; /* out of range */
  expect_bad(m, "pecell");
  pecell->data[7] = pecell->data[6] == 0 ? 1 : 0; /* in range, wrong cell */
  expect_bad(m, "do not match the cells");
  tsr_mesh_destroy(&m);
  ck_tsr(airfoil_naca0012(5, 4, 1, &m));
  int32_t *bound = tsr_mesh_dat(m, tsr_mesh_find_dat(m, "p_bound"))->data;
  bound[3] = 7;
  expect_bad(m, "p_bound");
  tsr_mesh_destroy(&m);
  /* missing constant, missing map */
  ck_tsr(tsr_mesh_create(&m));
  ck_tsr(tsr_mesh_add_set(m, "nodes", 4, NULL));
  ck_tsr(tsr_mesh_add_set(m, "edges", 0, NULL));
  ck_tsr(tsr_mesh_add_set(m, "bedges", 0, NULL));
  ck_tsr(tsr_mesh_add_set(m, "cells", 1, NULL));
  expect_bad(m, "map 'pedge' is missing");
  tsr_mesh_destroy(&m);
}
END_TEST

START_TEST(test_bad_files) {
  char path[256];
  tsr_test_tmpname(path, sizeof path, "af-bad.h5");
  tsr_mesh_t *m = NULL;
  FILE *f = fopen(path, "w");
  fputs("not hdf5\n", f);
  fclose(f);
  ck_tsr_fails(airfoil_mesh_read(MPI_COMM_WORLD, path, &m), TSR_ERR_FORMAT);
  ck_tsr_fails(airfoil_mesh_read(MPI_COMM_WORLD, "/nonexistent/x.h5", &m), TSR_ERR_IO);
  ck_tsr_fails(airfoil_dat_read(path, &m), TSR_ERR_FORMAT); /* no header */
  f = fopen(path, "w");
  fputs("4 1 0 0\n0 0\n1 0\n1 1\n", f); /* truncated node list */
  fclose(f);
  ck_tsr_fails(airfoil_dat_read(path, &m), TSR_ERR_FORMAT);
  /* an HDF5 mesh without a constant: write one, drop 'eps' by writing a mesh without it */
  tsr_mesh_t *g = NULL;
  ck_tsr(airfoil_naca0012(3, 3, 1, &g));
  tsr_mesh_t *h = NULL;
  ck_tsr(tsr_mesh_create(&h));
  for (int i = 0; i < tsr_mesh_nsets(g); i++)
    ck_tsr(tsr_mesh_add_set(h, tsr_mesh_set(g, i)->name, tsr_mesh_set(g, i)->size, NULL));
  for (int i = 0; i < tsr_mesh_nmaps(g); i++) {
    tsr_map_t *mp = tsr_mesh_map(g, i);
    ck_tsr(tsr_mesh_add_map(h, mp->name, mp->from, mp->to, mp->dim, mp->data, TSR_COPY, NULL));
  }
  for (int i = 0; i < tsr_mesh_ndats(g); i++) {
    tsr_dat_t *dt = tsr_mesh_dat(g, i);
    ck_tsr(tsr_mesh_add_dat(h, dt->name, dt->set, dt->dim, dt->type, dt->data, TSR_COPY, NULL));
  }
  ck_tsr(airfoil_mesh_write(MPI_COMM_WORLD, path, h, NULL));
  ck_assert_int_ne(airfoil_mesh_read(MPI_COMM_WORLD, path, &m), 0);
  ck_assert(strstr(tsr_error_message(), "'gam'") != NULL && strstr(tsr_error_message(), "not found") != NULL);
  ck_assert(strstr(tsr_error_message(), path) != NULL);
  tsr_error_clear();
  tsr_mesh_destroy(&g);
  tsr_mesh_destroy(&h);
  unlink(path);
}
END_TEST

/* Greedy colouring: no two rows of a colour share a target (brute force over
 * all pairs of a random map), groups list each row once in order. */
START_TEST(test_colour) {
  unsigned long long st = 17;
  const int n = 300, dim = 3, nt = 50;
  int32_t map[300 * 3], colour[300];
  for (int i = 0; i < n * dim; i++) map[i] = (int32_t)tsr_test_rand(&st, 0, nt);
  int nc = 0;
  ck_tsr(tsr_colour_greedy(map, n, dim, nt, colour, &nc));
  ck_assert(nc >= 1 && nc <= TSR_COLOUR_MAX);
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++) {
      if (colour[a] != colour[b]) continue;
      for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) ck_assert_int_ne(map[a * dim + i], map[b * dim + j]);
    }
  tsr_idx_t *off = NULL;
  int32_t *ord = NULL;
  ck_tsr(tsr_colour_groups(colour, n, nc, &off, &ord));
  ck_assert_int_eq(off[nc], n);
  for (int c = 0; c < nc; c++)
    for (tsr_idx_t k = off[c]; k < off[c + 1]; k++) {
      ck_assert_int_eq(colour[ord[k]], c);
      if (k > off[c]) ck_assert_int_lt(ord[k - 1], ord[k]);
    }
  free(off);
  free(ord);
  map[5] = nt; /* out of range */
  ck_tsr_fails(tsr_colour_greedy(map, n, dim, nt, colour, &nc), TSR_ERR_RANGE);
}
END_TEST

/* The CPU reference: the residual decreases, float follows double within
 * 1e-3 relative, and the run starts from q0 each time (same history twice). */
START_TEST(test_cpu_ref) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(12, 10, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  enum { N = 60 };
  double rd[N], rd2[N], rf[N];
  airfoil_run_t r = {N, AIRFOIL_DOUBLE, rd, NULL, 0, 0};
  ck_tsr(airfoil_cpu_ref(&p, &r));
  r.rms = rd2;
  ck_tsr(airfoil_cpu_ref(&p, &r));
  r.rms = rf;
  r.prec = AIRFOIL_FLOAT;
  ck_tsr(airfoil_cpu_ref(&p, &r));
  for (int k = 0; k < N; k++) {
    ck_assert(isfinite(rd[k]) && rd[k] > 0);
    ck_assert_double_eq(rd[k], rd2[k]);
    ck_assert_double_eq_tol(rf[k] / rd[k], 1.0, 1e-3);
  }
  ck_assert(rd[N - 1] < rd[0]);
  tsr_mesh_destroy(&m);
}
END_TEST

static Suite *airfoil_suite(void) {
  Suite *s = suite_create("airfoil");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_generator_shape);
  tcase_add_test(t, test_generator_values);
  tcase_add_test(t, test_file_round_trip);
  tcase_add_test(t, test_bad_meshes);
  tcase_add_test(t, test_bad_files);
  tcase_add_test(t, test_colour);
  tcase_add_test(t, test_cpu_ref);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  MPI_Init(NULL, NULL);
  int rc = tsr_test_run(airfoil_suite());
  MPI_Finalize();
  return rc;
}
