/* kernels/lulesh/lulesh_io.c: lulesh_mesh_t <-> the hex-mesh layout of
 * tessera/hex.h, and whole-mesh files for single-rank runs and generators. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "kernels/lulesh/lulesh_io.h"

/* Add a map or dat adopting a malloc'd array (freed here if the add fails). */
static int add_map(tsr_mesh_t *t, const char *name, int from, int to, int dim, int32_t *data) {
  if (!data) return TSR_RAISE(TSR_ERR_ALLOC, "lulesh: out of memory building map '%s'", name);
  int rc = tsr_mesh_add_map(t, name, from, to, dim, data, TSR_ADOPT, NULL);
  if (rc) free(data);
  return rc;
}

static int add_dat(tsr_mesh_t *t, const char *name, int set, int dim, tsr_dtype_t ty, void *data) {
  if (!data) return TSR_RAISE(TSR_ERR_ALLOC, "lulesh: out of memory building dat '%s'", name);
  int rc = tsr_mesh_add_dat(t, name, set, dim, ty, data, TSR_ADOPT, NULL);
  if (rc) free(data);
  return rc;
}

static void *dup(const void *p, size_t bytes) {
  void *q = malloc(bytes ? bytes : 1);
  if (q && bytes) memcpy(q, p, bytes);
  return q;
}

static int to_tsr(const lulesh_mesh_t *m, tsr_mesh_t *t) {
  int64_t ne = m->num_elem, nn = m->num_node;
  int nodes, elems, ss[3];
  TSR_CALL(tsr_mesh_add_set(t, TSR_HEX_NODES, nn, &nodes));
  TSR_CALL(tsr_mesh_add_set(t, TSR_HEX_ELEMS, ne, &elems));
  const int32_t ns[3] = {m->num_symm_x, m->num_symm_y, m->num_symm_z};
  const int32_t *sy[3] = {m->symm_x, m->symm_y, m->symm_z};
  for (int d = 0; d < 3; d++) TSR_CALL(tsr_mesh_add_set(t, tsr_hex_symm_sets[d], ns[d], &ss[d]));
  TSR_CALL(add_map(t, TSR_HEX_CONN, elems, nodes, 8,
                   dup(m->nodelist, (size_t)(8 * ne) * sizeof(int32_t))));
  int32_t *fc = malloc((size_t)(6 * ne + 1) * sizeof *fc);
  const int32_t *face[6] = {m->lxim, m->lxip, m->letam, m->letap, m->lzetam, m->lzetap};
  if (fc)
    for (int64_t e = 0; e < ne; e++)
      for (int f = 0; f < 6; f++) fc[6 * e + f] = face[f][e];
  TSR_CALL(add_map(t, TSR_HEX_FACES, elems, elems, 6, fc));
  for (int d = 0; d < 3; d++)
    TSR_CALL(add_map(t, tsr_hex_symm_maps[d], ss[d], nodes, 1,
                     dup(sy[d], (size_t)ns[d] * sizeof(int32_t))));
  double *x = malloc((size_t)(3 * nn + 1) * sizeof *x);
  if (x)
    for (int64_t n = 0; n < nn; n++) x[3 * n] = m->x[n], x[3 * n + 1] = m->y[n], x[3 * n + 2] = m->z[n];
  TSR_CALL(add_dat(t, TSR_HEX_COORDS, nodes, 3, TSR_DOUBLE, x));
  TSR_CALL(add_dat(t, TSR_HEX_BC, elems, 1, TSR_INT32,
                   dup(m->elem_bc, (size_t)ne * sizeof(int32_t))));
  TSR_CALL(add_dat(t, TSR_HEX_REGION, elems, 1, TSR_INT32,
                   dup(m->reg_num, (size_t)ne * sizeof(int32_t))));
  TSR_CALL(tsr_mesh_add_const(t, TSR_HEX_EINIT, 1, &m->einit, NULL));
  return TSR_SUCCESS;
}

int lulesh_mesh_to_tsr(const lulesh_mesh_t *m, tsr_mesh_t **out, tsr_hex_header_t *h) {
  tsr_mesh_t *t = NULL;
  TSR_CALL(tsr_mesh_create(&t));
  int rc = to_tsr(m, t);
  if (rc) {
    tsr_mesh_destroy(&t);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  *out = t;
  *h = (tsr_hex_header_t){m->origin, m->num_reg, m->einit, m->edge, -1};
  return TSR_SUCCESS;
}

/* The arrays of *id in t (set, map, dat ids found by name). */
static const void *need(const tsr_mesh_t *t, const char *name, int kind, const char *path) {
  int i = kind == 0 ? tsr_mesh_find_map(t, name) : tsr_mesh_find_dat(t, name);
  if (i < 0) {
    TSR_RAISE(TSR_ERR_FORMAT, "%s: the mesh has no %s '%s'", path, kind ? "dat" : "map", name);
    return NULL;
  }
  return kind == 0 ? (const void *)tsr_mesh_map(t, i)->data : tsr_mesh_dat(t, i)->data;
}

static int from_tsr(const tsr_mesh_t *t, const tsr_hex_header_t *h, const char *name,
                    lulesh_mesh_t *m) {
  int ie = tsr_mesh_find_set(t, TSR_HEX_ELEMS), in = tsr_mesh_find_set(t, TSR_HEX_NODES);
  TSR_CHECK(ie >= 0 && in >= 0, TSR_ERR_FORMAT, "%s: the mesh has no sets '%s' and '%s'", name,
            TSR_HEX_ELEMS, TSR_HEX_NODES);
  TSR_CHECK(tsr_mesh_dist(t) == TSR_MESH_SERIAL, TSR_ERR_ARG,
            "%s: a lulesh mesh is made from a whole (serial) hex mesh", name);
  int64_t ne = tsr_mesh_set(t, ie)->size, nn = tsr_mesh_set(t, in)->size;
  TSR_CHECK(ne <= INT32_MAX / 8 && nn <= INT32_MAX, TSR_ERR_UNSUPPORTED,
            "%s: %lld elements, %lld nodes exceed 32-bit indices", name, (long long)ne,
            (long long)nn);
  const int32_t *conn = need(t, TSR_HEX_CONN, 0, name), *fc = need(t, TSR_HEX_FACES, 0, name);
  const double *x = need(t, TSR_HEX_COORDS, 1, name);
  const int32_t *bc = need(t, TSR_HEX_BC, 1, name), *reg = need(t, TSR_HEX_REGION, 1, name);
  if (!conn || !fc || !x || !bc || !reg) return tsr_error_code();
  m->num_elem = (int32_t)ne;
  m->num_node = (int32_t)nn;
  size_t be = (size_t)ne * sizeof(int32_t), bn = (size_t)nn * sizeof(double);
  m->x = malloc(bn), m->y = malloc(bn), m->z = malloc(bn);
  m->nodelist = dup(conn, 8 * be);
  int32_t **face[6] = {&m->lxim, &m->lxip, &m->letam, &m->letap, &m->lzetam, &m->lzetap};
  for (int f = 0; f < 6; f++) *face[f] = malloc(be);
  m->elem_bc = dup(bc, be);
  m->reg_num = dup(reg, be);
  int ok = m->x && m->y && m->z && m->nodelist && m->elem_bc && m->reg_num;
  for (int f = 0; f < 6; f++) ok = ok && *face[f];
  int32_t *ns[3] = {&m->num_symm_x, &m->num_symm_y, &m->num_symm_z};
  int32_t **sy[3] = {&m->symm_x, &m->symm_y, &m->symm_z};
  for (int d = 0; ok && d < 3; d++) {
    int is = tsr_mesh_find_set(t, tsr_hex_symm_sets[d]);
    const int32_t *sm = need(t, tsr_hex_symm_maps[d], 0, name);
    TSR_CHECK(is >= 0 && sm, TSR_ERR_FORMAT, "%s: the mesh has no symmetry set '%s'", name,
              tsr_hex_symm_sets[d]);
    *ns[d] = (int32_t)tsr_mesh_set(t, is)->size;
    *sy[d] = dup(sm, (size_t)*ns[d] * sizeof(int32_t));
    ok = *sy[d] != NULL;
  }
  TSR_CHECK(ok, TSR_ERR_ALLOC, "%s: out of memory for a mesh of %lld elements", name,
            (long long)ne);
  for (int64_t n = 0; n < nn; n++) m->x[n] = x[3 * n], m->y[n] = x[3 * n + 1], m->z[n] = x[3 * n + 2];
  for (int64_t e = 0; e < ne; e++)
    for (int f = 0; f < 6; f++) (*face[f])[e] = fc[6 * e + f];
  m->num_reg = h->regions;
  m->origin = (int32_t)h->origin;
  m->einit = h->einit;
  m->edge = h->edge;
  TSR_CALL(lulesh_mesh_build_csr(m));
  TSR_CALL(lulesh_mesh_check(m, name));
  return TSR_SUCCESS;
}

int lulesh_mesh_from_tsr(const tsr_mesh_t *t, const tsr_hex_header_t *h, const char *name,
                         lulesh_mesh_t *m) {
  memset(m, 0, sizeof *m);
  int rc = from_tsr(t, h, name, m);
  if (rc) {
    lulesh_mesh_free(m);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return TSR_SUCCESS;
}

int lulesh_mesh_read(MPI_Comm comm, const char *path, lulesh_mesh_t *m, tsr_hex_header_t *h) {
  int size;
  MPI_Comm_size(comm, &size);
  TSR_CHECK(size == 1, TSR_ERR_ARG,
            "%s: lulesh_mesh_read reads a whole mesh on one rank (%d ranks: read blocks with "
            "tsr_hex_read)", path, size);
  tsr_mesh_t *t = NULL;
  tsr_hex_header_t hh;
  TSR_CALL(tsr_hex_read(comm, path, &t, &hh, NULL));
  int rc = lulesh_mesh_from_tsr(t, &hh, path, m);
  tsr_mesh_destroy(&t);
  TSR_CALL(rc);
  if (h) *h = hh;
  return TSR_SUCCESS;
}

int lulesh_mesh_write(MPI_Comm comm, const char *path, const lulesh_mesh_t *m, int balance,
                      const tsr_provenance_t *p) {
  tsr_mesh_t *t = NULL;
  tsr_hex_header_t h;
  TSR_CALL(lulesh_mesh_to_tsr(m, &t, &h));
  h.balance = balance;
  int rc = tsr_hex_write(comm, path, t, &h, p);
  if (!rc) rc = tsr_xdmf_write_hex(comm, path, t);
  tsr_mesh_destroy(&t);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int lulesh_mesh_cube_cells(const lulesh_mesh_t *m, int nx, int32_t *cell) {
  TSR_CHECK(nx >= 1 && (int64_t)nx * nx * nx == m->num_elem, TSR_ERR_FORMAT,
            "lulesh: %d elements are not a cube of edge %d", m->num_elem, nx);
  double lo[3] = {m->x[0], m->y[0], m->z[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  const double *c[3] = {m->x, m->y, m->z};
  for (int32_t n = 1; n < m->num_node; n++)
    for (int d = 0; d < 3; d++) {
      lo[d] = c[d][n] < lo[d] ? c[d][n] : lo[d];
      hi[d] = c[d][n] > hi[d] ? c[d][n] : hi[d];
    }
  for (int32_t i = 0; i < m->num_elem; i++) cell[i] = -1;
  for (int32_t e = 0; e < m->num_elem; e++) {
    int64_t at = 0;
    for (int d = 2; d >= 0; d--) {
      double s = 0.0;
      for (int k = 0; k < 8; k++) s += c[d][m->nodelist[8 * (int64_t)e + k]];
      int i = (int)((s / 8.0 - lo[d]) / (hi[d] - lo[d]) * nx);
      TSR_CHECK(i >= 0 && i < nx && hi[d] > lo[d], TSR_ERR_FORMAT,
                "lulesh: element %d is not a cell of a cube of edge %d", e, nx);
      at = at * nx + i;
    }
    TSR_CHECK(cell[at] < 0, TSR_ERR_FORMAT,
              "lulesh: elements %d and %d share a cell of a cube of edge %d", cell[at], e, nx);
    cell[at] = e;
  }
  return TSR_SUCCESS;
}
