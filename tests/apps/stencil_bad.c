/* stencil_bad IN.h5 OUT.h5 HOW: copy a tsr-mkinput file and break it for
 * tests/apps/stencil.sh (plain serial HDF5):
 *   nofield   delete /fields/coeff
 *   shape     replace /fields/in by a dataset one plane short
 *   outside   /neigh[0][5] = 1000000 (a neighbour far outside the plane)
 *   wrongnb   /neigh[1][7] += 1 (inside the plane, but not the +x neighbour) */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "wb");
  if (!fa || !fb) return 1;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, fa)) > 0) fwrite(buf, 1, n, fb);
  fclose(fa);
  return fclose(fb) != 0;
}

static int poke(hid_t f, int rel, int cell, int value, int add) {
  hid_t d = H5Dopen2(f, "/neigh", H5P_DEFAULT);
  if (d < 0) return 1;
  hid_t sp = H5Dget_space(d);
  hsize_t start[2] = {(hsize_t)rel, (hsize_t)cell}, one[2] = {1, 1};
  H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, one, NULL);
  hid_t ms = H5Screate_simple(2, one, NULL);
  int v = 0;
  H5Dread(d, H5T_NATIVE_INT, ms, sp, H5P_DEFAULT, &v);
  v = add ? v + value : value;
  herr_t e = H5Dwrite(d, H5T_NATIVE_INT, ms, sp, H5P_DEFAULT, &v);
  H5Sclose(ms), H5Sclose(sp), H5Dclose(d);
  return e < 0;
}

int main(int argc, char **argv) {
  if (argc != 4 || copy(argv[1], argv[2])) {
    fprintf(stderr, "usage: stencil_bad IN.h5 OUT.h5 nofield|shape|outside|wrongnb\n");
    return 2;
  }
  hid_t f = H5Fopen(argv[2], H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) return 1;
  int rc = 0;
  if (strcmp(argv[3], "nofield") == 0) {
    rc = H5Ldelete(f, "/fields/coeff", H5P_DEFAULT) < 0;
  } else if (strcmp(argv[3], "shape") == 0) {
    hid_t d = H5Dopen2(f, "/fields/in", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d);
    hsize_t dims[3];
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp), H5Dclose(d);
    H5Ldelete(f, "/fields/in", H5P_DEFAULT);
    dims[0] -= 1;
    sp = H5Screate_simple(3, dims, NULL);
    d = H5Dcreate2(f, "/fields/in", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    rc = d < 0;
    H5Dclose(d), H5Sclose(sp);
  } else if (strcmp(argv[3], "outside") == 0) {
    rc = poke(f, 0, 5, 1000000, 0);
  } else if (strcmp(argv[3], "wrongnb") == 0) {
    rc = poke(f, 1, 7, 1, 1);
  } else {
    rc = 2;
  }
  H5Fclose(f);
  return rc;
}
