/* io_xdmf.c: XDMF sidecars (PATH.xmf next to PATH.h5) so that ParaView and
 * VisIt open Tessera results: regular grids as 3DCoRectMesh, OP2 quad meshes
 * as Quadrilateral topology. Written by rank 0, temp-then-rename. */
#include "config.h"
#include "io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tsr_xdmf_path(const char *h5path, char *buf, size_t n) {
  size_t l = strlen(h5path);
  if (l > 3 && strcmp(h5path + l - 3, ".h5") == 0)
    snprintf(buf, n, "%.*s.xmf", (int)(l - 3), h5path);
  else
    snprintf(buf, n, "%s.xmf", h5path);
}

/* The file name part, as XDMF refers to the HDF5 file relative to itself. */
static const char *tsr__base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static const char *tsr__xdmf_num(tsr_dtype_t t) {
  return (t == TSR_INT32 || t == TSR_INT64) ? "Int" : "Float";
}

static FILE *tsr__xdmf_begin(const char *h5path, char *xmf, char *tmp, size_t n) {
  tsr_xdmf_path(h5path, xmf, n);
  int fd = tsr_tmp_create(xmf, tmp, n);
  if (fd < 0) return NULL;
  FILE *fp = fdopen(fd, "w");
  if (!fp) {
    int e = errno;
    close(fd);
    unlink(tmp);
    tsr_tmp_forget(tmp);
    errno = e;
    return NULL;
  }
  fprintf(fp, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
              "<Xdmf Version=\"3.0\">\n  <Domain>\n");
  return fp;
}

static int tsr__xdmf_end(FILE *fp, const char *xmf, const char *tmp) {
  fprintf(fp, "  </Domain>\n</Xdmf>\n");
  int bad = ferror(fp);
  if (fclose(fp) != 0) bad = 1;
  if (bad || rename(tmp, xmf) != 0) {
    int e = errno;
    unlink(tmp);
    tsr_tmp_forget(tmp);
    return TSR_RAISE(TSR_ERR_IO, "%s: cannot write the XDMF sidecar: %s", xmf, strerror(e));
  }
  tsr_tmp_forget(tmp);
  return TSR_SUCCESS;
}

static int tsr__xdmf_grid_local(const char *h5path, const tsr_grid_t *g,
                                const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                                int nfields, int cell_data) {
  char xmf[PATH_MAX], tmp[PATH_MAX];
  FILE *fp = tsr__xdmf_begin(h5path, xmf, tmp, sizeof xmf);
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot create the XDMF sidecar next to it: %s", h5path,
            strerror(errno));
  long long nx = g->nx, ny = g->ny, nz = g->nz, c = cell_data ? 1 : 0;
  fprintf(fp, "    <Grid Name=\"grid\" GridType=\"Uniform\">\n"
              "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%lld %lld %lld\"/>\n"
              "      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
              "        <DataItem Dimensions=\"3\" Format=\"XML\">0 0 0</DataItem>\n"
              "        <DataItem Dimensions=\"3\" Format=\"XML\">1 1 1</DataItem>\n"
              "      </Geometry>\n",
          nz + c, ny + c, nx + c);
  for (int i = 0; i < nfields; i++)
    fprintf(fp, "      <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"%s\">\n"
                "        <DataItem Dimensions=\"%lld %lld %lld\" NumberType=\"%s\" Precision=\"%d\" "
                "Format=\"HDF\">%s:/fields/%s</DataItem>\n      </Attribute>\n",
            fields[i], cell_data ? "Cell" : "Node", nz, ny, nx, tsr__xdmf_num(types[i]),
            (int)tsr_dtype_size(types[i]), tsr__base(h5path), fields[i]);
  fprintf(fp, "    </Grid>\n");
  TSR_CALL(tsr__xdmf_end(fp, xmf, tmp));
  return TSR_SUCCESS;
}

int tsr_xdmf_write_grid(MPI_Comm comm, const char *h5path, const tsr_grid_t *g,
                        const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                        int nfields, int cell_data) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = rank == 0 ? tsr__xdmf_grid_local(h5path, g, fields, types, nfields, cell_data) : 0;
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}

static int tsr__xdmf_quads_local(const char *h5path, const tsr_mesh_t *m, const char *cellmap,
                                 const char *coords) {
  int mi = tsr_mesh_find_map(m, cellmap), xi = tsr_mesh_find_dat(m, coords);
  TSR_CHECK(mi >= 0, TSR_ERR_ARG, "%s: XDMF: the mesh has no map '%s'", h5path, cellmap);
  TSR_CHECK(xi >= 0, TSR_ERR_ARG, "%s: XDMF: the mesh has no dat '%s'", h5path, coords);
  const tsr_map_t *mp = tsr_mesh_map(m, mi);
  const tsr_dat_t *x = tsr_mesh_dat(m, xi);
  TSR_CHECK(mp->dim == 4, TSR_ERR_ARG, "%s: XDMF: map '%s' has dim %d, expected 4 (quads)",
            h5path, cellmap, mp->dim);
  TSR_CHECK(x->set == mp->to && x->dim == 2 && x->type == TSR_DOUBLE, TSR_ERR_ARG,
            "%s: XDMF: dat '%s' must be 2 doubles per node of map '%s'", h5path, coords, cellmap);
  const tsr_set_t *cells = tsr_mesh_set(m, mp->from), *nodes = tsr_mesh_set(m, mp->to);
  char xmf[PATH_MAX], tmp[PATH_MAX];
  FILE *fp = tsr__xdmf_begin(h5path, xmf, tmp, sizeof xmf);
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot create the XDMF sidecar next to it: %s", h5path,
            strerror(errno));
  const char *b = tsr__base(h5path);
  fprintf(fp, "    <Grid Name=\"mesh\" GridType=\"Uniform\">\n"
              "      <Topology TopologyType=\"Quadrilateral\" NumberOfElements=\"%lld\">\n"
              "        <DataItem Dimensions=\"%lld 4\" NumberType=\"Int\" Precision=\"4\" "
              "Format=\"HDF\">%s:/%s</DataItem>\n      </Topology>\n"
              "      <Geometry GeometryType=\"XY\">\n"
              "        <DataItem Dimensions=\"%lld 2\" NumberType=\"Float\" Precision=\"8\" "
              "Format=\"HDF\">%s:/%s</DataItem>\n      </Geometry>\n",
          (long long)cells->global_size, (long long)cells->global_size, b, cellmap,
          (long long)nodes->global_size, b, coords);
  for (int i = 0; i < tsr_mesh_ndats(m); i++) {
    const tsr_dat_t *d = tsr_mesh_dat(m, i);
    if (d->set != mp->from) continue;
    const char *at = d->dim == 1 ? "Scalar" : d->dim == 3 ? "Vector" : "Matrix";
    fprintf(fp, "      <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Cell\">\n"
                "        <DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" "
                "Format=\"HDF\">%s:/%s</DataItem>\n      </Attribute>\n",
            d->name, at, (long long)cells->global_size, d->dim, tsr__xdmf_num(d->type),
            (int)tsr_dtype_size(d->type), b, d->name);
  }
  fprintf(fp, "    </Grid>\n");
  TSR_CALL(tsr__xdmf_end(fp, xmf, tmp));
  return TSR_SUCCESS;
}

int tsr_xdmf_write_quads(MPI_Comm comm, const char *h5path, const tsr_mesh_t *mesh,
                         const char *cellmap, const char *coords) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = rank == 0 ? tsr__xdmf_quads_local(h5path, mesh, cellmap, coords) : 0;
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}
