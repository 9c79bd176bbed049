/* apps/stencil/stencil_umpi.c: unstructured grids on several ranks.
 *
 * The distributed X-Y grid is lib's (tessera/part.h, tsr_plane_*): the
 * inner plane partitioned by METIS (once per state), each rank's slots
 * (core, owned boundary, halo, frame) and halo lists for the stencil's
 * footprint (the 12 X-Y neighbours of laplap / hdiff, +x and +y of
 * fastwaves), the halo over every level. Here: the footprint, the storage
 * order key, the rank's unstructured grid over its slots
 * (stencil_ugrid_create_cells, tables by tsr_neigh_create_subset over the
 * global plane) and its inputs in the slot layouts, moved from the
 * regular X-Y blocks (tsr_plane_xfer_from_grid) and results moved back to
 * them (tsr_plane_xfer_to_grid). */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int st_foot(int kind, int dx[12], int dy[12]) {
  if (kind == STENCIL_FASTWAVES) {
    dx[0] = 1, dy[0] = 0, dx[1] = 0, dy[1] = 1;
    return 2;
  }
  for (int r = 0; r < 12; r++) dx[r] = tsr_neigh_rel_dx(r), dy[r] = tsr_neigh_rel_dy(r);
  return 12;
}

/* The plane partition, made on first use (collective). */
static int st_partition(stencil_state_t *S) {
  if (S->have_upart) return TSR_SUCCESS;
  TSR_CALL(tsr_plane_part_init(S->comm, S->gsize[0], S->gsize[1], S->P.halo[0], S->P.halo[1],
                               &S->upart));
  S->have_upart = 1;
  return TSR_SUCCESS;
}

/* Records: every field and level of one plane cell, [f][z] (es bytes each),
 * the elements lib's transfers move. rec holds n records of nrec values;
 * fields go to / come from values [foff*nz, (foff + L->nf)*nz) of each. */

/* Regular array a (layout L, plane d[0] x d[1]) <-> records of its plane
 * cells j = x + d[0]*y, j < d[0]*d[1]. */
void stencil_rec_reg(const tsr_layout_t *L, void *a, int64_t nz, size_t es, char *rec, int foff,
                       int nrec, int to_rec) {
  const int64_t nx = L->d[0], n = L->d[0] * L->d[1];
#pragma omp parallel for schedule(static)
  for (int64_t j = 0; j < n; j++)
    for (int f = 0; f < L->nf; f++)
      for (int64_t z = 0; z < nz; z++) {
        char *e = (char *)a + (size_t)stencil__off(L, tsr_layout_rm_cell(L, j % nx, j / nx, z), f) * es;
        char *r = rec + (size_t)(j * nrec + (int64_t)(foff + f) * nz + z) * es;
        if (to_rec) memcpy(r, e, es);
        else memcpy(e, r, es);
      }
}
/* Slot array a (layout Lu: slot s, level z is cell s + z*sy) <-> records
 * of slots [0, n). */
static void st_rec_slots(const tsr_layout_t *Lu, void *a, int64_t n, int64_t nz, size_t es,
                         char *rec, int foff, int nrec, int to_rec) {
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < n; s++)
    for (int f = 0; f < Lu->nf; f++)
      for (int64_t z = 0; z < nz; z++) {
        char *e = (char *)a + (size_t)stencil__off(Lu, s + z * Lu->sy, f) * es;
        char *r = rec + (size_t)(s * nrec + (int64_t)(foff + f) * nz + z) * es;
        if (to_rec) memcpy(r, e, es);
        else memcpy(e, r, es);
      }
}

/* Inputs and constants of this rank's regular block src (its records:
 * every cell of its local plane) into the slot arrays, through the
 * transfer x (tsr_plane_xfer_from_grid). Collective. */
static int st_distribute(const stencil_state_t *S, const stencil_problem_t *src, const tsr_xfer_t *x,
                         stencil_umpi_t *M) {
  const stencil_ugrid_t *U = &M->U;
  const int fw = S->kind == STENCIL_FASTWAVES;
  const size_t es = stencil_problem_esize(&S->P);
  const int nfio = fw ? STENCIL_FW_NUV : 1, nfc = fw ? STENCIL_FW_NCST : (S->kind == STENCIL_HDIFF);
  const int64_t nz = U->nz, nrec = (nfio + nfc) * nz;
  const int64_t nsrc = src ? src->L.d[0] * src->L.d[1] : 0;
  char *sr = malloc((size_t)(nsrc * nrec + 1) * es), *dr = malloc((size_t)(U->np * nrec + 1) * es);
  int rc = sr && dr ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "unstructured grid: cannot allocate "
                                              "the input records");
  if (!rc && src) {
    stencil_rec_reg(fw ? &src->Luv : &src->L, fw ? src->uv : src->in, nz, es, sr, 0, (int)nrec, 1);
    if (nfc) stencil_rec_reg(fw ? &src->Lc : &src->L, fw ? src->cst : src->coeff, nz, es, sr, nfio, (int)nrec, 1);
  }
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) rc = tsr_xfer_run(x, sr, dr, (size_t)nrec * es);
  if (!rc) {
    st_rec_slots(fw ? &U->Luv : &U->L, M->uin, U->np, nz, es, dr, 0, (int)nrec, 0);
    if (nfc) st_rec_slots(fw ? &U->Lc : &U->L, M->ucst, U->np, nz, es, dr, nfio, (int)nrec, 0);
  }
  free(sr);
  free(dr);
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
  int rc = ord ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate plane arrays");
  if (!rc) {
    if (u->order == STENCIL_ORDER_ZCURVE) rc = tsr_zorder_plane_order(nxi, nyi, u->zw, ord);
    else if (u->order == STENCIL_ORDER_RANDOM) rc = tsr_neigh_order_random(nxi, nyi, S->seed, ord);
    else if (u->order == STENCIL_ORDER_ROWMAJOR) rc = tsr_neigh_order_rowmajor(nxi, nyi, ord);
    else rc = TSR_RAISE(TSR_ERR_ARG, "unknown storage order %d", u->order);
  }
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) rc = tsr_plane_lists_create(&S->upart, nf, dx, dy, ord, &M->lists);
  free(ord);
  if (!rc) {
    const tsr_plane_lists_t *l = &M->lists;
    rc = stencil_ugrid_create_cells(&S->P, nx, ny, l->ncells, l->nown, l->ncore, l->cells,
                                    u->depth, u->comp, &M->U);
  }
  rc = tsr_error_agree(S->comm, rc); /* e.g. a dictionary too large on one rank: all skip */
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) {
    const int fw = S->kind == STENCIL_FASTWAVES;
    const size_t es = stencil_problem_esize(&S->P);
    const tsr_layout_t *Lio = fw ? &M->U.Luv : &M->U.L, *Lc = fw ? &M->U.Lc : &M->U.L;
    M->uin = calloc((size_t)Lio->size, es);
    M->ucst = S->kind == STENCIL_LAPLAP ? NULL : calloc((size_t)Lc->size, es);
    if (!M->uin || (S->kind != STENCIL_LAPLAP && !M->ucst))
      rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the unstructured fields");
    tsr_xfer_t *x = NULL;
    if (!rc) rc = tsr_plane_xfer_from_grid(&S->upart, &S->part, &M->lists, &x);
    if (!rc) rc = st_distribute(S, &S->P, x, M);
    tsr_xfer_destroy(&x);
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
  tsr_plane_lists_free(&M->lists);
  free(M->uin);
  free(M->ucst);
  memset(M, 0, sizeof *M);
}

int stencil_umpi_gather(const stencil_state_t *S, const stencil_umpi_t *M, const tsr_layout_t *Lu,
                        const void *local, const tsr_layout_t *Lreg, void *reg) {
  const stencil_ugrid_t *U = &M->U;
  const size_t es = stencil_problem_esize(&S->P);
  const int64_t nz = U->nz, nrec = Lu->nf * nz, nreg = Lreg->d[0] * Lreg->d[1];
  tsr_xfer_t *x = NULL;
  TSR_CALL(tsr_plane_xfer_to_grid(&S->upart, &S->part, &M->lists, &x));
  char *sr = malloc((size_t)(U->nown * nrec + 1) * es), *dr = malloc((size_t)(nreg * nrec + 1) * es);
  int rc = sr && dr ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the result records");
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) {
    st_rec_slots(Lu, (void *)local, U->nown, nz, es, sr, 0, (int)nrec, 1);
    stencil_rec_reg(Lreg, reg, nz, es, dr, 0, (int)nrec, 1); /* halo and frame stay */
    rc = tsr_xfer_run(x, sr, dr, (size_t)nrec * es);
  }
  if (!rc) stencil_rec_reg(Lreg, reg, nz, es, dr, 0, (int)nrec, 0);
  free(sr);
  free(dr);
  tsr_xfer_destroy(&x);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
