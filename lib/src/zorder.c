/* zorder.c: rank tables of the stretched Z-order curve (see tessera/zorder.h).
 *
 * The ranks are produced without sorting: a walk of the quadtree over
 * (xh, y) = (x >> w, y) visits its four children in code order (x bit low,
 * y bit high), skips blocks that lie outside the plane, and at each leaf
 * emits the run of up to 2^w cells x = xh*2^w + xl that exist. Cells are
 * therefore met in increasing code order and numbered 0, 1, 2, ... */
#include "config.h"

#include "tessera/zorder.h"
#include "tessera/error.h"

typedef struct {
  int64_t nx, ny, nxh; /* plane size; nxh = ceil(nx / 2^w) columns of runs */
  int w;
  int64_t next;        /* next rank */
  int64_t *order;      /* order[x + nx*y] = rank, or NULL */
  int64_t *cells;      /* cells[rank] = x + nx*y, or NULL */
} walk_t;

/* Visit the block xh in [X0, X0 + 2^level), y in [Y0, Y0 + 2^level). */
static void walk(walk_t *s, int level, int64_t X0, int64_t Y0) {
  if (X0 >= s->nxh || Y0 >= s->ny) return;
  if (level == 0) {
    int64_t x0 = X0 << s->w;
    int64_t x1 = TSR_MIN(x0 + ((int64_t)1 << s->w), s->nx);
    for (int64_t x = x0; x < x1; x++) {
      int64_t c = x + s->nx * Y0;
      if (s->order) s->order[c] = s->next;
      if (s->cells) s->cells[s->next] = c;
      s->next++;
    }
    return;
  }
  int64_t h = (int64_t)1 << (level - 1);
  walk(s, level - 1, X0, Y0);
  walk(s, level - 1, X0 + h, Y0);
  walk(s, level - 1, X0, Y0 + h);
  walk(s, level - 1, X0 + h, Y0 + h);
}

static int bitlen(int64_t v) { /* bits needed for v >= 0 */
  int n = 0;
  while (v > 0) { n++; v >>= 1; }
  return n;
}

static int plane_walk(const char *fn, int64_t nx, int64_t ny, int w, int64_t *order,
                      int64_t *cells) {
  TSR_CHECK(nx >= 1 && ny >= 1, TSR_ERR_ARG, "%s: plane size must be positive, got %lld x %lld",
            fn, (long long)nx, (long long)ny);
  TSR_CHECK(w >= 0 && w <= TSR_ZORDER_MAX_W, TSR_ERR_ARG,
            "%s: stretch w must be in 0..%d, got %d", fn, TSR_ZORDER_MAX_W, w);
  TSR_CHECK(nx <= ((int64_t)1 << 32) && ny <= ((int64_t)1 << 32), TSR_ERR_ARG,
            "%s: plane %lld x %lld exceeds 2^32 cells in x or y", fn, (long long)nx,
            (long long)ny);
  TSR_CHECK(order || cells, TSR_ERR_ARG, "%s: NULL output table", fn);
  walk_t s = {nx, ny, 0, w, 0, order, cells};
  s.nxh = ((nx - 1) >> w) + 1;
  int level = bitlen(TSR_MAX(s.nxh, ny) - 1);
  TSR_CHECK(2 * level + w <= 64, TSR_ERR_ARG,
            "%s: codes of a %lld x %lld plane with w = %d need %d bits (at most 64)", fn,
            (long long)nx, (long long)ny, w, 2 * level + w);
  walk(&s, level, 0, 0);
  TSR_CHECK(s.next == nx * ny, TSR_ERR_INTERNAL, "%s: walk numbered %lld of %lld cells", fn,
            (long long)s.next, (long long)(nx * ny));
  return TSR_SUCCESS;
}

int tsr_zorder_plane_order(int64_t nx, int64_t ny, int w, int64_t *order) {
  TSR_CHECK(order, TSR_ERR_ARG, "tsr_zorder_plane_order: NULL order table");
  TSR_CALL(plane_walk("tsr_zorder_plane_order", nx, ny, w, order, NULL));
  return TSR_SUCCESS;
}

int tsr_zorder_plane_inverse(int64_t nx, int64_t ny, int w, int64_t *cells) {
  TSR_CHECK(cells, TSR_ERR_ARG, "tsr_zorder_plane_inverse: NULL cells table");
  TSR_CALL(plane_walk("tsr_zorder_plane_inverse", nx, ny, w, NULL, cells));
  return TSR_SUCCESS;
}
