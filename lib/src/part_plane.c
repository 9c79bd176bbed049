/* lib/src/part_plane.c: X-Y-unstructured grids on several ranks: the METIS
 * partition of the inner plane, each rank's slots and halo lists for a
 * stencil footprint, the halo exchange over every level, and the transfers
 * from and to a regular X-Y decomposition (tessera/part.h). */
#include "config.h"
#include "tessera/part.h"
#include "tessera/graph.h"
#include "tessera/halo.h"
#include "tessera/xfer.h"
#include "tessera/error.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ partition */

int tsr_plane_part_init(MPI_Comm comm, tsr_idx_t nx, tsr_idx_t ny, int hx, int hy,
                        tsr_plane_part_t *p) {
  memset(p, 0, sizeof *p);
  p->comm = comm;
  TSR_CALL_MPI(MPI_Comm_size(comm, &p->size));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &p->rank));
  p->nx = nx, p->ny = ny, p->hx = hx, p->hy = hy;
  const tsr_idx_t nxi = nx - 2 * (tsr_idx_t)hx, nyi = ny - 2 * (tsr_idx_t)hy, ni = nxi * nyi;
  TSR_CHECK(hx >= 0 && hy >= 0 && nxi >= 1 && nyi >= 1, TSR_ERR_ARG,
            "X-Y plane %lldx%lld with a frame of %d,%d: no inner cells", (long long)nx,
            (long long)ny, hx, hy);
  TSR_CHECK(ni <= INT_MAX / 4, TSR_ERR_UNSUPPORTED,
            "unstructured grid on %d ranks: an inner plane of %lld cells is too large for one "
            "METIS call here", p->size, (long long)ni);
  p->owner = malloc((size_t)ni * sizeof *p->owner);
  TSR_CHECK(p->owner, TSR_ERR_ALLOC, "cannot allocate a partition of %lld cells", (long long)ni);
  int rc = TSR_SUCCESS;
  if (p->rank == 0) {
    tsr_graph_t g;
    char what[96];
    snprintf(what, sizeof what, "the %lldx%lld inner plane", (long long)nxi, (long long)nyi);
    rc = tsr_graph_plane(nxi, nyi, &g);
    if (!rc) rc = tsr_graph_partition(&g, p->size, 7 /* reproducible partitions */, 0, what, p->owner);
    tsr_graph_free(&g);
  }
  rc = tsr_error_agree(comm, rc);
  if (!rc && MPI_Bcast(p->owner, (int)ni, MPI_INT, 0, comm) != MPI_SUCCESS)
    rc = TSR_RAISE(TSR_ERR_MPI, "broadcast of the plane partition failed");
  if (rc) {
    tsr_plane_part_free(p);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}

void tsr_plane_part_free(tsr_plane_part_t *p) {
  free(p->owner);
  p->owner = NULL;
}

/* ------------------------------------------------------------ slots and lists */

typedef struct {
  int64_t key, cell, slot;
} pkey_t;

static int pkey_cmp(const void *a, const void *b) {
  const pkey_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->cell < y->cell ? -1 : x->cell > y->cell;
}

void tsr_plane_lists_free(tsr_plane_lists_t *l) {
  free(l->cells);
  free(l->ranks);
  free(l->scount);
  free(l->rcount);
  free(l->sidx);
  free(l->ridx);
  memset(l, 0, sizeof *l);
}

/* Halo lists from the sorted sends (key = rank) and halo (key = rank, or
 * size for the frame); own: the owned slots. */
static int plane_halo_lists(const tsr_plane_part_t *p, tsr_plane_lists_t *l, const pkey_t *snd,
                            int64_t nsnd, const pkey_t *halo, int64_t nhalo) {
  int64_t nrecv = 0;
  while (nrecv < nhalo && halo[nrecv].key < p->size) nrecv++;
  int64_t *cnt = calloc((size_t)p->size * 2, sizeof *cnt);
  pkey_t *bycell = malloc((size_t)(l->nown + 1) * sizeof *bycell);
  l->ranks = malloc((size_t)p->size * sizeof *l->ranks);
  l->scount = malloc((size_t)p->size * sizeof *l->scount);
  l->rcount = malloc((size_t)p->size * sizeof *l->rcount);
  l->sidx = malloc((size_t)(nsnd + 1) * sizeof *l->sidx);
  l->ridx = malloc((size_t)(nrecv + 1) * sizeof *l->ridx);
  int rc = TSR_SUCCESS;
  if (!cnt || !bycell || !l->ranks || !l->scount || !l->rcount || !l->sidx || !l->ridx)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the halo lists");
  if (!rc) {
    for (int64_t i = 0; i < nsnd; i++) cnt[2 * snd[i].key]++;
    for (int64_t i = 0; i < nrecv; i++) cnt[2 * halo[i].key + 1]++;
    for (int q = 0; q < p->size; q++)
      if (cnt[2 * q] || cnt[2 * q + 1]) {
        l->ranks[l->nneigh] = q;
        l->scount[l->nneigh] = cnt[2 * q];
        l->rcount[l->nneigh] = cnt[2 * q + 1];
        l->nneigh++;
      }
    /* the slot of each sent cell: a search in the owned cells */
    for (int64_t i = 0; i < l->nown; i++) bycell[i] = (pkey_t){0, l->cells[i], i};
    qsort(bycell, (size_t)l->nown, sizeof *bycell, pkey_cmp);
    for (int64_t i = 0; i < nsnd; i++) {
      const pkey_t key = {0, snd[i].cell, 0};
      const pkey_t *f = bsearch(&key, bycell, (size_t)l->nown, sizeof *bycell, pkey_cmp);
      l->sidx[i] = f->slot;
    }
    for (int64_t i = 0; i < nrecv; i++) l->ridx[i] = l->nown + i;
  }
  free(cnt);
  free(bycell);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

static int plane_lists(const tsr_plane_part_t *p, int nf, const int *dx, const int *dy,
                       const int64_t *key, tsr_plane_lists_t *l) {
  const int64_t nx = p->nx, ny = p->ny, hx = p->hx, hy = p->hy;
  const int64_t nxi = nx - 2 * hx, nyi = ny - 2 * hy, ni = nxi * nyi;
  int64_t nown = 0, nhalo = 0, nsnd = 0;
  for (int64_t i = 0; i < ni; i++) nown += p->owner[i] == p->rank;
  if (tsr_error_agree(p->comm, nown == 0 ? TSR_ERR_UNSUPPORTED : TSR_SUCCESS))
    return TSR_RAISE(TSR_ERR_UNSUPPORTED,
                     "unstructured grid: METIS left a rank without cells of the %lldx%lld inner "
                     "plane on %d ranks", (long long)nxi, (long long)nyi, p->size);
  unsigned char *mark = calloc((size_t)(nx * ny), 1);
  pkey_t *own = malloc((size_t)nown * sizeof *own);
  pkey_t *halo = malloc((size_t)nown * nf * sizeof *halo);
  pkey_t *snd = malloc((size_t)nown * nf * sizeof *snd);
  int rc = mark && own && halo && snd
               ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the rank's lists");
  if (!rc) {
    int64_t k = 0;
    for (int64_t y = hy; y < hy + nyi; y++)
      for (int64_t x = hx; x < hx + nxi; x++) {
        if (tsr_plane_part_owner(p, x, y) != p->rank) continue;
        int edge = 0;
        for (int d = 0; d < nf; d++) {
          const int64_t xn = x + dx[d], yn = y + dy[d], c = xn + nx * yn;
          const int o = tsr_plane_part_owner(p, xn, yn);
          if (o >= 0 && o != p->rank) edge = 1;
          if (o != p->rank && !mark[c]) {
            mark[c] = 1;
            halo[nhalo++] = (pkey_t){(o < 0 ? p->size : o), c, 0};
          }
          const int q = tsr_plane_part_owner(p, x - dx[d], y - dy[d]); /* footprints holding (x, y) */
          if (q >= 0 && q != p->rank) snd[nsnd++] = (pkey_t){q, x + nx * y, 0};
        }
        own[k++] = (pkey_t){edge * ni + key[(x - hx) + nxi * (y - hy)], x + nx * y, 0};
      }
    qsort(own, (size_t)nown, sizeof *own, pkey_cmp);
    qsort(halo, (size_t)nhalo, sizeof *halo, pkey_cmp);
    qsort(snd, (size_t)nsnd, sizeof *snd, pkey_cmp);
    int64_t m = 0; /* unique (rank, cell) */
    for (int64_t i = 0; i < nsnd; i++)
      if (m == 0 || snd[i].key != snd[m - 1].key || snd[i].cell != snd[m - 1].cell) snd[m++] = snd[i];
    nsnd = m;
    l->cells = malloc((size_t)(nown + nhalo) * sizeof *l->cells);
    if (!l->cells) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %lld slots", (long long)(nown + nhalo));
  }
  if (!rc) {
    l->ncells = nown + nhalo, l->nown = nown;
    for (int64_t i = 0; i < nown; i++) {
      l->cells[i] = own[i].cell;
      l->ncore += own[i].key < ni;
    }
    for (int64_t i = 0; i < nhalo; i++) l->cells[nown + i] = halo[i].cell;
    rc = plane_halo_lists(p, l, snd, nsnd, halo, nhalo);
  }
  free(mark);
  free(own);
  free(halo);
  free(snd);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int tsr_plane_lists_create(const tsr_plane_part_t *p, int nfoot, const int *dx, const int *dy,
                           const int64_t *key, tsr_plane_lists_t *out) {
  memset(out, 0, sizeof *out);
  int rc = nfoot >= 0 && (nfoot == 0 || (dx && dy)) && key && p->owner
               ? TSR_SUCCESS
               : TSR_RAISE(TSR_ERR_ARG, "tsr_plane_lists_create: %d footprint cells, key %s",
                           nfoot, key ? "given" : "NULL");
  for (int k = 0; !rc && k < nfoot; k++)
    if (dx[k] < -p->hx || dx[k] > p->hx || dy[k] < -p->hy || dy[k] > p->hy)
      rc = TSR_RAISE(TSR_ERR_ARG, "footprint cell (%d, %d) reaches beyond the frame %d,%d", dx[k],
                     dy[k], p->hx, p->hy);
  rc = tsr_error_agree(p->comm, rc);
  if (!rc) rc = plane_lists(p, nfoot, dx, dy, key, out);
  rc = tsr_error_agree(p->comm, rc);
  if (rc) {
    tsr_plane_lists_free(out);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}

int tsr_plane_halo_create(const tsr_plane_part_t *p, const tsr_plane_lists_t *l, tsr_idx_t zs,
                          tsr_idx_t nz, tsr_halo_t **out) {
  *out = NULL;
  int rc = zs >= l->ncells && nz >= 1
               ? TSR_SUCCESS
               : TSR_RAISE(TSR_ERR_ARG, "plane halo: level stride %lld below %lld slots, or %lld "
                           "levels", (long long)zs, (long long)l->ncells, (long long)nz);
  tsr_idx_t ns = 0, nr = 0;
  for (int k = 0; k < l->nneigh; k++) {
    if (l->scount[k] * nz > INT_MAX || l->rcount[k] * nz > INT_MAX)
      rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo with rank %d too large for one message",
                     l->ranks[k]);
    ns += l->scount[k], nr += l->rcount[k];
  }
  int *sc = malloc((size_t)(l->nneigh + 1) * sizeof *sc), *rcn = malloc((size_t)(l->nneigh + 1) * sizeof *rcn);
  tsr_idx_t *si = malloc((size_t)(ns * nz + 1) * sizeof *si), *ri = malloc((size_t)(nr * nz + 1) * sizeof *ri);
  if (!rc && (!sc || !rcn || !si || !ri)) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the halo lists");
  if (!rc) { /* per neighbour: each listed slot, every level */
    tsr_idx_t a = 0, b = 0, s0 = 0, r0 = 0;
    for (int k = 0; k < l->nneigh; k++) {
      sc[k] = (int)(l->scount[k] * nz), rcn[k] = (int)(l->rcount[k] * nz);
      for (tsr_idx_t i = 0; i < l->scount[k]; i++)
        for (tsr_idx_t z = 0; z < nz; z++) si[a++] = l->sidx[s0 + i] + z * zs;
      for (tsr_idx_t i = 0; i < l->rcount[k]; i++)
        for (tsr_idx_t z = 0; z < nz; z++) ri[b++] = l->ridx[r0 + i] + z * zs;
      s0 += l->scount[k], r0 += l->rcount[k];
    }
  }
  rc = tsr_error_agree(p->comm, rc);
  if (!rc) rc = tsr_halo_create(p->comm, l->nneigh, l->ranks, zs * nz, sc, si, rcn, ri, out);
  free(sc);
  free(rcn);
  free(si);
  free(ri);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ transfers */

static int plane_grid_check(const tsr_plane_part_t *p, const tsr_grid_part_t *g) {
  TSR_CHECK(g->halo == p->hx && g->halo == p->hy && g->n[0] == p->nx - 2 * p->hx &&
                g->n[1] == p->ny - 2 * p->hy && g->size == p->size,
            TSR_ERR_ARG, "plane transfer: the regular decomposition (%lldx%lld inner, halo %d, %d "
            "ranks) is not of the plane (%lldx%lld, frame %d,%d, %d ranks)", (long long)g->n[0],
            (long long)g->n[1], g->halo, g->size, (long long)p->nx, (long long)p->ny, p->hx, p->hy,
            p->size);
  return TSR_SUCCESS;
}

static tsr_idx_t clampi(tsr_idx_t v, tsr_idx_t lo, tsr_idx_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The regular rank whose local plane serves plane cell (x, y): the owner of
 * the nearest inner cell. */
static int grid_holder(const tsr_plane_part_t *p, const tsr_grid_part_t *g, int64_t c) {
  const tsr_idx_t x = c % p->nx - p->hx, y = c / p->nx - p->hy;
  return tsr_grid_part_owner(g, clampi(x, 0, g->n[0] - 1), clampi(y, 0, g->n[1] - 1));
}

int tsr_plane_xfer_from_grid(const tsr_plane_part_t *p, const tsr_grid_part_t *g,
                             const tsr_plane_lists_t *l, tsr_xfer_t **out) {
  *out = NULL;
  TSR_CALL(tsr_error_agree(p->comm, plane_grid_check(p, g)));
  const int h = g->halo;
  const tsr_idx_t lnx = g->inner[0] + 2 * h, lny = g->inner[1] + 2 * h;
  /* sources: the local plane, element lx + lnx*ly; the cells this rank
     serves carry their plane cell as id, the others ids never wanted */
  int64_t *hg = malloc((size_t)(lnx * lny) * sizeof *hg), *wg = malloc((size_t)(l->ncells + 1) * sizeof *wg);
  int *wr = malloc((size_t)(l->ncells + 1) * sizeof *wr);
  int rc = hg && wg && wr ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "plane transfer: no memory");
  for (tsr_idx_t ly = 0; !rc && ly < lny; ly++)
    for (tsr_idx_t lx = 0; lx < lnx; lx++) {
      const int64_t c = (g->lo[0] + lx) + p->nx * (g->lo[1] + ly), j = lx + lnx * ly;
      hg[j] = grid_holder(p, g, c) == p->rank ? c : -1 - j;
    }
  for (tsr_idx_t s = 0; !rc && s < l->ncells; s++) wg[s] = l->cells[s], wr[s] = grid_holder(p, g, l->cells[s]);
  rc = tsr_error_agree(p->comm, rc);
  if (!rc) rc = tsr_xfer_create(p->comm, lnx * lny, hg, l->ncells, wg, wr, out);
  free(hg);
  free(wg);
  free(wr);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int tsr_plane_xfer_to_grid(const tsr_plane_part_t *p, const tsr_grid_part_t *g,
                           const tsr_plane_lists_t *l, tsr_xfer_t **out) {
  *out = NULL;
  TSR_CALL(tsr_error_agree(p->comm, plane_grid_check(p, g)));
  const int h = g->halo;
  const tsr_idx_t lnx = g->inner[0] + 2 * h, lny = g->inner[1] + 2 * h;
  int64_t *wg = malloc((size_t)(lnx * lny) * sizeof *wg);
  int *wr = malloc((size_t)(lnx * lny) * sizeof *wr);
  int rc = wg && wr ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "plane transfer: no memory");
  /* target elements: the whole local plane; halo cells are not written */
  for (tsr_idx_t ly = 0; !rc && ly < lny; ly++)
    for (tsr_idx_t lx = 0; lx < lnx; lx++) {
      const tsr_idx_t j = lx + lnx * ly;
      const int inner = lx >= h && ly >= h && lx < h + g->inner[0] && ly < h + g->inner[1];
      const int64_t c = (g->lo[0] + lx) + p->nx * (g->lo[1] + ly);
      wg[j] = c;
      wr[j] = inner ? tsr_plane_part_owner(p, c % p->nx, c / p->nx) : -1;
    }
  rc = tsr_error_agree(p->comm, rc);
  int64_t *hg = NULL; /* sources: the owned slots */
  if (!rc) {
    hg = malloc((size_t)(l->nown + 1) * sizeof *hg);
    if (!hg) rc = TSR_RAISE(TSR_ERR_ALLOC, "plane transfer: no memory");
    for (tsr_idx_t s = 0; !rc && s < l->nown; s++) hg[s] = l->cells[s];
  }
  rc = tsr_error_agree(p->comm, rc);
  if (!rc) rc = tsr_xfer_create(p->comm, l->nown, hg, lnx * lny, wg, wr, out);
  free(hg);
  free(wg);
  free(wr);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
