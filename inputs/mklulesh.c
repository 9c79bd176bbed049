/* inputs/mklulesh.c: tsr-mklulesh, LULESH's Sedov cube as a hex-mesh HDF5
 * file (docs/FORMAT.md) with its XDMF sidecar, optionally renumbered.
 *
 *   tsr-mklulesh -s 10 -o cube10.h5                 the mesh of tsr-lulesh -s 10
 *   tsr-mklulesh -s 10 -r 4 -b 2 -o cube.h5          LULESH's -r/-b regions
 *   tsr-mklulesh -s 10 --renumber random --seed 3 -o shuffled.h5
 *
 * -s, -r and -b have LULESH's meanings. Every rank builds the mesh and
 * writes its block of rows; the file does not depend on the rank count. */
#include "config.h"

#include <stdio.h>

#include "tessera.h"
#include "kernels/lulesh/lulesh_io.h"

static int mk_main(int argc, char **argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  tsr_cli_t cli;
  tsr_cli_init(&cli, "tsr-mklulesh",
               "write LULESH's Sedov cube (-s N elements per edge, -r regions of balance -b) "
               "as a hex-mesh HDF5 file with an XDMF sidecar");
  cli.options = TSR_CLI_OUTPUT | TSR_CLI_QUIET;
  int edge = 30, regions = 11, balance = 1;
  int64_t seed = 1;
  const char *order = "none";
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_INT, &edge, "N", "LULESH: elements per cube edge (default 30)"},
      {"regions", 'r', TSR_OPT_INT, &regions, "N", "LULESH: number of regions (default 11)"},
      {"balance", 'b', TSR_OPT_INT, &balance, "N", "LULESH: region balance (default 1)"},
      {"renumber", 0, TSR_OPT_STRING, &order, "KIND",
       "renumber elements and nodes: none (default), random, gps or metis"},
      {"seed", 0, TSR_OPT_LONG, &seed, "S", "seed of --renumber random (default 1)"},
  };
  TSR_CALL(tsr_cli_parse(&cli, argc, argv, opts, (int)(sizeof opts / sizeof *opts), comm, NULL, 0,
                         NULL));
  if (cli.exit_now) return TSR_SUCCESS;
  TSR_CHECK(cli.output, TSR_ERR_ARG, "no output file: give -o FILE.h5");
  lulesh_order_t o;
  TSR_CALL(lulesh_order_parse(order, "--renumber", &o));
  TSR_CALL(tsr_output_check(comm, "-o", cli.output));
  lulesh_mesh_t m, r;
  TSR_CALL(lulesh_mesh_sedov(&m, edge, regions, balance));
  int rc = 0;
  if (o != LULESH_ORDER_NONE) {
    rc = lulesh_mesh_renumber(&m, o, (uint64_t)seed, &r);
    lulesh_mesh_free(&m);
    if (rc) return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
    m = r;
  }
  tsr_provenance_t prov = {"tsr-mklulesh", order, "cpu", cli.command_line, 0};
  rc = lulesh_mesh_write(comm, cli.output, &m, balance, &prov);
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (!rc && !cli.quiet && rank == 0)
    printf("tsr-mklulesh: wrote %s: Sedov cube %d^3, %d elements, %d nodes, %d regions "
           "(balance %d), numbering %s, origin element %d\n",
           cli.output, edge, m.num_elem, m.num_node, regions, balance, order, m.origin);
  lulesh_mesh_free(&m);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-mklulesh");
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, mk_main(argc, argv)));
  MPI_Finalize();
  return 0;
}
