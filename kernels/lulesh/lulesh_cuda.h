/* kernels/lulesh/lulesh_cuda.h: LULESH's time step on one GPU
 * (lulesh_cuda.cu): a device copy of the serial state (lulesh_mesh.h), the
 * launchers of each stage of the step, and a driver that runs whole cycles
 * with the dt rule (lulesh_time_increment) on the host.
 *
 * The kernels call the per-element and per-node arithmetic of lulesh.h, the
 * same code as the CPU loops of lulesh_cpu.c, compiled without contraction to
 * FMA (nvcc --fmad=false), and keep the CPU's order of every sum (the force
 * gather walks each node's corners in the CPU's order; the dt reductions are
 * minima, which no order changes). + - * / and sqrt are correctly rounded on
 * both sides, so every stage gives the CPU's bits except where the hourglass
 * coefficient takes cbrt: CUDA's cbrt and glibc's are each within 1 ulp and
 * may differ by one, which scales an element's hourglass forces by about
 * 1e-16 relative and grows over a run (tests/cuda/check_lulesh_cuda.c
 * states the tolerances).
 *
 * Plain C; every pointer in lulesh_cuda_t is device memory unless marked
 * host. Launchers are asynchronous on the default stream and return 0 or a
 * libtessera error (TSR_ERR_CUDA); lulesh_cuda_check and
 * lulesh_cuda_time_constraints wait for the device. */
#ifndef TSR_KERNELS_LULESH_CUDA_H
#define TSR_KERNELS_LULESH_CUDA_H

#include <stdint.h>
#include "kernels/lulesh/lulesh.h"

#ifdef __cplusplus
extern "C" {
#endif
#include "kernels/lulesh/lulesh_mesh.h"
#include "kernels/lulesh/lulesh_split.h"

struct tsr_queue;

/* The run-time checks of a step, in the order the CPU makes them: the
 * status holds, for each, the lowest element that failed (num_elem: none). */
enum {
  LULESH_CUDA_BAD_JACOBIAN = 0, /* corner forces: Jacobian volume <= 0   */
  LULESH_CUDA_BAD_V,            /* corner forces: relative volume <= 0   */
  LULESH_CUDA_BAD_VNEW,         /* kinematics: new relative volume <= 0  */
  LULESH_CUDA_BAD_QSTOP,        /* monotonic Q: q above qstop            */
  LULESH_CUDA_BAD_VC,           /* before the EOS: bounded volume <= 0   */
  LULESH_CUDA_NCHECK
};

typedef struct {
  double dtcourant, dthydro;          /* the last time constraints          */
  int32_t bad[LULESH_CUDA_NCHECK];    /* lowest failing element, or num_elem */
} lulesh_cuda_status_t;

/* How the corner forces of the elements reach the nodes (fx, fy, fz):
 *  GATHER    per-corner forces into [3][8 ne] temporaries (stress and
 *            hourglass apart), then a gather per node over its corners (CSR)
 *            in the CPU's order: bit for bit the CPU's sums (LULESH's way);
 *  ATOMIC    each element adds its 8 corner forces (stress + hourglass) to
 *            its nodes with FP64 atomicAdd: no temporaries, the order of the
 *            additions varies from run to run;
 *  COLOUR    elements greedily coloured (tessera/colour.h: no two elements
 *            of a colour share a node), one launch per colour, plain adds;
 *  TWOLEVEL  Sulyok et al.'s (2019) two-level colouring: blocks of elements
 *            (one CUDA block each) stage their nodes' increments in shared
 *            memory, threads coloured inside a block (adds colour by colour,
 *            a barrier between), blocks coloured between launches, one plain
 *            add per staged node and block to global memory.
 * ATOMIC, COLOUR and TWOLEVEL sum each node's 8 (stress + hourglass)
 * contributions in another order than the CPU: they agree with it to
 * rounding (tests/cuda/check_lulesh_cuda.c states the tolerance). */
typedef enum {
  LULESH_ASM_GATHER = 0,
  LULESH_ASM_ATOMIC,
  LULESH_ASM_COLOUR,
  LULESH_ASM_TWOLEVEL
} lulesh_asm_t;

/* Options of a device state (lulesh_cuda_init_opts). */
typedef struct {
  lulesh_asm_t assembly;
  int fuse;          /* 1: fused kernels (node gather + update in one kernel for
                        GATHER; monotonic Q + EOS + sound speed + volume update +
                        dt constraints in one kernel for all regions; delv, ql, qq
                        and eos_* stay in registers, not stored); same bits */
  int block;         /* threads per block (power of 2, 32-1024), 0: 128 */
  int fma;           /* ATOMIC, COLOUR, TWOLEVEL: their element-force kernels and
                        the fused monotonic Q + EOS kernel built with FMA
                        contraction (lulesh_cuda_fma.cu): faster arithmetic, not
                        the CPU's roundings */
  /* TWOLEVEL: element blocks [block_off[b], block_off[b+1]) of at most
   * `block` elements (e.g. METIS blocks of tsr_reorder_blocks); NULL:
   * consecutive blocks of `block` elements */
  int64_t nblocks;
  const int64_t *block_off;
  int no_overlap;    /* several ranks: each exchange between two stages on the
                        default stream, nothing beside it (lulesh_cuda_step_dist) */
} lulesh_cuda_opts_t;

/* The device state. Lengths: nn = num_node, ne = num_elem, ng = num_ghost
 * (elements of other ranks whose velocity gradients a face needs). */
typedef struct {
  int32_t num_elem, num_node, num_reg, num_ghost;
  int device_id;                  /* the CUDA device (for a distributed step's exchanges) */
  lulesh_asm_t assembly;
  int fuse, fma;
  int cost;                       /* -c: EOS repetitions of costly regions   */
  int block;                      /* threads per block (power of 2, 32-1024) */
  lulesh_params_t par;
  const int32_t *reg_start;       /* host [num_reg + 1], the mesh's (not owned) */
  /* mesh, read only (uploaded, never copied back) */
  int32_t *nodelist;              /* [8 ne] corners of each element          */
  int32_t *lxim, *lxip, *letam, *letap, *lzetam, *lzetap; /* [ne] neighbours */
  int32_t *elem_bc;               /* [ne] face flags                         */
  int32_t *reg_elems;             /* [ne] elements by region (CSR values)    */
  int32_t *reg_start_dev;         /* [num_reg + 1] the region offsets        */
  int32_t *reg_reps;              /* [num_reg] EOS repetitions of each region */
  int32_t *node_elem_start;       /* [nn + 1] node -> corners CSR offsets    */
  int32_t *node_elem_corner;      /* [8 ne] corners 8 e + i of each node     */
  uint8_t *symm_mask;             /* [nn] symmetry-plane bits                */
  /* nodes [nn] */
  double *x, *y, *z, *xd, *yd, *zd, *fx, *fy, *fz, *nodal_mass;
  /* elements [ne] */
  double *e, *p, *q, *ql, *qq, *v, *volo, *delv, *vdov, *arealg, *ss, *elem_mass, *vnew;
  /* corner forces [3][8 ne] (stress, hourglass; GATHER only); Q gradients
   * delx [3][ne], delvg [3][ne + ng] (the ghosts' filled by an exchange
   * between the kinematics and the monotonic Q); EOS results [ne] */
  double *fs[3], *fh[3];
  double *delx[3], *delvg[3];
  double *eos_p, *eos_e, *eos_q, *eos_bvc;
  /* dt reduction: block minima [2 ceil(ne / block)], and the status [1] */
  double *partial;
  lulesh_cuda_status_t *status;
  /* COLOUR: elements by colour (device [ne]), colour c is
   * colour_elems[colour_off[c] .. colour_off[c+1]) (host [ncolours + 1]) */
  int ncolours;
  int64_t *colour_off;
  int32_t *colour_elems;
  /* TWOLEVEL: the plan (tessera/colour.h) on the device: element of each
   * position [ne], block offsets [nblocks + 1], thread colour of each
   * position [ne], thread colours of each block [nblocks], the nodes each
   * block stages (tgt_off [nblocks + 1], tgt), each corner's slot among
   * them [8 ne] (by position); blocks by colour (device bcolour_blocks
   * [nblocks], host bcolour_off [nbcolours + 1]); shared bytes per block */
  int64_t nblocks;
  int nbcolours, max_block;
  int32_t *tl_elems, *tl_tcol, *tl_ntcol, *tl_tgt, *tl_loc, *bcolour_blocks;
  int64_t *tl_off, *tl_tgt_off, *bcolour_off;
  size_t smem;
  /* A distributed step's overlap (lulesh_cuda_step_dist; NULL / 0 without):
   * the second queue, the rank's split (host, not owned) and its lists on
   * the device: sp_elem [ne] (the num_bnd elements touching shared nodes
   * first), sp_node [nn] (the num_shared shared nodes first), sp_kin [ne]
   * (the num_send elements sent as ghosts first). COLOUR: each colour's
   * elements touching shared nodes first, colour_nbnd [ncolours] (host) of
   * them; TWOLEVEL: the plan made over sp_elem's order in blocks that do not
   * straddle num_bnd, each block colour's blocks of boundary elements first,
   * bcolour_nbnd [nbcolours] (host) of them. part0_stream: the queue's
   * stream where part 0's kernels run beside part 1's (ATOMIC, GATHER:
   * lulesh_cuda_dist.c), NULL where the parts run in turn on the default
   * stream (COLOUR, TWOLEVEL: their plain adds into a node from both parts
   * must not overlap). */
  struct tsr_queue *queue;
  void *part0_stream;
  /* sp_base[k][p]: where part p of sp_elem, sp_node, sp_kin (k = 0, 1, 2)
   * is a run of consecutive numbers, its first, and the kernels take the
   * run without the list (a plane cut's parts: no load of an index before
   * the element's own); -1 where the kernels read the list. */
  int32_t sp_base[3][2];
  const lulesh_split_t *split;
  int32_t *sp_elem, *sp_node, *sp_kin;
  int64_t *colour_nbnd, *bcolour_nbnd;
} lulesh_cuda_t;

typedef enum { LULESH_CUDA_TO_DEVICE = 0, LULESH_CUDA_TO_HOST = 1 } lulesh_cuda_dir_t;

/* The stages of a cycle as lulesh_cuda_step_profiled times them, and the
 * least bytes each must move (docs/LULESH.md, "Bytes per zone-cycle"):
 *   FORCES     the element loop of the node forces (GATHER: the corner
 *              forces into fs, fh; the others: zeroing fx, fy, fz and adding
 *              the forces to them);
 *   NODES      GATHER: the gather (fused with the update, or apart), the
 *              others: the node update;
 *   KINEMATICS kinematics and Q gradients;  MONOQ_EOS  monotonic Q, EOS per
 *   region, sound speed, volume update (fused: and the dt candidates);
 *   DT         the dt reduction (unfused) and the status read back. */
enum {
  LULESH_STAGE_FORCES = 0,
  LULESH_STAGE_NODES,
  LULESH_STAGE_KINEMATICS,
  LULESH_STAGE_MONOQ_EOS,
  LULESH_STAGE_DT,
  LULESH_NSTAGES
};
static inline const char *lulesh_stage_name(int k) {
  static const char *const names[LULESH_NSTAGES] = {
      "node forces", "node update", "kinematics+gradients", "monoq+eos", "dt+status"};
  return k >= 0 && k < LULESH_NSTAGES ? names[k] : "?";
}

/* Floor bytes of stage k for ne elements and nn nodes; gather: GATHER's
 * temporaries (fs, fh [3][8 ne] written, read back with the node -> corner
 * table), else an assembly that adds into fx, fy, fz. */
static inline double lulesh_stage_bytes(int k, int gather, int64_t ne, int64_t nn) {
  /* [assembly][stage]: bytes per element, per node */
  static const double per[2][LULESH_NSTAGES][2] = {
      {{80, 72}, {0, 129}, {120, 48}, {192, 0}, {0, 0}},
      {{464, 48}, {416, 109}, {120, 48}, {192, 0}, {0, 0}}};
  const int g = gather != 0;
  return per[g][k][0] * (double)ne + per[g][k][1] * (double)nn;
}
/* The floor of a whole cycle: the sum over the stages. */
static inline double lulesh_cycle_bytes(int gather, int64_t ne, int64_t nn) {
  double b = 0.0;
  for (int k = 0; k < LULESH_NSTAGES; k++) b += lulesh_stage_bytes(k, gather, ne, nn);
  return b;
}

/* Seconds and launches (calls) of each stage, summed over the cycles run by
 * lulesh_cuda_step_profiled. */
typedef struct {
  double seconds[LULESH_NSTAGES];
  int64_t calls[LULESH_NSTAGES];
} lulesh_cuda_prof_t;

/* Allocate d for state s (lulesh_state_init'ed, its mesh kept by pointer
 * for the region offsets and ghost count) and upload the mesh and the state;
 * build and upload the colouring or plan the assembly needs.
 * lulesh_cuda_init: GATHER, unfused, block threads per block (0: 128).
 * Fails with TSR_ERR_UNSUPPORTED when a TWOLEVEL block stages more nodes
 * than the GPU's shared memory holds. */
int lulesh_cuda_init(lulesh_cuda_t *d, const lulesh_state_t *s, int block);
int lulesh_cuda_init_opts(lulesh_cuda_t *d, const lulesh_state_t *s,
                          const lulesh_cuda_opts_t *o);
void lulesh_cuda_free(lulesh_cuda_t *d);

/* Move every array of the state between s and d: TO_DEVICE copies the mesh
 * and the state fields (and clears the status), TO_HOST the state fields
 * (nodes, elements, corner forces, gradients, EOS results). The scalars
 * (time, dt, cycle) live in s only. Waits for the copies. */
int lulesh_cuda_copy(lulesh_cuda_t *d, lulesh_state_t *s, lulesh_cuda_dir_t dir);

/* The stages of a step (lulesh_cpu.c's of the same names). Each can be
 * called alone (a distributed step puts its exchanges between them):
 * node forces, [sum fx, fy, fz over shared nodes], node update, kinematics,
 * [fill the ghosts' delvg], monotonic Q + EOS, time constraints. */
int lulesh_cuda_corner_forces(const lulesh_cuda_t *d);    /* fs, fh (GATHER) */
int lulesh_cuda_gather_forces(const lulesh_cuda_t *d);    /* fx, fy, fz      */
/* fx, fy, fz by d's assembly (GATHER: corner forces then gather). */
int lulesh_cuda_node_forces(const lulesh_cuda_t *d);
/* The fused GATHER node kernel: the gather of fs, fh and the node update of
 * each node in one pass (also stores fx, fy, fz); the bits of
 * lulesh_cuda_gather_forces then lulesh_cuda_update_nodes. */
int lulesh_cuda_gather_update(const lulesh_cuda_t *d, double dt);
int lulesh_cuda_update_nodes(const lulesh_cuda_t *d, double dt);
/* The nodal phase: node forces then node update (fused GATHER: corner
 * forces, then one kernel gathering and updating each node). */
int lulesh_cuda_lagrange_nodal(const lulesh_cuda_t *d, double dt);
/* The element phase in two halves: kinematics with the Q gradients; then
 * the monotonic Q, EOS per region, sound speed, volume update (fused: with
 * the dt constraints, which lulesh_cuda_time_constraints then only reads). */
int lulesh_cuda_kinematics(const lulesh_cuda_t *d, double dt);
int lulesh_cuda_monoq_eos(const lulesh_cuda_t *d);
/* Both halves: kinematics and Q gradients, monotonic Q, EOS per region
 * (LULESH's repetitions), sound speed, volume update. */
int lulesh_cuda_lagrange_elements(const lulesh_cuda_t *d, double dt);
/* The Courant and hydro constraints into s->dtcourant, s->dthydro; waits,
 * and raises the step's VolumeError or QStopError as lulesh_cuda_check. */
int lulesh_cuda_time_constraints(lulesh_cuda_t *d, lulesh_state_t *s);
/* Wait; return LULESH_VOLUME_ERROR or LULESH_QSTOP_ERROR (with a message
 * naming the element and s->cycle) if a check failed since the last
 * upload, the first in the CPU's order of checks, else 0. */
int lulesh_cuda_check(lulesh_cuda_t *d, const lulesh_state_t *s);

/* The parts of the stages that a distributed step with overlap runs apart
 * (d->queue set; part 0 first, then part 1):
 *   node forces   0: the elements touching shared nodes (an assembly that
 *                 adds into fx, fy, fz zeroes all of them first; GATHER:
 *                 their corner forces, then the gather of the shared nodes),
 *                 after which fx, fy, fz of the shared nodes are complete;
 *                 1: the other elements (GATHER: their corner forces);
 *   node update   0: the shared nodes; 1: the others (GATHER: with their
 *                 gather, fused or not);
 *   kinematics    0: the elements sent as ghosts (and the dt minima's
 *                 reset); 1: the others.
 * The same arithmetic per element and node as the whole stages. With
 * d->part0_stream, part 0's kernels run on that stream, and an assembly
 * that adds leaves the zeroing of fx, fy, fz to lulesh_cuda_zero_forces
 * (default stream), which must come before either part. */
int lulesh_cuda_node_forces_part(const lulesh_cuda_t *d, int part);
int lulesh_cuda_zero_forces(const lulesh_cuda_t *d);
int lulesh_cuda_update_nodes_part(const lulesh_cuda_t *d, double dt, int part);
int lulesh_cuda_kinematics_part(const lulesh_cuda_t *d, double dt, int part);
/* lulesh_cuda_init_opts's part for a distributed state (lulesh_cuda_dist.c):
 * with s->ex's split and o->no_overlap 0, d->queue, split and the sp_
 * lists; else nothing. Freed by lulesh_cuda_free. */
int lulesh_cuda_dist_setup(lulesh_cuda_t *d, const lulesh_state_t *s,
                           const lulesh_cuda_opts_t *o);

/* One cycle: lulesh_time_increment(s) on the host, then the stages. When s
 * belongs to a distributed run (s->ex, lulesh_state_init_ex: its nodal
 * masses already summed over the copies before the upload), the cycle is
 * lulesh_cuda_step_dist's; with one rank (s->ex NULL) no exchange and no
 * extra wait is made. */
int lulesh_cuda_step(lulesh_cuda_t *d, lulesh_state_t *s);
/* One cycle on one rank of a distributed run (lulesh_cuda_dist.c), the
 * exchanges of s->ex (kernels/lulesh/lulesh_dist.h) on the device arrays
 * between the stages, as the CPU's distributed step makes them:
 *   node forces (GATHER: corner forces, then the gather into fx, fy, fz; the
 *   fused gather + update is split around the sum) -> node_sum of fx, fy, fz
 *   over the copies of shared nodes (every copy gets the owner's total: the
 *   same bits) -> node update -> kinematics and Q gradients -> elem_ghosts of
 *   delvg -> monotonic Q + EOS -> time constraints -> min over the ranks of
 *   (dtcourant, dthydro, ok flag). A rank whose checks fail (VolumeError,
 *   QStopError, read with the dt) still takes part in every exchange of the
 *   cycle; then every rank returns the lowest failing rank's error.
 * With d->queue (lulesh_cuda_dist_setup: the run's split, overlap not turned
 * off) the two exchanges run on the queue beside the interior parts of the
 * stages (lulesh_cuda_node_forces_part and the others; lulesh_cuda_dist.c
 * says which stream touches which entries and which event orders them):
 * the same bits for GATHER, the same tolerance for the others. */
int lulesh_cuda_step_dist(lulesh_cuda_t *d, lulesh_state_t *s);
/* The same cycle with each stage timed by CUDA events and waited for (for a
 * profile: slower than lulesh_cuda_step); adds to *p. One rank only (a
 * distributed state fails with TSR_ERR_UNSUPPORTED). */
int lulesh_cuda_step_profiled(lulesh_cuda_t *d, lulesh_state_t *s, lulesh_cuda_prof_t *p);
/* Cycles until s->time reaches s->stoptime or max_cycles (<= 0: no limit),
 * on d (uploaded); the state stays on the device. */
int lulesh_cuda_steps(lulesh_cuda_t *d, lulesh_state_t *s, int max_cycles);
/* lulesh_run on the GPU: upload s, run, copy the final state back into s,
 * fill res (as lulesh_run: global values in a distributed run, through
 * lulesh_state_result). o: NULL for GATHER unfused. */
int lulesh_cuda_run(lulesh_state_t *s, int max_cycles, lulesh_result_t *res);
int lulesh_cuda_run_opts(lulesh_state_t *s, const lulesh_cuda_opts_t *o, int max_cycles,
                         lulesh_result_t *res);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_LULESH_CUDA_H */
