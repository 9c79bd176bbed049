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

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_COLOUR_H */
