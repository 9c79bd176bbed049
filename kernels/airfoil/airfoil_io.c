/* kernels/airfoil/airfoil_io.c: Airfoil meshes in OP2's HDF5 layout through
 * libtessera's io (tsr_mesh_read / tsr_mesh_write: parallel HDF5, each rank
 * its block of rows, shapes, types and map ranges checked, errors naming the
 * file and the dataset and agreed by every rank). */
#include "config.h"
#include <math.h>

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

/* The flow constants must describe a physical flow: gam > 1 and gm1 = gam - 1,
 * cfl, eps and mach > 0, a positive free-stream density qinf[0] (the reader
 * has already refused NaN and Inf). */
static int af_consts_check(const char *path, const tsr_mesh_t *m) {
  double v[7][4];
  for (int i = 0; i < 7; i++) {
    const tsr_const_t *c = tsr_mesh_const(m, tsr_mesh_find_const(m, af_consts[i]));
    TSR_CHECK(c->dim == (i == 6 ? 4 : 1), TSR_ERR_FORMAT, "%s: dataset '%s': expected %d value%s, "
              "found %d", path, af_consts[i], i == 6 ? 4 : 1, i == 6 ? "s" : "", c->dim);
    for (int k = 0; k < c->dim; k++) v[i][k] = c->data[k];
  }
  const double gam = v[0][0], gm1 = v[1][0];
  TSR_CHECK(gam > 1, TSR_ERR_FORMAT, "%s: dataset 'gam': %g, expected a ratio of specific heats > 1",
            path, gam);
  TSR_CHECK(fabs(gm1 - (gam - 1)) <= 1e-6 * gam, TSR_ERR_FORMAT,
            "%s: dataset 'gm1': %g, expected gam - 1 = %g", path, gm1, gam - 1);
  for (int i = 2; i <= 4; i++)
    TSR_CHECK(v[i][0] > 0, TSR_ERR_FORMAT, "%s: dataset '%s': %g, expected > 0", path, af_consts[i],
              v[i][0]);
  TSR_CHECK(v[6][0] > 0, TSR_ERR_FORMAT, "%s: dataset 'qinf': density qinf[0] = %g, expected > 0",
            path, v[6][0]);
  return TSR_SUCCESS;
}

int airfoil_mesh_read(MPI_Comm comm, const char *path, tsr_mesh_t **out) {
  tsr_mesh_spec_t spec = {4, af_sets, 5, af_maps, 3, af_dats, 7, af_consts};
  TSR_CALL(tsr_mesh_read(comm, path, &spec, out));
  /* the same constants on every rank: agreed so the error is said once */
  const int rc = tsr_error_agree(comm, af_consts_check(path, *out));
  if (rc) tsr_mesh_destroy(out);
  TSR_CALL(rc);
  return 0;
}

int airfoil_mesh_write(MPI_Comm comm, const char *path, const tsr_mesh_t *mesh,
                       const tsr_provenance_t *prov) {
  TSR_CALL(tsr_mesh_write(comm, path, mesh, prov));
  return 0;
}
