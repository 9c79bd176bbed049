/* apps/lulesh/lulesh_dist.c: tsr-lulesh on several ranks: the mesh of the
 * run (the whole cube on one rank, a rank's part of LULESH's cube
 * decomposition or of a METIS partition on several: kernels/lulesh/
 * lulesh_dist.h), LULESH's banner and the run's global outcome (e(0) from
 * the rank holding the origin, the total energy summed over ranks, the
 * symmetry test over plane 0 of the global cube). */
#include "config.h"
#include "apps/lulesh/lulesh_app.h"

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
  if (decomp && strcmp(decomp, "cube") == 0) dec = LULESH_DECOMP_CUBE;
  else if (decomp && strcmp(decomp, "metis") == 0) dec = LULESH_DECOMP_METIS;
  else
    TSR_CHECK(!decomp, TSR_ERR_ARG, "option --decomp: '%s', expected cube or metis", decomp);
  o->ranks = nranks;
  o->global_edge = o->edge;
  o->decomp = NULL;
  if (nranks == 1) /* both decompositions of one rank: the whole cube of edge -s */
    return lulesh_mesh_sedov(mesh, o->edge, o->regions, o->balance);
  TSR_CALL(lulesh_dist_create(comm, dec, o->edge, o->regions, o->balance, mesh, dist));
  lulesh_dist_info_t in;
  lulesh_dist_info(*dist, &in);
  o->global_edge = in.edge;
  o->decomp = lulesh_decomp_name(dec);
  return 0;
}

void lulesh_app_banner(const lulesh_opts_t *o, const lulesh_mesh_t *mesh) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  const char *per = o->decomp && strcmp(o->decomp, "metis") == 0 ? "in all" : "per domain";
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
  printf("Regions: %d, balance %d, cost %d\n\n", o->regions, o->balance, o->cost);
}

int lulesh_app_outcome(lulesh_dist_t *dist, const lulesh_opts_t *o, const lulesh_state_t *s,
                       lulesh_outcome_t *out) {
  TSR_CALL(lulesh_state_result(s, &out->res));
  int nx = o->global_edge;
  out->zones = (double)nx * nx * nx;
  out->have_sym = 0;
  if (!dist) { /* one rank: lulesh_print_completed finds plane 0 by position */
    out->zones = (double)s->num_elem;
    return 0;
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *plane = rank == 0 ? malloc(sizeof(double) * (size_t)nx * (size_t)nx) : NULL;
  int rc = lulesh_dist_gather_plane0(dist, s->e, plane);
  if (!rc && rank == 0) {
    lulesh_symmetry_test(plane, nx, out->sym);
    out->have_sym = 1;
  }
  free(plane);
  return rc;
}
