/* check_halo_regular: regular-grid decomposition and halo exchange at any
 * rank count: every halo cell (corners included) equals its owner's value,
 * a 2h+1 x 2h+1 stencil summed over owned cells equals the serial sum,
 * reverse mode adds every halo copy into its owner, the errors (grid too
 * small, inconsistent lists, misuse) reach every rank without a hang, and a
 * rank that fails alone between exchanges ends its neighbours' waits only
 * when it never posted their messages; on the CPU the pack and unpack of
 * 1-4 arrays at once equal one call per array, and bad array counts and
 * strides are refused. */
#include <math.h>
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"

typedef struct {
  tsr_idx_t n[3];
  int halo, periodic[2], pad;
} cfg_t;

static const cfg_t cfgs[] = {
    {{13, 11, 3}, 1, {0, 0}, 0},
    {{17, 9, 2}, 2, {0, 0}, 3},
    {{12, 10, 2}, 2, {1, 1}, 1},
    {{11, 13, 2}, 1, {1, 0}, 0},
};
#define NCFG (int)(sizeof cfgs / sizeof cfgs[0])

static const struct {
  tsr_dtype_t t;
  int dim;
} types[] = {{TSR_DOUBLE, 1}, {TSR_INT64, 2}, {TSR_FLOAT, 3}};

#define SENTINEL (-7.0)

static double f(tsr_idx_t x, tsr_idx_t y, tsr_idx_t z, int c) {
  return 1.0 + (double)x + 100.0 * (double)y + 10000.0 * (double)z + 0.25 * c;
}

static void put(void *a, tsr_dtype_t t, tsr_idx_t i, double v) {
  switch (t) {
    case TSR_INT32: ((int32_t *)a)[i] = (int32_t)(4 * v); break;
    case TSR_INT64: ((int64_t *)a)[i] = (int64_t)(4 * v); break;
    case TSR_FLOAT: ((float *)a)[i] = (float)v; break;
    case TSR_DOUBLE: ((double *)a)[i] = v; break;
  }
}
static double get(const void *a, tsr_dtype_t t, tsr_idx_t i) {
  switch (t) {
    case TSR_INT32: return ((const int32_t *)a)[i] / 4.0;
    case TSR_INT64: return (double)((const int64_t *)a)[i] / 4.0;
    case TSR_FLOAT: return ((const float *)a)[i];
    case TSR_DOUBLE: return ((const double *)a)[i];
  }
  return 0;
}

/* Global coordinate g along an axis of n cells, wrapped where periodic;
 * -1 when outside a non-periodic grid. */
static tsr_idx_t wrapg(tsr_idx_t g, tsr_idx_t n, int periodic) {
  if (g >= 0 && g < n) return g;
  return periodic ? (g + n) % n : -1;
}

static int setup(const cfg_t *c, tsr_grid_part_t *p, tsr_grid_box_t *b) {
  TSR_CALL(tsr_grid_part_init(MPI_COMM_WORLD, c->n, c->halo, c->periodic, p));
  *b = tsr_grid_part_local(p, 1);
  b->nx += c->pad;
  return TSR_SUCCESS;
}

/* Fill: owned cells f, everything else the sentinel. */
static void fill(const tsr_grid_part_t *p, const tsr_grid_box_t *b, void *a, tsr_dtype_t t,
                 int dim) {
  for (tsr_idx_t i = 0; i < b->nx * b->ny * b->nz * dim; i++) put(a, t, i, SENTINEL);
  for (tsr_idx_t z = 0; z < p->n[2]; z++)
    for (tsr_idx_t y = 0; y < p->inner[1]; y++)
      for (tsr_idx_t x = 0; x < p->inner[0]; x++)
        for (int c = 0; c < dim; c++)
          put(a, t, (((z + b->z0) * b->ny + y + b->y0) * b->nx + x + b->x0) * dim + c,
              f(x + p->lo[0], y + p->lo[1], z, c));
}

/* What cell (x, y, z) of the local array must hold after the exchange. */
static double expected(const tsr_grid_part_t *p, const tsr_grid_box_t *b, tsr_idx_t x,
                       tsr_idx_t y, tsr_idx_t z, int c) {
  tsr_idx_t h = p->halo, lx = x - b->x0, ly = y - b->y0, lz = z - b->z0;
  if (lz < 0 || lz >= p->n[2] || lx < -h || lx >= p->inner[0] + h || ly < -h ||
      ly >= p->inner[1] + h)
    return SENTINEL; /* z halo planes and x padding are not exchanged */
  tsr_idx_t gx = wrapg(lx + p->lo[0], p->n[0], p->periodic[0]);
  tsr_idx_t gy = wrapg(ly + p->lo[1], p->n[1], p->periodic[1]);
  return gx < 0 || gy < 0 ? SENTINEL : f(gx, gy, lz, c);
}

START_TEST(test_forward) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  for (int ci = 0; ci < NCFG; ci++)
    for (int ti = 0; ti < 3; ti++) {
      const cfg_t *c = &cfgs[ci];
      tsr_dtype_t t = types[ti].t;
      int dim = types[ti].dim;
      tsr_grid_part_t p;
      tsr_grid_box_t b;
      tsr_halo_t *h = NULL;
      ck_tsr(setup(c, &p, &b));
      ck_tsr(tsr_halo_create_regular(&p, &b, &h));
      tsr_idx_t ncell = b.nx * b.ny * b.nz;
      void *a = malloc((size_t)(ncell * dim) * tsr_dtype_size(t));
      ck_assert_ptr_nonnull(a);
      fill(&p, &b, a, t, dim);
      /* two rounds: buffers are reused, and stale halos are overwritten */
      for (int round = 0; round < 2; round++) {
        ck_tsr(tsr_halo_begin(h, &cpu, a, dim, t));
        ck_tsr(tsr_halo_end(h, &cpu, a, dim, t));
      }
      long bad = 0;
      for (tsr_idx_t z = 0; z < b.nz; z++)
        for (tsr_idx_t y = 0; y < b.ny; y++)
          for (tsr_idx_t x = 0; x < b.nx; x++)
            for (int k = 0; k < dim; k++) {
              double want = expected(&p, &b, x, y, z, k);
              double got = get(a, t, ((z * b.ny + y) * b.nx + x) * dim + k);
              if (got != want && bad++ < 3)
                fprintf(stderr, "rank %d cfg %d %s: cell (%lld,%lld,%lld)[%d] = %g, want %g\n",
                        p.rank, ci, tsr_dtype_name(t), (long long)x, (long long)y, (long long)z,
                        k, got, want);
            }
      free(a);
      ck_tsr(tsr_halo_destroy(&h));
      ck_assert_ptr_null(h);
      ck_assert_msg(tsr_test_all(bad == 0), "halo cells differ from their owners' values");
    }
}
END_TEST

/* Sum over owned cells of a (2h+1)^2 stencil that reads every halo cell,
 * corners included, against the same sum computed serially from f. */
START_TEST(test_stencil_sum) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  for (int ci = 0; ci < NCFG; ci++) {
    const cfg_t *c = &cfgs[ci];
    tsr_grid_part_t p;
    tsr_grid_box_t b;
    tsr_halo_t *h = NULL;
    ck_tsr(setup(c, &p, &b));
    ck_tsr(tsr_halo_create_regular(&p, &b, &h));
    double *u = malloc((size_t)(b.nx * b.ny * b.nz) * sizeof *u);
    ck_assert_ptr_nonnull(u);
    fill(&p, &b, u, TSR_DOUBLE, 1);
    for (tsr_idx_t i = 0; i < b.nx * b.ny * b.nz; i++)
      if (u[i] == SENTINEL) u[i] = 0; /* outside the grid reads as 0 */
    int hw = c->halo;
    ck_tsr(tsr_halo_begin(h, &cpu, u, 1, TSR_DOUBLE));
    double owned = 0; /* interior work while messages fly */
    for (tsr_idx_t z = 0; z < p.n[2]; z++)
      for (tsr_idx_t y = 0; y < p.inner[1]; y++)
        for (tsr_idx_t x = 0; x < p.inner[0]; x++)
          owned += u[((z + b.z0) * b.ny + y + b.y0) * b.nx + x + b.x0];
    ck_tsr(tsr_halo_end(h, &cpu, u, 1, TSR_DOUBLE));
    double local = 0;
    for (tsr_idx_t z = 0; z < p.n[2]; z++)
      for (tsr_idx_t y = 0; y < p.inner[1]; y++)
        for (tsr_idx_t x = 0; x < p.inner[0]; x++)
          for (int dy = -hw; dy <= hw; dy++)
            for (int dx = -hw; dx <= hw; dx++)
              local += u[((z + b.z0) * b.ny + y + b.y0 + dy) * b.nx + x + b.x0 + dx] /
                       (1.0 + abs(dx) + 2.0 * abs(dy));
    double sums[2] = {local, owned}, tot[2];
    MPI_Allreduce(sums, tot, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double serial = 0, serial_owned = 0;
    for (tsr_idx_t z = 0; z < c->n[2]; z++)
      for (tsr_idx_t y = 0; y < c->n[1]; y++)
        for (tsr_idx_t x = 0; x < c->n[0]; x++) {
          serial_owned += f(x, y, z, 0);
          for (int dy = -hw; dy <= hw; dy++)
            for (int dx = -hw; dx <= hw; dx++) {
              tsr_idx_t gx = wrapg(x + dx, c->n[0], c->periodic[0]);
              tsr_idx_t gy = wrapg(y + dy, c->n[1], c->periodic[1]);
              if (gx >= 0 && gy >= 0) serial += f(gx, gy, z, 0) / (1.0 + abs(dx) + 2.0 * abs(dy));
            }
        }
    free(u);
    ck_tsr(tsr_halo_destroy(&h));
    /* sums of ~1e3..1e6 terms of size <= 1e5: 1e-12 relative is far above rounding */
    ck_assert_msg(fabs(tot[0] - serial) <= 1e-12 * fabs(serial), "cfg %d: stencil sum %.17g, serial %.17g",
                  ci, tot[0], serial);
    ck_assert_msg(fabs(tot[1] - serial_owned) <= 1e-12 * fabs(serial_owned),
                  "cfg %d: owned sum %.17g, serial %.17g", ci, tot[1], serial_owned);
  }
}
END_TEST

/* Reverse: each rank's valid halo cells hold rank+1; afterwards every owned
 * cell holds the sum of rank+1 over all halo copies of it on all ranks,
 * counted by brute force from every rank's box. */
START_TEST(test_reverse) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  for (int ci = 0; ci < NCFG; ci++) {
    const cfg_t *c = &cfgs[ci];
    tsr_grid_part_t p;
    tsr_grid_box_t b;
    tsr_halo_t *h = NULL;
    ck_tsr(setup(c, &p, &b));
    ck_tsr(tsr_halo_create_regular(&p, &b, &h));
    tsr_idx_t ncell = b.nx * b.ny * b.nz, hw = c->halo;
    double *u = malloc((size_t)ncell * sizeof *u);
    double *want = calloc((size_t)(c->n[0] * c->n[1]), sizeof *want);
    ck_assert(u && want);
    for (tsr_idx_t z = 0; z < b.nz; z++)
      for (tsr_idx_t y = 0; y < b.ny; y++)
        for (tsr_idx_t x = 0; x < b.nx; x++) {
          double e = expected(&p, &b, x, y, z, 0);
          int inner = x >= b.x0 && x < b.x0 + p.inner[0] && y >= b.y0 && y < b.y0 + p.inner[1];
          u[(z * b.ny + y) * b.nx + x] = e == SENTINEL ? SENTINEL : inner ? 0.0 : p.rank + 1.0;
        }
    for (int r = 0; r < p.size; r++) {
      tsr_idx_t lo[3], hi[3];
      tsr_grid_part_box(&p, r, lo, hi);
      for (tsr_idx_t y = lo[1] - hw; y < hi[1] + hw; y++)
        for (tsr_idx_t x = lo[0] - hw; x < hi[0] + hw; x++) {
          if (x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1]) continue;
          tsr_idx_t gx = wrapg(x, c->n[0], c->periodic[0]), gy = wrapg(y, c->n[1], c->periodic[1]);
          if (gx >= 0 && gy >= 0) want[gy * c->n[0] + gx] += r + 1.0;
        }
    }
    ck_tsr(tsr_halo_reverse_begin(h, &cpu, u, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_reverse_end(h, &cpu, u, 1, TSR_DOUBLE));
    long bad = 0;
    for (tsr_idx_t z = 0; z < b.nz; z++)
      for (tsr_idx_t y = 0; y < b.ny; y++)
        for (tsr_idx_t x = 0; x < b.nx; x++) {
          double e = expected(&p, &b, x, y, z, 0), got = u[(z * b.ny + y) * b.nx + x];
          int inner = x >= b.x0 && x < b.x0 + p.inner[0] && y >= b.y0 && y < b.y0 + p.inner[1] &&
                      e != SENTINEL;
          double w = e == SENTINEL ? SENTINEL
                     : inner ? want[(y - b.y0 + p.lo[1]) * c->n[0] + x - b.x0 + p.lo[0]]
                             : p.rank + 1.0;
          if (got != w && bad++ < 3)
            fprintf(stderr, "rank %d cfg %d: reverse cell (%lld,%lld,%lld) = %g, want %g\n", p.rank,
                    ci, (long long)x, (long long)y, (long long)z, got, w);
        }
    free(u);
    free(want);
    ck_tsr(tsr_halo_destroy(&h));
    ck_assert_msg(tsr_test_all(bad == 0), "reverse sums differ from the brute-force count");
  }
}
END_TEST

/* ------------------------------------------------------------ a rank fails */

/* Whether rank q is beside p's rank (itself excluded). */
static int beside(const tsr_grid_part_t *p, int q) {
  int nb = 0;
  for (int k = 0; k < 9; k++) nb |= k != TSR_NBR(0, 0) && p->nbr[k] == q;
  return nb;
}

/* One double per cell: the cells that differ from what the exchange gives. */
static long wrong_cells(const tsr_grid_part_t *p, const tsr_grid_box_t *b, const double *a) {
  long bad = 0;
  for (tsr_idx_t z = 0; z < b->nz; z++)
    for (tsr_idx_t y = 0; y < b->ny; y++)
      for (tsr_idx_t x = 0; x < b->nx; x++)
        bad += a[(z * b->ny + y) * b->nx + x] != expected(p, b, x, y, z, 0);
  return bad;
}

/* After a rank's failure: every rank agreed on the culprit's error (rc and
 * the message), and a fresh halo object exchanges right, also when another
 * rank then fails between begin and end (no notice is left over, and the
 * ranks number their exchanges alike again: the second failure ends no
 * exchange that its rank had posted). Ends with every rank's error cleared. */
static void after_failure(const tsr_grid_part_t *p, const tsr_grid_box_t *b, tsr_halo_t **h,
                          double *a, int rc, int culprit, const tsr_device_t *cpu) {
  char want[64];
  snprintf(want, sizeof want, "rank %d: an allocation failed", culprit);
  int ok = rc == TSR_ERR_ALLOC && strstr(tsr_error_message(), want);
  if (!ok) fprintf(stderr, "rank %d: agreed on %s: '%s'\n", p->rank, tsr_errname(rc),
                   tsr_error_message());
  ck_assert_msg(tsr_test_all(ok), "the ranks did not agree on rank %d's error", culprit);
  tsr_error_clear();
  /* the halo object is in flight on some ranks: a fresh one */
  ck_tsr(tsr_halo_destroy(h));
  ck_tsr(tsr_halo_create_regular(p, b, h));
  fill(p, b, a, TSR_DOUBLE, 1);
  ck_tsr(tsr_halo_begin(*h, cpu, a, 1, TSR_DOUBLE));
  ck_tsr(tsr_halo_end(*h, cpu, a, 1, TSR_DOUBLE));
  long bad = wrong_cells(p, b, a);
  ck_assert_msg(tsr_test_all(bad == 0), "the exchange after the failure: %ld cells wrong", bad);
  const int other = (culprit + 1) % p->size;
  fill(p, b, a, TSR_DOUBLE, 1);
  rc = tsr_halo_begin(*h, cpu, a, 1, TSR_DOUBLE);
  if (!rc && p->rank == other)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "rank %d: an allocation failed", other);
  else if (!rc)
    rc = tsr_halo_end(*h, cpu, a, 1, TSR_DOUBLE);
  ok = p->rank == other || (rc == 0 && wrong_cells(p, b, a) == 0);
  if (!ok) fprintf(stderr, "rank %d: an exchange rank %d had posted: %s\n", p->rank, other,
                   rc ? tsr_error_message() : "cells wrong");
  rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  ok = ok && rc == TSR_ERR_ALLOC;
  tsr_error_clear();
  if (p->rank == other) ck_tsr(tsr_halo_end(*h, cpu, a, 1, TSR_DOUBLE)); /* its messages are in */
  ck_assert_msg(tsr_test_all(ok), "a failure after a failure: the exchange or the agreement");
}

/* A rank that fails alone between two exchanges (the last one: it never
 * posts its messages) enters the agreement; its neighbours, waiting for
 * those messages, end their wait with an error instead of hanging, and every
 * rank agrees on the failing rank's message. */
START_TEST(test_rank_fails) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  tsr_grid_part_t p;
  tsr_grid_box_t b;
  tsr_halo_t *h = NULL;
  ck_tsr(setup(&cfgs[0], &p, &b));
  if (p.size == 1) return; /* nobody to wait for */
  ck_tsr(tsr_halo_create_regular(&p, &b, &h));
  double *a = malloc(sizeof(double) * (size_t)(b.nx * b.ny * b.nz));
  ck_assert_ptr_nonnull(a);
  for (int round = 0; round < 2; round++) {
    fill(&p, &b, a, TSR_DOUBLE, 1);
    const int culprit = (p.size - 1 - round) % p.size; /* the last rank, then the one before */
    int rc, ok = 1;
    if (p.rank == culprit) {
      rc = TSR_RAISE(TSR_ERR_ALLOC, "rank %d: an allocation failed in the test", p.rank);
    } else {
      rc = tsr_halo_begin(h, &cpu, a, 1, TSR_DOUBLE);
      if (!rc) rc = tsr_halo_end(h, &cpu, a, 1, TSR_DOUBLE);
      /* beside the culprit the wait cannot complete: it ends with an error;
         the others may complete their exchange first */
      const int nb = beside(&p, culprit);
      ok = nb ? rc == TSR_ERR_MPI : rc == TSR_SUCCESS || rc == TSR_ERR_MPI;
      if (!ok) fprintf(stderr, "rank %d (%s the failing rank): the wait ended with %s\n", p.rank,
                       nb ? "beside" : "not beside", tsr_errname(rc));
    }
    rc = tsr_error_agree(MPI_COMM_WORLD, rc);
    ck_assert_msg(tsr_test_all(ok), "the wait beside a failed rank");
    after_failure(&p, &b, &h, a, rc, culprit, &cpu);
  }
  free(a);
  ck_tsr(tsr_halo_destroy(&h));
}
END_TEST

/* A rank that fails after it has posted its messages of an exchange (mode 0:
 * between begin and end; mode 1: after end) ends that exchange on no other
 * rank: their waits complete with the right cells, also where they learn of
 * the failure while waiting (they begin late, and the messages are large
 * enough to need the failed rank's progress). The exchange after it, which
 * the failed rank never begins, ends with an error on the ranks beside it,
 * and the agreement gives the failed rank's message. */
START_TEST(test_rank_fails_after) {
  static const cfg_t big = {{320, 320, 4}, 2, {0, 0}, 0};
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  tsr_grid_part_t p;
  tsr_grid_box_t b;
  tsr_halo_t *h = NULL;
  ck_tsr(setup(&big, &p, &b));
  if (p.size == 1) return;
  ck_tsr(tsr_halo_create_regular(&p, &b, &h));
  double *a = malloc(sizeof(double) * (size_t)(b.nx * b.ny * b.nz));
  ck_assert_ptr_nonnull(a);
  for (int round = 0; round < 4; round++) {
    const int mode = round & 1, culprit = (p.size - 1 - round / 2) % p.size;
    fill(&p, &b, a, TSR_DOUBLE, 1);
    int rc, ok = 1;
    if (p.rank == culprit) {
      rc = tsr_halo_begin(h, &cpu, a, 1, TSR_DOUBLE);
      if (!rc && mode) rc = tsr_halo_end(h, &cpu, a, 1, TSR_DOUBLE);
      ok = rc == 0;
      if (!rc) rc = TSR_RAISE(TSR_ERR_ALLOC, "rank %d: an allocation failed in the test", p.rank);
    } else {
      usleep(100000); /* the failed rank's notice arrives first */
      rc = tsr_halo_begin(h, &cpu, a, 1, TSR_DOUBLE);
      if (!rc) rc = tsr_halo_end(h, &cpu, a, 1, TSR_DOUBLE);
      ok = rc == 0 && wrong_cells(&p, &b, a) == 0;
      if (!ok) fprintf(stderr, "rank %d: the exchange rank %d had posted: %s\n", p.rank, culprit,
                       rc ? tsr_error_message() : "cells wrong");
      if (!rc) { /* the next one: the culprit never begins it */
        rc = tsr_halo_begin(h, &cpu, a, 1, TSR_DOUBLE);
        if (!rc) rc = tsr_halo_end(h, &cpu, a, 1, TSR_DOUBLE);
        if (beside(&p, culprit) ? rc != TSR_ERR_MPI : rc != TSR_SUCCESS && rc != TSR_ERR_MPI) {
          fprintf(stderr, "rank %d: the exchange after rank %d's failure ended with %s\n",
                  p.rank, culprit, tsr_errname(rc));
          ok = 0;
        }
      }
    }
    rc = tsr_error_agree(MPI_COMM_WORLD, rc);
    /* the failed rank's messages were all taken: its exchange can end */
    if (p.rank == culprit && !mode) ok = ok && tsr_halo_end(h, &cpu, a, 1, TSR_DOUBLE) == 0;
    ck_assert_msg(tsr_test_all(ok), "a failure after the messages were posted (mode %d)", mode);
    after_failure(&p, &b, &h, a, rc, culprit, &cpu);
  }
  free(a);
  ck_tsr(tsr_halo_destroy(&h));
}
END_TEST

/* tsr_halo_begin_arrays / end_arrays on the host: q-like (4 values) and
 * adt-like (1 value) random doubles in one message per neighbour give
 * exactly what two exchanges give, on every grid (periodic sides too). */
START_TEST(test_exchange_arrays_cpu) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int c = 0; c < NCFG; c++) {
    tsr_grid_part_t p;
    tsr_grid_box_t b;
    tsr_halo_t *h = NULL;
    ck_tsr(setup(&cfgs[c], &p, &b));
    ck_tsr(tsr_halo_create_regular(&p, &b, &h));
    const size_t n = (size_t)(b.nx * b.ny * b.nz);
    double *q = malloc(4 * n * sizeof *q), *a = malloc(n * sizeof *a);
    double *q2 = malloc(4 * n * sizeof *q2), *a2 = malloc(n * sizeof *a2);
    ck_assert(q && a && q2 && a2);
    unsigned long long s = 0x9e3779b97f4a7c15ULL * (unsigned long long)(rank + 1) + (unsigned)c;
    for (size_t i = 0; i < 4 * n; i++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      q[i] = q2[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
    for (size_t i = 0; i < n; i++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      a[i] = a2[i] = (double)(s >> 11) / 9007199254740992.0 + 1;
    }
    void *data[2] = {q, a};
    const int dims[2] = {4, 1};
    ck_tsr(tsr_halo_begin_arrays(h, &cpu, 2, data, dims, TSR_DOUBLE));
    ck_tsr(tsr_halo_end_arrays(h, &cpu, 2, data, dims, TSR_DOUBLE));
    ck_tsr(tsr_halo_exchange(h, &cpu, q2, 4, TSR_DOUBLE));
    ck_tsr(tsr_halo_exchange(h, &cpu, a2, 1, TSR_DOUBLE));
    ck_assert_msg(!memcmp(q, q2, 4 * n * sizeof *q) && !memcmp(a, a2, n * sizeof *a),
                  "grid %d rank %d: one message for two arrays differs from two exchanges", c, rank);
    /* end with other arrays than begin: refused */
    ck_tsr(tsr_halo_begin_arrays(h, &cpu, 2, data, dims, TSR_DOUBLE));
    const int dims1[2] = {4, 2};
    ck_tsr_fails(tsr_halo_end_arrays(h, &cpu, 2, data, dims1, TSR_DOUBLE), TSR_ERR_ARG);
    ck_tsr(tsr_halo_end_arrays(h, &cpu, 2, data, dims, TSR_DOUBLE));
    ck_tsr_fails(tsr_halo_begin_arrays(h, &cpu, 0, data, dims, TSR_DOUBLE), TSR_ERR_ARG);
    free(q), free(a), free(q2), free(a2);
    ck_tsr(tsr_halo_destroy(&h));
  }
}
END_TEST

START_TEST(test_pack_arrays_cpu) {
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  unsigned long long seed = 11;
  enum { NE = 300, N = 211, ST = 220 };
  tsr_idx_t idx[N];
  for (int j = 0; j < N; j++) idx[j] = (tsr_idx_t)tsr_test_rand(&seed, 0, NE); /* with repeats */
  for (int narr = 1; narr <= TSR_HALO_MAX_ARRAYS; narr++) {
    double a[TSR_HALO_MAX_ARRAYS][NE], b[TSR_HALO_MAX_ARRAYS][NE], buf[TSR_HALO_MAX_ARRAYS * ST],
        ref[TSR_HALO_MAX_ARRAYS * ST];
    void *pa[TSR_HALO_MAX_ARRAYS];
    for (int k = 0; k < narr; k++) {
      pa[k] = a[k];
      for (int i = 0; i < NE; i++) a[k][i] = b[k][i] = tsr_test_rand(&seed, -1, 1);
    }
    memset(buf, 0, sizeof buf), memset(ref, 0, sizeof ref);
    ck_tsr(tsr_halo_pack_arrays_on(&cpu, NULL, N, idx, TSR_DOUBLE, narr,
                                   (const void *const *)pa, buf, ST));
    for (int k = 0; k < narr; k++) ck_tsr(tsr_halo_pack(&cpu, N, idx, 1, TSR_DOUBLE, b[k], ref + k * ST));
    ck_assert(memcmp(buf, ref, sizeof buf) == 0);
    for (int add = 1; add >= 0; add--) { /* add: every repeat adds; then overwrite */
      for (int i = 0; i < narr * ST; i++) buf[i] = tsr_test_rand(&seed, -1, 1);
      ck_tsr(tsr_halo_unpack_arrays_on(&cpu, NULL, N, idx, TSR_DOUBLE, narr, buf, ST, pa, add));
      for (int k = 0; k < narr; k++)
        ck_tsr(tsr_halo_unpack(&cpu, N, idx, 1, TSR_DOUBLE, buf + k * ST, b[k], add));
      for (int k = 0; k < narr; k++) ck_assert(memcmp(a[k], b[k], sizeof a[k]) == 0);
    }
  }
  double x[4] = {0}, y[4 * 8];
  const void *px[5] = {x, x, x, x, x};
  ck_assert_int_eq(tsr_halo_pack_arrays_on(&cpu, NULL, 4, idx, TSR_DOUBLE, 0, px, y, 8),
                   TSR_ERR_ARG);
  tsr_error_clear();
  ck_assert_int_eq(tsr_halo_pack_arrays_on(&cpu, NULL, 4, idx, TSR_DOUBLE, 5, px, y, 8),
                   TSR_ERR_ARG);
  tsr_error_clear();
  ck_assert_int_eq(tsr_halo_pack_arrays_on(&cpu, NULL, 4, idx, TSR_DOUBLE, 2, px, y, 3),
                   TSR_ERR_ARG);
  ck_assert_msg(strstr(tsr_error_message(), "stride 3 < 4") != NULL, "%s", tsr_error_message());
  tsr_error_clear();
}
END_TEST

START_TEST(test_errors) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* a grid too small for the ranks: the error on every rank, naming it */
  tsr_grid_part_t p;
  tsr_idx_t n[3] = {2 * size + 1, 3, 2};
  int e = tsr_grid_part_init(MPI_COMM_WORLD, n, 4, NULL, &p);
  const char *m = tsr_error_message();
  char grid[64], ranks[32];
  snprintf(grid, sizeof grid, "%lld x 3 x 2", (long long)n[0]);
  snprintf(ranks, sizeof ranks, "%d ranks", size);
  int ok = e == TSR_ERR_PARTITION && strstr(m, grid) && strstr(m, ranks) && strstr(m, "process grid");
  if (!ok) fprintf(stderr, "rank %d: %s: %s\n", rank, tsr_errname(e), m);
  tsr_error_clear();
  ck_assert_msg(tsr_test_all(ok), "too-small grid not reported on every rank");

  /* inconsistent lists: each rank sends 1 element to the next but expects 2
   * from the previous one: an error on every rank, no hang */
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  tsr_idx_t sidx[2] = {0, 1}, ridx[3] = {2, 3, 4};
  tsr_halo_t *h = NULL;
  if (size == 1) {
    int one = 1, two = 2;
    e = tsr_halo_create(MPI_COMM_WORLD, 1, &rank, 5, &one, sidx, &two, ridx, &h);
  } else {
    int nb[2] = {next, prev}, sc[2] = {1, 0}, rc[2] = {0, 2};
    /* with 2 ranks next == prev: one neighbour, send 1, expect 0 */
    e = tsr_halo_create(MPI_COMM_WORLD, size == 2 ? 1 : 2, nb, 5, sc, sidx, rc, ridx, &h);
  }
  ok = e == TSR_ERR_ARG && h == NULL && strstr(tsr_error_message(), "expects to receive");
  tsr_error_clear();
  ck_assert_msg(tsr_test_all(ok), "inconsistent halo lists not reported on every rank");

  /* an index outside the local array */
  int one = 1;
  tsr_idx_t far = 99;
  e = tsr_halo_create(MPI_COMM_WORLD, 1, &rank, 5, &one, &far, &one, ridx, &h);
  ok = e == TSR_ERR_RANGE && strstr(tsr_error_message(), "[0, 5)");
  tsr_error_clear();
  ck_assert_msg(tsr_test_all(ok), "out-of-range index not reported");

  /* misuse of the split phase */
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  double d[5] = {1, 2, 3, 4, 5};
  ck_tsr(tsr_halo_create(MPI_COMM_WORLD, 1, &rank, 5, &one, sidx, &one, ridx, &h));
  ck_tsr_fails(tsr_halo_end(h, &cpu, d, 1, TSR_DOUBLE), TSR_ERR_ARG);
  ck_tsr_fails(tsr_halo_prepare(NULL, &cpu, 8), TSR_ERR_ARG);
  ck_tsr_fails(tsr_halo_prepare(h, &cpu, 0), TSR_ERR_ARG);
  ck_tsr(tsr_halo_prepare(h, &cpu, 8)); /* nothing to make ready on the CPU */
  ck_tsr(tsr_halo_begin(h, &cpu, d, 1, TSR_DOUBLE));
  ck_tsr_fails(tsr_halo_begin(h, &cpu, d, 1, TSR_DOUBLE), TSR_ERR_ARG);
  ck_tsr_fails(tsr_halo_prepare(h, &cpu, 8), TSR_ERR_ARG); /* an exchange in flight */
  ck_tsr_fails(tsr_halo_reverse_end(h, &cpu, d, 1, TSR_DOUBLE), TSR_ERR_ARG);
  ck_tsr(tsr_halo_end(h, &cpu, d, 1, TSR_DOUBLE));
  ck_assert(d[2] == 1.0 && d[0] == 1.0 && d[1] == 2.0); /* self message: d[2] = d[0] */
  tsr_device_t gpu = cpu;
  gpu.kind = TSR_DEV_CUDA;
  if (!tsr_device_cuda_built()) {
    ck_tsr_fails(tsr_halo_exchange(h, &gpu, d, 1, TSR_DOUBLE), TSR_ERR_NOCUDA);
    ck_tsr_fails(tsr_halo_prepare(h, &gpu, 8), TSR_ERR_NOCUDA);
  }
  ck_tsr(tsr_halo_destroy(&h));
  MPI_Barrier(MPI_COMM_WORLD);
}
END_TEST

static Suite *halo_suite(void) {
  Suite *s = suite_create("halo_regular");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_forward);
  tcase_add_test(tc, test_stencil_sum);
  tcase_add_test(tc, test_reverse);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_pack_arrays_cpu);
  tcase_add_test(tc, test_exchange_arrays_cpu);
  tcase_add_test(tc, test_rank_fails);
  tcase_add_test(tc, test_rank_fails_after);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, halo_suite); }
