/* io_file.c: opening (with clear messages for missing, non-HDF5 and damaged
 * files), temp-then-rename writing (the temporaries: io_tmp.c), attributes,
 * provenance, and checked row-block reads and writes through hyperslabs
 * shared by every reader. */
#include "config.h"
#include "io_internal.h"
#include "tessera/provenance.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void tsr__h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

hid_t tsr__h5_type(tsr_dtype_t t) {
  switch (t) {
  case TSR_INT32: return H5T_NATIVE_INT32;
  case TSR_INT64: return H5T_NATIVE_INT64;
  case TSR_FLOAT: return H5T_NATIVE_FLOAT;
  default: return H5T_NATIVE_DOUBLE;
  }
}

hid_t tsr__h5_dxpl(void) {
  hid_t p = H5Pcreate(H5P_DATASET_XFER);
  if (p < 0) return H5P_DEFAULT;
  H5Pset_dxpl_mpio(p, H5FD_MPIO_COLLECTIVE);
  return p;
}

static void tsr__pclose(hid_t p) {
  if (p >= 0 && p != H5P_DEFAULT) H5Pclose(p);
}

static int tsr__file_new(MPI_Comm comm, const char *path, tsr_file_t **out) {
  TSR_CHECK(out && path && *path, TSR_ERR_ARG, "file: empty path");
  TSR_CHECK(strlen(path) + 16 < PATH_MAX, TSR_ERR_ARG, "%s: path too long", path);
  tsr_file_t *f = tsr_calloc(1, sizeof *f);
  /* agreed: the other ranks are about to enter MPI_Comm_dup */
  if (tsr_error_agree(comm, f ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory", path))) {
    free(f);
    return tsr_error_code();
  }
  f->id = H5I_INVALID_HID;
  if (MPI_Comm_dup(comm, &f->comm) != MPI_SUCCESS) {
    free(f);
    return TSR_RAISE(TSR_ERR_MPI, "%s: MPI_Comm_dup failed", path);
  }
  MPI_Comm_rank(f->comm, &f->rank);
  MPI_Comm_size(f->comm, &f->size);
  snprintf(f->path, sizeof f->path, "%s", path);
  *out = f;
  return TSR_SUCCESS;
}

static void tsr__file_free(tsr_file_t *f) {
  if (f->id >= 0) H5Fclose(f->id);
  MPI_Comm_free(&f->comm);
  free(f);
}

static hid_t tsr__fapl(MPI_Comm comm) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) return fapl;
  if (H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL) < 0) {
    H5Pclose(fapl);
    return -1;
  }
  return fapl;
}

/* Rank 0 looks at the file before HDF5 does. */
static int tsr__probe(const char *path) {
  FILE *fp = fopen(path, "rb");
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  fclose(fp);
  htri_t h = H5Fis_hdf5(path); /* H5Fis_accessible in HDF5 >= 1.12 */
  TSR_CHECK(h > 0, TSR_ERR_FORMAT, "%s: not an HDF5 file (no HDF5 signature found)", path);
  return TSR_SUCCESS;
}

int tsr_file_open(MPI_Comm comm, const char *path, tsr_file_t **out) {
  tsr__h5_quiet();
  tsr_file_t *f = NULL;
  TSR_CALL(tsr__file_new(comm, path, &f));
  int rc = f->rank == 0 ? tsr__probe(path) : 0;
  rc = tsr_error_agree(f->comm, rc);
  if (rc) {
    tsr__file_free(f);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  hid_t fapl = tsr__fapl(f->comm);
  f->id = fapl >= 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
  tsr__pclose(fapl);
  rc = f->id >= 0 ? 0
                  : TSR_RAISE(TSR_ERR_FORMAT,
                              "%s: HDF5 cannot open the file (truncated or damaged?)", path);
  rc = tsr_error_agree(f->comm, rc);
  if (rc) {
    tsr__file_free(f);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  *out = f;
  return TSR_SUCCESS;
}

int tsr_file_create(MPI_Comm comm, const char *path, tsr_file_t **out) {
  tsr__h5_quiet();
  tsr_file_t *f = NULL;
  TSR_CALL(tsr__file_new(comm, path, &f));
  f->writing = 1;
  int rc = 0;
  if (f->rank == 0) {
    int fd = tsr_tmp_create(path, f->tmp, sizeof f->tmp);
    if (fd < 0)
      rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot create a temporary file %s: %s", path, f->tmp,
                     strerror(errno));
    else
      close(fd);
  }
  rc = tsr_error_agree(f->comm, rc);
  if (rc) {
    tsr__file_free(f);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  MPI_Bcast(f->tmp, (int)sizeof f->tmp, MPI_CHAR, 0, f->comm);
  if (f->rank != 0) tsr_tmp_register(f->tmp); /* every rank removes it on a signal */
  /* OpenMPI's MPI_File_open makes TMP.locktest.RANK for a moment (its
     sharedfp lockedfile component's test) and removes it: a signal in that
     moment removes it too */
  char lock[PATH_MAX + 32];
  const int haslock = snprintf(lock, sizeof lock, "%s.locktest.%d", f->tmp, f->rank) < PATH_MAX;
  if (haslock) tsr_tmp_register(lock);
  hid_t fapl = tsr__fapl(f->comm);
  f->id = fapl >= 0 ? H5Fcreate(f->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
  tsr__pclose(fapl);
  if (haslock) tsr_tmp_forget(lock);
  rc = f->id >= 0 ? 0 : TSR_RAISE(TSR_ERR_HDF5, "%s: HDF5 cannot create %s", path, f->tmp);
  rc = tsr_error_agree(f->comm, rc);
  if (rc) {
    MPI_Barrier(f->comm);
    if (f->rank == 0) unlink(f->tmp);
    tsr_tmp_forget(f->tmp);
    tsr__file_free(f);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  *out = f;
  return TSR_SUCCESS;
}

int tsr_file_discard(tsr_file_t **fp) {
  if (!fp || !*fp) return TSR_SUCCESS;
  tsr_file_t *f = *fp;
  if (f->id >= 0) H5Fclose(f->id);
  f->id = H5I_INVALID_HID;
  MPI_Barrier(f->comm);
  if (f->writing && f->rank == 0) unlink(f->tmp);
  if (f->writing) tsr_tmp_forget(f->tmp);
  tsr__file_free(f);
  *fp = NULL;
  return TSR_SUCCESS;
}

int tsr_file_close(tsr_file_t **fp) {
  if (!fp || !*fp) return TSR_SUCCESS;
  tsr_file_t *f = *fp;
  int rc = 0;
  if (f->id >= 0 && H5Fclose(f->id) < 0)
    rc = TSR_RAISE(TSR_ERR_HDF5, "%s: closing the file failed", f->path);
  f->id = H5I_INVALID_HID;
  rc = tsr_error_agree(f->comm, rc);
  if (f->writing) {
    MPI_Barrier(f->comm);
    if (f->rank == 0) {
      if (rc)
        unlink(f->tmp);
      else if (rename(f->tmp, f->path) != 0) {
        rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot rename %s to it: %s", f->path, f->tmp,
                       strerror(errno));
        unlink(f->tmp);
      }
    }
    rc = tsr_error_agree(f->comm, rc);
    tsr_tmp_forget(f->tmp);
  }
  tsr__file_free(f);
  *fp = NULL;
  if (rc) return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  return TSR_SUCCESS;
}

const char *tsr_file_path(const tsr_file_t *f) { return f->path; }
MPI_Comm tsr_file_comm(const tsr_file_t *f) { return f->comm; }

int tsr_file_has(tsr_file_t *f, const char *name) { return f && name && tsr__exists(f, name); }

int tsr__exists(tsr_file_t *f, const char *name) {
  /* check each component so that "/a/b" with no "/a" is simply absent */
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", name);
  for (char *p = buf + 1; ; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (H5Lexists(f->id, buf, H5P_DEFAULT) <= 0) return 0;
      if (c == '\0') return 1;
      *p = c;
    }
  }
}

/* ---- attributes -------------------------------------------------------- */

static hid_t tsr__obj_open(tsr_file_t *f, const char *obj) {
  if (!obj || !*obj || strcmp(obj, "/") == 0) return H5Oopen(f->id, "/", H5P_DEFAULT);
  if (!tsr__exists(f, obj)) return -1;
  return H5Oopen(f->id, obj, H5P_DEFAULT);
}

int tsr_file_has_attr(tsr_file_t *f, const char *obj, const char *name) {
  hid_t o = tsr__obj_open(f, obj);
  if (o < 0) return 0;
  htri_t e = H5Aexists(o, name);
  H5Oclose(o);
  return e > 0;
}

/* Open attribute `name` of obj (root for NULL or "") for reading: *o and *a
 * (a may be negative if H5Aopen failed; the caller checks and closes both). */
static int tsr__attr_open(tsr_file_t *f, const char *obj, const char *name, hid_t *o, hid_t *a) {
  const char *on = obj && *obj ? obj : "/";
  *o = tsr__obj_open(f, obj);
  TSR_CHECK(*o >= 0, TSR_ERR_FORMAT, "%s: object '%s' not found", f->path, on);
  if (H5Aexists(*o, name) <= 0) {
    H5Oclose(*o);
    return TSR_RAISE(TSR_ERR_FORMAT, "%s: '%s': attribute '%s' not found", f->path, on, name);
  }
  *a = H5Aopen(*o, name, H5P_DEFAULT);
  return TSR_SUCCESS;
}

int tsr_file_attr_string(tsr_file_t *f, const char *obj, const char *name, char *buf, size_t n) {
  const char *on = obj && *obj ? obj : "/";
  hid_t o, a;
  TSR_CALL(tsr__attr_open(f, obj, name, &o, &a));
  hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
  int rc = 0;
  if (ft < 0 || H5Tget_class(ft) != H5T_STRING) {
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: '%s': attribute '%s': expected a string", f->path, on,
                   name);
  } else if (H5Tis_variable_str(ft) > 0) {
    char *s = NULL;
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5Tget_cset(ft)); /* UTF-8 (h5py's default) as well as ASCII */
    if (H5Aread(a, mt, &s) < 0)
      rc = TSR_RAISE(TSR_ERR_HDF5, "%s: '%s': reading attribute '%s' failed", f->path, on, name);
    else
      snprintf(buf, n, "%s", s ? s : "");
    if (s) H5free_memory(s);
    H5Tclose(mt);
  } else {
    size_t sz = H5Tget_size(ft);
    char *s = tsr_calloc(sz + 1, 1);
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, sz + 1);
    H5Tset_cset(mt, H5Tget_cset(ft));
    if (!s || H5Aread(a, mt, s) < 0)
      rc = TSR_RAISE(TSR_ERR_HDF5, "%s: '%s': reading attribute '%s' failed", f->path, on, name);
    else
      snprintf(buf, n, "%s", s);
    free(s);
    H5Tclose(mt);
  }
  if (ft >= 0) H5Tclose(ft);
  if (a >= 0) H5Aclose(a);
  H5Oclose(o);
  return rc;
}

int tsr_file_attr_int(tsr_file_t *f, const char *obj, const char *name, int64_t *val, int count) {
  const char *on = obj && *obj ? obj : "/";
  hid_t o, a;
  TSR_CALL(tsr__attr_open(f, obj, name, &o, &a));
  hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
  hid_t sp = a >= 0 ? H5Aget_space(a) : -1;
  hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
  int rc = 0;
  if (ft < 0 || H5Tget_class(ft) != H5T_INTEGER || np != count)
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: '%s': attribute '%s': expected %d integer(s), found %lld %s",
                   f->path, on, name, count, (long long)np,
                   ft >= 0 && H5Tget_class(ft) == H5T_INTEGER ? "integers" : "values of another type");
  else if (H5Aread(a, H5T_NATIVE_INT64, val) < 0)
    rc = TSR_RAISE(TSR_ERR_HDF5, "%s: '%s': reading attribute '%s' failed", f->path, on, name);
  if (sp >= 0) H5Sclose(sp);
  if (ft >= 0) H5Tclose(ft);
  if (a >= 0) H5Aclose(a);
  H5Oclose(o);
  return rc;
}

/* Attribute writes change the file's metadata, which parallel HDF5 needs
 * identical on every rank (a rank writing another length or value leaves
 * the ranks in different collectives at close: a hang). Rank 0's value is
 * therefore the one every rank writes. */
int tsr__attr_write_string(tsr_file_t *f, hid_t obj, const char *name, const char *value) {
  if (!value) value = "";
  long long len = (long long)strlen(value);
  MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, f->comm);
  char *v = tsr_malloc((size_t)len + 1);
  int ok = v != NULL, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, f->comm);
  if (!all) {
    free(v);
    return TSR_RAISE(TSR_ERR_ALLOC, "%s: attribute '%s': out of memory", f->path, name);
  }
  if (f->rank == 0) memcpy(v, value, (size_t)len + 1);
  MPI_Bcast(v, (int)len + 1, MPI_CHAR, 0, f->comm);
  value = v;
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(value) + 1);
  H5Tset_strpad(t, H5T_STR_NULLTERM);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = (a >= 0 && H5Awrite(a, t, value) >= 0)
               ? 0
               : TSR_RAISE(TSR_ERR_HDF5, "%s: writing attribute '%s' failed", f->path, name);
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
  free(v);
  return rc;
}

int tsr__attr_write_int(tsr_file_t *f, hid_t obj, const char *name, const int64_t *v, int n,
                        tsr_dtype_t type) {
  /* rank 0's values for every rank, as for strings */
  int64_t vb[16];
  TSR_CHECK(n >= 1 && n <= 16, TSR_ERR_ARG, "%s: attribute '%s': %d values (1..16)", f->path, name,
            n);
  memcpy(vb, v, (size_t)n * sizeof *vb);
  MPI_Bcast(vb, n, MPI_INT64_T, 0, f->comm);
  v = vb;
  hsize_t d = (hsize_t)n;
  hid_t sp = H5Screate_simple(1, &d, NULL);
  hid_t ft = type == TSR_INT32 ? H5T_STD_I32LE : H5T_STD_I64LE;
  hid_t a = H5Acreate2(obj, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = (a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, v) >= 0)
               ? 0
               : TSR_RAISE(TSR_ERR_HDF5, "%s: writing attribute '%s' failed", f->path, name);
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  return rc;
}

int tsr_file_kind(tsr_file_t *f, char *kind, size_t n) {
  if (tsr_file_has_attr(f, "/", "kind")) TSR_CALL(tsr_file_attr_string(f, "/", "kind", kind, n));
  else snprintf(kind, n, "op2-mesh");
  return TSR_SUCCESS;
}

void tsr_provenance_command_line(int argc, char **argv, char *buf, size_t n) {
  size_t at = 0;
  if (n == 0) return;
  buf[0] = '\0';
  for (int i = 0; i < argc && at + 1 < n; i++)
    at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? " " : "", argv[i]);
}

int tsr_file_write_provenance(tsr_file_t *f, const tsr_provenance_t *p) {
  TSR_CHECK(f && p && f->writing, TSR_ERR_ARG, "provenance: needs a file opened for writing");
  /* rank 0's clock, host and libraries for everyone (the string writer
   * broadcasts rank 0's value) */
  char date[32] = "", host[256] = "", cpu[64] = "";
  tsr_build_t b;
  tsr_build_info(&b);
  tsr_utc_now(date, sizeof date);
  tsr_host_name(host, sizeof host);
  tsr_cpu_device_name(cpu, sizeof cpu);
  const char *device = p->device && p->device[0] ? p->device : cpu;
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  TSR_CHECK(root >= 0, TSR_ERR_HDF5, "%s: cannot open the root group", f->path);
  int64_t v = TSR_SCHEMA_VERSION, r = p->ranks > 0 ? p->ranks : f->size;
  int rc = tsr__attr_write_int(f, root, "tessera_schema", &v, 1, TSR_INT32);
  if (!rc) rc = tsr__attr_write_string(f, root, "app", p->app);
  if (!rc) rc = tsr__attr_write_string(f, root, "variant", p->variant);
  if (!rc) rc = tsr__attr_write_int(f, root, "ranks", &r, 1, TSR_INT32);
  if (!rc) rc = tsr__attr_write_string(f, root, "device", device);
  if (!rc) rc = tsr__attr_write_string(f, root, "version", b.version);
  if (!rc) rc = tsr__attr_write_string(f, root, "commit", b.commit);
  if (!rc) rc = tsr__attr_write_string(f, root, "date", date);
  if (!rc) rc = tsr__attr_write_string(f, root, "host", host);
  if (!rc) rc = tsr__attr_write_string(f, root, "command_line", p->command_line);
  if (!rc) rc = tsr__attr_write_string(f, root, "mpi", b.mpi);
  if (!rc) rc = tsr__attr_write_string(f, root, "hdf5", b.hdf5);
  if (!rc) rc = tsr__attr_write_string(f, root, "cuda", b.cuda);
  if (!rc) rc = tsr__attr_write_string(f, root, "compiler", b.compiler);
  H5Oclose(root);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

/* ---- datasets ---------------------------------------------------------- */

int tsr_file_dataset_shape(tsr_file_t *f, const char *name, int *rank, tsr_idx_t dims[3],
                           tsr_dtype_t *type) {
  TSR_CHECK(tsr__exists(f, name), TSR_ERR_FORMAT, "%s: dataset '%s' not found", f->path, name);
  hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
  TSR_CHECK(d >= 0, TSR_ERR_FORMAT, "%s: '%s' is not a dataset", f->path, name);
  hid_t sp = H5Dget_space(d), ft = H5Dget_type(d);
  int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
  hsize_t hd[H5S_MAX_RANK];
  H5T_class_t cls = ft >= 0 ? H5Tget_class(ft) : H5T_NO_CLASS;
  size_t sz = ft >= 0 ? H5Tget_size(ft) : 0;
  if (r >= 1 && r <= 3) H5Sget_simple_extent_dims(sp, hd, NULL);
  /* what the file really holds: a contiguous dataset must store all its
     elements, any other at least something (a declared shape whose data
     was never written must not size an allocation) */
  hssize_t npts = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
  hsize_t stored = H5Dget_storage_size(d);
  hid_t dcpl = H5Dget_create_plist(d);
  H5D_layout_t lay = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
  if (dcpl >= 0) H5Pclose(dcpl);
  if (ft >= 0) H5Tclose(ft);
  if (sp >= 0) H5Sclose(sp);
  H5Dclose(d);
  TSR_CHECK(r >= 1 && r <= 3, TSR_ERR_FORMAT,
            "%s: dataset '%s': expected rank 1 to 3, found rank %d", f->path, name, r);
  TSR_CHECK(cls == H5T_INTEGER || cls == H5T_FLOAT, TSR_ERR_FORMAT,
            "%s: dataset '%s': expected integer or floating-point numbers, found %s", f->path, name,
            cls == H5T_STRING ? "strings" : cls == H5T_COMPOUND ? "a compound type"
                                                                : "another HDF5 class");
  for (int i = 0; i < r; i++)
    TSR_CHECK(hd[i] < ((hsize_t)1 << 62), TSR_ERR_FORMAT, "%s: dataset '%s': dimension %d of "
              "%llu elements", f->path, name, i, (unsigned long long)hd[i]);
  const double need = (double)npts * (double)sz;
  TSR_CHECK(npts <= 0 || (lay == H5D_CONTIGUOUS ? (double)stored >= need : stored > 0),
            TSR_ERR_IO, "%s: dataset '%s': declares %lld elements (%.3g bytes) but the file "
            "stores %llu bytes of it (never written, or truncated)", f->path, name,
            (long long)npts, need, (unsigned long long)stored);
  *rank = r;
  for (int i = 0; i < 3; i++) dims[i] = i < r ? (tsr_idx_t)hd[i] : 1;
  *type = cls == H5T_INTEGER ? (sz <= 4 ? TSR_INT32 : TSR_INT64) : (sz <= 4 ? TSR_FLOAT : TSR_DOUBLE);
  return TSR_SUCCESS;
}

/* Convert n values read as int64 or double (src_int) into type, checking
 * that nothing is lost. */
static int tsr__convert(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t cols,
                        int src_int, const void *src, tsr_dtype_t type, void *dst, tsr_idx_t n) {
  const int64_t *si = src;
  const double *sd = src;
  for (tsr_idx_t i = 0; i < n; i++) {
    if (src_int) {
      int64_t v = si[i];
      if (type == TSR_INT32) {
        TSR_CHECK(v >= INT32_MIN && v <= INT32_MAX, TSR_ERR_FORMAT,
                  "%s: dataset '%s': value %lld at row %lld does not fit int32", f->path, name,
                  (long long)v, (long long)(first + i / cols));
        ((int32_t *)dst)[i] = (int32_t)v;
      } else if (type == TSR_INT64) {
        ((int64_t *)dst)[i] = v;
      } else {
        ((double *)dst)[i] = (double)v; /* float targets are refused before */
      }
    } else {
      double v = sd[i];
      TSR_CHECK(v == floor(v) && fabs(v) < 9.0e15, TSR_ERR_FORMAT,
                "%s: dataset '%s': expected %s, found floating-point data with the non-integral "
                "value %g at row %lld (only integral values convert)",
                f->path, name, tsr_dtype_name(type), v, (long long)(first + i / cols));
      if (type == TSR_INT32) {
        TSR_CHECK(v >= INT32_MIN && v <= INT32_MAX, TSR_ERR_FORMAT,
                  "%s: dataset '%s': value %g at row %lld does not fit int32", f->path, name, v,
                  (long long)(first + i / cols));
        ((int32_t *)dst)[i] = (int32_t)v;
      } else {
        ((int64_t *)dst)[i] = (int64_t)v;
      }
    }
  }
  return TSR_SUCCESS;
}

/* A planned block read: checked on every rank before anyone reads. */
typedef struct {
  tsr_idx_t dims[3], cols;
  int src_int, direct;
  void *tmp;
} tsr__plan_t;

static int tsr__read_plan(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                          tsr_dtype_t type, tsr__plan_t *pl) {
  int rank;
  tsr_dtype_t ft;
  TSR_CALL(tsr_file_dataset_shape(f, name, &rank, pl->dims, &ft));
  TSR_CHECK(first >= 0 && count >= 0 && first + count <= pl->dims[0], TSR_ERR_FORMAT,
            "%s: dataset '%s': rows [%lld, %lld) requested, found %lld rows", f->path, name,
            (long long)first, (long long)(first + count), (long long)pl->dims[0]);
  pl->cols = pl->dims[1] * pl->dims[2];
  int fint = ft == TSR_INT32 || ft == TSR_INT64, wint = type == TSR_INT32 || type == TSR_INT64;
  pl->direct = (fint == wint && tsr_dtype_size(type) >= tsr_dtype_size(ft)) ||
               (fint && type == TSR_DOUBLE && ft == TSR_INT32);
  TSR_CHECK(pl->direct || type != TSR_FLOAT, TSR_ERR_FORMAT,
            "%s: dataset '%s': expected float, found %s (narrowing is refused)", f->path, name,
            tsr_dtype_name(ft));
  TSR_CHECK(pl->direct || !(fint && type == TSR_DOUBLE), TSR_ERR_FORMAT,
            "%s: dataset '%s': expected double, found int64 (not lossless)", f->path, name);
  pl->src_int = fint;
  if (!pl->direct) {
    tsr_idx_t n = count * pl->cols;
    pl->tmp = tsr_malloc((size_t)(n ? n : 1) * 8);
    TSR_CHECK(pl->tmp, TSR_ERR_ALLOC, "%s: dataset '%s': out of memory", f->path, name);
  }
  return TSR_SUCCESS;
}

static int tsr__read_exec(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                          tsr_dtype_t type, const tsr__plan_t *pl, void *buf) {
  void *dst = pl->direct ? buf : pl->tmp;
  hid_t memt = pl->direct ? tsr__h5_type(type) : (pl->src_int ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE);
  hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
  hid_t fs = H5Dget_space(d);
  hsize_t start[3] = {(hsize_t)first, 0, 0};
  hsize_t cnt[3] = {(hsize_t)count, (hsize_t)pl->dims[1], (hsize_t)pl->dims[2]};
  hsize_t mdim = (hsize_t)(count * pl->cols);
  hid_t ms = H5Screate_simple(1, &mdim, NULL);
  if (count == 0) {
    H5Sselect_none(fs);
    H5Sselect_none(ms);
  } else {
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL);
  }
  hid_t x = tsr__h5_dxpl();
  herr_t e = H5Dread(d, memt, ms, fs, x, dst);
  if (e >= 0 && tsr_fault(TSR_FAULT_H5READ)) e = -1; /* after the collective read */
  tsr__pclose(x);
  H5Sclose(ms);
  H5Sclose(fs);
  H5Dclose(d);
  TSR_CHECK(e >= 0, TSR_ERR_HDF5,
            "%s: dataset '%s': reading rows [%lld, %lld) failed (file truncated or damaged?)",
            f->path, name, (long long)first, (long long)(first + count));
  if (!pl->direct)
    TSR_CALL(tsr__convert(f, name, first, pl->cols, pl->src_int, pl->tmp, type, buf,
                          count * pl->cols));
  return TSR_SUCCESS;
}

int tsr__read_rows_nd(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                      tsr_dtype_t type, void *buf) {
  tsr__plan_t pl;
  memset(&pl, 0, sizeof pl);
  /* every rank checks before any rank enters the collective read */
  int rc = tsr_error_agree(f->comm, tsr__read_plan(f, name, first, count, type, &pl));
  if (!rc) rc = tsr_error_agree(f->comm, tsr__read_exec(f, name, first, count, type, &pl, buf));
  free(pl.tmp);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

tsr_idx_t tsr__first_nonfinite(tsr_dtype_t type, const void *data, tsr_idx_t n, double *v) {
  if (type == TSR_DOUBLE) {
    const double *d = data;
    for (tsr_idx_t i = 0; i < n; i++)
      if (!isfinite(d[i])) return *v = d[i], i;
  } else if (type == TSR_FLOAT) {
    const float *d = data;
    for (tsr_idx_t i = 0; i < n; i++)
      if (!isfinite(d[i])) return *v = d[i], i;
  }
  return -1;
}

const char *tsr__nonfinite_name(double v) { return isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf"; }

int tsr__check_finite(tsr_file_t *f, const char *name, tsr_dtype_t type, const void *data,
                      tsr_idx_t n, tsr_idx_t first) {
  double v = 0;
  const tsr_idx_t bad = tsr__first_nonfinite(type, data, n, &v);
  TSR_CHECK(bad < 0, TSR_ERR_FORMAT, "%s: dataset '%s': element %lld is %s (expected finite numbers)",
            f->path, name, (long long)(first + bad), tsr__nonfinite_name(v));
  return TSR_SUCCESS;
}

int tsr_file_read_rows(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                       tsr_dtype_t type, void *buf) {
  TSR_CALL(tsr__read_rows_nd(f, name, first, count, type, buf));
  return TSR_SUCCESS;
}

int tsr__write_rows(tsr_file_t *f, const char *name, int rank, const tsr_idx_t dims[3],
                    tsr_dtype_t type, tsr_idx_t first, tsr_idx_t count, const void *buf) {
  hsize_t hd[3], start[3] = {(hsize_t)first, 0, 0}, cnt[3];
  hsize_t cols = 1;
  for (int i = 0; i < rank; i++) {
    hd[i] = (hsize_t)dims[i];
    cnt[i] = i == 0 ? (hsize_t)count : hd[i];
    if (i) cols *= hd[i];
  }
  hid_t ft = type == TSR_INT32 ? H5T_STD_I32LE : type == TSR_INT64 ? H5T_STD_I64LE
             : type == TSR_FLOAT ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  hid_t fs = H5Screate_simple(rank, hd, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t d = H5Dcreate2(f->id, name, ft, fs, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  if (d < 0) {
    H5Sclose(fs);
    return TSR_RAISE(TSR_ERR_HDF5, "%s: cannot create dataset '%s'", f->path, name);
  }
  hsize_t mdim = (hsize_t)count * cols;
  hid_t ms = H5Screate_simple(1, &mdim, NULL);
  if (count == 0) {
    H5Sselect_none(fs);
    H5Sselect_none(ms);
  } else {
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL);
  }
  hid_t x = tsr__h5_dxpl();
  herr_t e = H5Dwrite(d, tsr__h5_type(type), ms, fs, x, buf);
  tsr__pclose(x);
  H5Sclose(ms);
  H5Sclose(fs);
  H5Dclose(d);
  int rc = e >= 0 ? 0 : TSR_RAISE(TSR_ERR_HDF5, "%s: writing dataset '%s' failed", f->path, name);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_file_write_rows(tsr_file_t *f, const char *name, int rank, const tsr_idx_t dims[3],
                        tsr_dtype_t type, tsr_idx_t first, tsr_idx_t count, const void *buf) {
  TSR_CHECK(f && name && dims && f->writing, TSR_ERR_ARG,
            "tsr_file_write_rows: needs a file opened for writing and a dataset name");
  TSR_CHECK(rank >= 1 && rank <= 3, TSR_ERR_ARG, "%s: dataset '%s': rank %d, expected 1..3",
            f->path, name, rank);
  TSR_CHECK(type == TSR_INT32 || type == TSR_INT64 || type == TSR_FLOAT || type == TSR_DOUBLE,
            TSR_ERR_ARG, "%s: dataset '%s': type %s cannot be written", f->path, name,
            tsr_dtype_name(type));
  int ok = 1;
  for (int i = 0; i < rank; i++) ok = ok && dims[i] >= 0;
  TSR_CHECK(ok && first >= 0 && count >= 0 && first + count <= dims[0] && (count == 0 || buf),
            TSR_ERR_ARG, "%s: dataset '%s': rows [%lld, %lld) of %lld cannot be written", f->path,
            name, (long long)first, (long long)(first + count), (long long)dims[0]);
  TSR_CALL(tsr__write_rows(f, name, rank, dims, type, first, count, buf));
  return TSR_SUCCESS;
}

static int tsr__attr_write(tsr_file_t *f, const char *obj, const char *name, const char *str,
                           const int64_t *val, int count) {
  const char *on = obj && *obj ? obj : "/";
  TSR_CHECK(f && name && f->writing, TSR_ERR_ARG,
            "writing attribute '%s': needs a file opened for writing", name ? name : "(null)");
  TSR_CHECK(str || (val && count > 0), TSR_ERR_ARG, "%s: attribute '%s': no value", f->path, name);
  hid_t o = tsr__obj_open(f, obj);
  int rc = o >= 0 ? 0 : TSR_RAISE(TSR_ERR_ARG, "%s: object '%s' not found", f->path, on);
  if (!rc) rc = str ? tsr__attr_write_string(f, o, name, str)
                    : tsr__attr_write_int(f, o, name, val, count, TSR_INT64);
  if (o >= 0) H5Oclose(o);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_file_write_attr_string(tsr_file_t *f, const char *obj, const char *name,
                               const char *value) {
  TSR_CALL(tsr__attr_write(f, obj, name, value ? value : "", NULL, 0));
  return TSR_SUCCESS;
}

int tsr_file_write_attr_int(tsr_file_t *f, const char *obj, const char *name, const int64_t *val,
                            int count) {
  TSR_CALL(tsr__attr_write(f, obj, name, NULL, val, count));
  return TSR_SUCCESS;
}
