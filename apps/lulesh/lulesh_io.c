/* apps/lulesh/lulesh_io.c: tsr-lulesh's files: the mesh from --input (a
 * hex-mesh file, docs/FORMAT.md) or LULESH's generated cube, and -o, the
 * final state in the hex-mesh kind with its results and an XDMF sidecar
 * (Hexahedron topology) for ParaView or VisIt. */
#include "config.h"
#include "tessera.h"
#include "apps/lulesh/lulesh_app.h"
#include "kernels/lulesh/lulesh_io.h"

#include <limits.h>
#include <stdio.h>

/* -s, -r and -b are unset (INT_MIN) until parsed, so that they can be told
 * apart from their defaults. */
void lulesh_io_opts_begin(lulesh_opts_t *o) { o->edge = o->regions = o->balance = INT_MIN; }

int lulesh_io_opts_end(MPI_Comm comm, lulesh_opts_t *o, const char *input, const char *output) {
  if (input) {
    const char *given = o->edge != INT_MIN ? "-s" : o->regions != INT_MIN ? "-r"
                        : o->balance != INT_MIN ? "-b" : NULL;
    TSR_CHECK(!given, TSR_ERR_ARG,
              "option %s: the mesh comes from --input %s (its size and regions are the "
              "file's); %s applies to the generated cube only", given, input, given);
  } else {
    if (o->edge == INT_MIN) o->edge = 30;
    if (o->regions == INT_MIN) o->regions = 11;
    if (o->balance == INT_MIN) o->balance = 1;
  }
  TSR_CALL(tsr_output_check(comm, "-o", output));
  return TSR_SUCCESS;
}

int lulesh_io_mesh(MPI_Comm comm, const char *input, int quiet, lulesh_opts_t *o,
                   lulesh_mesh_t *mesh) {
  if (!input) TSR_CALL(lulesh_mesh_sedov(mesh, o->edge, o->regions, o->balance));
  if (!input) return TSR_SUCCESS;
  tsr_hex_header_t h;
  TSR_CALL(lulesh_mesh_read(comm, input, mesh, &h));
  /* the file's problem: its cube edge (0 when not a generated cube) and
   * regions, for LULESH's reference check and report */
  o->edge = h.edge;
  o->regions = h.regions;
  o->balance = h.balance;
  if (!quiet)
    printf("Mesh from %s: %d elements, %d nodes, %d regions, origin element %d%s\n", input,
           mesh->num_elem, mesh->num_node, mesh->num_reg, mesh->origin,
           h.edge > 0 ? "" : " (not a generated cube: no LULESH reference)");
  return TSR_SUCCESS;
}

/* The final state as a hex mesh: the mesh's arrays with the final node
 * coordinates, the element fields e, p, q, v (relative volume), the node
 * velocities, and the run's results as constants. */
static int state_mesh(const lulesh_mesh_t *mesh, const lulesh_state_t *s, tsr_mesh_t **out,
                      tsr_hex_header_t *h) {
  tsr_mesh_t *t = NULL;
  TSR_CALL(lulesh_mesh_to_tsr(mesh, &t, h));
  *out = t;
  int ie = tsr_mesh_find_set(t, TSR_HEX_ELEMS), in = tsr_mesh_find_set(t, TSR_HEX_NODES);
  double *x = tsr_mesh_dat(t, tsr_mesh_find_dat(t, TSR_HEX_COORDS))->data;
  for (int32_t n = 0; n < s->num_node; n++)
    x[3 * n] = s->x[n], x[3 * n + 1] = s->y[n], x[3 * n + 2] = s->z[n];
  const char *names[4] = {"e", "p", "q", "v"};
  const double *f[4] = {s->e, s->p, s->q, s->v};
  for (int k = 0; k < 4; k++)
    TSR_CALL(tsr_mesh_add_dat(t, names[k], ie, 1, TSR_DOUBLE, (void *)f[k], TSR_COPY, NULL));
  int iv;
  TSR_CALL(tsr_mesh_add_dat(t, "velocity", in, 3, TSR_DOUBLE, NULL, TSR_COPY, &iv));
  double *v = tsr_mesh_dat(t, iv)->data;
  for (int32_t n = 0; n < s->num_node; n++)
    v[3 * n] = s->xd[n], v[3 * n + 1] = s->yd[n], v[3 * n + 2] = s->zd[n];
  double tot = 0.0;
  for (int32_t e = 0; e < s->num_elem; e++) tot += s->e[e];
  double res[4] = {s->time, (double)s->cycle, s->e[mesh->origin], tot};
  const char *rn[4] = {"time", "cycles", "e_origin", "e_total"};
  for (int k = 0; k < 4; k++) TSR_CALL(tsr_mesh_add_const(t, rn[k], 1, &res[k], NULL));
  return TSR_SUCCESS;
}

int lulesh_io_write(MPI_Comm comm, const char *path, const lulesh_mesh_t *mesh,
                    const lulesh_state_t *s, const lulesh_opts_t *o, const tsr_cli_t *cli,
                    const char *variant) {
  tsr_mesh_t *t = NULL;
  tsr_hex_header_t h;
  int rc = state_mesh(mesh, s, &t, &h);
  h.balance = o->balance;
  h.edge = 0; /* deformed coordinates: no longer the generated cube */
  tsr_provenance_t prov = {"tsr-lulesh", variant, "cpu", cli->command_line, 0};
  if (!rc) rc = tsr_hex_write(comm, path, t, &h, &prov);
  if (!rc) rc = tsr_xdmf_write_hex(comm, path, t);
  tsr_mesh_destroy(&t);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
