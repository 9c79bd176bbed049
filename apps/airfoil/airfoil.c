/* apps/airfoil/airfoil.c: tsr-airfoil, OP2's Airfoil on OP2's meshes.
 *
 * Reads an OP2 HDF5 mesh (-i, parallel HDF5: each rank its block) or
 * generates the NACA0012 C-mesh (--size), partitions it over the ranks
 * (METIS on the cells through pecell, OP2's owner-compute halos), reorders
 * each rank's part (--reorder), runs the selected variants for --iterations
 * (1000, as OP2) from the same initial state, prints the rms every 100
 * iterations and checks each run: on OP2's standard mesh (in double)
 * against OP2's published history and pass test, otherwise against the rms
 * history of the CPU reference, which on the generator's 40x60 mesh (in
 * double) is itself checked against OP2's history there. -o writes the
 * first variant's final q in the original numbering with an XDMF sidecar.
 * Exits non-zero when any variant FAILED.
 */
#include "config.h"
#include "apps/airfoil/airfoil_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs/naca0012.h"

const tsr_variant_t af_variants[AIRFOIL_NVARIANTS] = {
#define X(id, name, dev, incr, layout, help) {name, dev, help, id},
#include "kernels/airfoil/variants.def"
#undef X
};

/* The options (lib's cli); *done when --help, --version or --list-variants
 * answered. */
static int af_options(af_app_t *A, int argc, char **argv, int *done) {
  tsr_cli_t *cli = &A->cli;
  tsr_cli_init(cli, "tsr-airfoil", "OP2's Airfoil (2-D Euler, NACA0012) on OP2's HDF5 meshes");
  cli->options |= TSR_CLI_CHECKPOINT;
  cli->iterations = 1000;
  cli->runs = 1;
  cli->variant_auto = 1; /* af_run_variants */
  cli->warmup = 0;
  A->size[0] = 400, A->size[1] = 600, A->size[2] = 1;
  A->precision = "double", A->reorder = "none", A->partitioner = "auto", A->halo = "staged";
  A->l2 = "auto";
  A->block = 256, A->exact = 0, A->nofuse = 0, A->nograph = 0, A->profile = 0;
  A->profile_csv = NULL;
  A->imbalance = 1.001, A->eps = 0;
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, A->size, "IxJ", "generated mesh when no -i (400x600: OP2's)"},
      {"exact", 0, TSR_OPT_FLAG, &A->exact, NULL, "generated mesh without OP2's 6-decimal rounding"},
      {"precision", 'p', TSR_OPT_STRING, &A->precision, "double|float", "arithmetic (double)"},
      {"block", 'b', TSR_OPT_INT, &A->block, "N", "CUDA threads per block (256)"},
      {"reorder", 'r', TSR_OPT_STRING, &A->reorder, "none|gps|rcm|partition",
       "renumber each rank's mesh: GPS (Scotch) or RCM on the cells, or METIS edge blocks of "
       "<= --block with cells sorted by their blocks (none)"},
      {"imbalance", 0, TSR_OPT_DOUBLE, &A->imbalance, "L", "METIS block imbalance of --reorder partition (1.001)"},
      {"eps", 0, TSR_OPT_DOUBLE, &A->eps, "E", "margin of l' = (S + E) / S' (0)"},
      {"partitioner", 0, TSR_OPT_STRING, &A->partitioner, "auto|metis|ptscotch",
       "cells over the ranks: METIS on rank 0 (which gathers the whole cell graph), or PT-Scotch "
       "in parallel (built when libptscotch-dev is); auto: PT-Scotch on several ranks where "
       "built, else METIS (auto)"},
      {"no-fuse", 0, TSR_OPT_FLAG, &A->nofuse, NULL,
       "CUDA: one kernel per loop as OP2 (default: update fused with the next adt_calc and "
       "save_soln, gather's sum inside update)"},
      {"no-graph", 0, TSR_OPT_FLAG, &A->nograph, NULL,
       "CUDA on several ranks: launch each kernel of a stage from the host (default: where the "
       "exchange goes by CUDA IPC's put kernel, AoS, fused, update split, the stages' kernels and "
       "the exchanges' puts go as CUDA graphs of two stages)"},
      {"l2-persist", 0, TSR_OPT_STRING, &A->l2, "auto|on|off",
       "CUDA, fused gather4 and atomic1: keep the array one kernel of a stage hands to the next "
       "(the fluxes, res) in L2's persisting part; auto: where all of it fits (default auto)"},
      {"profile", 0, TSR_OPT_FLAG, &A->profile, NULL,
       "after each variant's timed runs, one more run timing every kernel (CUDA events, "
       "synchronised per launcher; CPU timers): calls, seconds, bytes, GB/s, % of floor"},
      {"profile-csv", 0, TSR_OPT_STRING, &A->profile_csv, "FILE",
       "--profile's rows as CSV (docs/CSV.md); implies --profile"},
      {"halo", 0, TSR_OPT_STRING, &A->halo, "staged|ipc|aware|nccl|auto",
       "CUDA halo exchange between ranks: pinned host buffers (staged), device to device by CUDA "
       "IPC (ranks on one node), device buffers to a CUDA-aware MPI (aware; across nodes), NCCL's "
       "send and receive on the GPU's stream (nccl; where built), or auto (aware where the MPI "
       "is CUDA-aware, else staged) (default staged)"},
  };
  TSR_CALL(tsr_error_agree(MPI_COMM_WORLD,
                           tsr_cli_parse(cli, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                                         MPI_COMM_WORLD, NULL, 0, NULL)));
  if (cli->exit_now) return *done = 1, 0;
  if (cli->list_variants) {
    tsr_variant_list(af_variants, AIRFOIL_NVARIANTS, stdout);
    return *done = 1, 0;
  }
  return 0;
}

/* Check the options; the partitioning and reordering set-up, the precision. */
static int af_check_options(af_app_t *A) {
  const char *halo = A->halo, *partitioner = A->partitioner, *reorder = A->reorder;
  const char *precision = A->precision;
  const int block = A->block;
  const double imbalance = A->imbalance, eps = A->eps;
  const int64_t *size = A->size;
  MPI_Comm_size(MPI_COMM_WORLD, &A->nranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &A->rank);
  A->say = !A->cli.quiet && A->rank == 0;
  tsr_halo_transport_t transport;
  TSR_CALL(tsr_halo_transport_parse(halo, &transport));
  airfoil_setup_t setup = {AIRFOIL_REORDER_NONE, block, imbalance, eps, TSR_PARTITIONER_METIS,
                           (int)transport};
  A->setup = setup;
  if (strcmp(partitioner, "auto") == 0) /* no rank gathers the graph where PT-Scotch is built */
    A->setup.partitioner = A->nranks > 1 && tsr_partitioner_have_ptscotch()
                               ? TSR_PARTITIONER_PTSCOTCH : TSR_PARTITIONER_METIS;
  else if (tsr_partitioner_parse(partitioner, &A->setup.partitioner) ||
           A->setup.partitioner == TSR_PARTITIONER_BLOCK) {
    tsr_error_clear();
    return TSR_RAISE(TSR_ERR_ARG, "--partitioner '%s': expected auto, metis or ptscotch",
                     partitioner);
  }
  TSR_CHECK(A->setup.partitioner != TSR_PARTITIONER_PTSCOTCH || tsr_partitioner_have_ptscotch(),
            TSR_ERR_UNSUPPORTED, "--partitioner ptscotch: this build has no PT-Scotch "
            "(install Debian libptscotch-dev and configure again)");
  if (strcmp(reorder, "gps") == 0) A->setup.reorder = AIRFOIL_REORDER_GPS;
  else if (strcmp(reorder, "rcm") == 0) A->setup.reorder = AIRFOIL_REORDER_RCM;
  else if (strcmp(reorder, "partition") == 0) A->setup.reorder = AIRFOIL_REORDER_PARTITION;
  else if (strcmp(reorder, "none") != 0)
    return TSR_RAISE(TSR_ERR_ARG, "--reorder: '%s', expected none, gps, rcm or partition", reorder);
  TSR_CHECK(imbalance >= 1 && eps >= 0, TSR_ERR_ARG,
            "--imbalance %g / --eps %g: expected imbalance >= 1 and eps >= 0", imbalance, eps);
  if (strcmp(A->l2, "auto") == 0) A->l2mode = AIRFOIL_L2_AUTO;
  else if (strcmp(A->l2, "on") == 0) A->l2mode = AIRFOIL_L2_ON;
  else if (strcmp(A->l2, "off") == 0) A->l2mode = AIRFOIL_L2_OFF;
  else return TSR_RAISE(TSR_ERR_ARG, "--l2-persist: '%s', expected auto, on or off", A->l2);
  if (strcmp(precision, "double") == 0) A->prec = AIRFOIL_DOUBLE;
  else if (strcmp(precision, "float") == 0) A->prec = AIRFOIL_FLOAT;
  else return TSR_RAISE(TSR_ERR_ARG, "--precision: '%s', expected double or float", precision);
  TSR_CHECK(block >= 32 && block <= 1024 && (block & (block - 1)) == 0, TSR_ERR_ARG,
            "--block %d: expected a power of two in [32, 1024]", block);
  TSR_CHECK(size[2] == 1 && size[0] >= 2 && size[1] >= 2 && size[0] <= 100000 && size[1] <= 100000,
            TSR_ERR_ARG, "--size: expected IxJ with 2 <= I, J, got %lldx%lldx%lld",
            (long long)size[0], (long long)size[1], (long long)size[2]);
  return 0;
}

/* The mesh: read (each rank its block) or generated (whole, on every
 * rank), then partitioned and reordered. The mesh as read is freed once
 * partitioned unless -o writes the solution back into it. */
static int af_mesh(af_app_t *A) {
  const tsr_cli_t *cli = &A->cli;
  if (cli->input) {
    snprintf(A->source, sizeof A->source, "%s", cli->input);
    TSR_CALL(airfoil_mesh_read(MPI_COMM_WORLD, cli->input, &A->mesh));
  } else {
    snprintf(A->source, sizeof A->source, "generated %lldx%lld mesh", (long long)A->size[0],
             (long long)A->size[1]);
    TSR_CALL(airfoil_naca0012((int)A->size[0], (int)A->size[1], !A->exact, &A->mesh));
  }
  int rc = af_ckpt_begin(A); /* --restart: its q is the initial state */
  if (!rc) rc = airfoil_local_create(MPI_COMM_WORLD, A->mesh, A->source, &A->setup, &A->loc);
  if (rc || !cli->output) tsr_mesh_destroy(&A->mesh);
  TSR_CALL(rc);
  return 0;
}

/* Up front, this rank's part (owned + halo rows): besides the part held
 * (maps 16 B per cell, edge and bedge, 16 B per node, q0 32 B per cell), a
 * run's copies in its precision R (q, qold, res, adt: 13 R per cell;
 * x: 2 R per node; edge and bedge maps again: 16 B each) and -o's q; on a
 * GPU the same copies in device memory when a CUDA variant is selected. */
static int af_memory_check(const af_app_t *A) {
  const airfoil_problem_t *p = &A->p;
  const double R = A->real, nc = (double)p->ncell, nn = (double)p->nnode;
  const double ne = (double)p->nedge, nb = (double)p->nbedge;
  const double run = nc * 13 * R + nn * 2 * R + (ne + nb) * 16;
  const double host = nc * (16 + 32) + nn * 16 + (ne + nb) * 16 + run +
                      (A->cli.output ? nc * 32 : 0);
  int cuda = 0;
  for (int s = 0; s < A->sel.n; s++) cuda |= af_variants[A->sel.index[s]].device == TSR_DEV_CUDA;
  char what[32 + sizeof A->source];
  snprintf(what, sizeof what, "tsr-airfoil (%s)", A->source);
  return tsr_memory_check(MPI_COMM_WORLD, what, host, cuda ? run : 0);
}

/* The whole mesh's sizes, the run's buffers, and the header lines: mesh,
 * reordering (rank 0's part), res_calc's shared-memory plan. */
static int af_prepare(af_app_t *A) {
  const tsr_cli_t *cli = &A->cli;
  const airfoil_local_t *loc = &A->loc;
  const int say = A->say, nranks = A->nranks, block = A->block;
  int rc = 0;
  A->p = loc->p;
  const airfoil_problem_t *p = &A->p;
  int64_t *gcount = A->gcount;
  gcount[0] = p->ncell_owned, gcount[1] = p->nedge_exec, gcount[2] = p->nbedge_exec, gcount[3] = 0;
  for (int i = 0; i < 4; i++) {
    const tsr_mesh_t *mesh = loc->mesh; /* its sets know their global sizes */
    int s = i == 0 ? tsr_mesh_find_set(mesh, "cells") : i == 1 ? tsr_mesh_find_set(mesh, "edges")
          : i == 2 ? tsr_mesh_find_set(mesh, "bedges") : tsr_mesh_find_set(mesh, "nodes");
    gcount[i] = tsr_mesh_set(mesh, s)->global_size;
  }
  A->standard = gcount[3] == 721801 && gcount[0] == 720000 && gcount[1] == 1438600 &&
                gcount[2] == 2800;
  A->small = gcount[3] == 7381 && gcount[0] == 7200 && gcount[1] == 14260 && gcount[2] == 280;
  const int niter = A->niter = cli->iterations;
  A->real = A->prec == AIRFOIL_DOUBLE ? 8 : 4;
  TSR_CALL(af_memory_check(A));
  A->rms = tsr_malloc(sizeof(double) * (size_t)niter);
  A->qout = cli->output ? tsr_malloc(sizeof(double) * (size_t)(4 * p->ncell + 1)) : NULL;
  if (!A->rms || (cli->output && !A->qout))
    rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
  if (!rc && say)
    printf("tsr-airfoil: %s: %lld nodes, %lld cells, %lld edges, %lld bedges; %d iterations, %s, "
           "%d rank%s (%s)\n", A->source, (long long)gcount[3], (long long)gcount[0],
           (long long)gcount[1], (long long)gcount[2], niter, A->precision, nranks,
           nranks == 1 ? "" : "s", tsr_partitioner_name(A->setup.partitioner));
  /* What the reordering did (rank 0's part), and the shared-memory plan
   * of res_calc at this block size. */
  airfoil_plan_info_t pi;
  if (!rc) rc = airfoil_plan_info(p, block, A->real, &pi);
  if (!rc && say) {
    if (A->setup.reorder != AIRFOIL_REORDER_NONE)
      printf("reorder %s (rank 0): cell graph bandwidth %lld -> %lld, profile %lld -> %lld\n",
             A->reorder, (long long)loc->bw_before, (long long)loc->bw_after,
             (long long)loc->profile_before, (long long)loc->profile_after);
    printf("res_calc blocks of <= %d edges (rank 0): %lld blocks (largest %d), cell reuse %.2f "
           "(min %.2f), %d block colours, <= %d thread colours, %zu B shared memory per block\n",
           block, (long long)pi.nblocks, pi.max_block, pi.reuse_mean, pi.reuse_min,
           pi.nblock_colours, pi.max_thread_colours, pi.smem);
  }
  rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  if (!rc && nranks > 1) { /* the partition's balance: the slowest rank sets the pace */
    long long mine[3] = {(long long)p->ncell_owned, (long long)p->nedge_exec,
                         (long long)(p->ncell - p->ncell_owned)};
    long long mx[3], sum[3];
    TSR_CALL_MPI(MPI_Allreduce(mine, mx, 3, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
    TSR_CALL_MPI(MPI_Allreduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
    if (say)
      printf("partition: owned cells per rank %.0f mean, %lld max (%.3f); executed edges %.0f mean, "
             "%lld max (%.3f); halo cells %.0f mean, %lld max\n",
             (double)sum[0] / nranks, mx[0], mx[0] * (double)nranks / (double)TSR_MAX(sum[0], 1),
             (double)sum[1] / nranks, mx[1], mx[1] * (double)nranks / (double)TSR_MAX(sum[1], 1),
             (double)sum[2] / nranks, mx[2]);
  }
  return rc;
}

/* The CPU reference history, needed to check other variants off the
 * standard mesh. */
static int af_reference(af_app_t *A) {
  const int niter = A->niter;
  int rc = 0;
  if (A->cli.verify && !(A->standard && niter >= 1000)) {
    int others = 0;
    for (int s = 0; s < A->sel.n; s++) others |= A->sel.index[s] != AIRFOIL_V_CPU_REF;
    if (others) {
      A->ref = tsr_malloc(sizeof(double) * (size_t)niter);
      airfoil_run_t r = {niter, A->prec, A->ref, NULL, 0, 0};
      if (!A->ref) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
      if (!rc) rc = af_ckpt_run(A, AIRFOIL_V_CPU_REF, &r, NULL, 0);
    }
  }
  return rc;
}

/* --profile: the counts of the byte model (all ranks) and the CSV */
static int af_profile_open(af_app_t *A) {
  const int niter = A->niter;
  airfoil_counts_t *cn = &A->counts;
  int rc = 0;
  if (A->profile_csv) A->profile = 1;
  if (!A->profile) return 0;
  airfoil_counts_of(&A->p, cn);
  int64_t v[6] = {cn->nnode, cn->ncell, cn->nedge, cn->nbedge, cn->nbnode, cn->nbcell};
  int k = cn->gather_k;
  if (MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
      MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    rc = TSR_RAISE(TSR_ERR_MPI, "--profile: MPI_Allreduce of the counts failed");
  cn->nnode = v[0], cn->ncell = v[1], cn->nedge = v[2], cn->nbedge = v[3];
  cn->nbnode = v[4], cn->nbcell = v[5], cn->gather_k = k;
  A->prms = tsr_malloc(sizeof(double) * (size_t)(niter + 1));
  if (!rc && !A->prms) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
  if (!rc && A->profile_csv && A->rank == 0) {
    /* lib's temporary: the umask's mode, removed on SIGINT/SIGTERM */
    const int fd = tsr_tmp_create(A->profile_csv, A->pcsv_tmp, sizeof A->pcsv_tmp);
    A->pcsv = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!A->pcsv) {
      if (fd >= 0) close(fd), unlink(A->pcsv_tmp), tsr_tmp_forget(A->pcsv_tmp);
      rc = TSR_RAISE(TSR_ERR_IO, "--profile-csv %s: cannot create a file there", A->profile_csv);
    } else
      airfoil_profile_csv_header(A->pcsv);
  }
  return tsr_error_agree(MPI_COMM_WORLD, rc);
}

/* --profile-csv: close the CSV and move it into place (rank 0) unless the
 * run failed (rc); returns rc or the write's error. */
static int af_profile_close(af_app_t *A, int rc) {
  if (A->pcsv) { /* rank 0 */
    int bad = fclose(A->pcsv) != 0;
    if (!bad && !rc) bad = rename(A->pcsv_tmp, A->profile_csv) != 0;
    if (bad || rc) remove(A->pcsv_tmp);
    tsr_tmp_forget(A->pcsv_tmp);
    if (bad && !rc) rc = TSR_RAISE(TSR_ERR_IO, "--profile-csv %s: cannot write it", A->profile_csv);
  }
  return rc;
}

/* -o: the first variant's final q in the original numbering, with an XDMF
 * sidecar. */
static int af_write(af_app_t *A, int argc, char **argv) {
  const tsr_cli_t *cli = &A->cli;
  char cmd[1024];
  tsr_provenance_command_line(argc, argv, cmd, sizeof cmd);
  tsr_provenance_t prov = {"tsr-airfoil", A->qvariant, A->qdevice, cmd, A->nranks};
  int rc = tsr_error_agree(MPI_COMM_WORLD, A->have_q ? 0 : TSR_RAISE(TSR_ERR_ARG,
                           "-o %s: no variant ran, so there is no solution to write", cli->output));
  if (!rc) rc = airfoil_write_solution(MPI_COMM_WORLD, cli->output, A->mesh, &A->loc, A->qout, &prov);
  if (!rc && A->say) printf("final q of %s written to %s (original numbering) with an XDMF sidecar\n",
                            prov.variant, cli->output);
  return rc;
}

/* Everything the run holds. */
static void af_free(af_app_t *A) {
  tsr_report_destroy(&A->rep);
  tsr_selection_free(&A->sel);
  free(A->rms);
  free(A->ref);
  free(A->qout);
  free(A->prms);
  free(A->hist);
  airfoil_local_free(&A->loc);
  tsr_mesh_destroy(&A->mesh);
}

static int af_main(int argc, char **argv) {
  af_app_t A;
  memset(&A, 0, sizeof A);
  int done = 0, rc;
  TSR_CALL(af_options(&A, argc, argv, &done)); /* options */
  if (done) return 0;
  TSR_CALL(af_check_options(&A));
  /* Which variants: the list given, else by device. */
  TSR_CALL(tsr_run_select(&A.cli, af_variants, AIRFOIL_NVARIANTS, "cpu/ref", "cuda/*", &A.sel));
  TSR_CALL(af_mesh(&A));                           /* the problem */
  rc = af_prepare(&A);
  if (!rc) rc = af_reference(&A);                  /* the reference */
  if (!rc) rc = af_profile_open(&A);
  if (!rc) rc = tsr_report_create(&A.rep);
  if (!rc) rc = af_run_variants(&A);               /* run, verify */
  rc = af_profile_close(&A, rc);
  if (!rc && A.cli.output) rc = af_write(&A, argc, argv); /* output */
  if (!rc && A.say) printf("\n");
  if (!rc) rc = tsr_report_finish(A.rep, &A.cli, MPI_COMM_WORLD); /* report */
  af_free(&A);
  TSR_CALL(rc);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-airfoil");
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, af_main(argc, argv)));
  MPI_Finalize();
  return 0;
}
