/* apps/airfoil/airfoil_h5.c: OP2's HDF5 mesh layout, read and written on one
 * rank (serial stop-gap until libtessera's io module provides tsr_mesh_read
 * and tsr_mesh_write; the layout is the one OP2's convert_mesh writes).
 *
 *   /<set>     int [1]              the set's size
 *   /<map>     int [from_size][dim] attributes dim, size (= from_size), type "int"
 *   /<dat>     T [size][dim]        attributes dim, size (bytes per row), type
 *   /<const>   double [dim]         attributes dim, type "double"
 */
#include "config.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "apps/airfoil/airfoil_mesh.h"

static const char *const af_sets[] = {"nodes", "edges", "bedges", "cells"};
static const struct { const char *name, *from, *to; int dim; } af_maps[] = {
    {"pedge", "edges", "nodes", 2},   {"pecell", "edges", "cells", 2},
    {"pbedge", "bedges", "nodes", 2}, {"pbecell", "bedges", "cells", 1},
    {"pcell", "cells", "nodes", 4}};
static const struct { const char *name, *set; int dim; tsr_dtype_t type; int required; } af_dats[] = {
    {"p_x", "nodes", 2, TSR_DOUBLE, 1},   {"p_q", "cells", 4, TSR_DOUBLE, 1},
    {"p_bound", "bedges", 1, TSR_INT32, 1}, {"p_qold", "cells", 4, TSR_DOUBLE, 0},
    {"p_adt", "cells", 1, TSR_DOUBLE, 0}, {"p_res", "cells", 4, TSR_DOUBLE, 0}};
static const struct { const char *name; int dim; } af_consts[] = {
    {"gam", 1}, {"gm1", 1}, {"cfl", 1}, {"eps", 1}, {"mach", 1}, {"alpha", 1}, {"qinf", 4}};
#define AF_N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static hid_t af_native(tsr_dtype_t t) {
  return t == TSR_INT32 ? H5T_NATIVE_INT32 : t == TSR_INT64 ? H5T_NATIVE_INT64
       : t == TSR_FLOAT ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

/* Read dataset `name` of file `path` into a new malloc'd buffer of `type`,
 * checking that it is [rows][cols] (or [rows] when cols == 1) and that its
 * class matches (integer for int types, float for float types). */
static int af_read(hid_t f, const char *path, const char *name, tsr_dtype_t type, int64_t rows,
                   int cols, void **out) {
  *out = NULL;
  TSR_CHECK(H5Lexists(f, name, H5P_DEFAULT) > 0, TSR_ERR_FORMAT,
            "%s: dataset '%s' is missing (is this an OP2 Airfoil mesh?)", path, name);
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  TSR_CHECK(d >= 0, TSR_ERR_HDF5, "%s: cannot open dataset '%s'", path, name);
  hid_t s = H5Dget_space(d), t = H5Dget_type(d);
  hsize_t dims[3] = {0, 0, 0};
  int nd = H5Sget_simple_extent_ndims(s);
  if (nd >= 1 && nd <= 3) H5Sget_simple_extent_dims(s, dims, NULL);
  H5T_class_t cls = H5Tget_class(t);
  H5Tclose(t);
  H5Sclose(s);
  int want_int = type == TSR_INT32 || type == TSR_INT64;
  int err = 0;
  if (!((want_int && cls == H5T_INTEGER) || (!want_int && cls == H5T_FLOAT))) {
    err = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' holds %s, expected %s", path, name,
                    cls == H5T_INTEGER ? "integers" : cls == H5T_FLOAT ? "floats" : "non-numbers",
                    want_int ? "integers" : "floating-point numbers");
  } else if (!((nd == 2 && (int64_t)dims[0] == rows && dims[1] == (hsize_t)cols) ||
               (nd == 1 && cols == 1 && (int64_t)dims[0] == rows))) {
    err = TSR_RAISE(TSR_ERR_FORMAT,
                    "%s: dataset '%s' has shape [%llu][%llu] (rank %d), expected [%lld][%d]",
                    path, name, (unsigned long long)dims[0], (unsigned long long)dims[1], nd,
                    (long long)rows, cols);
  }
  if (err) {
    H5Dclose(d);
    return err;
  }
  void *buf = malloc(tsr_dtype_size(type) * (size_t)(rows * cols) + 1);
  if (!buf) {
    H5Dclose(d);
    return TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for dataset '%s'", path, name);
  }
  herr_t rc = rows > 0 ? H5Dread(d, af_native(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) : 0;
  H5Dclose(d);
  if (rc < 0) {
    free(buf);
    return TSR_RAISE(TSR_ERR_HDF5, "%s: reading dataset '%s' failed", path, name);
  }
  *out = buf;
  return 0;
}

static int af_read_file(hid_t f, const char *path, tsr_mesh_t *m) {
  int64_t size[4];
  for (int i = 0; i < AF_N(af_sets); i++) {
    int32_t *v = NULL;
    TSR_CALL(af_read(f, path, af_sets[i], TSR_INT32, 1, 1, (void **)&v));
    size[i] = v[0];
    free(v);
    TSR_CHECK(size[i] >= 0, TSR_ERR_FORMAT, "%s: set '%s' has negative size %lld", path,
              af_sets[i], (long long)size[i]);
    TSR_CALL(tsr_mesh_add_set(m, af_sets[i], size[i], NULL));
  }
  for (int i = 0; i < AF_N(af_maps); i++) {
    int from = tsr_mesh_find_set(m, af_maps[i].from), to = tsr_mesh_find_set(m, af_maps[i].to);
    void *v = NULL;
    TSR_CALL(af_read(f, path, af_maps[i].name, TSR_INT32, size[from], af_maps[i].dim, &v));
    TSR_CALL(tsr_mesh_add_map(m, af_maps[i].name, from, to, af_maps[i].dim, v, TSR_ADOPT, NULL));
  }
  for (int i = 0; i < AF_N(af_dats); i++) {
    if (!af_dats[i].required && H5Lexists(f, af_dats[i].name, H5P_DEFAULT) <= 0) continue;
    int set = tsr_mesh_find_set(m, af_dats[i].set);
    void *v = NULL;
    TSR_CALL(af_read(f, path, af_dats[i].name, af_dats[i].type, size[set], af_dats[i].dim, &v));
    TSR_CALL(tsr_mesh_add_dat(m, af_dats[i].name, set, af_dats[i].dim, af_dats[i].type, v,
                              TSR_ADOPT, NULL));
  }
  for (int i = 0; i < AF_N(af_consts); i++) {
    double *v = NULL;
    TSR_CALL(af_read(f, path, af_consts[i].name, TSR_DOUBLE, af_consts[i].dim, 1, (void **)&v));
    int rc = tsr_mesh_add_const(m, af_consts[i].name, af_consts[i].dim, v, NULL);
    free(v);
    TSR_CALL(rc);
  }
  return 0;
}

int airfoil_mesh_read_h5(const char *path, tsr_mesh_t **out) {
  *out = NULL;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our messages replace HDF5's stack dumps */
  FILE *probe = fopen(path, "rb");
  TSR_CHECK(probe, TSR_ERR_IO, "%s: cannot open the file for reading", path);
  fclose(probe);
  TSR_CHECK(H5Fis_hdf5(path) > 0, TSR_ERR_FORMAT,
            "%s: not an HDF5 file (expected an OP2 Airfoil mesh)", path);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  TSR_CHECK(f >= 0, TSR_ERR_HDF5, "%s: HDF5 cannot open the file", path);
  tsr_mesh_t *m = NULL;
  int rc = tsr_mesh_create(&m);
  if (!rc) rc = af_read_file(f, path, m);
  H5Fclose(f);
  if (rc) {
    tsr_mesh_destroy(&m);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  *out = m;
  return 0;
}

/* ---- writing ----------------------------------------------------------- */
static int af_attr_int(hid_t d, const char *name, int v) {
  hsize_t one = 1;
  hid_t s = H5Screate_simple(1, &one, NULL);
  hid_t a = H5Acreate2(d, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = a >= 0 ? H5Awrite(a, H5T_NATIVE_INT, &v) : -1;
  if (a >= 0) H5Aclose(a);
  H5Sclose(s);
  TSR_CALL_H5(rc);
  return 0;
}

static int af_attr_str(hid_t d, const char *name, const char *v) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) + 1);
  hid_t s = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(d, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = a >= 0 ? H5Awrite(a, t, v) : -1;
  if (a >= 0) H5Aclose(a);
  H5Sclose(s);
  H5Tclose(t);
  TSR_CALL_H5(rc);
  return 0;
}

/* Write [rows][cols] (or [rows] when rank1) of type; returns the dataset
 * id in *did for attributes (caller closes). */
static int af_write(hid_t f, const char *path, const char *name, tsr_dtype_t type, int64_t rows,
                    int cols, int rank1, const void *data, hid_t *did) {
  hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
  hid_t ft = type == TSR_INT32 ? H5T_STD_I32LE : type == TSR_INT64 ? H5T_STD_I64LE
           : type == TSR_FLOAT ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  hid_t s = H5Screate_simple(rank1 ? 1 : 2, dims, NULL);
  hid_t d = H5Dcreate2(f, name, ft, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = d >= 0 && rows > 0 ? H5Dwrite(d, af_native(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : 0;
  H5Sclose(s);
  TSR_CHECK(d >= 0 && rc >= 0, TSR_ERR_HDF5, "%s: writing dataset '%s' failed", path, name);
  *did = d;
  return 0;
}

static int af_write_file(hid_t f, const char *path, const tsr_mesh_t *m) {
  hid_t d;
  for (int i = 0; i < tsr_mesh_nsets(m); i++) {
    const tsr_set_t *s = tsr_mesh_set(m, i);
    int32_t n = (int32_t)s->size;
    TSR_CALL(af_write(f, path, s->name, TSR_INT32, 1, 1, 1, &n, &d));
    H5Dclose(d);
  }
  for (int i = 0; i < tsr_mesh_nmaps(m); i++) {
    const tsr_map_t *mp = tsr_mesh_map(m, i);
    int64_t rows = tsr_mesh_set(m, mp->from)->size;
    TSR_CALL(af_write(f, path, mp->name, TSR_INT32, rows, mp->dim, 0, mp->data, &d));
    int rc = af_attr_int(d, "dim", mp->dim);
    if (!rc) rc = af_attr_int(d, "size", (int)rows);
    if (!rc) rc = af_attr_str(d, "type", "int");
    H5Dclose(d);
    TSR_CALL(rc);
  }
  for (int i = 0; i < tsr_mesh_ndats(m); i++) {
    const tsr_dat_t *dt = tsr_mesh_dat(m, i);
    int64_t rows = tsr_mesh_set(m, dt->set)->size;
    TSR_CALL(af_write(f, path, dt->name, dt->type, rows, dt->dim, 0, dt->data, &d));
    int rc = af_attr_int(d, "dim", dt->dim);
    if (!rc) rc = af_attr_int(d, "size", dt->dim * (int)tsr_dtype_size(dt->type));
    if (!rc) rc = af_attr_str(d, "type", dt->type == TSR_INT32 ? "int" : tsr_dtype_name(dt->type));
    H5Dclose(d);
    TSR_CALL(rc);
  }
  for (int i = 0; i < tsr_mesh_nconsts(m); i++) {
    const tsr_const_t *c = tsr_mesh_const(m, i);
    TSR_CALL(af_write(f, path, c->name, TSR_DOUBLE, c->dim, 1, 1, c->data, &d));
    int rc = af_attr_int(d, "dim", c->dim);
    if (!rc) rc = af_attr_str(d, "type", "double");
    H5Dclose(d);
    TSR_CALL(rc);
  }
  return 0;
}

int airfoil_mesh_write_h5(const char *path, const tsr_mesh_t *mesh) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  char tmp[4096];
  TSR_CHECK(snprintf(tmp, sizeof tmp, "%s.tmp", path) < (int)sizeof tmp, TSR_ERR_ARG,
            "%s: path too long", path);
  hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  TSR_CHECK(f >= 0, TSR_ERR_IO, "%s: cannot create the file (directory missing or not writable?)",
            tmp);
  int rc = af_write_file(f, path, mesh);
  if (H5Fclose(f) < 0 && !rc) rc = TSR_RAISE(TSR_ERR_HDF5, "%s: closing the file failed", tmp);
  if (!rc && rename(tmp, path) != 0) rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot rename %s to it", path, tmp);
  if (rc) {
    remove(tmp);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return 0;
}
