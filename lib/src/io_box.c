/* io_box.c: grid fields read and written by X-Y-Z boxes (each rank its own
 * block of a decomposed grid) and X-Y-unstructured fields read by lists of
 * stored cells (tessera/io.h). Collective transfers. */
#include "config.h"
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

/* The dataset path of a field: NAME is /fields/NAME; a path with '/' is
 * taken as it is. */
static int box_path(tsr_file_t *f, const char *name, char *path, size_t n) {
  TSR_CHECK(name && *name && strlen(name) < n - 9, TSR_ERR_ARG, "%s: field name '%s' is empty or "
            "too long", f->path, name ? name : "");
  if (strchr(name, '/')) snprintf(path, n, "%s", name);
  else snprintf(path, n, "/fields/%s", name);
  return TSR_SUCCESS;
}

/* Select box [lo, lo + n) (x, y, z) of a [nz][ny][nx] file space; the
 * memory space [n2][n1][n0]. An empty box selects nothing. */
static hid_t box_select(hid_t fs, const tsr_idx_t lo[3], const tsr_idx_t n[3]) {
  hsize_t start[3] = {(hsize_t)lo[2], (hsize_t)lo[1], (hsize_t)lo[0]};
  hsize_t cnt[3] = {(hsize_t)n[2], (hsize_t)n[1], (hsize_t)n[0]};
  const int empty = n[0] == 0 || n[1] == 0 || n[2] == 0;
  hsize_t one = 1;
  hid_t ms = empty ? H5Screate_simple(1, &one, NULL) : H5Screate_simple(3, cnt, NULL);
  if (empty) {
    H5Sselect_none(fs);
    H5Sselect_none(ms);
  } else {
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL);
  }
  return ms;
}

static int box_check(tsr_file_t *f, const tsr_grid_t *g, const char *path, tsr_dtype_t type,
                     const tsr_idx_t lo[3], const tsr_idx_t n[3]) {
  const tsr_idx_t d[3] = {g->nx, g->ny, g->nz};
  TSR_CHECK(type == TSR_FLOAT || type == TSR_DOUBLE, TSR_ERR_ARG,
            "%s: field '%s': type %s, expected float or double", f->path, path,
            tsr_dtype_name(type));
  for (int i = 0; i < 3; i++)
    TSR_CHECK(lo[i] >= 0 && n[i] >= 0 && lo[i] + n[i] <= d[i], TSR_ERR_ARG,
              "%s: field '%s': box [%lld, %lld) in %c outside [0, %lld)", f->path, path,
              (long long)lo[i], (long long)(lo[i] + n[i]), "xyz"[i], (long long)d[i]);
  return TSR_SUCCESS;
}

int tsr_grid_write_box(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                       const tsr_idx_t lo[3], const tsr_idx_t n[3], const void *data) {
  char path[TSR_NAME_MAX * 4];
  int rc = f && g && f->writing ? TSR_SUCCESS
                                : TSR_RAISE(TSR_ERR_ARG, "tsr_grid_write_box: needs a file "
                                            "opened for writing");
  if (!rc) rc = box_path(f, name, path, sizeof path);
  if (!rc) rc = box_check(f, g, path, type, lo, n);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  hsize_t hd[3] = {(hsize_t)g->nz, (hsize_t)g->ny, (hsize_t)g->nx};
  hid_t fs = H5Screate_simple(3, hd, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t d = H5Dcreate2(f->id, path, type == TSR_FLOAT ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, fs, lcpl,
                       H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  herr_t e = -1;
  if (d >= 0) {
    hid_t ms = box_select(fs, lo, n);
    hid_t x = tsr__h5_dxpl();
    e = H5Dwrite(d, tsr__h5_type(type), ms, fs, x, data);
    if (x != H5P_DEFAULT) H5Pclose(x);
    H5Sclose(ms);
    H5Dclose(d);
  }
  H5Sclose(fs);
  rc = d < 0 ? TSR_RAISE(TSR_ERR_HDF5, "%s: cannot create dataset '%s'", f->path, path)
       : e < 0 ? TSR_RAISE(TSR_ERR_HDF5, "%s: writing dataset '%s' failed", f->path, path)
               : TSR_SUCCESS;
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

/* Open a dataset of rank `rank` and shape want[] for reading (local). */
static int open_checked(tsr_file_t *f, const char *path, int rank, const tsr_idx_t *want, hid_t *d) {
  TSR_CHECK(tsr__exists(f, path), TSR_ERR_FORMAT, "%s: dataset '%s' not found", f->path, path);
  int r;
  tsr_idx_t dims[3];
  tsr_dtype_t t;
  TSR_CALL(tsr_file_dataset_shape(f, path, &r, dims, &t));
  int ok = r == rank && t == TSR_DOUBLE;
  for (int i = 0; ok && i < rank; i++) ok = dims[i] == want[i];
  TSR_CHECK(ok, TSR_ERR_FORMAT, "%s: dataset '%s': expected a float or double array [%lld%s%lld%s%lld]",
            f->path, path, (long long)want[0], rank > 1 ? "][" : "", (long long)(rank > 1 ? want[1] : 0),
            rank > 2 ? "][" : "", (long long)(rank > 2 ? want[2] : 0));
  *d = H5Dopen2(f->id, path, H5P_DEFAULT);
  TSR_CHECK(*d >= 0, TSR_ERR_HDF5, "%s: cannot open dataset '%s'", f->path, path);
  return TSR_SUCCESS;
}

int tsr_grid_read_box(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                      const tsr_idx_t lo[3], const tsr_idx_t n[3], void *data) {
  char path[TSR_NAME_MAX * 4];
  const tsr_idx_t want[3] = {g->nz, g->ny, g->nx};
  hid_t d = -1;
  int rc = box_path(f, name, path, sizeof path);
  if (!rc) rc = box_check(f, g, path, type, lo, n);
  if (!rc) rc = open_checked(f, path, 3, want, &d);
  rc = tsr_error_agree(f->comm, rc);
  if (rc) {
    if (d >= 0) H5Dclose(d);
    TSR_CALL(rc);
  }
  hid_t fs = H5Dget_space(d), ms = box_select(fs, lo, n), x = tsr__h5_dxpl();
  herr_t e = H5Dread(d, tsr__h5_type(type), ms, fs, x, data);
  if (e >= 0 && tsr_fault(TSR_FAULT_H5READ)) e = -1;
  if (x != H5P_DEFAULT) H5Pclose(x);
  H5Sclose(ms);
  H5Sclose(fs);
  H5Dclose(d);
  rc = e >= 0 ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_HDF5, "%s: reading dataset '%s' failed", f->path, path);
  double v = 0;
  const tsr_idx_t bad = rc ? -1 : tsr__first_nonfinite(type, data, n[0] * n[1] * n[2], &v);
  if (bad >= 0)
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': the value at (x %lld, y %lld, z %lld) is %s "
                   "(expected finite numbers)", f->path, path, (long long)(lo[0] + bad % n[0]),
                   (long long)(lo[1] + bad / n[0] % n[1]), (long long)(lo[2] + bad / (n[0] * n[1])),
                   tsr__nonfinite_name(v));
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_xygrid_read_cells(tsr_file_t *f, const tsr_xygrid_t *g, const char *name, tsr_dtype_t type,
                          tsr_idx_t n, const int64_t *sidx, void *data) {
  char path[TSR_NAME_MAX * 4];
  const tsr_idx_t plane = g->nx * g->ny, want[2] = {g->nz, plane};
  int64_t smin = plane, smax = -1;
  for (tsr_idx_t i = 0; i < n; i++) {
    smin = sidx[i] < smin ? sidx[i] : smin;
    smax = sidx[i] > smax ? sidx[i] : smax;
  }
  hid_t d = -1;
  int rc = box_path(f, name, path, sizeof path);
  if (!rc && (type != TSR_FLOAT && type != TSR_DOUBLE))
    rc = TSR_RAISE(TSR_ERR_ARG, "%s: field '%s': type %s", f->path, path, tsr_dtype_name(type));
  if (!rc && n > 0 && (smin < 0 || smax >= plane))
    rc = TSR_RAISE(TSR_ERR_ARG, "%s: field '%s': stored cells [%lld, %lld] outside [0, %lld)",
                   f->path, path, (long long)smin, (long long)smax, (long long)plane);
  if (!rc) rc = open_checked(f, path, 2, want, &d);
  const size_t es = tsr_dtype_size(type);
  const tsr_idx_t range = n > 0 ? smax - smin + 1 : 0;
  char *tmp = rc ? NULL : tsr_malloc((size_t)(range + 1) * es);
  if (!rc && !tmp) rc = TSR_RAISE(TSR_ERR_ALLOC, "%s: cannot allocate %lld cells", f->path, (long long)range);
  rc = tsr_error_agree(f->comm, rc);
  /* one level at a time (the same number of collective reads on every
     rank): the range of stored cells this rank needs, then its cells */
  for (tsr_idx_t z = 0; !rc && z < g->nz; z++) {
    hid_t fs = H5Dget_space(d);
    hsize_t start[2] = {(hsize_t)z, (hsize_t)(n > 0 ? smin : 0)}, cnt[2] = {1, (hsize_t)range};
    hsize_t m = (hsize_t)(range > 0 ? range : 1);
    hid_t ms = H5Screate_simple(1, &m, NULL);
    if (range == 0) {
      H5Sselect_none(fs);
      H5Sselect_none(ms);
    } else {
      H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL);
    }
    hid_t x = tsr__h5_dxpl();
    herr_t e = H5Dread(d, tsr__h5_type(type), ms, fs, x, tmp);
    if (e >= 0 && tsr_fault(TSR_FAULT_H5READ)) e = -1;
    if (x != H5P_DEFAULT) H5Pclose(x);
    H5Sclose(ms);
    H5Sclose(fs);
    rc = e >= 0 ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_HDF5, "%s: reading dataset '%s' failed", f->path, path);
    for (tsr_idx_t i = 0; !rc && i < n; i++)
      memcpy((char *)data + (size_t)(z * n + i) * es, tmp + (size_t)(sidx[i] - smin) * es, es);
    rc = tsr_error_agree(f->comm, rc);
  }
  free(tmp);
  if (d >= 0) H5Dclose(d);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
