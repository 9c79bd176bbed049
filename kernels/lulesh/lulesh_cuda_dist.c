/* kernels/lulesh/lulesh_cuda_dist.c: LULESH's cycle on one GPU of a
 * distributed run (lulesh_cuda.h: lulesh_cuda_step_dist): the stage
 * launchers of lulesh_cuda.cu with the exchanges of the run's hook table
 * (kernels/lulesh/lulesh_dist.h) on the device arrays, either between the
 * stages on the default stream (no overlap) or on a second queue beside the
 * interior parts of the stages (overlap, the default). Built with CUDA only
 * (plain C: it calls the launchers and the hooks). */
#include "config.h"

#include "tessera/device.h"
#include "tessera/error.h"
#include "kernels/lulesh/lulesh_cuda.h"
#include "kernels/lulesh/lulesh_dist.h"

int lulesh_cuda_dist_setup(lulesh_cuda_t *d, const lulesh_state_t *s,
                           const lulesh_cuda_opts_t *o) {
  const lulesh_exchange_t *ex = s->ex;
  if (!ex || !ex->split || !ex->set_stream || o->no_overlap) return 0;
  const lulesh_split_t *sp = ex->split;
  TSR_CHECK(sp->num_elem == d->num_elem && sp->num_node == d->num_node, TSR_ERR_ARG,
            "lulesh cuda: the split's %d elements, %d nodes do not match the state's %d, %d",
            sp->num_elem, sp->num_node, d->num_elem, d->num_node);
  const tsr_device_t dev = {TSR_DEV_CUDA, d->device_id, "CUDA"};
  int32_t **dst[3] = {&d->sp_elem, &d->sp_node, &d->sp_kin};
  const int32_t *src[3] = {sp->elem, sp->node, sp->kin};
  const int32_t len[3] = {sp->num_elem, sp->num_node, sp->num_elem};
  const int32_t first[3] = {sp->num_bnd, sp->num_shared, sp->num_send};
  for (int k = 0; k < 3; k++)
    for (int p = 0; p < 2; p++) {
      const int32_t o = p ? first[k] : 0, n = p ? len[k] - first[k] : first[k];
      int32_t i = 0;
      while (i < n && src[k][o + i] == src[k][o] + i) i++;
      d->sp_base[k][p] = n > 0 && i == n ? src[k][o] : -1;
    }
  for (int k = 0; k < 3; k++) {
    TSR_CALL(tsr_device_malloc(&dev, sizeof(int32_t) * ((size_t)len[k] + 1), (void **)dst[k]));
    if (len[k])
      TSR_CALL(tsr_device_upload(&dev, *dst[k], src[k], sizeof(int32_t) * (size_t)len[k]));
  }
  TSR_CALL(tsr_queue_create(&dev, &d->queue));
  d->split = sp;
  /* atomic adds and GATHER's per-corner stores let part 0's kernels run
     beside part 1's (parts_beside) */
  if (d->assembly == LULESH_ASM_ATOMIC || d->assembly == LULESH_ASM_GATHER)
    d->part0_stream = tsr_queue_stream(d->queue);
  return 0;
}

/* The cycle with each exchange between two stages, on the default stream. */
static int step_serial(lulesh_cuda_t *d, lulesh_state_t *s, double dt, int *err) {
  const lulesh_exchange_t *ex = s->ex;
  const tsr_device_t dev = {TSR_DEV_CUDA, d->device_id, "CUDA"};
  double *f[3] = {d->fx, d->fy, d->fz};
  *err = lulesh_cuda_node_forces(d);
  TSR_CALL(ex->node_sum(ex->ctx, &dev, 3, f));
  if (!*err) *err = lulesh_cuda_update_nodes(d, dt);
  if (!*err) *err = lulesh_cuda_kinematics(d, dt);
  TSR_CALL(ex->elem_ghosts(ex->ctx, &dev, 3, d->delvg));
  return 0;
}

/* The parts in turn, with the exchanges on d->queue beside the interior work.
 *
 * Which stream touches what, and the event that orders it:
 *   default  [A] zero fx, fy, fz (assemblies that add), the forces of the
 *            elements touching shared nodes (GATHER: their corner forces
 *            into fs, fh and the gather of the shared nodes into fx, fy,
 *            fz): after [A] the shared nodes' fx, fy, fz are complete.
 *   wait_default: the queue's work starts after [A].
 *   default  [B] the other elements' forces: they add only into nodes that
 *            are not shared (GATHER: write fs, fh of their own corners), and
 *            the update of the nodes that are not shared (GATHER: with the
 *            gather of those nodes from fs, fh, which [A] and [B] wrote
 *            before on this stream): reads and writes fx, fy, fz, x, y, z,
 *            xd, yd, zd of the unshared nodes only.
 *   queue    [Q1] node_sum: packs fx, fy, fz of the shared nodes, exchanges,
 *            adds, unpacks into the shared nodes' fx, fy, fz (its buffers
 *            are the exchange's own): no index [B] touches.
 *   join_default: the default stream's next work waits for [Q1].
 *   default  [C] update of the shared nodes (their summed forces); then the
 *            kinematics of the elements sent as ghosts (their nodes' new x
 *            and xd are complete after [B] and [C]): delvg of those elements.
 *   wait_default: the queue's next work starts after [C].
 *   default  [D] the other elements' kinematics: writes vnew, delv,
 *            arealg, vdov, delx, delvg of those elements only.
 *   queue    [Q2] elem_ghosts: packs delvg of the sent elements (written in
 *            [C]), exchanges, unpacks into the ghost entries [ne, ne + ng)
 *            of delvg, which no kernel of [D] reads or writes.
 *   join_default: the monotonic Q (which reads the ghosts' delvg) waits for
 *            [Q2].
 * The host blocks inside the exchanges (MPI), after [B] and [D] are
 * queued, so the GPU runs them meanwhile. The arithmetic of every element
 * and node is the whole stages', so GATHER keeps its bits; the assemblies
 * that add change only the order of the additions into the nodes that
 * elements of both parts touch. */
static int parts_in_turn(lulesh_cuda_t *d, const lulesh_exchange_t *ex, const tsr_device_t *dev,
                         double dt, int *err) {
  double *f[3] = {d->fx, d->fy, d->fz};
  tsr_queue_t *q = d->queue;
  *err = lulesh_cuda_node_forces_part(d, 0);                     /* [A] */
  int rc = tsr_queue_wait_default(q);
  if (!*err) *err = lulesh_cuda_node_forces_part(d, 1);          /* [B] */
  if (!*err) *err = lulesh_cuda_update_nodes_part(d, dt, 1);
  if (!rc) rc = ex->node_sum(ex->ctx, dev, 3, f);                /* [Q1] */
  if (!rc) rc = tsr_queue_join_default(q);
  if (!rc && !*err) *err = lulesh_cuda_update_nodes_part(d, dt, 0); /* [C] */
  if (!rc && !*err) *err = lulesh_cuda_kinematics_part(d, dt, 0);
  if (!rc) rc = tsr_queue_wait_default(q);
  if (!rc && !*err) *err = lulesh_cuda_kinematics_part(d, dt, 1); /* [D] */
  if (!rc) rc = ex->elem_ghosts(ex->ctx, dev, 3, d->delvg);      /* [Q2] */
  if (!rc) rc = tsr_queue_join_default(q);
  return rc;
}

/* The parts with part 0's kernels on d->queue beside part 1's (ATOMIC and
 * GATHER, d->part0_stream; the schedule above's parts and exchanges, with
 * the boundary's kernels off the default stream's path):
 *   default  zero fx, fy, fz (ATOMIC)            queue  (waits for it) [A]
 *   default  [B] forces of the other elements     queue  [Q1] node_sum, then
 *   default  (waits for [A]) the update of the             [C1] the update of
 *            nodes that are not shared                     the shared nodes
 *   default  (waits for [C1]) [D] kinematics of   queue  (waits for the
 *            the elements not sent                         default's update)
 *                                                          [C2] kinematics of
 *                                                          the sent elements,
 *                                                          then [Q2] the ghosts
 *   default  (waits for [Q2]) monotonic Q + EOS
 * [A] and [B] add into the nodes both touch with atomics (ATOMIC) or write
 * their own elements' corners (GATHER, whose gather of the shared nodes in
 * [A] reads only boundary elements' corners); every other pair that runs at
 * once touches disjoint entries, as above. */
static int parts_beside(lulesh_cuda_t *d, const lulesh_exchange_t *ex, const tsr_device_t *dev,
                        double dt, int *err) {
  double *f[3] = {d->fx, d->fy, d->fz};
  tsr_queue_t *q = d->queue;
  *err = d->assembly == LULESH_ASM_ATOMIC ? lulesh_cuda_zero_forces(d) : 0;
  int rc = tsr_queue_wait_default(q);
  if (!rc && !*err) *err = lulesh_cuda_node_forces_part(d, 0);  /* [A], queue */
  if (!rc && !*err) *err = lulesh_cuda_node_forces_part(d, 1);  /* [B] */
  if (!rc) rc = tsr_queue_join_default(q);                       /* after [A] */
  if (!rc && !*err) *err = lulesh_cuda_update_nodes_part(d, dt, 1);
  if (!rc) rc = ex->node_sum(ex->ctx, dev, 3, f);                /* [Q1] */
  if (!rc && !*err) *err = lulesh_cuda_update_nodes_part(d, dt, 0); /* [C1], queue */
  if (!rc) rc = tsr_queue_join_default(q);                       /* after [C1] */
  if (!rc) rc = tsr_queue_wait_default(q);                       /* after the update */
  if (!rc && !*err) *err = lulesh_cuda_kinematics_part(d, dt, 0); /* [C2], queue */
  if (!rc && !*err) *err = lulesh_cuda_kinematics_part(d, dt, 1); /* [D] */
  if (!rc) rc = ex->elem_ghosts(ex->ctx, dev, 3, d->delvg);      /* [Q2] */
  if (!rc) rc = tsr_queue_join_default(q);
  return rc;
}

/* The cycle with the exchanges on d->queue: the hooks' packs and unpacks on
 * it for the cycle, the parts beside each other (d->part0_stream) or in
 * turn. */
static int step_overlap(lulesh_cuda_t *d, lulesh_state_t *s, double dt, int *err) {
  const lulesh_exchange_t *ex = s->ex;
  const tsr_device_t dev = {TSR_DEV_CUDA, d->device_id, "CUDA"};
  TSR_CALL(ex->set_stream(ex->ctx, tsr_queue_stream(d->queue)));
  int rc = d->part0_stream ? parts_beside(d, ex, &dev, dt, err)
                            : parts_in_turn(d, ex, &dev, dt, err);
  int rc2 = ex->set_stream(ex->ctx, NULL); /* the hooks' state as found */
  TSR_CALL(rc);
  TSR_CALL(rc2);
  return 0;
}

int lulesh_cuda_step_dist(lulesh_cuda_t *d, lulesh_state_t *s) {
  const lulesh_exchange_t *ex = s->ex;
  TSR_CHECK(ex, TSR_ERR_ARG, "lulesh cuda: a distributed step needs the run's exchanges");
  lulesh_time_increment(s);
  const double dt = s->deltatime;
  /* A failed launch (err) skips the remaining stages, never an exchange:
   * the other ranks wait in them. VolumeError and QStopError are read back
   * with the dt constraints, after the last exchange. */
  int err = 0;
  if (d->queue) TSR_CALL(step_overlap(d, s, dt, &err));
  else TSR_CALL(step_serial(d, s, dt, &err));
  if (!err) err = lulesh_cuda_monoq_eos(d);
  if (!err) err = lulesh_cuda_time_constraints(d, s);
  double v[3] = {s->dtcourant, s->dthydro, err ? 0.0 : 1.0};
  TSR_CALL(ex->min(ex->ctx, 3, v));
  if (v[2] == 0.0) return ex->agree(ex->ctx, err);
  s->dtcourant = v[0];
  s->dthydro = v[1];
  return 0;
}
