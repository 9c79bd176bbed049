/* kernels/lulesh/lulesh_mesh.h: the unstructured hex mesh of the LULESH
 * problem, LULESH's Sedov cube generator, renumbering, and the simulation
 * state and driver of the serial CPU reference (lulesh_cpu.c).
 *
 * Errors: functions return 0 or a libtessera error code (tessera/error.h,
 * with a message). A time step that meets LULESH's VolumeError (an element
 * with non-positive volume) or QStopError (q above qstop) returns
 * LULESH_VOLUME_ERROR or LULESH_QSTOP_ERROR (negative, LULESH's own codes)
 * and records a message naming the element and cycle. */
#ifndef TSR_KERNELS_LULESH_MESH_H
#define TSR_KERNELS_LULESH_MESH_H

#include <stdint.h>

#include "kernels/lulesh/lulesh.h"

enum { LULESH_VOLUME_ERROR = -1, LULESH_QSTOP_ERROR = -2 };

/* A hex mesh with LULESH's problem data. Indices are 0-based int32.
 *   x, y, z            [num_node]   node coordinates
 *   nodelist           [8 num_elem] corners of each element, LULESH's order
 *   lxim .. lzetap     [num_elem]   face neighbours across the xi-, xi+,
 *                                   eta-, eta+, zeta-, zeta+ faces (the
 *                                   element itself where the face has a
 *                                   SYMM or FREE flag)
 *   elem_bc            [num_elem]   face flags (LULESH_XI_M_SYMM ...)
 *   symm_x/y/z         [num_symm_*] nodes on the x = 0, y = 0, z = 0 planes
 *                                   (their acceleration normal to the plane
 *                                   is zeroed)
 *   num_reg, reg_num   [num_elem]   region of each element, 0 .. num_reg-1
 *   reg_start [num_reg+1], reg_elems [num_elem]: elements of each region
 *                                   (increasing), as CSR
 *   node_elem_start [num_node+1], node_elem_corner [8 num_elem]: for each
 *                                   node, the corners (8 x element + corner)
 *                                   that touch it, in increasing order (CSR)
 *   origin, einit: the element receiving the initial energy deposit and the
 *                  energy (origin -1: on another rank of a distributed run);
 *                  edge: elements per cube edge of a generated mesh (0 when
 *                  unknown).
 *   num_ghost:     ghost elements of a rank's part of a distributed mesh
 *                  (lulesh_dist.h; 0 for a whole mesh): copies of face
 *                  neighbours owned by other ranks, numbered num_elem ..
 *                  num_elem + num_ghost - 1. Face-neighbour arrays of owned
 *                  elements point at them across faces flagged COMM; they
 *                  have no nodes, regions or state but their velocity
 *                  gradients (delvg), which an exchange fills. */
typedef struct {
  int32_t num_elem, num_node;
  double *x, *y, *z;
  int32_t *nodelist;
  int32_t *lxim, *lxip, *letam, *letap, *lzetam, *lzetap;
  int32_t *elem_bc;
  int32_t num_symm_x, num_symm_y, num_symm_z;
  int32_t *symm_x, *symm_y, *symm_z;
  int32_t num_reg;
  int32_t *reg_num, *reg_start, *reg_elems;
  int32_t *node_elem_start, *node_elem_corner;
  int32_t origin;
  double einit;
  int32_t edge;
  int32_t num_ghost;
} lulesh_mesh_t;

/* LULESH's Sedov cube of edge nx elements on [0, 1.125]^3 (serial problem:
 * one domain), with nr regions assigned by LULESH's random rule with
 * balance b (its -r, -b options), symmetry planes at 0, free surfaces at
 * 1.125, and the initial energy 3.948746e7 (nx/45)^3 in element 0. */
int lulesh_mesh_sedov(lulesh_mesh_t *m, int nx, int nr, int balance);
/* LULESH's Sedov energy deposit in the origin element of the cube of edge
 * E: 3.948746e7 at 45 elements per edge, scaled with the volume. */
double lulesh_sedov_einit(int64_t E);

/* Check a mesh's arrays: sizes, indices in range, no repeated corner in an
 * element, valid face flags (at most one per face; a face without SYMM or
 * FREE has a neighbour other than the element), region ids, the CSR
 * tables. name names the mesh in messages. */
int lulesh_mesh_check(const lulesh_mesh_t *m, const char *name);

/* Build the region CSR (reg_start, reg_elems) from reg_num and the node CSR
 * (node_elem_start, node_elem_corner) from nodelist. */
int lulesh_mesh_build_csr(lulesh_mesh_t *m);

/* Renumber: element e becomes elem_perm[e], node n becomes node_perm[n];
 * each element keeps its corner order; ghost elements (a rank's part) keep
 * their numbers. Writes a new mesh to *out. */
int lulesh_mesh_permute(const lulesh_mesh_t *m, const int32_t *elem_perm,
                        const int32_t *node_perm, lulesh_mesh_t *out);

void lulesh_mesh_free(lulesh_mesh_t *m);

/* The region assignment of LULESH's -r/-b rule (its random sequence:
 * glibc's rand() after srand(0)), written to reg_num[num_elem]. */
int lulesh_regions_assign(int32_t num_elem, int nr, int balance, int32_t *reg_num);
/* The same rule with the sequence seeded as srand(seed) (LULESH's MPI
 * build seeds each rank's sequence with the rank: srand(myRank)). */
int lulesh_regions_assign_seed(int32_t num_elem, int nr, int balance, unsigned seed,
                               int32_t *reg_num);
/* The same rule over the elements 0 .. total-1 of a global numbering, kept
 * only for the ids[n] (sorted ascending, each < total) a rank owns:
 * reg_num[k] is the region of element ids[k] (ids NULL: all total). The
 * sequence is replayed, not stored: no array of size total. */
int lulesh_regions_assign_ids(int64_t total, int nr, int balance, unsigned seed, int64_t n,
                              const int64_t *ids, int32_t *reg_num);

/* LULESH's repetition count of the EOS evaluation in region r of nr with
 * cost c (its -c option): 1 for the cheaper half, 1 + c, and 10 (1 + c) for
 * the most expensive regions. */
int lulesh_region_reps(int r, int nr, int cost);

/* ---- simulation state (lulesh_cpu.c) ------------------------------------ */

/* The exchanges of a distributed run (lulesh_dist.h); NULL: serial. */
struct lulesh_exchange;

typedef struct {
  const lulesh_mesh_t *mesh; /* not owned */
  lulesh_params_t par;
  int cost;                  /* -c: EOS repetition of costly regions */
  int32_t num_elem, num_node;
  /* nodes */
  double *x, *y, *z, *xd, *yd, *zd, *fx, *fy, *fz, *nodal_mass;
  uint8_t *symm_mask;        /* bit 0/1/2: node on the x/y/z symmetry plane */
  /* elements */
  double *e, *p, *q, *ql, *qq, *v, *volo, *delv, *vdov, *arealg, *ss, *elem_mass, *vnew;
  /* temporaries: corner forces (stress, hourglass) [3][8 num_elem]; Q
   * gradients [3][num_elem]; EOS results [3][num_elem] */
  double *fs[3], *fh[3];
  double *delx[3], *delvg[3];
  double *eos_p, *eos_e, *eos_q, *eos_bvc;
  /* time stepping */
  double time, deltatime, stoptime, dtcourant, dthydro, dtmax, dtfixed;
  double deltatimemultlb, deltatimemultub;
  int cycle;
  const struct lulesh_exchange *ex; /* not owned; NULL: serial */
} lulesh_state_t;

/* Allocate and initialise LULESH's initial state on mesh m (kept, not
 * copied): zero fields, v = 1, volumes, element and nodal masses, the energy
 * deposit and the first dt from the origin element. Fails (TSR_ERR_FORMAT)
 * on an element of non-positive volume. cost is LULESH's -c. */
int lulesh_state_init(lulesh_state_t *s, const lulesh_mesh_t *m, int cost);
/* The same on one rank's part of a distributed mesh: ex (kept, not copied;
 * NULL = lulesh_state_init) sums the nodal masses over the copies of shared
 * nodes and takes the first dt from the rank holding the origin element.
 * Collective over ex's ranks; an error on one rank fails all of them. Every
 * step of s then runs ex's exchanges. */
int lulesh_state_init_ex(lulesh_state_t *s, const lulesh_mesh_t *m, int cost,
                         const struct lulesh_exchange *ex);
void lulesh_state_free(lulesh_state_t *s);

/* The pieces of one step, in order (lulesh_step runs them all). */
void lulesh_time_increment(lulesh_state_t *s);
int lulesh_lagrange_nodal(lulesh_state_t *s);
int lulesh_lagrange_elements(lulesh_state_t *s);
void lulesh_time_constraints(lulesh_state_t *s);
int lulesh_step(lulesh_state_t *s);

/* Element loop of the nodal phase: corner forces of stress and hourglass
 * control into s->fs, s->fh. Node loops: sum them per node (LULESH's serial
 * order: stress sum over the node's corners, then each hourglass force added
 * on), then accelerations, symmetry conditions, velocities, positions. */
int lulesh_corner_forces(lulesh_state_t *s);
void lulesh_gather_forces(lulesh_state_t *s);
void lulesh_update_nodes(lulesh_state_t *s);

/* Run until time reaches stoptime or max_cycles steps (<= 0: no limit). */
typedef struct {
  int cycles;
  double time, e_origin, e_total; /* e_total: sum of e in element order */
} lulesh_result_t;
int lulesh_run(lulesh_state_t *s, int max_cycles, lulesh_result_t *res);
/* The result of s's current state. Distributed (s->ex set; collective):
 * e_origin from the rank holding the origin, e_total the sum over ranks of
 * each rank's sum of its owned elements in element order. */
int lulesh_state_result(const lulesh_state_t *s, lulesh_result_t *res);

#endif /* TSR_KERNELS_LULESH_MESH_H */
