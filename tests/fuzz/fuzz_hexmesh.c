/* fuzz_hexmesh: the hex-mesh reader (lib/src/io_hex.c): the table of
 * contents of any file, then tsr_hex_read with every semantic check of
 * tsr_hex_check (sets, maps and their ranges, corners, volumes, face flags
 * and neighbours, symmetry planes, header attributes). */
#include "config.h"
#include "tests/fuzz/fuzz_common.h"
#include "tessera/hex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_file(data, size)) return 0;
  fuzz_mesh_toc();
  tsr_mesh_t *m = NULL;
  tsr_hex_header_t h;
  tsr_hex_stats_t st;
  if (tsr_hex_read(MPI_COMM_SELF, fuzz_path, &m, &h, &st) == 0) tsr_mesh_destroy(&m);
  fuzz_done();
  return 0;
}
