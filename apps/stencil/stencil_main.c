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

/* The option lists, split and checked (shapes[t].jpt is jv[0]). */
typedef struct {
  int nt, no, nc, nh, nfl, npr, nj;
  int jv[8];
  stencil_launch_t shapes[16];
  int ord[3], cmp[2], chs[2], plc[3], prc[2];
} st_lists_t;

/* One tsr-stencil run: its options, lists, variants, report, and the last
 * result (-o). */
typedef struct {
  MPI_Comm comm;
  int rank, nranks;
  tsr_cli_t cli;
  st_opts_t o;
  int kind;
  st_lists_t L;
  tsr_selection_t sel;
  int64_t gsize[3];
  tsr_report_t *rep;
  void *last;
  char lastname[160], lastdev[64];
} st_app_t;

static const char *const st_order_names[3] = {"rowmajor", "zcurve", "random"};
static const char *const st_yn_names[2] = {"no", "yes"};
static const char *const st_field_names[3] = {"soa", "aos", "aosoa"};
static const char *const st_prec_names[2] = {"double", "float"};

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

/* The configuration beyond the variant name (docs/STENCIL.md). */
static void st_config(const stencil_state_t *S, const stencil_run_t *r, char *buf, size_t n) {
  const tsr_variant_t *v = &stencil_variants[r->id];
  const int strat = stencil_variant_strategy(r->id);
  size_t k = 0;
  buf[0] = 0;
#define ST_CFG(...) (k += k < n ? (size_t)snprintf(buf + k, n - k, __VA_ARGS__) : 0)
  if (v->device == TSR_DEV_CUDA) {
    ST_CFG("threads=%dx%dx%d", r->shape.bx, r->shape.by, r->shape.bz);
    if (stencil_cuda_uses_jpt(strat)) ST_CFG(" jpt=%d", stencil_launch_jpt(r->shape));
    if (strat == STENCIL_CU_IDXVAR_KLOOP_SLICED || strat == STENCIL_CU_TILE_KLOOP ||
        strat == STENCIL_CU_PATCH || strat == STENCIL_CU_JWIN_PLAN || strat == STENCIL_CU_JWIN_PROTO)
      ST_CFG(" kpt=%d", r->shape.kpt); /* the strategies that march up --kpt levels */
  }
  if (stencil_variant_grid(r->id) == STENCIL_GRID_UNSTR) {
    ST_CFG("%sorder=%s", k ? " " : "", st_order_names[r->u.order]);
    if (r->u.order == STENCIL_ORDER_ZCURVE) ST_CFG("(w=%d)", r->u.zw);
    ST_CFG(" compress=%s", r->u.comp ? "yes" : "no");
    if (S->kind != STENCIL_FASTWAVES) ST_CFG(" chase=%s", r->u.depth == 2 ? "no" : "yes");
  }
  if (S->kind == STENCIL_FASTWAVES) ST_CFG("%sfields=%s", k ? " " : "", st_field_names[S->placement]);
#undef ST_CFG
}

/* One row: lib's columns, then the original benchmark's name, blocks,
 * threads, iterations and the largest error (docs/CSV.md). */
static int st_emit(const stencil_state_t *S, const tsr_cli_t *cli, const stencil_run_t *r,
                   int required, tsr_report_t *rep, double ceiling) {
  char name[160];
  stencil_run_name(S, r, name, sizeof name);
  const char *prec = S->prec == STENCIL_FLOAT ? "float" : "double";
  const tsr_variant_t *v = &stencil_variants[r->id];
  const int cuda = v->device == TSR_DEV_CUDA;
  tsr_result_t row;
  tsr_result_init(&row, stencil_name(S->kind), v, NULL, required);
  st_config(S, r, row.config, sizeof row.config);
  if (r->device[0]) snprintf(row.device, sizeof row.device, "%s", r->device);
  snprintf(row.precision, sizeof row.precision, "%s", prec);
  for (int d = 0; d < 3; d++) row.size[d] = S->gsize[d];
  row.ranks = S->size;
  /* the inner cells of the whole domain */
  int halo[3];
  stencil_halo(S->kind, halo);
  const double cells = (double)(S->gsize[0] - 2 * halo[0]) * (double)(S->gsize[1] - 2 * halo[1]) *
                       (double)(S->gsize[2] - 2 * halo[2] - (S->kind == STENCIL_FASTWAVES));
  const int es = S->prec == STENCIL_FLOAT ? 4 : 8;
  row.bytes = cells * stencil_elems_per_cell(S->kind) * es;
  row.footprint = (double)S->gsize[0] * (double)S->gsize[1] * (double)S->gsize[2] * es *
                  stencil_elems_per_cell(S->kind);
  row.ceiling = ceiling;
  row.verify = r->verdict;
  snprintf(row.note, sizeof row.note, "%s", r->note);
  row.time = r->time;
  if (r->skipped) tsr_result_notrun(&row, "%s", r->note);
  if (r->skipped && tsr_variant_unavailable(v)) row.config[0] = 0; /* one row for every configuration */
  tsr_csv_field(row.extra, sizeof row.extra, name);
  const size_t k = strlen(row.extra);
  snprintf(row.extra + k, sizeof row.extra - k, ",%u,%u,%u,%d,%d,%d,%d,%.3e", r->blocks[0],
           r->blocks[1], r->blocks[2], cuda ? r->shape.bx : 1, cuda ? r->shape.by : 1,
           cuda ? r->shape.bz : 1, r->iterations, r->maxerr);
  if (S->rank == 0 && !cli->quiet)
    printf("%s%s%s %s %s %s\n", v->name, row.config[0] ? " " : "", row.config, prec,
           r->skipped ? "not run:" : row.verify == TSR_VERIFY_PASS ? "PASSED"
           : row.verify == TSR_VERIFY_FAIL ? "FAILED" : tsr_verify_name(row.verify), r->note);
  return tsr_report_add(rep, &row);
}


/* The options (lib's cli) and the stencil; *done when --help, --version or
 * --list-variants answered. */
static int st_options(st_app_t *A, int argc, char **argv, int *done) {
  MPI_Comm comm = A->comm;
  tsr_cli_t *cli = &A->cli;
  st_opts_t *o = &A->o;
  tsr_cli_init(cli, "tsr-stencil",
               "laplap, hdiff and fastwaves on regular and X-Y-unstructured grids.");
  cli->args = "laplap|hdiff|fastwaves";
  *o = (st_opts_t){"128x1x8", "zcurve", "no", "yes", "soa", "double", "8", 4, 8, STENCIL_FW_FLAT_LIMIT, 1,
                   {64, 64, 16}, "staged"};
  const tsr_opt_t opts[] = {
      {"size", 0, TSR_OPT_SIZE3, o->size, "XxYxZ", "domain, halo included (default 64x64x16)"},
      {"seed", 0, TSR_OPT_LONG, &o->seed, "S", "random inputs (default 1)"},
      {"precision", 0, TSR_OPT_STRING, &o->precision, "LIST", "double,float (default double)"},
      {"threads", 0, TSR_OPT_STRING, &o->threads, "LIST", "CUDA blocks BXxBYxBZ,... (default 128x1x8)"},
      {"kpt", 0, TSR_OPT_INT, &o->kpt, "K", "levels per thread of the sliced z-loops, tile-kloop, patch-kloop (default 8)"},
      {"jpt", 0, TSR_OPT_STRING, &o->jpt, "LIST", "rows per thread of the jwindow variants: 2,4,8,16 (default 8)"},
      {"order", 0, TSR_OPT_STRING, &o->order, "LIST", "unstr storage: rowmajor,zcurve,random (default zcurve)"},
      {"zcurve-width", 0, TSR_OPT_INT, &o->zw, "W", "z-curve: low x bits kept linear (default 4)"},
      {"compress", 0, TSR_OPT_STRING, &o->compress, "LIST", "unstr tables compressed: no,yes (default no)"},
      {"chase", 0, TSR_OPT_STRING, &o->chase, "LIST", "depth-2 points through depth 1: yes,no (default yes)"},
      {"fields", 0, TSR_OPT_STRING, &o->fields, "LIST", "fastwaves placement: soa,aos,aosoa (default soa)"},
      {"flat-limit", 0, TSR_OPT_INT, &o->flat, "K", "fastwaves: flat levels below K (default 0)"},
      {"halo", 0, TSR_OPT_STRING, &o->halo, "MODE", "CUDA halo exchange between ranks: staged (pinned host buffers) or ipc (device to device, CUDA IPC; ranks on one node) (default staged)"},
  };
  const int nopts = (int)(sizeof opts / sizeof opts[0]);
  const char *pos[2];
  int npos = 0;
  cli->iterations = 1;
  TSR_CALL(tsr_error_agree(comm, tsr_cli_parse(cli, argc, argv, opts, nopts, comm, pos, 2, &npos)));
  if (cli->exit_now) return *done = 1, TSR_SUCCESS;
  if (cli->list_variants) {
    if (A->rank == 0) tsr_variant_list(stencil_variants, STENCIL_NVARIANTS, stdout);
    return *done = 1, TSR_SUCCESS;
  }
  TSR_CHECK(npos == 1, TSR_ERR_ARG, "expected the stencil as the first argument: laplap, hdiff or fastwaves");
  const int kind = A->kind = stencil_from_name(pos[0]);
  TSR_CHECK(kind >= 0, TSR_ERR_ARG, "unknown stencil '%s': expected laplap, hdiff or fastwaves", pos[0]);
  TSR_CHECK(cli->iterations >= 1 && cli->runs >= 1 && cli->warmup >= 0, TSR_ERR_ARG,
            "--iterations and --runs must be >= 1, --warmup >= 0");
  TSR_CHECK(o->zw >= 0 && o->zw <= TSR_ZORDER_MAX_W, TSR_ERR_ARG, "--zcurve-width: expected 0..%d, got %d",
            TSR_ZORDER_MAX_W, o->zw);
  TSR_CHECK(o->flat >= 0, TSR_ERR_ARG, "--flat-limit must be >= 0");
  TSR_CHECK(!strcmp(o->halo, "staged") || !strcmp(o->halo, "ipc"), TSR_ERR_ARG,
            "--halo: expected staged or ipc, got '%s'", o->halo);
  return TSR_SUCCESS;
}

/* The list options (--threads, --order, ...) split and checked. */
static int st_lists(const st_opts_t *op, int kind, st_lists_t *L) {
  const st_opts_t o = *op;
  char bt[512], bo[64], bc[32], bh[32], bf[64], bp[32], bj[64];
  const char *threads[16], *orders[3], *comps[2], *chases[2], *fields[3], *precs[2], *jpts[8];
  snprintf(bt, sizeof bt, "%s", o.threads), snprintf(bo, sizeof bo, "%s", o.order);
  snprintf(bc, sizeof bc, "%s", o.compress), snprintf(bh, sizeof bh, "%s", o.chase);
  snprintf(bf, sizeof bf, "%s", o.fields), snprintf(bp, sizeof bp, "%s", o.precision);
  snprintf(bj, sizeof bj, "%s", o.jpt);
  const int nt = L->nt = st_split(bt, threads, 16), no = L->no = st_split(bo, orders, 3);
  const int nc = L->nc = st_split(bc, comps, 2), nh = L->nh = st_split(bh, chases, 2);
  const int nfl = L->nfl = st_split(bf, fields, 3), npr = L->npr = st_split(bp, precs, 2);
  const int nj = L->nj = st_split(bj, jpts, 8);
  TSR_CHECK(nt && no && nc && nh && nfl && npr && nj, TSR_ERR_ARG, "an empty list option");
  int *jv = L->jv;
  for (int k = 0; k < nj; k++) {
    char *end;
    const long v = strtol(jpts[k], &end, 10);
    TSR_CHECK(*end == 0 && (v == 2 || v == 4 || v == 8 || v == 16), TSR_ERR_ARG,
              "--jpt: '%s' is not one of 2, 4, 8, 16", jpts[k]);
    jv[k] = (int)v;
  }
  stencil_launch_t *shapes = L->shapes;
  for (int k = 0; k < nt; k++) {
    int64_t s3[3];
    TSR_CALL(tsr_parse_size3(threads[k], s3));
    TSR_CHECK(s3[0] <= 1024 && s3[1] <= 1024 && s3[2] <= 1024, TSR_ERR_ARG, "--threads %s: too large", threads[k]);
    shapes[k] = (stencil_launch_t){(int)s3[0], (int)s3[1], (int)s3[2], o.kpt, jv[0]};
  }
  for (int k = 0; k < no; k++) TSR_CALL(st_pick("order", orders[k], st_order_names, 3, &L->ord[k]));
  for (int k = 0; k < nc; k++) TSR_CALL(st_pick("compress", comps[k], st_yn_names, 2, &L->cmp[k]));
  for (int k = 0; k < nh; k++) TSR_CALL(st_pick("chase", chases[k], st_yn_names, 2, &L->chs[k]));
  for (int k = 0; k < nfl; k++) TSR_CALL(st_pick("fields", fields[k], st_field_names, 3, &L->plc[k]));
  for (int k = 0; k < npr; k++) TSR_CALL(st_pick("precision", precs[k], st_prec_names, 2, &L->prc[k]));
  TSR_CHECK(kind == STENCIL_FASTWAVES || (nfl == 1 && L->plc[0] == TSR_SOA), TSR_ERR_ARG,
            "--fields aos/aosoa: only fastwaves has several fields");
  return TSR_SUCCESS;
}

/* The variants (lib's selection), refused when a selected CUDA strategy
 * can never take a --threads shape. */
static int st_select(st_app_t *A) {
  tsr_selection_t *sel = &A->sel;
  TSR_CALL(tsr_selection_pick(&A->cli, stencil_variants, STENCIL_NVARIANTS, "cpu/*", "cuda/*", sel));
  const int nsel = sel->n;
  for (int s = 0; s < nsel; s++) /* shapes a strategy can never take: an error, not a skip */
    if (stencil_variants[sel->index[s]].device == TSR_DEV_CUDA)
      for (int t = 0; t < A->L.nt; t++)
        TSR_CALL(stencil_cuda_shape_valid(stencil_variant_strategy(sel->index[s]), A->L.shapes[t]));
  TSR_CALL(tsr_selection_check(sel, stencil_variants, &A->cli));
  return TSR_SUCCESS;
}

/* Keep r's result as the last one; -o: write it as /variants/vK of of, its
 * name appended to written. */
static int st_keep(st_app_t *A, stencil_state_t *S, stencil_run_t *r, tsr_file_t *of,
                   int *nwritten, char *written, size_t nw) {
  const int id = r->id;
  int rc = 0;
  free(A->last);
  A->last = r->result;
  snprintf(A->lastname, sizeof A->lastname, "%s", stencil_variants[id].name);
  snprintf(A->lastdev, sizeof A->lastdev, "%s", r->device);
  r->result = NULL;
  if (of) { /* /variants/vK: this run's result, with its names */
    char grp[32];
    snprintf(grp, sizeof grp, "/variants/v%d", (*nwritten)++);
    rc = stencil_io_put(S, of, grp, A->last, stencil_variants[id].name, A->lastname, A->lastdev);
    const size_t k = strlen(written);
    snprintf(written + k, nw - k, "%s%s", k ? ", " : "", A->lastname);
  }
  return rc;
}

/* Selected variant s on state S, once per configuration (order, compress,
 * chase; thread shape, jpt): run, verified, its row, its result kept. */
static int st_variant(st_app_t *A, stencil_state_t *S, int s, tsr_file_t *of, int *nwritten,
                      char *written, size_t nw) {
  const tsr_cli_t *cli = &A->cli;
  const st_lists_t *L = &A->L;
  const int kind = A->kind, no = L->no, nc = L->nc, nh = L->nh, nt = L->nt, nj = L->nj;
  const int id = A->sel.index[s];
  const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
  const int cuda = stencil_variants[id].device == TSR_DEV_CUDA;
  const int nu = unstr ? no * nc * (kind == STENCIL_FASTWAVES ? 1 : nh) : 1;
  const int njv = cuda && stencil_cuda_uses_jpt(stencil_variant_strategy(id)) ? nj : 1;
  const char *why = tsr_variant_unavailable(&stencil_variants[id]); /* one row says so */
  double ceiling = 0;
  int rc = 0;
  for (int u = 0; !rc && u < (why ? 1 : nu); u++)
    for (int t = 0; !rc && t < (why ? 1 : (cuda ? nt : 1) * njv); t++) {
      stencil_run_t r;
      memset(&r, 0, sizeof r);
      r.id = id;
      r.u.order = L->ord[u % no];
      r.u.zw = A->o.zw;
      r.u.comp = L->cmp[(u / no) % nc];
      r.u.depth = kind == STENCIL_FASTWAVES ? 1 : (L->chs[(u / no / nc) % nh] ? 1 : 2);
      r.shape = L->shapes[t / njv];
      r.shape.jpt = L->jv[t % njv];
      r.iterations = cli->iterations, r.runs = cli->runs, r.warmup = cli->warmup;
      r.quiet = cli->quiet;
      r.halo_ipc = !strcmp(A->o.halo, "ipc");
      r.verify = cli->verify && id != STENCIL_V_CPU_REF;
      if (why) r.skipped = 1, snprintf(r.note, sizeof r.note, "%s", why);
      else rc = stencil_run_variant(S, &r);
      if (!rc && !r.skipped) {
        tsr_device_t dev;
        ceiling = 0;
        if (!tsr_device_select(A->comm, stencil_variants[id].device, &dev)) {
          if (tsr_bandwidth_ceiling(&dev, &ceiling)) ceiling = 0;
        }
        tsr_error_clear();
      }
      if (!rc) rc = st_emit(S, cli, &r, A->sel.required[s], A->rep, r.skipped ? 0 : ceiling);
      if (!rc && r.result) rc = st_keep(A, S, &r, of, nwritten, written, nw);
      free(r.result);
    }
  return rc;
}

/* One precision and field placement: the state and reference, the header
 * line, every selected variant; -o (the last precision and placement):
 * every variant's result and, as /fields, the last one. */
static int st_state(st_app_t *A, int ip, int ifl) {
  const tsr_cli_t *cli = &A->cli;
  const st_lists_t *L = &A->L;
  const int nranks = A->nranks, kind = A->kind;
  const int64_t *gsize = A->gsize;
  MPI_Comm comm = A->comm;
  stencil_state_t S;
  int rc = stencil_state_init(&S, comm, kind, L->prc[ip], L->plc[ifl], A->gsize, (uint64_t)A->o.seed,
                              cli->input, A->o.flat);
  if (!rc && cli->verify) rc = stencil_state_reference(&S, cli->iterations);
  if (!rc && A->rank == 0 && !cli->quiet)
    printf("tsr-stencil %s: %lldx%lldx%lld (halo %d,%d,%d), %s, %s, %d iteration%s, %d rank%s\n",
           stencil_name(kind), (long long)gsize[0], (long long)gsize[1], (long long)gsize[2],
           S.P.halo[0], S.P.halo[1], S.P.halo[2], st_prec_names[L->prc[ip]],
           st_field_names[L->plc[ifl]], cli->iterations, cli->iterations == 1 ? "" : "s", nranks,
           nranks == 1 ? "" : "s");
  tsr_file_t *of = NULL; /* -o: the last precision and placement, every variant's result */
  char written[1024] = "";
  int nwritten = 0;
  if (!rc && cli->output && ip == L->npr - 1 && ifl == L->nfl - 1)
    rc = stencil_io_open(&S, cli->output, &of);
  for (int s = 0; !rc && s < A->sel.n; s++)
    rc = st_variant(A, &S, s, of, &nwritten, written, sizeof written);
  if (of) { /* /fields: the last result; with nothing to write the file is dropped and the
               report says why nothing ran */
    const int empty = !rc && nwritten == 0;
    if (!rc && !empty) rc = stencil_io_put(&S, of, NULL, A->last, NULL, NULL, NULL);
    rc = tsr_error_agree(comm, rc);
    const int rcc = stencil_io_close(&S, &of, written, cli->command_line, A->lastdev,
                                     rc ? rc : empty ? TSR_ERR_UNSUPPORTED : TSR_SUCCESS);
    if (!empty) rc = tsr_error_agree(comm, rcc);
  }
  stencil_state_free(&S);
  return rc;
}

static int st_main(int argc, char **argv) {
  st_app_t A;
  memset(&A, 0, sizeof A);
  A.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(A.comm, &A.rank);
  MPI_Comm_size(A.comm, &A.nranks);
  int done = 0;
  int rc = st_options(&A, argc, argv, &done); /* options */
  if (!rc && !done) rc = st_lists(&A.o, A.kind, &A.L);
  if (!rc && !done) rc = st_select(&A); /* variants */
  TSR_CALL(tsr_error_agree(A.comm, rc)); /* found on every rank: said once */
  if (done) return TSR_SUCCESS;
  memcpy(A.gsize, A.o.size, sizeof A.gsize); /* the problem's size */
  if (A.cli.input) TSR_CALL(stencil_io_size(A.comm, A.cli.input, A.gsize));

  TSR_CALL(tsr_report_create(&A.rep));
  rc = tsr_report_set_extra_columns(A.rep, "name,blocks_x,blocks_y,blocks_z,threads_x,threads_y,"
                                               "threads_z,iterations,max_err");
  for (int ip = 0; !rc && ip < A.L.npr; ip++) /* run, verify, write: per precision and placement */
    for (int ifl = 0; !rc && ifl < A.L.nfl; ifl++) rc = st_state(&A, ip, ifl);
  free(A.last);
  if (!rc && A.rank == 0 && !A.cli.quiet) printf("\n");
  if (!rc) rc = tsr_report_finish(A.rep, &A.cli, A.comm); /* report */
  tsr_report_destroy(&A.rep);
  tsr_selection_free(&A.sel);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-stencil");
  TSR_CALL_ABORT(MPI_COMM_WORLD, st_main(argc, argv));
  MPI_Finalize();
  return 0;
}
