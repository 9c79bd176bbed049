/* kernels/airfoil/airfoil_mesh.c: check an Airfoil mesh held in libtessera's
 * mesh structures and expose it to the kernels as an airfoil_problem_t. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tessera/error.h"
#include "kernels/airfoil/airfoil_mesh.h"

static int af_set(const tsr_mesh_t *m, const char *src, const char *name, int64_t *size, int *id) {
  *id = tsr_mesh_find_set(m, name);
  TSR_CHECK(*id >= 0, TSR_ERR_FORMAT, "%s: set '%s' is missing (not an OP2 Airfoil mesh?)", src,
            name);
  *size = tsr_mesh_set(m, *id)->size;
  return 0;
}

static int af_map(const tsr_mesh_t *m, const char *src, const char *name, int from, int to,
                  int dim, const int32_t **data) {
  int id = tsr_mesh_find_map(m, name);
  TSR_CHECK(id >= 0, TSR_ERR_FORMAT, "%s: map '%s' is missing (not an OP2 Airfoil mesh?)", src,
            name);
  const tsr_map_t *mp = tsr_mesh_map(m, id);
  TSR_CHECK(mp->from == from && mp->to == to && mp->dim == dim, TSR_ERR_FORMAT,
            "%s: map '%s' goes %s -> %s with %d columns, expected %s -> %s with %d", src, name,
            tsr_mesh_set(m, mp->from)->name, tsr_mesh_set(m, mp->to)->name, mp->dim,
            tsr_mesh_set(m, from)->name, tsr_mesh_set(m, to)->name, dim);
  *data = mp->data;
  return 0;
}

static int af_dat(const tsr_mesh_t *m, const char *src, const char *name, int set, int dim,
                  tsr_dtype_t type, const void **data) {
  int id = tsr_mesh_find_dat(m, name);
  TSR_CHECK(id >= 0, TSR_ERR_FORMAT, "%s: dat '%s' is missing (not an OP2 Airfoil mesh?)", src,
            name);
  const tsr_dat_t *d = tsr_mesh_dat(m, id);
  TSR_CHECK(d->set == set && d->dim == dim && d->type == type, TSR_ERR_FORMAT,
            "%s: dat '%s' is %s[%d] on set %s, expected %s[%d] on set %s", src, name,
            tsr_dtype_name(d->type), d->dim, tsr_mesh_set(m, d->set)->name,
            tsr_dtype_name(type), dim, tsr_mesh_set(m, set)->name);
  *data = d->data;
  return 0;
}

static int af_const(const tsr_mesh_t *m, const char *src, const char *name, int dim, double *v) {
  int id = tsr_mesh_find_const(m, name);
  TSR_CHECK(id >= 0, TSR_ERR_FORMAT, "%s: constant '%s' is missing", src, name);
  const tsr_const_t *c = tsr_mesh_const(m, id);
  TSR_CHECK(c->dim == dim, TSR_ERR_FORMAT, "%s: constant '%s' has %d values, expected %d", src,
            name, c->dim, dim);
  for (int i = 0; i < dim; i++) v[i] = c->data[i];
  return 0;
}

/* Same position to rounding (relative 1e-9). */
static int af_same_point(const double *a, const double *b) {
  return fabs(a[0] - b[0]) <= 1e-9 * (1 + fabs(a[0])) && fabs(a[1] - b[1]) <= 1e-9 * (1 + fabs(a[1]));
}

/* node is a corner of the cell, by index or by position (the C-mesh's cut
 * line has two nodes at each point, one for each side of the cut). */
static int af_has_corner(const double *x, const int32_t *cell4, int32_t node) {
  for (int k = 0; k < 4; k++) /* -1: a corner this rank does not hold (a halo cell): the */
    if (cell4[k] < 0) return 1; /* rank owning the cell checks it                          */
  for (int k = 0; k < 4; k++)
    if (cell4[k] == node || af_same_point(x + 2 * cell4[k], x + 2 * node)) return 1;
  return 0;
}

int airfoil_problem_from_mesh(const tsr_mesh_t *m, const char *src, airfoil_problem_t *p) {
  memset(p, 0, sizeof *p);
  TSR_CHECK(tsr_mesh_dist(m) != TSR_MESH_BLOCK, TSR_ERR_UNSUPPORTED,
            "%s: the airfoil kernels need a whole or a partitioned mesh, not a block of one", src);
  int nodes, edges, bedges, cells;
  TSR_CALL(af_set(m, src, "nodes", &p->nnode, &nodes));
  TSR_CALL(af_set(m, src, "edges", &p->nedge, &edges));
  TSR_CALL(af_set(m, src, "bedges", &p->nbedge, &bedges));
  TSR_CALL(af_set(m, src, "cells", &p->ncell, &cells));
  const tsr_set_t *sc = tsr_mesh_set(m, cells), *se = tsr_mesh_set(m, edges),
                  *sb = tsr_mesh_set(m, bedges);
  TSR_CHECK(sc->global_size > 0 && tsr_mesh_set(m, nodes)->global_size >= 4, TSR_ERR_FORMAT,
            "%s: %lld cells and %lld nodes: an Airfoil mesh needs at least one cell", src,
            (long long)sc->global_size, (long long)tsr_mesh_set(m, nodes)->global_size);
  TSR_CALL(af_map(m, src, "pedge", edges, nodes, 2, &p->pedge));
  TSR_CALL(af_map(m, src, "pecell", edges, cells, 2, &p->pecell));
  TSR_CALL(af_map(m, src, "pbedge", bedges, nodes, 2, &p->pbedge));
  TSR_CALL(af_map(m, src, "pbecell", bedges, cells, 1, &p->pbecell));
  TSR_CALL(af_map(m, src, "pcell", cells, nodes, 4, &p->pcell));
  TSR_CALL(af_dat(m, src, "p_x", nodes, 2, TSR_DOUBLE, (const void **)&p->x));
  TSR_CALL(af_dat(m, src, "p_q", cells, 4, TSR_DOUBLE, (const void **)&p->q0));
  TSR_CALL(af_dat(m, src, "p_bound", bedges, 1, TSR_INT32, (const void **)&p->bound));
  double one[1];
  TSR_CALL(af_const(m, src, "gam", 1, &p->c.gam));
  TSR_CALL(af_const(m, src, "gm1", 1, &p->c.gm1));
  TSR_CALL(af_const(m, src, "cfl", 1, &p->c.cfl));
  TSR_CALL(af_const(m, src, "eps", 1, &p->c.eps));
  TSR_CALL(af_const(m, src, "mach", 1, one));
  p->c.mach = one[0];
  TSR_CALL(af_const(m, src, "alpha", 1, one));
  p->c.alpha = one[0];
  TSR_CALL(af_const(m, src, "qinf", 4, p->c.qinf));
  TSR_CHECK(p->c.cfl > 0 && p->c.qinf[0] > 0, TSR_ERR_FORMAT,
            "%s: constants cfl = %g and qinf[0] = %g must be positive", src, p->c.cfl,
            p->c.qinf[0]);
  /* What this rank executes (everything for a whole mesh). */
  p->ncell_global = sc->global_size;
  p->ncell_owned = sc->owned;
  p->nedge_exec = se->owned + se->exec_halo;
  p->nbedge_exec = sb->owned + sb->exec_halo;
  p->nedge_core = tsr_mesh_dist(m) == TSR_MESH_PARTITIONED ? tsr_mesh_core_size(m, edges) : p->nedge;
  p->nbedge_core = tsr_mesh_dist(m) == TSR_MESH_PARTITIONED ? tsr_mesh_core_size(m, bedges) : p->nbedge;
  p->comm = MPI_COMM_SELF;

  /* Every map index in range (libtessera's check), with the source named. */
  int rc = tsr_mesh_validate(m);
  if (rc) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tsr_error_message());
    tsr_error_clear();
    return TSR_RAISE(rc, "%s: %s", src, msg);
  }
  const int64_t *eg = se->global_id, *bg = sb->global_id, *cg = sc->global_id;
  for (int64_t n = 0; n < 2 * p->nnode; n++)
    TSR_CHECK(isfinite(p->x[n]), TSR_ERR_FORMAT, "%s: p_x[%lld][%d] is not finite", src,
              (long long)(n / 2), (int)(n % 2));
  /* The maps describe one mesh: each executed edge is a side of both cells
   * it names (its end points are corners of each, by index or by position).
   * Messages give global indices. */
  for (int64_t e = 0; e < p->nedge_exec; e++)
    for (int s = 0; s < 2; s++) {
      const int32_t *c4 = p->pcell + 4 * (int64_t)p->pecell[2 * e + s];
      TSR_CHECK(af_has_corner(p->x, c4, p->pedge[2 * e]) && af_has_corner(p->x, c4, p->pedge[2 * e + 1]),
                TSR_ERR_FORMAT,
                "%s: edge %lld is not a side of its cell %lld (pecell column %d): the edges do "
                "not match the cells",
                src, (long long)(eg ? eg[e] : e), (long long)(cg ? cg[p->pecell[2 * e + s]] : p->pecell[2 * e + s]), s);
    }
  for (int64_t b = 0; b < p->nbedge_exec; b++) {
    const int32_t *c4 = p->pcell + 4 * (int64_t)p->pbecell[b];
    TSR_CHECK(af_has_corner(p->x, c4, p->pbedge[2 * b]) && af_has_corner(p->x, c4, p->pbedge[2 * b + 1]),
              TSR_ERR_FORMAT,
              "%s: boundary edge %lld is not a side of its cell %lld (pbecell): the boundary "
              "edges do not match the cells",
              src, (long long)(bg ? bg[b] : b), (long long)(cg ? cg[p->pbecell[b]] : p->pbecell[b]));
    TSR_CHECK(p->bound[b] == 1 || p->bound[b] == 2, TSR_ERR_FORMAT,
              "%s: p_bound[%lld] = %d, expected 1 (wall) or 2 (far field)", src,
              (long long)(bg ? bg[b] : b), p->bound[b]);
  }
  for (int64_t c = 0; c < p->ncell; c++)
    TSR_CHECK(p->q0[4 * c] > 0 && isfinite(p->q0[4 * c + 3]), TSR_ERR_FORMAT,
              "%s: p_q[%lld] has density %g: the initial state needs positive density", src,
              (long long)(cg ? cg[c] : c), p->q0[4 * c]);
  return 0;
}

int airfoil_mesh_add_consts(tsr_mesh_t *mesh, const airfoil_consts_t *c) {
  TSR_CALL(tsr_mesh_add_const(mesh, "gam", 1, &c->gam, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "gm1", 1, &c->gm1, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "cfl", 1, &c->cfl, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "eps", 1, &c->eps, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "mach", 1, &c->mach, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "alpha", 1, &c->alpha, NULL));
  TSR_CALL(tsr_mesh_add_const(mesh, "qinf", 4, c->qinf, NULL));
  return 0;
}
