/* fuzz_xygrid: the X-Y-unstructured grid reader (lib/src/io_grid.c): the
 * header, the order and neighbour tables with their checks, the fields. */
#include "config.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_file(data, size)) return 0;
  tsr_file_t *f = NULL;
  if (tsr_file_open(MPI_COMM_SELF, fuzz_path, &f) != 0) return fuzz_done(), 0;
  tsr_xygrid_t g;
  if (tsr_xygrid_read_header(f, &g) == 0 && g.nx * g.ny * g.nz <= (1 << 22)) {
    const tsr_idx_t nc = g.nx * g.ny;
    int64_t *order = malloc((size_t)nc * sizeof *order);
    int32_t *neigh = malloc((size_t)nc * (size_t)g.m * sizeof *neigh);
    double *buf = malloc((size_t)(nc * g.nz) * sizeof *buf);
    if (order && neigh && buf && tsr_xygrid_read_tables(f, &g, order, neigh) == 0) {
      char names[8][TSR_NAME_MAX];
      int nf = 0;
      tsr_grid_fields(f, names, 8, &nf);
      for (int i = 0; i < nf; i++) {
        tsr_error_clear();
        tsr_xygrid_read_field(f, &g, names[i], TSR_DOUBLE, 0, g.nz, buf);
      }
    }
    free(order);
    free(neigh);
    free(buf);
  }
  tsr_file_close(&f);
  fuzz_done();
  return 0;
}
