/* kernels/sparse/sg_dist_run.c: running a distributed hierarchization
 * (sg_dist.h): staging buffers, the pole tables on the device, the
 * host-staged exchanges between layouts (lib's tsr_alltoallv) and the sweeps of each phase. */
#include "config.h"
#include "kernels/sparse/sg_dist.h"
#include "tessera/error.h"
#include "tessera/xfer.h"

#include <stdlib.h>
#include <string.h>

int fastsg_dist_buf_init(const fastsg_dist_t *d, const tsr_device_t *dev, size_t es,
                         fastsg_dist_buf_t *buf) {
  memset(buf, 0, sizeof *buf);
  buf->es = es;
  int64_t smax = 0, rmax = 0;
  for (int k = 0; k < 3; k++) {
    smax = TSR_MAX(smax, d->xf[k].sdispl[d->size]);
    rmax = TSR_MAX(rmax, d->xf[k].rdispl[d->size]);
  }
  buf->sbuf = malloc((size_t)(smax + 1) * es);
  buf->rbuf = malloc((size_t)(rmax + 1) * es);
  if (dev->kind != TSR_DEV_CPU) buf->hx = malloc((size_t)(d->cap + 1) * es);
  if (!buf->sbuf || !buf->rbuf || (dev->kind != TSR_DEV_CPU && !buf->hx)) {
    fastsg_dist_buf_free(buf);
    return TSR_RAISE(TSR_ERR_ALLOC, "fastsg distribution: cannot allocate %.3g GiB of host "
                     "staging buffers", (double)(smax + rmax + d->cap) * (double)es / 1073741824.0);
  }
  return TSR_SUCCESS;
}

void fastsg_dist_buf_free(fastsg_dist_buf_t *buf) {
  free(buf->hx);
  free(buf->sbuf);
  free(buf->rbuf);
  buf->hx = buf->sbuf = buf->rbuf = NULL;
}

int fastsg_dist_dev_init(const fastsg_dist_t *d, const tsr_device_t *dev, fastsg_dist_dev_t *dt) {
  memset(dt, 0, sizeof *dt);
  if (dev->kind == TSR_DEV_CPU) return TSR_SUCCESS;
  for (int t = 0; t < d->grid.dim; t++) {
    const fastsg_sweep_t *s = &d->sw[t];
    const size_t pbytes = sizeof(fastsg_pole_t) * (size_t)(s->npoles + 1),
                 bbytes = sizeof(int64_t) * (size_t)(s->npb + 1);
    void *p = NULL, *b = NULL;
    int rc = tsr_device_malloc(dev, pbytes, &p);
    if (rc == 0) rc = tsr_device_malloc(dev, bbytes, &b);
    dt->poles[t] = p;
    dt->pb[t] = b;
    if (rc == 0 && s->npoles) rc = tsr_device_upload(dev, p, s->poles, pbytes - sizeof(fastsg_pole_t));
    if (rc == 0 && s->npb) rc = tsr_device_upload(dev, b, s->pb, bbytes - sizeof(int64_t));
    if (rc) {
      fastsg_dist_dev_free(d, dev, dt);
      return rc;
    }
  }
  return TSR_SUCCESS;
}

void fastsg_dist_dev_free(const fastsg_dist_t *d, const tsr_device_t *dev, fastsg_dist_dev_t *dt) {
  if (dev->kind == TSR_DEV_CPU) return;
  for (int t = 0; t < d->grid.dim; t++) {
    void *p = dt->poles[t], *b = dt->pb[t];
    tsr_device_free(dev, &p);
    tsr_device_free(dev, &b);
    dt->poles[t] = NULL;
    dt->pb[t] = NULL;
  }
}

/* Copy runs {x, y, len}: to[y .. y+len) = from[x .. x+len). */
static void fastsg_runs_copy(const int64_t *run, int64_t n, size_t es, const char *from,
                             char *to) {
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t r = 0; r < n; r++) {
    const int64_t *p = run + 3 * r;
    memcpy(to + (size_t)p[1] * es, from + (size_t)p[0] * es, (size_t)p[2] * es);
  }
}

int fastsg_dist_exchange(const fastsg_dist_t *d, int xf, MPI_Comm comm, const tsr_device_t *dev,
                         void *a, fastsg_dist_buf_t *buf) {
  static const int from[3] = {FASTSG_L_ROWS, FASTSG_L_A, FASTSG_L_B},
                   to[3] = {FASTSG_L_A, FASTSG_L_B, FASTSG_L_ROWS};
  TSR_CHECK(xf >= 0 && xf < 3, TSR_ERR_ARG, "fastsg_dist_exchange: transfer %d", xf);
  const fastsg_xfer_t *f = &d->xf[xf];
  const size_t es = buf->es;
  const int host = dev->kind == TSR_DEV_CPU;
  char *h = host ? (char *)a : (char *)buf->hx;
  /* a download that fails on one rank: agreed before the all-to-all */
  TSR_CALL(tsr_error_agree(comm, host ? 0 : tsr_device_download(dev, h, a,
                                                    (size_t)d->nlocal[from[xf]] * es)));
  fastsg_runs_copy(f->srun, f->nsrun, es, h, (char *)buf->sbuf);
  TSR_CALL(tsr_alltoallv(comm, buf->sbuf, f->scount, f->sdispl, buf->rbuf, f->rcount, f->rdispl,
                         es));
  fastsg_runs_copy(f->rrun, f->nrrun, es, (const char *)buf->rbuf, h);
  if (!host) TSR_CALL(tsr_device_upload(dev, a, h, (size_t)d->nlocal[to[xf]] * es));
  return TSR_SUCCESS;
}

int fastsg_dist_sweeps(const fastsg_dist_t *d, int phase, const tsr_device_t *dev,
                       const fastsg_dist_dev_t *dt, tsr_dtype_t prec, void *a, int dehier) {
  const int t0 = phase == 0 ? 0 : d->split, t1 = phase == 0 ? d->split : d->grid.dim;
  const int host = dev->kind == TSR_DEV_CPU;
  for (int t = t0; t < t1; t++) {
    const fastsg_sweep_t *s = &d->sw[t];
    fastsg_dist_args_t A = {.grid = &d->grid, .prec = prec, .a = a, .npoles = s->npoles,
                            .poles = host ? s->poles : dt->poles[t],
                            .pb = host ? s->pb : dt->pb[t], .dehier = dehier};
    TSR_CALL(host ? fastsg_dist_sweep_cpu(&A) : fastsg_dist_sweep_cuda(&A));
  }
  return TSR_SUCCESS;
}

int fastsg_dist_transform(const fastsg_dist_t *d, MPI_Comm comm, const tsr_device_t *dev,
                          const fastsg_dist_dev_t *dt, tsr_dtype_t prec, void *a,
                          fastsg_dist_buf_t *buf, int dehier) {
  /* a failure on some ranks (an upload, a sweep) is agreed before the next
     exchange, which every rank then enters or none */
  int rc = fastsg_dist_exchange(d, FASTSG_X_ROWS_A, comm, dev, a, buf);
  if (!rc) rc = fastsg_dist_sweeps(d, 0, dev, dt, prec, a, dehier);
  TSR_CALL(tsr_error_agree(comm, rc));
  rc = fastsg_dist_exchange(d, FASTSG_X_A_B, comm, dev, a, buf);
  if (!rc) rc = fastsg_dist_sweeps(d, 1, dev, dt, prec, a, dehier);
  TSR_CALL(tsr_error_agree(comm, rc));
  TSR_CALL(fastsg_dist_exchange(d, FASTSG_X_B_ROWS, comm, dev, a, buf));
  if (!(dev->kind == TSR_DEV_CPU)) TSR_CALL(tsr_device_sync(dev));
  return TSR_SUCCESS;
}
