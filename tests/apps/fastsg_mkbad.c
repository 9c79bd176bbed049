/* fastsg_mkbad DIR: small sparse-grid input files (D = 2, n = 3: 17 grid
 * points) for tests/apps/fastsg.sh, written with libtessera's io module:
 *   good.h5       /values = bump at the grid points (from their coordinates,
 *                 computed here from the documented order), /points [5][2]
 *                 with (0.52, 0.73) first, /point_values [5]
 *   noattr.h5     /values only, no attributes (D and n from the command line)
 *   short.h5      /values of 16 values
 *   pointsdim.h5  /points [5][3]
 *   outside.h5    /points with the coordinate 1.5
 *   pvlen.h5      /point_values of 4 values for 5 points
 *   nan.h5        /values with a NaN
 *   empty.h5      attributes only
 *   kind.h5       kind = "regular-grid"
 */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tessera.h"

/* The 17 points of D = 2, n = 3 in fastsg order (docs/FORMAT.md): groups
 * g = 0, 1, 2; blocks in colex order of (l0, l1): (0,g), (1,g-1), ...,
 * (g,0); inside a block i1 fastest. */
static int coords(double *x) {
  int k = 0;
  for (int g = 0; g < 3; g++)
    for (int l0 = 0; l0 <= g; l0++) {
      int l1 = g - l0;
      for (int i0 = 0; i0 < (1 << l0); i0++)
        for (int i1 = 0; i1 < (1 << l1); i1++) {
          x[2 * k] = (2.0 * i0 + 1) / (2 << l0);
          x[2 * k + 1] = (2.0 * i1 + 1) / (2 << l1);
          k++;
        }
    }
  return k;
}

static double bump(const double *x) { return 16 * x[0] * (1 - x[0]) * x[1] * (1 - x[1]); }

typedef struct {
  const char *name;
  int attrs, nvalues, npoints, pdim, npv, nan, outside;
  const char *kind;
} bad_t;

static int write_file(const char *dir, const bad_t *b) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, b->name);
  double x[17 * 2], v[17], pts[5 * 3], pv[5];
  if (coords(x) != 17) return TSR_RAISE(TSR_ERR_ARG, "17 points expected");
  for (int k = 0; k < 17; k++) v[k] = bump(x + 2 * k);
  if (b->nan) v[3] = NAN;
  for (int k = 0; k < 5; k++) {
    for (int t = 0; t < 3; t++) pts[k * b->pdim + t % b->pdim] = 0.1 + 0.17 * k + 0.05 * t;
    if (k == 0) pts[0] = 0.52, pts[1] = 0.73;
    pv[k] = bump(pts + k * b->pdim);
  }
  if (b->outside) pts[2 * b->pdim + 1] = 1.5;
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_create(MPI_COMM_WORLD, path, &f));
  int64_t a;
  int rc = 0;
  if (b->kind) rc = tsr_file_write_attr_string(f, "/", "kind", b->kind);
  if (!rc && b->attrs) {
    a = 2;
    rc = tsr_file_write_attr_int(f, "/", "dim", &a, 1);
    a = 3;
    if (!rc) rc = tsr_file_write_attr_int(f, "/", "level", &a, 1);
  }
  tsr_idx_t d[3] = {b->nvalues, 1, 1};
  if (!rc && b->nvalues) rc = tsr_file_write_rows(f, "/values", 1, d, TSR_DOUBLE, 0, d[0], v);
  tsr_idx_t dp[3] = {b->npoints, b->pdim, 1};
  if (!rc && b->npoints) rc = tsr_file_write_rows(f, "/points", 2, dp, TSR_DOUBLE, 0, dp[0], pts);
  tsr_idx_t dv[3] = {b->npv, 1, 1};
  if (!rc && b->npv) rc = tsr_file_write_rows(f, "/point_values", 1, dv, TSR_DOUBLE, 0, dv[0], pv);
  if (rc) {
    tsr_file_discard(&f);
    return rc;
  }
  TSR_CALL(tsr_file_close(&f));
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    fprintf(stderr, "usage: fastsg_mkbad DIR\n");
    MPI_Finalize();
    return 2;
  }
  static const bad_t files[] = {
      /* name          attrs nval npts pdim npv nan out kind */
      {"good.h5", 1, 17, 5, 2, 5, 0, 0, "sparse-grid"},
      {"noattr.h5", 0, 17, 0, 2, 0, 0, 0, NULL},
      {"short.h5", 1, 16, 0, 2, 0, 0, 0, "sparse-grid"},
      {"pointsdim.h5", 1, 17, 5, 3, 0, 0, 0, "sparse-grid"},
      {"outside.h5", 1, 17, 5, 2, 0, 0, 1, "sparse-grid"},
      {"pvlen.h5", 1, 17, 5, 2, 4, 0, 0, "sparse-grid"},
      {"nan.h5", 1, 17, 0, 2, 0, 1, 0, "sparse-grid"},
      {"empty.h5", 1, 0, 0, 2, 0, 0, 0, "sparse-grid"},
      {"kind.h5", 1, 17, 0, 2, 0, 0, 0, "regular-grid"},
  };
  int rc = 0;
  for (size_t k = 0; k < sizeof files / sizeof files[0] && !rc; k++) rc = write_file(argv[1], &files[k]);
  if (rc) fprintf(stderr, "fastsg_mkbad: %s\n", tsr_error_message());
  MPI_Finalize();
  return rc ? 1 : 0;
}
