/* kernels/stencil/stencil_tb.h: temporal blocking of laplap and hdiff on
 * regular and X-Y-unstructured grids: one pass over memory advances
 * `steps` time steps.
 *
 * The scheme (a register wavefront, the overlapped tiling of GPU stencil
 * compilers such as AN5D without the shared-memory tile): the updated
 * region of every level is cut into tiles of W - 4 steps columns (W =
 * 32 * xpt: a warp's lanes, xpt points each) and strips of `rows` rows. A
 * warp reads its tile with a halo of 2 steps columns on each side and its
 * strip with 2 steps rows above and below, one row after the other. Every
 * step is two radius-1 stages (laplap: L, then L of L; hdiff: L, then the
 * limited fluxes and the update), so the 2 steps stages form a pipeline
 * along y: when input row r arrives, stage s computes its row r - s from
 * the last 3 rows of stage s - 1 (hdiff's second stage also reads 3 rows of
 * the step's input: windows of 4 rows) kept in registers; x neighbours come
 * from the warp's neighbouring lanes (shuffles on the GPU). Each stage
 * leaves one more column invalid at either edge of the tile, so after the
 * 2 steps stages the inner W - 4 steps columns are the result; the last
 * stage writes them. The intermediate states never leave the chip.
 *
 * Exactness: every value is the point functions of stencil_arith.inc in
 * the single-step order, and a state outside the live region (the domain's
 * inner cells: outside them, the halo the single steps never write) is set
 * back to the input there after every step, so k steps of a pass are the
 * bits of k single steps.
 *
 * Several ranks: a rank's array has a halo of H >= 2 n cells in x and y,
 * exchanged before every pass of n steps; the live region then reaches
 * into that halo (the neighbours' cells, recomputed here for the
 * intermediate steps) and ends only at the domain's boundary.
 *
 * Unstructured grids (X-Y-unstructured, one domain): where the tables
 * show the updated slots as a rectangle of the relations (stencil_grid_t's
 * col: ncol columns of nrow slots), the same pipeline runs on the tables'
 * picture of it, a map from the positions of that rectangle and a ring of 2
 * around it (the single steps' halo, reached through the W, WW, S, SS, WS,
 * ... relations of the rectangle's edge) to slots (stencil_tb_umap). A warp
 * reads its rows through the map; when the rectangle's slots are affine in
 * the positions (a grid stored row by row), the warps whose whole window
 * lies inside the rectangle read without it, as on the regular grid.
 *
 * stencil_tb_cpu runs the same pipeline on the host (OpenMP over levels,
 * tiles and strips; a lane's xpt points are consecutive entries of a row of
 * W), so that its tiling, windows and edge rules are tested without a GPU.
 */
#ifndef TSR_KERNELS_STENCIL_TB_H
#define TSR_KERNELS_STENCIL_TB_H

#include "kernels/stencil/stencil.h"
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The strategy value of the temporal-blocking rows of variants.def (not a
 * stencil_cuda_strategy_t or stencil_cpu_strategy_t: the app runs these
 * variants through the functions below). */
#define STENCIL_TB_STRATEGY (-2)

#define STENCIL_TB_MAXSTEPS 4 /* steps per pass compiled (1 .. 4) */
#define STENCIL_TB_MAXWARPS 8 /* warps per CUDA block: the kernels are compiled for 256 threads
                                 (__launch_bounds__), so that the windows stay in registers */
#define STENCIL_TB_MAXTHREADS (32 * STENCIL_TB_MAXWARPS)

typedef struct {
  int steps; /* time steps per pass, 1 .. STENCIL_TB_MAXSTEPS (0: 2) */
  int rows;  /* rows of a warp's strip (0: 32) */
  int xpt;   /* points per lane along x: 1 or 2 (0: 2); tile width 32 xpt */
  int warps; /* warps per CUDA block, each its own strip (0: 4) */
} stencil_tb_t;

/* Steps of the next pass when `left` steps remain and a pass takes at most
 * k: the fewest passes, as even as they can be (10 steps at k = 4: 4, 3, 3;
 * at k = 3: 3, 3, 2, 2), so that no pass is a short, slow one at the end
 * (a pass costs nearly as much per step at k = 3 as at 4, and twice as
 * much at 1). Any split gives the single steps' bits. */
static inline int stencil_tb_next(int left, int k) {
  const int passes = (left + k - 1) / k;
  return (left + passes - 1) / passes;
}

/* tb with its zero members set to the defaults. */
stencil_tb_t stencil_tb_defaults(stencil_tb_t tb);
/* TSR_ERR_ARG naming the option (--tb-steps, --tb-rows, --tb-xpt,
 * --tb-warps) for a configuration out of range. */
int stencil_tb_check(stencil_tb_t tb);
/* Output columns of a tile: 32 xpt - 4 steps. */
static inline int stencil_tb_width(stencil_tb_t tb) { return 32 * tb.xpt - 4 * tb.steps; }

/* The map of an unstructured grid's updated rectangle and its ring of 2:
 * position (x, y), 0 <= x < d0 = ncol + 4, 0 <= y < d1 = nrow + 4 (the
 * rectangle from (2, 2)), has slot map[x + d0 y], or -1 where the tables
 * name no slot (the ring's outer corners: no updated cell's footprint
 * holds them). affine: slot(x, y) = a0 + x + y sy for every position of
 * the rectangle. dmap: its device copy (stencil_tb_umap_upload; NULL on
 * the host). */
typedef struct {
  int32_t *map;
  const int32_t *dmap;
  int64_t d0, d1;
  int affine;
  int64_t a0, sy;
  tsr_device_t dev;  /* dmap's device (dmap owned: freed by stencil_tb_umap_destroy) */
} stencil_tb_umap_t;

/* The map of g (UNSTR, host tables, one domain: g->col set).
 * TSR_ERR_UNSUPPORTED naming the reason when the tables do not show the
 * updated slots as a rectangle (a rank's part of a partitioned plane). */
int stencil_tb_umap_create(const stencil_grid_t *g, stencil_tb_umap_t *m);
/* The map's copy on dev, for stencil_tb_cuda (on the CPU: nothing). */
int stencil_tb_umap_upload(stencil_tb_umap_t *m, const tsr_device_t *dev);
void stencil_tb_umap_destroy(stencil_tb_umap_t *m); /* the map and its device copy */

/* One pass of n steps (1 <= n <= STENCIL_TB_MAXSTEPS; tb.steps is not
 * used): f->out = n steps of kind (laplap or hdiff) from f->in over g's
 * region (regular grid, one SoA field), the cells outside the region
 * unchanged and not written. live (x lo, x hi, y lo, y hi; NULL: g's
 * region): the cells every step updates; f->in's cells outside it are the
 * boundary every step sees (the single steps' halo). f->in must hold the
 * cells within 2 n of g's region. um: NULL for a regular grid; for an
 * unstructured grid (UNSTR, one field per slot and level) its map, live
 * NULL (one domain: the rectangle is the live region). */
int stencil_tb_cpu(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const stencil_fields_t *f,
                   stencil_tb_t tb, int n, const int64_t live[4]);
/* The same on the GPU (device memory, um->dmap; asynchronous on the
 * default stream); TSR_ERR_NOCUDA without CUDA. blocks: the launch grid
 * (may be NULL). */
int stencil_tb_cuda(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const stencil_fields_t *f,
                    stencil_tb_t tb, int n, const int64_t live[4], unsigned blocks[3]);

/* Internal: the checks of both functions above; box: the updated positions
 * (x lo, x hi, y lo, y hi). */
int stencil__tb_prep(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const int64_t *live,
                     int64_t box[4]);

#ifdef __cplusplus
}
#endif
#endif
