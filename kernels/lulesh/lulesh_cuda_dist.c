/* kernels/lulesh/lulesh_cuda_dist.c: LULESH's cycle on one GPU of a
 * distributed run (lulesh_cuda.h: lulesh_cuda_step_dist): the stage
 * launchers of lulesh_cuda.cu with the exchanges of the run's hook table
 * (kernels/lulesh/lulesh_dist.h) between them, on the device arrays. The
 * hooks pack and unpack with kernels on the default stream, where the
 * stages run, so the order of the two needs no extra wait. Built with CUDA
 * only (plain C: it calls the launchers and the hooks). */
#include "config.h"

#include "tessera/device.h"
#include "tessera/error.h"
#include "kernels/lulesh/lulesh_cuda.h"
#include "kernels/lulesh/lulesh_dist.h"

int lulesh_cuda_step_dist(lulesh_cuda_t *d, lulesh_state_t *s) {
  const lulesh_exchange_t *ex = s->ex;
  TSR_CHECK(ex, TSR_ERR_ARG, "lulesh cuda: a distributed step needs the run's exchanges");
  const tsr_device_t dev = {TSR_DEV_CUDA, d->device_id, "CUDA"};
  lulesh_time_increment(s);
  const double dt = s->deltatime;
  /* A failed launch (err) skips the remaining stages, never an exchange:
   * the other ranks wait in them. VolumeError and QStopError are read back
   * with the dt constraints, after the last exchange. */
  int err = lulesh_cuda_node_forces(d);
  double *f[3] = {d->fx, d->fy, d->fz};
  TSR_CALL(ex->node_sum(ex->ctx, &dev, 3, f));
  if (!err) err = lulesh_cuda_update_nodes(d, dt);
  if (!err) err = lulesh_cuda_kinematics(d, dt);
  TSR_CALL(ex->elem_ghosts(ex->ctx, &dev, 3, d->delvg));
  if (!err) err = lulesh_cuda_monoq_eos(d);
  if (!err) err = lulesh_cuda_time_constraints(d, s);
  double v[3] = {s->dtcourant, s->dthydro, err ? 0.0 : 1.0};
  TSR_CALL(ex->min(ex->ctx, 3, v));
  if (v[2] == 0.0) return ex->agree(ex->ctx, err);
  s->dtcourant = v[0];
  s->dthydro = v[1];
  return 0;
}
