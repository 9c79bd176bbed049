/* kernels/airfoil/airfoil_run.h: an Airfoil problem as the kernels see it,
 * and the entry points of the CPU and CUDA variants.
 *
 * A problem points into a tsr_mesh_t (OP2's sets, maps and dats; see
 * kernels/airfoil/airfoil_mesh.c for how it is checked and built) and is never
 * modified: every run copies what it needs into its own precision and
 * layout, starts from q0 and reports its rms history and final q.
 */
#ifndef TSR_KERNELS_AIRFOIL_RUN_H
#define TSR_KERNELS_AIRFOIL_RUN_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include "kernels/airfoil/airfoil.h"

struct tsr_halo;

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int64_t nnode, ncell, nedge, nbedge;
  const int32_t *pcell;   /* [ncell][4]  nodes of each cell                */
  const int32_t *pedge;   /* [nedge][2]  nodes of each interior edge       */
  const int32_t *pecell;  /* [nedge][2]  the two cells of each edge        */
  const int32_t *pbedge;  /* [nbedge][2] nodes of each boundary edge       */
  const int32_t *pbecell; /* [nbedge]    the cell of each boundary edge    */
  const int32_t *bound;   /* [nbedge]    1 = wall, 2 = far field           */
  const double *x;        /* [nnode][2]  node coordinates                  */
  const double *q0;       /* [ncell][4]  initial state                     */
  airfoil_consts_t c;
  /* Distribution, OP2's owner-compute (tessera/part.h): this rank updates
   * cells [0, ncell_owned) and executes edges [0, nedge_exec) and bedges
   * [0, nbedge_exec), the exec halo included, so that every owned cell gets
   * all its increments; rows [0, *_core) read owned cells only and run
   * while the halo exchange of q and adt is in flight. One whole mesh:
   * everything owned and core, no halo. */
  int64_t ncell_owned, nedge_core, nedge_exec, nbedge_core, nbedge_exec;
  int64_t ncell_global;   /* rms = sqrt(sum del^2 / ncell_global)          */
  MPI_Comm comm;          /* the rms sum is reduced over it                */
  struct tsr_halo *halo;  /* cells' halo (q and adt exchanges), or NULL    */
  /* Edge blocks of a partition-based reordering (blocks of at most the
   * CUDA block size, rows eblock_off[b] .. eblock_off[b+1]), or 0 / NULL. */
  int64_t neblock;
  const int64_t *eblock_off;
} airfoil_problem_t;

typedef enum { AIRFOIL_DOUBLE = 0, AIRFOIL_FLOAT } airfoil_prec_t;

/* Data layout of the cell and node dats on the device. */
typedef enum { AIRFOIL_AOS = 0, AIRFOIL_SOA } airfoil_layout_t;

/* How res_calc and bres_calc apply their indirect increments. */
typedef enum {
  AIRFOIL_ATOMIC = 0, /* atomicAdd into res                                 */
  AIRFOIL_COLOUR,     /* edges coloured globally; one launch per colour     */
  AIRFOIL_GATHER,     /* fluxes to a per-edge temporary, then a per-cell
                         gather through the inverse map (no atomics)       */
  AIRFOIL_SHARED,     /* Sulyok et al. 2019: cells and nodes of a block staged once in
                         shared memory (SoA), increments colour by colour
                         in shared memory (threads sorted by colour), blocks
                         coloured, written back without atomics            */
  AIRFOIL_ATOMIC1,    /* atomicAdd, res_calc and bres_calc in one launch over
                         edges then bedges, vector loads of AoS dats       */
  AIRFOIL_GATHER4,    /* res_calc and bres_calc in one launch writing one
                         flux array (edges then bedges); the cells gather
                         through a fixed-arity map [cell][K] of signed flux
                         rows (K = 4 on a quad mesh: one 16-byte load, no
                         offsets), padded with a zero row                  */
  AIRFOIL_NINCR
} airfoil_incr_t;

/* The kernel launch types a profile (--profile) times, one row each. A
 * fused kernel is its own type; which ones a run launches depends on the
 * strategy and on fusion. */
typedef enum {
  AIRFOIL_K_SAVE = 0,        /* save_soln                                   */
  AIRFOIL_K_ADT,             /* adt_calc                                    */
  AIRFOIL_K_RES,             /* res_calc                                    */
  AIRFOIL_K_BRES,            /* bres_calc                                   */
  AIRFOIL_K_RESB,            /* res_calc + bres_calc, one launch            */
  AIRFOIL_K_GATHER,          /* gather of the fluxes into res (unfused)     */
  AIRFOIL_K_UPDATE,          /* update                                      */
  AIRFOIL_K_UPDATE_ADT,      /* update + adt_calc                           */
  AIRFOIL_K_UPDATE_ADT_SAVE, /* update + adt_calc + save_soln               */
  AIRFOIL_K_GUPDATE_ADT,     /* gather + update + adt_calc                  */
  AIRFOIL_K_GUPDATE_ADT_SAVE,/* gather + update + adt_calc + save_soln      */
  AIRFOIL_NKERNELS
} airfoil_kernel_t;

/* Per-kernel time accumulated over a run: launches and seconds (CUDA events
 * around each launcher, synchronised per pair, or CPU wall time). */
typedef struct {
  int64_t calls[AIRFOIL_NKERNELS];
  double seconds[AIRFOIL_NKERNELS];
} airfoil_profile_t;

typedef struct {
  int niter;           /* iterations (OP2: 1000)                            */
  airfoil_prec_t prec;
  double *rms;         /* [niter] out: rms of every iteration               */
  double *q;           /* [ncell][4] out: final q in double, or NULL        */
  double seconds;      /* out: wall time of the iterations                  */
  size_t l2_window;    /* out (CUDA): bytes under the L2 persisting window
                          (0: none)                                         */
} airfoil_run_t;

/* rms of one iteration from the sum of del^2 of its second update. */
static inline double airfoil_rms(double sum, int64_t ncell) {
  return sqrt(sum / (double)ncell);
}

/* The plain sequential reference: OP2's loop order, AoS, plain increments. */
int airfoil_cpu_ref(const airfoil_problem_t *p, airfoil_run_t *r);
/* The same, each loop timed into *prof (added to it; NULL: not timed). */
int airfoil_cpu_ref_profile(const airfoil_problem_t *p, airfoil_run_t *r, airfoil_profile_t *prof);

/* Whether update runs the cells other ranks read first (airfoil_cuda_opts_t).
 * AUTO: below a size per rank where it pays on 2 and 4 H200s (NVLink, CUDA
 * IPC): up to 2^19 owned cells with cuda/gather4, 2^18 otherwise (above, the
 * extra launch costs more than the exchange it hides; docs/AIRFOIL.md). */
typedef enum { AIRFOIL_SPLIT_AUTO = 0, AIRFOIL_SPLIT_ON, AIRFOIL_SPLIT_OFF } airfoil_split_t;
/* Whether a split stage's launches go as one CUDA graph (airfoil_cuda_opts_t).
 * AUTO: where the exchange is CUDA IPC's put (tsr_halo_graph_*), AoS, fused
 * and split, and not profiled: per stage the host then launches one graph
 * (the exchange's chain beside the bulk of update and of the next core
 * edges; airfoil_cuda_graph.c) and does the handshake; OFF: each
 * launch from the host. */
typedef enum { AIRFOIL_GRAPH_AUTO = 0, AIRFOIL_GRAPH_OFF } airfoil_graph_t;
/* Whether the array one per-stage kernel writes and the next reads (fused
 * cuda/gather4's fluxes, cuda/atomic1's res) is kept in L2's persisting part
 * (an access-policy window on those launches; airfoil_cuda_opts_t). AUTO:
 * where the whole array fits the device's largest set-aside (37.5 MiB on an
 * H200: atomic1 on OP2's standard mesh, gather4 from 2 ranks up;
 * docs/AIRFOIL.md); ON: as much of it as fits, the rest streamed; OFF: no
 * window. */
typedef enum { AIRFOIL_L2_AUTO = 0, AIRFOIL_L2_ON, AIRFOIL_L2_OFF } airfoil_l2_t;

typedef struct {
  airfoil_incr_t incr;
  airfoil_layout_t layout;
  int block;           /* threads per block (e.g. 256)                      */
  int fuse;            /* 1: loops fused where they touch the same data:
                          update + the next adt_calc (+ save_soln), gather's
                          sum inside update (no res array); 0: one kernel
                          per loop, as OP2                                  */
  airfoil_split_t split; /* several ranks, fused: update in two launches, the
                            exported cells first (the exchange starts after
                            them, beside the rest of update), or one       */
  airfoil_graph_t graph; /* several ranks, split: the stage as a CUDA graph */
  airfoil_l2_t l2;       /* the L2 persisting window                        */
} airfoil_cuda_opts_t;

/* A CUDA variant (TSR_ERR_NOCUDA in a build without CUDA). On a
 * partitioned mesh (p->halo) collective over p->comm: q and adt exchanged
 * on the device (tsr_halo, host-staged) while the core edges run, the rms
 * sums reduced over p->comm. */
int airfoil_cuda_run(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_run_t *r);
/* The same, every launcher timed by a pair of CUDA events into *prof (added
 * to it; NULL: not timed). Profiling synchronises the host after each
 * launcher, so kernels no longer overlap their neighbours' launch latency
 * and tails: the per-kernel sum can exceed the unprofiled run time. */
int airfoil_cuda_run_profile(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o,
                             airfoil_run_t *r, airfoil_profile_t *prof);

/* ---- per-kernel profile (airfoil_profile.c) ------------------------------ */
/* Kernel name ("res_calc", "update+adt_calc", ...). */
const char *airfoil_kernel_name(airfoil_kernel_t k);
/* What the byte model of a kernel needs: set sizes and the rows the
 * boundary edges touch (summed over ranks for a distributed run). */
typedef struct {
  int64_t nnode, ncell, nedge, nbedge; /* executed / updated rows            */
  int64_t nbnode, nbcell;              /* distinct nodes, cells of the bedges */
  int gather_k;                        /* AIRFOIL_GATHER4: map arity (4)      */
} airfoil_counts_t;
/* The counts of a (local) problem: cells owned, edges executed, ... */
void airfoil_counts_of(const airfoil_problem_t *p, airfoil_counts_t *c);
/* Minimum bytes one launch of kernel k moves under strategy incr with reals
 * of `real` bytes: every array it reads or writes once (docs/AIRFOIL.md). */
double airfoil_kernel_bytes(airfoil_kernel_t k, airfoil_incr_t incr, const airfoil_counts_t *c,
                            size_t real);
/* Passes kernel k made over its set in a run of niter iterations in which
 * it was launched `calls` times: res_calc and bres_calc make one pass per
 * stage in one or more launches (core and rest parts, colours), every other
 * kernel one pass per launch. */
double airfoil_kernel_passes(airfoil_kernel_t k, int64_t calls, int niter);
/* What a profile's rows are labelled with besides the kernel. */
typedef struct {
  const char *variant, *precision, *reorder;
  int ranks, block, fuse, niter;
  double ceiling;      /* device copy bandwidth, bytes/s (0: unknown)         */
  double run_s;        /* wall time of the profiled run                       */
  double unprofiled_s; /* median of the timed (unprofiled) runs               */
} airfoil_profile_label_t;
/* The CSV header of the rows below (docs/CSV.md). */
void airfoil_profile_csv_header(FILE *csv);
/* One row per kernel with calls > 0, then a "sum" row (seconds, bytes and
 * calls added up; passes and bytes_per_pass 0): to `table` as text and to
 * `csv` (either may be NULL). Bytes = airfoil_kernel_bytes x passes. */
void airfoil_profile_report(const airfoil_profile_t *pr, airfoil_incr_t incr,
                            const airfoil_counts_t *c, size_t real,
                            const airfoil_profile_label_t *l, FILE *table, FILE *csv);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_RUN_H */
