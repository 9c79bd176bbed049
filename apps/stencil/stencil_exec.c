/* apps/stencil/stencil_exec.c: tsr-stencil's state (decomposition, inputs,
 * reference: each rank its block) and the execution of one variant: device
 * arrays, ping-pong steps with the halo exchange overlapped with the
 * interior, timing, and verification against the CPU reference block by
 * block (the largest error reduced over the ranks). */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <limits.h>
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

int stencil_variant_applies(int id, int kind) {
  const int only13 = id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP ||
                     id == STENCIL_V_CUDA_REG_JWIN || id == STENCIL_V_CUDA_REG_JWIN_SHFL ||
                     id == STENCIL_V_CUDA_UN_PATCH || id == STENCIL_V_CUDA_UN_JWIN ||
                     id == STENCIL_V_CUDA_UN_JWIN_PLAN || id == STENCIL_V_CUDA_UN_JWIN_PROTO ||
                     st_vstrat[id] == STENCIL_TB_STRATEGY;
  return !(only13 && kind == STENCIL_FASTWAVES);
}

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
  tsr_queue_t *q;               /* CUDA on several ranks: the exchange and the strips
                                   beside the interior (st_step) */
  int nhalo, hdim;
  int64_t hoff[2];              /* element offset of each exchanged field */
  stencil_launch_t shape;
  int iterations;               /* steps per run */
  int tb;                       /* temporal blocking: passes of tbc.steps steps */
  stencil_tb_t tbc;
  unsigned tbblocks[3];         /* its CUDA launch grid */
  int deep;                     /* several ranks: arrays with a halo of 2 tbc.steps (Ld), */
  tsr_grid_part_t dpart;        /*   the decomposition with that halo width, */
  tsr_layout_t Ld;              /*   exchanged (dhalo) before every pass; gd: the rank's */
  stencil_grid_t gd;            /*   inner cells on Ld; live: the domain's inner cells */
  int64_t live[4];              /*   there (x lo, x hi, y lo, y hi) */
  tsr_halo_t *dhalo;
  stencil_tb_umap_t um;         /* an unstructured grid's slot map (temporal blocking) */
  void *final;                  /* a or b: the state after the last run's steps */
} st_exec_t;

static int st_piece(st_exec_t *E, const stencil_grid_t *g, const void *src, void *dst, int strip,
                    void *stream) {
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
  if (strip) { /* boundary strips: idxvar with a block that fits them: a strip
                  a few cells wide in x gets tall blocks (2 x 64, not 2 x 8:
                  blocks of a few threads would fill the SMs' block slots) */
    strategy = STENCIL_CU_IDXVAR;
    s.bx = (int)TSR_MIN(32, g->hi[0] - g->lo[0]);
    s.by = g->kind == STENCIL_GRID_REGULAR
               ? (int)TSR_MIN(TSR_MAX(8, 128 / s.bx), g->hi[1] - g->lo[1])
               : 1;
    s.bz = 1;
  }
  TSR_CALL(stencil_cuda_run_stream(P->kind, strategy, g, &f, s, stream));
  return TSR_SUCCESS;
}

/* One step src -> dst. On several ranks the interior (cells whose stencil
 * reads no halo cell) runs while the halo is exchanged, then the strips next
 * to the neighbours. On a GPU the exchange and the strips go on a queue of
 * their own beside the interior on the default stream (E->q):
 *   queue waits for the default stream  (the previous interior is done: the
 *                                        cells it wrote are sent and read)
 *   default stream: interior            (after the previous strips: the join)
 *   queue: pack, copies (begin), unpack (end), strips
 *   default stream waits for the queue  (the next interior, the timer)
 * so the interior never waits for the exchange, nor the exchange for it. */
static int st_step(st_exec_t *E, void *src, void *dst) {
  if (E->nhalo == 0 || E->strategy < 0) {
    for (int h = 0; h < E->nhalo; h++)
      TSR_CALL(tsr_halo_exchange(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim,
                                 E->S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE));
    TSR_CALL(st_piece(E, &E->gall, src, dst, 0, NULL));
    return TSR_SUCCESS;
  }
  const tsr_dtype_t t = E->S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE;
  void *qs = E->q ? tsr_queue_stream(E->q) : NULL;
  /* the host-staged exchange's begin waits for its pack: on a GPU the
     interior is queued first, on the CPU the messages are posted first */
  if (E->q) TSR_CALL(tsr_queue_wait_default(E->q));
  for (int h = 0; h < E->nhalo && !E->q; h++)
    TSR_CALL(tsr_halo_begin(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim, t));
  if (E->parts[0].hi[0] > E->parts[0].lo[0] && E->parts[0].hi[1] > E->parts[0].lo[1])
    TSR_CALL(st_piece(E, &E->parts[0], src, dst, 0, NULL));
  for (int h = 0; h < E->nhalo && E->q; h++)
    TSR_CALL(tsr_halo_begin(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim, t));
  for (int h = 0; h < E->nhalo; h++)
    TSR_CALL(tsr_halo_end(E->halo[h], &E->dev, (char *)src + E->hoff[h] * E->es, E->hdim, t));
  for (int k = 1; k < E->nparts; k++)
    if (E->parts[k].hi[0] > E->parts[k].lo[0] && E->parts[k].hi[1] > E->parts[k].lo[1])
      TSR_CALL(st_piece(E, &E->parts[k], src, dst, 1, qs));
  if (E->q) TSR_CALL(tsr_queue_join_default(E->q));
  return TSR_SUCCESS;
}

/* The interior, shrunk by h on each side where a neighbour rank's halo
 * arrives (nbr: tsr_grid_part_t's), and a strip of width h on each such side
 * (y strips across all x, x strips between them). Sides on the edge of the
 * global grid need nothing from the exchange: the interior reaches them, so
 * two ranks side by side launch one strip each, not four. */
static void st_split(st_exec_t *E, int h, const int *nbr) {
  const stencil_grid_t *g = &E->gall;
  const int ylo = nbr[TSR_NBR(0, -1)] != MPI_PROC_NULL, yhi = nbr[TSR_NBR(0, 1)] != MPI_PROC_NULL;
  const int xlo = nbr[TSR_NBR(-1, 0)] != MPI_PROC_NULL, xhi = nbr[TSR_NBR(1, 0)] != MPI_PROC_NULL;
  stencil_grid_t in = *g;
  if (xlo) in.lo[0] += h;
  if (xhi) in.hi[0] -= h;
  if (ylo) in.lo[1] += h;
  if (yhi) in.hi[1] -= h;
  if (in.hi[0] < in.lo[0]) in.hi[0] = in.lo[0];
  if (in.hi[1] < in.lo[1]) in.hi[1] = in.lo[1];
  E->parts[0] = in;
  E->nparts = 1;
  stencil_grid_t s = *g;
  if (ylo) s.hi[1] = in.lo[1], E->parts[E->nparts++] = s; /* y low strip, all x */
  s = *g;
  if (yhi) s.lo[1] = in.hi[1], E->parts[E->nparts++] = s; /* y high strip */
  s = *g;
  s.lo[1] = in.lo[1], s.hi[1] = in.hi[1];
  stencil_grid_t t = s;
  if (xlo) t.hi[0] = in.lo[0], E->parts[E->nparts++] = t; /* x low strip */
  t = s;
  if (xhi) t.lo[0] = in.hi[0], E->parts[E->nparts++] = t; /* x high strip */
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
    st_split(E, P->halo[0], S->part.nbr);
  }
  if (E->dev.kind == TSR_DEV_CUDA)
    for (int h = 0; h < E->nhalo; h++)
      TSR_CALL(tsr_halo_set_transport(E->halo[h], (tsr_halo_transport_t)r->halo_transport));
  if (E->nhalo > 0 && E->dev.kind == TSR_DEV_CUDA && E->strategy >= 0) {
    TSR_CALL(tsr_queue_create(&E->dev, &E->q));
    for (int h = 0; h < E->nhalo; h++)
      TSR_CALL(tsr_halo_set_stream(E->halo[h], tsr_queue_stream(E->q)));
  }
  return TSR_SUCCESS;
}

static void st_teardown(st_exec_t *E) {
  for (int h = 0; h < E->nhalo; h++) tsr_halo_destroy(&E->halo[h]);
  tsr_queue_destroy(&E->q);
  if (E->dhalo) tsr_halo_destroy(&E->dhalo);
  stencil_tb_umap_destroy(&E->um);
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

/* Temporal blocking: one pass of n steps src -> dst; several ranks: the
 * halo of depth 2 tbc.steps exchanged first. */
static int st_tb_pass(st_exec_t *E, void *src, void *dst, int n) {
  const stencil_problem_t *P = &E->S->P;
  const stencil_fields_t f = stencil_problem_fields(P, src, E->c, dst, E->S->flat);
  const stencil_grid_t *g = E->deep ? &E->gd : &E->gall;
  const int64_t *live = E->deep ? E->live : NULL;
  const stencil_tb_umap_t *um = E->have_u ? &E->um : NULL;
  if (E->deep)
    TSR_CALL(tsr_halo_exchange(E->dhalo, &E->dev, src, 1,
                               E->S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE));
  if (E->dev.kind == TSR_DEV_CPU) TSR_CALL(stencil_tb_cpu(P->kind, g, um, &f, E->tbc, n, live));
  else TSR_CALL(stencil_tb_cuda(P->kind, g, um, &f, E->tbc, n, live, E->tbblocks));
  return TSR_SUCCESS;
}

/* Cells of P's layout L (halo h) <-> the same cells of Ld (halo H). */
static void st_tb_repack(const st_exec_t *E, const void *src, void *dst, int to_deep) {
  const tsr_layout_t *L = &E->S->P.L, *Ld = &E->Ld;
  const int64_t dx = Ld->halo[0] - L->halo[0], dy = Ld->halo[1] - L->halo[1];
  const size_t es = E->es;
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++) {
      const int64_t c = tsr_layout_rm_cell(L, 0, y, z), cd = tsr_layout_rm_cell(Ld, dx, y + dy, z);
      if (to_deep) memcpy((char *)dst + cd * es, (const char *)src + c * es, (size_t)L->d[0] * es);
      else memcpy((char *)dst + c * es, (const char *)src + cd * es, (size_t)L->d[0] * es);
    }
}

/* Rank r's deep-halo layout (halo H in x and y) and inner box. */
static tsr_layout_t st_tb_layout(const stencil_state_t *S, const tsr_grid_part_t *p, int r, int H,
                                 tsr_idx_t lo[3], tsr_idx_t hi[3]) {
  tsr_grid_part_box(p, r, lo, hi);
  return tsr_layout_with_align(tsr_layout_with_halo(tsr_layout_rowmajor(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]),
                                                    H, H, S->P.halo[2]), TSR_LAYOUT_ALIGN);
}

/* The cells of rank r's deep-halo array inside the domain and its halo
 * (global inner coordinates -h .. N+h-1) whose owner is `owner` (the
 * owner of the nearest inner cell: a rank owns the domain's halo beside its
 * box), in (z, y, x) order; idx (may be NULL): their cell indices in rank
 * `at`'s deep-halo array. Returns how many. */
static int64_t st_tb_cells(const stencil_state_t *S, const tsr_grid_part_t *p, int r, int owner, int at, int H,
                           tsr_idx_t *idx) {
  tsr_idx_t lo[3], hi[3], alo[3], ahi[3];
  const tsr_layout_t L = st_tb_layout(S, p, r, H, lo, hi), La = st_tb_layout(S, p, at, H, alo, ahi);
  const int64_t h0 = S->P.halo[0], h1 = S->P.halo[1];
  int64_t n = 0;
  for (int64_t z = 0; z < L.d[2]; z++)
    for (int64_t y = TSR_MAX(lo[1] - H, -h1); y < TSR_MIN(hi[1] + H, p->n[1] + h1); y++)
      for (int64_t x = TSR_MAX(lo[0] - H, -h0); x < TSR_MIN(hi[0] + H, p->n[0] + h0); x++) {
        const int64_t cx = TSR_MIN(TSR_MAX(x, 0), p->n[0] - 1), cy = TSR_MIN(TSR_MAX(y, 0), p->n[1] - 1);
        if (tsr_grid_part_owner(p, cx, cy) != owner) continue;
        if (idx) idx[n] = tsr_layout_rm_cell(&La, x - alo[0] + H, y - alo[1] + H, z);
        n++;
      }
  return n;
}

/* The deep halo's exchange: every cell of this rank's array that another
 * rank owns (its inner cells, and the domain's halo beside them, which the
 * single steps' halo of 2 never needs beyond the rank's own block), from
 * that rank, every pass. Collective. */
static int st_tb_halo(st_exec_t *E, int H) {
  const stencil_state_t *S = E->S;
  const tsr_grid_part_t *p = &E->dpart;
  int ranks[8], sc[8], rc[8], nn = 0;
  for (int k = 0; k < 9; k++) {
    const int r = p->nbr[k];
    int seen = r == MPI_PROC_NULL || r == p->rank;
    for (int l = 0; l < nn; l++) seen |= ranks[l] == r;
    if (!seen) ranks[nn++] = r;
  }
  int64_t ns = 0, nr = 0;
  for (int l = 0; l < nn; l++) {
    const int64_t s = st_tb_cells(S, p, ranks[l], p->rank, p->rank, H, NULL);
    const int64_t q = st_tb_cells(S, p, p->rank, ranks[l], p->rank, H, NULL);
    TSR_CHECK(s <= INT_MAX && q <= INT_MAX, TSR_ERR_UNSUPPORTED, "deep halo: too many cells for one neighbour");
    sc[l] = (int)s, rc[l] = (int)q, ns += s, nr += q;
  }
  tsr_idx_t *sidx = malloc(sizeof(tsr_idx_t) * (size_t)(ns + 1)), *ridx = malloc(sizeof(tsr_idx_t) * (size_t)(nr + 1));
  int err = sidx && ridx ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "deep halo: cannot allocate the lists");
  ns = nr = 0;
  for (int l = 0; !err && l < nn; l++) {
    ns += st_tb_cells(S, p, ranks[l], p->rank, p->rank, H, sidx + ns);
    nr += st_tb_cells(S, p, p->rank, ranks[l], p->rank, H, ridx + nr);
  }
  err = tsr_error_agree(S->comm, err);
  if (!err) err = tsr_halo_create(S->comm, nn, ranks, E->Ld.size, sc, sidx, rc, ridx, &E->dhalo);
  free(sidx), free(ridx);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

/* Several ranks: the deep-halo arrays, their decomposition and halo
 * (TSR_ERR_PARTITION on every rank when a rank owns fewer than H cells
 * along x or y: a skip). Collective. */
static int st_tb_setup(st_exec_t *E) {
  const stencil_state_t *S = E->S;
  const stencil_problem_t *P = &S->P;
  const int H = 2 * E->tbc.steps;
  const tsr_idx_t n[3] = {S->gsize[0] - 2 * P->halo[0], S->gsize[1] - 2 * P->halo[1], S->gsize[2]};
  TSR_CALL(tsr_grid_part_init(S->comm, n, H, NULL, &E->dpart));
  /* the same on every rank: the process grid is chosen from the sizes alone */
  TSR_CHECK(E->dpart.dims[0] == S->part.dims[0] && E->dpart.dims[1] == S->part.dims[1],
            TSR_ERR_PARTITION,
            "a halo of %d takes the process grid %d x %d, the state's is %d x %d (a block of the "
            "state's would hold fewer than %d cells); use a larger grid or fewer ranks", H,
            E->dpart.dims[0], E->dpart.dims[1], S->part.dims[0], S->part.dims[1], H);
  E->deep = 1;
  E->es = stencil_problem_esize(P);
  tsr_idx_t blo[3], bhi[3];
  E->Ld = st_tb_layout(S, &E->dpart, S->rank, H, blo, bhi);
  TSR_CALL(tsr_layout_check(&E->Ld));
  TSR_CHECK(bhi[0] - blo[0] == P->L.n[0] && bhi[1] - blo[1] == P->L.n[1], TSR_ERR_INTERNAL,
            "deep halo: the decomposition with halo %d differs from the state's", H);
  E->Lio = E->Lcst = &E->Ld;
  E->gd = stencil_problem_grid(P);
  E->gd.L = E->Ld, E->gd.zs = E->Ld.sz;
  for (int d = 0; d < 2; d++) {
    E->gd.lo[d] = H, E->gd.hi[d] = H + P->L.n[d];
    E->live[2 * d] = TSR_MAX(0, H - S->off[d]);
    E->live[2 * d + 1] = TSR_MIN(E->Ld.d[d], H - S->off[d] + n[d]);
  }
  E->gall = E->gd;
  E->bio = E->bcst = (size_t)E->Ld.size * E->es;
  void *hin = calloc(1, E->bio), *hc = calloc(1, E->bio);
  int rc = hin && hc ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the deep-halo fields");
  if (!rc) st_tb_repack(E, P->in, hin, 1), st_tb_repack(E, P->coeff ? P->coeff : P->in, hc, 1);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->init);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->a);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bio, &E->b);
  if (!rc) rc = tsr_device_malloc(&E->dev, E->bcst, &E->c);
  if (!rc) rc = tsr_device_upload(&E->dev, E->init, hin, E->bio);
  if (!rc) rc = tsr_device_upload(&E->dev, E->c, hc, E->bcst);
  free(hin), free(hc);
  rc = tsr_error_agree(S->comm, rc);
  TSR_CALL(rc);
  TSR_CALL(st_tb_halo(E, H));
  /* hdiff's coefficients in the deep halo: once */
  TSR_CALL(tsr_halo_exchange(E->dhalo, &E->dev, E->c, 1, S->prec == STENCIL_FLOAT ? TSR_FLOAT : TSR_DOUBLE));
  return TSR_SUCCESS;
}

/* An unstructured grid's slot map (from the host tables), and its copy on
 * the device (stencil_tb_umap_upload). */
static int st_tb_umap(st_exec_t *E) {
  stencil_grid_t gh;
  TSR_CALL(stencil_ugrid_grid(&E->U, &E->S->P, 0, 0, E->U.nown, &gh));
  TSR_CALL(stencil_tb_umap_create(&gh, &E->um));
  TSR_CALL(stencil_tb_umap_upload(&E->um, &E->dev));
  return TSR_SUCCESS;
}

static int st_steps(void *ctx, tsr_run_sample_t *s) {
  st_exec_t *E = ctx;
  (void)s;
  void *src = E->a, *dst = E->b;
  for (int it = 0; it < E->iterations;) {
    /* temporal blocking: the fewest passes of at most tbc.steps, as even as they can be */
    const int n = E->tb ? stencil_tb_next(E->iterations - it, E->tbc.steps) : 1;
    if (E->tb) TSR_CALL(st_tb_pass(E, src, dst, n));
    else TSR_CALL(st_step(E, src, dst));
    it += n;
    void *t = src;
    src = dst, dst = t;
  }
  E->final = src;
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
  TSR_CALL(tsr_device_download(&E->dev, *final, E->final, E->bio));
  if (E->tb && E->dev.kind == TSR_DEV_CUDA)
    for (int d = 0; d < 3; d++) r->blocks[d] = E->tbblocks[d];
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
  if (!stencil_variant_applies(v->id, S->kind)) {
    snprintf(r->note, sizeof r->note, "%s is for laplap and hdiff", v->name);
    r->skipped = 1;
    return TSR_SUCCESS;
  }
  if (E.strategy == STENCIL_TB_STRATEGY) { /* temporal blocking */
    E.tb = 1;
    E.tbc = r->tb = stencil_tb_defaults(r->tb);
    TSR_CALL(stencil_tb_check(E.tbc));
    r->shape = (stencil_launch_t){32, E.tbc.warps, 1, 1, 0};
  }
  if (E.tb && E.grid == STENCIL_GRID_UNSTR && S->size > 1) {
    rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s runs on one rank (a rank's part of the partitioned plane is no "
                   "rectangle of the neighbour relations)", v->name);
  } else if (E.tb && S->size > 1) { /* a halo of 2 x --tb-steps, exchanged every pass */
    rc = st_tb_setup(&E);
    if (rc == TSR_ERR_PARTITION)
      rc = TSR_RAISE(TSR_ERR_UNSUPPORTED, "a halo of %d (2 x --tb-steps): %s", 2 * E.tbc.steps,
                     tsr_error_message());
    if (!rc && E.dev.kind == TSR_DEV_CUDA)
      rc = tsr_halo_set_transport(E.dhalo, (tsr_halo_transport_t)r->halo_transport);
  } else {
    rc = st_setup(&E, r);
    if (!rc && E.tb && E.grid == STENCIL_GRID_UNSTR) rc = st_tb_umap(&E);
  }
  char fitnote[sizeof r->note] = "";
  if (!rc && E.dev.kind == TSR_DEV_CUDA && !E.tb) {
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
  if (!rc && E.deep) { /* back to P's layout (its halo: the input's) */
    loc = malloc(breg);
    if (!loc) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the result");
    else memcpy(loc, st_in(P), breg), st_tb_repack(&E, final, loc, 0);
  } else if (!E.have_u) {
    loc = final, final = NULL;
  }
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
  if (strat == STENCIL_TB_STRATEGY)
    snprintf(st, sizeof st, "%stblock-k%d", v->device == TSR_DEV_CPU ? "cpu-" : "",
             stencil_tb_defaults(r->tb).steps);
  else if (v->device == TSR_DEV_CPU)
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
