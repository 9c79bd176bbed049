/* fuzz_sparse: tsr-fastsg's sparse-grid input reader (apps/fastsg/fastsg_io.c)
 * as the program drives it: the header and which datasets are there, the
 * grid it implies, /values, /points and /point_values with their checks. */
#include "config.h"
#include "tests/fuzz/fuzz_common.h"
#include "apps/fastsg/fastsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_file(data, size)) return 0;
  fastsg_app_t app;
  memset(&app, 0, sizeof app);
  app.dim = 2, app.level = 3, app.comm = MPI_COMM_SELF, app.size = 1;
  app.prec = TSR_DOUBLE, app.es = 8, app.input = fuzz_path;
  if (fastsg_io_open(&app) == 0 && fastsg_grid_init(app.dim, app.level, &app.grid) == 0 &&
      app.grid.npoints <= (1 << 20)) {
    app.nrows = app.grid.npoints;
    app.samples = malloc((size_t)app.nrows * app.es);
    if (app.samples && app.in_values) fastsg_io_read_values(&app);
    tsr_error_clear();
    if (app.in_points) fastsg_io_read_points(&app);
    free(app.samples);
    free(app.x);
    free(app.fx);
  }
  fuzz_done();
  return 0;
}
