/* kernels/airfoil/airfoil_part.c: an Airfoil mesh distributed OP2's way
 * (tsr_mesh_partition: cells by METIS on pecell's graph, owner-compute with
 * exec and non-exec halos), reordered on each rank (tessera/reorder.h), the
 * cells' halo (tessera/halo.h), the final state written back in the original
 * numbering, and the shared-memory plan statistics. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/colour.h"
#include "tessera/error.h"
#include "tessera/part.h"
#include "tessera/reorder.h"
#include "kernels/airfoil/airfoil_mesh.h"

/* Row groups of a set that a reordering must keep: core, other owned, exec
 * halo, non-exec halo. */
static void af_segments(const tsr_mesh_t *m, int set, tsr_idx_t seg[5]) {
  const tsr_set_t *s = tsr_mesh_set(m, set);
  seg[0] = 0;
  seg[1] = tsr_mesh_dist(m) == TSR_MESH_PARTITIONED ? tsr_mesh_core_size(m, set) : s->size;
  seg[2] = s->owned;
  seg[3] = s->owned + s->exec_halo;
  seg[4] = s->size;
}

/* Apply perm (old -> new, any order) to set, restricted to its groups. */
static int af_permute(tsr_mesh_t *m, int set, tsr_idx_t *perm) {
  tsr_idx_t seg[5];
  af_segments(m, set, seg);
  TSR_CALL(tsr_perm_restrict(perm, 4, seg));
  TSR_CALL(tsr_mesh_permute(m, set, perm));
  return 0;
}

/* Number a set by keys (stable), within its groups. */
static int af_permute_keys(tsr_mesh_t *m, int set, const int64_t *key) {
  tsr_idx_t n = tsr_mesh_set(m, set)->size;
  tsr_idx_t *perm = malloc(sizeof(tsr_idx_t) * (size_t)(n + 1));
  TSR_CHECK(perm, TSR_ERR_ALLOC, "airfoil reorder: no memory");
  int rc = tsr_perm_from_keys(key, n, perm);
  if (!rc) rc = af_permute(m, set, perm);
  free(perm);
  TSR_CALL(rc);
  return 0;
}

/* Nodes, edges and bedges follow the (new) cell numbering: nodes by their
 * lowest cell, edges by (lower cell, higher cell), bedges by their cell. */
static int af_follow_cells(tsr_mesh_t *m) {
  int cells = tsr_mesh_find_set(m, "cells"), nodes = tsr_mesh_find_set(m, "nodes"),
      edges = tsr_mesh_find_set(m, "edges"), bedges = tsr_mesh_find_set(m, "bedges");
  const tsr_map_t *pcell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pcell")),
                  *pecell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pecell")),
                  *pbecell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pbecell"));
  int64_t nc = tsr_mesh_set(m, cells)->size, nn = tsr_mesh_set(m, nodes)->size,
          ne = tsr_mesh_set(m, edges)->size, nb = tsr_mesh_set(m, bedges)->size;
  int64_t big = nc + 1, nmax = TSR_MAX(TSR_MAX(nn, ne), nb);
  int64_t *key = malloc(sizeof(int64_t) * (size_t)(nmax + 1));
  TSR_CHECK(key, TSR_ERR_ALLOC, "airfoil reorder: no memory");
  for (int64_t i = 0; i < nn; i++) key[i] = big;
  for (int64_t c = 0; c < nc; c++)
    for (int k = 0; k < 4; k++) {
      int32_t v = pcell->data[4 * c + k];
      if (v >= 0 && c < key[v]) key[v] = c;
    }
  int rc = af_permute_keys(m, nodes, key);
  for (int64_t e = 0; !rc && e < ne; e++) {
    int64_t a = pecell->data[2 * e], b = pecell->data[2 * e + 1];
    if (a < 0) a = big;
    if (b < 0) b = big;
    key[e] = TSR_MIN(a, b) * (big + 1) + TSR_MAX(a, b);
  }
  if (!rc) rc = af_permute_keys(m, edges, key);
  for (int64_t b = 0; !rc && b < nb; b++) key[b] = pbecell->data[b] < 0 ? big : pbecell->data[b];
  if (!rc) rc = af_permute_keys(m, bedges, key);
  free(key);
  TSR_CALL(rc);
  return 0;
}

/* GPS or RCM on the cell graph (cells joined by an edge). */
static int af_reorder_bandwidth(tsr_mesh_t *m, airfoil_reorder_t how, airfoil_local_t *l) {
  int cells = tsr_mesh_find_set(m, "cells"), edges = tsr_mesh_find_set(m, "edges");
  const tsr_map_t *pecell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pecell"));
  tsr_idx_t nc = tsr_mesh_set(m, cells)->size, ne = tsr_mesh_set(m, edges)->size;
  tsr_graph_t g;
  TSR_CALL(tsr_graph_from_map(pecell->data, 0, ne, 2, nc, TSR_GRAPH_TARGETS, &g));
  tsr_idx_t *perm = malloc(sizeof(tsr_idx_t) * (size_t)(nc + 1));
  int rc = perm ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "airfoil reorder: no memory");
  tsr_graph_bandwidth(&g, NULL, &l->bw_before, &l->profile_before);
  if (!rc) rc = how == AIRFOIL_REORDER_GPS ? tsr_reorder_gps(&g, perm) : tsr_reorder_rcm(&g, perm);
  if (!rc) rc = af_permute(m, cells, perm);
  if (!rc) tsr_graph_bandwidth(&g, perm, &l->bw_after, &l->profile_after);
  tsr_graph_free(&g);
  free(perm);
  if (!rc) rc = af_follow_cells(m);
  TSR_CALL(rc);
  return 0;
}

/* Edges in METIS blocks (each executed group on its own), cells by the
 * blocks that touch them, the rest following the cells. */
static int af_reorder_partition(tsr_mesh_t *m, const airfoil_setup_t *o, airfoil_local_t *l) {
  int cells = tsr_mesh_find_set(m, "cells"), edges = tsr_mesh_find_set(m, "edges");
  const tsr_map_t *pecell = tsr_mesh_map(m, tsr_mesh_find_map(m, "pecell"));
  tsr_idx_t nc = tsr_mesh_set(m, cells)->size, ne = tsr_mesh_set(m, edges)->size, seg[5];
  af_segments(m, edges, seg);
  tsr_idx_t *perm = malloc(sizeof(tsr_idx_t) * (size_t)(TSR_MAX(ne, nc) + 1));
  tsr_idx_t *off = malloc(sizeof(tsr_idx_t) * (size_t)(ne + 2)), nb = 0;
  int rc = perm && off ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "airfoil reorder: no memory");
  if (!rc) off[0] = 0;
  for (tsr_idx_t e = seg[3]; !rc && e < ne; e++) perm[e] = e; /* non-exec halo: as is */
  for (int s = 0; s < 3 && !rc; s++) {
    tsr_idx_t n = seg[s + 1] - seg[s], sb = 0, *soff = NULL;
    if (n == 0) continue;
    tsr_graph_t g;
    rc = tsr_graph_from_map(pecell->data, seg[s], n, 2, nc, TSR_GRAPH_ROWS, &g);
    if (!rc) rc = tsr_reorder_blocks(&g, o->block, o->imbalance, o->eps, perm + seg[s], &sb, &soff);
    tsr_graph_free(&g);
    for (tsr_idx_t i = 0; !rc && i < n; i++) perm[seg[s] + i] += seg[s];
    for (tsr_idx_t b = 0; !rc && b < sb; b++) off[++nb] = seg[s] + soff[b + 1];
    free(soff);
  }
  if (!rc) rc = tsr_mesh_permute(m, edges, perm); /* groups kept by construction */
  /* cells by (number of blocks, blocks) */
  if (!rc) {
    tsr_graph_t g; /* bandwidth of the cell graph before and after, for the report */
    rc = tsr_graph_from_map(pecell->data, 0, ne, 2, nc, TSR_GRAPH_TARGETS, &g);
    if (!rc) tsr_graph_bandwidth(&g, NULL, &l->bw_before, &l->profile_before);
    if (!rc) rc = tsr_reorder_points_by_blocks(pecell->data, 2, nb, off, nc, perm);
    if (!rc) rc = af_permute(m, cells, perm);
    if (!rc) tsr_graph_bandwidth(&g, perm, &l->bw_after, &l->profile_after);
    tsr_graph_free(&g);
  }
  if (!rc) rc = af_follow_cells(m);
  free(perm);
  if (rc) {
    free(off);
    TSR_CALL(rc);
  }
  l->neblock = nb;
  l->eblock_off = off;
  return 0;
}

void airfoil_local_free(airfoil_local_t *l) {
  if (!l) return;
  tsr_halo_destroy(&l->halo);
  tsr_mesh_destroy(&l->mesh);
  free(l->eblock_off);
  memset(l, 0, sizeof *l);
}

int airfoil_local_create(MPI_Comm comm, const tsr_mesh_t *in, const char *source,
                         const airfoil_setup_t *o, airfoil_local_t *l) {
  memset(l, 0, sizeof *l);
  int size;
  MPI_Comm_size(comm, &size);
  /* The sets and maps the partitioner follows must be there and sane
   * before it runs: checked on the input, errors agreed. */
  int rc = 0;
  const char *need_maps[] = {"pedge", "pecell", "pbedge", "pbecell", "pcell"};
  for (int i = 0; i < 5 && !rc; i++)
    if (tsr_mesh_find_map(in, need_maps[i]) < 0)
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: map '%s' is missing (not an OP2 Airfoil mesh?)", source,
                     need_maps[i]);
  if (!rc && tsr_mesh_dist(in) == TSR_MESH_SERIAL) {
    airfoil_problem_t chk; /* whole mesh: every check before partitioning */
    rc = airfoil_problem_from_mesh(in, source, &chk);
  }
  TSR_CALL(tsr_error_agree(comm, rc));
  tsr_mesh_part_opts_t po = {"cells", "pecell", o ? o->partitioner : TSR_PARTITIONER_METIS, NULL};
  TSR_CALL(tsr_mesh_partition(comm, in, &po, &l->mesh));
  rc = 0;
  if (o && o->reorder == AIRFOIL_REORDER_GPS) rc = af_reorder_bandwidth(l->mesh, AIRFOIL_REORDER_GPS, l);
  else if (o && o->reorder == AIRFOIL_REORDER_RCM) rc = af_reorder_bandwidth(l->mesh, AIRFOIL_REORDER_RCM, l);
  else if (o && o->reorder == AIRFOIL_REORDER_PARTITION) rc = af_reorder_partition(l->mesh, o, l);
  rc = tsr_error_agree(comm, rc);
  if (!rc && size > 1) rc = tsr_halo_create_mesh(comm, l->mesh, tsr_mesh_find_set(l->mesh, "cells"), &l->halo);
  if (!rc && l->halo && o && o->halo) rc = tsr_halo_set_transport(l->halo, (tsr_halo_transport_t)o->halo);
  if (!rc) rc = tsr_error_agree(comm, airfoil_problem_from_mesh(l->mesh, source, &l->p));
  if (rc) {
    airfoil_local_free(l);
    TSR_CALL(rc);
  }
  l->p.comm = comm;
  l->p.halo = l->halo;
  l->p.neblock = l->neblock;
  l->p.eblock_off = l->eblock_off;
  return 0;
}

int airfoil_write_solution(MPI_Comm comm, const char *path, tsr_mesh_t *in,
                           const airfoil_local_t *l, const double *q,
                           const tsr_provenance_t *prov) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int cells = tsr_mesh_find_set(in, "cells"), lcells = tsr_mesh_find_set(l->mesh, "cells");
  const tsr_set_t *sc = tsr_mesh_set(in, cells);
  const int64_t *gid = tsr_mesh_set(l->mesh, lcells)->global_id;
  tsr_idx_t N = sc->global_size, first, count, nco = l->p.ncell_owned;
  tsr_mesh_block_rows(N, size, rank, &first, &count);
  /* owned cells travel as (global id, q0..q3) to the rank writing their row */
  int *scnt = calloc((size_t)size * 4, sizeof(int)), *sdis = scnt + size, *rcnt = scnt + 2 * size,
      *rdis = scnt + 3 * size;
  double *sbuf = malloc(sizeof(double) * (size_t)(5 * nco + 1));
  double *rbuf = NULL;
  int rc = scnt && sbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for the solution", path);
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    for (tsr_idx_t i = 0; i < nco; i++) scnt[tsr_part_block_owner(N, size, gid ? gid[i] : i)] += 5;
    for (int r = 1; r < size; r++) sdis[r] = sdis[r - 1] + scnt[r - 1];
    int *fill = malloc(sizeof(int) * (size_t)size);
    if (!fill) rc = TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory", path);
    for (int r = 0; !rc && r < size; r++) fill[r] = sdis[r];
    for (tsr_idx_t i = 0; !rc && i < nco; i++) {
      int64_t g = gid ? gid[i] : i;
      double *o = sbuf + fill[tsr_part_block_owner(N, size, g)];
      fill[tsr_part_block_owner(N, size, g)] += 5;
      o[0] = (double)g;
      for (int n = 0; n < 4; n++) o[1 + n] = q[4 * i + n];
    }
    free(fill);
    rc = tsr_error_agree(comm, rc);
  }
  if (!rc) rc = MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm) == MPI_SUCCESS ? 0
              : TSR_RAISE(TSR_ERR_MPI, "%s: MPI_Alltoall failed", path);
  long long total = 0;
  for (int r = 0; !rc && r < size; r++) rdis[r] = (int)total, total += rcnt[r];
  if (!rc) rbuf = malloc(sizeof(double) * (size_t)(total + 1));
  if (!rc) rc = tsr_error_agree(comm, rbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory", path));
  if (!rc) rc = MPI_Alltoallv(sbuf, scnt, sdis, MPI_DOUBLE, rbuf, rcnt, rdis, MPI_DOUBLE, comm) ==
                        MPI_SUCCESS ? 0 : TSR_RAISE(TSR_ERR_MPI, "%s: MPI_Alltoallv failed", path);
  /* into p_q (rows [first, first + count): local rows of a BLOCK mesh, the
   * same rows of a SERIAL one) and a new "pressure" dat */
  int pid = -1;
  if (!rc) {
    int did = tsr_mesh_find_dat(in, "pressure");
    rc = did >= 0 ? (pid = did, 0) : tsr_mesh_add_dat(in, "pressure", cells, 1, TSR_DOUBLE, NULL, TSR_COPY, &pid);
  }
  if (!rc) {
    double *pq = tsr_mesh_dat(in, tsr_mesh_find_dat(in, "p_q"))->data;
    double *pp = tsr_mesh_dat(in, pid)->data;
    tsr_idx_t base = tsr_mesh_dist(in) == TSR_MESH_BLOCK ? first : 0, got = 0;
    for (long long j = 0; j < total; j += 5) {
      tsr_idx_t g = (tsr_idx_t)rbuf[j], row = g - base;
      const double *v = rbuf + j + 1;
      for (int n = 0; n < 4; n++) pq[4 * row + n] = v[n];
      pp[row] = l->p.c.gm1 * (v[3] - 0.5 * (v[1] * v[1] + v[2] * v[2]) / v[0]);
      got++;
    }
    if (got != count)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "%s: rank %d received %lld cells of the solution, expected %lld",
                     path, rank, (long long)got, (long long)count);
  }
  free(scnt);
  free(sbuf);
  free(rbuf);
  TSR_CALL(tsr_error_agree(comm, rc));
  TSR_CALL(airfoil_mesh_write(comm, path, in, prov));
  TSR_CALL(tsr_xdmf_write_quads(comm, path, in, "pcell", "p_x"));
  return 0;
}

int airfoil_plan_info(const airfoil_problem_t *p, int block, size_t real, airfoil_plan_info_t *info) {
  memset(info, 0, sizeof *info);
  tsr_idx_t nb = 0, *off = NULL;
  int own = 0;
  if (p->neblock > 0 && p->eblock_off[p->neblock] == p->nedge_exec) {
    int fits = 1;
    for (tsr_idx_t b = 0; b < p->neblock; b++) fits &= p->eblock_off[b + 1] - p->eblock_off[b] <= block;
    if (fits) nb = p->neblock, off = (tsr_idx_t *)p->eblock_off;
  }
  if (!off) {
    TSR_CALL(tsr_plan_uniform_blocks(p->nedge_exec, block, &nb, &off));
    own = 1;
  }
  tsr_plan_t *plan = NULL;
  tsr_plan_stage_t st;
  memset(&st, 0, sizeof st);
  int rc = tsr_plan_create(p->pecell, 2, p->ncell, 0, p->nedge_exec, nb, off, &plan);
  if (!rc) rc = tsr_plan_stage(plan, p->pedge, 2, p->nnode, &st);
  if (!rc) {
    info->nblocks = nb;
    info->max_block = plan->max_block;
    info->nblock_colours = plan->nblock_colours;
    info->max_thread_colours = plan->max_thread_colours;
    info->reuse_mean = plan->inc.reuse_mean;
    info->reuse_min = plan->inc.reuse_min;
    info->smem = (size_t)plan->inc.max_targets * 9 * real + (size_t)st.max_targets * 2 * real;
  }
  tsr_plan_stage_free(&st);
  tsr_plan_destroy(&plan);
  if (own) free(off);
  TSR_CALL(rc);
  return 0;
}
