/* lulesh_mkbad DIR: writes hex-mesh files for lulesh_bad.sh: good.h5 (LULESH's
 * cube of edge 2: 8 elements, 27 nodes, through the library's writer) and
 * copies of it broken with plain HDF5 calls, one defect each:
 *   repeated.h5   element 3 names node elem_nodes[3][1] again as corner 5
 *   inverted.h5   element 4 with its bottom and top faces swapped (volume < 0)
 *   noderange.h5  elem_nodes[7][6] = 27 (27 nodes)
 *   facerange.h5  elem_faces[2][1] = 8 (8 elements)
 *   facebc.h5     elem_faces[0][0] = 1 across element 0's SYMM face xi-
 *   facepair.h5   elem_faces[0][1] = 3: element 3 names 2 across its xi-
 *   facenodes.h5  elements 0 and 3 named each other's eta+ and eta- neighbours
 *                 (reciprocal, but they share no face)
 *   nosymm.h5     the symmetry set 'symm_y' removed
 *   nosymmmap.h5  the map 'symm_z_nodes' removed
 *   offplane.h5   symm_x_nodes[0] names a node with x = 1.125
 *   shape.h5      coords of shape [27, 2]
 *   rows.h5       elem_bc with 9 rows (8 elements)
 *   type.h5       elem_nodes stored as doubles
 *   flags.h5      elem_bc[0] with SYMM and FREE on face xi-
 *   region.h5     region[5] = 11 (11 regions)
 *   origin.h5     root attribute origin = 8
 *   kind.h5       root attribute kind = "op2-mesh" */
#include "config.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera.h"
#include "kernels/lulesh/lulesh_io.h"

/* Rewrite dataset `name` (whole) with a new shape/type and data. */
static int redo(hid_t f, const char *name, int rank, hsize_t d0, hsize_t d1, hid_t ft, hid_t mt,
                const void *buf) {
  if (H5Ldelete(f, name, H5P_DEFAULT) < 0) return 1;
  hsize_t dims[2] = {d0, d1};
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  hid_t d = H5Dcreate2(f, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int bad = d < 0 || H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0;
  if (d >= 0) H5Dclose(d);
  H5Sclose(sp);
  return bad;
}

static int get(hid_t f, const char *name, hid_t mt, void *buf) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  int bad = d < 0 || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0;
  if (d >= 0) H5Dclose(d);
  return bad;
}

static int put(hid_t f, const char *name, hid_t mt, const void *buf) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  int bad = d < 0 || H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0;
  if (d >= 0) H5Dclose(d);
  return bad;
}

static int root_attr(hid_t f, const char *name, long long v, const char *s) {
  hid_t root = H5Gopen2(f, "/", H5P_DEFAULT);
  H5Adelete(root, name);
  hid_t sp = H5Screate(H5S_SCALAR), t = s ? H5Tcopy(H5T_C_S1) : H5T_STD_I64LE;
  if (s) H5Tset_size(t, strlen(s) + 1);
  hid_t a = H5Acreate2(root, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  int bad = a < 0 || (s ? H5Awrite(a, t, s) : H5Awrite(a, H5T_NATIVE_LLONG, &v)) < 0;
  if (a >= 0) H5Aclose(a);
  if (s) H5Tclose(t);
  H5Sclose(sp);
  H5Gclose(root);
  return bad;
}

static int breakit(hid_t f, const char *which) {
  int32_t conn[8][8], faces[8][6], bc[9], reg[8];
  double x[27][3];
  if (get(f, "elem_nodes", H5T_NATIVE_INT32, conn) || get(f, "elem_faces", H5T_NATIVE_INT32, faces) ||
      get(f, "elem_bc", H5T_NATIVE_INT32, bc) || get(f, "region", H5T_NATIVE_INT32, reg) ||
      get(f, "coords", H5T_NATIVE_DOUBLE, x))
    return 1;
  if (!strcmp(which, "repeated")) {
    conn[3][5] = conn[3][1];
    return put(f, "elem_nodes", H5T_NATIVE_INT32, conn);
  }
  if (!strcmp(which, "inverted")) {
    for (int i = 0; i < 4; i++) {
      int32_t t = conn[4][i];
      conn[4][i] = conn[4][i + 4], conn[4][i + 4] = t;
    }
    return put(f, "elem_nodes", H5T_NATIVE_INT32, conn);
  }
  if (!strcmp(which, "noderange")) {
    conn[7][6] = 27;
    return put(f, "elem_nodes", H5T_NATIVE_INT32, conn);
  }
  if (!strcmp(which, "facerange")) {
    faces[2][1] = 8;
    return put(f, "elem_faces", H5T_NATIVE_INT32, faces);
  }
  if (!strcmp(which, "facebc")) {
    faces[0][0] = 1;
    return put(f, "elem_faces", H5T_NATIVE_INT32, faces);
  }
  if (!strcmp(which, "facepair")) {
    faces[0][1] = 3;
    return put(f, "elem_faces", H5T_NATIVE_INT32, faces);
  }
  if (!strcmp(which, "facenodes")) {
    faces[0][3] = 3, faces[3][2] = 0;
    return put(f, "elem_faces", H5T_NATIVE_INT32, faces);
  }
  if (!strcmp(which, "nosymm")) return H5Ldelete(f, "symm_y", H5P_DEFAULT) < 0;
  if (!strcmp(which, "nosymmmap")) return H5Ldelete(f, "symm_z_nodes", H5P_DEFAULT) < 0;
  if (!strcmp(which, "offplane")) {
    int32_t s[9];
    if (get(f, "symm_x_nodes", H5T_NATIVE_INT32, s)) return 1;
    s[0] = 2; /* node (i, j, k) = (2, 0, 0): x = 1.125 */
    return put(f, "symm_x_nodes", H5T_NATIVE_INT32, s);
  }
  if (!strcmp(which, "shape"))
    return redo(f, "coords", 2, 27, 2, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, x);
  if (!strcmp(which, "rows")) {
    bc[8] = 0;
    return redo(f, "elem_bc", 2, 9, 1, H5T_STD_I32LE, H5T_NATIVE_INT32, bc);
  }
  if (!strcmp(which, "type")) {
    double dc[64];
    for (int i = 0; i < 64; i++) dc[i] = conn[i / 8][i % 8];
    return redo(f, "elem_nodes", 2, 8, 8, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, dc);
  }
  if (!strcmp(which, "flags")) {
    bc[0] |= 2;
    return put(f, "elem_bc", H5T_NATIVE_INT32, bc);
  }
  if (!strcmp(which, "region")) {
    reg[5] = 11;
    return put(f, "region", H5T_NATIVE_INT32, reg);
  }
  if (!strcmp(which, "origin")) return root_attr(f, "origin", 8, NULL);
  if (!strcmp(which, "kind")) return root_attr(f, "kind", 0, "op2-mesh");
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    fprintf(stderr, "usage: lulesh_mkbad DIR\n");
    return 2;
  }
  static const char *const cases[] = {"repeated", "inverted", "noderange", "facerange", "facebc",
                                      "facepair", "facenodes", "nosymm",   "nosymmmap", "offplane", "shape",     "rows",
                                      "type",     "flags",     "region",   "origin",    "kind"};
  char path[4096];
  lulesh_mesh_t m;
  int rc = lulesh_mesh_sedov(&m, 2, 11, 1);
  snprintf(path, sizeof path, "%s/good.h5", argv[1]);
  if (!rc) rc = lulesh_mesh_write(MPI_COMM_SELF, path, &m, 1, NULL);
  for (size_t i = 0; !rc && i < sizeof cases / sizeof *cases; i++) {
    snprintf(path, sizeof path, "%s/%s.h5", argv[1], cases[i]);
    rc = lulesh_mesh_write(MPI_COMM_SELF, path, &m, 1, NULL);
    hid_t f = rc ? -1 : H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0 || breakit(f, cases[i]) || H5Fclose(f) < 0) {
      fprintf(stderr, "lulesh_mkbad: cannot write %s\n", path);
      rc = 1;
    }
  }
  if (rc) tsr_error_print(stderr);
  lulesh_mesh_free(&m);
  MPI_Finalize();
  return rc ? 1 : 0;
}
