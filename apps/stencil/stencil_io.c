/* apps/stencil/stencil_io.c: tsr-stencil's HDF5 input (regular-grid and
 * xy-grid files as tsr-mkinput writes them), its output (a regular-grid
 * file with provenance and an XDMF sidecar) and the gather of a decomposed
 * result on rank 0. */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <stdlib.h>
#include <string.h>

static const char *const st_fw_in[STENCIL_FW_NUV] = {"u_in", "v_in"};
static const char *const st_fw_cst[STENCIL_FW_NCST] = {"u_tens", "v_tens", "rho", "ppuv",
                                                       "fx", "wgtfac", "hhl"};

/* Names of field k of the input (k < nin) and constant arrays. */
static int st_fields(int kind, const char **names) {
  if (kind == STENCIL_LAPLAP) {
    names[0] = "in";
    return 1;
  }
  if (kind == STENCIL_HDIFF) {
    names[0] = "in", names[1] = "coeff";
    return 2;
  }
  for (int k = 0; k < STENCIL_FW_NUV; k++) names[k] = st_fw_in[k];
  for (int k = 0; k < STENCIL_FW_NCST; k++) names[STENCIL_FW_NUV + k] = st_fw_cst[k];
  return STENCIL_FW_NUV + STENCIL_FW_NCST;
}

/* Array and field of P that file field k fills. */
static void st_target(stencil_problem_t *P, int k, void **a, const tsr_layout_t **L, int *f) {
  if (P->kind == STENCIL_FASTWAVES) {
    const int c = k >= STENCIL_FW_NUV;
    *a = c ? P->cst : P->uv;
    *L = c ? &P->Lc : &P->Luv;
    *f = c ? k - STENCIL_FW_NUV : k;
  } else {
    *a = k == 0 ? P->in : P->coeff;
    *L = &P->L;
    *f = 0;
  }
}

/* Copy the dense global field buf [nz][ny][nx] (halo included) into P's
 * local array at global offset off. */
static void st_put(stencil_problem_t *P, int k, const void *buf, const int64_t gsize[3],
                   const int64_t off[3]) {
  void *a;
  const tsr_layout_t *L;
  int f;
  st_target(P, k, &a, &L, &f);
  const size_t es = stencil_problem_esize(P);
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++) {
        const int64_t gi = (x + off[0]) + gsize[0] * ((y + off[1]) + gsize[1] * (z + off[2]));
        memcpy((char *)a + (size_t)stencil__off(L, tsr_layout_rm_cell(L, x, y, z), f) * es,
               (const char *)buf + (size_t)gi * es, es);
      }
}

/* An xy-grid's tables must be the plane's neighbours in its order. */
static int st_check_tables(const char *path, const tsr_xygrid_t *xg, const int64_t *order,
                           const int32_t *neigh) {
  const int64_t nx = xg->nx, ny = xg->ny, plane = nx * ny;
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++)
      for (int r = 0; r < xg->m; r++) {
        const int64_t s = order[x + nx * y];
        const int64_t x2 = x + tsr_neigh_rel_dx(r), y2 = y + tsr_neigh_rel_dy(r);
        const int inside = x2 >= 0 && x2 < nx && y2 >= 0 && y2 < ny;
        const int64_t want = inside ? order[x2 + nx * y2] - s : 0;
        TSR_CHECK(neigh[(int64_t)r * plane + s] == want, TSR_ERR_FORMAT,
                  "%s: /neigh[%d][%lld] (relation %s of cell (%lld, %lld)) is %d, but /order puts "
                  "that neighbour at offset %lld",
                  path, r, (long long)s, tsr_neigh_rel_name(r), (long long)x, (long long)y,
                  neigh[(int64_t)r * plane + s], (long long)want);
      }
  return TSR_SUCCESS;
}

static int st_read(stencil_state_t *S, const char *path, tsr_file_t *f) {
  char kind[32];
  TSR_CALL(tsr_file_kind(f, kind, sizeof kind));
  const int xy = strcmp(kind, "xy-grid") == 0;
  TSR_CHECK(xy || strcmp(kind, "regular-grid") == 0, TSR_ERR_FORMAT,
            "%s: a file of kind '%s'; tsr-stencil reads regular-grid and xy-grid files", path, kind);
  int64_t gsize[3];
  int halo[3];
  stencil_halo(S->kind, halo);
  tsr_grid_t g;
  tsr_xygrid_t xg;
  int64_t *order = NULL;
  int32_t *neigh = NULL;
  if (xy) {
    TSR_CALL(tsr_xygrid_read_header(f, &xg));
    gsize[0] = xg.nx, gsize[1] = xg.ny, gsize[2] = xg.nz;
    order = malloc((size_t)(xg.nx * xg.ny) * sizeof *order);
    neigh = malloc((size_t)(xg.nx * xg.ny) * (size_t)xg.m * sizeof *neigh);
    TSR_CHECK(order && neigh, TSR_ERR_ALLOC, "%s: cannot allocate the tables", path);
    int rc = tsr_xygrid_read_tables(f, &xg, order, neigh);
    if (!rc) rc = st_check_tables(path, &xg, order, neigh);
    free(neigh);
    if (rc) free(order);
    TSR_CALL(tsr_error_agree(S->comm, rc));
  } else {
    TSR_CALL(tsr_grid_read_header(f, &g));
    gsize[0] = g.nx, gsize[1] = g.ny, gsize[2] = g.nz;
    TSR_CHECK(g.halo[0] == halo[0] && g.halo[1] == halo[1] && g.halo[2] == halo[2], TSR_ERR_FORMAT,
              "%s: halo %d,%d,%d, but %s needs a halo of %d,%d,%d (tsr-mkinput --halo %d,%d,%d)",
              path, g.halo[0], g.halo[1], g.halo[2], stencil_name(S->kind), halo[0], halo[1],
              halo[2], halo[0], halo[1], halo[2]);
  }
  for (int d = 0; d < 3; d++)
    TSR_CHECK(gsize[d] == S->gsize[d], TSR_ERR_INTERNAL, "%s: size changed while reading", path);
  /* every field present? */
  char (*have)[TSR_NAME_MAX] = malloc(64 * sizeof *have);
  int nhave = 0;
  TSR_CHECK(have, TSR_ERR_ALLOC, "no memory");
  int rc = tsr_grid_fields(f, have, 64, &nhave);
  const char *names[16];
  const int nf = st_fields(S->kind, names);
  for (int k = 0; !rc && k < nf; k++) {
    int found = 0;
    for (int j = 0; j < nhave; j++) found |= strcmp(have[j], names[k]) == 0;
    if (!found)
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: field /fields/%s is missing (%s reads %s%s%s%s)", path,
                     names[k], stencil_name(S->kind), names[0], nf > 1 ? ", " : "",
                     nf > 1 ? names[1] : "", nf > 2 ? ", ..." : "");
  }
  free(have);
  TSR_CALL(tsr_error_agree(S->comm, rc));
  const size_t es = stencil_problem_esize(&S->P);
  const int64_t plane = gsize[0] * gsize[1], cells = plane * gsize[2];
  void *buf = malloc((size_t)cells * es), *tmp = xy ? malloc((size_t)cells * es) : NULL;
  rc = buf && (!xy || tmp) ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate a field of %lld cells",
                                           (long long)cells);
  rc = tsr_error_agree(S->comm, rc);
  const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  const int64_t zero[3] = {0, 0, 0};
  for (int k = 0; !rc && k < nf; k++) {
    if (xy) {
      rc = tsr_xygrid_read_field(f, &xg, names[k], t, 0, gsize[2], tmp);
      if (!rc) /* storage order -> x + nx*y */
        for (int64_t z = 0; z < gsize[2]; z++)
          for (int64_t q = 0; q < plane; q++)
            memcpy((char *)buf + (size_t)(z * plane + q) * es,
                   (char *)tmp + (size_t)(z * plane + order[q]) * es, es);
    } else {
      rc = tsr_grid_read_field(f, &g, names[k], t, 0, gsize[2], buf);
    }
    if (!rc) {
      st_put(&S->P, k, buf, gsize, S->off);
      if (S->size > 1 && S->rank == 0) st_put(&S->G, k, buf, gsize, zero);
    }
  }
  free(buf);
  free(tmp);
  free(order);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_io_size(MPI_Comm comm, const char *path, int64_t gsize[3]) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(comm, path, &f));
  char kind[32];
  int rc = tsr_file_kind(f, kind, sizeof kind);
  if (!rc && strcmp(kind, "xy-grid") == 0) {
    tsr_xygrid_t xg;
    rc = tsr_xygrid_read_header(f, &xg);
    gsize[0] = xg.nx, gsize[1] = xg.ny, gsize[2] = xg.nz;
  } else if (!rc) {
    tsr_grid_t g;
    rc = tsr_grid_read_header(f, &g);
    gsize[0] = g.nx, gsize[1] = g.ny, gsize[2] = g.nz;
  }
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_io_read(stencil_state_t *S, const char *path) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(S->comm, path, &f));
  int rc = st_read(S, path, f);
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_io_write(const stencil_state_t *S, const char *path, const void *result,
                     const char *variant, const char *command_line, const char *device) {
  const stencil_problem_t *G = stencil_state_global(S);
  const int fw = S->kind == STENCIL_FASTWAVES, nout = fw ? 2 : 1;
  const char *names[2] = {fw ? "u_out" : "out", "v_out"};
  const int64_t nx = S->gsize[0], ny = S->gsize[1], nz = S->gsize[2];
  const size_t es = S->prec == STENCIL_FLOAT ? 4 : 8;
  const tsr_layout_t *L = fw ? &G->Luv : &G->L;
  void *buf = NULL;
  int rc = TSR_SUCCESS;
  if (S->rank == 0) {
    buf = malloc((size_t)(nx * ny * nz) * es);
    if (!buf) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the output of %s", path);
  }
  rc = tsr_error_agree(S->comm, rc);
  tsr_file_t *f = NULL;
  if (!rc) rc = tsr_file_create(S->comm, path, &f);
  tsr_grid_t g = {nx, ny, nz, {G->halo[0], G->halo[1], G->halo[2]}};
  if (!rc) {
    tsr_provenance_t p = {"tsr-stencil", variant, device, command_line, S->size};
    rc = tsr_file_write_provenance(f, &p);
  }
  if (!rc) rc = tsr_grid_write_header(f, &g);
  const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  for (int k = 0; !rc && k < nout; k++) {
    if (S->rank == 0)
      for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
          for (int64_t x = 0; x < nx; x++)
            memcpy((char *)buf + (size_t)(x + nx * (y + ny * z)) * es,
                   (const char *)result + (size_t)stencil__off(L, tsr_layout_rm_cell(L, x, y, z), k) * es, es);
    rc = tsr_grid_write_field(f, &g, names[k], t, 0, S->rank == 0 ? nz : 0, buf);
  }
  if (f) {
    if (rc) tsr_file_discard(&f);
    else rc = tsr_file_close(&f);
  }
  free(buf);
  if (!rc) {
    char fn[2][TSR_NAME_MAX];
    tsr_dtype_t ty[2] = {t, t};
    for (int k = 0; k < nout; k++) snprintf(fn[k], TSR_NAME_MAX, "%s", names[k]);
    rc = tsr_xdmf_write_grid(S->comm, path, &g, (const char(*)[TSR_NAME_MAX])fn, ty, nout, 0);
  }
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_gather(const stencil_state_t *S, const tsr_layout_t *Lloc, const void *a,
                   const tsr_layout_t *Lglob, void *gbuf) {
  const size_t es = stencil_problem_esize(&S->P);
  const int h = S->P.halo[0], nrec = (int)(Lloc->nf * S->gsize[2]);
  const int64_t lnx = Lloc->d[0], nl = lnx * Lloc->d[1], nx = S->gsize[0];
  const int64_t ng = S->rank == 0 ? nx * S->gsize[1] : 0;
  int64_t *hg = malloc((size_t)nl * sizeof *hg), *wg = malloc((size_t)(ng + 1) * sizeof *wg);
  int *wr = malloc((size_t)(ng + 1) * sizeof *wr);
  char *sr = malloc((size_t)(nl * nrec) * es), *dr = malloc((size_t)(ng * nrec + 1) * es);
  int rc = hg && wg && wr && sr && dr ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "gather: no memory");
  for (int64_t j = 0; !rc && j < nl; j++) { /* inner cells carry their global cell */
    const int64_t x = j % lnx, y = j / lnx;
    const int in = x >= h && y >= h && x < h + S->part.inner[0] && y < h + S->part.inner[1];
    hg[j] = in ? (S->part.lo[0] + x) + nx * (S->part.lo[1] + y) : -1 - j;
  }
  for (int64_t i = 0; !rc && i < ng; i++) { /* rank 0: every inner cell from its owner */
    const int64_t x = i % nx - h, y = i / nx - h;
    const int in = x >= 0 && y >= 0 && x < S->part.n[0] && y < S->part.n[1];
    wg[i] = i, wr[i] = in ? tsr_grid_part_owner(&S->part, x, y) : -1;
  }
  rc = tsr_error_agree(S->comm, rc);
  tsr_xfer_t *xf = NULL;
  if (!rc) rc = tsr_xfer_create(S->comm, nl, hg, ng, wg, wr, &xf);
  if (!rc) {
    stencil_rec_reg(Lloc, (void *)a, S->gsize[2], es, sr, 0, nrec, 1);
    if (ng) stencil_rec_reg(Lglob, gbuf, S->gsize[2], es, dr, 0, nrec, 1);
    rc = tsr_xfer_run(xf, sr, dr, (size_t)nrec * es);
  }
  if (!rc && ng) stencil_rec_reg(Lglob, gbuf, S->gsize[2], es, dr, 0, nrec, 0);
  tsr_xfer_destroy(&xf);
  free(hg), free(wg), free(wr), free(sr), free(dr);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
