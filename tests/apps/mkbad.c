/* mkbad DIR: writes small malformed mesh files into DIR for bad_input.sh
 * (plain serial HDF5, so that the files are exactly as broken as intended):
 *   good.h5         a valid quad mesh (the base of the others; also truncated by the script)
 *   noset.h5        map 'pcell' names from_set 'cells', whose dataset is missing
 *   rank.h5         map 'pcell' of rank 1 [4] instead of [4, 4]
 *   shape.h5        dat 'p_x' of shape [10, 2] on the set of 9 nodes ([9, 2] expected)
 *   type.h5         map 'pcell' stored as doubles with non-integral values
 *   range.h5        map 'pcell' with the index 9 into a set of 9 nodes
 *   zero.h5         set 'nodes' of size 0
 *   negative.h5     set 'cells' of size -4
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void attr_int(hid_t d, const char *name, int v) {
  hsize_t one = 1;
  hid_t sp = H5Screate_simple(1, &one, NULL);
  hid_t a = H5Acreate2(d, name, H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT, &v);
  H5Aclose(a);
  H5Sclose(sp);
}

static void attr_str(hid_t d, const char *name, const char *v) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) + 1);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(d, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, t, v);
  H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
}

/* dataset NAME of rank r with dims, file type ft, memory type mt */
static hid_t dset(hid_t f, const char *name, int r, hsize_t d0, hsize_t d1, hid_t ft, hid_t mt,
                  const void *buf) {
  hsize_t dims[2] = {d0, d1};
  hid_t sp = H5Screate_simple(r, dims, NULL);
  hid_t d = H5Dcreate2(f, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  H5Sclose(sp);
  return d;
}

static void set(hid_t f, const char *name, int n) {
  H5Dclose(dset(f, name, 1, 1, 0, H5T_STD_I32LE, H5T_NATIVE_INT, &n));
}

enum { GOOD, NOSET, RANK, SHAPE, TYPE, RANGE, ZERO, NEGATIVE };

static int write_mesh(const char *dir, const char *file, int how) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return 1;
  /* 2x2 quads on 3x3 nodes, as in check_mesh */
  int pcell[16] = {0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7};
  double x[18];
  for (int i = 0; i < 9; i++) x[2 * i] = i % 3, x[2 * i + 1] = i / 3;
  set(f, "nodes", how == ZERO ? 0 : 9);
  if (how != NOSET) set(f, "cells", how == NEGATIVE ? -4 : 4);
  if (how == RANGE) pcell[13] = 9;
  hid_t d;
  if (how == TYPE) {
    double pd[16];
    for (int i = 0; i < 16; i++) pd[i] = pcell[i] + 0.5;
    d = dset(f, "pcell", 2, 4, 4, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, pd);
  } else if (how == RANK) {
    d = dset(f, "pcell", 1, 4, 0, H5T_STD_I32LE, H5T_NATIVE_INT, pcell);
  } else {
    d = dset(f, "pcell", 2, 4, 4, H5T_STD_I32LE, H5T_NATIVE_INT, pcell);
  }
  attr_int(d, "dim", 4);
  attr_int(d, "size", 4);
  attr_str(d, "type", "int");
  attr_str(d, "from_set", "cells");
  attr_str(d, "to_set", "nodes");
  H5Dclose(d);
  double xs[20];
  memcpy(xs, x, sizeof x);
  xs[18] = xs[19] = 7;
  d = dset(f, "p_x", 2, how == SHAPE ? 10 : 9, 2, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, xs);
  attr_int(d, "dim", 2);
  attr_int(d, "size", 16);
  attr_str(d, "type", "double");
  attr_str(d, "set", "nodes");
  H5Dclose(d);
  double gam = 1.4;
  d = dset(f, "gam", 1, 1, 0, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &gam);
  attr_int(d, "dim", 1);
  attr_str(d, "type", "double");
  H5Dclose(d);
  return H5Fclose(f) < 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkbad DIR\n");
    return 2;
  }
  static const struct { const char *file; int how; } cases[] = {
      {"good.h5", GOOD},   {"noset.h5", NOSET}, {"rank.h5", RANK},
      {"shape.h5", SHAPE}, {"type.h5", TYPE},   {"range.h5", RANGE},
      {"zero.h5", ZERO},   {"negative.h5", NEGATIVE}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (write_mesh(argv[1], cases[i].file, cases[i].how)) {
      fprintf(stderr, "mkbad: cannot write %s/%s\n", argv[1], cases[i].file);
      return 1;
    }
  return 0;
}
