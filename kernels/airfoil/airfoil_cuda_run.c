/* kernels/airfoil/airfoil_cuda_run.c: host side of the CUDA variants: the
 * dats converted to the run's precision and layout, the colourings, inverse
 * maps or plans the increment strategy needs (for each part: core, rest),
 * uploads, the timed iterations with the halo exchanges of q and adt on
 * several ranks, the rms reduction and the downloads.
 *
 * One stage on several ranks (OP2's owner-compute; the exchanges run on
 * device memory through tsr_halo, host-staged; SoA dats as one exchange of
 * four planes):
 *   unfused  begin q; adt_calc (owned); end q; begin adt;
 *            res/bres core; end adt; res/bres rest; update
 *   fused    begin q; begin adt; res/bres core; end q; end adt;
 *            res/bres rest; update + adt_calc (+ save_soln in stage 2)
 *            of the cells other ranks read; [the next stage's exchange
 *            may start] update of the other owned cells;
 *            AoS: q and adt in one message per neighbour
 *            (tsr_halo_begin_arrays)
 * The exchange runs on its own (high-priority) queue: the GPU runs the
 * second update and the core while the host waits for the messages; where
 * the exchange goes by CUDA IPC's put, the stages run as CUDA graphs
 * (airfoil_cuda_graph.c). Each rank
 * keeps its sums of del^2 on the device; one MPI_Allreduce after the last
 * iteration gives the rms history (the iterations do not depend on it). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifdef TSR_HAVE_CUDA
#include <cuda_runtime.h>
#include "tessera/cuda.h"
#endif

#include "tessera/colour.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/halo.h"
#include "tessera/mesh.h"
#include "kernels/airfoil/airfoil_cuda.cuh"
#ifdef TSR_HAVE_CUDA
#include "kernels/airfoil/airfoil_cuda_graph.h"
#endif

#ifdef TSR_HAVE_CUDA
/* Per-kernel timing of one run (--profile): two events, the accumulators. */
struct airfoil_cuda_prof {
  cudaEvent_t ev[2];
  airfoil_profile_t *acc;
};

int airfoil_cuda_prof_begin(const airfoil_cuda_t *d) {
  if (!d->prof) return 0;
  TSR_CALL_CUDA(cudaEventRecord(d->prof->ev[0], 0));
  return 0;
}

int airfoil_cuda_prof_end(const airfoil_cuda_t *d, airfoil_kernel_t k, int launches) {
  if (!d->prof) return 0;
  float ms = 0;
  TSR_CALL_CUDA(cudaEventRecord(d->prof->ev[1], 0));
  TSR_CALL_CUDA(cudaEventSynchronize(d->prof->ev[1]));
  TSR_CALL_CUDA(cudaEventElapsedTime(&ms, d->prof->ev[0], d->prof->ev[1]));
  d->prof->acc->seconds[k] += 1e-3 * (double)ms;
  d->prof->acc->calls[k] += launches;
  return 0;
}

/* Device allocations of one run, freed together. */
typedef struct {
  tsr_device_t dev;
  void *p[128];
  int n;
} af_mem_t;

static int af_alloc(af_mem_t *m, void *field, size_t bytes) {
  TSR_CHECK(m->n < 128, TSR_ERR_INTERNAL, "airfoil CUDA: too many device arrays");
  void *p = NULL;
  TSR_CALL(tsr_device_malloc(&m->dev, bytes + 16, &p));
  m->p[m->n++] = p;
  *(void **)field = p;
  return 0;
}

static int af_up(af_mem_t *m, void *field, const void *src, size_t bytes) {
  TSR_CALL(af_alloc(m, field, bytes));
  if (bytes > 0) TSR_CALL(tsr_device_upload(&m->dev, *(void **)field, src, bytes));
  return 0;
}

/* src [n][dim] doubles into h in precision R (bytes) and layout. */
static void af_stage(void *h, size_t R, int soa, const double *src, int64_t n, int dim) {
  for (int64_t i = 0; i < n; i++)
    for (int m = 0; m < dim; m++) {
      int64_t k = soa ? m * n + i : i * dim + m;
      if (R == sizeof(double)) ((double *)h)[k] = src[i * dim + m];
      else ((float *)h)[k] = (float)src[i * dim + m];
    }
}

/* Blocks of edges [r0, r1), offsets relative to r0 (malloc'd): the
 * partition's blocks when they tile the range and none exceeds block, else
 * uniform blocks. */
static int af_part_blocks(const airfoil_problem_t *p, int64_t r0, int64_t r1, int block,
                          tsr_idx_t *nb, tsr_idx_t **off) {
  *nb = 0, *off = NULL;
  if (p->neblock > 0 && p->eblock_off) {
    tsr_idx_t b0 = 0;
    while (b0 < p->neblock && p->eblock_off[b0] < r0) b0++;
    tsr_idx_t b1 = b0;
    int fits = b0 <= p->neblock && p->eblock_off[b0] == r0;
    while (fits && b1 < p->neblock && p->eblock_off[b1] < r1) {
      fits = p->eblock_off[b1 + 1] - p->eblock_off[b1] <= block;
      b1++;
    }
    if (fits && p->eblock_off[b1] == r1) {
      *off = malloc(sizeof(tsr_idx_t) * (size_t)(b1 - b0 + 1));
      TSR_CHECK(*off, TSR_ERR_ALLOC, "airfoil CUDA: no memory for blocks");
      for (tsr_idx_t b = b0; b <= b1; b++) (*off)[b - b0] = p->eblock_off[b] - r0;
      *nb = b1 - b0;
      return 0;
    }
  }
  TSR_CALL(tsr_plan_uniform_blocks(r1 - r0, block, nb, off));
  return 0;
}

/* Plan rows [r0, r1) of `map` (dim cells) with nodes through nmap, upload
 * it into dp. bound: the bedges' bound (else NULL). */
static int af_plan(af_mem_t *m, const airfoil_problem_t *p, const int32_t *map, int dim,
                   const int32_t *nmap, const int32_t *bound, int64_t r0, int64_t r1,
                   const tsr_idx_t *off, tsr_idx_t nbl, size_t R, airfoil_cuda_plan_t *dp,
                   tsr_plan_t **plp, int32_t **hbound) {
  tsr_plan_t *pl = NULL;
  tsr_plan_stage_t st;
  memset(&st, 0, sizeof st);
  memset(dp, 0, sizeof *dp);
  if (r1 == r0) return 0;
  int rc = tsr_plan_create(map, dim, p->ncell, r0, r1 - r0, nbl, off, &pl);
  if (!rc) rc = tsr_plan_stage(pl, nmap, 2, p->nnode, &st);
  const int64_t nel = r1 - r0;
  if (!rc) {
    dp->nblocks = (int)nbl;
    dp->ncolours = pl->nblock_colours;
    dp->col_off = pl->bcolour_off;
    dp->smem = R * (size_t)(9 * pl->inc.max_targets + 2 * st.max_targets);
  }
  if (!rc) rc = af_up(m, &dp->col_blocks, pl->bcolour_blocks, 4 * (size_t)nbl);
  if (!rc) rc = af_up(m, &dp->off, pl->block_off, 8 * (size_t)(nbl + 1));
  if (!rc) rc = af_up(m, &dp->c_off, pl->inc.target_off, 8 * (size_t)(nbl + 1));
  if (!rc) rc = af_up(m, &dp->c_tgt, pl->inc.target, 4 * (size_t)pl->inc.target_off[nbl]);
  if (!rc) rc = af_up(m, &dp->c_loc, pl->inc.local, 4 * (size_t)(nel * dim));
  if (!rc) rc = af_up(m, &dp->n_off, st.target_off, 8 * (size_t)(nbl + 1));
  if (!rc) rc = af_up(m, &dp->n_tgt, st.target, 4 * (size_t)st.target_off[nbl]);
  if (!rc) rc = af_up(m, &dp->n_loc, st.local, 4 * (size_t)(nel * 2));
  if (!rc) rc = af_up(m, &dp->tcol, pl->thread_colour, 4 * (size_t)nel);
  if (!rc) rc = af_up(m, &dp->ntcol, pl->block_ncolours, 4 * (size_t)nbl);
  if (!rc && bound) {
    *hbound = malloc(sizeof(int32_t) * (size_t)(nel + 1));
    if (!*hbound) rc = TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory");
    for (int64_t i = 0; !rc && i < nel; i++) (*hbound)[i] = bound[pl->order[i]];
    if (!rc) rc = af_up(m, &dp->bound, *hbound, 4 * (size_t)nel);
  }
  tsr_plan_stage_free(&st);
  *plp = pl; /* kept: dp->col_off points into it */
  TSR_CALL(rc);
  return 0;
}

/* Host-side state of one run besides the device arrays. */
typedef struct {
  int32_t *colour, *order[4], *hbound[2];
  tsr_idx_t *coff[4], *boff[4];
  tsr_plan_t *plan[4];
  tsr_csr_t ce, cb;
  int32_t *celem;
  tsr_halo_t *hq, *ha;
  tsr_queue_t *q; /* the exchanges beside the core edges (af_iterate) */
#ifdef TSR_HAVE_CUDA
  airfoil_graphs_t g; /* the stages as CUDA graphs (airfoil_cuda_graph.c) */
#endif
} af_host_t;

static void af_host_free(af_host_t *h) {
  free(h->colour);
  for (int i = 0; i < 4; i++) {
    free(h->order[i]);
    free(h->coff[i]);
    free(h->boff[i]);
    tsr_plan_destroy(&h->plan[i]);
  }
  for (int i = 0; i < 2; i++) free(h->hbound[i]);
  tsr_csr_free(&h->ce);
  tsr_csr_free(&h->cb);
  free(h->celem);
  tsr_halo_destroy(&h->hq);
  tsr_halo_destroy(&h->ha);
  tsr_queue_destroy(&h->q);
#ifdef TSR_HAVE_CUDA
  airfoil_graphs_free(&h->g);
#endif
}

/* What each increment strategy needs, per part. */
static int af_setup_incr(af_mem_t *m, const airfoil_problem_t *p, const airfoil_cuda_opts_t *o,
                         size_t R, airfoil_cuda_t *d, af_host_t *h) {
  const int64_t nc = p->ncell, nco = p->ncell_owned, nex = p->nedge_exec, nbx = p->nbedge_exec;
  if (o->incr == AIRFOIL_COLOUR) {
    h->colour = malloc(sizeof(int32_t) * (size_t)(TSR_MAX(nex, nbx) + 1));
    TSR_CHECK(h->colour, TSR_ERR_ALLOC, "airfoil CUDA: no memory for colours");
    for (int w = 0; w < 4; w++) { /* edges part 0, 1, bedges part 0, 1 */
      const int part = w & 1, bed = w >> 1;
      const int *r = bed ? d->brange : d->erange;
      const int64_t r0 = r[part], n = r[part + 1] - r0;
      const int32_t *map = bed ? p->pbecell + r0 : p->pecell + 2 * r0;
      int ncol = 0;
      TSR_CALL(tsr_colour_greedy(map, n, bed ? 1 : 2, nc, h->colour, &ncol));
      TSR_CALL(tsr_colour_groups(h->colour, n, ncol, &h->coff[w], &h->order[w]));
      for (int64_t i = 0; i < n; i++) h->order[w][i] += (int32_t)r0;
      if (bed) {
        d->nbcol[part] = ncol, d->bcol_off[part] = h->coff[w];
        TSR_CALL(af_up(m, &d->bcol[part], h->order[w], 4 * (size_t)n));
      } else {
        d->necol[part] = ncol, d->ecol_off[part] = h->coff[w];
        TSR_CALL(af_up(m, &d->ecol[part], h->order[w], 4 * (size_t)n));
      }
    }
  }
  if (o->incr == AIRFOIL_GATHER) {
    tsr_map_t me = {"pecell", 0, 0, 2, (int32_t *)p->pecell};
    tsr_map_t mb = {"pbecell", 0, 0, 1, (int32_t *)p->pbecell};
    TSR_CALL(tsr_map_inverse(&me, nex, nc, &h->ce));
    TSR_CALL(tsr_map_inverse(&mb, nbx, nc, &h->cb));
    const tsr_idx_t ne_in = h->ce.offsets[nco], nb_in = h->cb.offsets[nco];
    h->celem = malloc(sizeof(int32_t) * (size_t)(ne_in + 1));
    TSR_CHECK(h->celem, TSR_ERR_ALLOC, "airfoil CUDA: no memory for the inverse map");
    for (tsr_idx_t j = 0; j < ne_in; j++)
      h->celem[j] = h->ce.corner[j] == 0 ? h->ce.elem[j] : ~h->ce.elem[j];
    TSR_CALL(af_alloc(m, &d->eflux, R * 4 * (size_t)nex));
    TSR_CALL(af_alloc(m, &d->bflux, R * 4 * (size_t)nbx));
    TSR_CALL(af_up(m, &d->ce_off, h->ce.offsets, sizeof(tsr_idx_t) * (size_t)(nco + 1)));
    TSR_CALL(af_up(m, &d->ce_elem, h->celem, 4 * (size_t)ne_in));
    TSR_CALL(af_up(m, &d->cb_off, h->cb.offsets, sizeof(tsr_idx_t) * (size_t)(nco + 1)));
    TSR_CALL(af_up(m, &d->cb_elem, h->cb.elem, 4 * (size_t)nb_in));
  }
  if (o->incr == AIRFOIL_GATHER4) { /* the fixed map of signed flux rows */
    tsr_map_t me = {"pecell", 0, 0, 2, (int32_t *)p->pecell};
    tsr_map_t mb = {"pbecell", 0, 0, 1, (int32_t *)p->pbecell};
    TSR_CALL(tsr_map_inverse(&me, nex, nc, &h->ce));
    TSR_CALL(tsr_map_inverse(&mb, nbx, nc, &h->cb));
    int64_t k = 1;
    for (int64_t c = 0; c < nco; c++)
      k = TSR_MAX(k, (h->ce.offsets[c + 1] - h->ce.offsets[c]) + (h->cb.offsets[c + 1] - h->cb.offsets[c]));
    TSR_CHECK(k <= 64, TSR_ERR_UNSUPPORTED, "airfoil cuda/gather4: a cell has %lld sides "
              "(at most 64; a mesh of quadrilaterals has 4)", (long long)k);
    const int32_t zero = (int32_t)(nex + nbx); /* the zero row: padding */
    h->celem = malloc(sizeof(int32_t) * (size_t)(nco * k + 1));
    TSR_CHECK(h->celem, TSR_ERR_ALLOC, "airfoil CUDA: no memory for the cells' sides");
    for (int64_t c = 0; c < nco; c++) {
      int32_t *row = h->celem + c * k;
      int64_t j = 0;
      for (tsr_idx_t i = h->ce.offsets[c]; i < h->ce.offsets[c + 1]; i++)
        row[j++] = h->ce.corner[i] == 0 ? h->ce.elem[i] : ~h->ce.elem[i];
      for (tsr_idx_t i = h->cb.offsets[c]; i < h->cb.offsets[c + 1]; i++)
        row[j++] = (int32_t)(nex + h->cb.elem[i]);
      while (j < k) row[j++] = zero;
    }
    d->ck = (int)k;
    TSR_CALL(af_alloc(m, &d->eflux, R * 4 * (size_t)(nex + nbx + 1)));
    TSR_CALL(tsr_device_memset(&m->dev, d->eflux, 0, R * 4 * (size_t)(nex + nbx + 1)));
    TSR_CALL(af_up(m, &d->cmap, h->celem, 4 * (size_t)(nco * k)));
  }
  if (o->incr == AIRFOIL_SHARED) {
    for (int part = 0; part < 2; part++) {
      tsr_idx_t neb = 0, nbb = 0, *eoff = NULL, *boff = NULL;
      const int64_t e0 = d->erange[part], e1 = d->erange[part + 1];
      const int64_t b0 = d->brange[part], b1 = d->brange[part + 1];
      int rc = af_part_blocks(p, e0, e1, o->block, &neb, &eoff);
      if (!rc) rc = tsr_plan_uniform_blocks(b1 - b0, o->block, &nbb, &boff);
      if (!rc) rc = af_plan(m, p, p->pecell, 2, p->pedge, NULL, e0, e1, eoff, neb, R,
                            &d->eplan[part], &h->plan[part], NULL);
      if (!rc) rc = af_plan(m, p, p->pbecell, 1, p->pbedge, p->bound, b0, b1, boff, nbb, R,
                            &d->bplan[part], &h->plan[2 + part], &h->hbound[part]);
      free(eoff);
      free(boff);
      TSR_CALL(rc);
    }
    TSR_CALL(airfoil_shared_setup_cuda(d));
  }
  return 0;
}

/* The L2 window (airfoil_cuda_t l2_*, airfoil_l2_t): the array the
 * per-stage launches hand from one kernel to the next, fused gather4's
 * fluxes or atomic1's res, in L2's persisting part, the hit ratio the
 * fraction of it the set-aside holds. *limit0: the device's set-aside
 * before, put back by af_l2_end (*set 1). Nothing is asked of a device
 * without persisting L2. */
static int af_l2_begin(const tsr_device_t *dev, const airfoil_cuda_opts_t *o, airfoil_cuda_t *d,
                       size_t R, int64_t nc, size_t *limit0, int *set) {
  *set = 0;
  if (o->l2 == AIRFOIL_L2_OFF || !d->fuse ||
      (o->incr != AIRFOIL_GATHER4 && o->incr != AIRFOIL_ATOMIC1))
    return 0;
  size_t maxp = 0, maxw = 0;
  TSR_CALL(tsr_device_l2_persist_max(dev, &maxp, &maxw));
  void *base = o->incr == AIRFOIL_GATHER4 ? d->eflux : d->res;
  size_t bytes = o->incr == AIRFOIL_GATHER4 ? R * 4 * (size_t)(d->erange[2] + d->brange[2] + 1)
                                              : R * 4 * (size_t)nc;
  if (maxp == 0 || maxw == 0 || bytes == 0) return 0;
  if (bytes > maxw) bytes = maxw;
  /* AUTO: only where it all fits (a partial window made gather4 on the
     whole standard mesh 9 % slower; docs/AIRFOIL.md) */
  if (o->l2 == AIRFOIL_L2_AUTO && bytes > maxp) return 0;
  const size_t keep = bytes < maxp ? bytes : maxp;
  TSR_CALL_CUDA(cudaDeviceGetLimit(limit0, cudaLimitPersistingL2CacheSize));
  TSR_CALL_CUDA(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, keep));
  *set = 1;
  size_t got = 0; /* the driver rounds the set-aside to its granularity */
  TSR_CALL_CUDA(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize));
  d->l2_base = base, d->l2_bytes = bytes;
  d->l2_hit = got >= bytes ? 1.0f : (float)((double)got / (double)bytes);
  return 0;
}

static void af_l2_end(size_t limit0, int set) {
  if (!set) return;
  (void)cudaCtxResetPersistingL2Cache();
  (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, limit0);
}

/* Everything on the device; halos of q and adt on several ranks. */
static int af_setup(af_mem_t *m, const airfoil_problem_t *p, const airfoil_cuda_opts_t *o,
                    const airfoil_run_t *r, airfoil_cuda_t *d, af_host_t *h) {
  const size_t R = r->prec == AIRFOIL_DOUBLE ? sizeof(double) : sizeof(float);
  const int64_t nn = p->nnode, nc = p->ncell, nex = p->nedge_exec, nbx = p->nbedge_exec;
  const int soa = o->layout == AIRFOIL_SOA;
  d->nnode = (int)nn, d->ncell = (int)nc, d->ncell_owned = (int)p->ncell_owned;
  d->erange[0] = 0, d->erange[1] = (int)p->nedge_core, d->erange[2] = (int)nex;
  d->brange[0] = 0, d->brange[1] = (int)p->nbedge_core, d->brange[2] = (int)nbx;
  d->ecut = d->erange[1], d->bcut = d->brange[1]; /* af_split_core may move them */
  d->prec = r->prec, d->layout = o->layout, d->incr = o->incr, d->block = o->block;
  d->fuse = o->fuse;
  d->pingpong = o->fuse && (o->incr == AIRFOIL_ATOMIC1 || o->incr == AIRFOIL_GATHER4);
  d->kd = airfoil_kc_make_d(&p->c);
  d->kf = airfoil_kc_make_f(&p->c);
  void *stage = malloc(R * (size_t)(4 * TSR_MAX(nc, nn) + 1));
  TSR_CHECK(stage, TSR_ERR_ALLOC, "airfoil CUDA: no host memory for staging");
  int rc = af_up(m, &d->pcell, p->pcell, 16 * (size_t)nc);
  if (!rc) rc = af_up(m, &d->pedge, p->pedge, 8 * (size_t)nex);
  if (!rc) rc = af_up(m, &d->pecell, p->pecell, 8 * (size_t)nex);
  if (!rc) rc = af_up(m, &d->pbedge, p->pbedge, 8 * (size_t)nbx);
  if (!rc) rc = af_up(m, &d->pbecell, p->pbecell, 4 * (size_t)nbx);
  if (!rc) rc = af_up(m, &d->bound, p->bound, 4 * (size_t)nbx);
  if (!rc) af_stage(stage, R, soa, p->x, nn, 2), rc = af_up(m, &d->x, stage, R * 2 * (size_t)nn);
  if (!rc) af_stage(stage, R, soa, p->q0, nc, 4), rc = af_up(m, &d->q, stage, R * 4 * (size_t)nc);
  free(stage);
  if (!rc) rc = af_alloc(m, &d->qold, R * 4 * (size_t)nc);
  if (!rc) rc = af_alloc(m, &d->res, R * 4 * (size_t)nc);
  if (!rc) rc = af_alloc(m, &d->adt, R * (size_t)nc);
  /* rms partial sums: one update launch over the rows, or two (by parts) */
  if (!rc) rc = af_alloc(m, &d->partial, sizeof(double) * (size_t)(2 * ((nc + o->block - 1) / o->block) + 2));
  if (!rc) rc = af_alloc(m, &d->counter, 2 * sizeof(unsigned int)); /* blocks done, iteration */
  if (!rc) rc = af_alloc(m, &d->sums, sizeof(double) * (size_t)r->niter);
  if (!rc) rc = tsr_device_memset(&m->dev, d->res, 0, R * 4 * (size_t)nc);
  if (!rc) rc = tsr_device_memset(&m->dev, d->adt, 0, R * (size_t)nc);
  if (!rc) rc = tsr_device_memset(&m->dev, d->counter, 0, 2 * sizeof(unsigned int));
  if (!rc) rc = af_setup_incr(m, p, o, R, d, h);
  TSR_CALL(rc);
  return 0;
}

/* The owned cells the halo sends (ulist, ascending, each once) and their
   flags (uskip): update runs them first, and the exchange starts after them
   (airfoil_cuda_update_part; d->split). */
static int af_setup_exported(af_mem_t *m, const airfoil_problem_t *p, airfoil_cuda_t *d) {
  const tsr_idx_t ns = tsr_halo_send_count(p->halo), *send = tsr_halo_send_list(p->halo);
  const int64_t nco = p->ncell_owned;
  unsigned char *flag = calloc((size_t)nco + 1, 1);
  int32_t *list = malloc(sizeof(int32_t) * (size_t)(nco + 1));
  int rc = flag && list ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory for the exported cells");
  for (tsr_idx_t j = 0; !rc && j < ns; j++) {
    if (send[j] < 0 || send[j] >= nco)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "airfoil CUDA: the halo sends cell %lld, not an owned "
                     "cell (0 .. %lld)", (long long)send[j], (long long)nco - 1);
    else flag[send[j]] = 1;
  }
  int n = 0;
  for (int64_t c = 0; !rc && c < nco; c++)
    if (flag[c]) list[n++] = (int32_t)c;
  d->nulist = n;
  d->split = 1;
  if (!rc) rc = af_up(m, &d->ulist, list, sizeof(int32_t) * (size_t)n);
  if (!rc) rc = af_up(m, &d->uskip, flag, (size_t)nco);
  free(flag);
  free(list);
  TSR_CALL(rc);
  return 0;
}

/* The core's edges and bedges in two runs on the device, for the stage's
 * graphs (fused atomic1 and gather4, split): first those that touch no
 * exported cell ([0, ecut), [0, bcut): they depend only on the update of the
 * other cells), then the others, each run in its former order. Only the
 * device's copies of the maps are permuted (with the fixed map's edge rows),
 * so every cell sums the same fluxes in the same order: the results are bit
 * for bit those of the unpermuted order. */
static int af_split_core(af_mem_t *m, const airfoil_problem_t *p, airfoil_cuda_t *d,
                         const af_host_t *h) {
  if (!d->fuse || (d->incr != AIRFOIL_ATOMIC1 && d->incr != AIRFOIL_GATHER4)) return 0;
  const int64_t nec = p->nedge_core, nbc = p->nbedge_core, nco = p->ncell_owned;
  const int64_t nex = p->nedge_exec, nbx = p->nbedge_exec;
  unsigned char *flag = calloc((size_t)nco + 1, 1);
  int32_t *enew = malloc(sizeof(int32_t) * (size_t)(nex + nbx + 1)); /* old -> new index */
  int32_t *pe = malloc(8 * (size_t)(nec + 1)), *pc = malloc(8 * (size_t)(nec + 1));
  int32_t *pb = malloc(8 * (size_t)(nbc + 1)), *pbc = malloc(4 * (size_t)(nbc + 1));
  int32_t *bd = malloc(4 * (size_t)(nbc + 1));
  int rc = flag && enew && pe && pc && pb && pbc && bd
               ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory to order the core edges");
  const tsr_idx_t ns = tsr_halo_send_count(p->halo), *send = tsr_halo_send_list(p->halo);
  for (tsr_idx_t j = 0; !rc && j < ns; j++) flag[send[j]] = 1; /* checked: af_setup_exported */
  for (int64_t e = 0; e < nex + nbx; e++)
    if (enew) enew[e] = (int32_t)e;
  int32_t ne = 0, nb = 0;
  for (int pass = 0; !rc && pass < 2; pass++) { /* pass 0: the edges touching no exported cell */
    for (int64_t e = 0; e < nec; e++) {
      const int32_t c0 = p->pecell[2 * e], c1 = p->pecell[2 * e + 1];
      const int touches = (c0 < nco && flag[c0]) || (c1 < nco && flag[c1]);
      if (touches != pass) continue;
      pe[2 * ne] = p->pedge[2 * e], pe[2 * ne + 1] = p->pedge[2 * e + 1];
      pc[2 * ne] = c0, pc[2 * ne + 1] = c1;
      enew[e] = ne++;
    }
    for (int64_t b = 0; b < nbc; b++) {
      const int32_t c = p->pbecell[b];
      if ((c < nco && flag[c]) != pass) continue;
      pb[2 * nb] = p->pbedge[2 * b], pb[2 * nb + 1] = p->pbedge[2 * b + 1];
      pbc[nb] = c, bd[nb] = p->bound[b];
      enew[nex + b] = nex + nb++;
    }
    if (pass == 0) d->ecut = ne, d->bcut = nb;
  }
  if (!rc && nec > 0) rc = tsr_device_upload(&m->dev, (void *)d->pedge, pe, 8 * (size_t)nec);
  if (!rc && nec > 0) rc = tsr_device_upload(&m->dev, (void *)d->pecell, pc, 8 * (size_t)nec);
  if (!rc && nbc > 0) rc = tsr_device_upload(&m->dev, (void *)d->pbedge, pb, 8 * (size_t)nbc);
  if (!rc && nbc > 0) rc = tsr_device_upload(&m->dev, (void *)d->pbecell, pbc, 4 * (size_t)nbc);
  if (!rc && nbc > 0) rc = tsr_device_upload(&m->dev, (void *)d->bound, bd, 4 * (size_t)nbc);
  if (!rc && d->incr == AIRFOIL_GATHER4) { /* the fixed map's rows name edges: renamed */
    const int64_t k = d->ck, zero = nex + nbx;
    for (int64_t i = 0; i < nco * k; i++) {
      const int32_t v = h->celem[i], e = v < 0 ? ~v : v;
      if (e == zero) continue;
      h->celem[i] = v < 0 ? ~enew[e] : enew[e];
    }
    rc = tsr_device_upload(&m->dev, (void *)d->cmap, h->celem, 4 * (size_t)(nco * k));
  }
  if (rc) d->ecut = d->erange[1], d->bcut = d->brange[1];
  else d->core_split = 1;
  free(flag), free(enew), free(pe), free(pc), free(pb), free(pbc), free(bd);
  TSR_CALL(rc);
  return 0;
}

/* The exchanges of q and adt that the fused stage starts together: with
   AoS dats in one message per neighbour (tsr_halo_begin_arrays: q's 4
   values and adt per cell), else q's planes and adt apart. */
static int af_qa_begin(af_host_t *h, const tsr_device_t *dev, airfoil_cuda_t *d, int qdim,
                       tsr_dtype_t T) {
  if (qdim == 4) {
    void *a[2] = {d->q, d->adt};
    const int dims[2] = {4, 1};
    TSR_CALL(tsr_halo_begin_arrays(h->hq, dev, 2, a, dims, T));
    return 0;
  }
  TSR_CALL(tsr_halo_begin(h->hq, dev, d->q, qdim, T));
  TSR_CALL(tsr_halo_begin(h->ha, dev, d->adt, 1, T));
  return 0;
}
static int af_qa_end(af_host_t *h, const tsr_device_t *dev, airfoil_cuda_t *d, int qdim,
                     tsr_dtype_t T) {
  if (qdim == 4) {
    void *a[2] = {d->q, d->adt};
    const int dims[2] = {4, 1};
    TSR_CALL(tsr_halo_end_arrays(h->hq, dev, 2, a, dims, T));
    return 0;
  }
  TSR_CALL(tsr_halo_end(h->hq, dev, d->q, qdim, T));
  TSR_CALL(tsr_halo_end(h->ha, dev, d->adt, 1, T));
  return 0;
}

/* The iterations (timed by the caller). Ping-pong (d->pingpong): q is A,
 * qold is B on entry and on return; in between each stage points q (what
 * the edges and the halo exchange read), qold and qout (what update writes)
 * at A or B, so that save_soln is never needed: at the start of every
 * iteration A holds both q and qold. */
static int af_iterate(const airfoil_problem_t *p, airfoil_cuda_t *d, af_host_t *h,
                      const tsr_device_t *dev, int niter) {
  void *const qa = d->q, *const qb = d->qold;
  const tsr_dtype_t T = d->prec == AIRFOIL_DOUBLE ? TSR_DOUBLE : TSR_FLOAT;
  const int qdim = d->layout == AIRFOIL_SOA ? 1 : 4; /* SoA: 4 planes of 1 */
  const int halo = p->halo != NULL;
  if (airfoil_graphs_ready(&h->g)) return airfoil_graphs_iterate(d, &h->g, h->hq, dev, niter, T);
  if (d->fuse) { /* iteration 0's save_soln and adt_calc; later ones come from update */
    if (!d->pingpong) TSR_CALL(airfoil_cuda_save(d));
    TSR_CALL(airfoil_cuda_adt(d));
  }
  if (d->split) TSR_CALL(tsr_queue_wait_default(h->q));
  for (int it = 0; it < niter; it++) {
    if (!d->fuse) TSR_CALL(airfoil_cuda_save(d));
    for (int stage = 0; stage < 2; stage++) {
      if (d->pingpong) d->q = stage ? qb : qa, d->qold = qa, d->qout = stage ? qa : qb;
      if (!d->fuse) {
        if (halo) TSR_CALL(tsr_halo_begin(h->hq, dev, d->q, qdim, T));
        TSR_CALL(airfoil_cuda_adt(d));
        if (halo) TSR_CALL(tsr_halo_end(h->hq, dev, d->q, qdim, T));
        if (halo) TSR_CALL(tsr_halo_begin(h->ha, dev, d->adt, 1, T));
        TSR_CALL(airfoil_cuda_incr(d, 0));
        if (halo) TSR_CALL(tsr_halo_end(h->ha, dev, d->adt, 1, T));
      } else if (h->q) {
        /* the exchanges of q and adt on their own queue, after the previous
           update of the exported cells (the queue's wait below), beside the
           rest of that update and the core edges (which read owned cells
           only); the exec-halo edges after both */
        if (d->split) {
          TSR_CALL(af_qa_begin(h, dev, d, qdim, T));
          TSR_CALL(airfoil_cuda_incr(d, 0));
        } else { /* after the whole previous update */
          TSR_CALL(tsr_queue_wait_default(h->q));
          TSR_CALL(airfoil_cuda_incr(d, 0));
          TSR_CALL(af_qa_begin(h, dev, d, qdim, T));
        }
        TSR_CALL(af_qa_end(h, dev, d, qdim, T));
        TSR_CALL(tsr_queue_join_default(h->q));
      } else {
        if (halo) TSR_CALL(af_qa_begin(h, dev, d, qdim, T));
        TSR_CALL(airfoil_cuda_incr(d, 0));
        if (halo) TSR_CALL(af_qa_end(h, dev, d, qdim, T));
      }
      TSR_CALL(airfoil_cuda_incr(d, 1));
      if (d->split) { /* the exported cells first, then the next exchange may start */
        TSR_CALL(airfoil_cuda_update_part(d, stage, it, 1));
        TSR_CALL(tsr_queue_wait_default(h->q));
        TSR_CALL(airfoil_cuda_update_part(d, stage, it, 2));
      } else {
        TSR_CALL(airfoil_cuda_update(d, stage, it));
      }
    }
  }
  if (d->pingpong) d->q = qa, d->qold = qb, d->qout = NULL;
  return 0;
}
#endif /* TSR_HAVE_CUDA */

int airfoil_cuda_run(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_run_t *r) {
  TSR_CALL(airfoil_cuda_run_profile(p, o, r, NULL));
  return 0;
}

int airfoil_cuda_run_profile(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o,
                             airfoil_run_t *r, airfoil_profile_t *prof) {
#ifndef TSR_HAVE_CUDA
  (void)p;
  (void)o;
  (void)r;
  (void)prof;
  return TSR_RAISE(TSR_ERR_NOCUDA, "airfoil CUDA variants: built without CUDA (configure found no nvcc)");
#else
  TSR_CHECK(p && o && r && r->rms && r->niter >= 0, TSR_ERR_ARG,
            "airfoil_cuda_run: needs a problem, options and an rms array");
  TSR_CHECK(p->ncell_owned <= p->ncell && p->nedge_core <= p->nedge_exec &&
                p->nedge_exec <= p->nedge && p->nbedge_core <= p->nbedge_exec &&
                p->nbedge_exec <= p->nbedge && p->ncell_global > 0 && p->ncell < INT32_MAX &&
                p->nedge < INT32_MAX && p->nnode < INT32_MAX,
            TSR_ERR_ARG, "airfoil_cuda_run: inconsistent ranges (build the problem with "
            "airfoil_problem_from_mesh)");
  TSR_CHECK(p->halo || (p->ncell_owned == p->ncell && p->nedge_exec == p->nedge),
            TSR_ERR_ARG, "airfoil_cuda_run: a partitioned mesh needs its cells' halo");
  TSR_CHECK(tsr_device_cuda_count() > 0, TSR_ERR_NODEVICE, "airfoil CUDA variants: no GPU visible");
  TSR_CHECK(o->incr >= 0 && o->incr < AIRFOIL_NINCR, TSR_ERR_ARG,
            "airfoil_cuda_run: increment strategy %d unknown", (int)o->incr);
  af_mem_t *m = calloc(1, sizeof *m);
  TSR_CHECK(m, TSR_ERR_ALLOC, "airfoil CUDA: no memory");
  m->dev.kind = TSR_DEV_CUDA;
  int id = 0;
  if (cudaGetDevice(&id) != cudaSuccess) id = 0;
  m->dev.id = id;
  airfoil_cuda_t d;
  af_host_t h;
  memset(&d, 0, sizeof d);
  memset(&h, 0, sizeof h);
  const size_t R = r->prec == AIRFOIL_DOUBLE ? sizeof(double) : sizeof(float);
  const int soa = o->layout == AIRFOIL_SOA;
  struct airfoil_cuda_prof pr;
  memset(&pr, 0, sizeof pr);
  int rc = af_setup(m, p, o, r, &d, &h);
  size_t l2_limit0 = 0;
  int l2_set = 0;
  if (!rc) rc = af_l2_begin(&m->dev, o, &d, R, p->ncell, &l2_limit0, &l2_set);
  r->l2_window = d.l2_bytes;
  if (!rc && prof) {
    pr.acc = prof;
    if (tsr_cuda_fault(cudaEventCreate(&pr.ev[0])) != cudaSuccess ||
        tsr_cuda_fault(cudaEventCreate(&pr.ev[1])) != cudaSuccess)
      rc = TSR_RAISE(TSR_ERR_CUDA, "airfoil CUDA: cudaEventCreate for --profile failed");
    d.prof = &pr;
  }
  if (p->halo) { /* collective: errors agreed first */
    rc = tsr_error_agree(p->comm, rc);
    if (!rc) rc = tsr_halo_create_planes(p->halo, soa ? 4 : 1, p->ncell, &h.hq);
    if (!rc) rc = tsr_halo_create_planes(p->halo, 1, p->ncell, &h.ha);
    if (!rc && d.fuse) rc = tsr_queue_create(&m->dev, &h.q);
    const int64_t lim = o->incr == AIRFOIL_GATHER4 ? (int64_t)1 << 19 : (int64_t)1 << 18;
    if (!rc && h.q && (o->split == AIRFOIL_SPLIT_ON ||
                       (o->split == AIRFOIL_SPLIT_AUTO && p->ncell_owned <= lim)))
      rc = af_setup_exported(m, p, &d);
    if (!rc && d.split) rc = af_split_core(m, p, &d, &h);
    if (!rc && h.q) rc = tsr_halo_set_stream(h.hq, tsr_queue_stream(h.q));
    if (!rc && h.q) rc = tsr_halo_set_stream(h.ha, tsr_queue_stream(h.q));
    /* the exchanges' setup (device lists and buffers, IPC mappings) before
       the clock starts: q (AoS: with adt, 5 values a cell; SoA: planes of
       one), and adt where it goes on its own (unfused, or SoA) */
    rc = tsr_error_agree(p->comm, rc);
    if (!rc) rc = tsr_halo_prepare(h.hq, &m->dev, R * (soa ? 1 : 5));
    if (!rc && (!d.fuse || soa)) rc = tsr_halo_prepare(h.ha, &m->dev, R);
    /* the stages' graphs, where they serve (collective) */
    rc = tsr_error_agree(p->comm, rc);
    if (!rc)
      rc = airfoil_graphs_make(p, o, &d, h.hq, h.q != NULL, &m->dev,
                               r->prec == AIRFOIL_DOUBLE ? TSR_DOUBLE : TSR_FLOAT, &h.g);
  }
  if (!rc) rc = tsr_device_sync(&m->dev);
  if (p->halo) rc = tsr_error_agree(p->comm, rc);
  double t0 = tsr_wtime();
  if (!rc) rc = af_iterate(p, &d, &h, &m->dev, r->niter);
  if (!rc) rc = tsr_device_sync(&m->dev);
  if (!rc && r->niter > 0) rc = tsr_device_download(&m->dev, r->rms, d.sums, sizeof(double) * (size_t)r->niter);
  if (p->halo) {
    rc = tsr_error_agree(p->comm, rc);
    if (!rc && r->niter > 0 &&
        MPI_Allreduce(MPI_IN_PLACE, r->rms, r->niter, MPI_DOUBLE, MPI_SUM, p->comm) != MPI_SUCCESS)
      rc = TSR_RAISE(TSR_ERR_MPI, "airfoil CUDA: MPI_Allreduce of the rms sums failed");
  }
  r->seconds = tsr_wtime() - t0;
  for (int it = 0; !rc && it < r->niter; it++) r->rms[it] = airfoil_rms(r->rms[it], p->ncell_global);
  if (!rc && r->q) {
    void *hq = malloc(R * (size_t)(4 * p->ncell + 1));
    rc = hq ? tsr_device_download(&m->dev, hq, d.q, R * 4 * (size_t)p->ncell)
            : TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory for q");
    for (int64_t i = 0; !rc && i < p->ncell; i++)
      for (int n = 0; n < 4; n++) {
        int64_t k = soa ? n * p->ncell + i : i * 4 + n;
        r->q[4 * i + n] = R == sizeof(double) ? ((double *)hq)[k] : (double)((float *)hq)[k];
      }
    free(hq);
  }
  for (int i = 0; i < 2; i++)
    if (pr.ev[i]) cudaEventDestroy(pr.ev[i]);
  af_l2_end(l2_limit0, l2_set);
  for (int i = 0; i < m->n; i++) tsr_device_free(&m->dev, &m->p[i]);
  free(m);
  af_host_free(&h);
  TSR_CALL(rc);
  return 0;
#endif
}
