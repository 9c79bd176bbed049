/* check_io_mpi: block-wise parallel reads equal a serial read (OP2's Airfoil
 * mesh, or a generated mesh when it is absent); meshes and grids written in
 * parallel equal their serial writes. Run at 1-4 ranks by tests/driver. */
#include <unistd.h>
#include "tsr_check.h"

static int rank, nranks;

/* A path shared by all ranks (rank 0's name). */
static void shared_name(char *buf, size_t n, const char *what) {
  if (rank == 0) tsr_test_tmpname(buf, n, what);
  MPI_Bcast(buf, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static int file_exists(const char *p) { return access(p, R_OK) == 0; }

/* The mesh to read: the Airfoil file, or one written here. */
static int mesh_path(char *path, size_t n, int *generated) {
  const char *top = getenv("TSR_TOP_SRCDIR");
  snprintf(path, n, "%s/../shared/inputs/op2/new_grid.h5", top ? top : "..");
  if (!file_exists(path)) snprintf(path, n, "%s/../../shared/inputs/op2/new_grid.h5", top ? top : "..");
  int have = file_exists(path);
  MPI_Bcast(&have, 1, MPI_INT, 0, MPI_COMM_WORLD);
  *generated = !have;
  if (have) return 0;
  shared_name(path, n, "iompi-gen.h5");
  int rc = 0;
  if (rank == 0) {
    /* quads on a 61 x 47 node grid, like Airfoil's names */
    tsr_idx_t nx = 61, ny = 47, nn = nx * ny, nc = (nx - 1) * (ny - 1);
    unsigned long long st = 2024;
    tsr_mesh_t *m = NULL;
    int nodes, cells;
    tsr_mesh_create(&m);
    tsr_mesh_add_set(m, "nodes", nn, &nodes);
    tsr_mesh_add_set(m, "cells", nc, &cells);
    tsr_mesh_add_set(m, "bedges", 2 * (nx - 1), NULL);
    int32_t *pc = malloc((size_t)nc * 4 * sizeof *pc), *pb = malloc((size_t)(nx - 1) * 4 * sizeof *pb);
    for (tsr_idx_t j = 0, c = 0; j < ny - 1; j++)
      for (tsr_idx_t i = 0; i < nx - 1; i++, c++) {
        int32_t n0 = (int32_t)(j * nx + i);
        pc[4 * c] = n0, pc[4 * c + 1] = n0 + 1, pc[4 * c + 2] = n0 + (int32_t)nx + 1, pc[4 * c + 3] = n0 + (int32_t)nx;
      }
    for (tsr_idx_t k = 0; k < 2 * (nx - 1); k++) {
      tsr_idx_t i = k % (nx - 1), row = k < nx - 1 ? 0 : ny - 1;
      pb[2 * k] = (int32_t)(row * nx + i), pb[2 * k + 1] = (int32_t)(row * nx + i + 1);
    }
    tsr_mesh_add_map(m, "pcell", cells, nodes, 4, pc, TSR_ADOPT, NULL);
    tsr_mesh_add_map(m, "pbedge", 2, nodes, 2, pb, TSR_ADOPT, NULL);
    double *x = malloc((size_t)nn * 2 * sizeof *x);
    for (tsr_idx_t k = 0; k < 2 * nn; k++) x[k] = tsr_test_rand(&st, -3, 3);
    tsr_mesh_add_dat(m, "p_x", nodes, 2, TSR_DOUBLE, x, TSR_ADOPT, NULL);
    int32_t *bd = malloc((size_t)(2 * (nx - 1)) * sizeof *bd);
    for (tsr_idx_t k = 0; k < 2 * (nx - 1); k++) bd[k] = 1 + (int32_t)(k % 2);
    tsr_mesh_add_dat(m, "p_bound", 2, 1, TSR_INT32, bd, TSR_ADOPT, NULL);
    rc = tsr_mesh_write(MPI_COMM_SELF, path, m, NULL);
    tsr_mesh_destroy(&m);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}

static const tsr_io_map_t maps[] = {{"pcell", "cells", "nodes"}, {"pbedge", "bedges", "nodes"}};
static const tsr_io_dat_t dats[] = {{"p_x", "nodes", TSR_DOUBLE}, {"p_bound", "bedges", TSR_INT32}};
static const tsr_mesh_spec_t spec = {0, NULL, 2, maps, 2, dats, 0, NULL};

/* Gather a block-distributed array (rows of `width` bytes) onto rank 0. */
static void *gather_rows(const void *mine, tsr_idx_t rows, tsr_idx_t global, size_t width) {
  int *cnt = malloc((size_t)nranks * sizeof *cnt), *dsp = malloc((size_t)nranks * sizeof *dsp);
  for (int r = 0; r < nranks; r++) {
    tsr_idx_t first, count;
    tsr_mesh_block_rows(global, nranks, r, &first, &count);
    cnt[r] = (int)(count * (tsr_idx_t)width);
    dsp[r] = (int)(first * (tsr_idx_t)width);
  }
  char *all = rank == 0 ? malloc((size_t)global * width + 1) : NULL;
  MPI_Gatherv(mine, (int)(rows * (tsr_idx_t)width), MPI_BYTE, all, cnt, dsp, MPI_BYTE, 0, MPI_COMM_WORLD);
  free(cnt);
  free(dsp);
  return all;
}

/* Every map and dat of the block mesh b, gathered, equals the serial mesh s
 * (s only on rank 0). Returns 1 on every rank iff equal. */
static int same_as_serial(const tsr_mesh_t *b, const tsr_mesh_t *s) {
  int ok = 1;
  for (int i = 0; i < tsr_mesh_nmaps(b); i++) {
    const tsr_map_t *mp = tsr_mesh_map(b, i);
    const tsr_set_t *fs = tsr_mesh_set(b, mp->from);
    size_t w = (size_t)mp->dim * sizeof(int32_t);
    void *all = gather_rows(mp->data, fs->size, fs->global_size, w);
    if (rank == 0) {
      const tsr_map_t *ms = tsr_mesh_map(s, tsr_mesh_find_map(s, mp->name));
      ok &= ms && memcmp(all, ms->data, (size_t)fs->global_size * w) == 0;
    }
    free(all);
  }
  for (int i = 0; i < tsr_mesh_ndats(b); i++) {
    const tsr_dat_t *d = tsr_mesh_dat(b, i);
    const tsr_set_t *set = tsr_mesh_set(b, d->set);
    size_t w = (size_t)d->dim * tsr_dtype_size(d->type);
    void *all = gather_rows(d->data, set->size, set->global_size, w);
    if (rank == 0) {
      const tsr_dat_t *ds = tsr_mesh_dat(s, tsr_mesh_find_dat(s, d->name));
      ok &= ds && memcmp(all, ds->data, (size_t)set->global_size * w) == 0;
    }
    free(all);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

START_TEST(test_block_read_equals_serial) {
  char path[1024], out[1024];
  int generated;
  ck_assert_int_eq(mesh_path(path, sizeof path, &generated), 0);
  tsr_mesh_t *b = NULL, *s = NULL, *w = NULL;
  ck_tsr(tsr_mesh_read(MPI_COMM_WORLD, path, &spec, &b));
  ck_assert_int_eq(tsr_mesh_dist(b), nranks > 1 ? TSR_MESH_BLOCK : TSR_MESH_SERIAL);
  ck_tsr(tsr_mesh_validate(b));
  /* every rank's block is where tsr_mesh_block_rows says */
  const tsr_set_t *nodes = tsr_mesh_set(b, tsr_mesh_find_set(b, "nodes"));
  tsr_idx_t first, count;
  tsr_mesh_block_rows(nodes->global_size, nranks, rank, &first, &count);
  ck_assert(nodes->offset == first && nodes->size == count);
  if (!generated) ck_assert_int_eq(nodes->global_size, 721801);
  int rc = rank == 0 ? tsr_mesh_read(MPI_COMM_SELF, path, &spec, &s) : 0;
  ck_assert(tsr_test_all(rc == 0));
  ck_assert(same_as_serial(b, s));
  /* the block mesh written in parallel reads back (serially) as the serial mesh */
  shared_name(out, sizeof out, "iompi-out.h5");
  ck_tsr(tsr_mesh_write(MPI_COMM_WORLD, out, b, NULL));
  rc = 0;
  int same = 1;
  if (rank == 0) {
    rc = tsr_mesh_read(MPI_COMM_SELF, out, &spec, &w);
    for (int i = 0; !rc && i < tsr_mesh_ndats(s); i++) {
      const tsr_dat_t *a = tsr_mesh_dat(s, i), *c = tsr_mesh_dat(w, i);
      same &= memcmp(a->data, c->data, (size_t)tsr_mesh_set(s, a->set)->size * a->dim * tsr_dtype_size(a->type)) == 0;
    }
    for (int i = 0; !rc && i < tsr_mesh_nmaps(s); i++) {
      const tsr_map_t *a = tsr_mesh_map(s, i), *c = tsr_mesh_map(w, i);
      same &= memcmp(a->data, c->data, (size_t)tsr_mesh_set(s, a->from)->size * a->dim * 4) == 0;
    }
    unlink(out);
    if (generated) unlink(path);
  }
  ck_assert(tsr_test_all(rc == 0 && same));
  tsr_mesh_destroy(&b);
  tsr_mesh_destroy(&s);
  tsr_mesh_destroy(&w);
}
END_TEST

static double value(tsr_idx_t i) { /* deterministic, non-zero, global-index based */
  unsigned long long st = 0x1234ULL + (unsigned long long)i * 7919ULL;
  return tsr_test_rand(&st, 0.5, 2.0);
}

START_TEST(test_grid_parallel_equals_serial) {
  tsr_grid_t g = {9, 6, 11, {1, 1, 1}};
  tsr_idx_t plane = g.nx * g.ny, z0, nzl;
  tsr_mesh_block_rows(g.nz, nranks, rank, &z0, &nzl);
  double *mine = malloc((size_t)(nzl * plane + 1) * sizeof *mine);
  for (tsr_idx_t k = 0; k < nzl * plane; k++) mine[k] = value(z0 * plane + k);
  char par[1024], ser[1024];
  shared_name(par, sizeof par, "iompi-par.h5");
  shared_name(ser, sizeof ser, "iompi-ser.h5");
  tsr_file_t *f = NULL;
  ck_tsr(tsr_file_create(MPI_COMM_WORLD, par, &f));
  ck_tsr(tsr_grid_write_header(f, &g));
  ck_tsr(tsr_grid_write_field(f, &g, "u", TSR_DOUBLE, z0, nzl, mine));
  ck_tsr(tsr_file_close(&f));
  int ok = 1;
  if (rank == 0) {
    tsr_idx_t n = g.nz * plane;
    double *all = malloc((size_t)n * sizeof *all), *a = malloc((size_t)n * sizeof *a),
           *b = malloc((size_t)n * sizeof *b);
    for (tsr_idx_t k = 0; k < n; k++) all[k] = value(k);
    ok = tsr_file_create(MPI_COMM_SELF, ser, &f) == 0 && tsr_grid_write_header(f, &g) == 0 &&
         tsr_grid_write_field(f, &g, "u", TSR_DOUBLE, 0, g.nz, all) == 0 && tsr_file_close(&f) == 0;
    tsr_grid_t h;
    ok = ok && tsr_file_open(MPI_COMM_SELF, par, &f) == 0 && tsr_grid_read_header(f, &h) == 0 &&
         tsr_grid_read_field(f, &h, "u", TSR_DOUBLE, 0, h.nz, a) == 0 && tsr_file_close(&f) == 0;
    ok = ok && tsr_file_open(MPI_COMM_SELF, ser, &f) == 0 &&
         tsr_grid_read_field(f, &g, "u", TSR_DOUBLE, 0, g.nz, b) == 0 && tsr_file_close(&f) == 0;
    ok = ok && memcmp(a, b, (size_t)n * sizeof *a) == 0 && memcmp(a, all, (size_t)n * sizeof *a) == 0;
    free(all), free(a), free(b);
    unlink(ser);
  }
  ck_assert(tsr_test_all(ok));
  /* and every rank reads its own planes back */
  double *back = malloc((size_t)(nzl * plane + 1) * sizeof *back);
  ck_tsr(tsr_file_open(MPI_COMM_WORLD, par, &f));
  ck_tsr(tsr_grid_read_field(f, &g, "u", TSR_DOUBLE, z0, nzl, back));
  ck_tsr(tsr_file_close(&f));
  ck_assert(tsr_test_all(memcmp(back, mine, (size_t)(nzl * plane) * sizeof *back) == 0));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(par);
  free(mine);
  free(back);
}
END_TEST

START_TEST(test_errors_agree) {
  /* a rank-local problem (one rank asks for rows beyond the end) fails on all
   * ranks with the same message, and nothing hangs */
  char path[1024];
  shared_name(path, sizeof path, "iompi-err.h5");
  tsr_grid_t g = {4, 3, 5, {0, 0, 0}};
  double buf[60] = {0};
  tsr_file_t *f = NULL;
  ck_tsr(tsr_file_create(MPI_COMM_WORLD, path, &f));
  ck_tsr(tsr_grid_write_header(f, &g));
  ck_tsr(tsr_grid_write_field(f, &g, "u", TSR_DOUBLE, 0, rank == 0 ? 5 : 0, buf));
  ck_tsr(tsr_file_close(&f));
  ck_tsr(tsr_file_open(MPI_COMM_WORLD, path, &f));
  int rc = tsr_file_read_rows(f, "/fields/u", rank == nranks - 1 ? 4 : 0, 2, TSR_DOUBLE, buf);
  ck_assert_int_eq(rc, TSR_ERR_FORMAT);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "rows [4, 6) requested, found 5 rows"));
  tsr_error_clear();
  ck_tsr(tsr_file_close(&f));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(path);
}
END_TEST

/* Ranks that pass different provenance (only rank 0 knows the variant and
 * device, say) must not hang parallel HDF5 at close: rank 0's strings are
 * written. */
START_TEST(test_provenance_differs_per_rank) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[256] = "";
  if (rank == 0) tsr_test_tmpname(path, sizeof path, "prov.h5");
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  tsr_file_t *f = NULL;
  ck_tsr(tsr_file_create(MPI_COMM_WORLD, path, &f));
  char variant[64];
  snprintf(variant, sizeof variant, "%s-%d", rank == 0 ? "from-rank-zero" : "other", rank * 7);
  tsr_provenance_t p = {"check_io_mpi", variant, rank == 0 ? "the device of rank 0" : NULL,
                        rank == 0 ? "a long command line" : "x", 0};
  ck_tsr(tsr_file_write_provenance(f, &p));
  ck_tsr(tsr_file_close(&f));
  ck_tsr(tsr_file_open(MPI_COMM_WORLD, path, &f));
  char buf[128];
  ck_tsr(tsr_file_attr_string(f, NULL, "variant", buf, sizeof buf));
  int ok = strcmp(buf, "from-rank-zero-0") == 0;
  ck_tsr(tsr_file_attr_string(f, NULL, "device", buf, sizeof buf));
  ok = ok && strcmp(buf, "the device of rank 0") == 0;
  ck_tsr(tsr_file_close(&f));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(path);
  ck_assert_msg(tsr_test_all(ok), "provenance is not rank 0's on every rank");
}
END_TEST

static Suite *io_mpi_suite(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  Suite *s = suite_create("io_mpi");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_block_read_equals_serial);
  tcase_add_test(tc, test_grid_parallel_equals_serial);
  tcase_add_test(tc, test_errors_agree);
  tcase_add_test(tc, test_provenance_differs_per_rank);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, io_mpi_suite); }
