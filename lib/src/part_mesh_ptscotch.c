/* part_mesh_ptscotch.c: the PT-Scotch partition of an unstructured mesh's
 * partitioned set (built only with configure --with-ptscotch).
 *
 * The graph stays block-distributed: each rank hands its block rows of the
 * set (tsr_mesh_block_rows, consecutive global numbers in rank order, which
 * is exactly PT-Scotch's implicit global vertex numbering) to
 * SCOTCH_dgraphBuild and SCOTCH_dgraphPart cuts it into one part per rank.
 * No rank ever holds the whole graph, unlike the METIS path.
 *
 * SCOTCH_Num is the integer type PT-Scotch was built with (int on Debian,
 * int64_t when built with -DINTSIZE64): vertex and edge counts are checked
 * against SCOTCH_NUMMAX before any conversion.
 *
 * Threads: a PT-Scotch 7 built with SCOTCH_PTHREAD_MPI (Debian's is) folds
 * the two halves of each bipartition in two threads that both call MPI.
 * Under MPI_THREAD_SINGLE/FUNNELED/SERIALIZED that deadlocks (seen with
 * Scotch 7.0.3 and Open MPI at 4 ranks), so unless MPI was initialised
 * with MPI_THREAD_MULTIPLE the graph is bound to a Scotch context of one
 * thread. The context is also made deterministic with a fixed random seed,
 * so a given graph and rank count always give the same partition. */
#include "config.h"
#include "tessera/part.h"
#include "tessera/error.h"
#include "part_internal.h"

#include <stdint.h>
#include <stdio.h> /* ptscotch.h needs FILE */
#include <stdlib.h>
#include <ptscotch.h>

/* The allowed load imbalance of the parts: 1 %. A GPU rank's time follows
 * its part's size, so the largest part sets the step: at 5 % PT-Scotch left
 * OP2's airfoil mesh (720,000 cells) 0.34 % above the mean on 2 ranks and
 * 0.35 % on 4; at 1 % 0.05 % and 0.26 %, the halos 7 % larger. */
#define PTSCOTCH_IMBALANCE 0.01

/* Each step below ends with tsr_error_agree: PT-Scotch calls are
 * collective, so a rank that failed must not leave the others waiting in
 * the next one; all ranks skip the rest and free what they hold. */
int tsr__partition_ptscotch(tsr__view_t *v, int pset, int gmap) {
  const char *sname = tsr_mesh_set(v->m, pset)->name;
  const char *mname = tsr_mesh_map(v->m, gmap)->name;
  int *deg = NULL;
  int64_t *adj = NULL;
  tsr_idx_t nadj = 0, n = v->n[pset], gn = v->gn[pset];
  TSR_CALL(tsr__graph_csr(v, pset, gmap, &deg, &adj, &nadj));

  /* the integer width PT-Scotch was built with must hold every count */
  long long mine = (long long)nadj, gadj = 0;
  int err = MPI_Allreduce(&mine, &gadj, 1, MPI_LONG_LONG, MPI_SUM, v->comm) == MPI_SUCCESS
                ? TSR_SUCCESS
                : TSR_RAISE(TSR_ERR_MPI, "partition: MPI_Allreduce of the edge count failed");
  if (!err && ((long long)gn > (long long)SCOTCH_NUMMAX || gadj > (long long)SCOTCH_NUMMAX))
    err = TSR_RAISE(TSR_ERR_UNSUPPORTED,
                    "partition: the graph of set '%s' (%lld vertices, %lld edge ends) does not "
                    "fit this PT-Scotch's %d-bit SCOTCH_Num (at most %lld); use a PT-Scotch "
                    "built with 64-bit integers (-DINTSIZE64) and configure --with-ptscotch=DIR",
                    sname, (long long)gn, gadj, (int)(8 * sizeof(SCOTCH_Num)),
                    (long long)SCOTCH_NUMMAX);
  /* CSR in SCOTCH_Num, base 0: vert[n + 1], edge[nadj] (global vertex ids) */
  SCOTCH_Num *vert = NULL, *edge = NULL, *part = NULL;
  if (!err) {
    vert = malloc((size_t)(n + 1) * sizeof *vert);
    edge = malloc((size_t)(nadj > 0 ? nadj : 1) * sizeof *edge);
    part = malloc((size_t)(n > 0 ? n : 1) * sizeof *part);
    if (!vert || !edge || !part)
      err = TSR_RAISE(TSR_ERR_ALLOC, "partition: cannot allocate PT-Scotch arrays for %lld "
                      "vertices and %lld edge ends of set '%s' on rank %d",
                      (long long)n, (long long)nadj, sname, v->rank);
  }
  if (!err) {
    vert[0] = 0;
    for (tsr_idx_t i = 0; i < n; i++) vert[i + 1] = vert[i] + (SCOTCH_Num)deg[i];
    for (tsr_idx_t i = 0; i < nadj; i++) edge[i] = (SCOTCH_Num)adj[i];
  }
  free(deg);
  free(adj);
  err = tsr_error_agree(v->comm, err);

  SCOTCH_Dgraph graph, cgraph; /* cgraph: graph bound to the context */
  SCOTCH_Context ctx;
  SCOTCH_Strat strat;
  int have_graph = 0, have_ctx = 0, have_cgraph = 0, have_strat = 0, level = MPI_THREAD_SINGLE;
  if (!err) {
    if (SCOTCH_dgraphInit(&graph, v->comm) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION, "SCOTCH_dgraphInit failed on rank %d (is this PT-Scotch "
                      "built for this MPI?)", v->rank);
    else
      have_graph = 1;
    if (!err && MPI_Query_thread(&level) != MPI_SUCCESS)
      err = TSR_RAISE(TSR_ERR_MPI, "partition: MPI_Query_thread failed on rank %d", v->rank);
    if (!err) {
      if (SCOTCH_contextInit(&ctx) != 0)
        err = TSR_RAISE(TSR_ERR_PARTITION, "SCOTCH_contextInit failed on rank %d", v->rank);
      else
        have_ctx = 1;
    }
    if (!err && ((level < MPI_THREAD_MULTIPLE && SCOTCH_contextThreadSpawn(&ctx, 1, NULL) != 0) ||
                 SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) != 0 ||
                 SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) != 0 ||
                 SCOTCH_contextRandomClone(&ctx) != 0))
      err = TSR_RAISE(TSR_ERR_PARTITION,
                      "partition: cannot set up a PT-Scotch context (one thread: %s, "
                      "deterministic, fixed seed) on rank %d",
                      level < MPI_THREAD_MULTIPLE ? "yes" : "no", v->rank);
    err = tsr_error_agree(v->comm, err);
  }
  if (!err) {
    if (SCOTCH_dgraphBuild(&graph, 0, (SCOTCH_Num)n, (SCOTCH_Num)n, vert, NULL, NULL, NULL,
                           (SCOTCH_Num)nadj, (SCOTCH_Num)nadj, edge, NULL, NULL) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION,
                      "SCOTCH_dgraphBuild failed on rank %d for the graph of set '%s' (map "
                      "'%s'; %lld of %lld vertices, %lld edge ends here)",
                      v->rank, sname, mname, (long long)n, (long long)gn, (long long)nadj);
    if (!err) {
      if (SCOTCH_contextBindDgraph(&ctx, &graph, &cgraph) != 0)
        err = TSR_RAISE(TSR_ERR_PARTITION, "SCOTCH_contextBindDgraph failed on rank %d", v->rank);
      else
        have_cgraph = 1;
    }
    err = tsr_error_agree(v->comm, err);
  }
  if (!err) { /* collective consistency check: symmetric, ids in range */
    if (SCOTCH_dgraphCheck(&cgraph) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION,
                      "SCOTCH_dgraphCheck rejects the graph of set '%s' induced by map '%s' "
                      "(rank %d; %lld vertices, %lld edge ends in all)",
                      sname, mname, v->rank, (long long)gn, gadj);
    err = tsr_error_agree(v->comm, err);
  }
  if (!err) {
    if (SCOTCH_stratInit(&strat) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION, "SCOTCH_stratInit failed on rank %d", v->rank);
    else
      have_strat = 1;
    if (!err && SCOTCH_stratDgraphMapBuild(&strat, SCOTCH_STRATDEFAULT, (SCOTCH_Num)v->size,
                                           (SCOTCH_Num)v->size, PTSCOTCH_IMBALANCE) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION,
                      "SCOTCH_stratDgraphMapBuild failed on rank %d (%d parts, imbalance %g)",
                      v->rank, v->size, PTSCOTCH_IMBALANCE);
    err = tsr_error_agree(v->comm, err);
  }
  if (!err) {
    SCOTCH_contextRandomReset(&ctx); /* the same partition on every run */
    if (SCOTCH_dgraphPart(&cgraph, (SCOTCH_Num)v->size, &strat, part) != 0)
      err = TSR_RAISE(TSR_ERR_PARTITION,
                      "SCOTCH_dgraphPart failed on rank %d for the graph of set '%s' (map '%s'; "
                      "%lld vertices, %lld edge ends, %d parts)",
                      v->rank, sname, mname, (long long)gn, gadj, v->size);
    for (tsr_idx_t i = 0; i < n && !err; i++) {
      if (part[i] < 0 || part[i] >= (SCOTCH_Num)v->size)
        err = TSR_RAISE(TSR_ERR_PARTITION,
                        "SCOTCH_dgraphPart put element %lld of set '%s' in part %lld, not one "
                        "of the %d ranks", (long long)(v->lo[pset] + i), sname,
                        (long long)part[i], v->size);
      else
        v->owner[pset][i] = (int)part[i];
    }
    err = tsr_error_agree(v->comm, err);
  }
  if (have_strat) SCOTCH_stratExit(&strat);
  if (have_cgraph) SCOTCH_dgraphExit(&cgraph);
  if (have_graph) SCOTCH_dgraphExit(&graph);
  if (have_ctx) SCOTCH_contextExit(&ctx);
  free(vert);
  free(edge);
  free(part);
  TSR_CALL(err);
  return TSR_SUCCESS;
}
