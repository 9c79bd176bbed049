/* inputs/mkairfoil.c: tsr-mkairfoil, OP2's NACA0012 C-mesh as an OP2 HDF5
 * file (and optionally OP2's text new_grid.dat), or a new_grid.dat converted
 * to HDF5.
 *
 *   tsr-mkairfoil -o new_grid.h5                  the standard mesh (400x600)
 *   tsr-mkairfoil --size 40x60 -o small.h5 --dat small.dat
 *   tsr-mkairfoil --from-dat new_grid.dat -o new_grid.h5
 */
#include "config.h"

#include <stdio.h>

#include "tessera.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

static int mk_main(int argc, char **argv) {
  tsr_cli_t cli;
  tsr_cli_init(&cli, "tsr-mkairfoil",
               "write OP2's NACA0012 C-mesh (or convert OP2's new_grid.dat) to OP2's HDF5 layout");
  cli.options = TSR_CLI_OUTPUT | TSR_CLI_QUIET;
  cli.single_rank = 1;
  int64_t size[3] = {400, 600, 1};
  const char *dat = NULL, *from_dat = NULL;
  int exact = 0;
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, size, "IxJ", "cells: 3I around the C, J outwards (400x600)"},
      {"exact", 0, TSR_OPT_FLAG, &exact, NULL,
       "keep full-precision coordinates (default: rounded to 6 decimals as in OP2's files)"},
      {"dat", 0, TSR_OPT_STRING, &dat, "FILE", "also write OP2's text format new_grid.dat"},
      {"from-dat", 0, TSR_OPT_STRING, &from_dat, "FILE", "read OP2's new_grid.dat instead"},
  };
  TSR_CALL(tsr_cli_parse(&cli, argc, argv, opts, 4, MPI_COMM_WORLD, NULL, 0, NULL));
  if (cli.exit_now) return 0;
  TSR_CHECK(cli.output || dat, TSR_ERR_ARG, "nothing to write: give -o FILE.h5 and/or --dat FILE");
  TSR_CHECK(size[2] == 1 && size[0] <= 100000 && size[1] <= 100000, TSR_ERR_ARG,
            "--size: expected IxJ (two extents), got %lldx%lldx%lld", (long long)size[0],
            (long long)size[1], (long long)size[2]);
  tsr_mesh_t *m = NULL;
  if (from_dat) TSR_CALL(airfoil_dat_read(from_dat, &m));
  else TSR_CALL(airfoil_naca0012((int)size[0], (int)size[1], !exact, &m));
  airfoil_problem_t p;
  int rc = airfoil_problem_from_mesh(m, from_dat ? from_dat : "generated mesh", &p);
  char cmd[1024];
  tsr_provenance_command_line(argc, argv, cmd, sizeof cmd);
  tsr_provenance_t prov = {"tsr-mkairfoil", from_dat ? "from-dat" : "naca0012", NULL, cmd, 1};
  if (!rc && cli.output) rc = airfoil_mesh_write(MPI_COMM_WORLD, cli.output, m, &prov);
  if (!rc && dat) rc = airfoil_dat_write(dat, m);
  if (!rc && !cli.quiet)
    printf("tsr-mkairfoil: %lld nodes, %lld cells, %lld edges, %lld bedges%s%s%s%s\n",
           (long long)p.nnode, (long long)p.ncell, (long long)p.nedge, (long long)p.nbedge,
           cli.output ? " -> " : "", cli.output ? cli.output : "", dat ? " -> " : "",
           dat ? dat : "");
  tsr_mesh_destroy(&m);
  TSR_CALL(rc);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-mkairfoil");
  TSR_CALL_ABORT(MPI_COMM_WORLD, mk_main(argc, argv)); /* refuses more than one rank */
  MPI_Finalize();
  return 0;
}
