/* kernels/airfoil/airfoil_cuda_graph.c: a split stage of the CUDA
 * variants on several ranks as CUDA graphs (airfoil_cuda_graph.h), for
 * airfoil_cuda_run.c: the graphs' capture and the iterations that replay
 * them around the host's handshakes. */
#include "config.h"

#include <cuda_runtime.h>

#include "tessera/cuda.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/halo.h"
#include "kernels/airfoil/airfoil_cuda.cuh"
#include "kernels/airfoil/airfoil_cuda_graph.h"

/* A split stage as CUDA graphs (AIRFOIL_GRAPH_AUTO; the halo's pieces,
 * tsr_halo_graph_*). A stage st runs in two branches: the exchange's chain
 * (the gate of its exchange, the unpack of this rank's receive half st, the
 * exec-halo edges, the exported cells' update, the put of the next stage's
 * exchange into half 1 - st, then the next stage's core edges that touch
 * exported cells) at the device's highest priority, beside the bulk (the
 * other cells' update, which reads and writes only cells that no exec-halo
 * edge touches, then the next stage's core edges among them, where
 * airfoil_cuda_run.c ordered the core; else the chain runs the whole core after
 * the bulk). The chain starts at the exchange's gate
 * (tsr_halo_graph_gate): the host launches the graph, then does the
 * exchange's handshake, which opens it (stage k's exchange has parity
 * k mod 2: the halos are made for each run). The iteration of the rms sums
 * is counted on the device, so the graphs replay unchanged.
 *
 * With the core split, a graph holds AF_GRAPH_STAGES stages (group[0] and
 * group[1], replayed in turn): each stage's gate, unpack and exec-halo
 * edges wait only for the stage before's put, so they run beside that
 * stage's tail, and its updates wait for the whole stage before. Each put
 * records an event slot of its own (tsr_halo_graph_slot: group[g]'s stage j
 * slot g S + j, graph[p]'s 2 S + p), so that the host's wait of exchange k
 * waits for k's put, not for a later one of its parity queued in the same
 * launch (without the split, graph[p] records the parity's event). graph[0]
 * and graph[1] run one stage: the stages after the last whole group.
 * Collective (eligibility agreed over p->comm); the graphs stay NULL where
 * not eligible. */
/* d's q, qold, qout for stage `stage` (ping-pong: q A or B, qold A, qout
   what update writes). */
static void af_stage_ptrs(airfoil_cuda_t *d, void *qa, void *qb, int stage) {
  if (d->pingpong) d->q = stage ? qb : qa, d->qold = qa, d->qout = stage ? qa : qb;
}

enum { AF_NEV = 4 }; /* events per stage of a group graph */
#ifndef AF_GRAPH_STAGES
#define AF_GRAPH_STAGES 2
#endif
#if AF_GRAPH_STAGES < 2 || AF_GRAPH_STAGES % 2 || 2 * AF_GRAPH_STAGES + 2 > TSR_HALO_GRAPH_SLOTS
#error "AF_GRAPH_STAGES: an even number of stages, at least 2, with 2 S + 2 event slots"
#endif

typedef struct {
  airfoil_cuda_t *d;
  tsr_halo_t *hq;
  const tsr_device_t *dev;
  tsr_dtype_t T;
  void *qa, *qb;
} af_cap_t;

static int af_cap_ev(int rc, cudaError_t e) {
  if (!rc && tsr_cuda_fault(e) != cudaSuccess)
    rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: ordering a stage's graph failed");
  return rc;
}

/* Stage st's bulk on stream s: the update of the cells no exec-halo edge
   touches (then u recorded), the next stage's core edges among them (then
   e recorded). */
static int af_cap_bulk(af_cap_t *c, int st, cudaStream_t s, cudaEvent_t u, cudaEvent_t e) {
  airfoil_cuda_t *d = c->d;
  d->stream = s;
  af_stage_ptrs(d, c->qa, c->qb, st);
  int rc = airfoil_cuda_update_part(d, st, 0, 2);
  rc = af_cap_ev(rc, cudaEventRecord(u, s));
  af_stage_ptrs(d, c->qa, c->qb, 1 - st);
  if (!rc && d->core_split) rc = airfoil_cuda_incr(d, 2);
  if (d->core_split) rc = af_cap_ev(rc, cudaEventRecord(e, s));
  return rc;
}

/* Stage st's chain head on s: the gate, the unpack, the exec-halo edges. */
static int af_cap_head(af_cap_t *c, int st, cudaStream_t s) {
  airfoil_cuda_t *d = c->d;
  const int dims[2] = {4, 1};
  void *ac[2] = {d->pingpong && st ? c->qb : c->qa, d->adt};
  d->stream = s;
  af_stage_ptrs(d, c->qa, c->qb, st);
  int rc = tsr_halo_graph_gate(c->hq, c->dev, 2, ac, dims, c->T, st, s);
  if (!rc) rc = tsr_halo_graph_unpack(c->hq, c->dev, 2, ac, dims, c->T, st, s);
  if (!rc) rc = airfoil_cuda_incr(d, 1);
  return rc;
}

/* Stage st's chain tail on s: the exported cells' update, the next
   exchange's put with event slot `slot` (then p recorded, if given), then,
   after the bulk's update u, the next stage's core edges next to exported
   cells (the whole core without the split), then the bulk's edges e. */
static int af_cap_tail(af_cap_t *c, int st, cudaStream_t s, int slot, cudaEvent_t p,
                       cudaEvent_t u, cudaEvent_t e) {
  airfoil_cuda_t *d = c->d;
  const int dims[2] = {4, 1};
  void *an[2] = {d->pingpong && !st ? c->qb : c->qa, d->adt};
  d->stream = s;
  af_stage_ptrs(d, c->qa, c->qb, st);
  int rc = airfoil_cuda_update_part(d, st, 0, 1);
  if (!rc) rc = tsr_halo_graph_slot(c->hq, slot);
  if (!rc) rc = tsr_halo_graph_put(c->hq, c->dev, 2, an, dims, c->T, 1 - st, s);
  if (p) rc = af_cap_ev(rc, cudaEventRecord(p, s));
  rc = af_cap_ev(rc, cudaStreamWaitEvent(s, u, 0));
  af_stage_ptrs(d, c->qa, c->qb, 1 - st);
  if (!rc) rc = airfoil_cuda_incr(d, d->core_split ? 3 : 0); /* 0: the whole core */
  if (d->core_split) rc = af_cap_ev(rc, cudaStreamWaitEvent(s, e, 0));
  return rc;
}

/* One graph captured from stream s[0] (s[1]: the bulk's, s[2]: the odd
   stages' chain): stage st alone (group < 0; its put's event slot slot)
   or AF_GRAPH_STAGES stages from 0 (group 0 or 1). ev: 1 + AF_NEV per stage. */
static int af_capture(af_cap_t *c, const cudaStream_t *s, cudaEvent_t *ev, int st, int group,
                      int slot, void **out) {
  cudaGraph_t g = NULL;
  *out = NULL;
  if (tsr_cuda_fault(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeThreadLocal)) != cudaSuccess)
    return TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: cudaStreamBeginCapture failed");
  int rc = af_cap_ev(0, cudaEventRecord(ev[0], s[0])); /* the fork */
  rc = af_cap_ev(rc, cudaStreamWaitEvent(s[1], ev[0], 0));
  if (group < 0) {
    if (!rc) rc = af_cap_bulk(c, st, s[1], ev[1], ev[2]);
    if (!rc) rc = af_cap_head(c, st, s[0]);
    if (!rc) rc = af_cap_tail(c, st, s[0], slot, NULL, ev[1], ev[2]);
  } else {
    /* stage j's events: u (its bulk's update), e (its bulk's edges), p
       (its put), end (all of it) */
    for (int j = 0; j < AF_GRAPH_STAGES && !rc; j++) {
      cudaEvent_t *E = ev + 1 + AF_NEV * j, *P = E - AF_NEV;
      const cudaStream_t x = j % 2 ? s[2] : s[0];
      if (j > 0) rc = af_cap_ev(rc, cudaStreamWaitEvent(x, P[2], 0));
      if (!rc) rc = af_cap_head(c, j % 2, x);
      if (j > 0) rc = af_cap_ev(rc, cudaStreamWaitEvent(x, P[3], 0));
      if (j > 0) rc = af_cap_ev(rc, cudaStreamWaitEvent(s[1], P[3], 0));
      if (!rc) rc = af_cap_bulk(c, j % 2, s[1], E[0], E[1]);
      if (!rc) rc = af_cap_tail(c, j % 2, x, group * AF_GRAPH_STAGES + j, E[2], E[0], E[1]);
      rc = af_cap_ev(rc, cudaEventRecord(E[3], x));
    }
    rc = af_cap_ev(rc, cudaStreamWaitEvent(s[0], ev[1 + AF_NEV * (AF_GRAPH_STAGES - 1) + 3], 0));
  }
  const cudaError_t ce = cudaStreamEndCapture(s[0], &g); /* ends the capture even after a failure */
  if (!rc && (tsr_cuda_fault(ce) != cudaSuccess || !g))
    rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: capturing a stage's graph failed (%s)", cudaGetErrorString(ce));
  cudaGraphExec_t ge = NULL;
  if (!rc && tsr_cuda_fault(cudaGraphInstantiateWithFlags(&ge, g, cudaGraphInstantiateFlagUseNodePriority)) !=
                 cudaSuccess)
    rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: instantiating a stage's graph failed");
  if (g) cudaGraphDestroy(g);
  *out = ge;
  return rc;
}

int airfoil_graphs_make(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_cuda_t *d,
                        tsr_halo_t *hq, int queued, const tsr_device_t *dev, tsr_dtype_t T,
                        airfoil_graphs_t *gr) {
  if (!p->halo || o->graph == AIRFOIL_GRAPH_OFF || !d->fuse || !d->split || !queued || d->prof ||
      d->layout != AIRFOIL_AOS || !tsr_halo_uses_ipc(hq))
    return 0;
  af_cap_t c = {d, hq, dev, T, d->q, d->qold};
  const int dims[2] = {4, 1};
  void *a0[2] = {c.qa, d->adt};
  int rc = tsr_halo_graph_check(hq, dev, 2, a0, dims, T);
  if (tsr_error_agree(p->comm, rc)) { /* some rank's exchange goes by copies: the host's path */
    tsr_error_clear();
    return 0;
  }
  /* a failure goes through rc: every rank reaches the agreement below */
  cudaStream_t s[3] = {NULL, NULL, NULL}; /* the chain (captured), the bulk, the odd stages' chain */
  enum { NEV = 1 + AF_NEV * AF_GRAPH_STAGES };
  cudaEvent_t ev[NEV] = {NULL};
  int plo = 0, phi = 0;
  if (tsr_cuda_fault(cudaDeviceGetStreamPriorityRange(&plo, &phi)) != cudaSuccess ||
      tsr_cuda_fault(cudaStreamCreateWithPriority(&s[0], cudaStreamNonBlocking, phi)) != cudaSuccess ||
      tsr_cuda_fault(cudaStreamCreateWithPriority(&s[1], cudaStreamNonBlocking, plo)) != cudaSuccess ||
      tsr_cuda_fault(cudaStreamCreateWithPriority(&s[2], cudaStreamNonBlocking, phi)) != cudaSuccess)
    rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: cannot create the capture streams");
  for (int i = 0; i < NEV && !rc; i++)
    if (tsr_cuda_fault(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming)) != cudaSuccess)
      rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: cannot create the capture events");
  const int S = d->core_split ? AF_GRAPH_STAGES : 0;
  for (int st = 0; st < 2 && !rc; st++) rc = af_capture(&c, s, ev, st, -1, S ? 2 * S + st : -1, &gr->graph[st]);
  for (int g = 0; g < 2 && S && !rc; g++) rc = af_capture(&c, s, ev, 0, g, -1, &gr->group[g]);
  gr->nstage = rc ? 0 : S;
  (void)tsr_halo_graph_slot(hq, -1);
  d->stream = NULL;
  d->q = c.qa, d->qold = c.qb, d->qout = NULL;
  for (int i = 0; i < 3; i++)
    if (s[i]) cudaStreamDestroy(s[i]);
  for (int i = 0; i < NEV; i++)
    if (ev[i]) cudaEventDestroy(ev[i]);
  (void)cudaGetLastError();
  TSR_CALL(tsr_error_agree(p->comm, rc));
  return 0;
}

/* The iterations with the stages' graphs (airfoil_graphs_make): the prologue and the
 * first exchange's put from the host; then the stages but the last by
 * group[0] and group[1] in turn while whole groups fit, the rest each by
 * its parity's graph, each gated on the device until the handshake; the
 * handshake of each exchange (its put's event slot first) and the next
 * one's receives posted; the last stage from the host (no next exchange). */
int airfoil_graphs_iterate(airfoil_cuda_t *d, const airfoil_graphs_t *gr, tsr_halo_t *hq,
                           const tsr_device_t *dev, int niter, tsr_dtype_t T) {
  void *const qa = d->q, *const qb = d->qold;
  const int dims[2] = {4, 1};
  if (!d->pingpong) TSR_CALL(airfoil_cuda_save(d));
  TSR_CALL(airfoil_cuda_adt(d));
  if (niter <= 0) return 0;
  void *a[2] = {qa, d->adt};
  TSR_CALL(tsr_halo_graph_slot(hq, -1));
  TSR_CALL(tsr_halo_graph_post(hq, dev, 2, a, dims, T, 0));
  TSR_CALL(tsr_halo_graph_put(hq, dev, 2, a, dims, T, 0, NULL));
  af_stage_ptrs(d, qa, qb, 0);
  TSR_CALL(airfoil_cuda_incr(d, 0));
  const int last = 2 * niter - 1, S = gr->nstage, G = S ? last / S * S : 0; /* [0, G): by groups */
  int rc = 0, slot = -1; /* slot: where the put of stage k's exchange was recorded */
  for (int k = 0; k <= last && !rc; k++) {
    const int st = k % 2;
    void *ac[2] = {d->pingpong && st ? qb : qa, d->adt}, *an[2] = {d->pingpong && !st ? qb : qa, d->adt};
    /* the graph first: its exchange's part waits on the device at the gate
       that this exchange's wait opens, its bulk starts at once */
    void *g = k == last ? NULL : k >= G ? gr->graph[st] : k % S == 0 ? gr->group[(k / S) % 2] : NULL;
    if (g && tsr_cuda_fault(cudaGraphLaunch((cudaGraphExec_t)g, 0)) != cudaSuccess) {
      rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: launching stage %d's graph failed", k);
      break;
    }
    rc = tsr_halo_graph_slot(hq, slot);
    if (!rc) rc = tsr_halo_graph_wait(hq, dev, 2, ac, dims, T);
    if (!rc && k < last) rc = tsr_halo_graph_post(hq, dev, 2, an, dims, T, 1 - st);
    slot = !S ? -1 : k < G ? (k / S) % 2 * S + k % S : 2 * S + st; /* the next exchange's put */
    if (rc || k < last) continue;
    af_stage_ptrs(d, qa, qb, st); /* the last stage: no next exchange */
    rc = tsr_halo_graph_unpack(hq, dev, 2, ac, dims, T, st, NULL);
    if (!rc) rc = airfoil_cuda_incr(d, 1);
    if (!rc) rc = airfoil_cuda_update_part(d, st, k / 2, 1);
    if (!rc) rc = airfoil_cuda_update_part(d, st, k / 2, 2);
  }
  (void)tsr_halo_graph_slot(hq, -1);
  if (rc) tsr_halo_graph_open(hq); /* no gated graph waits for ever */
  if (d->pingpong) d->q = qa, d->qold = qb, d->qout = NULL;
  TSR_CALL(rc);
  return 0;
}

int airfoil_graphs_ready(const airfoil_graphs_t *g) { return g->graph[0] && g->graph[1]; }

void airfoil_graphs_free(airfoil_graphs_t *g) {
  for (int i = 0; i < 2; i++) {
    if (g->graph[i]) cudaGraphExecDestroy((cudaGraphExec_t)g->graph[i]);
    if (g->group[i]) cudaGraphExecDestroy((cudaGraphExec_t)g->group[i]);
    g->graph[i] = g->group[i] = NULL;
  }
  g->nstage = 0;
}
