/* stencil_h5cmp A.h5 B.h5 NAME...: whether the datasets /fields/NAME of two
 * tsr-stencil outputs are the same bit for bit (plain serial HDF5; for
 * tests/apps/stencil_cuda.sh). Exit 0: every one equal; 1: a dataset
 * differs (the first differing element and the largest difference are
 * printed); 2: a file or dataset cannot be read, or the shapes differ. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read /fields/name of f as doubles (float data converts exactly). */
static double *cmp_read(const char *path, hid_t f, const char *name, hsize_t *n) {
  char ds[256];
  snprintf(ds, sizeof ds, "/fields/%s", name);
  if (H5Lexists(f, "/fields", H5P_DEFAULT) <= 0 || H5Lexists(f, ds, H5P_DEFAULT) <= 0) {
    fprintf(stderr, "stencil_h5cmp: %s: no dataset %s\n", path, ds);
    return NULL;
  }
  hid_t d = H5Dopen2(f, ds, H5P_DEFAULT);
  hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
  hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
  double *v = np >= 0 ? malloc((size_t)np * sizeof *v + 1) : NULL;
  int ok = v && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
  if (sp >= 0) H5Sclose(sp);
  if (d >= 0) H5Dclose(d);
  if (!ok) {
    fprintf(stderr, "stencil_h5cmp: %s: cannot read %s\n", path, ds);
    free(v);
    return NULL;
  }
  *n = (hsize_t)np;
  return v;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: stencil_h5cmp A.h5 B.h5 NAME...\n");
    return 2;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t fa = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t fb = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (fa < 0 || fb < 0) {
    fprintf(stderr, "stencil_h5cmp: cannot open %s\n", fa < 0 ? argv[1] : argv[2]);
    return 2;
  }
  int rc = 0;
  for (int k = 3; k < argc && rc < 2; k++) {
    hsize_t na = 0, nb = 0;
    double *a = cmp_read(argv[1], fa, argv[k], &na), *b = a ? cmp_read(argv[2], fb, argv[k], &nb) : NULL;
    if (!a || !b || na != nb) {
      if (a && b) fprintf(stderr, "stencil_h5cmp: %s: %llu against %llu values\n", argv[k],
                          (unsigned long long)na, (unsigned long long)nb);
      rc = 2;
    } else if (memcmp(a, b, (size_t)na * sizeof *a) != 0) {
      hsize_t first = na;
      double mx = 0;
      for (hsize_t i = 0; i < na; i++)
        if (memcmp(&a[i], &b[i], sizeof *a) != 0) {
          if (first == na) first = i;
          const double e = fabs(a[i] - b[i]);
          if (!(e <= mx)) mx = e;
        }
      printf("%s: %s differs from %s: first at element %llu (%.17g against %.17g), largest |difference| "
             "%.3e\n", argv[k], argv[2], argv[1], (unsigned long long)first, a[first], b[first], mx);
      rc = 1;
    }
    free(a);
    free(b);
  }
  H5Fclose(fa);
  H5Fclose(fb);
  return rc;
}
