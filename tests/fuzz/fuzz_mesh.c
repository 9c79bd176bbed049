/* fuzz_mesh: the unstructured-mesh reader (OP2 layout, lib/src/io_mesh.c):
 * the table of contents of any file, then the Airfoil mesh with its checks
 * (sets, maps and their ranges, dats, constants). */
#include "config.h"
#include "tests/fuzz/fuzz_common.h"
#include "kernels/airfoil/airfoil_mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_file(data, size)) return 0;
  fuzz_mesh_toc();
  tsr_mesh_t *m = NULL;
  if (airfoil_mesh_read(MPI_COMM_SELF, fuzz_path, &m) == 0) tsr_mesh_destroy(&m);
  fuzz_done();
  return 0;
}
