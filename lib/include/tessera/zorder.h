/* tessera/zorder.h: the stretched Z-order (Morton) curve of an X-Y plane and
 * the dense rank tables that turn it into a storage order for any plane size.
 *
 * Code. For plane coordinates (x, y) and a stretch w (0 <= w <= 31) the low
 * w bits of x are NOT interleaved: write x = xh * 2^w + xl (0 <= xl < 2^w),
 * then
 *     code(x, y, w) = morton(xh, y) * 2^w + xl,
 *     morton(xh, y) = sum_k  bit_k(xh) * 2^(2k)  +  bit_k(y) * 2^(2k+1)
 * (x bits on the even positions, y bits on the odd ones, so x varies fastest).
 * With w = 0 this is the classical Morton code; with w > 0 every run of 2^w
 * consecutive x starting at a multiple of 2^w has consecutive codes, so a
 * warp's vector loads along x stay contiguous (w = 5: 32 doubles, w = 2: 32
 * bytes of doubles).
 *
 * Rank tables. A plane of nx * ny cells (any sizes, not only powers of two)
 * is stored densely by giving each cell the RANK of its code among the codes
 * of the plane's cells: ranks are 0 .. nx*ny-1 and order(code) = order(rank).
 *   order[x + nx*y]  = rank of cell (x, y)      (tsr_zorder_plane_order)
 *   cells[rank]      = x + nx*y of that rank    (tsr_zorder_plane_inverse)
 * Both tables are int64_t arrays of nx*ny entries, allocated by the caller.
 * Cost: O(nx*ny) time (a quadtree walk in code order), no extra memory.
 */
#ifndef TESSERA_ZORDER_H
#define TESSERA_ZORDER_H

#include <stdint.h>
#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest stretch accepted (x has 32 bits). */
#define TSR_ZORDER_MAX_W 31

/* Spread the 32 bits of v to the even bit positions of a 64-bit word. */
static inline TSR_HD uint64_t tsr_zorder_spread(uint32_t v) {
  uint64_t r = v;
  r = (r | (r << 16)) & 0x0000FFFF0000FFFFULL;
  r = (r | (r << 8)) & 0x00FF00FF00FF00FFULL;
  r = (r | (r << 4)) & 0x0F0F0F0F0F0F0F0FULL;
  r = (r | (r << 2)) & 0x3333333333333333ULL;
  r = (r | (r << 1)) & 0x5555555555555555ULL;
  return r;
}

/* Inverse of tsr_zorder_spread: gather the even bits of v. */
static inline TSR_HD uint32_t tsr_zorder_compact(uint64_t v) {
  v &= 0x5555555555555555ULL;
  v = (v | (v >> 1)) & 0x3333333333333333ULL;
  v = (v | (v >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
  v = (v | (v >> 4)) & 0x00FF00FF00FF00FFULL;
  v = (v | (v >> 8)) & 0x0000FFFF0000FFFFULL;
  v = (v | (v >> 16)) & 0x00000000FFFFFFFFULL;
  return (uint32_t)v;
}

/* Stretched Z-order code of (x, y) with w non-interleaved low bits of x.
 * Exact (no overflow) while 2 * bitlength(max(x >> w, y)) + w <= 64, which
 * tsr_zorder_plane_order checks for a whole plane. */
static inline TSR_HD uint64_t tsr_zorder_code(uint32_t x, uint32_t y, int w) {
  uint32_t xh = (uint32_t)((uint64_t)x >> w);
  uint64_t xl = (uint64_t)x & ((1ULL << w) - 1ULL);
  return ((tsr_zorder_spread(xh) | (tsr_zorder_spread(y) << 1)) << w) | xl;
}

/* Inverse of tsr_zorder_code. */
static inline TSR_HD void tsr_zorder_decode(uint64_t code, int w, uint32_t *x, uint32_t *y) {
  uint64_t m = code >> w;
  *x = (uint32_t)(((uint64_t)tsr_zorder_compact(m) << w) | (code & ((1ULL << w) - 1ULL)));
  *y = tsr_zorder_compact(m >> 1);
}

/* order[x + nx*y] = rank of code(x, y, w) among the nx*ny cells of the
 * plane [0,nx) x [0,ny): the dense storage index of the cell.
 * Errors: TSR_ERR_ARG for nx, ny < 1, w outside 0..31, a NULL order, or a
 * plane whose codes would not fit in 64 bits. */
int tsr_zorder_plane_order(int64_t nx, int64_t ny, int w, int64_t *order);

/* cells[rank] = x + nx*y: the cell stored at each rank (inverse of order). */
int tsr_zorder_plane_inverse(int64_t nx, int64_t ny, int w, int64_t *cells);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_ZORDER_H */
