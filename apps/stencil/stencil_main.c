/* apps/stencil/stencil_main.c: tsr-stencil, the stencil mini-app.
 *
 *   tsr-stencil laplap|hdiff|fastwaves [--size XxYxZ] [-i FILE.h5] [options]
 *
 * Runs the selected variants (--variant, default: all of the device) of one
 * stencil on regular and X-Y-unstructured grids, sweeping the precisions,
 * thread shapes, storage orders, compression and chasing given as lists;
 * verifies each against the CPU reference; prints a table and writes the
 * CSV (the original benchmark's columns plus ours) and the HDF5 output.
 * docs/STENCIL.md is the manual. */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *threads, *order, *compress, *chase, *fields, *precision, *jpt;
  int zw, kpt, flat;
  long seed;
  int64_t size[3];
  const char *halo;
} st_opts_t;

/* Split a comma list into at most max items (buf is modified). */
static int st_split(char *buf, const char **items, int max) {
  int n = 0;
  for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ",")) items[n++] = t;
  return n;
}

static int st_pick(const char *opt, const char *val, const char *const *names, int n, int *out) {
  for (int k = 0; k < n; k++)
    if (strcmp(val, names[k]) == 0) return *out = k, TSR_SUCCESS;
  return TSR_RAISE(TSR_ERR_ARG, "option --%s: '%s' is not one of %s%s%s%s%s", opt, val, names[0],
                   n > 1 ? ", " : "", n > 1 ? names[1] : "", n > 2 ? ", " : "", n > 2 ? names[2] : "");
}

typedef struct {
  FILE *csv;
  tsr_report_t *rep;
  int failures;
} st_out_t;

static int st_csv_open(const tsr_cli_t *cli, int rank, st_out_t *o) {
  if (!cli->csv || rank != 0) return TSR_SUCCESS;
  o->csv = fopen(cli->csv, "w");
  TSR_CHECK(o->csv, TSR_ERR_IO, "%s: cannot open for writing", cli->csv);
  fprintf(o->csv, "name,precision,domain_x,domain_y,domain_z,blocks_x,blocks_y,blocks_z,"
                  "threads_x,threads_y,threads_z,average_us,median_us,min_us,max_us,variant,"
                  "device,ranks,iterations,bytes_per_step,gbs,copy_gbs,pct_copy,verify,max_err,note\n");
  return TSR_SUCCESS;
}

static void st_emit(const stencil_state_t *S, const tsr_cli_t *cli, stencil_run_t *r, st_out_t *o,
                    double ceiling) {
  char name[160];
  stencil_run_name(S, r, name, sizeof name);
  const char *prec = S->prec == STENCIL_FLOAT ? "float" : "double";
  const tsr_variant_t *v = &stencil_variants[r->id];
  const int cuda = v->device == TSR_DEV_CUDA;
  tsr_result_t row;
  memset(&row, 0, sizeof row);
  snprintf(row.app, sizeof row.app, "%s", stencil_name(S->kind));
  if (cuda)
    snprintf(row.variant, sizeof row.variant, "%.70s %dx%dx%d", name, r->shape.bx, r->shape.by, r->shape.bz);
  else
    snprintf(row.variant, sizeof row.variant, "%.95s", name);
  snprintf(row.device, sizeof row.device, "%s", r->device[0] ? r->device : (cuda ? "cuda" : "cpu"));
  snprintf(row.precision, sizeof row.precision, "%s", prec);
  for (int d = 0; d < 3; d++) row.size[d] = S->gsize[d];
  row.ranks = S->size;
  const stencil_problem_t *G = &S->P;
  stencil_grid_t g = stencil_problem_grid(G);
  (void)g;
  /* the inner cells of the whole domain */
  int halo[3];
  stencil_halo(S->kind, halo);
  const double cells = (double)(S->gsize[0] - 2 * halo[0]) * (double)(S->gsize[1] - 2 * halo[1]) *
                       (double)(S->gsize[2] - 2 * halo[2] - (S->kind == STENCIL_FASTWAVES));
  row.bytes = cells * stencil_elems_per_cell(S->kind) * (S->prec == STENCIL_FLOAT ? 4 : 8);
  row.ceiling = ceiling;
  row.verify = r->skipped ? TSR_VERIFY_NA : r->verdict;
  snprintf(row.note, sizeof row.note, "%.95s", r->note);
  if (!r->skipped) row.time = tsr_stats(r->times, r->runs);
  if (row.verify == TSR_VERIFY_FAIL) o->failures++;
  if (S->rank == 0 && !cli->quiet)
    printf("%-48s %s %s %s\n", row.variant, prec,
           r->skipped ? "SKIPPED" : row.verify == TSR_VERIFY_PASS ? "PASSED"
                                  : row.verify == TSR_VERIFY_FAIL ? "FAILED" : tsr_verify_name(row.verify),
           r->note);
  tsr_report_add(o->rep, &row);
  if (o->csv) {
    const double us = 1e6, med = row.time.median;
    const double gbs = !r->skipped && med > 0 ? row.bytes / med / 1e9 : 0;
    fprintf(o->csv, "%s,%s,%lld,%lld,%lld,%u,%u,%u,%d,%d,%d,%.1f,%.1f,%.1f,%.1f,%s,%s,%d,%d,%.0f,"
                    "%.2f,%.2f,%.2f,%s,%.3e,\"%s\"\n",
            name, prec == NULL ? "" : (S->prec == STENCIL_FLOAT ? "single" : "double"),
            (long long)S->gsize[0], (long long)S->gsize[1], (long long)S->gsize[2], r->blocks[0],
            r->blocks[1], r->blocks[2], cuda ? r->shape.bx : 1, cuda ? r->shape.by : 1,
            cuda ? r->shape.bz : 1, row.time.mean * us, med * us, row.time.min * us,
            row.time.max * us, v->name, row.device, S->size, r->iterations, row.bytes, gbs,
            ceiling / 1e9, ceiling > 0 && gbs > 0 ? 100.0 * gbs * 1e9 / ceiling : 0,
            r->skipped ? "skipped" : tsr_verify_name(row.verify), r->maxerr, r->note);
  }
}

static int st_main(int argc, char **argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank, nranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  tsr_cli_t cli;
  tsr_cli_init(&cli, "tsr-stencil",
               "laplap, hdiff and fastwaves on regular and X-Y-unstructured grids.\n"
               "Usage: tsr-stencil laplap|hdiff|fastwaves [options]");
  st_opts_t o = {"128x1x8", "zcurve", "no", "yes", "soa", "double", "8", 4, 8, STENCIL_FW_FLAT_LIMIT, 1,
                 {64, 64, 16}, "staged"};
  const tsr_opt_t opts[] = {
      {"size", 0, TSR_OPT_SIZE3, o.size, "XxYxZ", "domain, halo included (default 64x64x16)"},
      {"seed", 0, TSR_OPT_LONG, &o.seed, "S", "random inputs (default 1)"},
      {"precision", 0, TSR_OPT_STRING, &o.precision, "LIST", "double,float (default double)"},
      {"threads", 0, TSR_OPT_STRING, &o.threads, "LIST", "CUDA blocks BXxBYxBZ,... (default 128x1x8)"},
      {"kpt", 0, TSR_OPT_INT, &o.kpt, "K", "levels per thread of the sliced z-loops, tile-kloop, patch-kloop (default 8)"},
      {"jpt", 0, TSR_OPT_STRING, &o.jpt, "LIST", "rows per thread of the jwindow variants: 2,4,8,16 (default 8)"},
      {"order", 0, TSR_OPT_STRING, &o.order, "LIST", "unstr storage: rowmajor,zcurve,random (default zcurve)"},
      {"zcurve-width", 0, TSR_OPT_INT, &o.zw, "W", "z-curve: low x bits kept linear (default 4)"},
      {"compress", 0, TSR_OPT_STRING, &o.compress, "LIST", "unstr tables compressed: no,yes (default no)"},
      {"chase", 0, TSR_OPT_STRING, &o.chase, "LIST", "depth-2 points through depth 1: yes,no (default yes)"},
      {"fields", 0, TSR_OPT_STRING, &o.fields, "LIST", "fastwaves placement: soa,aos,aosoa (default soa)"},
      {"flat-limit", 0, TSR_OPT_INT, &o.flat, "K", "fastwaves: flat levels below K (default 0)"},
      {"halo", 0, TSR_OPT_STRING, &o.halo, "MODE", "CUDA halo exchange between ranks: staged (pinned host buffers) or ipc (device to device, CUDA IPC; ranks on one node) (default staged)"},
  };
  const int nopts = (int)(sizeof opts / sizeof opts[0]);
  const char *pos[2];
  int npos = 0;
  cli.iterations = 1;
  TSR_CALL(tsr_error_agree(comm, tsr_cli_parse(&cli, argc, argv, opts, nopts, comm, pos, 2, &npos)));
  if (cli.exit_now) return TSR_SUCCESS;
  if (cli.list_variants) {
    if (rank == 0) tsr_variant_list(stencil_variants, STENCIL_NVARIANTS, stdout);
    return TSR_SUCCESS;
  }
  TSR_CHECK(npos == 1, TSR_ERR_ARG, "expected the stencil as the first argument: laplap, hdiff or fastwaves");
  const int kind = stencil_from_name(pos[0]);
  TSR_CHECK(kind >= 0, TSR_ERR_ARG, "unknown stencil '%s': expected laplap, hdiff or fastwaves", pos[0]);
  TSR_CHECK(cli.iterations >= 1 && cli.runs >= 1 && cli.warmup >= 0, TSR_ERR_ARG,
            "--iterations and --runs must be >= 1, --warmup >= 0");
  TSR_CHECK(o.zw >= 0 && o.zw <= TSR_ZORDER_MAX_W, TSR_ERR_ARG, "--zcurve-width: expected 0..%d, got %d",
            TSR_ZORDER_MAX_W, o.zw);
  TSR_CHECK(o.flat >= 0, TSR_ERR_ARG, "--flat-limit must be >= 0");
  TSR_CHECK(!strcmp(o.halo, "staged") || !strcmp(o.halo, "ipc"), TSR_ERR_ARG,
            "--halo: expected staged or ipc, got '%s'", o.halo);

  /* lists */
  char bt[512], bo[64], bc[32], bh[32], bf[64], bp[32], bj[64];
  const char *threads[16], *orders[3], *comps[2], *chases[2], *fields[3], *precs[2], *jpts[8];
  snprintf(bt, sizeof bt, "%s", o.threads), snprintf(bo, sizeof bo, "%s", o.order);
  snprintf(bc, sizeof bc, "%s", o.compress), snprintf(bh, sizeof bh, "%s", o.chase);
  snprintf(bf, sizeof bf, "%s", o.fields), snprintf(bp, sizeof bp, "%s", o.precision);
  snprintf(bj, sizeof bj, "%s", o.jpt);
  const int nt = st_split(bt, threads, 16), no = st_split(bo, orders, 3), nc = st_split(bc, comps, 2);
  const int nh = st_split(bh, chases, 2), nfl = st_split(bf, fields, 3), npr = st_split(bp, precs, 2);
  const int nj = st_split(bj, jpts, 8);
  TSR_CHECK(nt && no && nc && nh && nfl && npr && nj, TSR_ERR_ARG, "an empty list option");
  int jv[8];
  for (int k = 0; k < nj; k++) {
    char *end;
    const long v = strtol(jpts[k], &end, 10);
    TSR_CHECK(*end == 0 && (v == 2 || v == 4 || v == 8 || v == 16), TSR_ERR_ARG,
              "--jpt: '%s' is not one of 2, 4, 8, 16", jpts[k]);
    jv[k] = (int)v;
  }
  stencil_launch_t shapes[16];
  for (int k = 0; k < nt; k++) {
    int64_t s3[3];
    TSR_CALL(tsr_parse_size3(threads[k], s3));
    TSR_CHECK(s3[0] <= 1024 && s3[1] <= 1024 && s3[2] <= 1024, TSR_ERR_ARG, "--threads %s: too large", threads[k]);
    shapes[k] = (stencil_launch_t){(int)s3[0], (int)s3[1], (int)s3[2], o.kpt, jv[0]};
  }
  static const char *const on[3] = {"rowmajor", "zcurve", "random"}, *const yn[2] = {"no", "yes"};
  static const char *const fn[3] = {"soa", "aos", "aosoa"}, *const pn[2] = {"double", "float"};
  int ord[3], cmp[2], chs[2], plc[3], prc[2];
  for (int k = 0; k < no; k++) TSR_CALL(st_pick("order", orders[k], on, 3, &ord[k]));
  for (int k = 0; k < nc; k++) TSR_CALL(st_pick("compress", comps[k], yn, 2, &cmp[k]));
  for (int k = 0; k < nh; k++) TSR_CALL(st_pick("chase", chases[k], yn, 2, &chs[k]));
  for (int k = 0; k < nfl; k++) TSR_CALL(st_pick("fields", fields[k], fn, 3, &plc[k]));
  for (int k = 0; k < npr; k++) TSR_CALL(st_pick("precision", precs[k], pn, 2, &prc[k]));
  TSR_CHECK(kind == STENCIL_FASTWAVES || (nfl == 1 && plc[0] == TSR_SOA), TSR_ERR_ARG,
            "--fields aos/aosoa: only fastwaves has several fields");

  /* variants */
  const tsr_devkind_t dk = strcmp(cli.device, "cpu") == 0    ? TSR_DEV_CPU
                           : strcmp(cli.device, "cuda") == 0 ? TSR_DEV_CUDA
                                                             : tsr_device_default_kind();
  const char *spec = cli.variants ? cli.variants : dk == TSR_DEV_CUDA ? "cuda/*" : "cpu/*";
  int sel[STENCIL_NVARIANTS], nsel = 0;
  TSR_CALL(tsr_variant_select(stencil_variants, STENCIL_NVARIANTS, spec, sel, &nsel));

  for (int s = 0; s < nsel; s++) /* shapes a strategy can never take: an error, not a skip */
    if (stencil_variants[sel[s]].device == TSR_DEV_CUDA)
      for (int t = 0; t < nt; t++) TSR_CALL(stencil_cuda_shape_valid(stencil_variant_strategy(sel[s]), shapes[t]));
  int64_t gsize[3] = {o.size[0], o.size[1], o.size[2]};
  if (cli.input) TSR_CALL(stencil_io_size(comm, cli.input, gsize));

  st_out_t out = {NULL, NULL, 0};
  TSR_CALL(tsr_report_create(&out.rep));
  int rc = st_csv_open(&cli, rank, &out);
  rc = tsr_error_agree(comm, rc);
  void *last = NULL;
  char lastname[160] = "", lastdev[64] = "";
  for (int ip = 0; !rc && ip < npr; ip++)
    for (int ifl = 0; !rc && ifl < nfl; ifl++) {
      stencil_state_t S;
      rc = stencil_state_init(&S, comm, kind, prc[ip], plc[ifl], gsize, (uint64_t)o.seed, cli.input, o.flat);
      if (!rc && cli.verify) rc = stencil_state_reference(&S, cli.iterations);
      if (!rc && rank == 0 && !cli.quiet)
        printf("tsr-stencil %s: %lldx%lldx%lld (halo %d,%d,%d), %s, %s, %d iteration%s, %d rank%s\n",
               stencil_name(kind), (long long)gsize[0], (long long)gsize[1], (long long)gsize[2],
               S.P.halo[0], S.P.halo[1], S.P.halo[2], pn[prc[ip]], fn[plc[ifl]], cli.iterations,
               cli.iterations == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s");
      double ceiling = 0;
      tsr_file_t *of = NULL; /* -o: the last precision and placement, every variant's result */
      char written[1024] = "";
      int nwritten = 0;
      if (!rc && cli.output && ip == npr - 1 && ifl == nfl - 1) rc = stencil_io_open(&S, cli.output, &of);
      for (int s = 0; !rc && s < nsel; s++) {
        const int id = sel[s];
        const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
        const int cuda = stencil_variants[id].device == TSR_DEV_CUDA;
        const int nu = unstr ? no * nc * (kind == STENCIL_FASTWAVES ? 1 : nh) : 1;
        const int njv = cuda && stencil_cuda_uses_jpt(stencil_variant_strategy(id)) ? nj : 1;
        for (int u = 0; !rc && u < nu; u++)
          for (int t = 0; !rc && t < (cuda ? nt : 1) * njv; t++) {
            stencil_run_t r;
            memset(&r, 0, sizeof r);
            r.id = id;
            r.u.order = ord[u % no];
            r.u.zw = o.zw;
            r.u.comp = cmp[(u / no) % nc];
            r.u.depth = kind == STENCIL_FASTWAVES ? 1 : (chs[(u / no / nc) % nh] ? 1 : 2);
            r.shape = shapes[t / njv];
            r.shape.jpt = jv[t % njv];
            r.iterations = cli.iterations, r.runs = cli.runs, r.warmup = cli.warmup;
            r.halo_ipc = !strcmp(o.halo, "ipc");
            r.verify = cli.verify && id != STENCIL_V_CPU_REF;
            r.times = calloc((size_t)cli.runs, sizeof(double));
            if (!r.times) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory");
            if (!rc) rc = stencil_run_variant(&S, &r);
            if (!rc && !r.skipped) {
              tsr_device_t dev;
              ceiling = 0;
              if (!tsr_device_select(comm, stencil_variants[id].device, &dev)) {
                if (tsr_bandwidth_ceiling(&dev, &ceiling)) ceiling = 0;
              }
              tsr_error_clear();
            }
            if (!rc) st_emit(&S, &cli, &r, &out, r.skipped ? 0 : ceiling);
            if (!rc && r.result) {
              free(last);
              last = r.result;
              stencil_run_name(&S, &r, lastname, sizeof lastname);
              snprintf(lastdev, sizeof lastdev, "%s", r.device);
              r.result = NULL;
              if (of) { /* /variants/vK: this run's result, with its names */
                char grp[32];
                snprintf(grp, sizeof grp, "/variants/v%d", nwritten++);
                rc = stencil_io_put(&S, of, grp, last, stencil_variants[id].name, lastname, lastdev);
                const size_t k = strlen(written);
                snprintf(written + k, sizeof written - k, "%s%s", k ? ", " : "", lastname);
              }
            }
            free(r.result);
            free(r.times);
          }
      }
      if (of) { /* /fields: the last result */
        if (!rc && nwritten == 0)
          rc = TSR_RAISE(TSR_ERR_ARG, "-o %s: no variant ran, nothing to write", cli.output);
        if (!rc) rc = stencil_io_put(&S, of, NULL, last, NULL, NULL, NULL);
        rc = stencil_io_close(&S, &of, written, cli.command_line, lastdev, tsr_error_agree(comm, rc));
        rc = tsr_error_agree(comm, rc);
      }
      stencil_state_free(&S);
    }
  free(last);
  if (out.csv) fclose(out.csv);
  if (!rc) {
    if (!cli.quiet) {
      if (rank == 0) printf("\n");
      tsr_report_print(out.rep, comm, stdout);
    }
  }
  tsr_report_destroy(&out.rep);
  TSR_CALL(rc);
  TSR_CHECK(out.failures == 0, TSR_ERR_VERIFY, "%d run%s FAILED verification", out.failures,
            out.failures == 1 ? "" : "s");
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-stencil");
  TSR_CALL_ABORT(MPI_COMM_WORLD, st_main(argc, argv));
  MPI_Finalize();
  return 0;
}
