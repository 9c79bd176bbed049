/* tests/lulesh_check.h: what the LULESH check suites share (tests/cuda,
 * tests/mpi): the one-rank CPU run of LULESH's Sedov cube they compare
 * against, relative differences, the agreement of the copies of shared
 * nodes, and the VolumeError a collapsed element raises on one rank of a
 * distributed run. */
#ifndef TSR_TESTS_LULESH_CHECK_H
#define TSR_TESTS_LULESH_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tsr_check.h"
#include "kernels/lulesh/lulesh_dist.h"

/* |a - b| relative to |b| (b = 0: absolute, to 1e-300). */
static inline double lulesh_test_rel(double a, double b) {
  return fabs(a - b) / fmax(fabs(b), 1e-300);
}

/* LULESH's Sedov cube of edge nx (11 regions, balance 1) in *m, run on the
 * CPU on one rank (cost 1) for its cycles (0: to the stop time): the final
 * state in *s, the result in *r. The caller frees s and m. */
static inline void lulesh_test_serial_run(int nx, int its, lulesh_mesh_t *m, lulesh_state_t *s,
                                          lulesh_result_t *r) {
  ck_tsr(lulesh_mesh_sedov(m, nx, 11, 1));
  ck_tsr(lulesh_state_init(s, m, 1));
  ck_tsr(lulesh_run(s, its, r));
}

/* This rank's part of LULESH's Sedov problem decomposed by dec (size:
 * elements per cube edge for METIS, per rank's cube for CUBE; 11 regions,
 * balance 1) in *m with its exchanges *d, and a state on it (cost 1) that
 * runs with them in *s. The caller frees s, d and m. Collective. */
static inline void lulesh_test_dist_state(lulesh_decomp_t dec, int size, lulesh_mesh_t *m,
                                          lulesh_dist_t **d, lulesh_state_t *s) {
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, dec, size, 11, 1, m, d));
  ck_tsr(lulesh_state_init_ex(s, m, 1, lulesh_dist_exchange(*d)));
}

/* The largest difference between the copies of a shared node (lulesh_dist_
 * node_copy_diff) of the positions (*cx) and velocities (*cv) of the state
 * s of d's parts: 0 when every copy holds the same bits. Collective. */
static inline void lulesh_test_copy_diffs(lulesh_dist_t *d, const lulesh_state_t *s, double *cx,
                                          double *cv) {
  double *pos[3] = {s->x, s->y, s->z}, *vel[3] = {s->xd, s->yd, s->zd};
  ck_tsr(lulesh_dist_node_copy_diff(d, 3, pos, cx));
  ck_tsr(lulesh_dist_node_copy_diff(d, 3, vel, cv));
}

/* On the last rank of MPI_COMM_WORLD only: element 0 of m collapsed onto
 * its first corner in the positions of s, so that the next step meets a
 * VolumeError there. */
static inline void lulesh_test_collapse_on_last(const lulesh_mesh_t *m, lulesh_state_t *s) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != size - 1) return;
  for (int q = 1; q < 8; q++) {
    int32_t a = m->nodelist[0], b = m->nodelist[q];
    s->x[b] = s->x[a], s->y[b] = s->y[a], s->z[b] = s->z[a];
  }
}

/* The step after lulesh_test_collapse_on_last (the run's second cycle)
 * returned rc: a VolumeError on every rank, its message naming the cycle
 * and the last rank. Clears the error. */
static inline void lulesh_test_volume_error_everywhere(int rc) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ck_assert_int_eq(rc, LULESH_VOLUME_ERROR);
  char want[64];
  snprintf(want, sizeof want, "(on rank %d of %d;", size - 1, size);
  ck_assert_msg(strstr(tsr_error_message(), "VolumeError at cycle 2") != NULL &&
                    strstr(tsr_error_message(), want) != NULL,
                "%s", tsr_error_message());
  tsr_error_clear();
}

#endif /* TSR_TESTS_LULESH_CHECK_H */
