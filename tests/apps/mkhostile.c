/* mkhostile FILE MUTATION [ARGS]: damages one valid input file in place
 * (serial HDF5) for tests/apps/hostile.sh:
 *   nan DSET INDEX VALUE   element INDEX (flat) of the double dataset DSET set
 *                          to VALUE (nan, inf, -inf or a number)
 *   scalar DSET VALUE      every element of DSET set to VALUE (as above)
 *   attr NAME VALUE        root integer attribute NAME rewritten as VALUE
 *   kind-vlen              root attribute 'kind' rewritten as a variable-length
 *                          UTF-8 string (what h5py writes by default)
 *   hollow DSET ROWS COLS  DSET replaced by a double dataset [ROWS][COLS] (COLS
 *                          0: [ROWS]) whose data was never written
 *   strings DSET           DSET replaced by variable-length strings of the
 *                          same length
 *   set NAME VALUE         the 1-element set-size dataset NAME set to VALUE */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(const char *s) {
  if (!strcmp(s, "nan")) return NAN;
  if (!strcmp(s, "inf")) return INFINITY;
  if (!strcmp(s, "-inf")) return -INFINITY;
  return strtod(s, NULL);
}

static int write_all(hid_t f, const char *name, double v) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return 1;
  hid_t sp = H5Dget_space(d);
  hssize_t n = H5Sget_simple_extent_npoints(sp);
  double *b = malloc((size_t)n * sizeof *b);
  for (hssize_t i = 0; i < n; i++) b[i] = v;
  herr_t e = H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, b);
  free(b);
  H5Sclose(sp);
  H5Dclose(d);
  return e < 0;
}

static int write_one(hid_t f, const char *name, long long idx, double v) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return 1;
  hid_t sp = H5Dget_space(d);
  hssize_t n = H5Sget_simple_extent_npoints(sp);
  double *b = malloc((size_t)n * sizeof *b);
  herr_t e = H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, b);
  if (e >= 0 && idx < n) {
    b[idx] = v;
    e = H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, b);
  } else {
    e = -1;
  }
  free(b);
  H5Sclose(sp);
  H5Dclose(d);
  return e < 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: mkhostile FILE MUTATION [ARGS]\n");
    return 2;
  }
  const char *m = argv[2];
  hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) return 1;
  int bad = 0;
  if (!strcmp(m, "nan") && argc == 6) {
    bad = write_one(f, argv[3], atoll(argv[4]), num(argv[5]));
  } else if (!strcmp(m, "scalar") && argc == 5) {
    bad = write_all(f, argv[3], num(argv[4]));
  } else if (!strcmp(m, "set") && argc == 5) {
    long long v = atoll(argv[4]);
    hid_t d = H5Dopen2(f, argv[3], H5P_DEFAULT);
    bad = d < 0 || H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0;
    if (d >= 0) H5Dclose(d);
  } else if (!strcmp(m, "attr") && argc == 5) {
    long long v = atoll(argv[4]);
    H5Adelete(f, argv[3]);
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    hid_t a = H5Acreate2(f, argv[3], H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    bad = a < 0 || H5Awrite(a, H5T_NATIVE_LLONG, &v) < 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
  } else if (!strcmp(m, "kind-vlen") && argc == 3) {
    char kind[64] = "";
    hid_t a = H5Aopen(f, "kind", H5P_DEFAULT);
    if (a >= 0) {
      hid_t t = H5Aget_type(a), mt = H5Tcopy(H5T_C_S1);
      H5Tset_size(mt, sizeof kind);
      H5Aread(a, mt, kind);
      H5Tclose(mt);
      H5Tclose(t);
      H5Aclose(a);
      H5Adelete(f, "kind");
    } else {
      snprintf(kind, sizeof kind, "op2-mesh");
    }
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    hid_t sp = H5Screate(H5S_SCALAR);
    a = H5Acreate2(f, "kind", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    const char *p = kind;
    bad = a < 0 || H5Awrite(a, t, &p) < 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
  } else if (!strcmp(m, "hollow") && argc == 6) {
    hsize_t dims[2] = {(hsize_t)atoll(argv[4]), (hsize_t)atoll(argv[5])};
    H5Ldelete(f, argv[3], H5P_DEFAULT);
    hid_t sp = H5Screate_simple(dims[1] ? 2 : 1, dims, NULL);
    hid_t d = H5Dcreate2(f, argv[3], H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad = d < 0;
    if (d >= 0) H5Dclose(d);
    H5Sclose(sp);
  } else if (!strcmp(m, "strings") && argc == 4) {
    hid_t d = H5Dopen2(f, argv[3], H5P_DEFAULT);
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : 0;
    if (d >= 0) H5Dclose(d);
    H5Ldelete(f, argv[3], H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    const char **s = malloc((size_t)(n + 1) * sizeof *s);
    for (hssize_t i = 0; i < n; i++) s[i] = "0.5";
    d = sp >= 0 ? H5Dcreate2(f, argv[3], t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    bad = d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) < 0;
    free(s);
    if (d >= 0) H5Dclose(d);
    if (sp >= 0) H5Sclose(sp);
    H5Tclose(t);
  } else {
    fprintf(stderr, "mkhostile: unknown mutation or arguments: %s\n", m);
    bad = 2;
  }
  H5Fclose(f);
  return bad;
}
