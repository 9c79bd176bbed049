/* mesh_halo.c: a program of one's own built against an installed libtessera.
 *
 *   mpicc mesh_halo.c $(pkg-config --cflags --libs tessera) -o mesh_halo
 *   tsr-mkairfoil --size 40x60 -o mesh.h5
 *   mpirun -np 2 ./mesh_halo mesh.h5
 *
 * (or with CMake: examples/CMakeLists.txt, find_package(Tessera)). It shows
 * the library's main pieces, each checked:
 *   1. layouts: a field on a tiled layout with a halo, copied to row-major by
 *      tsr_layout_transform;
 *   2. neighbour tables: the same field stored in a random order of the X-Y
 *      plane, its 5-point Laplacian taken through the tables, equal to the
 *      one taken through the row-major layout;
 *   3. a mesh read: OP2's airfoil mesh (sets, maps, dats) read in blocks by
 *      every rank, then partitioned with METIS;
 *   4. a halo exchange: the node coordinates of the halo rows overwritten,
 *      refreshed from their owners, and compared with the originals.
 * Exit status 0 when every check holds; errors print one line and exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <tessera.h>

/* Every rank agrees on the first error, rank 0 prints it, all exit 1. */
static void check(int e) {
  e = tsr_error_agree(MPI_COMM_WORLD, e);
  if (e) tsr_abort(MPI_COMM_WORLD, e);
}

/* f(x, y, z) = x^2 + 3 y^2 + z: its X-Y Laplacian is 2 + 6 = 8 everywhere. */
static double f(int64_t x, int64_t y, int64_t z) { return (double)(x * x + 3 * y * y + z); }

/* 1 and 2: layouts and neighbour tables on a local 12 x 10 x 3 grid with a
 * halo of one cell. Returns the cells whose two Laplacians differ from 8. */
static long layouts_and_tables(void) {
  const int64_t n[3] = {12, 10, 3};
  tsr_layout_t tiled = tsr_layout_with_halo(tsr_layout_tiled(TSR_LAYOUT_RC, n[0], n[1], n[2]), 1, 1, 0);
  tsr_layout_t rm = tsr_layout_with_halo(tsr_layout_rowmajor(n[0], n[1], n[2]), 1, 1, 0);
  check(tsr_layout_check(&tiled) ? tsr_layout_check(&tiled) : tsr_layout_check(&rm));
  const int64_t dx = tsr_layout_extent(&rm, 'x'), dy = tsr_layout_extent(&rm, 'y'),
                dz = tsr_layout_extent(&rm, 'z');
  double *a = calloc((size_t)tsr_layout_size(&tiled), sizeof *a);
  double *b = calloc((size_t)tsr_layout_size(&rm), sizeof *b);
  int64_t *order = malloc((size_t)(dx * dy) * sizeof *order);
  double *u = malloc((size_t)(dx * dy * dz) * sizeof *u);
  if (!a || !b || !order || !u) check(TSR_RAISE(TSR_ERR_ALLOC, "example: out of memory"));
  for (int64_t z = 0; z < dz; z++)
    for (int64_t y = 0; y < dy; y++)
      for (int64_t x = 0; x < dx; x++) a[tsr_layout_offset(&tiled, x, y, z, 0)] = f(x, y, z);
  check(tsr_layout_transform(&tiled, a, &rm, b, sizeof *a));

  /* the plane in a random order, and its depth-1 tables (4 relations) */
  tsr_neigh_t *nb = NULL;
  tsr_neigh_view_t v;
  check(tsr_neigh_order_random(dx, dy, 42, order));
  check(tsr_neigh_create(dx, dy, dz, order, 1, TSR_NEIGH_ZREGULAR, &nb));
  check(tsr_neigh_view(nb, TSR_NEIGH_HOST, &v));
  for (int64_t z = 0; z < dz; z++)
    for (int64_t y = 0; y < dy; y++)
      for (int64_t x = 0; x < dx; x++) u[order[x + dx * y] + z * v.plane] = f(x, y, z);

  long bad = 0;
  for (int64_t z = 0; z < dz; z++)
    for (int64_t y = 1; y < dy - 1; y++)
      for (int64_t x = 1; x < dx - 1; x++) {
        const int64_t c = tsr_layout_rm_cell(&rm, x, y, z);
        const double lap_layout = b[c - 1] + b[c + 1] + b[c - rm.sy] + b[c + rm.sy] - 4 * b[c];
        const int64_t i = order[x + dx * y] + z * v.plane, k = i % v.plane;
        double lap_tables = -4 * u[i];
        for (int r = 0; r < v.m; r++) lap_tables += u[i + v.tab[r * v.n + k]];
        if (lap_layout != 8 || lap_tables != 8) bad++;
      }
  tsr_neigh_destroy(&nb);
  free(a);
  free(b);
  free(order);
  free(u);
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tsr_error_set_progname("mesh_halo");
  if (argc != 2) {
    if (rank == 0) fprintf(stderr, "usage: mesh_halo MESH.h5 (OP2's airfoil layout, e.g. from tsr-mkairfoil)\n");
    MPI_Finalize();
    return 2;
  }
  long bad = layouts_and_tables(), allbad = 0;
  MPI_Allreduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("layouts and neighbour tables: 5-point Laplacian %s\n", allbad ? "WRONG" : "ok (8 everywhere)");

  /* 3: the cells, their nodes (map pcell) and the node coordinates p_x */
  const tsr_io_map_t maps[] = {{"pcell", "cells", "nodes"}};
  const tsr_io_dat_t dats[] = {{"p_x", "nodes", TSR_DOUBLE}};
  const tsr_mesh_spec_t spec = {0, NULL, 1, maps, 1, dats, 0, NULL};
  tsr_mesh_t *blocks = NULL, *mesh = NULL;
  check(tsr_mesh_read(MPI_COMM_WORLD, argv[1], &spec, &blocks));
  const tsr_mesh_part_opts_t opts = {"cells", "pcell", TSR_PARTITIONER_METIS, NULL};
  check(tsr_mesh_partition(MPI_COMM_WORLD, blocks, &opts, &mesh));
  tsr_mesh_destroy(&blocks);

  const tsr_set_t *cells = tsr_mesh_set(mesh, tsr_mesh_find_set(mesh, "cells"));
  const tsr_set_t *nodes = tsr_mesh_set(mesh, tsr_mesh_find_set(mesh, "nodes"));
  const tsr_map_t *pcell = tsr_mesh_map(mesh, tsr_mesh_find_map(mesh, "pcell"));
  tsr_dat_t *px = tsr_mesh_dat(mesh, tsr_mesh_find_dat(mesh, "p_x"));
  /* the mesh's area: each owned quadrilateral by the shoelace formula,
   * through the map (its nodes may be halo rows) */
  const double *x = px->data;
  double area = 0, total = 0;
  for (tsr_idx_t c = 0; c < cells->owned; c++) {
    const int32_t *q = pcell->data + 4 * c;
    for (int k = 0; k < 4; k++) {
      const double *p0 = x + 2 * q[k], *p1 = x + 2 * q[(k + 1) % 4];
      area += 0.5 * (p0[0] * p1[1] - p1[0] * p0[1]);
    }
  }
  MPI_Allreduce(&area, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long long counts[2] = {(long long)cells->owned, (long long)(nodes->size - nodes->owned)}, maxc[2];
  MPI_Allreduce(counts, maxc, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("mesh %s: %lld cells, %lld nodes on %d rank%s (at most %lld cells and %lld halo nodes "
           "a rank), area %.6f\n",
           argv[1], (long long)cells->global_size, (long long)nodes->global_size, size,
           size > 1 ? "s" : "", maxc[0], maxc[1], fabs(total));

  /* 4: overwrite the halo rows of p_x, refresh them from their owners */
  const size_t nh = (size_t)(nodes->size - nodes->owned) * 2;
  double *saved = malloc((nh ? nh : 1) * sizeof *saved);
  if (!saved) check(TSR_RAISE(TSR_ERR_ALLOC, "example: out of memory"));
  double *halo_rows = (double *)px->data + 2 * nodes->owned;
  memcpy(saved, halo_rows, nh * sizeof *saved);
  for (size_t i = 0; i < nh; i++) halo_rows[i] = -1e300;
  tsr_device_t cpu;
  tsr_halo_t *h = NULL;
  check(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  check(tsr_halo_create_mesh(MPI_COMM_WORLD, mesh, px->set, &h));
  check(tsr_halo_exchange(h, &cpu, px->data, px->dim, px->type));
  bad = memcmp(saved, halo_rows, nh * sizeof *saved) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("halo exchange of p_x: %s\n", bad ? "WRONG" : "ok (every halo row equals its owner's)");
  tsr_halo_destroy(&h);
  tsr_mesh_destroy(&mesh);
  free(saved);
  const int ok = !bad && !allbad && total != 0;
  if (rank == 0) printf("mesh_halo: %s\n", ok ? "all checks passed" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
