/* kernels/lulesh/lulesh_mesh.c: hex mesh of the LULESH problem: the Sedov
 * cube generator, region assignment, CSR tables, checks, renumbering. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "tessera/fault.h"
#include <string.h>

#include "tessera/error.h"
#include "kernels/lulesh/lulesh_mesh.h"

static int alloc_i32(int32_t **p, int64_t n) {
  *p = tsr_calloc((size_t)(n > 0 ? n : 1), sizeof **p);
  TSR_CHECK(*p, TSR_ERR_ALLOC, "lulesh: cannot allocate %lld indices", (long long)n);
  return 0;
}

static int alloc_f64(double **p, int64_t n) {
  *p = tsr_calloc((size_t)(n > 0 ? n : 1), sizeof **p);
  TSR_CHECK(*p, TSR_ERR_ALLOC, "lulesh: cannot allocate %lld doubles", (long long)n);
  return 0;
}

void lulesh_mesh_free(lulesh_mesh_t *m) {
  if (!m) return;
  free(m->x), free(m->y), free(m->z);
  free(m->nodelist);
  free(m->lxim), free(m->lxip), free(m->letam), free(m->letap), free(m->lzetam), free(m->lzetap);
  free(m->elem_bc);
  free(m->symm_x), free(m->symm_y), free(m->symm_z);
  free(m->reg_num), free(m->reg_start), free(m->reg_elems);
  free(m->node_elem_start), free(m->node_elem_corner);
  memset(m, 0, sizeof *m);
}

/* Arrays sized by num_elem, num_node, num_reg and the symmetry counts. */
static int mesh_alloc(lulesh_mesh_t *m) {
  int64_t ne = m->num_elem, nn = m->num_node;
  TSR_CALL(alloc_f64(&m->x, nn));
  TSR_CALL(alloc_f64(&m->y, nn));
  TSR_CALL(alloc_f64(&m->z, nn));
  TSR_CALL(alloc_i32(&m->nodelist, 8 * ne));
  int32_t **face[6] = {&m->lxim, &m->lxip, &m->letam, &m->letap, &m->lzetam, &m->lzetap};
  for (int f = 0; f < 6; f++) TSR_CALL(alloc_i32(face[f], ne));
  TSR_CALL(alloc_i32(&m->elem_bc, ne));
  TSR_CALL(alloc_i32(&m->symm_x, m->num_symm_x));
  TSR_CALL(alloc_i32(&m->symm_y, m->num_symm_y));
  TSR_CALL(alloc_i32(&m->symm_z, m->num_symm_z));
  TSR_CALL(alloc_i32(&m->reg_num, ne));
  return 0;
}

/* ---- LULESH's random sequence ------------------------------------------- */

/* glibc's rand() (the additive feedback generator of random(3), 31 words,
 * separation 3) seeded as srand(seed), so that region sets match LULESH's
 * on the platform of its reference runs, on any platform. */
typedef struct {
  int32_t t[31];
  int f, r;
} lulesh_rand_t;

static int rand_next(lulesh_rand_t *g) {
  uint32_t v = (uint32_t)g->t[g->f] + (uint32_t)g->t[g->r];
  g->t[g->f] = (int32_t)v;
  g->f = (g->f + 1) % 31;
  g->r = (g->r + 1) % 31;
  return (int)(v >> 1);
}

static void rand_seed(lulesh_rand_t *g, unsigned seed) {
  int32_t w = seed ? (int32_t)seed : 1;
  g->t[0] = w;
  for (int i = 1; i < 31; i++) { /* 16807 w mod (2^31 - 1), Schrage's way */
    int32_t hi = w / 127773, lo = w % 127773;
    w = 16807 * lo - 2836 * hi;
    if (w < 0) w += 2147483647;
    g->t[i] = w;
  }
  g->f = 3;
  g->r = 0;
  for (int i = 0; i < 310; i++) rand_next(g);
}

int lulesh_regions_assign(int32_t num_elem, int nr, int balance, int32_t *reg_num) {
  return lulesh_regions_assign_seed(num_elem, nr, balance, 0, reg_num);
}

int lulesh_regions_assign_seed(int32_t num_elem, int nr, int balance, unsigned seed,
                               int32_t *reg_num) {
  return lulesh_regions_assign_ids(num_elem, nr, balance, seed, 0, NULL, reg_num);
}

int lulesh_regions_assign_ids(int64_t total, int nr, int balance, unsigned seed, int64_t n,
                              const int64_t *ids, int32_t *reg_num) {
  TSR_CHECK(nr >= 1, TSR_ERR_ARG, "lulesh: the region count (-r) must be at least 1, not %d", nr);
  TSR_CHECK(balance >= 0, TSR_ERR_ARG, "lulesh: the balance (-b) must be >= 0, not %d", balance);
  const int64_t nout = ids ? n : total;
  if (nr == 1) {
    for (int64_t i = 0; i < nout; i++) reg_num[i] = 0;
    return 0;
  }
  /* region i is drawn with weight (i+1)^balance */
  int *bin_end = malloc((size_t)nr * sizeof *bin_end);
  TSR_CHECK(bin_end, TSR_ERR_ALLOC, "lulesh: cannot allocate %d region bins", nr);
  int denom = 0;
  for (int i = 0; i < nr; i++) {
    denom = (int)((double)denom + pow((double)(i + 1), (double)balance));
    bin_end[i] = denom;
  }
  if (denom <= 0) {
    free(bin_end);
    return TSR_RAISE(TSR_ERR_ARG, "lulesh: region weights overflow with -r %d -b %d", nr,
                     balance);
  }
  lulesh_rand_t g;
  rand_seed(&g, seed);
  int64_t next = 0, at = 0; /* at: the next wanted entry of ids (or of all) */
  int last = -1;
  while (next < total && at < nout) {
    int reg;
    do { /* never the same region twice in a row */
      int pick = rand_next(&g) % denom, i = 0;
      while (pick >= bin_end[i]) i++;
      reg = i % nr;
    } while (reg == last);
    /* run length: mostly short, occasionally long */
    int bin = rand_next(&g) % 1000, len;
    if (bin < 773) len = rand_next(&g) % 15 + 1;
    else if (bin < 937) len = rand_next(&g) % 16 + 16;
    else if (bin < 970) len = rand_next(&g) % 32 + 32;
    else if (bin < 974) len = rand_next(&g) % 64 + 64;
    else if (bin < 978) len = rand_next(&g) % 128 + 128;
    else if (bin < 981) len = rand_next(&g) % 256 + 256;
    else len = rand_next(&g) % 1537 + 512;
    next += len; /* the run covers elements [next - len, next) */
    while (at < nout && (ids ? ids[at] : at) < next) reg_num[at++] = reg;
    last = reg;
  }
  free(bin_end);
  return 0;
}

int lulesh_region_reps(int r, int nr, int cost) {
  if (r < nr / 2) return 1;
  if (r < nr - (nr + 15) / 20) return 1 + cost;
  return 10 * (1 + cost);
}

/* ---- CSR tables ---------------------------------------------------------- */

int lulesh_mesh_build_csr(lulesh_mesh_t *m) {
  int32_t ne = m->num_elem, nn = m->num_node, nr = m->num_reg;
  free(m->reg_start), free(m->reg_elems), free(m->node_elem_start), free(m->node_elem_corner);
  m->reg_start = m->reg_elems = m->node_elem_start = m->node_elem_corner = NULL;
  TSR_CALL(alloc_i32(&m->reg_start, (int64_t)nr + 1));
  TSR_CALL(alloc_i32(&m->reg_elems, ne));
  for (int32_t i = 0; i < ne; i++) {
    TSR_CHECK(m->reg_num[i] >= 0 && m->reg_num[i] < nr, TSR_ERR_RANGE,
              "lulesh: element %d has region %d, outside 0..%d", i, m->reg_num[i], nr - 1);
    m->reg_start[m->reg_num[i] + 1]++;
  }
  for (int32_t r = 0; r < nr; r++) m->reg_start[r + 1] += m->reg_start[r];
  int32_t *fill;
  TSR_CALL(alloc_i32(&fill, nr > nn ? nr : nn));
  for (int32_t i = 0; i < ne; i++) {
    int32_t r = m->reg_num[i];
    m->reg_elems[m->reg_start[r] + fill[r]++] = i;
  }
  memset(fill, 0, sizeof *fill * (size_t)(nr > nn ? nr : nn));
  int rc = alloc_i32(&m->node_elem_start, (int64_t)nn + 1);
  if (!rc) rc = alloc_i32(&m->node_elem_corner, 8 * (int64_t)ne);
  if (rc) {
    free(fill);
    return rc;
  }
  for (int64_t k = 0; k < 8 * (int64_t)ne; k++) {
    int32_t n = m->nodelist[k];
    if (n < 0 || n >= nn) {
      free(fill);
      return TSR_RAISE(TSR_ERR_RANGE, "lulesh: element %lld corner %d is node %d, outside 0..%d",
                       (long long)(k / 8), (int)(k % 8), n, nn - 1);
    }
    m->node_elem_start[n + 1]++;
  }
  for (int32_t n = 0; n < nn; n++) m->node_elem_start[n + 1] += m->node_elem_start[n];
  for (int64_t k = 0; k < 8 * (int64_t)ne; k++) {
    int32_t n = m->nodelist[k];
    m->node_elem_corner[m->node_elem_start[n] + fill[n]++] = (int32_t)k;
  }
  free(fill);
  return 0;
}

/* ---- the Sedov cube ------------------------------------------------------ */

double lulesh_sedov_einit(int64_t E) {
  const double scale = (double)E / 45.0;
  return 3.948746e+7 * scale * scale * scale;
}

int lulesh_mesh_sedov(lulesh_mesh_t *m, int nx, int nr, int balance) {
  memset(m, 0, sizeof *m);
  TSR_CHECK(nx >= 1 && nx <= 600, TSR_ERR_ARG,
            "lulesh: the cube edge (-s) must be 1..600 elements, not %d", nx);
  int32_t ne1 = nx, nn1 = nx + 1;
  m->num_elem = ne1 * ne1 * ne1;
  m->num_node = nn1 * nn1 * nn1;
  m->num_symm_x = m->num_symm_y = m->num_symm_z = nn1 * nn1;
  m->num_reg = nr;
  m->edge = nx;
  int rc = mesh_alloc(m);
  if (!rc) rc = lulesh_regions_assign(m->num_elem, nr, balance, m->reg_num);
  if (rc) {
    lulesh_mesh_free(m);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  /* nodes: x fastest, coordinates 1.125 i / nx computed from the index */
  int32_t n = 0;
  for (int32_t k = 0; k < nn1; k++)
    for (int32_t j = 0; j < nn1; j++)
      for (int32_t i = 0; i < nn1; i++, n++) {
        m->x[n] = 1.125 * (double)i / (double)nx;
        m->y[n] = 1.125 * (double)j / (double)nx;
        m->z[n] = 1.125 * (double)k / (double)nx;
      }
  int32_t e = 0;
  for (int32_t k = 0; k < ne1; k++)
    for (int32_t j = 0; j < ne1; j++)
      for (int32_t i = 0; i < ne1; i++, e++) {
        int32_t b = (k * nn1 + j) * nn1 + i, *c = &m->nodelist[8 * (int64_t)e];
        c[0] = b;
        c[1] = b + 1;
        c[2] = b + nn1 + 1;
        c[3] = b + nn1;
        for (int q = 0; q < 4; q++) c[4 + q] = c[q] + nn1 * nn1;
        int bc = 0;
        m->lxim[e] = i > 0 ? e - 1 : e;
        m->lxip[e] = i < ne1 - 1 ? e + 1 : e;
        m->letam[e] = j > 0 ? e - ne1 : e;
        m->letap[e] = j < ne1 - 1 ? e + ne1 : e;
        m->lzetam[e] = k > 0 ? e - ne1 * ne1 : e;
        m->lzetap[e] = k < ne1 - 1 ? e + ne1 * ne1 : e;
        if (i == 0) bc |= LULESH_XI_M_SYMM;
        if (i == ne1 - 1) bc |= LULESH_XI_P_FREE;
        if (j == 0) bc |= LULESH_ETA_M_SYMM;
        if (j == ne1 - 1) bc |= LULESH_ETA_P_FREE;
        if (k == 0) bc |= LULESH_ZETA_M_SYMM;
        if (k == ne1 - 1) bc |= LULESH_ZETA_P_FREE;
        m->elem_bc[e] = bc;
      }
  /* symmetry planes: for each (a, b) of the plane, a slower */
  int32_t s = 0;
  for (int32_t a = 0; a < nn1; a++)
    for (int32_t b = 0; b < nn1; b++, s++) {
      m->symm_z[s] = a * nn1 + b;
      m->symm_y[s] = a * nn1 * nn1 + b;
      m->symm_x[s] = a * nn1 * nn1 + b * nn1;
    }
  m->einit = lulesh_sedov_einit(nx);
  m->origin = 0;
  rc = lulesh_mesh_build_csr(m);
  if (rc) lulesh_mesh_free(m);
  return rc;
}

/* ---- checks -------------------------------------------------------------- */

int lulesh_mesh_check(const lulesh_mesh_t *m, const char *name) {
  int32_t ne = m->num_elem, nn = m->num_node, ng = m->num_ghost;
  TSR_CHECK(ne >= 1 && nn >= 8, TSR_ERR_FORMAT, "%s: needs at least one element and 8 nodes",
            name);
  TSR_CHECK(ng >= 0 && ng <= INT32_MAX - ne, TSR_ERR_FORMAT, "%s: %d ghost elements", name, ng);
  TSR_CHECK(ne <= INT32_MAX / 8, TSR_ERR_FORMAT, "%s: %d elements exceed the 32-bit corner index",
            name, ne);
  TSR_CHECK(m->x && m->y && m->z && m->nodelist && m->elem_bc && m->reg_num, TSR_ERR_ARG,
            "%s: missing arrays", name);
  const int32_t *face[6] = {m->lxim, m->lxip, m->letam, m->letap, m->lzetam, m->lzetap};
  const char *fname[6] = {"lxim", "lxip", "letam", "letap", "lzetam", "lzetap"};
  for (int f = 0; f < 6; f++) TSR_CHECK(face[f], TSR_ERR_ARG, "%s: missing %s", name, fname[f]);
  for (int32_t e = 0; e < ne; e++) {
    const int32_t *c = &m->nodelist[8 * (int64_t)e];
    for (int i = 0; i < 8; i++) {
      TSR_CHECK(c[i] >= 0 && c[i] < nn, TSR_ERR_RANGE,
                "%s: nodelist: element %d corner %d is node %d, outside 0..%d", name, e, i, c[i],
                nn - 1);
      for (int j = 0; j < i; j++)
        TSR_CHECK(c[i] != c[j], TSR_ERR_FORMAT,
                  "%s: nodelist: element %d repeats node %d (corners %d and %d)", name, e, c[i],
                  j, i);
    }
    int bc = m->elem_bc[e];
    TSR_CHECK((bc & ~0x3ffff) == 0, TSR_ERR_FORMAT, "%s: elem_bc: element %d has unknown bits %#x",
              name, e, bc);
    for (int f = 0; f < 6; f++) {
      int bits = (bc >> (3 * f)) & 7;
      TSR_CHECK(bits == 0 || bits == 1 || bits == 2 || bits == 4, TSR_ERR_FORMAT,
                "%s: elem_bc: element %d face %s has more than one flag", name, e, fname[f]);
      TSR_CHECK(bits != 4 || ng > 0, TSR_ERR_UNSUPPORTED,
                "%s: elem_bc: element %d face %s is a COMM face (needs ghost elements)", name, e,
                fname[f]);
      int32_t nb = face[f][e];
      /* a COMM face's neighbour is a ghost element, and only a COMM face's */
      TSR_CHECK(bits != 4 || (nb >= ne && nb < ne + ng), TSR_ERR_FORMAT,
                "%s: %s: element %d has a COMM face but neighbour %d is no ghost element "
                "(%d..%d)", name, fname[f], e, nb, ne, ne + ng - 1);
      TSR_CHECK(nb >= 0 && (nb < ne || bits == 4), TSR_ERR_RANGE,
                "%s: %s: element %d has neighbour %d, outside 0..%d", name, fname[f], e, nb,
                ne - 1);
      TSR_CHECK(bits != 0 || nb != e, TSR_ERR_FORMAT,
                "%s: %s: element %d is its own neighbour on a face without SYMM or FREE flag",
                name, fname[f], e);
    }
  }
  const int32_t *sy[3] = {m->symm_x, m->symm_y, m->symm_z};
  const int32_t ns[3] = {m->num_symm_x, m->num_symm_y, m->num_symm_z};
  for (int d = 0; d < 3; d++) {
    TSR_CHECK(ns[d] >= 0 && (ns[d] == 0 || sy[d]), TSR_ERR_ARG, "%s: missing symm_%c", name,
              'x' + d);
    for (int32_t i = 0; i < ns[d]; i++)
      TSR_CHECK(sy[d][i] >= 0 && sy[d][i] < nn, TSR_ERR_RANGE,
                "%s: symm_%c[%d] is node %d, outside 0..%d", name, 'x' + d, i, sy[d][i], nn - 1);
  }
  TSR_CHECK(m->num_reg >= 1, TSR_ERR_FORMAT, "%s: needs at least one region", name);
  for (int32_t e = 0; e < ne; e++)
    TSR_CHECK(m->reg_num[e] >= 0 && m->reg_num[e] < m->num_reg, TSR_ERR_RANGE,
              "%s: reg_num: element %d has region %d, outside 0..%d", name, e, m->reg_num[e],
              m->num_reg - 1);
  TSR_CHECK(m->origin >= -1 && m->origin < ne, TSR_ERR_RANGE,
            "%s: origin element %d outside 0..%d", name, m->origin, ne - 1);
  TSR_CHECK(m->einit > 0.0 && isfinite(m->einit), TSR_ERR_FORMAT,
            "%s: initial energy %g is not positive", name, m->einit);
  TSR_CHECK(m->reg_start && m->reg_elems && m->node_elem_start && m->node_elem_corner,
            TSR_ERR_ARG, "%s: CSR tables not built (lulesh_mesh_build_csr)", name);
  TSR_CHECK(m->reg_start[0] == 0 && m->reg_start[m->num_reg] == ne && m->node_elem_start[0] == 0 &&
                m->node_elem_start[nn] == 8 * ne,
            TSR_ERR_FORMAT, "%s: CSR tables inconsistent with the element count", name);
  return 0;
}

/* ---- renumbering --------------------------------------------------------- */

static int check_perm(const int32_t *p, int32_t n, const char *what) {
  char *seen = calloc((size_t)n, 1);
  TSR_CHECK(seen, TSR_ERR_ALLOC, "lulesh: cannot allocate %d flags", n);
  for (int32_t i = 0; i < n; i++) {
    if (p[i] < 0 || p[i] >= n || seen[p[i]]) {
      free(seen);
      return TSR_RAISE(TSR_ERR_ARG, "lulesh: the %s permutation is not a permutation of 0..%d",
                       what, n - 1);
    }
    seen[p[i]] = 1;
  }
  free(seen);
  return 0;
}

int lulesh_mesh_permute(const lulesh_mesh_t *m, const int32_t *ep, const int32_t *np,
                        lulesh_mesh_t *o) {
  memset(o, 0, sizeof *o);
  TSR_CALL(check_perm(ep, m->num_elem, "element"));
  TSR_CALL(check_perm(np, m->num_node, "node"));
  o->num_elem = m->num_elem;
  o->num_node = m->num_node;
  o->num_symm_x = m->num_symm_x;
  o->num_symm_y = m->num_symm_y;
  o->num_symm_z = m->num_symm_z;
  o->num_reg = m->num_reg;
  o->num_ghost = m->num_ghost;
  int rc = mesh_alloc(o);
  if (rc) {
    lulesh_mesh_free(o);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  for (int32_t n = 0; n < m->num_node; n++) {
    o->x[np[n]] = m->x[n];
    o->y[np[n]] = m->y[n];
    o->z[np[n]] = m->z[n];
  }
  const int32_t *fi[6] = {m->lxim, m->lxip, m->letam, m->letap, m->lzetam, m->lzetap};
  int32_t *fo[6] = {o->lxim, o->lxip, o->letam, o->letap, o->lzetam, o->lzetap};
  for (int32_t e = 0; e < m->num_elem; e++) {
    int32_t d = ep[e];
    for (int i = 0; i < 8; i++) o->nodelist[8 * (int64_t)d + i] = np[m->nodelist[8 * (int64_t)e + i]];
    for (int f = 0; f < 6; f++) /* a ghost (num_elem and up) keeps its number */
      fo[f][d] = fi[f][e] < m->num_elem ? ep[fi[f][e]] : fi[f][e];
    o->elem_bc[d] = m->elem_bc[e];
    o->reg_num[d] = m->reg_num[e];
  }
  for (int32_t i = 0; i < m->num_symm_x; i++) o->symm_x[i] = np[m->symm_x[i]];
  for (int32_t i = 0; i < m->num_symm_y; i++) o->symm_y[i] = np[m->symm_y[i]];
  for (int32_t i = 0; i < m->num_symm_z; i++) o->symm_z[i] = np[m->symm_z[i]];
  o->origin = m->origin >= 0 ? ep[m->origin] : -1;
  o->einit = m->einit;
  o->edge = m->edge;
  rc = lulesh_mesh_build_csr(o);
  if (rc) lulesh_mesh_free(o);
  return rc;
}
