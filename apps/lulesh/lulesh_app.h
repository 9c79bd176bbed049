/* apps/lulesh/lulesh_app.h: the pieces of tsr-lulesh shared by its files:
 * the run's parameters (LULESH's flags), the reference check against
 * LULESH 2.0's serial results (lulesh_check.c) and LULESH's "Run completed"
 * block. */
#ifndef TSR_APPS_LULESH_APP_H
#define TSR_APPS_LULESH_APP_H

#include "kernels/lulesh/lulesh_mesh.h"
#include "kernels/lulesh/lulesh_dist.h"
#include "tessera/cli.h"
#include "tessera/report.h"
#include "tessera/checkpoint.h"

/* LULESH's flags, with its meanings. */
typedef struct {
  int edge;     /* -s: elements per cube edge */
  int its;      /* -i: cycle limit; 0 = run to completion (stop time) */
  int regions;  /* -r */
  int balance;  /* -b */
  int cost;     /* -c */
  int progress; /* -p */
  /* the run's problem (lulesh_app_mesh): global elements per cube edge
   * (-s times the cube root of the rank count for LULESH's decomposition),
   * ranks and decomposition ("cube", "block", "metis"; NULL on one rank) */
  int global_edge, ranks;
  const char *decomp;
  /* several ranks: the partition's balance (lulesh_app_part_stats): the
   * most and the mean elements per rank, the interface nodes (held by two
   * or more ranks) and their copies (summed over the ranks holding them),
   * block's process grid (0 0 0 otherwise) */
  int64_t part_max, iface_nodes, iface_copies;
  double part_avg;
  int dims[3];
  const char *input; /* --input FILE.h5, or NULL: the generated cube */
} lulesh_opts_t;

/* dt of the first LULESH_NDT cycles, recorded for the reference check. */
#define LULESH_NDT 3

/* The final state of a run and what the check needs of it. */
typedef struct {
  lulesh_result_t res;
  double dt[LULESH_NDT];
  int ndt;
  /* global zones; LULESH's symmetry test of plane 0 of the global cube
   * (max abs, total abs, max rel diff) when have_sym (lulesh_app_outcome) */
  double zones, sym[3];
  int have_sym;
} lulesh_outcome_t;

/* Compare the run with LULESH 2.0's serial results where one is known for
 * its flags: row->verify becomes PASS or FAIL with the comparison in
 * row->note; where none is known, LULESH's symmetry test of plane 0 of the
 * generated cube (when out->have_sym, without --input) decides PASS or FAIL; "not verified" otherwise (a mesh
 * that is not the cube, other -r -b -c). Returns 1 when a check was made. */
int lulesh_reference_check(const lulesh_opts_t *o, const lulesh_outcome_t *out,
                           tsr_result_t *row);

/* LULESH's "Run completed" block for the final state s (on rank 0): sizes,
 * ranks, cycles, the origin energy, LULESH's symmetry test of plane 0 of
 * the energy array, then the energies to 17 digits, elapsed and grind time
 * and the figure of merit in zone-cycles per second. */
void lulesh_print_completed(const lulesh_opts_t *o, const lulesh_state_t *s,
                            const lulesh_outcome_t *out, int ranks, double elapsed, int runs,
                            const tsr_result_t *row);

/* One rank: LULESH's symmetry test of plane 0 of the cube of edge o->edge,
 * its elements found by position (any numbering) into sym[3]; 0 when the
 * mesh is not that cube (sym zero). */
int lulesh_symmetry_one_rank(const lulesh_opts_t *o, const lulesh_state_t *s, double sym[3]);

/* LULESH's symmetry test of plane 0 (the first nx^2 values of e, element
 * (i, j) at j nx + i): e(i, j) against e(j, i), giving the largest and total
 * absolute and the largest relative difference in sym[3]. */
void lulesh_symmetry_test(const double *e, int nx, double sym[3]);

/* ---- several ranks (lulesh_dist.c) ---- */

/* The run's mesh: on one rank the whole cube of edge -s; on several, this
 * rank's part of the decomposition named by decomp ("cube", "block",
 * "metis", NULL: cube when the rank count is a cube, else block) in *mesh,
 * with *dist its exchanges (NULL on one rank). Sets o->global_edge,
 * o->ranks, o->decomp and the partition's figures (lulesh_app_part_stats).
 * Collective; a rank count the decomposition cannot use fails on every
 * rank with one message. */
int lulesh_app_mesh(MPI_Comm comm, lulesh_opts_t *o, const char *decomp, lulesh_mesh_t *mesh,
                    lulesh_dist_t **dist);
/* The partition's figures of dist, whose rank holds num_elem elements
 * (lulesh_opts_t: part_max .. dims), on every rank. Collective. */
void lulesh_app_part_stats(MPI_Comm comm, lulesh_dist_t *dist, int64_t num_elem,
                           lulesh_opts_t *o);
/* The line "Partition: ..." with them (rank 0, several ranks). */
void lulesh_app_part_print(const lulesh_opts_t *o);
/* LULESH's banner (problem size, ranks, elements) on rank 0. */
void lulesh_app_banner(const lulesh_opts_t *o, const lulesh_mesh_t *mesh);
/* The global outcome of state s (collective with dist): res, zones and the
 * symmetry test (rank 0). */
int lulesh_app_outcome(lulesh_dist_t *dist, const lulesh_opts_t *o, const lulesh_state_t *s,
                       lulesh_outcome_t *out);
/* --reorder (lulesh_order.c): renumber m's elements and nodes in place by
 * how ("none", "gps", "metis"; block: METIS block size). o->elem_perm
 * [num_elem] maps an original element to its new number (NULL for none);
 * o->nblocks, o->block_off: METIS's element blocks (new numbering);
 * bandwidth and profile of the element graph before and after. */
typedef struct {
  int32_t *elem_perm;
  int64_t nblocks, *block_off;
  int64_t bw_before, bw_after, profile_before, profile_after;
} lulesh_reorder_t;
int lulesh_order_apply(lulesh_mesh_t *m, const char *how, int block, lulesh_reorder_t *o);
void lulesh_order_free(lulesh_reorder_t *o);
/* Files (lulesh_io.c). opts_begin leaves -s -r -b unset; opts_end refuses
 * them with --input, else sets LULESH's defaults, and checks -o before any
 * computation (collective). io_mesh reads --input: whole on one rank, on
 * several each rank its blocks, distributed by decomp ("metis" by default,
 * "cube" for a generated cube on k^3 ranks; *dist its exchanges, NULL on
 * one rank); o takes the file's edge and regions. io_write writes the final
 * state s on mesh to path (hex-mesh kind + XDMF sidecar; o gives the region
 * balance recorded with it); with dist, in the global numbering, each rank
 * its rows. */
void lulesh_io_opts_begin(lulesh_opts_t *o);
int lulesh_io_opts_end(MPI_Comm comm, lulesh_opts_t *o, const char *input, const char *output);
int lulesh_io_mesh(MPI_Comm comm, const char *input, const char *decomp, int quiet,
                   lulesh_opts_t *o, lulesh_mesh_t *mesh, lulesh_dist_t **dist);
int lulesh_io_write(MPI_Comm comm, const char *path, const lulesh_mesh_t *mesh,
                    lulesh_dist_t *dist, const lulesh_state_t *s, const lulesh_opts_t *o,
                    const tsr_cli_t *cli, const char *variant);
/* Rows of a global array of N rows (es bytes each) in the blocks of
 * tsr_mesh_block_rows: this rank's n items (global id gid[k], bytes rec +
 * k es) go to the rank whose block holds them, which writes them to
 * rows[gid - first] (copies of a row from several ranks must hold the same
 * bytes). Collective. */
int lulesh_to_blocks(MPI_Comm comm, int64_t N, int64_t n, const int64_t *gid, const void *rec,
                     size_t es, void *rows);

/* Checkpoints and restarts (lulesh_ckpt.c, tessera/checkpoint.h): the
 * state that carries over between cycles in the global numbering (node x
 * y z xd yd zd, element e p q v ss, time, dt, the dt constraints, the cycle
 * and the dt of cycles 1-3), matched on the problem (size, regions, balance,
 * cost, element and node counts, numbering, a hash of the mesh). begin
 * makes the match (when checkpointing or restarting) and reads --restart
 * into this rank's numbering; apply puts it into a fresh state; write
 * writes s after its cycle. Collective. */
typedef struct {
  tsr_checkpoint_match_t match;
  int active, have;           /* matching made; a restart state read */
  int64_t ne_glob, nn_glob;
  double *node, *elem;        /* restart: [num_node][6], [num_elem][5] */
  double scal[4], dt[LULESH_NDT]; /* time, deltatime, dtcourant, dthydro */
  int cycle;
} lulesh_ckpt_t;
int lulesh_ckpt_begin(MPI_Comm comm, lulesh_ckpt_t *k, const tsr_cli_t *cli,
                      const lulesh_opts_t *o, const char *reorder, const lulesh_mesh_t *mesh,
                      lulesh_dist_t *dist);
void lulesh_ckpt_apply(const lulesh_ckpt_t *k, lulesh_state_t *s, lulesh_outcome_t *out);
int lulesh_ckpt_write(MPI_Comm comm, const lulesh_ckpt_t *k, const tsr_cli_t *cli,
                      const lulesh_mesh_t *mesh, lulesh_dist_t *dist, const lulesh_state_t *s,
                      const lulesh_outcome_t *out, const char *variant);
void lulesh_ckpt_free(lulesh_ckpt_t *k);

#endif /* TSR_APPS_LULESH_APP_H */
