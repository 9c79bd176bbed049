/* apps/stencil/stencil_umpi.c: unstructured grids on several ranks.
 *
 * The inner X-Y plane (a 4-neighbour graph, the same for every level) is
 * partitioned by METIS on rank 0 (seeded: reproducible) and broadcast once
 * per state. Each rank stores, as an unstructured grid of its own
 * (stencil_ugrid_create_cells, tables by tsr_neigh_create_subset over the
 * global plane):
 *   [0, ncore)       owned cells whose footprint holds no other rank's cell
 *   [ncore, nown)    owned cells next to other ranks (computed after the
 *                    halo exchange; the core runs while it is in flight)
 *   [nown, np)       halo: other ranks' cells of the footprint, grouped by
 *                    owner and sorted by global cell, then the frame (the
 *                    domain's own halo, constant inputs)
 * both owned groups in the storage order asked for (row-major, z-curve,
 * random: the serial grid's order restricted to the rank). The footprint is
 * the stencil's: the 12 X-Y neighbours of laplap / hdiff, +x and +y of
 * fastwaves. A rank sends to rank q the cells it owns in q's footprint, in
 * global cell order, every level; q receives them into its halo slots in the
 * same order, so the lists agree by construction (tsr_halo_create checks).
 * Inputs come from rank 0's global problem (generated or read), results go
 * back to it for verification and -o, as for the regular decomposition. */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t key, cell, slot;
} st_key_t;

static int st_key_cmp(const void *a, const void *b) {
  const st_key_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->cell < y->cell ? -1 : x->cell > y->cell;
}

static int st_foot(int kind, int dx[12], int dy[12]) {
  if (kind == STENCIL_FASTWAVES) {
    dx[0] = 1, dy[0] = 0, dx[1] = 0, dy[1] = 1;
    return 2;
  }
  for (int r = 0; r < 12; r++) dx[r] = tsr_neigh_rel_dx(r), dy[r] = tsr_neigh_rel_dy(r);
  return 12;
}

/* METIS on rank 0, broadcast; cached in S->upart (inner plane, x fastest). */
static int st_partition(stencil_state_t *S) {
  if (S->upart) return TSR_SUCCESS;
  const int64_t hx = S->P.halo[0], hy = S->P.halo[1];
  const int64_t nxi = S->gsize[0] - 2 * hx, nyi = S->gsize[1] - 2 * hy, ni = nxi * nyi;
  TSR_CHECK(ni <= INT_MAX / 4, TSR_ERR_UNSUPPORTED,
            "unstructured grid on %d ranks: an inner plane of %lld cells is too large for one "
            "METIS call here", S->size, (long long)ni);
  int *part = malloc((size_t)ni * sizeof *part);
  TSR_CHECK(part, TSR_ERR_ALLOC, "cannot allocate a partition of %lld cells", (long long)ni);
  int rc = TSR_SUCCESS;
  if (S->rank == 0) {
    tsr_graph_t g;
    char what[96];
    snprintf(what, sizeof what, "the %lldx%lld inner plane", (long long)nxi, (long long)nyi);
    rc = tsr_graph_plane(nxi, nyi, &g);
    if (!rc) rc = tsr_graph_partition(&g, S->size, 7 /* reproducible partitions */, 0, what, part);
    tsr_graph_free(&g);
  }
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) {
    const int mrc = MPI_Bcast(part, (int)ni, MPI_INT, 0, S->comm);
    if (mrc != MPI_SUCCESS) rc = TSR_RAISE(TSR_ERR_MPI, "broadcast of the plane partition failed");
  }
  if (rc) {
    free(part);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  S->upart = part;
  return TSR_SUCCESS;
}

/* Owner of global plane cell (x, y): a rank, or -1 in the frame. */
static inline int st_owner(const stencil_state_t *S, int64_t x, int64_t y) {
  const int64_t hx = S->P.halo[0], hy = S->P.halo[1];
  const int64_t nxi = S->gsize[0] - 2 * hx, nyi = S->gsize[1] - 2 * hy;
  if (x < hx || y < hy || x >= hx + nxi || y >= hy + nyi) return -1;
  return S->upart[(x - hx) + nxi * (y - hy)];
}

/* Copy fields of a regular array (Lr) at plane cells[0..n) into buf
 * ([f][z][s]), and back. */
static void st_pack(const tsr_layout_t *Lr, const void *src, int64_t nx, const int64_t *cells,
                    int64_t n, int64_t nz, size_t es, char *buf) {
  for (int f = 0; f < Lr->nf; f++)
    for (int64_t z = 0; z < nz; z++)
      for (int64_t s = 0; s < n; s++) {
        const int64_t c = tsr_layout_rm_cell(Lr, cells[s] % nx, cells[s] / nx, z);
        memcpy(buf + (size_t)(((int64_t)f * nz + z) * n + s) * es,
               (const char *)src + (size_t)stencil__off(Lr, c, f) * es, es);
      }
}
static void st_unpack_reg(const tsr_layout_t *Lr, void *dst, int64_t nx, const int64_t *cells,
                          int64_t n, int64_t nz, size_t es, const char *buf) {
  for (int f = 0; f < Lr->nf; f++)
    for (int64_t z = 0; z < nz; z++)
      for (int64_t s = 0; s < n; s++) {
        const int64_t c = tsr_layout_rm_cell(Lr, cells[s] % nx, cells[s] / nx, z);
        memcpy((char *)dst + (size_t)stencil__off(Lr, c, f) * es,
               buf + (size_t)(((int64_t)f * nz + z) * n + s) * es, es);
      }
}
/* Slot arrays (Lu: slot s, level z is cell s + z*sy) from / to buf. */
static void st_slots(const tsr_layout_t *Lu, void *a, int64_t n, int64_t nz, size_t es, char *buf,
                     int to_buf) {
  for (int f = 0; f < Lu->nf; f++)
    for (int64_t z = 0; z < nz; z++)
      for (int64_t s = 0; s < n; s++) {
        char *e = (char *)a + (size_t)stencil__off(Lu, s + z * Lu->sy, f) * es;
        char *b = buf + (size_t)(((int64_t)f * nz + z) * n + s) * es;
        if (to_buf) memcpy(b, e, es);
        else memcpy(e, b, es);
      }
}

/* Rank 0 sends every rank the values of its slots (io array, then the
 * constants); each rank unpacks into its slot arrays. */
static int st_distribute(const stencil_state_t *S, stencil_umpi_t *M) {
  const stencil_problem_t *G = &S->G;
  const stencil_ugrid_t *U = &M->U;
  const int fw = S->kind == STENCIL_FASTWAVES;
  const size_t es = stencil_problem_esize(&S->P);
  const int nfio = fw ? STENCIL_FW_NUV : 1, nfc = fw ? STENCIL_FW_NCST : (S->kind == STENCIL_HDIFF);
  const int64_t nz = U->nz, nx = U->nx;
  int rc = TSR_SUCCESS;
  for (int r = 0; r < S->size && !rc; r++) {
    if (S->rank != 0 && S->rank != r) continue;
    int64_t n = U->np;
    int64_t *cells = U->cells;
    if (S->rank == 0 && r != 0) {
      TSR_CALL_MPI(MPI_Recv(&n, 1, MPI_INT64_T, r, 71, S->comm, MPI_STATUS_IGNORE));
      cells = malloc((size_t)n * sizeof *cells);
      TSR_CHECK(cells, TSR_ERR_ALLOC, "cannot allocate %lld cells", (long long)n);
      TSR_CALL_MPI(MPI_Recv(cells, (int)n, MPI_INT64_T, r, 72, S->comm, MPI_STATUS_IGNORE));
    } else if (S->rank != 0) {
      TSR_CALL_MPI(MPI_Send(&n, 1, MPI_INT64_T, 0, 71, S->comm));
      TSR_CALL_MPI(MPI_Send(cells, (int)n, MPI_INT64_T, 0, 72, S->comm));
    }
    const int64_t bytes = (int64_t)(nfio + nfc) * nz * n * (int64_t)es;
    TSR_CHECK(bytes <= INT_MAX, TSR_ERR_UNSUPPORTED,
              "unstructured grid: rank %d's part (%lld bytes of inputs) is too large for one "
              "message; use more ranks", r, (long long)bytes);
    char *buf = malloc((size_t)(bytes > 0 ? bytes : 1));
    TSR_CHECK(buf, TSR_ERR_ALLOC, "cannot allocate %lld bytes", (long long)bytes);
    const size_t bio = (size_t)nfio * nz * n * es;
    if (S->rank == 0) {
      st_pack(fw ? &G->Luv : &G->L, fw ? G->uv : G->in, nx, cells, n, nz, es, buf);
      if (nfc) st_pack(fw ? &G->Lc : &G->L, fw ? G->cst : G->coeff, nx, cells, n, nz, es, buf + bio);
      if (r != 0) {
        free(cells);
        rc = MPI_Send(buf, (int)bytes, MPI_BYTE, r, 73, S->comm) == MPI_SUCCESS
                 ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_MPI, "sending rank %d's inputs failed", r);
      }
    } else {
      rc = MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 73, S->comm, MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_MPI, "receiving the inputs failed");
    }
    if (!rc && r == S->rank) {
      st_slots(fw ? &U->Luv : &U->L, M->uin, n, nz, es, buf, 0);
      if (nfc) st_slots(fw ? &U->Lc : &U->L, M->ucst, n, nz, es, buf + bio, 0);
    }
    free(buf);
  }
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_umpi_create(stencil_state_t *S, const stencil_ucfg_t *u, stencil_umpi_t *M) {
  memset(M, 0, sizeof *M);
  TSR_CALL(st_partition(S));
  const int64_t nx = S->gsize[0], ny = S->gsize[1], hx = S->P.halo[0], hy = S->P.halo[1];
  const int64_t nxi = nx - 2 * hx, nyi = ny - 2 * hy, ni = nxi * nyi;
  int dx[12], dy[12];
  const int nf = st_foot(S->kind, dx, dy);
  int64_t *ord = malloc((size_t)ni * sizeof *ord);
  unsigned char *mark = calloc((size_t)(nx * ny), 1);
  st_key_t *own = NULL, *halo = NULL, *snd = NULL;
  int64_t nown = 0, nhalo = 0, nsnd = 0, *cells = NULL;
  int rc = ord && mark ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate plane arrays");
  if (!rc) {
    if (u->order == STENCIL_ORDER_ZCURVE) rc = tsr_zorder_plane_order(nxi, nyi, u->zw, ord);
    else if (u->order == STENCIL_ORDER_RANDOM) rc = tsr_neigh_order_random(nxi, nyi, S->seed, ord);
    else if (u->order == STENCIL_ORDER_ROWMAJOR) rc = tsr_neigh_order_rowmajor(nxi, nyi, ord);
    else rc = TSR_RAISE(TSR_ERR_ARG, "unknown storage order %d", u->order);
  }
  for (int64_t i = 0; !rc && i < ni; i++) nown += S->upart[i] == S->rank;
  if (!rc && tsr_error_agree(S->comm, nown == 0 ? TSR_ERR_UNSUPPORTED : TSR_SUCCESS))
    rc = TSR_RAISE(TSR_ERR_UNSUPPORTED,
                   "unstructured grid: METIS left a rank without cells of the %lldx%lld inner "
                   "plane on %d ranks", (long long)nxi, (long long)nyi, S->size);
  if (!rc) {
    own = malloc((size_t)nown * sizeof *own);
    halo = malloc((size_t)nown * nf * sizeof *halo);
    snd = malloc((size_t)nown * nf * sizeof *snd);
    if (!own || !halo || !snd) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the rank's lists");
  }
  if (!rc) {
    int64_t k = 0;
    for (int64_t y = hy; y < hy + nyi; y++)
      for (int64_t x = hx; x < hx + nxi; x++) {
        if (st_owner(S, x, y) != S->rank) continue;
        int edge = 0;
        for (int d = 0; d < nf; d++) {
          const int64_t xn = x + dx[d], yn = y + dy[d], c = xn + nx * yn;
          const int o = st_owner(S, xn, yn);
          if (o >= 0 && o != S->rank) edge = 1;
          if (o != S->rank && !mark[c]) {
            mark[c] = 1;
            halo[nhalo++] = (st_key_t){(o < 0 ? S->size : o), c, 0};
          }
          const int q = st_owner(S, x - dx[d], y - dy[d]); /* cells whose footprint holds (x, y) */
          if (q >= 0 && q != S->rank) snd[nsnd++] = (st_key_t){q, x + nx * y, 0};
        }
        own[k++] = (st_key_t){edge * ni + ord[(x - hx) + nxi * (y - hy)], x + nx * y, 0};
      }
    qsort(own, (size_t)nown, sizeof *own, st_key_cmp);
    qsort(halo, (size_t)nhalo, sizeof *halo, st_key_cmp);
    qsort(snd, (size_t)nsnd, sizeof *snd, st_key_cmp);
    int64_t m = 0; /* unique (rank, cell) */
    for (int64_t i = 0; i < nsnd; i++)
      if (m == 0 || snd[i].key != snd[m - 1].key || snd[i].cell != snd[m - 1].cell) snd[m++] = snd[i];
    nsnd = m;
    cells = malloc((size_t)(nown + nhalo) * sizeof *cells);
    if (!cells) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %lld slots", (long long)(nown + nhalo));
  }
  int64_t ncore = 0;
  if (!rc) {
    for (int64_t i = 0; i < nown; i++) {
      cells[i] = own[i].cell;
      ncore += own[i].key < ni;
    }
    for (int64_t i = 0; i < nhalo; i++) cells[nown + i] = halo[i].cell;
    rc = stencil_ugrid_create_cells(&S->P, nx, ny, nown + nhalo, nown, ncore, cells, u->depth,
                                    u->comp, &M->U);
  }
  rc = tsr_error_agree(S->comm, rc); /* e.g. a dictionary too large on one rank: all skip */
  /* halo lists: neighbours = ranks sent to or received from, ascending */
  if (!rc) {
    const int64_t nz = M->U.nz, zs = M->U.L.sy;
    int64_t nrecv = 0;
    while (nrecv < nhalo && halo[nrecv].key < S->size) nrecv++;
    int *cnt = calloc((size_t)S->size * 2, sizeof *cnt);
    M->ranks = malloc((size_t)S->size * sizeof *M->ranks);
    M->scount = malloc((size_t)S->size * sizeof *M->scount);
    M->rcount = malloc((size_t)S->size * sizeof *M->rcount);
    M->sidx = malloc((size_t)(nsnd * nz + 1) * sizeof *M->sidx);
    M->ridx = malloc((size_t)(nrecv * nz + 1) * sizeof *M->ridx);
    if (!cnt || !M->ranks || !M->scount || !M->rcount || !M->sidx || !M->ridx)
      rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the halo lists");
    if (!rc) {
      for (int64_t i = 0; i < nsnd; i++) cnt[2 * snd[i].key]++;
      for (int64_t i = 0; i < nrecv; i++) cnt[2 * halo[i].key + 1]++;
      for (int q = 0; q < S->size; q++)
        if (cnt[2 * q] || cnt[2 * q + 1]) {
          TSR_CHECK((int64_t)cnt[2 * q] * nz <= INT_MAX && (int64_t)cnt[2 * q + 1] * nz <= INT_MAX,
                    TSR_ERR_UNSUPPORTED, "halo with rank %d too large for one message", q);
          M->ranks[M->nneigh] = q;
          M->scount[M->nneigh] = (int)(cnt[2 * q] * nz);
          M->rcount[M->nneigh] = (int)(cnt[2 * q + 1] * nz);
          M->nneigh++;
        }
      /* slot of each sent cell: a search in the owned cells (sorted copy) */
      st_key_t *bycell = malloc((size_t)nown * sizeof *bycell);
      if (!bycell) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the owned index");
      for (int64_t i = 0; !rc && i < nown; i++) bycell[i] = (st_key_t){0, cells[i], i};
      if (!rc) qsort(bycell, (size_t)nown, sizeof *bycell, st_key_cmp);
      int64_t a = 0, b = 0;
      for (int64_t i = 0; !rc && i < nsnd; i++) {
        const st_key_t key = {0, snd[i].cell, 0};
        const st_key_t *f = bsearch(&key, bycell, (size_t)nown, sizeof *bycell, st_key_cmp);
        for (int64_t z = 0; z < nz; z++) M->sidx[a++] = f->slot + z * zs;
      }
      for (int64_t i = 0; !rc && i < nrecv; i++)
        for (int64_t z = 0; z < nz; z++) M->ridx[b++] = nown + i + z * zs;
      free(bycell);
    }
    free(cnt);
  }
  free(ord);
  free(mark);
  free(own);
  free(halo);
  free(snd);
  free(cells);
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) {
    const int fw = S->kind == STENCIL_FASTWAVES;
    const size_t es = stencil_problem_esize(&S->P);
    const tsr_layout_t *Lio = fw ? &M->U.Luv : &M->U.L, *Lc = fw ? &M->U.Lc : &M->U.L;
    M->uin = calloc((size_t)Lio->size, es);
    M->ucst = S->kind == STENCIL_LAPLAP ? NULL : calloc((size_t)Lc->size, es);
    if (!M->uin || (S->kind != STENCIL_LAPLAP && !M->ucst))
      rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the unstructured fields");
    if (!rc) rc = st_distribute(S, M);
    rc = tsr_error_agree(S->comm, rc);
  }
  if (rc) {
    stencil_umpi_destroy(M);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return TSR_SUCCESS;
}

void stencil_umpi_destroy(stencil_umpi_t *M) {
  if (M->U.cells || M->U.nb) stencil_ugrid_destroy(&M->U);
  free(M->ranks);
  free(M->scount);
  free(M->rcount);
  free(M->sidx);
  free(M->ridx);
  free(M->uin);
  free(M->ucst);
  memset(M, 0, sizeof *M);
}

int stencil_umpi_gather(const stencil_state_t *S, const stencil_umpi_t *M, const tsr_layout_t *Lu,
                        const void *local, const tsr_layout_t *Lglob, void *glob) {
  const stencil_ugrid_t *U = &M->U;
  const size_t es = stencil_problem_esize(&S->P);
  const int64_t nz = U->nz;
  int rc = TSR_SUCCESS;
  for (int r = 0; r < S->size && !rc; r++) {
    if (S->rank != 0 && S->rank != r) continue;
    int64_t n = U->nown;
    int64_t *cells = U->cells;
    if (S->rank == 0 && r != 0) {
      TSR_CALL_MPI(MPI_Recv(&n, 1, MPI_INT64_T, r, 74, S->comm, MPI_STATUS_IGNORE));
      cells = malloc((size_t)n * sizeof *cells);
      TSR_CHECK(cells, TSR_ERR_ALLOC, "cannot allocate %lld cells", (long long)n);
      TSR_CALL_MPI(MPI_Recv(cells, (int)n, MPI_INT64_T, r, 75, S->comm, MPI_STATUS_IGNORE));
    } else if (S->rank != 0) {
      TSR_CALL_MPI(MPI_Send(&n, 1, MPI_INT64_T, 0, 74, S->comm));
      TSR_CALL_MPI(MPI_Send(cells, (int)n, MPI_INT64_T, 0, 75, S->comm));
    }
    const int64_t bytes = (int64_t)Lu->nf * nz * n * (int64_t)es;
    TSR_CHECK(bytes <= INT_MAX, TSR_ERR_UNSUPPORTED,
              "rank %d's result (%lld bytes) is too large for one message", r, (long long)bytes);
    char *buf = malloc((size_t)(bytes > 0 ? bytes : 1));
    TSR_CHECK(buf, TSR_ERR_ALLOC, "cannot allocate %lld bytes", (long long)bytes);
    if (r == S->rank) st_slots(Lu, (void *)local, n, nz, es, buf, 1);
    if (S->rank == 0 && r != 0)
      rc = MPI_Recv(buf, (int)bytes, MPI_BYTE, r, 76, S->comm, MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_MPI, "receiving rank %d's result failed", r);
    else if (S->rank != 0)
      rc = MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 76, S->comm) == MPI_SUCCESS
               ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_MPI, "sending the result failed");
    if (!rc && S->rank == 0) st_unpack_reg(Lglob, glob, U->nx, cells, n, nz, es, buf);
    if (S->rank == 0 && r != 0) free(cells);
    free(buf);
  }
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
