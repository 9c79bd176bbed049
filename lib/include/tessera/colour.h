/* tessera/colour.h: colourings of indirect loops.
 *
 * An indirect increment loop over a set (edges) writes through a map to
 * another set (cells). Two elements that write the same target must not run
 * at the same time without atomics; a colouring gives every element a colour
 * such that no two elements of one colour share a target, and groups the
 * elements by colour so that each colour runs as one conflict-free launch.
 */
#ifndef TESSERA_COLOUR_H
#define TESSERA_COLOUR_H

#include <stdint.h>
#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_COLOUR_MAX 64 /* colours a greedy colouring may use */

/* Greedy colouring, in element order, of the rows of map (nrows x dim,
 * targets in [0, ntargets)): row r gets the lowest colour not yet used by a
 * row sharing a target with it. Writes colour[nrows] and *ncolours.
 * Raises TSR_ERR_RANGE for a target out of range and TSR_ERR_UNSUPPORTED
 * when more than TSR_COLOUR_MAX colours would be needed. */
int tsr_colour_greedy(const int32_t *map, tsr_idx_t nrows, int dim, tsr_idx_t ntargets,
                      int32_t *colour, int *ncolours);

/* Elements grouped by colour: rows of colour c are
 * order[offsets[c] .. offsets[c+1]), in increasing order. offsets has
 * ncolours + 1 entries, order nrows; both malloc'd (free with free()). */
int tsr_colour_groups(const int32_t *colour, tsr_idx_t nrows, int ncolours, tsr_idx_t **offsets,
                      int32_t **order);


/* ---- two-level (block + thread) colouring plans (colour_plan.c) --------
 *
 * Sulyok et al.'s (2019) shared-memory staging of an indirect increment loop: the
 * elements (rows of the increment map) are cut into blocks (CUDA thread
 * blocks; CSR offsets, blocks of unequal size allowed); each block stages
 * the targets it touches in shared memory, once; the threads of a block
 * are coloured so that no two threads of one colour increment the same
 * target (increments applied colour by colour, with a barrier between) and
 * sorted by colour (fewer divergent warps); the blocks are coloured so that
 * no two blocks of one colour write the same target (one launch per block
 * colour writes the staged increments back without atomics).
 */

/* Targets a block stages for one map, and each access's slot among them. */
typedef struct {
  int dim;               /* map arity                                        */
  tsr_idx_t *target_off; /* [nblocks + 1]                                    */
  int32_t *target;       /* [target_off[nblocks]] block b's targets, ascending */
  int32_t *local;        /* [nelem][dim] slot of map[order[i]][k] in its
                            block's list (-1 where the map entry is < 0)     */
  int max_targets;       /* most targets of one block (shared memory size)   */
  tsr_idx_t accesses;    /* map entries >= 0 of the planned elements         */
  double reuse_min, reuse_mean, reuse_max; /* accesses / targets per block   */
} tsr_plan_stage_t;

typedef struct {
  tsr_idx_t first, nelem;  /* the planned rows [first, first + nelem)         */
  tsr_idx_t nblocks;
  tsr_idx_t *block_off;    /* [nblocks + 1] positions of block b              */
  int max_block;           /* most elements of one block                      */
  int32_t *order;          /* [nelem] row executed at each position: block by
                              block, by thread colour within a block          */
  int32_t *thread_colour;  /* [nelem] colour of the row at each position      */
  int32_t *block_ncolours; /* [nblocks] thread colours of block b             */
  int max_thread_colours;
  int nblock_colours;
  int32_t *block_colour;   /* [nblocks]                                       */
  tsr_idx_t *bcolour_off;  /* [nblock_colours + 1]                            */
  int32_t *bcolour_blocks; /* [nblocks] blocks grouped by colour, ascending   */
  tsr_plan_stage_t inc;    /* the increment map's staging                    */
} tsr_plan_t;

/* Plan rows [first, first + nelem) of the increment map (`dim` targets in
 * [0, ntargets); negative entries are not incremented) in nblocks blocks of
 * consecutive rows: block b is rows first + block_off[b] .. first +
 * block_off[b+1] (block_off[0] == 0, block_off[nblocks] == nelem). Colours
 * (at most TSR_COLOUR_MAX per level) as described above. */
int tsr_plan_create(const int32_t *map, int dim, tsr_idx_t ntargets, tsr_idx_t first,
                    tsr_idx_t nelem, tsr_idx_t nblocks, const tsr_idx_t *block_off,
                    tsr_plan_t **out);
int tsr_plan_destroy(tsr_plan_t **plan);
/* The staging of another map read by the same loop (e.g. edges -> nodes)
 * in the plan's order and blocks; free with tsr_plan_stage_free. */
int tsr_plan_stage(const tsr_plan_t *plan, const int32_t *map, int dim, tsr_idx_t ntargets,
                   tsr_plan_stage_t *st);
void tsr_plan_stage_free(tsr_plan_stage_t *st);
/* Uniform blocks: ceil(nelem / block) blocks of `block` rows (the last one
 * shorter); *block_off malloc'd. */
int tsr_plan_uniform_blocks(tsr_idx_t nelem, int block, tsr_idx_t *nblocks, tsr_idx_t **block_off);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_COLOUR_H */
