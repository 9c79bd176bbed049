/* part_regular.c: block decomposition of a regular grid's X-Y plane. */
#include "config.h"
#include "tessera/part.h"
#include "tessera/error.h"

#include <string.h>

void tsr_part_block(tsr_idx_t n, int p, int i, tsr_idx_t *lo, tsr_idx_t *hi) {
  tsr_idx_t q = n / p, r = n % p;
  *lo = (tsr_idx_t)i * q + TSR_MIN((tsr_idx_t)i, r);
  *hi = *lo + q + ((tsr_idx_t)i < r ? 1 : 0);
}

int tsr_part_block_owner(tsr_idx_t n, int p, tsr_idx_t c) {
  tsr_idx_t q = n / p, r = n % p;
  /* the first r blocks hold q+1 cells each */
  if (c < r * (q + 1)) return (int)(c / (q + 1));
  return (int)(r + (c - r * (q + 1)) / q);
}

/* The halo cells a rank of process grid px x py exchanges per unit of halo
 * width, times the rank count (so that it is an integer): an x side (a
 * column of the plane: strided in memory, and the interior beside it starts
 * off its rows' alignment) counts twice: 2 sides x 2 x ny/py cells, 2 sides x
 * nx/px for y. */
static double part_cost(int px, int py, tsr_idx_t nx, tsr_idx_t ny) {
  return (px > 1 ? 4.0 * (double)ny * px : 0.0) + (py > 1 ? 2.0 * (double)nx * py : 0.0);
}

/* The cheapest pair whose blocks hold at least need cells along x and y
 * (ties to fewer ranks along x); when none does, the cheapest of all (the
 * caller's size check then says why it cannot decompose). */
static int part_dims(int nranks, tsr_idx_t nx, tsr_idx_t ny, tsr_idx_t need, int dims[2]) {
  TSR_CHECK(nranks > 0, TSR_ERR_ARG, "tsr_part_dims: %d ranks", nranks);
  TSR_CHECK(nx > 0 && ny > 0, TSR_ERR_ARG, "tsr_part_dims: plane %lld x %lld", (long long)nx,
            (long long)ny);
  int best = 0, bfits = 0;
  double bcost = 0.0;
  for (int px = 1; px <= nranks; px++) {
    if (nranks % px) continue;
    const int py = nranks / px;
    const int fits = nx / px >= need && ny / py >= need;
    const double c = part_cost(px, py, nx, ny);
    if (!best || fits > bfits || (fits == bfits && c < bcost)) best = px, bfits = fits, bcost = c;
  }
  dims[0] = best;
  dims[1] = nranks / best;
  return TSR_SUCCESS;
}

int tsr_part_dims(int nranks, tsr_idx_t nx, tsr_idx_t ny, int dims[2]) {
  return part_dims(nranks, nx, ny, 1, dims);
}

static int wrap(int c, int p, int periodic) {
  if (c >= 0 && c < p) return c;
  if (!periodic) return -1;
  return ((c % p) + p) % p;
}

int tsr_grid_part_rank_at(const tsr_grid_part_t *p, int cx, int cy) {
  int x = wrap(cx, p->dims[0], p->periodic[0]);
  int y = wrap(cy, p->dims[1], p->periodic[1]);
  if (x < 0 || y < 0) return MPI_PROC_NULL;
  return y * p->dims[0] + x;
}

void tsr_grid_part_box(const tsr_grid_part_t *p, int r, tsr_idx_t lo[3], tsr_idx_t hi[3]) {
  int cx = r % p->dims[0], cy = r / p->dims[0];
  tsr_part_block(p->n[0], p->dims[0], cx, &lo[0], &hi[0]);
  tsr_part_block(p->n[1], p->dims[1], cy, &lo[1], &hi[1]);
  lo[2] = 0;
  hi[2] = p->n[2];
}

int tsr_grid_part_owner(const tsr_grid_part_t *p, tsr_idx_t x, tsr_idx_t y) {
  return tsr_part_block_owner(p->n[1], p->dims[1], y) * p->dims[0] +
         tsr_part_block_owner(p->n[0], p->dims[0], x);
}

tsr_grid_box_t tsr_grid_part_local(const tsr_grid_part_t *p, int zhalo) {
  tsr_grid_box_t b;
  b.nx = p->inner[0] + 2 * p->halo;
  b.ny = p->inner[1] + 2 * p->halo;
  b.nz = p->inner[2] + 2 * (tsr_idx_t)zhalo;
  b.x0 = p->halo;
  b.y0 = p->halo;
  b.z0 = zhalo;
  return b;
}

/* Every rank computes the same verdict, so no rank waits on another; the
 * agreement still makes the failure collective (tsr_abort prints it once). */
static int check_fits(const tsr_grid_part_t *p) {
  static const char axis[2] = {'x', 'y'};
  int need = TSR_MAX(p->halo, 1);
  for (int a = 0; a < 2; a++) {
    tsr_idx_t smallest = p->n[a] / p->dims[a];
    TSR_CHECK(smallest >= need, TSR_ERR_PARTITION,
              "cannot decompose the %lld x %lld x %lld grid over %d ranks: the process grid "
              "%d x %d leaves %lld cells in %c on some rank, fewer than %s %d; use fewer ranks "
              "or a larger grid",
              (long long)p->n[0], (long long)p->n[1], (long long)p->n[2], p->size, p->dims[0],
              p->dims[1], (long long)smallest, axis[a],
              p->halo > 0 ? "the halo width" : "the minimum", need);
  }
  return TSR_SUCCESS;
}

int tsr_grid_part_init(MPI_Comm comm, const tsr_idx_t n[3], int halo, const int periodic[2],
                       tsr_grid_part_t *out) {
  TSR_CHECK(out && n, TSR_ERR_ARG, "tsr_grid_part_init: NULL argument");
  memset(out, 0, sizeof *out);
  TSR_CHECK(n[0] > 0 && n[1] > 0 && n[2] > 0, TSR_ERR_ARG,
            "grid size %lld x %lld x %lld: every extent must be positive", (long long)n[0],
            (long long)n[1], (long long)n[2]);
  TSR_CHECK(halo >= 0, TSR_ERR_ARG, "halo width %d is negative", halo);
  out->comm = comm;
  TSR_CALL_MPI(MPI_Comm_size(comm, &out->size));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &out->rank));
  for (int a = 0; a < 3; a++) out->n[a] = n[a];
  out->halo = halo;
  out->periodic[0] = periodic ? periodic[0] != 0 : 0;
  out->periodic[1] = periodic ? periodic[1] != 0 : 0;
  TSR_CALL(part_dims(out->size, n[0], n[1], TSR_MAX(halo, 1), out->dims));
  out->coords[0] = out->rank % out->dims[0];
  out->coords[1] = out->rank / out->dims[0];
  TSR_CALL(tsr_error_agree(comm, check_fits(out)));
  tsr_grid_part_box(out, out->rank, out->lo, out->hi);
  for (int a = 0; a < 3; a++) out->inner[a] = out->hi[a] - out->lo[a];
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      out->nbr[TSR_NBR(dx, dy)] =
          tsr_grid_part_rank_at(out, out->coords[0] + dx, out->coords[1] + dy);
  return TSR_SUCCESS;
}
