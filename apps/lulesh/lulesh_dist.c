/* apps/lulesh/lulesh_dist.c: tsr-lulesh on several ranks: the mesh of the
 * run (the whole cube on one rank, a rank's part of LULESH's cube
 * decomposition, of the block grid or of a METIS partition on several:
 * kernels/lulesh/lulesh_dist.h), the partition's balance, LULESH's banner
 * and the run's global outcome (e(0) from
 * the rank holding the origin, the total energy summed over ranks, the
 * symmetry test over plane 0 of the global cube). */
#include "config.h"
#include "apps/lulesh/lulesh_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"

int lulesh_app_mesh(MPI_Comm comm, lulesh_opts_t *o, const char *decomp, lulesh_mesh_t *mesh,
                    lulesh_dist_t **dist) {
  int nranks;
  MPI_Comm_size(comm, &nranks);
  *dist = NULL;
  lulesh_decomp_t dec = lulesh_decomp_default(nranks);
  TSR_CHECK(!decomp || lulesh_decomp_parse(decomp, &dec) == 0, TSR_ERR_ARG,
            "option --decomp: '%s', expected cube, block or metis", decomp);
  o->ranks = nranks;
  o->global_edge = o->edge;
  o->decomp = NULL;
  if (nranks == 1) /* every decomposition of one rank: the whole cube of edge -s */
    return lulesh_mesh_sedov(mesh, o->edge, o->regions, o->balance);
  TSR_CALL(lulesh_dist_create(comm, dec, o->edge, o->regions, o->balance, mesh, dist));
  lulesh_dist_info_t in;
  lulesh_dist_info(*dist, &in);
  o->global_edge = in.edge;
  o->decomp = lulesh_decomp_name(dec);
  lulesh_app_part_stats(comm, *dist, mesh->num_elem, o);
  if (dec == LULESH_DECOMP_BLOCK) TSR_CALL(lulesh_block_dims(nranks, in.edge, o->dims));
  return 0;
}

void lulesh_app_part_stats(MPI_Comm comm, lulesh_dist_t *dist, int64_t num_elem, lulesh_opts_t *o) {
  lulesh_dist_info_t in;
  lulesh_dist_info(dist, &in);
  int64_t v[3] = {0, in.num_shared_owned, in.num_shared}, ne = 0;
  MPI_Allreduce(MPI_IN_PLACE, v + 1, 2, MPI_INT64_T, MPI_SUM, comm);
  const int64_t mine = num_elem;
  MPI_Allreduce(&mine, &v[0], 1, MPI_INT64_T, MPI_MAX, comm);
  MPI_Allreduce(&mine, &ne, 1, MPI_INT64_T, MPI_SUM, comm);
  o->part_max = v[0], o->iface_nodes = v[1], o->iface_copies = v[2];
  o->part_avg = (double)ne / in.nranks;
  o->dims[0] = o->dims[1] = o->dims[2] = 0;
}

void lulesh_app_part_print(const lulesh_opts_t *o) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 || o->ranks < 2 || o->part_avg <= 0) return;
  char grid[48] = "";
  if (o->dims[0] > 0) snprintf(grid, sizeof grid, "%d x %d x %d boxes, ", o->dims[0], o->dims[1], o->dims[2]);
  printf("Partition: %selements per rank max %lld, mean %.1f (max/mean %.4f); %lld interface "
         "nodes, %lld copies\n",
         grid, (long long)o->part_max, o->part_avg, (double)o->part_max / o->part_avg,
         (long long)o->iface_nodes, (long long)o->iface_copies);
}

void lulesh_app_banner(const lulesh_opts_t *o, const lulesh_mesh_t *mesh) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  const char *per = o->decomp && strcmp(o->decomp, "cube") != 0 ? "in all" : "per domain";
  if (o->its > 0)
    printf("Running problem size %d^3 %s for at most %d cycles\n", o->edge, per, o->its);
  else
    printf("Running problem size %d^3 %s until completion\n", o->edge, per);
  long long ne = (long long)o->global_edge * o->global_edge * o->global_edge;
  if (o->decomp)
    printf("Num processors: %d (%s decomposition, global cube %d^3)\n", o->ranks, o->decomp,
           o->global_edge);
  else
    printf("Num processors: 1\n");
  printf("Total number of elements: %lld\n", o->ranks > 1 ? ne : (long long)mesh->num_elem);
  if (o->decomp) lulesh_app_part_print(o);
  printf("Regions: %d, balance %d, cost %d\n\n", o->regions, o->balance, o->cost);
}

/* Plane 0 of a distributed file's cube (any numbering): the owned elements
 * whose centroid (initial coordinates) lies in the lowest layer of cells,
 * at their cell (i, j), gathered to rank 0. Collective. */
static int plane0_by_position(const lulesh_state_t *s, int nx, double *plane) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const lulesh_mesh_t *m = s->mesh;
  int P, rank;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &rank);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  const double *c[3] = {m->x, m->y, m->z};
  for (int32_t n = 0; n < m->num_node; n++)
    for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], c[d][n]), hi[d] = fmax(hi[d], c[d][n]);
  MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, comm);
  double *v = malloc(sizeof *v * 2 * (size_t)(m->num_elem + 1));
  int *cnt = rank == 0 ? malloc(sizeof *cnt * 2 * (size_t)P) : NULL;
  double *all = rank == 0 ? malloc(sizeof *all * 2 * (size_t)nx * (size_t)nx + 1) : NULL;
  int rc = v && (rank || (cnt && all && plane)) ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory "
                                                                "for plane 0");
  rc = tsr_error_agree(comm, rc);
  int k = 0;
  for (int32_t e = 0; !rc && e < m->num_elem; e++) {
    int at[3];
    for (int d = 0; d < 3; d++) {
      double sum = 0.0;
      for (int q = 0; q < 8; q++) sum += c[d][m->nodelist[8 * (int64_t)e + q]];
      at[d] = (int)((sum / 8.0 - lo[d]) / (hi[d] - lo[d]) * nx);
    }
    if (at[2] == 0 && at[0] >= 0 && at[0] < nx && at[1] >= 0 && at[1] < nx)
      v[2 * k] = (double)at[1] * nx + at[0], v[2 * k + 1] = s->e[e], k++;
  }
  if (!rc) {
    int n2 = 2 * k;
    MPI_Gather(&n2, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm);
    if (rank == 0)
      for (int q = 0, o = 0; q < P; q++) cnt[P + q] = o, o += cnt[q];
    int tot = 0;
    for (int q = 0; rank == 0 && q < P; q++) tot += cnt[q];
    if (rank == 0 && tot != 2 * nx * nx)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh: plane 0 has %d elements, not %d", tot / 2, nx * nx);
    MPI_Gatherv(v, n2, MPI_DOUBLE, all, cnt, cnt ? cnt + P : NULL, MPI_DOUBLE, 0, comm);
    for (int i = 0; !rc && rank == 0 && i < nx * nx; i++) plane[(int64_t)all[2 * i]] = all[2 * i + 1];
  }
  free(v), free(cnt), free(all);
  return tsr_error_agree(comm, rc);
}

int lulesh_app_outcome(lulesh_dist_t *dist, const lulesh_opts_t *o, const lulesh_state_t *s,
                       lulesh_outcome_t *out) {
  TSR_CALL(lulesh_state_result(s, &out->res));
  int nx = o->global_edge;
  out->zones = (double)nx * nx * nx;
  out->have_sym = 0;
  if (!dist) { /* one rank: plane 0 found by position */
    out->zones = (double)s->num_elem;
    out->have_sym = lulesh_symmetry_one_rank(o, s, out->sym);
    return 0;
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (nx <= 0) return 0; /* a file that is not a cube: no symmetry test */
  double *plane = rank == 0 ? malloc(sizeof(double) * (size_t)nx * (size_t)nx) : NULL;
  int rc = o->input ? plane0_by_position(s, nx, plane) : lulesh_dist_gather_plane0(dist, s->e, plane);
  if (!rc && rank == 0) {
    lulesh_symmetry_test(plane, nx, out->sym);
    out->have_sym = 1;
  }
  free(plane);
  if (!rc) { /* every rank's check decides the same */
    double b[4] = {out->sym[0], out->sym[1], out->sym[2], out->have_sym};
    TSR_CALL_MPI(MPI_Bcast(b, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    out->sym[0] = b[0], out->sym[1] = b[1], out->sym[2] = b[2], out->have_sym = b[3] != 0;
  }
  return rc;
}
