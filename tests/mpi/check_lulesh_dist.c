/* check_lulesh_dist: the distributed LULESH problem (kernels/lulesh/
 * lulesh_dist.h) at the rank count it runs under, against the whole cube
 * built on every rank:
 * - the parts (METIS; block; the cube decomposition where the rank count
 *   is a cube): every global element owned once; nodes, coordinates, corner
 *   order, face neighbours, boundary flags (COMM exactly where the
 *   neighbour is on another rank), symmetry sets and, for METIS and block,
 *   regions equal the whole cube's; the origin on one rank; block's boxes:
 *   the grid with the fewest interface nodes (lulesh_block_dims against
 *   every factorisation), box edges differing by at most one, on a cube
 *   rank count the cube decomposition's parts; the interface nodes counted
 *   by their owners are the nodes two or more ranks hold; on several
 *   ranks each part numbered boundary first (check_numbering: the sent
 *   elements, the other boundary elements, the interior; the shared nodes,
 *   the others; each group in global order), so that each part of the split
 *   below is a run of consecutive numbers;
 * - the exchanges: ghost gradients equal their owners' values; the node sum
 *   of each part's corner counts is every node's global corner count, the
 *   same bits on every copy;
 * - runs: the Sedov problem on the parts gives the serial run's cycle count,
 *   e(0) and total energy within REL_TOL, node positions and velocities
 *   within REL_TOL of the serial ones and the same bits on every copy of a
 *   shared node;
 * - the split for overlapped GPU steps (lulesh_split_t): each list a
 *   permutation, each part increasing; the first nodes exactly the nodes
 *   other ranks hold too, the first elements exactly those touching one of
 *   them, the sent elements exactly those that are ghosts on another rank
 *   (found here from every rank's global ids), all among the first
 *   elements; for the cube decomposition the counts of each box's faces;
 * - errors: a cube decomposition on a non-cube rank count, block on more
 *   ranks than elements along every cut, fail on every rank with one
 *   message; a VolumeError on one rank ends the step on every
 *   rank with that rank's message (no hang).
 *
 * REL_TOL: the rank count changes only the order in which the forces (and
 * the initial nodal masses) of a shared node are summed: each rank's
 * partial sum over its own elements, then the partial sums, instead of one
 * sum over all elements in global order. That is a rounding difference of
 * a few ulp per shared node per cycle, which the blast wave carries and
 * amplifies over the cycles. Measured on -s 6 to completion (METIS, block;
 * and the cube decomposition -s 3 at 8 ranks) at 2, 3, 4 and 8 ranks: e(0) and
 * the total energy within 1.1e-15 relative, positions within 4e-16 and
 * velocities within 3.1e-15 of the largest value; the test allows 1e-10,
 * orders above that rounding and far below any exchange error (a missed
 * ghost or force contribution moves e(0) in the third digit). */
#include "config.h"
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "lulesh_check.h"

#define REL_TOL 1e-10
#define EDGE 6

static int g_rank, g_size;

static int count_owned_by_all(const lulesh_mesh_t *m, const int64_t *eg, int64_t nglob,
                              int *dup) {
  int *own = calloc((size_t)nglob, sizeof *own);
  for (int32_t e = 0; e < m->num_elem; e++) own[eg[e]]++;
  MPI_Allreduce(MPI_IN_PLACE, own, (int)nglob, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int bad = 0;
  for (int64_t i = 0; i < nglob; i++) bad += own[i] != 1;
  free(own);
  *dup = bad;
  return 0;
}

/* The numbering of a part on several ranks (the overlapped step's split
 * sp): the elements sent as ghosts, the other elements touching a shared
 * node, the interior, each group in increasing global id; the shared nodes,
 * then the others, likewise; so every part of the split is a run of
 * consecutive numbers (each list the identity). One rank: global order. */
static void check_numbering(const lulesh_mesh_t *m, const int64_t *eg, const int64_t *ng,
                            const lulesh_split_t *sp) {
  if (g_size == 1) {
    for (int32_t e = 1; e < m->num_elem; e++) REQUIRE(eg[e] > eg[e - 1], "elements not in global order");
    for (int32_t n = 1; n < m->num_node; n++) REQUIRE(ng[n] > ng[n - 1], "nodes not in global order");
    return;
  }
  REQ_EQ(sp->num_elem, m->num_elem);
  REQ_EQ(sp->num_node, m->num_node);
  REQUIRE(sp->num_send <= sp->num_bnd, "more sent elements than boundary elements");
  for (int32_t e = 0; e < m->num_elem; e++) {
    REQ_EQ(sp->elem[e], e);
    REQ_EQ(sp->kin[e], e);
    const int same = e > 0 && (e < sp->num_send) == (e - 1 < sp->num_send) &&
                     (e < sp->num_bnd) == (e - 1 < sp->num_bnd);
    if (same) REQUIRE(eg[e] > eg[e - 1], "a group of elements not in increasing global id");
  }
  for (int32_t n = 0; n < m->num_node; n++) {
    REQ_EQ(sp->node[n], n);
    if (n > 0 && (n < sp->num_shared) == (n - 1 < sp->num_shared))
      REQUIRE(ng[n] > ng[n - 1], "a group of nodes not in increasing global id");
  }
}

/* The part m (global ids eg, ng) against the whole cube g. */
static void check_part(const lulesh_mesh_t *m, const int64_t *eg, const int64_t *ng,
                       const lulesh_mesh_t *g, int regions_global) {
  int dup;
  count_owned_by_all(m, eg, g->num_elem, &dup);
  REQ_EQ(dup, 0);
  int has = m->origin >= 0, n = 0;
  MPI_Allreduce(&has, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  REQ_EQ(n, 1);
  if (has) REQ_EQ(eg[m->origin], g->origin);
  REQ_DEQ(m->einit, g->einit);
  const int32_t *fl[6] = {m->lxim, m->lxip, m->letam, m->letap, m->lzetam, m->lzetap};
  const int32_t *fg[6] = {g->lxim, g->lxip, g->letam, g->letap, g->lzetam, g->lzetap};
  for (int32_t e = 0; e < m->num_elem; e++) {
    int64_t G = eg[e];
    for (int c = 0; c < 8; c++) REQ_EQ(ng[m->nodelist[8 * e + c]], g->nodelist[8 * G + c]);
    int bc = g->elem_bc[G];
    for (int f = 0; f < 6; f++) {
      int32_t l = fl[f][e];
      REQ_EQ(eg[l], fg[f][G]);
      if (l >= m->num_elem) bc |= LULESH_XI_M_COMM << (3 * f);
    }
    REQ_EQ(m->elem_bc[e], bc);
    if (regions_global) REQ_EQ(m->reg_num[e], g->reg_num[G]);
  }
  for (int32_t i = 0; i < m->num_node; i++) {
    REQ_DEQ(m->x[i], g->x[ng[i]]);
    REQ_DEQ(m->y[i], g->y[ng[i]]);
    REQ_DEQ(m->z[i], g->z[ng[i]]);
  }
  /* symmetry sets: exactly the local nodes of the global sets */
  const int32_t *sl[3] = {m->symm_x, m->symm_y, m->symm_z}, *sg[3] = {g->symm_x, g->symm_y, g->symm_z};
  int32_t nl[3] = {m->num_symm_x, m->num_symm_y, m->num_symm_z};
  int32_t ngl[3] = {g->num_symm_x, g->num_symm_y, g->num_symm_z};
  for (int d = 0; d < 3; d++) {
    char *in = calloc((size_t)g->num_node, 1);
    for (int32_t i = 0; i < ngl[d]; i++) in[sg[d][i]] = 1;
    int32_t want = 0;
    for (int32_t i = 0; i < m->num_node; i++) want += in[ng[i]];
    REQ_EQ(nl[d], want);
    for (int32_t i = 0; i < nl[d]; i++) REQUIRE(in[ng[sl[d][i]]], "symm node not on the plane");
    free(in);
  }
}

START_TEST(test_parts_metis) {
  lulesh_mesh_t g, m;
  lulesh_dist_t *d;
  ck_tsr(lulesh_mesh_sedov(&g, EDGE, 11, 1));
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_METIS, EDGE, 11, 1, &m, &d));
  lulesh_dist_info_t in;
  lulesh_dist_info(d, &in);
  REQ_EQ(in.edge, EDGE);
  REQ_EQ(in.num_elem, EDGE * EDGE * EDGE);
  check_part(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), &g, 1);
  check_numbering(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), lulesh_dist_exchange(d)->split);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}
END_TEST

START_TEST(test_parts_cube) {
  int p = (int)lround(cbrt((double)g_size));
  lulesh_mesh_t m;
  lulesh_dist_t *d;
  if (p * p * p != g_size) { /* the agreed error, on every rank */
    ck_tsr_fails(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_CUBE, 3, 11, 1, &m, &d),
                 TSR_ERR_ARG);
    return;
  }
  lulesh_mesh_t g;
  ck_tsr(lulesh_mesh_sedov(&g, 3 * p, 11, 1));
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_CUBE, 3, 11, 1, &m, &d));
  REQ_EQ(m.num_elem, 27);
  check_part(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), &g, g_size == 1);
  check_numbering(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), lulesh_dist_exchange(d)->split);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}
END_TEST

/* block's grid: the factorisation with the fewest interface nodes (ties:
 * more ranks along z, then y), none with more ranks than elements along an
 * axis; the boxes tile the cube with edges differing by at most one. */
START_TEST(test_block_dims) {
  const int cases[][5] = {{1, 5, 1, 1, 1},   {2, 189, 1, 1, 2}, {8, 6, 2, 2, 2},
                          {27, 9, 3, 3, 3},  {4, 10, 1, 2, 2},  {12, 10, 2, 2, 3},
                          {6, 8, 1, 2, 3},   {7, 7, 1, 1, 7},   {64, 8, 4, 4, 4}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int d[3];
    ck_tsr(lulesh_block_dims(cases[c][0], cases[c][1], d));
    ck_assert_msg(d[0] == cases[c][2] && d[1] == cases[c][3] && d[2] == cases[c][4],
                  "%d ranks, edge %d: %d x %d x %d, expected %d x %d x %d", cases[c][0],
                  cases[c][1], d[0], d[1], d[2], cases[c][2], cases[c][3], cases[c][4]);
  }
  /* against every factorisation, for many rank counts and edges */
  for (int P = 1; P <= 40; P++)
    for (int E = 1; E <= 12; E++) {
      int d[3], best = -1;
      int64_t n1 = E + 1, bc = 0;
      for (int x = 1; x <= P; x++)
        for (int y = 1; x * y <= P; y++) {
          if (P % (x * y) || x > E || y > E || P / (x * y) > E) continue;
          int64_t c = n1 * n1 * n1 - (n1 - x + 1) * (n1 - y + 1) * (n1 - P / (x * y) + 1);
          if (best < 0 || c < bc) best = 1, bc = c;
        }
      int rc = lulesh_block_dims(P, E, d);
      if (best < 0) {
        ck_assert_int_eq(rc, TSR_ERR_ARG);
        ck_assert_msg(strstr(tsr_error_message(), "cannot cut") != NULL, "%s", tsr_error_message());
        tsr_error_clear();
        continue;
      }
      ck_tsr(rc);
      ck_assert_int_eq(d[0] * d[1] * d[2], P);
      ck_assert(d[0] <= E && d[1] <= E && d[2] <= E);
      int64_t c = n1 * n1 * n1 - (n1 - d[0] + 1) * (n1 - d[1] + 1) * (n1 - d[2] + 1);
      ck_assert_int_eq(c, bc);
      int64_t vol = 0, lo[3], hi[3], mn[3] = {E, E, E}, mx[3] = {0, 0, 0};
      for (int r = 0; r < P; r++) {
        lulesh_block_box(E, d, r, lo, hi);
        for (int a = 0; a < 3; a++) {
          ck_assert(lo[a] >= 0 && hi[a] <= E && hi[a] > lo[a]);
          mn[a] = hi[a] - lo[a] < mn[a] ? hi[a] - lo[a] : mn[a];
          mx[a] = hi[a] - lo[a] > mx[a] ? hi[a] - lo[a] : mx[a];
        }
        vol += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
      }
      ck_assert_int_eq(vol, (int64_t)E * E * E);
      for (int a = 0; a < 3; a++) ck_assert(mx[a] - mn[a] <= 1);
    }
}
END_TEST

START_TEST(test_parts_block) {
  lulesh_mesh_t g, m;
  lulesh_dist_t *d;
  int dm[3];
  if (lulesh_block_dims(g_size, EDGE, dm) != 0) { /* the agreed error, on every rank */
    tsr_error_clear();
    ck_tsr_fails(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_BLOCK, EDGE, 11, 1, &m, &d),
                 TSR_ERR_ARG);
    return;
  }
  ck_tsr(lulesh_mesh_sedov(&g, EDGE, 11, 1));
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_BLOCK, EDGE, 11, 1, &m, &d));
  lulesh_dist_info_t in;
  lulesh_dist_info(d, &in);
  REQ_EQ(in.edge, EDGE);
  int64_t lo[3], hi[3];
  lulesh_block_box(EDGE, dm, g_rank, lo, hi);
  REQ_EQ(m.num_elem, (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
  check_part(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), &g, 1);
  check_numbering(&m, lulesh_dist_elem_gid(d), lulesh_dist_node_gid(d), lulesh_dist_exchange(d)->split);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
  /* a cube rank count: the cube decomposition's parts (-s 3 per rank) */
  const int p = (int)lround(cbrt((double)g_size));
  if (p * p * p == g_size) {
    lulesh_mesh_t mc;
    lulesh_dist_t *dc;
    ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_BLOCK, 3 * p, 11, 1, &m, &d));
    ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_CUBE, 3, 11, 1, &mc, &dc));
    REQ_EQ(m.num_elem, mc.num_elem);
    REQ_EQ(m.num_ghost, mc.num_ghost);
    REQ_EQ(m.num_node, mc.num_node);
    const int64_t *a = lulesh_dist_elem_gid(d), *b = lulesh_dist_elem_gid(dc);
    for (int32_t e = 0; e < m.num_elem + m.num_ghost; e++) REQ_EQ(a[e], b[e]);
    for (int64_t k = 0; k < 8 * (int64_t)m.num_elem; k++) REQ_EQ(m.nodelist[k], mc.nodelist[k]);
    lulesh_dist_destroy(&dc);
    lulesh_mesh_free(&mc);
    lulesh_dist_destroy(&d);
    lulesh_mesh_free(&m);
  }
}
END_TEST

/* lulesh_dist_create(dec, size) fails with TSR_ERR_ARG and a message
   holding text, on every rank. */
static void check_refused(lulesh_decomp_t dec, int size, const char *text) {
  lulesh_mesh_t m;
  lulesh_dist_t *d;
  int rc = lulesh_dist_create(MPI_COMM_WORLD, dec, size, 11, 1, &m, &d);
  ck_assert_int_eq(rc, TSR_ERR_ARG);
  ck_assert_msg(strstr(tsr_error_message(), text) != NULL, "%s", tsr_error_message());
  tsr_error_clear();
}

START_TEST(test_block_refused) {
  if (g_size == 1) return;
  /* an edge of one element: every factorisation has a factor above 1 */
  check_refused(LULESH_DECOMP_BLOCK, 1, "cannot cut a cube of edge 1");
}
END_TEST

START_TEST(test_cube_refused) {
  if (g_size == 1 || g_size == 8) return;
  check_refused(LULESH_DECOMP_CUBE, 3, "cube number of ranks");
}
END_TEST

/* 1 when list[n] is a permutation of 0 .. n-1 increasing on [0, k) and on
 * [k, n). */
static int split_perm(const int32_t *list, int32_t n, int32_t k) {
  char *seen = calloc((size_t)n + 1, 1);
  int ok = seen && k >= 0 && k <= n;
  for (int32_t i = 0; ok && i < n; i++) {
    ok = list[i] >= 0 && list[i] < n && !seen[list[i]];
    if (ok) seen[list[i]] = 1;
    if (ok && i > 0 && i != k) ok = list[i] > list[i - 1];
  }
  free(seen);
  return ok;
}

static void check_split(lulesh_decomp_t dec, int size) {
  lulesh_mesh_t m;
  lulesh_dist_t *d;
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, dec, size, 11, 1, &m, &d));
  lulesh_dist_info_t in;
  lulesh_dist_info(d, &in);
  const lulesh_split_t *sp = lulesh_dist_exchange(d)->split;
  REQUIRE(sp != NULL, "no split");
  REQ_EQ(sp->num_elem, m.num_elem);
  REQ_EQ(sp->num_node, m.num_node);
  REQUIRE(split_perm(sp->elem, sp->num_elem, sp->num_bnd), "elem is not a split permutation");
  REQUIRE(split_perm(sp->node, sp->num_node, sp->num_shared), "node is not a split permutation");
  REQUIRE(split_perm(sp->kin, sp->num_elem, sp->num_send), "kin is not a split permutation");
  REQ_EQ(sp->num_shared, in.num_shared);
  REQ_EQ(sp->num_send, in.num_send_elem);
  /* holders of every global node, ghost copies of every global element */
  const int64_t E = in.edge, nng = (E + 1) * (E + 1) * (E + 1), neg = E * E * E;
  int *hold = calloc((size_t)nng, sizeof *hold), *ghost = calloc((size_t)neg, sizeof *ghost);
  const int64_t *ngid = lulesh_dist_node_gid(d), *egid = lulesh_dist_elem_gid(d);
  for (int32_t i = 0; i < m.num_node; i++) hold[ngid[i]]++;
  for (int32_t g = 0; g < m.num_ghost; g++) ghost[egid[m.num_elem + g]]++;
  MPI_Allreduce(MPI_IN_PLACE, hold, (int)nng, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, ghost, (int)neg, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int bad_node = 0, bad_elem = 0, bad_send = 0, send_outside = 0;
  char *first = calloc((size_t)m.num_elem + 1, 1);
  for (int32_t k = 0; k < sp->num_node; k++)
    bad_node += (hold[ngid[sp->node[k]]] > 1) != (k < sp->num_shared);
  for (int32_t k = 0; k < sp->num_elem; k++) {
    const int32_t e = sp->elem[k];
    int touches = 0;
    for (int i = 0; i < 8; i++) touches |= hold[ngid[m.nodelist[8 * e + i]]] > 1;
    bad_elem += touches != (k < sp->num_bnd);
    first[e] = k < sp->num_bnd;
  }
  for (int32_t k = 0; k < sp->num_elem; k++) {
    const int32_t e = sp->kin[k];
    bad_send += (ghost[egid[e]] > 0) != (k < sp->num_send);
    send_outside += k < sp->num_send && !first[e];
  }
  int64_t iface = 0, owned = in.num_shared_owned;
  for (int64_t i = 0; i < nng; i++) iface += hold[i] > 1;
  MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  REQ_EQ(owned, iface);
  if (dec == LULESH_DECOMP_BLOCK) { /* the nodes on the grid's inner cut planes */
    int dm[3];
    ck_tsr(lulesh_block_dims(g_size, (int)E, dm));
    REQ_EQ(iface, (E + 1) * (E + 1) * (E + 1) -
                      (E + 2 - dm[0]) * (E + 2 - dm[1]) * (E + 2 - dm[2]));
  }
  REQ_EQ(bad_node, 0);
  REQ_EQ(bad_elem, 0);
  REQ_EQ(bad_send, 0);
  REQ_EQ(send_outside, 0);
  if (g_size > 1) REQUIRE(tsr_test_all(sp->num_bnd > 0), "a rank without boundary elements");
  if (g_size > 1)
    REQUIRE(tsr_test_all(sp->num_bnd < sp->num_elem || dec == LULESH_DECOMP_METIS),
            "a box without interior elements");
  if (dec == LULESH_DECOMP_CUBE) { /* box faces shared with neighbour boxes */
    const int p = (int)lround(cbrt((double)g_size)), c[3] = {g_rank % p, (g_rank / p) % p,
                                                             g_rank / (p * p)};
    int64_t ie = 1, in_ = 1, n = size;
    for (int a = 0; a < 3; a++) {
      const int lo = c[a] > 0, hi = c[a] < p - 1;
      ie *= n - lo - hi, in_ *= n + 1 - lo - hi;
    }
    REQ_EQ(sp->num_bnd, n * n * n - ie);
    REQ_EQ(sp->num_send, n * n * n - ie);
    REQ_EQ(sp->num_shared, (n + 1) * (n + 1) * (n + 1) - in_);
  }
  if (g_rank == 0)
    printf("split %s -s %d, %d ranks, rank 0: %d of %d elements touch shared nodes, %d sent, "
           "%d of %d nodes shared\n", lulesh_decomp_name(dec), size, g_size, sp->num_bnd,
           sp->num_elem, sp->num_send, sp->num_shared, sp->num_node);
  free(first), free(hold), free(ghost);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
}

START_TEST(test_split_metis) {
  check_split(LULESH_DECOMP_METIS, EDGE);
  check_split(LULESH_DECOMP_METIS, 10);
}
END_TEST

START_TEST(test_split_block) {
  int dm[3];
  if (lulesh_block_dims(g_size, 10, dm) == 0) check_split(LULESH_DECOMP_BLOCK, 10);
  tsr_error_clear();
}
END_TEST

START_TEST(test_split_cube) {
  int p = (int)lround(cbrt((double)g_size));
  if (p * p * p == g_size) check_split(LULESH_DECOMP_CUBE, 4);
}
END_TEST

START_TEST(test_exchanges) {
  lulesh_mesh_t g, m;
  lulesh_dist_t *d;
  ck_tsr(lulesh_mesh_sedov(&g, EDGE, 11, 1));
  ck_tsr(lulesh_dist_create(MPI_COMM_WORLD, LULESH_DECOMP_METIS, EDGE, 11, 1, &m, &d));
  const lulesh_exchange_t *ex = lulesh_dist_exchange(d);
  const int64_t *eg = lulesh_dist_elem_gid(d), *ng = lulesh_dist_node_gid(d);
  int32_t ne = m.num_elem, nt = ne + m.num_ghost, nn = m.num_node;
  double *a[3], *c[3];
  for (int k = 0; k < 3; k++) {
    a[k] = malloc(sizeof(double) * (size_t)nt);
    c[k] = calloc((size_t)nn, sizeof(double));
    for (int32_t e = 0; e < nt; e++) a[k][e] = e < ne ? 1.5 * (double)eg[e] + k : -1.0;
  }
  ck_tsr(ex->elem_ghosts(ex->ctx, NULL, 3, a));
  for (int k = 0; k < 3; k++)
    for (int32_t e = ne; e < nt; e++) REQ_DEQ(a[k][e], 1.5 * (double)eg[e] + k);
  for (int32_t e = 0; e < ne; e++)
    for (int q = 0; q < 8; q++)
      for (int k = 0; k < 3; k++) c[k][m.nodelist[8 * e + q]] += 1.0 + k;
  ck_tsr(ex->node_sum(ex->ctx, NULL, 3, c));
  for (int32_t i = 0; i < nn; i++) {
    double want = (double)(g.node_elem_start[ng[i] + 1] - g.node_elem_start[ng[i]]);
    for (int k = 0; k < 3; k++) REQ_DEQ(c[k][i], want * (1.0 + k));
  }
  double diff;
  ck_tsr(lulesh_dist_node_copy_diff(d, 3, c, &diff));
  REQ_DEQ(diff, 0.0);
  double v[2] = {(double)g_rank, 1.0};
  ck_tsr(ex->min(ex->ctx, 2, v));
  REQ_DEQ(v[0], 0.0);
  ck_tsr(ex->sum(ex->ctx, 2, v));
  REQ_DEQ(v[1], (double)g_size);
  for (int k = 0; k < 3; k++) free(a[k]), free(c[k]);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}
END_TEST

/* The serial run of the whole cube against the distributed one. */
static void compare_run(lulesh_decomp_t dec, int size, int gedge, int its) {
  lulesh_mesh_t g, m;
  lulesh_state_t sg, sd;
  lulesh_result_t rg, rd;
  lulesh_dist_t *d;
  lulesh_test_serial_run(gedge, its, &g, &sg, &rg);
  lulesh_test_dist_state(dec, size, &m, &d, &sd);
  ck_tsr(lulesh_run(&sd, its, &rd));
  REQ_EQ(rd.cycles, rg.cycles);
  double de = lulesh_test_rel(rd.e_origin, rg.e_origin), dt = lulesh_test_rel(rd.e_total, rg.e_total);
  double dx = 0, dv = 0;
  double xmax = 0, vmax = 0;
  for (int32_t n = 0; n < g.num_node; n++) {
    xmax = fmax(xmax, fabs(sg.x[n]));
    vmax = fmax(vmax, fmax(fabs(sg.xd[n]), fmax(fabs(sg.yd[n]), fabs(sg.zd[n]))));
  }
  const int64_t *ng = lulesh_dist_node_gid(d);
  for (int32_t i = 0; i < m.num_node; i++) {
    int64_t G = ng[i];
    dx = fmax(dx, fmax(fabs(sd.x[i] - sg.x[G]), fmax(fabs(sd.y[i] - sg.y[G]), fabs(sd.z[i] - sg.z[G]))));
    dv = fmax(dv, fmax(fabs(sd.xd[i] - sg.xd[G]),
                       fmax(fabs(sd.yd[i] - sg.yd[G]), fabs(sd.zd[i] - sg.zd[G]))));
  }
  double w[2] = {dx / xmax, dv / vmax};
  MPI_Allreduce(MPI_IN_PLACE, w, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double cx, cv;
  lulesh_test_copy_diffs(d, &sd, &cx, &cv);
  if (g_rank == 0)
    printf("%s -s %d, %d ranks, %d cycles: rel diff e(0) %.2e, sum e %.2e, x %.2e, xd %.2e; "
           "copies differ by %g, %g\n",
           lulesh_decomp_name(dec), size, g_size, rd.cycles, de, dt, w[0], w[1], cx, cv);
  REQUIRE(de <= REL_TOL && dt <= REL_TOL, "e(0) rel diff %.3e, sum e %.3e above %.0e", de, dt,
          REL_TOL);
  REQUIRE(w[0] <= REL_TOL && w[1] <= REL_TOL, "positions %.3e, velocities %.3e above %.0e", w[0],
          w[1], REL_TOL);
  REQ_DEQ(cx, 0.0);
  REQ_DEQ(cv, 0.0);
  lulesh_state_free(&sd);
  lulesh_state_free(&sg);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}

START_TEST(test_run_metis) { compare_run(LULESH_DECOMP_METIS, EDGE, EDGE, 0); }
END_TEST

START_TEST(test_run_block) {
  int dm[3];
  if (lulesh_block_dims(g_size, EDGE, dm) == 0) compare_run(LULESH_DECOMP_BLOCK, EDGE, EDGE, 0);
  tsr_error_clear();
}
END_TEST

START_TEST(test_run_cube) {
  int p = (int)lround(cbrt((double)g_size));
  if (p * p * p == g_size) compare_run(LULESH_DECOMP_CUBE, 3, 3 * p, 0);
}
END_TEST

/* A VolumeError on the last rank alone: every rank's step fails with it. */
START_TEST(test_volume_error) {
  lulesh_mesh_t m;
  lulesh_state_t s;
  lulesh_dist_t *d;
  lulesh_test_dist_state(LULESH_DECOMP_METIS, EDGE, &m, &d, &s);
  ck_tsr(lulesh_step(&s));
  lulesh_test_collapse_on_last(&m, &s);
  lulesh_test_volume_error_everywhere(lulesh_step(&s));
  lulesh_state_free(&s);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
}
END_TEST

static Suite *suite(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  Suite *s = suite_create("lulesh_dist");
  TCase *tc = tcase_create("dist");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_parts_metis);
  tcase_add_test(tc, test_parts_cube);
  tcase_add_test(tc, test_parts_block);
  tcase_add_test(tc, test_block_dims);
  tcase_add_test(tc, test_cube_refused);
  tcase_add_test(tc, test_block_refused);
  tcase_add_test(tc, test_exchanges);
  tcase_add_test(tc, test_split_metis);
  tcase_add_test(tc, test_split_block);
  tcase_add_test(tc, test_split_cube);
  tcase_add_test(tc, test_run_metis);
  tcase_add_test(tc, test_run_block);
  tcase_add_test(tc, test_run_cube);
  tcase_add_test(tc, test_volume_error);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, suite); }
