/* io_hex.c: hexahedral meshes in HDF5 (kind "hex-mesh", tessera/hex.h):
 * checked block-wise reading through the OP2-layout reader, the semantic
 * checks (distinct corners, positive volumes, face flags, regions, symmetry
 * planes), writing, and the XDMF Hexahedron sidecar. */
#include "config.h"
#include "io_internal.h"
#include "tessera/hex.h"
#include "tessera/part.h"
#include "tessera/xfer.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const tsr_hex_symm_sets[3] = {"symm_x", "symm_y", "symm_z"};
const char *const tsr_hex_symm_maps[3] = {"symm_x_nodes", "symm_y_nodes", "symm_z_nodes"};
static const char *const face_name[6] = {"xi-", "xi+", "eta-", "eta+", "zeta-", "zeta+"};

/* ---- geometry ------------------------------------------------------------ */

static double triple(const double a[3], const double b[3], const double c[3]) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* The exact volume of the trilinear map: three triple products of corner
 * differences (diagonal sums), over 12. */
double tsr_hex_volume(const double c[8][3]) {
  double d[12][3];
  static const int pr[12][2] = {{6, 1}, {7, 0}, {6, 3}, {2, 0}, {5, 0}, {6, 4},
                                {3, 1}, {7, 2}, {4, 3}, {5, 7}, {1, 4}, {2, 5}};
  for (int k = 0; k < 12; k++)
    for (int j = 0; j < 3; j++) d[k][j] = c[pr[k][0]][j] - c[pr[k][1]][j];
  double s0[3], s1[3], s2[3];
  for (int j = 0; j < 3; j++) {
    s0[j] = d[6][j] + d[7][j];  /* d31 + d72 */
    s1[j] = d[8][j] + d[9][j];  /* d43 + d57 */
    s2[j] = d[10][j] + d[11][j]; /* d14 + d25 */
  }
  return (triple(s0, d[2], d[3]) + triple(s1, d[5], d[1]) + triple(s2, d[0], d[4])) / 12.0;
}

/* ---- the objects of the kind ---------------------------------------------- */

typedef struct {
  int nodes, elems, symm[3];         /* set ids */
  int conn, faces, symm_map[3];      /* map ids */
  int coords, bc, region;            /* dat ids */
} hex_ids_t;

static int hex_ids(const char *name, const tsr_mesh_t *m, hex_ids_t *id) {
  id->nodes = tsr_mesh_find_set(m, TSR_HEX_NODES);
  id->elems = tsr_mesh_find_set(m, TSR_HEX_ELEMS);
  id->conn = tsr_mesh_find_map(m, TSR_HEX_CONN);
  id->faces = tsr_mesh_find_map(m, TSR_HEX_FACES);
  id->coords = tsr_mesh_find_dat(m, TSR_HEX_COORDS);
  id->bc = tsr_mesh_find_dat(m, TSR_HEX_BC);
  id->region = tsr_mesh_find_dat(m, TSR_HEX_REGION);
  TSR_CHECK(id->nodes >= 0 && id->elems >= 0, TSR_ERR_FORMAT, "%s: sets '%s' and '%s' needed",
            name, TSR_HEX_NODES, TSR_HEX_ELEMS);
  const tsr_map_t *c = id->conn >= 0 ? tsr_mesh_map(m, id->conn) : NULL;
  const tsr_map_t *f = id->faces >= 0 ? tsr_mesh_map(m, id->faces) : NULL;
  TSR_CHECK(c && c->from == id->elems && c->to == id->nodes && c->dim == 8, TSR_ERR_FORMAT,
            "%s: map '%s' (elements -> nodes, 8 corners) needed", name, TSR_HEX_CONN);
  TSR_CHECK(f && f->from == id->elems && f->to == id->elems && f->dim == 6, TSR_ERR_FORMAT,
            "%s: map '%s' (elements -> elements, 6 faces) needed", name, TSR_HEX_FACES);
  for (int d = 0; d < 3; d++) {
    id->symm[d] = tsr_mesh_find_set(m, tsr_hex_symm_sets[d]);
    id->symm_map[d] = tsr_mesh_find_map(m, tsr_hex_symm_maps[d]);
    const tsr_map_t *s = id->symm_map[d] >= 0 ? tsr_mesh_map(m, id->symm_map[d]) : NULL;
    TSR_CHECK(id->symm[d] >= 0 && s && s->from == id->symm[d] && s->to == id->nodes && s->dim == 1,
              TSR_ERR_FORMAT, "%s: symmetry set '%s' with map '%s' (-> nodes) needed", name,
              tsr_hex_symm_sets[d], tsr_hex_symm_maps[d]);
  }
  const tsr_dat_t *x = id->coords >= 0 ? tsr_mesh_dat(m, id->coords) : NULL;
  const tsr_dat_t *b = id->bc >= 0 ? tsr_mesh_dat(m, id->bc) : NULL;
  const tsr_dat_t *r = id->region >= 0 ? tsr_mesh_dat(m, id->region) : NULL;
  TSR_CHECK(x && x->set == id->nodes && x->dim == 3 && x->type == TSR_DOUBLE, TSR_ERR_FORMAT,
            "%s: dat '%s' (3 doubles per node) needed", name, TSR_HEX_COORDS);
  TSR_CHECK(b && b->set == id->elems && b->dim == 1 && b->type == TSR_INT32, TSR_ERR_FORMAT,
            "%s: dat '%s' (1 int32 per element) needed", name, TSR_HEX_BC);
  TSR_CHECK(r && r->set == id->elems && r->dim == 1 && r->type == TSR_INT32, TSR_ERR_FORMAT,
            "%s: dat '%s' (1 int32 per element) needed", name, TSR_HEX_REGION);
  return TSR_SUCCESS;
}

/* ---- checks ---------------------------------------------------------------- */

/* Checks of one element row that need no coordinates. */
static int check_elem(const char *name, const tsr_hex_header_t *h, int64_t g, const int32_t *c,
                      const int32_t *nb, int32_t bc, int32_t reg, int64_t nn, int64_t ne) {
  for (int i = 0; i < 8; i++) {
    TSR_CHECK(c[i] >= 0 && c[i] < nn, TSR_ERR_RANGE,
              "%s: dataset '%s': element %lld corner %d is node %d, expected an index in "
              "[0, %lld)", name, TSR_HEX_CONN, (long long)g, i, c[i], (long long)nn);
    for (int j = 0; j < i; j++)
      TSR_CHECK(c[i] != c[j], TSR_ERR_FORMAT,
                "%s: dataset '%s': element %lld repeats node %d (corners %d and %d)", name,
                TSR_HEX_CONN, (long long)g, c[i], j, i);
  }
  TSR_CHECK((bc & ~0x3ffff) == 0, TSR_ERR_FORMAT,
            "%s: dataset '%s': element %lld has unknown flag bits %#x", name, TSR_HEX_BC,
            (long long)g, (unsigned)bc);
  for (int f = 0; f < 6; f++) {
    int bits = (bc >> (3 * f)) & 7;
    TSR_CHECK(nb[f] >= 0 && nb[f] < ne, TSR_ERR_RANGE,
              "%s: dataset '%s': element %lld face %s has neighbour %d, expected an index in "
              "[0, %lld)", name, TSR_HEX_FACES, (long long)g, face_name[f], nb[f], (long long)ne);
    TSR_CHECK(bits == 0 || bits == TSR_HEX_SYMM || bits == TSR_HEX_FREE, TSR_ERR_FORMAT,
              "%s: dataset '%s': element %lld face %s has flags %d (expected none, SYMM 1 or "
              "FREE 2; COMM faces exist only in a distributed mesh)", name, TSR_HEX_BC,
              (long long)g, face_name[f], bits);
    TSR_CHECK(bits != 0 || nb[f] != g, TSR_ERR_FORMAT,
              "%s: dataset '%s': element %lld is its own neighbour across face %s, which has "
              "no SYMM or FREE flag in '%s'", name, TSR_HEX_FACES, (long long)g, face_name[f],
              TSR_HEX_BC);
    TSR_CHECK(bits == 0 || nb[f] == g, TSR_ERR_FORMAT,
              "%s: dataset '%s': element %lld face %s is a boundary face (flag %s in '%s') but "
              "names neighbour %d, expected the element itself", name, TSR_HEX_FACES,
              (long long)g, face_name[f], bits == TSR_HEX_SYMM ? "SYMM" : "FREE", TSR_HEX_BC,
              nb[f]);
  }
  TSR_CHECK(reg >= 0 && reg < h->regions, TSR_ERR_RANGE,
            "%s: dataset '%s': element %lld has region %d, expected 0 .. %d (root attribute "
            "'regions' = %d)", name, TSR_HEX_REGION, (long long)g, reg, h->regions - 1,
            h->regions);
  return TSR_SUCCESS;
}

/* Rows (es bytes each) of set `set` for the global ids want[n]: local in a
 * SERIAL mesh, fetched from their block owners in a BLOCK mesh. src holds
 * this rank's rows. Collective. */
static int fetch_rows(MPI_Comm comm, const tsr_mesh_t *m, int set, const void *src, size_t es,
                      const int32_t *want, tsr_idx_t n, void *out) {
  const tsr_set_t *ns = tsr_mesh_set(m, set);
  if (tsr_mesh_dist(m) == TSR_MESH_SERIAL) {
    for (tsr_idx_t k = 0; k < n; k++)
      memcpy((char *)out + es * (size_t)k, (const char *)src + es * (size_t)want[k], es);
    return TSR_SUCCESS;
  }
  int size;
  MPI_Comm_size(comm, &size);
  int64_t *have = malloc((size_t)(ns->size + 1) * sizeof *have);
  int64_t *wg = malloc((size_t)(n + 1) * sizeof *wg);
  int *wr = malloc((size_t)(n + 1) * sizeof *wr);
  int rc = have && wg && wr ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "hex mesh: out of memory for %lld "
                                            "rows of set '%s'", (long long)n, ns->name);
  rc = tsr_error_agree(comm, rc);
  tsr_xfer_t *xf = NULL;
  if (!rc) {
    for (tsr_idx_t i = 0; i < ns->size; i++) have[i] = ns->offset + i;
    for (tsr_idx_t k = 0; k < n; k++) {
      wg[k] = want[k];
      wr[k] = tsr_part_block_owner(ns->global_size, size, want[k]);
    }
    rc = tsr_xfer_create(comm, ns->size, have, n, wg, wr, &xf);
  }
  if (!rc) rc = tsr_xfer_run(xf, src, out, es);
  tsr_xfer_destroy(&xf);
  free(have), free(wg), free(wr);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* Corners of face f (xi-, xi+, eta-, eta+, zeta-, zeta+). */
static const int face_corner[6][4] = {{0, 3, 7, 4}, {1, 2, 6, 5}, {0, 1, 5, 4},
                                      {3, 2, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};

/* 1 when the 4 nodes of face f of corners a equal those of face g of b. */
static int same_face(const int32_t *a, int f, const int32_t *b, int g) {
  for (int i = 0; i < 4; i++) {
    int hit = 0;
    for (int j = 0; j < 4; j++) hit |= a[face_corner[f][i]] == b[face_corner[g][j]];
    if (!hit) return 0;
  }
  return 1;
}

/* Neighbours are consistently oriented, as LULESH's monotonic Q needs (it
 * compares gradients along one logical direction across a face): the
 * neighbour across face f names the element across the opposite face
 * (f ^ 1), and the two faces have the same 4 nodes. Rows of neighbours on
 * other ranks are fetched. Collective. */
static int check_faces(MPI_Comm comm, const char *name, const tsr_mesh_t *m, const hex_ids_t *id,
                       tsr_idx_t first, tsr_idx_t nl) {
  const tsr_set_t *es = tsr_mesh_set(m, id->elems);
  const int32_t *conn = tsr_mesh_map(m, id->conn)->data, *faces = tsr_mesh_map(m, id->faces)->data;
  tsr_idx_t l0 = first - es->offset, nh = es->size; /* the rows this rank holds */
  int32_t *rows = malloc((size_t)(nh + 1) * 14 * sizeof *rows);
  int32_t *got = malloc((size_t)(6 * nl + 1) * 14 * sizeof *got);
  int rc = rows && got ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory for the face checks", name);
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    for (tsr_idx_t i = 0; i < nh; i++) { /* [corners 8, faces 6] of every row held */
      memcpy(rows + 14 * i, conn + 8 * i, 8 * sizeof *rows);
      memcpy(rows + 14 * i + 8, faces + 6 * i, 6 * sizeof *rows);
    }
    rc = fetch_rows(comm, m, id->elems, rows, 14 * sizeof *rows, faces + 6 * l0, 6 * nl, got);
  }
  for (tsr_idx_t i = 0; !rc && i < nl; i++) {
    tsr_idx_t l = l0 + i, g = first + i;
    for (int f = 0; !rc && f < 6; f++) {
      int32_t nb = faces[6 * l + f];
      if (nb == g) continue; /* a boundary face (flags checked before) */
      const int32_t *r = got + 14 * (6 * i + f);
      if (r[8 + (f ^ 1)] != g)
        rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': element %lld names %d across face %s, "
                       "but element %d names %d across face %s (neighbours must be oriented "
                       "alike)", name, TSR_HEX_FACES, (long long)g, nb, face_name[f], nb,
                       r[8 + (f ^ 1)], face_name[f ^ 1]);
      else if (!same_face(conn + 8 * l, f, r, f ^ 1))
        rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: datasets '%s' and '%s': face %s of element %lld and "
                       "face %s of its neighbour %d do not have the same 4 nodes", name,
                       TSR_HEX_FACES, TSR_HEX_CONN, face_name[f], (long long)g, face_name[f ^ 1],
                       nb);
    }
  }
  free(rows);
  free(got);
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}

static void stats_reduce(MPI_Comm comm, tsr_hex_stats_t *s) {
  MPI_Allreduce(MPI_IN_PLACE, &s->vol_min, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &s->vol_max, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &s->vol_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, s->flags, 18, MPI_INT64_T, MPI_SUM, comm);
}

int tsr_hex_check(MPI_Comm comm, const char *name, const tsr_mesh_t *m,
                  const tsr_hex_header_t *h, tsr_hex_stats_t *stats) {
  hex_ids_t id;
  int rc = tsr_mesh_dist(m) == TSR_MESH_PARTITIONED
               ? TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s: checks a serial or block hex mesh, not a "
                           "partitioned one", name)
               : hex_ids(name, m, &id);
  TSR_CALL(tsr_error_agree(comm, rc));
  const tsr_set_t *es = tsr_mesh_set(m, id.elems), *ns = tsr_mesh_set(m, id.nodes);
  const int64_t ne = es->global_size, nn = ns->global_size;
  tsr_hex_stats_t st;
  memset(&st, 0, sizeof st);
  st.num_elem = ne;
  st.num_node = nn;
  /* header */
  if (!(h->regions >= 1))
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: root attribute 'regions' = %d, expected >= 1", name,
                   h->regions);
  else if (!(h->origin >= 0 && h->origin < ne))
    rc = TSR_RAISE(TSR_ERR_RANGE, "%s: root attribute 'origin' = %lld, expected an element in "
                   "[0, %lld)", name, (long long)h->origin, (long long)ne);
  else if (!(h->einit > 0.0 && isfinite(h->einit)))
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' = %g, expected a positive initial energy",
                   name, TSR_HEX_EINIT, h->einit);
  else if (ne > INT32_MAX / 8 || nn > INT32_MAX)
    rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s: %lld elements and %lld nodes exceed 32-bit corner "
                   "indices", name, (long long)ne, (long long)nn);
  /* elements: corners, faces, flags, regions */
  const int32_t *conn = tsr_mesh_map(m, id.conn)->data, *faces = tsr_mesh_map(m, id.faces)->data;
  const int32_t *bc = tsr_mesh_dat(m, id.bc)->data, *reg = tsr_mesh_dat(m, id.region)->data;
  tsr_idx_t first = es->offset, nl = es->size;
  if (tsr_mesh_dist(m) == TSR_MESH_SERIAL) { /* every rank its block of a serial mesh */
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    tsr_mesh_block_rows(ne, size, rank, &first, &nl);
  }
  tsr_idx_t l0 = first - es->offset;
  for (tsr_idx_t i = 0; !rc && i < nl; i++) {
    tsr_idx_t l = l0 + i;
    rc = check_elem(name, h, first + i, conn + 8 * l, faces + 6 * l, bc[l], reg[l], nn, ne);
    for (int f = 0; f < 6; f++) {
      int bits = (bc[l] >> (3 * f)) & 7;
      if (bits) st.flags[f][bits == 1 ? 0 : bits == 2 ? 1 : 2]++;
    }
  }
  /* symmetry node indices */
  tsr_idx_t nsym = 0, sfirst[3], scount[3], gfirst[3];
  for (int d = 0; d < 3; d++) {
    const tsr_set_t *ss = tsr_mesh_set(m, id.symm[d]);
    st.num_symm[d] = ss->global_size;
    sfirst[d] = 0, scount[d] = ss->size;
    if (tsr_mesh_dist(m) == TSR_MESH_SERIAL) {
      int size, rank;
      MPI_Comm_size(comm, &size);
      MPI_Comm_rank(comm, &rank);
      tsr_mesh_block_rows(ss->global_size, size, rank, &sfirst[d], &scount[d]);
    }
    gfirst[d] = ss->offset + sfirst[d];
    const int32_t *sm = tsr_mesh_map(m, id.symm_map[d])->data + sfirst[d];
    for (tsr_idx_t i = 0; !rc && i < scount[d]; i++)
      if (sm[i] < 0 || sm[i] >= nn)
        rc = TSR_RAISE(TSR_ERR_RANGE, "%s: dataset '%s': entry %lld is node %d, expected an "
                       "index in [0, %lld)", name, tsr_hex_symm_maps[d],
                       (long long)(gfirst[d] + i), sm[i], (long long)nn);
    nsym += scount[d];
  }
  TSR_CALL(tsr_error_agree(comm, rc));
  /* bounding box over the owned coordinates */
  const double *x = tsr_mesh_dat(m, id.coords)->data;
  for (int j = 0; j < 3; j++) st.lo[j] = DBL_MAX, st.hi[j] = -DBL_MAX;
  for (tsr_idx_t i = 0; i < ns->size; i++)
    for (int j = 0; j < 3; j++) {
      double v = x[3 * i + j];
      if (!isfinite(v) && !rc)
        rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': node %lld has a non-finite "
                       "coordinate", name, TSR_HEX_COORDS, (long long)(ns->offset + i));
      st.lo[j] = v < st.lo[j] ? v : st.lo[j];
      st.hi[j] = v > st.hi[j] ? v : st.hi[j];
    }
  TSR_CALL(tsr_error_agree(comm, rc));
  MPI_Allreduce(MPI_IN_PLACE, st.lo, 3, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, st.hi, 3, MPI_DOUBLE, MPI_MAX, comm);
  /* the coordinates of every corner and symmetry node this rank checks */
  tsr_idx_t nw = 8 * nl + nsym;
  int32_t *want = malloc((size_t)(nw + 1) * sizeof *want);
  double *c = malloc((size_t)(nw + 1) * 3 * sizeof *c);
  rc = want && c ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory for %lld coordinates", name,
                                 (long long)nw);
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    memcpy(want, conn + 8 * l0, (size_t)(8 * nl) * sizeof *want);
    tsr_idx_t at = 8 * nl;
    for (int d = 0; d < 3; d++) {
      memcpy(want + at, tsr_mesh_map(m, id.symm_map[d])->data + sfirst[d],
             (size_t)scount[d] * sizeof *want);
      at += scount[d];
    }
    rc = fetch_rows(comm, m, id.nodes, x, 3 * sizeof(double), want, nw, c);
  }
  st.vol_min = DBL_MAX, st.vol_max = -DBL_MAX;
  for (tsr_idx_t i = 0; !rc && i < nl; i++) {
    double v = tsr_hex_volume((const double(*)[3])(c + 24 * i));
    if (!(v > 0.0))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': element %lld has volume %.6g <= 0 "
                     "(inverted or degenerate: corners not in LULESH's order, or '%s' wrong)",
                     name, TSR_HEX_CONN, (long long)(first + i), v, TSR_HEX_COORDS);
    st.vol_min = v < st.vol_min ? v : st.vol_min;
    st.vol_max = v > st.vol_max ? v : st.vol_max;
    st.vol_sum += v;
  }
  /* symmetry nodes lie on their plane (to rounding of the box size) */
  double ext = 0.0;
  for (int j = 0; j < 3; j++) ext = fmax(ext, fmax(fabs(st.lo[j]), fabs(st.hi[j])));
  tsr_idx_t at = 8 * nl;
  for (int d = 0; d < 3 && !rc; d++) {
    for (tsr_idx_t i = 0; !rc && i < scount[d]; i++) {
      double v = c[3 * (at + i) + d];
      if (!(fabs(v) <= 1e-12 * ext))
        rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': entry %lld is node %d with %c = %.17g,"
                       " expected a node on the plane %c = 0", name, tsr_hex_symm_maps[d],
                       (long long)(gfirst[d] + i), want[at + i], 'x' + d, v, 'x' + d);
    }
    at += scount[d];
  }
  free(want);
  free(c);
  TSR_CALL(tsr_error_agree(comm, rc));
  TSR_CALL(check_faces(comm, name, m, &id, first, nl));
  stats_reduce(comm, &st);
  if (stats) *stats = st;
  return TSR_SUCCESS;
}

/* ---- reading ----------------------------------------------------------------- */

/* Before anything is read: every dataset exists with the right rank,
 * columns and class (integer maps and flags, floating-point coordinates).
 * Rows are checked against the set sizes by the mesh reader. Local. */
static int precheck(tsr_file_t *f) {
  static const struct {
    const char *name, *what;
    int cols, isint;
  } want[] = {{TSR_HEX_CONN, "map elements -> nodes", 8, 1},
              {TSR_HEX_FACES, "map elements -> elements", 6, 1},
              {TSR_HEX_COORDS, "dat on nodes", 3, 0},
              {TSR_HEX_BC, "dat on elements", 1, 1},
              {TSR_HEX_REGION, "dat on elements", 1, 1},
              {"symm_x_nodes", "map symm_x -> nodes: the nodes on the plane x = 0", 1, 1},
              {"symm_y_nodes", "map symm_y -> nodes: the nodes on the plane y = 0", 1, 1},
              {"symm_z_nodes", "map symm_z -> nodes: the nodes on the plane z = 0", 1, 1}};
  static const char *const sets[] = {TSR_HEX_NODES, TSR_HEX_ELEMS, "symm_x", "symm_y", "symm_z"};
  for (int i = 0; i < 5; i++)
    TSR_CHECK(tsr__exists(f, sets[i]), TSR_ERR_FORMAT, "%s: dataset '%s' (set%s) not found",
              f->path, sets[i], i >= 2 ? ": a symmetry node set" : "");
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    TSR_CHECK(tsr__exists(f, want[i].name), TSR_ERR_FORMAT, "%s: dataset '%s' (%s) not found",
              f->path, want[i].name, want[i].what);
    int r;
    tsr_idx_t d[3];
    tsr_dtype_t t;
    TSR_CALL(tsr_file_dataset_shape(f, want[i].name, &r, d, &t));
    if (r != 2 || d[1] != want[i].cols) {
      char got[64];
      if (r == 1) snprintf(got, sizeof got, "[%lld]", (long long)d[0]);
      else if (r == 2) snprintf(got, sizeof got, "[%lld, %lld]", (long long)d[0], (long long)d[1]);
      else snprintf(got, sizeof got, "rank %d", r);
      return TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' (%s): expected rank 2 [*, %d], found %s",
                       f->path, want[i].name, want[i].what, want[i].cols, got);
    }
    int isint = t == TSR_INT32 || t == TSR_INT64;
    TSR_CHECK(isint == want[i].isint, TSR_ERR_FORMAT, "%s: dataset '%s' (%s): expected %s, found %s",
              f->path, want[i].name, want[i].what,
              want[i].isint ? "an integer type" : "a floating-point type", tsr_dtype_name(t));
  }
  TSR_CHECK(tsr__exists(f, TSR_HEX_EINIT), TSR_ERR_FORMAT,
            "%s: dataset '%s' (constant: the initial energy) not found", f->path, TSR_HEX_EINIT);
  return TSR_SUCCESS;
}

static int read_header(tsr_file_t *f, tsr_hex_header_t *h) {
  static const char *const need[] = {"origin", "regions"};
  for (int i = 0; i < 2; i++)
    TSR_CHECK(tsr_file_has_attr(f, "/", need[i]), TSR_ERR_FORMAT,
              "%s: root attribute '%s' (%s) not found", f->path, need[i],
              i ? "the region count" : "the element of the energy deposit");
  int64_t v[4] = {0, 0, 0, -1};
  TSR_CALL(tsr_file_attr_int(f, "/", "origin", &v[0], 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "regions", &v[1], 1));
  if (tsr_file_has_attr(f, "/", "edge")) TSR_CALL(tsr_file_attr_int(f, "/", "edge", &v[2], 1));
  if (tsr_file_has_attr(f, "/", "balance")) TSR_CALL(tsr_file_attr_int(f, "/", "balance", &v[3], 1));
  TSR_CHECK(v[1] >= 1 && v[1] <= 1000000, TSR_ERR_FORMAT,
            "%s: root attribute 'regions' = %lld, expected 1 .. 1000000", f->path,
            (long long)v[1]);
  h->origin = v[0];
  h->regions = (int32_t)v[1];
  h->edge = v[2] >= 0 && v[2] <= INT32_MAX ? (int32_t)v[2] : 0;
  h->balance = v[3] >= 0 && v[3] <= INT32_MAX ? (int32_t)v[3] : -1;
  return TSR_SUCCESS;
}

int tsr_hex_read_file(tsr_file_t *f, tsr_mesh_t **out, tsr_hex_header_t *h,
                      tsr_hex_stats_t *stats) {
  TSR_CHECK(f && out && h, TSR_ERR_ARG, "tsr_hex_read: NULL argument");
  char kind[64] = "";
  int rc = tsr_file_kind(f, kind, sizeof kind);
  if (!rc && strcmp(kind, "hex-mesh") != 0)
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: root attribute 'kind' is \"%s\", expected \"hex-mesh\"",
                   f->path, kind);
  if (!rc) rc = precheck(f);
  if (!rc) rc = read_header(f, h);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  /* the sizes, before any array is allocated: 32-bit corner indices */
  int64_t n[2] = {0, 0};
  TSR_CALL(tsr_file_read_rows(f, TSR_HEX_ELEMS, 0, 1, TSR_INT64, &n[0]));
  TSR_CALL(tsr_file_read_rows(f, TSR_HEX_NODES, 0, 1, TSR_INT64, &n[1]));
  TSR_CHECK(n[0] <= INT32_MAX / 8 && n[1] <= INT32_MAX, TSR_ERR_UNSUPPORTED,
            "%s: datasets '%s' = %lld and '%s' = %lld: at most %d elements and %d nodes "
            "(32-bit corner indices)", f->path, TSR_HEX_ELEMS, (long long)n[0], TSR_HEX_NODES,
            (long long)n[1], INT32_MAX / 8, INT32_MAX);
  static const char *const sets[] = {TSR_HEX_NODES, TSR_HEX_ELEMS, "symm_x", "symm_y", "symm_z"};
  static const tsr_io_map_t maps[] = {{TSR_HEX_CONN, TSR_HEX_ELEMS, TSR_HEX_NODES},
                                      {TSR_HEX_FACES, TSR_HEX_ELEMS, TSR_HEX_ELEMS},
                                      {"symm_x_nodes", "symm_x", TSR_HEX_NODES},
                                      {"symm_y_nodes", "symm_y", TSR_HEX_NODES},
                                      {"symm_z_nodes", "symm_z", TSR_HEX_NODES}};
  static const tsr_io_dat_t dats[] = {{TSR_HEX_COORDS, TSR_HEX_NODES, TSR_DOUBLE},
                                      {TSR_HEX_BC, TSR_HEX_ELEMS, TSR_INT32},
                                      {TSR_HEX_REGION, TSR_HEX_ELEMS, TSR_INT32}};
  static const char *const consts[] = {TSR_HEX_EINIT};
  tsr_mesh_spec_t spec = {5, sets, 5, maps, 3, dats, 1, consts};
  tsr_mesh_t *m = NULL;
  TSR_CALL(tsr_mesh_read_file(f, &spec, &m));
  const tsr_const_t *e = tsr_mesh_const(m, tsr_mesh_find_const(m, TSR_HEX_EINIT));
  rc = e->dim == 1 ? 0 : TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': expected 1 value, found %d",
                                   f->path, TSR_HEX_EINIT, e->dim);
  rc = tsr_error_agree(f->comm, rc);
  if (!rc) {
    h->einit = e->data[0];
    rc = tsr_hex_check(f->comm, f->path, m, h, stats);
  }
  if (rc) {
    tsr_mesh_destroy(&m);
    TSR_CALL(rc);
  }
  *out = m;
  return TSR_SUCCESS;
}

int tsr_hex_read(MPI_Comm comm, const char *path, tsr_mesh_t **out, tsr_hex_header_t *h,
                 tsr_hex_stats_t *stats) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(comm, path, &f));
  int rc = tsr_hex_read_file(f, out, h, stats);
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* ---- writing ----------------------------------------------------------------- */

int tsr_hex_write_file(tsr_file_t *f, const tsr_mesh_t *m, const tsr_hex_header_t *h) {
  TSR_CHECK(f && m && h && f->writing, TSR_ERR_ARG,
            "tsr_hex_write: needs a mesh, a header and a file opened for writing");
  TSR_CALL(tsr_hex_check(f->comm, f->path, m, h, NULL));
  TSR_CALL(tsr_mesh_write_file(f, m));
  if (tsr_mesh_find_const(m, TSR_HEX_EINIT) < 0) {
    tsr_idx_t one[3] = {1, 1, 1};
    TSR_CALL(tsr__write_rows(f, TSR_HEX_EINIT, 1, one, TSR_DOUBLE, 0, f->rank == 0, &h->einit));
    hid_t d = H5Dopen2(f->id, TSR_HEX_EINIT, H5P_DEFAULT);
    int64_t dim = 1;
    int rc = d >= 0 ? tsr__attr_write_int(f, d, "dim", &dim, 1, TSR_INT32)
                    : TSR_RAISE(TSR_ERR_HDF5, "%s: cannot reopen '%s'", f->path, TSR_HEX_EINIT);
    if (!rc) rc = tsr__attr_write_string(f, d, "type", "double");
    if (d >= 0) H5Dclose(d);
    TSR_CALL(tsr_error_agree(f->comm, rc));
  }
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  int rc = H5Adelete(root, "kind") >= 0 ? 0 : TSR_RAISE(TSR_ERR_HDF5, "%s: cannot replace "
                                                         "the root attribute 'kind'", f->path);
  if (!rc) rc = tsr__attr_write_string(f, root, "kind", "hex-mesh");
  int64_t v[4] = {h->origin, h->regions, h->edge, h->balance};
  static const char *const an[4] = {"origin", "regions", "edge", "balance"};
  for (int i = 0; i < 4 && !rc; i++)
    if (i < 2 || (i == 2 ? v[i] > 0 : v[i] >= 0))
      rc = tsr__attr_write_int(f, root, an[i], &v[i], 1, TSR_INT64);
  H5Oclose(root);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_hex_write(MPI_Comm comm, const char *path, const tsr_mesh_t *m,
                  const tsr_hex_header_t *h, const tsr_provenance_t *p) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_create(comm, path, &f));
  int rc = tsr_hex_write_file(f, m, h);
  if (!rc && p) rc = tsr_file_write_provenance(f, p);
  if (rc) {
    tsr_file_discard(&f);
    TSR_CALL(rc);
  }
  TSR_CALL(tsr_file_close(&f));
  return TSR_SUCCESS;
}

/* ---- XDMF ---------------------------------------------------------------------- */

static int xdmf_hex_local(const char *h5path, const tsr_mesh_t *m) {
  hex_ids_t id;
  TSR_CALL(hex_ids(h5path, m, &id));
  const tsr_set_t *es = tsr_mesh_set(m, id.elems), *ns = tsr_mesh_set(m, id.nodes);
  char xmf[PATH_MAX], tmp[PATH_MAX];
  FILE *fp = tsr__xdmf_begin(h5path, xmf, tmp, sizeof xmf);
  TSR_CHECK(fp, TSR_ERR_IO, "%s: cannot create the XDMF sidecar next to it: %s", h5path,
            strerror(errno));
  const char *b = tsr__xdmf_base(h5path);
  long long ne = es->global_size, nn = ns->global_size;
  fprintf(fp, "    <Grid Name=\"hex-mesh\" GridType=\"Uniform\">\n"
              "      <Topology TopologyType=\"Hexahedron\" NumberOfElements=\"%lld\">\n"
              "        <DataItem Dimensions=\"%lld 8\" NumberType=\"Int\" Precision=\"4\" "
              "Format=\"HDF\">%s:/%s</DataItem>\n      </Topology>\n"
              "      <Geometry GeometryType=\"XYZ\">\n"
              "        <DataItem Dimensions=\"%lld 3\" NumberType=\"Float\" Precision=\"8\" "
              "Format=\"HDF\">%s:/%s</DataItem>\n      </Geometry>\n",
          ne, ne, b, TSR_HEX_CONN, nn, b, TSR_HEX_COORDS);
  for (int i = 0; i < tsr_mesh_ndats(m); i++) {
    const tsr_dat_t *d = tsr_mesh_dat(m, i);
    if (i == id.coords || (d->set != id.elems && d->set != id.nodes)) continue;
    const char *at = d->dim == 1 ? "Scalar" : d->dim == 3 ? "Vector" : "Matrix";
    fprintf(fp, "      <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"%s\">\n"
                "        <DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" "
                "Format=\"HDF\">%s:/%s</DataItem>\n      </Attribute>\n",
            d->name, at, d->set == id.elems ? "Cell" : "Node", d->set == id.elems ? ne : nn,
            d->dim, tsr__xdmf_num(d->type), (int)tsr_dtype_size(d->type), b, d->name);
  }
  fprintf(fp, "    </Grid>\n");
  TSR_CALL(tsr__xdmf_end(fp, xmf, tmp));
  return TSR_SUCCESS;
}

int tsr_xdmf_write_hex(MPI_Comm comm, const char *h5path, const tsr_mesh_t *m) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = rank == 0 ? xdmf_hex_local(h5path, m) : 0;
  TSR_CALL(tsr_error_agree(comm, rc));
  return TSR_SUCCESS;
}
