/* lib/src/colour.c: greedy colourings of indirect loops (tessera/colour.h). */
#include "config.h"

#include <stdlib.h>

#include "tessera/colour.h"
#include "tessera/error.h"

int tsr_colour_greedy(const int32_t *map, tsr_idx_t nrows, int dim, tsr_idx_t ntargets,
                      int32_t *colour, int *ncolours) {
  TSR_CHECK(map || nrows == 0, TSR_ERR_ARG, "tsr_colour_greedy: map is NULL");
  TSR_CHECK(dim >= 1 && nrows >= 0 && ntargets >= 0, TSR_ERR_ARG,
            "tsr_colour_greedy: dim %d, %lld rows, %lld targets", dim, (long long)nrows,
            (long long)ntargets);
  uint64_t *used = calloc((size_t)(ntargets > 0 ? ntargets : 1), sizeof(uint64_t));
  TSR_CHECK(used, TSR_ERR_ALLOC, "tsr_colour_greedy: no memory for %lld targets",
            (long long)ntargets);
  int nc = 0, rc = 0;
  for (tsr_idx_t r = 0; r < nrows && !rc; r++) {
    uint64_t m = 0;
    for (int k = 0; k < dim; k++) {
      int32_t t = map[r * dim + k];
      if (t < 0 || t >= ntargets) {
        rc = TSR_RAISE(TSR_ERR_RANGE, "tsr_colour_greedy: row %lld column %d: target %d not in [0, %lld)",
                       (long long)r, k, t, (long long)ntargets);
        break;
      }
      m |= used[t];
    }
    if (rc) break;
    if (m == ~(uint64_t)0) {
      rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "tsr_colour_greedy: row %lld needs more than %d colours",
                     (long long)r, TSR_COLOUR_MAX);
      break;
    }
    int c = 0;
    while (m & ((uint64_t)1 << c)) c++;
    colour[r] = c;
    if (c + 1 > nc) nc = c + 1;
    for (int k = 0; k < dim; k++) used[map[r * dim + k]] |= (uint64_t)1 << c;
  }
  free(used);
  TSR_CALL(rc);
  *ncolours = nc;
  return 0;
}

int tsr_colour_groups(const int32_t *colour, tsr_idx_t nrows, int ncolours, tsr_idx_t **offsets,
                      int32_t **order) {
  *offsets = NULL;
  *order = NULL;
  tsr_idx_t *off = calloc((size_t)ncolours + 2, sizeof(tsr_idx_t));
  int32_t *ord = malloc(sizeof(int32_t) * (size_t)(nrows > 0 ? nrows : 1));
  if (!off || !ord) {
    free(off);
    free(ord);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_colour_groups: no memory for %lld rows", (long long)nrows);
  }
  for (tsr_idx_t r = 0; r < nrows; r++) {
    if (colour[r] < 0 || colour[r] >= ncolours) {
      free(off);
      free(ord);
      return TSR_RAISE(TSR_ERR_RANGE, "tsr_colour_groups: row %lld has colour %d, not in [0, %d)",
                       (long long)r, colour[r], ncolours);
    }
    off[colour[r] + 1]++;
  }
  for (int c = 0; c < ncolours; c++) off[c + 1] += off[c];
  tsr_idx_t *fill = malloc(sizeof(tsr_idx_t) * (size_t)(ncolours + 1));
  if (!fill) {
    free(off);
    free(ord);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_colour_groups: no memory");
  }
  for (int c = 0; c <= ncolours; c++) fill[c] = off[c];
  for (tsr_idx_t r = 0; r < nrows; r++) ord[fill[colour[r]]++] = (int32_t)r;
  free(fill);
  *offsets = off;
  *order = ord;
  return 0;
}
