/* io_xdmf.c: XDMF sidecars (PATH.xmf next to PATH.h5) so that ParaView and
 * VisIt open Tessera results: regular grids as 3DCoRectMesh, OP2 quad meshes
 * as Quadrilateral topology, X-Y-unstructured grids level by level, point
 * clouds (sparse grids). Written by rank 0, temp-then-rename. */
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

const char *tsr__xdmf_base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

const char *tsr__xdmf_num(tsr_dtype_t t) {
  return (t == TSR_INT32 || t == TSR_INT64) ? "Int" : "Float";
}

FILE *tsr__xdmf_begin(const char *h5path, char *xmf, char *tmp, size_t n) {
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

int tsr__xdmf_end(FILE *fp, const char *xmf, const char *tmp) {
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
            (int)tsr_dtype_size(types[i]), tsr__xdmf_base(h5path), fields[i]);
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
  const char *b = tsr__xdmf_base(h5path);
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

/* ---- X-Y-unstructured grids --------------------------------------------- */

int tsr_xygrid_write_xdmf_tables(tsr_file_t *f, const tsr_xygrid_t *g, const int64_t *order) {
  MPI_Comm comm = tsr_file_comm(f);
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const tsr_idx_t nx = g->nx, ny = g->ny, plane = nx * ny, nn = (nx + 1) * (ny + 1);
  tsr_idx_t n0, nc, q0, qc;
  tsr_mesh_block_rows(nn, size, rank, &n0, &nc);
  tsr_mesh_block_rows(plane, size, rank, &q0, &qc);
  double *xy = malloc((size_t)(2 * nc + 1) * sizeof *xy);
  int32_t *quads = malloc((size_t)(4 * qc + 1) * sizeof *quads);
  int64_t *cell = malloc((size_t)(plane + 1) * sizeof *cell); /* storage index -> y*nx + x */
  int rc = xy && quads && cell ? TSR_SUCCESS
                               : TSR_RAISE(TSR_ERR_ALLOC, "%s: XDMF tables: out of memory",
                                           tsr_file_path(f));
  if (!rc) {
    for (tsr_idx_t c = 0; c < plane; c++) cell[c] = -1;
    for (tsr_idx_t c = 0; c < plane && !rc; c++) {
      if (order[c] < 0 || order[c] >= plane || cell[order[c]] >= 0)
        rc = TSR_RAISE(TSR_ERR_ARG, "%s: XDMF tables: the order is not a permutation",
                       tsr_file_path(f));
      else
        cell[order[c]] = c;
    }
  }
  if (!rc) {
    for (tsr_idx_t i = 0; i < nc; i++) {
      xy[2 * i] = (double)((n0 + i) % (nx + 1));
      xy[2 * i + 1] = (double)((n0 + i) / (nx + 1));
    }
    for (tsr_idx_t i = 0; i < qc; i++) {
      const tsr_idx_t c = cell[q0 + i], x = c % nx, y = c / nx, a = y * (nx + 1) + x;
      quads[4 * i] = (int32_t)a;
      quads[4 * i + 1] = (int32_t)(a + 1);
      quads[4 * i + 2] = (int32_t)(a + nx + 2);
      quads[4 * i + 3] = (int32_t)(a + nx + 1);
    }
  }
  rc = tsr_error_agree(comm, rc);
  const tsr_idx_t dn[3] = {nn, 2, 1}, dq[3] = {plane, 4, 1};
  if (!rc) rc = tsr_file_write_rows(f, "/xdmf/nodes", 2, dn, TSR_DOUBLE, n0, nc, xy);
  if (!rc) rc = tsr_file_write_rows(f, "/xdmf/quads", 2, dq, TSR_INT32, q0, qc, quads);
  free(xy);
  free(quads);
  free(cell);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

static int tsr__xdmf_xygrid_local(const char *h5path, const tsr_xygrid_t *g,
                                  const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                                  int nfields) {
  char xmf[PATH_MAX], tmp[PATH_MAX];
  FILE *fp = tsr__xdmf_begin(h5path, xmf, tmp, sizeof xmf);
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot create the XDMF sidecar next to it: %s", h5path,
            strerror(errno));
  const char *b = tsr__xdmf_base(h5path);
  const long long nx = g->nx, ny = g->ny, nz = g->nz, p = nx * ny, nn = (nx + 1) * (ny + 1);
  fprintf(fp, "    <Grid Name=\"xy-grid\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (long long z = 0; z < nz; z++) {
    fprintf(fp, "      <Grid Name=\"z=%lld\" GridType=\"Uniform\">\n"
                "        <Time Value=\"%lld\"/>\n"
                "        <Topology TopologyType=\"Quadrilateral\" NumberOfElements=\"%lld\">\n"
                "          <DataItem Dimensions=\"%lld 4\" NumberType=\"Int\" Precision=\"4\" "
                "Format=\"HDF\">%s:/xdmf/quads</DataItem>\n        </Topology>\n"
                "        <Geometry GeometryType=\"XY\">\n"
                "          <DataItem Dimensions=\"%lld 2\" NumberType=\"Float\" Precision=\"8\" "
                "Format=\"HDF\">%s:/xdmf/nodes</DataItem>\n        </Geometry>\n",
            z, z, p, p, b, nn, b);
    for (int i = 0; i < nfields; i++)
      fprintf(fp, "        <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
                  "          <DataItem ItemType=\"HyperSlab\" Dimensions=\"1 %lld\" "
                  "Type=\"HyperSlab\">\n"
                  "            <DataItem Dimensions=\"3 2\" Format=\"XML\">%lld 0 1 1 1 %lld"
                  "</DataItem>\n"
                  "            <DataItem Dimensions=\"%lld %lld\" NumberType=\"%s\" "
                  "Precision=\"%d\" Format=\"HDF\">%s:/fields/%s</DataItem>\n"
                  "          </DataItem>\n        </Attribute>\n",
              fields[i], p, z, p, nz, p, tsr__xdmf_num(types[i]), (int)tsr_dtype_size(types[i]),
              b, fields[i]);
    fprintf(fp, "      </Grid>\n");
  }
  fprintf(fp, "    </Grid>\n");
  TSR_CALL(tsr__xdmf_end(fp, xmf, tmp));
  return TSR_SUCCESS;
}

int tsr_xdmf_write_xygrid(MPI_Comm comm, const char *h5path, const tsr_xygrid_t *g,
                          const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                          int nfields) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = rank == 0 ? tsr__xdmf_xygrid_local(h5path, g, fields, types, nfields) : 0;
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}

/* ---- point clouds -------------------------------------------------------- */

static int tsr__xdmf_points_local(const char *h5path, const tsr_xdmf_points_t *c, int nc) {
  for (int k = 0; k < nc; k++)
    TSR_CHECK(c[k].dim >= 2, TSR_ERR_ARG, "%s: XDMF: points '%s' have %d coordinates (2 or "
              "more needed)", h5path, c[k].coords, c[k].dim);
  char xmf[PATH_MAX], tmp[PATH_MAX];
  FILE *fp = tsr__xdmf_begin(h5path, xmf, tmp, sizeof xmf);
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot create the XDMF sidecar next to it: %s", h5path,
            strerror(errno));
  const char *b = tsr__xdmf_base(h5path);
  for (int k = 0; k < nc; k++) {
    const long long n = c[k].n, d = c[k].dim;
    const int cp = (int)tsr_dtype_size(c[k].coords_type);
    fprintf(fp, "    <Grid Name=\"%s\" GridType=\"Uniform\">\n"
                "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" "
                "NodesPerElement=\"1\"/>\n"
                "      <Geometry GeometryType=\"%s\">\n",
            c[k].name, n, d == 2 ? "XY" : "XYZ");
    if (d <= 3)
      fprintf(fp, "        <DataItem Dimensions=\"%lld %lld\" NumberType=\"Float\" "
                  "Precision=\"%d\" Format=\"HDF\">%s:%s</DataItem>\n",
              n, d, cp, b, c[k].coords);
    else /* the first three coordinates */
      fprintf(fp, "        <DataItem ItemType=\"HyperSlab\" Dimensions=\"%lld 3\" "
                  "Type=\"HyperSlab\">\n"
                  "          <DataItem Dimensions=\"3 2\" Format=\"XML\">0 0 1 1 %lld 3"
                  "</DataItem>\n"
                  "          <DataItem Dimensions=\"%lld %lld\" NumberType=\"Float\" "
                  "Precision=\"%d\" Format=\"HDF\">%s:%s</DataItem>\n"
                  "        </DataItem>\n",
              n, n, n, d, cp, b, c[k].coords);
    fprintf(fp, "      </Geometry>\n");
    for (int i = 0; i < c[k].nattrs; i++) {
      const char *a = c[k].attrs[i], *nm = a[0] == '/' ? a + 1 : a;
      fprintf(fp, "      <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                  "        <DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" "
                  "Format=\"HDF\">%s:%s</DataItem>\n      </Attribute>\n",
              nm, n, tsr__xdmf_num(c[k].types[i]), (int)tsr_dtype_size(c[k].types[i]), b, a);
    }
    fprintf(fp, "    </Grid>\n");
  }
  TSR_CALL(tsr__xdmf_end(fp, xmf, tmp));
  return TSR_SUCCESS;
}

int tsr_xdmf_write_points(MPI_Comm comm, const char *h5path, const tsr_xdmf_points_t *clouds,
                          int nclouds) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = rank == 0 ? tsr__xdmf_points_local(h5path, clouds, nclouds) : 0;
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}
