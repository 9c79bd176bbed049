/* apps/stencil/stencil_app.h: tsr-stencil's driver state (private to the
 * app and its tests). One rank's part of the problem, the variants, the
 * grid configurations swept, the HDF5 input and output, the X-Y
 * decomposition (docs/STENCIL.md). No rank holds more than its block plus
 * halo of any field: inputs, reference and results are all local. */
#ifndef TSR_APPS_STENCIL_APP_H
#define TSR_APPS_STENCIL_APP_H

#include "tessera.h"
#include "kernels/stencil/stencil_problem.h"
#include "kernels/stencil/stencil_tb.h"

typedef enum {
#define STENCIL_VARIANT(id, name, dev, grid, strat, help) STENCIL_V_##id,
#include "kernels/stencil/variants.def"
#undef STENCIL_VARIANT
  STENCIL_NVARIANTS
} stencil_variant_id_t;

extern const tsr_variant_t stencil_variants[STENCIL_NVARIANTS];
int stencil_variant_grid(int id);
int stencil_variant_strategy(int id);
/* 0 when variant id is not made for stencil kind (laplap and hdiff only). */
int stencil_variant_applies(int id, int kind);

/* One unstructured storage configuration. */
typedef struct {
  int order, zw, comp, depth;
} stencil_ucfg_t;

/* One rank's problem. */
typedef struct {
  MPI_Comm comm;
  int rank, size;
  int kind, prec, placement, flat;
  int64_t gsize[3];          /* the global domain, halo included */
  uint64_t seed;
  stencil_problem_t P;       /* this rank's regular picture (host): inputs */
  tsr_grid_part_t part;      /* X-Y decomposition of the inner region */
  int64_t off[3];            /* local coordinate + off = global coordinate */
  void *ref;                 /* the reference result on P (this rank's block), or NULL */
  int have_ref;
  tsr_plane_part_t upart;    /* several ranks, unstructured: the plane partition, made on
                                first use (stencil_umpi.c) */
  int have_upart;
} stencil_state_t;

/* Set up (collective): decompose, allocate this rank's block, fill it from
 * the seed or read it from the input file (path may be NULL). */
int stencil_state_init(stencil_state_t *S, MPI_Comm comm, int kind, int prec, int placement,
                       const int64_t gsize[3], uint64_t seed, const char *input, int flat);
void stencil_state_free(stencil_state_t *S);
/* The reference after `iterations` steps: cpu/ref on this decomposition
 * (halo exchanges between the steps), each rank its block. Collective. */
int stencil_state_reference(stencil_state_t *S, int iterations);

/* One variant run: result of the timed runs and the verification. */
typedef struct {
  int id;                    /* stencil_variant_id_t */
  stencil_ucfg_t u;          /* unstructured grids */
  stencil_launch_t shape;    /* CUDA */
  stencil_tb_t tb;           /* temporal blocking (cpu/regular/tblock, cuda/regular/tblock) */
  int iterations, runs, warmup, verify, quiet;
  int halo_transport;        /* CUDA, several ranks: tsr_halo_transport_t (--halo) */
  /* out */
  int skipped;               /* 1: not run, note says why */
  char note[240];
  tsr_stats_t time;          /* seconds per step (the slowest rank's per run) */
  unsigned blocks[3];
  double maxerr, maxref;      /* over every rank */
  tsr_verify_t verdict;
  char device[64];
  void *result;              /* the final state of this rank's block in P's input layout
                                (for -o); caller frees */
} stencil_run_t;

/* Run (collective). Errors that are the configuration's (a block that does
 * not fit, a dictionary too large, no GPU) set skipped and return 0. */
int stencil_run_variant(stencil_state_t *S, stencil_run_t *r);

/* The original's benchmark name of a run. */
void stencil_run_name(const stencil_state_t *S, const stencil_run_t *r, char *buf, size_t n);

/* Unstructured grids on several ranks (stencil_umpi.c): this rank's slots
 * and halo lists (lib's tsr_plane_lists_t; the halo: tsr_plane_halo_create
 * with the slot layout's level stride), its unstructured grid over them,
 * and its inputs in the slot layouts (host). Collective. */
typedef struct {
  stencil_ugrid_t U;
  tsr_plane_lists_t lists;
  void *uin, *ucst;
} stencil_umpi_t;
int stencil_umpi_create(stencil_state_t *S, const stencil_ucfg_t *u, stencil_umpi_t *M);
void stencil_umpi_destroy(stencil_umpi_t *M);
/* Regular array a (layout L) <-> records of its plane cells j = x + d[0]*y
 * (every level and field, [f][z], fields at values [foff*nz, ...) of nrec
 * per record): the elements lib's transfers move (stencil_umpi.c). */
void stencil_rec_reg(const tsr_layout_t *L, void *a, int64_t nz, size_t es, char *rec, int foff,
                     int nrec, int to_rec);
/* Every rank's owned slots of `local` (layout Lu) into the inner cells of
 * each rank's regular block reg (layout Lreg, P's). Collective. */
int stencil_umpi_gather(const stencil_state_t *S, const stencil_umpi_t *M, const tsr_layout_t *Lu,
                        const void *local, const tsr_layout_t *Lreg, void *reg);

/* HDF5 (stencil_io.c). Field names: laplap in; hdiff in, coeff; fastwaves
 * u_in, v_in, u_tens, v_tens, rho, ppuv, fx, wgtfac, hhl. Outputs: out /
 * u_out, v_out. */
/* The domain size of an input file (collective). */
int stencil_io_size(MPI_Comm comm, const char *path, int64_t gsize[3]);
int stencil_io_read(stencil_state_t *S, const char *path);
/* The output (collective): open (kind regular-grid), put results (each
 * rank its block of run->result; group NULL: /fields, else a group
 * "/variants/NAME" with attributes variant, name, device), close (the
 * provenance, variants: what was written; failed != 0 discards the file
 * and returns failed). docs/FORMAT.md. */
int stencil_io_open(const stencil_state_t *S, const char *path, tsr_file_t **f);
int stencil_io_put(const stencil_state_t *S, tsr_file_t *f, const char *group, const void *result,
                   const char *variant, const char *name, const char *device);
int stencil_io_close(const stencil_state_t *S, tsr_file_t **f, const char *variants,
                     const char *command_line, const char *device, int failed);

/* Checkpoints (stencil_io.c): the state fields (out / u_out, v_out) of
 * `group` into this rank's input array (its box, halo included); a hash of
 * the constant fields (coeff / cst) over the ranks' output boxes
 * (tessera/checkpoint.h's tsr_checkpoint_hash_add; reduce it over comm). */
int stencil_io_read_state(stencil_state_t *S, tsr_file_t *f, const char *group);
uint64_t stencil_io_hash_constants(const stencil_state_t *S);

/* --checkpoint-every, --restart (stencil_ckpt.c): one run (one variant,
 * precision, placement and configuration) whose state is checkpointed. */
typedef struct {
  int every;                 /* --checkpoint-every (0: none) */
  const char *path;          /* --checkpoint */
  const char *restart;       /* --restart or NULL */
  int64_t k0;                /* iterations done before this run (the restart's) */
  int64_t total;             /* --iterations */
  const char *command_line;
  int quiet;                 /* --quiet: no lines about checkpoints */
  tsr_checkpoint_match_t match;
} stencil_ckpt_t;
/* The match of S's problem; with --restart its state into S's input and
 * C->k0. Collective, after stencil_state_init. */
int stencil_ckpt_begin(stencil_state_t *S, stencil_ckpt_t *C);
/* stencil_run_variant for r->iterations (= total - k0) steps, in pieces
 * ending at the multiples of C->every (each piece run --warmup + --runs
 * times from its start), a checkpoint after each; r gets the last piece's result and verdict and the step-weighted
 * mean of the pieces' times. */
int stencil_ckpt_run(stencil_state_t *S, stencil_run_t *r, stencil_ckpt_t *C);

#endif
