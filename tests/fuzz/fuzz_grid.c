/* fuzz_grid: the regular-grid reader (lib/src/io_grid.c, io_box.c): the
 * header, the field list, every field whole and as a box. */
#include "config.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_file(data, size)) return 0;
  tsr_file_t *f = NULL;
  if (tsr_file_open(MPI_COMM_SELF, fuzz_path, &f) != 0) return fuzz_done(), 0;
  tsr_grid_t g;
  char names[8][TSR_NAME_MAX];
  int nf = 0;
  if (tsr_grid_read_header(f, &g) == 0 && tsr_grid_fields(f, names, 8, &nf) == 0) {
    const tsr_idx_t n = g.nx * g.ny * g.nz; /* bounded by the header checks */
    double *buf = n <= (1 << 22) ? malloc((size_t)n * sizeof *buf) : NULL;
    for (int i = 0; buf && i < nf; i++) {
      tsr_error_clear();
      tsr_grid_read_field(f, &g, names[i], TSR_DOUBLE, 0, g.nz, buf);
      const tsr_idx_t lo[3] = {0, 0, 0}, cnt[3] = {g.nx, g.ny, g.nz};
      tsr_error_clear();
      tsr_grid_read_box(f, &g, names[i], TSR_DOUBLE, lo, cnt, buf);
    }
    free(buf);
  }
  tsr_file_close(&f);
  fuzz_done();
  return 0;
}
