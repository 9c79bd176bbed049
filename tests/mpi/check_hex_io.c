/* check_hex_io: hex-mesh files (tessera/hex.h) at any rank count: a
 * renumbered LULESH cube written by every rank reads back as the same rows
 * (SERIAL on one rank, BLOCK blocks on several), whole on one rank as the
 * same lulesh_mesh_t, and runs bit for bit as the mesh it was written from;
 * an element inverted through a node another rank owns is found and
 * reported identically on every rank; the blocks partition through lib. */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include "tsr_check.h"
#include "kernels/lulesh/lulesh_io.h"

static void tmp_path(char *buf, size_t n, const char *name) {
  tsr_test_tmpname(buf, n, name); /* rank 0's name for everyone */
  MPI_Bcast(buf, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* Once every rank is done with it: the file and its XDMF sidecar removed. */
static void remove_files(const char *path) {
  MPI_Barrier(MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    char xmf[512];
    tsr_xdmf_path(path, xmf, sizeof xmf);
    unlink(path);
    unlink(xmf);
  }
}

/* LULESH's -s 4 cube in *m, written to path by every rank and read back
 * (every rank its block) into *t, *h. */
static void cube_file(const char *path, lulesh_mesh_t *m, tsr_mesh_t **t, tsr_hex_header_t *h) {
  ck_tsr(lulesh_mesh_sedov(m, 4, 11, 1));
  ck_tsr(lulesh_mesh_write(MPI_COMM_WORLD, path, m, 1, NULL));
  ck_tsr(tsr_hex_read(MPI_COMM_WORLD, path, t, h, NULL));
}

/* Rows of the BLOCK (or SERIAL) map or dat named `name` equal rows of full. */
static int same_rows(const tsr_mesh_t *t, const char *name, int is_map, const void *full,
                     size_t row_bytes) {
  int id = is_map ? tsr_mesh_find_map(t, name) : tsr_mesh_find_dat(t, name);
  if (id < 0) return 0;
  int set = is_map ? tsr_mesh_map(t, id)->from : tsr_mesh_dat(t, id)->set;
  const tsr_set_t *s = tsr_mesh_set(t, set);
  const void *data = is_map ? (const void *)tsr_mesh_map(t, id)->data : tsr_mesh_dat(t, id)->data;
  return memcmp(data, (const char *)full + (size_t)s->offset * row_bytes,
                (size_t)s->size * row_bytes) == 0;
}

START_TEST(test_roundtrip) {
  char path[512];
  tmp_path(path, sizeof path, "hex_rt.h5");
  lulesh_mesh_t m, pm, rm;
  ck_tsr(lulesh_mesh_sedov(&m, 4, 11, 1));
  ck_tsr(lulesh_mesh_renumber(&m, LULESH_ORDER_RANDOM, 5, &pm));
  tsr_provenance_t prov = {"check_hex_io", "random", "cpu", "check_hex_io", 0};
  ck_tsr(lulesh_mesh_write(MPI_COMM_WORLD, path, &pm, 1, &prov));
  /* every rank its block */
  tsr_mesh_t *t = NULL, *full = NULL;
  tsr_hex_header_t h, fh;
  tsr_hex_stats_t st;
  ck_tsr(tsr_hex_read(MPI_COMM_WORLD, path, &t, &h, &st));
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  REQ_EQ(tsr_mesh_dist(t), size == 1 ? TSR_MESH_SERIAL : TSR_MESH_BLOCK);
  REQ_EQ(h.origin, pm.origin);
  REQ_EQ(h.regions, 11);
  REQ_EQ(h.edge, 4);
  REQ_EQ(h.balance, 1);
  REQ_DEQ(h.einit, pm.einit);
  REQ_EQ(st.num_elem, 64);
  REQ_EQ(st.num_node, 125);
  ck_assert_double_eq_tol(st.vol_sum, 1.125 * 1.125 * 1.125, 1e-14);
  REQ_DEQ(st.vol_min, st.vol_max);
  REQ_EQ(st.flags[0][0], 16); /* xi- SYMM */
  REQ_EQ(st.flags[1][1], 16); /* xi+ FREE */
  /* the rows against a whole copy converted from the written mesh */
  ck_tsr(lulesh_mesh_to_tsr(&pm, &full, &fh));
  static const struct { const char *name; int is_map; size_t bytes; } obj[] = {
      {TSR_HEX_CONN, 1, 32}, {TSR_HEX_FACES, 1, 24}, {"symm_x_nodes", 1, 4},
      {"symm_y_nodes", 1, 4}, {"symm_z_nodes", 1, 4}, {TSR_HEX_COORDS, 0, 24},
      {TSR_HEX_BC, 0, 4},    {TSR_HEX_REGION, 0, 4}};
  for (size_t k = 0; k < sizeof obj / sizeof *obj; k++) {
    int i = obj[k].is_map ? tsr_mesh_find_map(full, obj[k].name)
                          : tsr_mesh_find_dat(full, obj[k].name);
    const void *data = obj[k].is_map ? (const void *)tsr_mesh_map(full, i)->data
                                     : tsr_mesh_dat(full, i)->data;
    REQUIRE(tsr_test_all(same_rows(t, obj[k].name, obj[k].is_map, data, obj[k].bytes)),
            "'%s': rows differ from the written mesh", obj[k].name);
  }
  /* whole on each rank: the same lulesh mesh, the same run bit for bit */
  ck_tsr(lulesh_mesh_read(MPI_COMM_SELF, path, &rm, NULL));
  REQ_EQ(rm.num_elem, pm.num_elem);
  REQ_EQ(rm.origin, pm.origin);
  REQ_MEM(rm.nodelist, pm.nodelist, 8 * sizeof(int32_t) * (size_t)pm.num_elem);
  REQ_MEM(rm.letap, pm.letap, sizeof(int32_t) * (size_t)pm.num_elem);
  REQ_MEM(rm.symm_y, pm.symm_y, sizeof(int32_t) * (size_t)pm.num_symm_y);
  REQ_MEM(rm.z, pm.z, sizeof(double) * (size_t)pm.num_node);
  REQ_MEM(rm.node_elem_corner, pm.node_elem_corner, 8 * sizeof(int32_t) * (size_t)pm.num_elem);
  lulesh_state_t a, b;
  lulesh_result_t ra, rb;
  ck_tsr(lulesh_state_init(&a, &pm, 1));
  ck_tsr(lulesh_state_init(&b, &rm, 1));
  ck_tsr(lulesh_run(&a, 0, &ra));
  ck_tsr(lulesh_run(&b, 0, &rb));
  REQ_EQ(ra.cycles, rb.cycles);
  REQUIRE(ra.e_origin == rb.e_origin && ra.e_total == rb.e_total,
          "from the file: e(origin) %.17g, sum %.17g; in memory %.17g, %.17g", rb.e_origin,
          rb.e_total, ra.e_origin, ra.e_total);
  lulesh_state_free(&a);
  lulesh_state_free(&b);
  tsr_mesh_destroy(&t);
  tsr_mesh_destroy(&full);
  lulesh_mesh_free(&rm);
  lulesh_mesh_free(&pm);
  lulesh_mesh_free(&m);
  remove_files(path);
}
END_TEST

/* Element 31's far corner (node 74, also a corner of element 47) pulled
 * through the element: at 2 and 4 ranks the element's rank fetches the node
 * from the rank that owns it, and every rank reports the same first
 * inverted element. */
START_TEST(test_inverted_block) {
  char path[512];
  tmp_path(path, sizeof path, "hex_inv.h5");
  lulesh_mesh_t m;
  tsr_mesh_t *t = NULL;
  tsr_hex_header_t h;
  cube_file(path, &m, &t, &h);
  const int32_t far = m.nodelist[8 * 31 + 6], near = m.nodelist[8 * 31];
  REQ_EQ(far, 74);
  tsr_set_t *ns = tsr_mesh_set(t, tsr_mesh_find_set(t, TSR_HEX_NODES));
  double *x = tsr_mesh_dat(t, tsr_mesh_find_dat(t, TSR_HEX_COORDS))->data;
  if (far >= ns->offset && far < ns->offset + ns->size)
    for (int d = 0; d < 3; d++)
      x[3 * (far - ns->offset) + d] = (d == 0 ? m.x : d == 1 ? m.y : m.z)[near] - 0.5;
  int rc = tsr_hex_check(MPI_COMM_WORLD, "moved", t, &h, NULL);
  REQ_EQ(rc, TSR_ERR_FORMAT);
  REQUIRE(strstr(tsr_error_message(), "element 31 has volume") != NULL, "message: %s",
          tsr_error_message());
  tsr_error_clear();
  tsr_mesh_destroy(&t);
  lulesh_mesh_free(&m);
  remove_files(path);
}
END_TEST

/* The blocks partition unchanged through lib (METIS on the graph of
 * elem_nodes, and of the element-to-element map elem_faces, whose boundary
 * entries name the element itself): every element and node owned once. */
START_TEST(test_partition) {
  char path[512];
  tmp_path(path, sizeof path, "hex_part.h5");
  lulesh_mesh_t m;
  tsr_mesh_t *t = NULL, *p = NULL;
  tsr_hex_header_t h;
  cube_file(path, &m, &t, &h);
  const char *maps[2] = {TSR_HEX_CONN, TSR_HEX_FACES};
  for (int k = 0; k < 2; k++) {
    tsr_mesh_part_opts_t o = {TSR_HEX_ELEMS, maps[k], TSR_PARTITIONER_METIS, NULL};
    ck_tsr(tsr_mesh_partition(MPI_COMM_WORLD, t, &o, &p));
    int64_t own[2] = {tsr_mesh_set(p, tsr_mesh_find_set(p, TSR_HEX_ELEMS))->owned,
                      tsr_mesh_set(p, tsr_mesh_find_set(p, TSR_HEX_NODES))->owned};
    MPI_Allreduce(MPI_IN_PLACE, own, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    REQ_EQ(own[0], 64);
    REQ_EQ(own[1], 125);
    ck_tsr(tsr_mesh_validate(p));
    tsr_mesh_destroy(&p);
  }
  tsr_mesh_destroy(&t);
  lulesh_mesh_free(&m);
  remove_files(path);
}
END_TEST

static Suite *hex_suite(void) {
  Suite *s = suite_create("hex_io");
  TCase *tc = tcase_create("hex");
  tcase_add_test(tc, test_roundtrip);
  tcase_add_test(tc, test_inverted_block);
  tcase_add_test(tc, test_partition);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, hex_suite); }
