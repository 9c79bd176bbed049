/* kernels/airfoil/airfoil_cuda_run.c: host side of the CUDA variants: the
 * dats converted to the run's precision and layout, the colourings or the
 * inverse maps the increment strategy needs, uploads, the timed iterations
 * (airfoil_iterate_cuda in airfoil_cuda.cu) and the downloads. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/colour.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/mesh.h"
#include "kernels/airfoil/airfoil_cuda.cuh"

int airfoil_cuda_run(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_run_t *r) {
#ifndef TSR_HAVE_CUDA
  (void)p;
  (void)o;
  (void)r;
  return TSR_RAISE(TSR_ERR_NOCUDA, "airfoil CUDA variants: built without CUDA (configure found no nvcc)");
#else
  TSR_CHECK(tsr_device_cuda_count() > 0, TSR_ERR_NODEVICE, "airfoil CUDA variants: no GPU visible");
  TSR_CHECK(p->ncell_owned == p->ncell && p->nedge_exec == p->nedge && p->halo == NULL,
            TSR_ERR_UNSUPPORTED, "airfoil CUDA variants: the mesh must be whole (one rank)");
  tsr_device_t dev;
  memset(&dev, 0, sizeof dev);
  dev.kind = TSR_DEV_CUDA;
  const size_t R = r->prec == AIRFOIL_DOUBLE ? sizeof(double) : sizeof(float);
  const int64_t nn = p->nnode, nc = p->ncell, ne = p->nedge, nb = p->nbedge;
  const int soa = o->layout == AIRFOIL_SOA;
  airfoil_cuda_t d;
  memset(&d, 0, sizeof d);
  d.nnode = (int)nn, d.ncell = (int)nc, d.nedge = (int)ne, d.nbedge = (int)nb;
  d.prec = r->prec, d.layout = o->layout, d.incr = o->incr, d.block = o->block;
  d.kd = airfoil_kc_make_d(&p->c);
  d.kf = airfoil_kc_make_f(&p->c);
  int nblocks = (int)((nc + o->block - 1) / o->block);

  /* Host staging: a dat in the run's precision and layout. */
  size_t hbytes = R * (size_t)(4 * (nc > nn ? nc : nn) + 1);
  char *h = malloc(hbytes);
  double *hrms = malloc(sizeof(double) * (size_t)(r->niter + 1));
  int32_t *ecolour = NULL, *bcolour = NULL, *eorder = NULL, *border = NULL;
  tsr_idx_t *eoff = NULL, *boff = NULL;
  tsr_csr_t ce = {0, NULL, NULL, NULL}, cb = {0, NULL, NULL, NULL};
  void *dptr[64];
  tsr_plan_t *pe = NULL, *pb = NULL;
  tsr_plan_stage_t se, sb;
  memset(&se, 0, sizeof se);
  memset(&sb, 0, sizeof sb);
  tsr_idx_t *ueoff = NULL, *uboff = NULL;
  int32_t *pbound = NULL;
  int ndptr = 0, rc = 0;
  if (!h || !hrms) rc = TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no host memory for staging");

#define AF_DALLOC(field, bytes)                                                            \
  do {                                                                                     \
    void *pp_ = NULL;                                                                      \
    if (!rc) rc = tsr_device_malloc(&dev, (size_t)(bytes) + 16, &pp_);                     \
    if (!rc) dptr[ndptr++] = pp_, *(void **)&(field) = pp_;                                \
  } while (0)
#define AF_UP(field, src, bytes)                                                           \
  do {                                                                                     \
    AF_DALLOC(field, bytes);                                                               \
    if (!rc && (bytes) > 0) rc = tsr_device_upload(&dev, (void *)(field), src, (size_t)(bytes)); \
  } while (0)
  /* convert src [n][dim] doubles to the staging buffer in precision + layout */
#define AF_STAGE(src, n, dim)                                                              \
  do {                                                                                     \
    for (int64_t i_ = 0; i_ < (n); i_++)                                                   \
      for (int m_ = 0; m_ < (dim); m_++) {                                                 \
        int64_t k_ = soa ? m_ * (n) + i_ : i_ * (dim) + m_;                                \
        if (R == sizeof(double)) ((double *)h)[k_] = (src)[i_ * (dim) + m_];               \
        else ((float *)h)[k_] = (float)(src)[i_ * (dim) + m_];                             \
      }                                                                                    \
  } while (0)

  AF_UP(d.pcell, p->pcell, 16 * nc);
  AF_UP(d.pedge, p->pedge, 8 * ne);
  AF_UP(d.pecell, p->pecell, 8 * ne);
  AF_UP(d.pbedge, p->pbedge, 8 * nb);
  AF_UP(d.pbecell, p->pbecell, 4 * nb);
  AF_UP(d.bound, p->bound, 4 * nb);
  if (!rc) AF_STAGE(p->x, nn, 2);
  AF_UP(d.x, h, R * 2 * nn);
  if (!rc) AF_STAGE(p->q0, nc, 4);
  AF_UP(d.q, h, R * 4 * nc);
  AF_DALLOC(d.qold, R * 4 * nc);
  AF_DALLOC(d.res, R * 4 * nc);
  AF_DALLOC(d.adt, R * nc);
  AF_DALLOC(d.partial, sizeof(double) * nblocks);
  AF_DALLOC(d.rms, sizeof(double) * r->niter);
  if (!rc) rc = tsr_device_memset(&dev, d.res, 0, R * 4 * nc);

  if (!rc && o->incr == AIRFOIL_COLOUR) {
    ecolour = malloc(sizeof(int32_t) * (size_t)(ne + 1));
    bcolour = malloc(sizeof(int32_t) * (size_t)(nb + 1));
    if (!ecolour || !bcolour) rc = TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory for colours");
    if (!rc) rc = tsr_colour_greedy(p->pecell, ne, 2, nc, ecolour, &d.necol);
    if (!rc) rc = tsr_colour_greedy(p->pbecell, nb, 1, nc, bcolour, &d.nbcol);
    if (!rc) rc = tsr_colour_groups(ecolour, ne, d.necol, &eoff, &eorder);
    if (!rc) rc = tsr_colour_groups(bcolour, nb, d.nbcol, &boff, &border);
    d.ecol_off = eoff, d.bcol_off = boff;
    AF_UP(d.ecol, eorder, 4 * ne);
    AF_UP(d.bcol, border, 4 * nb);
  }
  if (!rc && o->incr == AIRFOIL_GATHER) {
    tsr_map_t me = {"pecell", 0, 0, 2, (int32_t *)p->pecell};
    tsr_map_t mb = {"pbecell", 0, 0, 1, (int32_t *)p->pbecell};
    rc = tsr_map_inverse(&me, ne, nc, &ce);
    if (!rc) rc = tsr_map_inverse(&mb, nb, nc, &cb);
    AF_DALLOC(d.eflux, R * 4 * ne);
    AF_DALLOC(d.bflux, R * 4 * nb);
    AF_UP(d.ce_off, ce.offsets, sizeof(tsr_idx_t) * (nc + 1));
    AF_UP(d.ce_elem, ce.elem, 4 * (rc ? 0 : ce.offsets[nc]));
    AF_UP(d.ce_side, ce.corner, 4 * (rc ? 0 : ce.offsets[nc]));
    AF_UP(d.cb_off, cb.offsets, sizeof(tsr_idx_t) * (nc + 1));
    AF_UP(d.cb_elem, cb.elem, 4 * (rc ? 0 : cb.offsets[nc]));
  }
  if (!rc && o->incr == AIRFOIL_SHARED) {
    /* edges: the partition's blocks when they fit the block size, else
     * uniform blocks; bedges: uniform blocks */
    tsr_idx_t neb = 0, nbb = 0;
    const tsr_idx_t *eoff = NULL;
    int fits = p->neblock > 0 && p->eblock_off[p->neblock] == ne;
    for (tsr_idx_t b = 0; fits && b < p->neblock; b++)
      fits = p->eblock_off[b + 1] - p->eblock_off[b] <= o->block;
    if (fits) neb = p->neblock, eoff = p->eblock_off;
    else rc = tsr_plan_uniform_blocks(ne, o->block, &neb, &ueoff), eoff = ueoff;
    if (!rc) rc = tsr_plan_create(p->pecell, 2, nc, 0, ne, neb, eoff, &pe);
    if (!rc) rc = tsr_plan_stage(pe, p->pedge, 2, nn, &se);
    if (!rc) rc = tsr_plan_uniform_blocks(nb, o->block, &nbb, &uboff);
    if (!rc) rc = tsr_plan_create(p->pbecell, 1, nc, 0, nb, nbb, uboff, &pb);
    if (!rc) rc = tsr_plan_stage(pb, p->pbedge, 2, nn, &sb);
    if (!rc && !(pbound = malloc(sizeof(int32_t) * (size_t)(nb + 1))))
      rc = TSR_RAISE(TSR_ERR_ALLOC, "airfoil CUDA: no memory");
    for (tsr_idx_t i = 0; !rc && i < nb; i++) pbound[i] = p->bound[pb->order[i]];
    for (int w = 0; w < 2 && !rc; w++) {
      const tsr_plan_t *pl = w ? pb : pe;
      const tsr_plan_stage_t *st = w ? &sb : &se;
      airfoil_cuda_plan_t *dp = w ? &d.bplan : &d.eplan;
      tsr_idx_t nbl = pl->nblocks, nel = pl->nelem;
      dp->nblocks = (int)nbl;
      dp->ncolours = pl->nblock_colours;
      dp->col_off = pl->bcolour_off;
      dp->smem = R * (size_t)(9 * pl->inc.max_targets + 2 * st->max_targets);
      AF_UP(dp->col_blocks, pl->bcolour_blocks, 4 * nbl);
      AF_UP(dp->off, pl->block_off, 8 * (nbl + 1));
      AF_UP(dp->c_off, pl->inc.target_off, 8 * (nbl + 1));
      AF_UP(dp->c_tgt, pl->inc.target, 4 * pl->inc.target_off[nbl]);
      AF_UP(dp->c_loc, pl->inc.local, 4 * nel * pl->inc.dim);
      AF_UP(dp->n_off, st->target_off, 8 * (nbl + 1));
      AF_UP(dp->n_tgt, st->target, 4 * st->target_off[nbl]);
      AF_UP(dp->n_loc, st->local, 4 * nel * 2);
      AF_UP(dp->tcol, pl->thread_colour, 4 * nel);
      AF_UP(dp->ntcol, pl->block_ncolours, 4 * nbl);
      if (w) AF_UP(dp->bound, pbound, 4 * nel);
    }
    if (!rc) rc = airfoil_shared_setup_cuda(&d);
  }
  if (!rc) rc = tsr_device_sync(&dev);
  double t0 = tsr_wtime();
  if (!rc) rc = airfoil_iterate_cuda(&d, r->niter);
  if (!rc) rc = tsr_device_sync(&dev);
  r->seconds = tsr_wtime() - t0;
  if (!rc && r->niter > 0) rc = tsr_device_download(&dev, r->rms, d.rms, sizeof(double) * r->niter);
  if (!rc && r->q) {
    rc = tsr_device_download(&dev, h, d.q, R * 4 * nc);
    for (int64_t i = 0; !rc && i < nc; i++)
      for (int m = 0; m < 4; m++) {
        int64_t k = soa ? m * nc + i : i * 4 + m;
        r->q[4 * i + m] = R == sizeof(double) ? ((double *)h)[k] : (double)((float *)h)[k];
      }
  }
#undef AF_DALLOC
#undef AF_UP
#undef AF_STAGE
  for (int i = 0; i < ndptr; i++) tsr_device_free(&dev, &dptr[i]);
  free(h);
  free(hrms);
  free(ecolour);
  free(bcolour);
  free(eorder);
  free(border);
  free(eoff);
  free(boff);
  tsr_csr_free(&ce);
  tsr_csr_free(&cb);
  tsr_plan_stage_free(&se);
  tsr_plan_stage_free(&sb);
  tsr_plan_destroy(&pe);
  tsr_plan_destroy(&pb);
  free(ueoff);
  free(uboff);
  free(pbound);
  TSR_CALL(rc);
  return 0;
#endif
}
