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
  const char *tb_steps; /* temporal blocking */
  int tb_rows, tb_xpt, tb_warps;
} st_opts_t;

/* The option lists, split and checked (shapes[t].jpt is jv[0]). */
typedef struct {
  int nt, no, nc, nh, nfl, npr, nj, ntb;
  int jv[8];
  int tbs[STENCIL_TB_MAXSTEPS]; /* --tb-steps */
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
  tsr_halo_transport_t transport; /* --halo */
  int kind;
  st_lists_t L;
  tsr_selection_t sel;
  int64_t gsize[3];
  tsr_report_t *rep;
  void *last;
  char lastname[160], lastdev[64];
  stencil_ckpt_t ck;     /* --checkpoint-every, --restart (stencil_ckpt.c) */
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
  if (v->device == TSR_DEV_CUDA && strat == STENCIL_TB_STRATEGY) {
    ST_CFG("threads=32x%dx1", r->tb.warps);
  } else if (v->device == TSR_DEV_CUDA) {
    ST_CFG("threads=%dx%dx%d", r->shape.bx, r->shape.by, r->shape.bz);
    if (stencil_cuda_uses_jpt(strat)) ST_CFG(" jpt=%d", stencil_launch_jpt(r->shape));
    if (strat == STENCIL_CU_IDXVAR_KLOOP_SLICED || strat == STENCIL_CU_TILE_KLOOP ||
        strat == STENCIL_CU_PATCH || strat == STENCIL_CU_JWIN_PLAN || strat == STENCIL_CU_JWIN_PROTO)
      ST_CFG(" kpt=%d", r->shape.kpt); /* the strategies that march up --kpt levels */
  }
  if (strat == STENCIL_TB_STRATEGY)
    ST_CFG("%stb-steps=%d tb-rows=%d tb-xpt=%d", k ? " " : "", r->tb.steps, r->tb.rows, r->tb.xpt);
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
  cli->options |= TSR_CLI_CHECKPOINT;
  cli->variant_auto = 1; /* st_auto */
  *o = (st_opts_t){"128x1x8", "zcurve", "no", "yes", "soa", "double", "8", 4, 8, STENCIL_FW_FLAT_LIMIT, 1,
                   {64, 64, 16}, "staged", NULL, 32, 2, 4}; /* tb_steps: after parsing */
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
      {"tb-steps", 0, TSR_OPT_STRING, &o->tb_steps, "LIST", "tblock variants: steps per pass over memory, 1..4 (default 2; with --variant auto 2,3,4)"},
      {"tb-rows", 0, TSR_OPT_INT, &o->tb_rows, "J", "tblock variants: rows of a warp's strip (default 32)"},
      {"tb-xpt", 0, TSR_OPT_INT, &o->tb_xpt, "P", "tblock variants: points per lane along x, 1 or 2: tiles of 32P - 4 steps columns (default 2)"},
      {"tb-warps", 0, TSR_OPT_INT, &o->tb_warps, "W", "cuda tblock variants: warps (strips) per block (default 4)"},
      {"halo", 0, TSR_OPT_STRING, &o->halo, "MODE", "CUDA halo exchange between ranks: staged (pinned host buffers), ipc (device to device, CUDA IPC; ranks on one node), aware (device buffers to a CUDA-aware MPI; across nodes), nccl (NCCL's send and receive on the GPU's stream; where built) or auto (aware where the MPI is CUDA-aware, else staged) (default staged)"},
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
  TSR_CALL(tsr_halo_transport_parse(o->halo, &A->transport));
  /* --tb-steps not given: 2 steps per pass for the tblock variants named or
     run in a sweep; --variant auto tries 2, 3 and 4 (which is fastest
     depends on the stencil, the device and the size) */
  if (!o->tb_steps) o->tb_steps = cli->variants && tsr_variant_named(cli->variants, "auto") ? "2,3,4" : "2";
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
  char bs[64];
  const char *tbs[STENCIL_TB_MAXSTEPS];
  snprintf(bs, sizeof bs, "%s", o.tb_steps);
  L->ntb = st_split(bs, tbs, STENCIL_TB_MAXSTEPS);
  TSR_CHECK(L->ntb, TSR_ERR_ARG, "--tb-steps: an empty list");
  for (int k = 0; k < L->ntb; k++) {
    char *end;
    const long v = strtol(tbs[k], &end, 10);
    TSR_CHECK(*end == 0 && v >= 1 && v <= STENCIL_TB_MAXSTEPS, TSR_ERR_ARG,
              "--tb-steps: '%s' is not one of 1 .. %d", tbs[k], STENCIL_TB_MAXSTEPS);
    L->tbs[k] = (int)v;
    TSR_CALL(stencil_tb_check((stencil_tb_t){L->tbs[k], o.tb_rows, o.tb_xpt, o.tb_warps}));
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
  /* variants made for other stencils leave a pattern's or the default list's
     selection (named ones stay, and say why they do not run) */
  int keep = 0;
  for (int s = 0; s < sel->n; s++) {
    const int id = sel->index[s];
    if (!stencil_variant_applies(id, A->kind) &&
        !(A->cli.variants && tsr_variant_named(A->cli.variants, stencil_variants[id].name)))
      continue;
    sel->index[keep] = id, sel->required[keep] = sel->required[s], keep++;
  }
  if (!keep && sel->n) {
    tsr_selection_free(sel);
    return TSR_RAISE(TSR_ERR_ARG, "--variant %s: none of its variants is made for %s",
                     A->cli.variants ? A->cli.variants : "(default)", stencil_name(A->kind));
  }
  sel->n = keep;
  const int nsel = sel->n;
  for (int s = 0; s < nsel; s++) /* shapes a strategy can never take: an error, not a skip */
    if (stencil_variants[sel->index[s]].device == TSR_DEV_CUDA)
      for (int t = 0; t < A->L.nt; t++)
        TSR_CALL(stencil_cuda_shape_valid(stencil_variant_strategy(sel->index[s]), A->L.shapes[t]));
  TSR_CALL(tsr_selection_check(sel, stencil_variants, &A->cli));
  if (A->cli.checkpoint_every > 0 || A->cli.restart) { /* a checkpoint is one run's state */
    const int id = nsel == 1 ? sel->index[0] : 0, kind = A->kind;
    const st_lists_t *L = &A->L;
    const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
    const int cuda = stencil_variants[id].device == TSR_DEV_CUDA;
    const int nu = unstr ? L->no * L->nc * (kind == STENCIL_FASTWAVES ? 1 : L->nh) : 1;
    const int nj = cuda && stencil_cuda_uses_jpt(stencil_variant_strategy(id)) ? L->nj : 1;
    const int runs = nsel * L->npr * L->nfl * nu * (cuda ? L->nt : 1) * nj;
    TSR_CALL(tsr_error_agree(A->comm, runs == 1 ? 0 : TSR_RAISE(TSR_ERR_ARG,
             "--%s: checkpoints hold one run's state, but these options make %d runs (give one "
             "variant, precision, --fields and configuration)",
             A->cli.restart ? "restart" : "checkpoint-every", runs)));
    A->ck = (stencil_ckpt_t){A->cli.checkpoint_every, A->cli.checkpoint, A->cli.restart, 0,
                             A->cli.iterations, A->cli.command_line, A->cli.quiet,
                             {{0}, 0, {{0}}, {{0}}}};
  }
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

/* The configurations of variant id: nu unstructured storages x nrun
 * launch configurations (thread shapes x jpt, or --tb-steps). */
static void st_counts(const st_app_t *A, int id, int *nu, int *nrun) {
  const st_lists_t *L = &A->L;
  const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
  const int cuda = stencil_variants[id].device == TSR_DEV_CUDA;
  const int njv = cuda && stencil_cuda_uses_jpt(stencil_variant_strategy(id)) ? L->nj : 1;
  *nu = unstr ? L->no * L->nc * (A->kind == STENCIL_FASTWAVES ? 1 : L->nh) : 1;
  *nrun = stencil_variant_strategy(id) == STENCIL_TB_STRATEGY ? L->ntb : (cuda ? L->nt : 1) * njv;
}

/* Run r of variant id, configuration (u, t), with the command line's runs. */
static void st_fill(const st_app_t *A, int id, int u, int t, stencil_run_t *r) {
  const tsr_cli_t *cli = &A->cli;
  const st_lists_t *L = &A->L;
  const int no = L->no, nc = L->nc, nh = L->nh;
  const int cuda = stencil_variants[id].device == TSR_DEV_CUDA;
  const int njv = cuda && stencil_cuda_uses_jpt(stencil_variant_strategy(id)) ? L->nj : 1;
  const int tbv = stencil_variant_strategy(id) == STENCIL_TB_STRATEGY; /* --tb-steps, not --threads */
  memset(r, 0, sizeof *r);
  r->id = id;
  r->u.order = L->ord[u % no];
  r->u.zw = A->o.zw;
  r->u.comp = L->cmp[(u / no) % nc];
  r->u.depth = A->kind == STENCIL_FASTWAVES ? 1 : (L->chs[(u / no / nc) % nh] ? 1 : 2);
  r->shape = L->shapes[tbv ? 0 : t / njv];
  r->shape.jpt = L->jv[tbv ? 0 : t % njv];
  if (tbv) r->tb = (stencil_tb_t){L->tbs[t], A->o.tb_rows, A->o.tb_xpt, A->o.tb_warps};
  r->iterations = cli->iterations - (int)A->ck.k0, r->runs = cli->runs, r->warmup = cli->warmup;
  r->quiet = cli->quiet;
  r->halo_transport = (int)A->transport;
  r->verify = cli->verify && id != STENCIL_V_CPU_REF;
}

/* Selected variant s on state S, once per configuration (order, compress,
 * chase; thread shape, jpt; tb-steps): run, verified, its row, its result
 * kept. With pick >= 0 (--variant auto) only configuration pick = u nrun +
 * t, its note prefixed by autonote. */
static int st_variant(st_app_t *A, stencil_state_t *S, int s, tsr_file_t *of, int *nwritten,
                      char *written, size_t nw, int pick, const char *autonote) {
  const tsr_cli_t *cli = &A->cli;
  const int id = A->sel.index[s];
  int nu, nrun;
  st_counts(A, id, &nu, &nrun);
  const char *why = tsr_variant_unavailable(&stencil_variants[id]); /* one row says so */
  double ceiling = 0;
  int rc = 0;
  for (int u = 0; !rc && u < (why ? 1 : nu); u++)
    for (int t = 0; !rc && t < (why ? 1 : nrun); t++) {
      if (pick >= 0 && pick != u * nrun + t) continue;
      stencil_run_t r;
      st_fill(A, id, u, t, &r);
      if (why) r.skipped = 1, snprintf(r.note, sizeof r.note, "%s", why);
      else rc = stencil_ckpt_run(S, &r, &A->ck);
      if (!rc && !r.skipped) {
        tsr_device_t dev;
        ceiling = 0;
        if (!tsr_device_select(A->comm, stencil_variants[id].device, &dev)) {
          if (tsr_bandwidth_ceiling(&dev, &ceiling)) ceiling = 0;
        }
        tsr_error_clear();
      }
      if (!rc && autonote) {
        char buf[2 * sizeof r.note];
        snprintf(buf, sizeof buf, "%s%s%s", autonote, r.note[0] ? "; " : "", r.note);
        snprintf(r.note, sizeof r.note, "%.*s", (int)sizeof r.note - 1, buf);
      }
      if (!rc) rc = st_emit(S, cli, &r, A->sel.required[s], A->rep, r.skipped ? 0 : ceiling);
      if (!rc && r.result) rc = st_keep(A, S, &r, of, nwritten, written, nw);
      free(r.result);
    }
  return rc;
}

/* --variant auto: every configuration of every selected variant that can
 * run here is a candidate (named "variant config"); a trial of each (at
 * most one warm-up and three timed runs of the command line's iterations,
 * not verified); lib's tsr_auto_choose picks (or takes the cached choice). */
typedef struct {
  st_app_t *A;
  stencil_state_t *S;
  int n;
  int *sel, *cfg;   /* [n] selection index, configuration u nrun + t */
  char **names;     /* [n] */
} st_auto_t;

static int st_trial(void *ctx, int c, double *sec) {
  st_auto_t *X = ctx;
  const int id = X->A->sel.index[X->sel[c]];
  int nu, nrun;
  st_counts(X->A, id, &nu, &nrun);
  stencil_run_t r;
  st_fill(X->A, id, X->cfg[c] / nrun, X->cfg[c] % nrun, &r);
  r.runs = TSR_MIN(r.runs, 3), r.warmup = TSR_MIN(r.warmup, 1), r.verify = 0, r.quiet = 1;
  TSR_CALL(stencil_run_variant(X->S, &r));
  free(r.result);
  *sec = r.skipped ? -1 : r.time.median;
  return TSR_SUCCESS;
}

static int st_auto(st_app_t *A, stencil_state_t *S, tsr_file_t *of, int *nwritten, char *written,
                   size_t nw) {
  st_auto_t X = {A, S, 0, NULL, NULL, NULL};
  int cap = 0, rc = 0;
  for (int s = 0; s < A->sel.n; s++) {
    int nu, nrun;
    st_counts(A, A->sel.index[s], &nu, &nrun);
    if (!tsr_variant_unavailable(&stencil_variants[A->sel.index[s]])) cap += nu * nrun;
  }
  X.sel = malloc(sizeof(int) * (size_t)(cap + 1)), X.cfg = malloc(sizeof(int) * (size_t)(cap + 1));
  X.names = calloc((size_t)cap + 1, sizeof(char *));
  if (!X.sel || !X.cfg || !X.names) rc = TSR_RAISE(TSR_ERR_ALLOC, "--variant auto: out of memory");
  for (int s = 0; !rc && s < A->sel.n; s++) {
    const int id = A->sel.index[s];
    if (tsr_variant_unavailable(&stencil_variants[id])) continue;
    int nu, nrun;
    st_counts(A, id, &nu, &nrun);
    for (int k = 0; !rc && k < nu * nrun; k++) {
      stencil_run_t r;
      st_fill(A, id, k / nrun, k % nrun, &r);
      char cfg[160];
      st_config(S, &r, cfg, sizeof cfg);
      const size_t len = strlen(stencil_variants[id].name) + strlen(cfg) + 2;
      X.names[X.n] = malloc(len);
      if (!X.names[X.n]) rc = TSR_RAISE(TSR_ERR_ALLOC, "--variant auto: out of memory");
      else snprintf(X.names[X.n], len, "%s%s%s", stencil_variants[id].name, cfg[0] ? " " : "", cfg);
      X.sel[X.n] = s, X.cfg[X.n] = k, X.n += !rc;
    }
  }
  char problem[256], dev[sizeof(tsr_device_t){0}.name] = "";
  snprintf(problem, sizeof problem, "%s %lldx%lldx%lld %s %s %d steps %d ranks", stencil_name(A->kind),
           (long long)A->gsize[0], (long long)A->gsize[1], (long long)A->gsize[2],
           S->prec == STENCIL_FLOAT ? "float" : "double", st_field_names[S->placement],
           A->cli.iterations, S->size);
  tsr_device_t d;
  if (!rc && X.n > 0 && !tsr_device_select(A->comm, stencil_variants[A->sel.index[X.sel[0]]].device, &d))
    snprintf(dev, sizeof dev, "%s", d.name);
  tsr_error_clear();
  tsr_auto_t a = {"tsr-stencil", problem, dev, X.n, (const char *const *)X.names, st_trial, &X,
                  A->cli.retune, A->cli.quiet};
  tsr_auto_result_t res;
  if (!rc) rc = tsr_auto_choose(&a, A->comm, &res);
  if (!rc) {
    const int s = X.sel[res.winner];
    rc = st_variant(A, S, s, of, nwritten, written, nw, X.cfg[res.winner], res.note);
  }
  for (int k = 0; X.names && k < X.n; k++) free(X.names[k]);
  free(X.names), free(X.sel), free(X.cfg);
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
  if (!rc) rc = stencil_ckpt_begin(&S, &A->ck); /* --restart: the state to go on from */
  if (!rc && cli->verify) rc = stencil_state_reference(&S, cli->iterations - (int)A->ck.k0);
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
  if (!rc && A->sel.autotune) rc = st_auto(A, &S, of, &nwritten, written, sizeof written);
  for (int s = 0; !rc && !A->sel.autotune && s < A->sel.n; s++)
    rc = st_variant(A, &S, s, of, &nwritten, written, sizeof written, -1, NULL);
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
