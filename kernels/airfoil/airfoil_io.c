/* kernels/airfoil/airfoil_io.c: Airfoil meshes in OP2's HDF5 layout through
 * libtessera's io (tsr_mesh_read / tsr_mesh_write: parallel HDF5, each rank
 * its block of rows, shapes, types and map ranges checked, errors naming the
 * file and the dataset and agreed by every rank). */
#include "config.h"

#include "tessera/error.h"
#include "tessera/io.h"
#include "kernels/airfoil/airfoil_mesh.h"

static const char *const af_sets[] = {"nodes", "edges", "bedges", "cells"};
static const tsr_io_map_t af_maps[] = {{"pedge", "edges", "nodes"},
                                       {"pecell", "edges", "cells"},
                                       {"pbedge", "bedges", "nodes"},
                                       {"pbecell", "bedges", "cells"},
                                       {"pcell", "cells", "nodes"}};
static const tsr_io_dat_t af_dats[] = {
    {"p_x", "nodes", TSR_DOUBLE}, {"p_q", "cells", TSR_DOUBLE}, {"p_bound", "bedges", TSR_INT32}};
static const char *const af_consts[] = {"gam", "gm1", "cfl", "eps", "mach", "alpha", "qinf"};

int airfoil_mesh_read(MPI_Comm comm, const char *path, tsr_mesh_t **out) {
  tsr_mesh_spec_t spec = {4, af_sets, 5, af_maps, 3, af_dats, 7, af_consts};
  TSR_CALL(tsr_mesh_read(comm, path, &spec, out));
  return 0;
}

int airfoil_mesh_write(MPI_Comm comm, const char *path, const tsr_mesh_t *mesh,
                       const tsr_provenance_t *prov) {
  TSR_CALL(tsr_mesh_write(comm, path, mesh, prov));
  return 0;
}
