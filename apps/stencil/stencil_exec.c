/* apps/stencil/stencil_exec.c: tsr-stencil's state (decomposition, inputs,
 * reference: each rank its block) and the execution of one variant: device
 * arrays, ping-pong steps with the halo exchange overlapped with the
 * interior, timing, and verification against the CPU reference block by
 * block (the largest error reduced over the ranks). */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <stdlib.h>
#include <string.h>

const tsr_variant_t stencil_variants[STENCIL_NVARIANTS] = {
#define STENCIL_VARIANT(id, name, dev, grid, strat, help) {name, dev, help, STENCIL_V_##id},
#include "kernels/stencil/variants.def"
#undef STENCIL_VARIANT
};
static const int st_vgrid[STENCIL_NVARIANTS] = {
#define STENCIL_VARIANT(id, name, dev, grid, strat, help) grid,
#include "kernels/stencil/variants.def"
#undef STENCIL_VARIANT
};
static const int st_vstrat[STENCIL_NVARIANTS] = {
#define STENCIL_VARIANT(id, name, dev, grid, strat, help) strat,
#include "kernels/stencil/variants.def"
#undef STENCIL_VARIANT
};
int stencil_variant_grid(int id) { return st_vgrid[id]; }
int stencil_variant_strategy(int id) { return st_vstrat[id]; }

/* ------------------------------------------------------------ state */

int stencil_state_init(stencil_state_t *S, MPI_Comm comm, int kind, int prec, int placement,
                       const int64_t gsize[3], uint64_t seed, const char *input, int flat) {
  memset(S, 0, sizeof *S);
  S->comm = comm;
  MPI_Comm_rank(comm, &S->rank);
  MPI_Comm_size(comm, &S->size);
  S->kind = kind, S->prec = prec, S->placement = placement, S->seed = seed, S->flat = flat;
  int halo[3];
  stencil_halo(kind, halo);
  int64_t lsize[3];
  for (int d = 0; d < 3; d++) {
    S->gsize[d] = gsize[d];
    lsize[d] = gsize[d];
  }
  if (S->size > 1) {
    TSR_CHECK(placement != TSR_AOSOA, TSR_ERR_UNSUPPORTED,
              "fastwaves: AoSoA placement runs on one rank only (the halo exchange moves whole "
              "cells of SoA or AoS arrays)");
    /* the global size check first, so the message names the whole domain */
    for (int d = 0; d < 3; d++) {
      const int64_t need = 2 * halo[d] + (kind == STENCIL_FASTWAVES && d == 2 ? 2 : 1);
      TSR_CHECK(gsize[d] >= need, TSR_ERR_ARG,
                "%s: domain %lldx%lldx%lld (halo included) is too small for its halo %d,%d,%d: "
                "%c needs at least %lld points", stencil_name(kind), (long long)gsize[0],
                (long long)gsize[1], (long long)gsize[2], halo[0], halo[1], halo[2], "XYZ"[d],
                (long long)need);
    }
    const tsr_idx_t n[3] = {gsize[0] - 2 * halo[0], gsize[1] - 2 * halo[1], gsize[2]};
    TSR_CALL(tsr_grid_part_init(comm, n, halo[0], NULL, &S->part));
    lsize[0] = S->part.inner[0] + 2 * halo[0];
    lsize[1] = S->part.inner[1] + 2 * halo[1];
    S->off[0] = S->part.lo[0];
    S->off[1] = S->part.lo[1];
  }
  { /* up front: this rank's arrays (problem, reference, initial state, ping,
       pong, constants, result: 9 fields, fastwaves' two velocities twice) */
    const double cells = (double)lsize[0] * (double)lsize[1] * (double)lsize[2];
    const double es = prec == STENCIL_FLOAT ? 4 : 8, nf = kind == STENCIL_FASTWAVES ? 16 : 9;
    char what[96];
    snprintf(what, sizeof what, "tsr-stencil %s %lldx%lldx%lld", stencil_name(kind),
             (long long)gsize[0], (long long)gsize[1], (long long)gsize[2]);
    TSR_CALL(tsr_memory_check(comm, what, cells * es * nf, 0));
  }
  TSR_CALL(stencil_problem_create(kind, prec, lsize, placement, &S->P));
  if (input) {
    TSR_CALL(stencil_io_read(S, input));
  } else {
    stencil_problem_fill(&S->P, seed, S->off);
  }
  return TSR_SUCCESS;
}

void stencil_state_free(stencil_state_t *S) {
  stencil_problem_destroy(&S->P);
  free(S->ref);
  S->ref = NULL;
  if (S->have_upart) tsr_plane_part_free(&S->upart);
  S->have_upart = 0;
}

static const void *st_in(const stencil_problem_t *P) {
  return P->kind == STENCIL_FASTWAVES ? P->uv : P->in;
}
static const void *st_cst(const stencil_problem_t *P) {
  return P->kind == STENCIL_FASTWAVES ? P->cst : P->coeff;
}
static const tsr_layout_t *st_lio(const stencil_problem_t *P) {
  return P->kind == STENCIL_FASTWAVES ? &P->Luv : &P->L;
}

int stencil_state_reference(stencil_state_t *S, int iterations) {
  stencil_run_t r;
  memset(&r, 0, sizeof r);
  r.id = STENCIL_V_CPU_REF;
  r.iterations = iterations, r.runs = 1, r.warmup = 0, r.verify = 0, r.quiet = 1;
  TSR_CALL(stencil_run_variant(S, &r));
  TSR_CHECK(!r.skipped, TSR_ERR_INTERNAL, "reference: cpu/ref did not run: %s", r.note);
  free(S->ref);
  S->ref = r.result;
  S->have_ref = 1;
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ a run */

typedef struct {
  const stencil_state_t *S;
  int id, strategy, grid;
  tsr_device_t dev;
  stencil_ugrid_t U;
  int have_u;
  stencil_umpi_t M;             /* unstructured on several ranks (U is M.U then) */
  int have_m;
  stencil_grid_t gall;          /* the whole updated region */
  stencil_grid_t parts[5];      /* interior + boundary strips (halo exchange) */
  int nparts;
  const tsr_layout_t *Lio, *Lcst;
  size_t es, bio, bcst;
  void *init, *a, *b, *c;       /* on dev: initial in, ping, pong, constants */
  tsr_halo_t *halo[2];
  int nhalo, hdim;
  int64_t hoff[2];              /* element offset of each exchanged field */
  stencil_launch_t shape;
  int iterations;               /* steps per run */
} st_exec_t;

static int st_piece(st_exec_t *E, const stencil_grid_t *g, const void *src, void *dst, int strip) {
  const stencil_problem_t *P = &E->S->P;
  stencil_fields_t f = stencil_problem_fields(P, src, E->c, dst, E->S->flat);
  if (E->have_u && P->kind == STENCIL_FASTWAVES) f.Lc = E->U.Lc, f.Luv = E->U.Luv;
  if (E->dev.kind == TSR_DEV_CPU) {
    if (E->strategy < 0) TSR_CALL(stencil_cpu_ref(P->kind, g, &f));
    else TSR_CALL(stencil_cpu_run(P->kind, E->strategy, g, &f));
    return TSR_SUCCESS;
  }
  stencil_launch_t s = E->shape;
  int strategy = E->strategy;
  if (strip) { /* boundary strips: idxvar with a block that fits them */
    strategy = STENCIL_CU_IDXVAR;
    s.bx = (int)TSR_MIN(32, g->hi[0] - g->lo[0]);
    s.by = g->kind == STENCIL_GRID_REGULAR ? (int)TSR_MIN(8, g->hi[1] - g->lo[1]) : 1;
    s.bz = 1;
  }
  TSR_CALL(stencil_cuda_run(P->kind, strategy, g, &f, s));
  return TSR_SUCCESS;
}

static int st_step(st_exec_t *E, void *src, void *dst) {
  if (E->nhalo == 0 || E->strategy < 0) {
    for (int h = 0; h < E->nhalo; h++)
      TSR_CALL(tsr_halo_exchange(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim,
                                 E->S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE));
    TSR_CALL(st_piece(E, &E->gall, src, dst, 0));
    return TSR_SUCCESS;
  }
  const tsr_dtype_t t = E->S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  for (int h = 0; h < E->nhalo; h++)
    TSR_CALL(tsr_halo_begin(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim, t));
  if (E->parts[0].hi[0] > E->parts[0].lo[0] && E->parts[0].hi[1] > E->parts[0].lo[1])
    TSR_CALL(st_piece(E, &E->parts[0], src, dst, 0));
  for (int h = 0; h < E->nhalo; h++)
    TSR_CALL(tsr_halo_end(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim, t));
  for (int k = 1; k < E->nparts; k++)
    if (E->parts[k].hi[0] > E->parts[k].lo[0] && E->parts[k].hi[1] > E->parts[k].lo[1])
      TSR_CALL(st_piece(E, &E->parts[k], src, dst, 1));
  return TSR_SUCCESS;
}

/* Interior (lo+h .. hi-h) and the four strips around it. */
static void st_split(st_exec_t *E, int h) {
  const stencil_grid_t *g = &E->gall;
  for (int k = 0; k < 5; k++) E->parts[k] = *g;
  stencil_grid_t *in = &E->parts[0];
  in->lo[0] += h, in->hi[0] -= h, in->lo[1] += h, in->hi[1] -= h;
  if (in->hi[0] < in->lo[0]) in->hi[0] = in->lo[0];
  if (in->hi[1] < in->lo[1]) in->hi[1] = in->lo[1];
  E->parts[1].hi[1] = in->lo[1];                              /* y low strip, all x */
  E->parts[2].lo[1] = in->hi[1];                              /* y high strip */
  E->parts[3].lo[1] = in->lo[1], E->parts[3].hi[1] = in->hi[1]; /* x low strip */
  E->parts[3].hi[0] = in->lo[0];
  E->parts[4].lo[1] = in->lo[1], E->parts[4].hi[1] = in->hi[1]; /* x high strip */
  E->parts[4].lo[0] = in->hi[0];
  E->nparts = 5;
}

static int st_setup(st_exec_t *E, stencil_run_t *r) {
  const stencil_state_t *S = E->S;
  const stencil_problem_t *P = &S->P;
  E->es = stencil_problem_esize(P);
  const void *hin = st_in(P), *hcst = st_cst(P);
  void *uin = NULL, *ucst = NULL;
  int rc = TSR_SUCCESS;
  if (E->grid == STENCIL_GRID_UNSTR && S->size > 1) {
    TSR_CHECK(P->kind != STENCIL_FASTWAVES || P->Luv.fields != TSR_AOSOA, TSR_ERR_UNSUPPORTED,
              "fastwaves: AoSoA placement runs on one rank only");
    TSR_CALL(stencil_umpi_create((stencil_state_t *)S, &r->u, &E->M));
    E->have_m = 1;
    E->have_u = 1;
    E->U = E->M.U;
    E->Lio = P->kind == STENCIL_FASTWAVES ? &E->U.Luv : &E->U.L;
    E->Lcst = P->kind == STENCIL_FASTWAVES ? &E->U.Lc : &E->U.L;
    hin = E->M.uin, hcst = E->M.ucst;
    const int dv = E->dev.kind == TSR_DEV_CUDA;
    /* local steps: agreed with the allocations below, before the halo */
    if (dv) rc = tsr_neigh_upload(E->U.nb, &E->dev);
    if (!rc) rc = stencil_ugrid_grid(&E->U, P, dv, 0, E->U.nown, &E->gall);
    if (!rc) rc = stencil_ugrid_grid(&E->U, P, dv, 0, E->U.ncore, &E->parts[0]);
    if (!rc) rc = stencil_ugrid_grid(&E->U, P, dv, E->U.ncore, E->U.nown, &E->parts[1]);
    E->nparts = 2;
    if (!rc && dv) rc = stencil_cuda_prepare(P->kind, &E->gall);
  } else if (E->grid == STENCIL_GRID_UNSTR) {
    TSR_CALL(stencil_ugrid_create(P, r->u.order, r->u.zw, S->seed, r->u.depth, r->u.comp, &E->U));
    E->have_u = 1;
    E->Lio = P->kind == STENCIL_FASTWAVES ? &E->U.Luv : &E->U.L;
    E->Lcst = P->kind == STENCIL_FASTWAVES ? &E->U.Lc : &E->U.L;
    uin = tsr_malloc((size_t)E->Lio->size * E->es);
    ucst = hcst ? tsr_malloc((size_t)E->Lcst->size * E->es) : NULL;
    TSR_CHECK(uin && (!hcst || ucst), TSR_ERR_ALLOC, "cannot allocate the unstructured fields");
    stencil_ugrid_scatter(&E->U, st_lio(P), hin, E->Lio, uin, E->es);
    if (hcst) stencil_ugrid_scatter(&E->U, P->kind == STENCIL_FASTWAVES ? &P->Lc : &P->L, hcst,
                                    E->Lcst, ucst, E->es);
    hin = uin, hcst = ucst;
    if (E->dev.kind == TSR_DEV_CUDA) TSR_CALL(tsr_neigh_upload(E->U.nb, &E->dev));
    TSR_CALL(stencil_ugrid_grid(&E->U, P, E->dev.kind == TSR_DEV_CUDA, 0, E->U.nown, &E->gall));
    if (E->dev.kind == TSR_DEV_CUDA) TSR_CALL(stencil_cuda_prepare(P->kind, &E->gall));
  } else {
    E->Lio = st_lio(P);
    E->Lcst = P->kind == STENCIL_FASTWAVES ? &P->Lc : &P->L;
    E->gall = stencil_problem_grid(P);
  }
  E->bio = (size_t)E->Lio->size * E->es;
  E->bcst = hcst ? (size_t)E->Lcst->size * E->es : 0;
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->init);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->a);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->b);
  if (!rc && hcst) rc = tsr_device_malloc(&E->dev, E->bcst, &E->c);
  if (!rc) rc = tsr_device_upload(&E->dev, E->init, hin, E->bio);
  if (!rc && hcst) rc = tsr_device_upload(&E->dev, E->c, hcst, E->bcst);
  free(uin);
  free(ucst);
  /* a rank that failed alone must not leave the others in the halo setup */
  TSR_CALL(tsr_error_agree(S->comm, rc));
  /* the halo of an unstructured grid on several ranks: slot cells, every
     level; SoA fields one exchange each, AoS cells of both velocities */
  if (E->have_m) {
    const int nf = P->kind == STENCIL_FASTWAVES ? STENCIL_FW_NUV : 1;
    const int aos = P->kind == STENCIL_FASTWAVES && E->Lio->fields == TSR_AOS;
    E->nhalo = aos ? 1 : nf;
    E->hdim = aos ? nf : 1;
    for (int h = 0; h < E->nhalo; h++) {
      E->hoff[h] = aos ? 0 : (int64_t)h * (nf > 1 ? E->Lio->sf : 0);
      TSR_CALL(tsr_plane_halo_create(&S->upart, &E->M.lists, E->U.L.sy, E->U.nz, &E->halo[h]));
    }
  }
  /* the halo of a decomposed regular grid */
  if (S->size > 1 && !E->have_m) {
    const tsr_layout_t *L = &P->L;
    TSR_CHECK(L->sz == L->sy * L->d[1], TSR_ERR_INTERNAL, "regular layout planes are not sy*d1");
    tsr_grid_box_t box = {L->sy, L->d[1], L->d[2], P->halo[0], P->halo[1], 0};
    const int nf = P->kind == STENCIL_FASTWAVES ? STENCIL_FW_NUV : 1;
    const int aos = P->kind == STENCIL_FASTWAVES && P->Luv.fields == TSR_AOS;
    E->nhalo = aos ? 1 : nf;
    E->hdim = aos ? nf : 1;
    for (int h = 0; h < E->nhalo; h++) {
      E->hoff[h] = aos ? L->base * nf : L->base + (int64_t)h * (nf > 1 ? P->Luv.sf : 0);
      TSR_CALL(tsr_halo_create_regular(&S->part, &box, &E->halo[h]));
    }
    st_split(E, P->halo[0]);
  }
  if (r->halo_ipc && E->dev.kind == TSR_DEV_CUDA)
    for (int h = 0; h < E->nhalo; h++) TSR_CALL(tsr_halo_set_ipc(E->halo[h], 1));
  return TSR_SUCCESS;
}

static void st_teardown(st_exec_t *E) {
  for (int h = 0; h < E->nhalo; h++) tsr_halo_destroy(&E->halo[h]);
  if (E->init) tsr_device_free(&E->dev, &E->init);
  if (E->a) tsr_device_free(&E->dev, &E->a);
  if (E->b) tsr_device_free(&E->dev, &E->b);
  if (E->c) tsr_device_free(&E->dev, &E->c);
  if (E->have_m) stencil_umpi_destroy(&E->M);
  else if (E->have_u) stencil_ugrid_destroy(&E->U);
}

/* One run of lib's harness: ping and pong from the initial state (untimed),
 * then the steps (timed, wall clock with a device synchronise). */
static int st_reset(void *ctx, const tsr_run_sample_t *s) {
  st_exec_t *E = ctx;
  (void)s;
  TSR_CALL(tsr_device_copy(&E->dev, E->a, E->init, E->bio));
  TSR_CALL(tsr_device_copy(&E->dev, E->b, E->init, E->bio));
  return TSR_SUCCESS;
}

static int st_steps(void *ctx, tsr_run_sample_t *s) {
  st_exec_t *E = ctx;
  (void)s;
  void *src = E->a, *dst = E->b;
  for (int it = 0; it < E->iterations; it++) {
    TSR_CALL(st_step(E, src, dst));
    void *t = src;
    src = dst, dst = t;
  }
  return TSR_SUCCESS;
}

/* Timed runs (seconds per step, the slowest rank's); the final state of the
 * last run in *final (host, local). */
static int st_timed(st_exec_t *E, stencil_run_t *r, void **final) {
  const stencil_state_t *S = E->S;
  E->iterations = r->iterations;
  tsr_run_t sp = {.prog = "tsr-stencil", .label = stencil_variants[r->id].name, .comm = S->comm,
                  .dev = &E->dev, .timing = TSR_TIME_WALL, .warmup = r->warmup, .runs = r->runs,
                  .per = r->iterations, .barrier = 1, .quiet = r->quiet, .reset = st_reset,
                  .run = st_steps, .ctx = E};
  tsr_run_result_t res;
  TSR_CALL(tsr_run(&sp, &res));
  r->time = res.time;
  *final = tsr_malloc(E->bio);
  TSR_CHECK(*final, TSR_ERR_ALLOC, "cannot allocate the result");
  TSR_CALL(tsr_device_download(&E->dev, *final, r->iterations % 2 ? E->b : E->a, E->bio));
  return TSR_SUCCESS;
}

/* A configuration problem: not run, with the message, not an error. */
static int st_skip(stencil_run_t *r, int rc) {
  snprintf(r->note, sizeof r->note, "%s", tsr_error_message());
  r->skipped = 1;
  tsr_error_clear();
  (void)rc;
  return TSR_SUCCESS;
}

int stencil_run_variant(stencil_state_t *S, stencil_run_t *r) {
  st_exec_t E;
  memset(&E, 0, sizeof E);
  E.S = S;
  E.id = r->id;
  E.strategy = st_vstrat[r->id];
  E.grid = st_vgrid[r->id];
  E.shape = r->shape;
  r->skipped = 0;
  r->note[0] = 0;
  r->verdict = TSR_VERIFY_NA;
  const tsr_variant_t *v = &stencil_variants[r->id];
  /* the device, agreed by all ranks */
  int rc = tsr_device_select(S->comm, v->device, &E.dev);
  if (tsr_error_agree(S->comm, rc)) return st_skip(r, rc);
  snprintf(r->device, sizeof r->device, "%.63s", E.dev.name);
  const int only13 = v->id == STENCIL_V_CUDA_REG_TILE || v->id == STENCIL_V_CUDA_REG_TILE_KLOOP ||
                     v->id == STENCIL_V_CUDA_REG_JWIN || v->id == STENCIL_V_CUDA_REG_JWIN_SHFL ||
                     v->id == STENCIL_V_CUDA_UN_PATCH || v->id == STENCIL_V_CUDA_UN_JWIN ||
                     v->id == STENCIL_V_CUDA_UN_JWIN_PLAN || v->id == STENCIL_V_CUDA_UN_JWIN_PROTO;
  if (only13 && S->kind == STENCIL_FASTWAVES) {
    snprintf(r->note, sizeof r->note, "%s is for laplap and hdiff", v->name);
    r->skipped = 1;
    return TSR_SUCCESS;
  }
  rc = st_setup(&E, r);
  char fitnote[sizeof r->note] = "";
  if (!rc && E.dev.kind == TSR_DEV_CUDA) {
    /* the shape against the region, and against the kernel's registers and
       shared memory (cudaFuncGetAttributes): stencil_cuda_plan cuts a block
       that is larger to one that runs; a shape it cannot run is skipped */
    stencil_cfg_t cfg;
    stencil_fields_t f = stencil_problem_fields(&S->P, E.init, E.c, E.a, S->flat);
    if (E.have_u && S->kind == STENCIL_FASTWAVES) f.Lc = E.U.Lc, f.Luv = E.U.Luv;
    rc = stencil_cuda_plan(S->kind, E.strategy, &E.gall, &f, E.shape, &cfg, r->note, sizeof r->note);
    if (rc == 1) { /* the block does not fit: every rank has the same region sizes? agree */
      rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s", r->note);
    }
    for (int d = 0; d < 3; d++) r->blocks[d] = cfg.grid[d];
    if (!rc) { /* the block that runs, noted when it is not the one asked for */
      E.shape.bx = (int)cfg.block[0], E.shape.by = (int)cfg.block[1], E.shape.bz = (int)cfg.block[2];
      r->shape = E.shape;
      snprintf(fitnote, sizeof fitnote, "%s", r->note);
      r->note[0] = 0;
    }
  }
  rc = tsr_error_agree(S->comm, rc);
  if (rc == TSR_ERR_UNSUPPORTED || rc == TSR_ERR_NOCUDA || rc == TSR_ERR_NODEVICE) {
    st_teardown(&E);
    return st_skip(r, rc);
  }
  void *final = NULL;
  if (!rc) rc = st_timed(&E, r, &final);
  rc = tsr_error_agree(S->comm, rc);
  /* back to the regular picture of this rank's block, compared block by block */
  void *loc = NULL;
  const stencil_problem_t *P = &S->P;
  const size_t breg = (size_t)st_lio(P)->size * E.es;
  if (!rc && E.have_u) {
    loc = tsr_malloc(breg);
    if (!loc) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the result");
    else memcpy(loc, st_in(P), breg);
  }
  rc = tsr_error_agree(S->comm, rc);
  if (!rc && E.have_m) /* owned slots into the inner cells of every rank's block */
    rc = stencil_umpi_gather(S, &E.M, E.Lio, final, st_lio(P), loc);
  else if (!rc && E.have_u)
    stencil_ugrid_gather(&E.U, E.Lio, final, st_lio(P), loc, E.es, E.U.np);
  if (!E.have_u) loc = final, final = NULL;
  free(final);
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) {
    if (r->verify && S->have_ref) {
      const stencil_grid_t gg = stencil_problem_grid(P);
      double e[2] = {0, 0};
      stencil_compare(&gg, st_lio(P), S->prec, loc, S->ref, &e[0], &e[1]);
      rc = MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_MAX, S->comm) == MPI_SUCCESS
               ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_MPI, "verification: MPI_Allreduce failed");
      r->maxerr = e[0], r->maxref = e[1];
      const double tol = stencil_tolerance(S->prec) * (r->maxref > 1 ? r->maxref : 1);
      r->verdict = r->maxerr <= tol ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
      snprintf(r->note, sizeof r->note, "%s%smax err %.2e (tol %.1e x max(1, %.2e))", fitnote,
               fitnote[0] ? "; " : "", r->maxerr, stencil_tolerance(S->prec), r->maxref);
    } else {
      r->verdict = TSR_VERIFY_SKIPPED;
      if (r->id == STENCIL_V_CPU_REF) snprintf(r->note, sizeof r->note, "the reference");
      else snprintf(r->note, sizeof r->note, "%s", fitnote);
    }
    r->result = loc;
  } else {
    free(loc);
  }
  int verdict = (int)r->verdict;
  MPI_Bcast(&verdict, 1, MPI_INT, 0, S->comm);
  r->verdict = (tsr_verify_t)verdict;
  st_teardown(&E);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ names */

void stencil_run_name(const stencil_state_t *S, const stencil_run_t *r, char *buf, size_t n) {
  const int grid = st_vgrid[r->id], strat = st_vstrat[r->id];
  const char *sname = stencil_name(S->kind);
  const tsr_variant_t *v = &stencil_variants[r->id];
  if (r->id == STENCIL_V_CPU_REF) {
    snprintf(buf, n, "%s-ref", sname);
    return;
  }
  char st[64];
  if (v->device == TSR_DEV_CPU)
    snprintf(st, sizeof st, "cpu-%s", strat == STENCIL_CPU_REGULAR ? "fused" : strchr(v->name + 4, '/') + 1);
  else
    snprintf(st, sizeof st, "%s", strat == STENCIL_CU_WARP ? "idxvar-warp-shared"
                                                           : stencil_cuda_strategy_name(strat));
  const char *place = "";
  if (S->kind == STENCIL_FASTWAVES)
    place = S->placement == TSR_AOS ? "aos-" : S->placement == TSR_AOSOA ? "aosoa-" : "";
  if (v->device == TSR_DEV_CUDA && stencil_cuda_uses_jpt(strat)) /* rows per thread */
    snprintf(st + strlen(st), sizeof st - strlen(st), "-j%d", stencil_launch_jpt(r->shape));
  if (v->device == TSR_DEV_CUDA && strat == STENCIL_CU_PATCH) /* levels per block */
    snprintf(st + strlen(st), sizeof st - strlen(st), "-k%d", r->shape.kpt);
  int k = snprintf(buf, n, "%s-%s-%s%s", sname, grid == STENCIL_GRID_UNSTR ? "unstr" : "regular",
                   place, st);
  if (grid != STENCIL_GRID_UNSTR || k < 0 || (size_t)k >= n) return;
  snprintf(buf + k, n - (size_t)k, "%s%s%s", r->u.comp ? "-comp" : "",
           (r->u.depth == 2 && S->kind != STENCIL_FASTWAVES) ? "-no-chase" : "", "");
  k = (int)strlen(buf);
  if (r->u.order == STENCIL_ORDER_ZCURVE) snprintf(buf + k, n - (size_t)k, "-z-curves-%d", r->u.zw);
  else if (r->u.order == STENCIL_ORDER_RANDOM) snprintf(buf + k, n - (size_t)k, "-random");
}
