/* apps/stencil/stencil_ckpt.c: tsr-stencil's checkpoints and restarts (lib's
 * tessera/checkpoint.h; docs/STENCIL.md, docs/FORMAT.md).
 *
 * The state after k steps is the evolving field (laplap, hdiff: in;
 * fastwaves: u and v); the constant fields (coeff, fastwaves' seven) are
 * the input's, regenerated from --seed or read from -i by the restarted run
 * and checked by a hash. A checkpoint holds the state as the -o output
 * does (/state/out or /state/u_out, /state/v_out [nz][ny][nx], each rank its
 * box), so a run on any number of ranks reads its own box back. Steps are
 * pointwise in the previous state, so pieces of steps give the same bits as
 * one run of all of them. */
#include "config.h"
#include "apps/stencil/stencil_app.h"

#include <stdlib.h>
#include <string.h>

int stencil_ckpt_begin(stencil_state_t *S, stencil_ckpt_t *C) {
  C->k0 = 0;
  if (!C->restart && C->every <= 0) return TSR_SUCCESS;
  tsr_checkpoint_match_t *m = &C->match;
  tsr_checkpoint_match_init(m, "tsr-stencil");
  TSR_CALL(tsr_checkpoint_match_add(m, "stencil", "%s", stencil_name(S->kind)));
  TSR_CALL(tsr_checkpoint_match_add(m, "size", "%lldx%lldx%lld", (long long)S->gsize[0],
                                    (long long)S->gsize[1], (long long)S->gsize[2]));
  TSR_CALL(tsr_checkpoint_match_add(m, "precision", "%s", S->prec == STENCIL_FLOAT ? "float" : "double"));
  if (S->kind == STENCIL_FASTWAVES) {
    static const char *const pl[3] = {"soa", "aos", "aosoa"};
    TSR_CALL(tsr_checkpoint_match_add(m, "fields", "%s", pl[S->placement]));
    TSR_CALL(tsr_checkpoint_match_add(m, "flat_limit", "%d", S->flat));
  }
  if (S->kind != STENCIL_LAPLAP)
    TSR_CALL(tsr_checkpoint_match_hash(m, S->comm, "constants_hash", stencil_io_hash_constants(S)));
  if (!C->restart) return TSR_SUCCESS;
  tsr_file_t *f = NULL;
  int64_t k0 = 0;
  TSR_CALL(tsr_checkpoint_open(S->comm, C->restart, m, &k0, &f));
  int rc = k0 <= C->total ? 0
         : TSR_RAISE(TSR_ERR_ARG, "--restart %s: holds iteration %lld, beyond --iterations %lld",
                     C->restart, (long long)k0, (long long)C->total);
  rc = tsr_error_agree(S->comm, rc);
  if (!rc) rc = stencil_io_read_state(S, f, "/state");
  tsr_file_close(&f);
  TSR_CALL(rc);
  C->k0 = k0;
  if (S->rank == 0 && !C->quiet) printf("restart from %s: iteration %lld\n", C->restart, (long long)k0);
  return TSR_SUCCESS;
}

static int st_ckpt_write(stencil_state_t *S, const stencil_ckpt_t *C, int64_t k,
                         const stencil_run_t *r, int quiet) {
  char name[160];
  stencil_run_name(S, r, name, sizeof name);
  const char *vname = stencil_variants[r->id].name;
  tsr_provenance_t prov = {"tsr-stencil", vname, r->device, C->command_line, S->size};
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_checkpoint_create(S->comm, C->path, &C->match, k, &prov, &f));
  const int rc = stencil_io_put(S, f, "/state", r->result, vname, name, r->device);
  TSR_CALL(tsr_checkpoint_commit(&f, rc));
  if (S->rank == 0 && !quiet) printf("checkpoint at iteration %lld written to %s\n", (long long)k, C->path);
  return TSR_SUCCESS;
}

int stencil_ckpt_run(stencil_state_t *S, stencil_run_t *r, stencil_ckpt_t *C) {
  if (C->every <= 0 || C->k0 >= C->total) return stencil_run_variant(S, r);
  const stencil_problem_t *P = &S->P;
  void *in = S->kind == STENCIL_FASTWAVES ? P->uv : P->in;
  const size_t bytes = (size_t)(S->kind == STENCIL_FASTWAVES ? P->Luv.size : P->L.size) *
                       stencil_problem_esize(P);
  const int verify = r->verify;
  tsr_stats_t t = {0, 0, 0, 0, 0};
  stencil_run_t piece;
  int rc = 0;
  for (int64_t k = C->k0; !rc && k < C->total;) {
    const int64_t n = tsr_checkpoint_next(k, C->total, C->every);
    piece = *r;
    piece.iterations = (int)n;
    piece.verify = k + n == C->total ? verify : 0; /* the reference is of all the steps */
    piece.result = NULL;
    rc = stencil_run_variant(S, &piece);
    if (rc || piece.skipped) break;
    k += n;
    t.n = piece.time.n;
    t.median += piece.time.median * (double)n, t.min += piece.time.min * (double)n;
    t.max += piece.time.max * (double)n, t.mean += piece.time.mean * (double)n;
    if (tsr_checkpoint_due(k, C->every)) rc = st_ckpt_write(S, C, k, &piece, C->quiet);
    if (!rc && k < C->total) { /* the next piece starts from this one's state */
      memcpy(in, piece.result, bytes);
      free(piece.result);
      piece.result = NULL;
    }
  }
  if (rc) {
    free(piece.result);
    TSR_CALL(rc);
  }
  const int iterations = r->iterations;
  *r = piece;
  r->iterations = iterations, r->verify = verify;
  if (!r->skipped) {
    const double steps = (double)(C->total - C->k0);
    t.median /= steps, t.min /= steps, t.max /= steps, t.mean /= steps;
    r->time = t;
  }
  return TSR_SUCCESS;
}
