/* apps/stencil/stencil_io.c: tsr-stencil's HDF5 input (regular-grid and
 * xy-grid files as tsr-mkinput writes them) and output (a regular-grid
 * file with provenance, one group per variant written and an XDMF
 * sidecar). Each rank reads and writes only its own block: a box of a
 * regular-grid file, its stored cells of an xy-grid file. */
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

/* Copy the dense field buf [nz][ny][nx] of P's local array (halo
 * included) into P. */
static void st_put(stencil_problem_t *P, int k, const void *buf) {
  void *a;
  const tsr_layout_t *L;
  int f;
  st_target(P, k, &a, &L, &f);
  const size_t es = stencil_problem_esize(P);
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++) {
        const int64_t gi = x + L->d[0] * (y + L->d[1] * z);
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
  /* this rank's block: the box of its local array, or its stored cells */
  const size_t es = stencil_problem_esize(&S->P);
  const int64_t lnx = S->P.L.d[0], lny = S->P.L.d[1], cells = lnx * lny * gsize[2];
  void *buf = malloc((size_t)cells * es);
  int64_t *sidx = xy ? malloc((size_t)(lnx * lny) * sizeof *sidx) : NULL;
  rc = buf && (!xy || sidx) ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate a field of %lld cells",
                                            (long long)cells);
  for (int64_t j = 0; !rc && xy && j < lnx * lny; j++)
    sidx[j] = order[(S->off[0] + j % lnx) + gsize[0] * (S->off[1] + j / lnx)];
  rc = tsr_error_agree(S->comm, rc);
  const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  const tsr_idx_t lo[3] = {S->off[0], S->off[1], 0}, n[3] = {lnx, lny, gsize[2]};
  for (int k = 0; !rc && k < nf; k++) {
    if (xy) rc = tsr_xygrid_read_cells(f, &xg, names[k], t, lnx * lny, sidx, buf);
    else rc = tsr_grid_read_box(f, &g, names[k], t, lo, n, buf);
    if (!rc) st_put(&S->P, k, buf);
  }
  free(buf);
  free(sidx);
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

/* The box of the output this rank writes: its inner block, and the frame
 * next to it where the block touches the domain's edge (local coordinates
 * [l0, l1) of its array, global lo). */
static void st_out_box(const stencil_state_t *S, int64_t l0[3], int64_t l1[3], tsr_idx_t lo[3]) {
  const tsr_layout_t *L = &S->P.L;
  for (int d = 0; d < 3; d++) l0[d] = 0, l1[d] = L->d[d];
  for (int d = 0; S->size > 1 && d < 2; d++) {
    const int h = S->P.halo[d];
    if (S->part.lo[d] > 0) l0[d] = h;
    if (S->part.hi[d] < S->part.n[d]) l1[d] = L->d[d] - h;
  }
  for (int d = 0; d < 3; d++) lo[d] = S->off[d] + l0[d];
}

int stencil_io_open(const stencil_state_t *S, const char *path, tsr_file_t **f) {
  *f = NULL;
  const stencil_problem_t *P = &S->P;
  tsr_grid_t g = {S->gsize[0], S->gsize[1], S->gsize[2], {P->halo[0], P->halo[1], P->halo[2]}};
  TSR_CALL(tsr_file_create(S->comm, path, f));
  const int rc = tsr_grid_write_header(*f, &g);
  if (rc) {
    tsr_file_discard(f);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}

int stencil_io_put(const stencil_state_t *S, tsr_file_t *f, const char *group, const void *result,
                   const char *variant, const char *name, const char *device) {
  const stencil_problem_t *P = &S->P;
  const int fw = S->kind == STENCIL_FASTWAVES, nout = fw ? 2 : 1;
  const char *names[2] = {fw ? "u_out" : "out", "v_out"};
  const size_t es = stencil_problem_esize(P);
  const tsr_layout_t *L = fw ? &P->Luv : &P->L;
  tsr_grid_t g = {S->gsize[0], S->gsize[1], S->gsize[2], {P->halo[0], P->halo[1], P->halo[2]}};
  int64_t l0[3], l1[3];
  tsr_idx_t lo[3], n[3];
  st_out_box(S, l0, l1, lo);
  for (int d = 0; d < 3; d++) n[d] = l1[d] - l0[d];
  void *buf = malloc((size_t)(n[0] * n[1] * n[2] + 1) * es);
  int rc = buf ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the output of %s",
                                         tsr_file_path(f));
  rc = tsr_error_agree(S->comm, rc);
  const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  char ds[TSR_NAME_MAX * 2];
  for (int k = 0; !rc && k < nout; k++) {
    size_t at = 0;
    for (int64_t z = l0[2]; z < l1[2]; z++)
      for (int64_t y = l0[1]; y < l1[1]; y++)
        for (int64_t x = l0[0]; x < l1[0]; x++, at++)
          memcpy((char *)buf + at * es,
                 (const char *)result + (size_t)stencil__off(L, tsr_layout_rm_cell(L, x, y, z), k) * es, es);
    if (group) snprintf(ds, sizeof ds, "%s/%s", group, names[k]);
    else snprintf(ds, sizeof ds, "%s", names[k]);
    rc = tsr_grid_write_box(f, &g, ds, t, lo, n, buf);
  }
  free(buf);
  if (!rc && group) rc = tsr_file_write_attr_string(f, group, "variant", variant);
  if (!rc && group) rc = tsr_file_write_attr_string(f, group, "name", name);
  if (!rc && group) rc = tsr_file_write_attr_string(f, group, "device", device);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int stencil_io_close(const stencil_state_t *S, tsr_file_t **f, const char *variants,
                     const char *command_line, const char *device, int failed) {
  const char *path = tsr_file_path(*f);
  char h5[4096];
  snprintf(h5, sizeof h5, "%s", path);
  int rc = failed;
  if (!rc) {
    tsr_provenance_t p = {"tsr-stencil", variants, device, command_line, S->size};
    rc = tsr_file_write_provenance(*f, &p);
  }
  if (rc) tsr_file_discard(f);
  else rc = tsr_file_close(f);
  if (!rc) {
    const stencil_problem_t *P = &S->P;
    const int fw = S->kind == STENCIL_FASTWAVES, nout = fw ? 2 : 1;
    tsr_grid_t g = {S->gsize[0], S->gsize[1], S->gsize[2], {P->halo[0], P->halo[1], P->halo[2]}};
    const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
    char fn[2][TSR_NAME_MAX];
    tsr_dtype_t ty[2] = {t, t};
    snprintf(fn[0], TSR_NAME_MAX, "%s", fw ? "u_out" : "out");
    snprintf(fn[1], TSR_NAME_MAX, "v_out");
    rc = tsr_xdmf_write_grid(S->comm, h5, &g, (const char(*)[TSR_NAME_MAX])fn, ty, nout, 0);
  }
  if (failed) return failed;
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* Checkpoints (stencil_ckpt.c). */
int stencil_io_read_state(stencil_state_t *S, tsr_file_t *f, const char *group) {
  const stencil_problem_t *P = &S->P;
  const int fw = S->kind == STENCIL_FASTWAVES, nout = fw ? 2 : 1;
  const char *names[2] = {fw ? "u_out" : "out", "v_out"};
  tsr_grid_t g = {S->gsize[0], S->gsize[1], S->gsize[2], {P->halo[0], P->halo[1], P->halo[2]}};
  const size_t es = stencil_problem_esize(P);
  const tsr_idx_t lo[3] = {S->off[0], S->off[1], 0}, n[3] = {P->L.d[0], P->L.d[1], P->L.d[2]};
  void *buf = malloc((size_t)(n[0] * n[1] * n[2] + 1) * es);
  int rc = tsr_error_agree(S->comm, buf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for the state",
                                                        tsr_file_path(f)));
  const tsr_dtype_t t = S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  char ds[TSR_NAME_MAX * 2];
  for (int k = 0; !rc && k < nout; k++) { /* this rank's box, halo included */
    snprintf(ds, sizeof ds, "%s/%s", group, names[k]);
    rc = tsr_grid_read_box(f, &g, ds, t, lo, n, buf);
    if (!rc) st_put(&S->P, k, buf);
  }
  free(buf);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

uint64_t stencil_io_hash_constants(const stencil_state_t *S) {
  stencil_problem_t *P = (stencil_problem_t *)&S->P;
  const char *names[16];
  const int nf = st_fields(S->kind, names), nin = S->kind == STENCIL_FASTWAVES ? STENCIL_FW_NUV : 1;
  const size_t es = stencil_problem_esize(P);
  int64_t l0[3], l1[3];
  tsr_idx_t lo[3];
  st_out_box(S, l0, l1, lo); /* every cell of the domain on exactly one rank */
  uint64_t h = 0;
  for (int k = nin; k < nf; k++) {
    void *a;
    const tsr_layout_t *L;
    int fld;
    st_target(P, k, &a, &L, &fld);
    for (int64_t z = l0[2]; z < l1[2]; z++)
      for (int64_t y = l0[1]; y < l1[1]; y++)
        for (int64_t x = l0[0]; x < l1[0]; x++) {
          const int64_t gi = (x + S->off[0]) + S->gsize[0] * ((y + S->off[1]) + S->gsize[1] * z);
          h = tsr_checkpoint_hash_add(
              h, (const char *)a + (size_t)stencil__off(L, tsr_layout_rm_cell(L, x, y, z), fld) * es,
              es, gi * 16 + k);
        }
  }
  return h;
}
