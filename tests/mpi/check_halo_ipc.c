/* check_halo_ipc (run at 1, 2, 3 and 4 ranks, which share the GPUs present):
 * the device-to-device halo exchanges, CUDA IPC (tsr_halo_set_ipc) and, where
 * built, NCCL (tsr_halo_set_nccl), against the host exchange
 * on the same halo: forward exchanges of fresh random data five times in a
 * row (both halves of the receive buffers, each reused), then reverse
 * exchanges, in three element types and component counts (the buffers are
 * remade when the element size grows, and reused when it shrinks), on regular grids with and without
 * periodic sides (a rank may be its own neighbour, or a neighbour twice), each
 * with the put kernel and packed and copied (tsr_halo_set_put_limit).
 * Forward results must be bit-identical (copies); reverse results too in
 * int64, and within 1e-4 (float) / 1e-12 (double) of max(|ref|, 1) in floating
 * point (values in [-100, 100], a few contributions per cell), where the CUDA
 * unpack adds a cell's contributions in another order
 * than the host. A second test exchanges two arrays (4 values and 1 per
 * cell) in one message (tsr_halo_begin_arrays) by IPC (put, and packed and
 * copied) and host-staged, bit for bit the host's exchange, with the halo
 * made ready by tsr_halo_prepare or by the first begin. Skips without a
 * GPU. */
#include <math.h>
#include <stdint.h>
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"
#ifdef TSR_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

typedef struct {
  tsr_idx_t n[3];
  int halo, periodic[2];
} cfg_t;
static const cfg_t cfgs[] = {{{37, 29, 3}, 2, {0, 0}}, {{20, 18, 2}, 1, {1, 1}}};
static const struct {
  tsr_dtype_t t;
  int dim;
} types[] = {{TSR_FLOAT, 1}, {TSR_DOUBLE, 2}, {TSR_INT64, 3}, {TSR_DOUBLE, 1}};

static void fill_random(void *a, tsr_dtype_t t, size_t n, unsigned long long *seed) {
  for (size_t i = 0; i < n; i++) {
    double v = tsr_test_rand(seed, -100.0, 100.0);
    switch (t) {
      case TSR_INT64: ((int64_t *)a)[i] = (int64_t)(v * 1e6); break;
      case TSR_FLOAT: ((float *)a)[i] = (float)v; break;
      default: ((double *)a)[i] = v; break;
    }
  }
}

/* NCCL serves these ranks (one GPU each): one exchange of a scratch array on
   h, or "not run" (said once) where NCCL refuses them, agreed on every rank. */
static int nccl_serves(tsr_halo_t *h, const tsr_device_t *gpu, size_t cells) {
  void *d = NULL;
  ck_tsr(tsr_device_malloc(gpu, cells * sizeof(double) + 8, &d));
  int rc = tsr_halo_exchange(h, gpu, d, 1, TSR_DOUBLE);
  ck_tsr(tsr_device_free(gpu, &d));
  if (rc == TSR_ERR_UNSUPPORTED) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("# nccl: not run (%s)\n", tsr_error_message()), fflush(stdout);
    tsr_error_clear();
    return 0;
  }
  ck_tsr(rc);
  return 1;
}

START_TEST(test_ipc_equals_host) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tsr_device_t cpu, gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  for (size_t c = 0; c < 3 * (sizeof cfgs / sizeof cfgs[0]); c++) {
    /* mode 0: IPC, put; 1: IPC, every message packed and copied; 2: NCCL */
    const size_t g = c / 3;
    const int mode = (int)(c % 3);
    if (mode == 2 && !tsr_halo_nccl_available()) continue;
    tsr_grid_part_t p;
    ck_tsr(tsr_grid_part_init(MPI_COMM_WORLD, cfgs[g].n, cfgs[g].halo, cfgs[g].periodic, &p));
    tsr_grid_box_t b = tsr_grid_part_local(&p, 1);
    tsr_halo_t *h = NULL;
    ck_tsr(tsr_halo_create_regular(&p, &b, &h));
    ck_tsr(tsr_halo_set_transport(h, mode == 2 ? TSR_HALO_NCCL : TSR_HALO_IPC));
    ck_tsr(tsr_halo_set_put_limit(h, mode == 1 ? 0 : SIZE_MAX));
    if (mode == 2 && !nccl_serves(h, &gpu, (size_t)(b.nx * b.ny * b.nz))) {
      ck_tsr(tsr_halo_destroy(&h));
      continue;
    }
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
      const tsr_dtype_t t = types[k].t;
      const int dim = types[k].dim;
      const size_t n = (size_t)(b.nx * b.ny * b.nz) * (size_t)dim, bytes = n * tsr_dtype_size(t);
      char *ref = malloc(bytes), *got = malloc(bytes);
      void *d = NULL;
      ck_assert(ref && got);
      ck_tsr(tsr_device_malloc(&gpu, bytes, &d));
      unsigned long long seed = 1000003ULL * (unsigned long long)(rank + 1) + 17 * c + k;
      for (int rev = 0; rev < 2; rev++)
        for (int it = 0; it < 5; it++) {
          fill_random(ref, t, n, &seed);
          memcpy(got, ref, bytes);
          ck_tsr(tsr_device_upload(&gpu, d, got, bytes));
          if (rev) {
            ck_tsr(tsr_halo_reverse_begin(h, &cpu, ref, dim, t));
            ck_tsr(tsr_halo_reverse_end(h, &cpu, ref, dim, t));
            ck_tsr(tsr_halo_reverse_begin(h, &gpu, d, dim, t));
            ck_tsr(tsr_halo_reverse_end(h, &gpu, d, dim, t));
          } else {
            ck_tsr(tsr_halo_begin(h, &cpu, ref, dim, t));
            ck_tsr(tsr_halo_end(h, &cpu, ref, dim, t));
            ck_tsr(tsr_halo_begin(h, &gpu, d, dim, t));
            ck_tsr(tsr_halo_end(h, &gpu, d, dim, t));
          }
          ck_tsr(tsr_device_sync(&gpu));
          ck_tsr(tsr_device_download(&gpu, got, d, bytes));
          ck_assert_msg(mode == 2 ? tsr_halo_uses_nccl(h) : tsr_halo_uses_ipc(h),
                        "the transport was switched off");
          const double tol = !rev || t == TSR_INT64 ? 0 : t == TSR_FLOAT ? 1e-4 : 1e-12;
          double worst = 0;
          for (size_t i = 0; i < n; i++) {
            double x, y;
            if (t == TSR_FLOAT) x = ((float *)got)[i], y = ((float *)ref)[i];
            else if (t == TSR_DOUBLE) x = ((double *)got)[i], y = ((double *)ref)[i];
            else x = (double)((int64_t *)got)[i], y = (double)((int64_t *)ref)[i];
            const double e = fabs(x - y) / (fabs(y) > 1 ? fabs(y) : 1);
            if (e > worst) worst = e;
          }
          ck_assert_msg(worst <= tol,
                        "rank %d grid %zu (%s) type %d dim %d %s exchange %d: the device "
                        "exchange differs from the host exchange by %.3e (tolerance %.0e)", rank,
                        g, mode == 2 ? "nccl" : mode == 1 ? "ipc copies" : "ipc put", (int)t, dim,
                        rev ? "reverse" : "forward", it, worst, tol);
        }
      ck_tsr(tsr_device_free(&gpu, &d));
      free(ref);
      free(got);
    }
    ck_tsr(tsr_halo_destroy(&h));
  }
}
END_TEST

/* tsr_halo_begin_arrays / end_arrays on the GPU, by CUDA IPC and by the
 * host-staged path: a 4-value and a 1-value array (random, float and
 * double) in one message per neighbour, bit for bit what the host's
 * exchange of the same arrays gives; and by the IPC exchange's graph
 * pieces (tsr_halo_graph_*: post, put, wait, unpack), launched directly
 * and as CUDA graphs captured once per parity and replayed. */
#ifdef TSR_HAVE_CUDA
/* Exchanges of the arrays dd by the graph pieces: three (parities 0, 1, 0)
 * with put and unpack launched directly (graphs 0), or two (0, 1: each into
 * a half never written before) with both captured once per parity into
 * CUDA graphs and replayed (graphs 1; the put's event an external node the
 * host's wait waits for), the unpack behind the exchange's gate and
 * launched before the host's wait: without the gate it would read the half
 * before the neighbours' messages are in; or (graphs 2) five exchanges, the
 * first put from the host, then twice one graph of two exchanges (gate,
 * unpack and the next put of each, the puts in event slots 0 and 1,
 * tsr_halo_graph_slot): the host's wait of exchange 2r would otherwise wait
 * for the put of 2r + 2 in the same launch, queued behind the gate that
 * the wait of 2r + 1 opens, and never return. */
static void graph_pair(tsr_halo_t *h, const tsr_device_t *gpu, void *const *dd, const int *dims,
                       tsr_dtype_t t) {
  cudaStream_t cs = NULL;
  cudaGraphExec_t ge = NULL;
  cudaGraph_t g = NULL;
  ck_assert(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking) == cudaSuccess);
  ck_assert(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  for (int par = 0; par < 2; par++) {
    ck_tsr(tsr_halo_graph_gate(h, gpu, 2, dd, dims, t, par, cs));
    ck_tsr(tsr_halo_graph_unpack(h, gpu, 2, dd, dims, t, par, cs));
    ck_tsr(tsr_halo_graph_slot(h, par));
    ck_tsr(tsr_halo_graph_put(h, gpu, 2, dd, dims, t, 1 - par, cs));
  }
  ck_assert(cudaStreamEndCapture(cs, &g) == cudaSuccess && g);
  ck_assert(cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
  cudaGraphDestroy(g);
  ck_tsr_fails(tsr_halo_graph_slot(h, TSR_HALO_GRAPH_SLOTS), TSR_ERR_ARG);
  ck_tsr_fails(tsr_halo_graph_slot(h, -2), TSR_ERR_ARG);
  ck_tsr(tsr_halo_graph_slot(h, -1));
  ck_tsr(tsr_halo_graph_post(h, gpu, 2, dd, dims, t, 0));
  ck_tsr(tsr_halo_graph_put(h, gpu, 2, dd, dims, t, 0, NULL)); /* exchange 0: the parity's event */
  for (int r = 0; r < 2; r++) {
    ck_assert(cudaGraphLaunch(ge, 0) == cudaSuccess); /* unpacks 2r, 2r + 1; puts 2r + 1, 2r + 2 */
    ck_tsr(tsr_halo_graph_slot(h, r == 0 ? -1 : 1));
    ck_tsr(tsr_halo_graph_wait(h, gpu, 2, dd, dims, t));
    ck_tsr(tsr_halo_graph_post(h, gpu, 2, dd, dims, t, 1));
    ck_tsr(tsr_halo_graph_slot(h, 0));
    ck_tsr(tsr_halo_graph_wait(h, gpu, 2, dd, dims, t));
    ck_tsr(tsr_halo_graph_post(h, gpu, 2, dd, dims, t, 0));
  }
  ck_tsr(tsr_halo_graph_slot(h, 1));
  ck_tsr(tsr_halo_graph_wait(h, gpu, 2, dd, dims, t));
  ck_tsr(tsr_halo_graph_slot(h, -1));
  ck_tsr(tsr_halo_graph_unpack(h, gpu, 2, dd, dims, t, 0, NULL));
  cudaGraphExecDestroy(ge);
  cudaStreamDestroy(cs);
}

static void graph_pieces(tsr_halo_t *h, const tsr_device_t *gpu, void *const *dd, const int *dims,
                         tsr_dtype_t t, int graphs) {
  ck_tsr(tsr_halo_graph_check(h, gpu, 2, dd, dims, t));
  if (graphs == 2) {
    graph_pair(h, gpu, dd, dims, t);
    return;
  }
  cudaGraphExec_t put[2] = {NULL, NULL}, unpack[2] = {NULL, NULL};
  cudaStream_t cs = NULL;
  if (graphs) {
    ck_assert(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking) == cudaSuccess);
    for (int par = 0; par < 2; par++)
      for (int w = 0; w < 2; w++) {
        cudaGraph_t g = NULL;
        ck_assert(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
        if (w == 0) ck_tsr(tsr_halo_graph_put(h, gpu, 2, dd, dims, t, par, cs));
        else {
          ck_tsr(tsr_halo_graph_gate(h, gpu, 2, dd, dims, t, par, cs));
          ck_tsr(tsr_halo_graph_unpack(h, gpu, 2, dd, dims, t, par, cs));
        }
        ck_assert(cudaStreamEndCapture(cs, &g) == cudaSuccess && g);
        ck_assert(cudaGraphInstantiate(w ? &unpack[par] : &put[par], g, 0) == cudaSuccess);
        cudaGraphDestroy(g);
      }
  }
  for (int rep = 0; rep < (graphs ? 2 : 3); rep++) {
    const int par = rep % 2;
    ck_tsr_fails(tsr_halo_graph_post(h, gpu, 2, dd, dims, t, 1 - par), TSR_ERR_ARG); /* the wrong half */
    ck_tsr(tsr_halo_graph_post(h, gpu, 2, dd, dims, t, par));
    if (graphs) {
      ck_assert(cudaGraphLaunch(put[par], 0) == cudaSuccess);
      ck_assert(cudaGraphLaunch(unpack[par], 0) == cudaSuccess); /* waits at the gate */
    } else {
      ck_tsr(tsr_halo_graph_put(h, gpu, 2, dd, dims, t, par, NULL));
    }
    ck_tsr(tsr_halo_graph_wait(h, gpu, 2, dd, dims, t));
    if (!graphs) ck_tsr(tsr_halo_graph_unpack(h, gpu, 2, dd, dims, t, par, NULL));
  }
  for (int par = 0; par < 2; par++) {
    if (put[par]) cudaGraphExecDestroy(put[par]);
    if (unpack[par]) cudaGraphExecDestroy(unpack[par]);
  }
  if (cs) cudaStreamDestroy(cs);
}
#endif

START_TEST(test_arrays_equal_host) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tsr_device_t cpu, gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  const tsr_dtype_t ts[2] = {TSR_DOUBLE, TSR_FLOAT};
  for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++)
    for (int mode = 0; mode < 6; mode++) /* staged, IPC put, IPC packed and copied, NCCL, IPC pieces (alone, two exchanges a graph) */
      for (int k = 0; k < 2; k++) {
        if (mode == 3 && !tsr_halo_nccl_available()) continue;
#ifndef TSR_HAVE_CUDA
        if (mode >= 4) continue;
#endif
        const int ipc = mode == 1 || mode == 2 || mode >= 4;
        tsr_grid_part_t p;
        ck_tsr(tsr_grid_part_init(MPI_COMM_WORLD, cfgs[c].n, cfgs[c].halo, cfgs[c].periodic, &p));
        tsr_grid_box_t b = tsr_grid_part_local(&p, 1);
        tsr_halo_t *h = NULL;
        ck_tsr(tsr_halo_create_regular(&p, &b, &h));
        ck_tsr(tsr_halo_set_ipc(h, ipc));
        ck_tsr(tsr_halo_set_nccl(h, mode == 3));
        ck_tsr(tsr_halo_set_put_limit(h, mode == 2 ? 0 : SIZE_MAX));
        const tsr_dtype_t t = ts[k];
        const size_t n = (size_t)(b.nx * b.ny * b.nz), es = tsr_dtype_size(t);
        if (mode == 3 && !nccl_serves(h, &gpu, n)) {
          ck_tsr(tsr_halo_destroy(&h));
          continue;
        }
        void *q = malloc(4 * n * es), *a = malloc(n * es), *gq = malloc(4 * n * es), *ga = malloc(n * es);
        void *dq = NULL, *da = NULL;
        ck_assert(q && a && gq && ga);
        unsigned long long seed = 1000003ULL * (unsigned long long)(rank + 1) + 17 * c + 5 * (unsigned)mode + (unsigned)k;
        fill_random(q, t, 4 * n, &seed);
        fill_random(a, t, n, &seed);
        ck_tsr(tsr_device_malloc(&gpu, 4 * n * es, &dq));
        ck_tsr(tsr_device_malloc(&gpu, n * es, &da));
        ck_tsr(tsr_device_upload(&gpu, dq, q, 4 * n * es));
        ck_tsr(tsr_device_upload(&gpu, da, a, n * es));
        const int dims[2] = {4, 1};
        void *hd[2] = {q, a}, *dd[2] = {dq, da};
        if (k == 1 || mode >= 4) ck_tsr(tsr_halo_prepare(h, &gpu, 5 * es)); /* made ready ahead, or at begin */
#ifdef TSR_HAVE_CUDA
        if (mode >= 4) graph_pieces(h, &gpu, dd, dims, t, mode == 5 ? 2 : k);
        else
#endif
          for (int rep = 0; rep < 3; rep++) { /* both halves of the IPC buffers, reused */
            ck_tsr(tsr_halo_begin_arrays(h, &gpu, 2, dd, dims, t));
            ck_tsr(tsr_halo_end_arrays(h, &gpu, 2, dd, dims, t));
          }
        ck_tsr(tsr_halo_begin_arrays(h, &cpu, 2, hd, dims, t));
        ck_tsr(tsr_halo_end_arrays(h, &cpu, 2, hd, dims, t));
        ck_tsr(tsr_device_sync(&gpu));
        ck_tsr(tsr_device_download(&gpu, gq, dq, 4 * n * es));
        ck_tsr(tsr_device_download(&gpu, ga, da, n * es));
        ck_assert_msg(tsr_halo_uses_ipc(h) == ipc, "IPC switched");
        ck_assert_msg(!memcmp(gq, q, 4 * n * es) && !memcmp(ga, a, n * es),
                      "rank %d grid %zu %s %s: the GPU's exchange of two arrays differs from the host's",
                      rank, c, mode == 5 ? "ipc graph pieces (two exchanges a graph)" : mode == 4 ? (k ? "ipc graph pieces (graphs)" : "ipc graph pieces") : mode == 3 ? "nccl" : mode == 2 ? "ipc (copies)" : ipc ? "ipc (put)" : "staged",
                      t == TSR_FLOAT ? "float" : "double");
        ck_tsr(tsr_device_free(&gpu, &dq));
        ck_tsr(tsr_device_free(&gpu, &da));
        free(q), free(a), free(gq), free(ga);
        ck_tsr(tsr_halo_destroy(&h));
      }
}
END_TEST

static Suite *halo_ipc_suite(void) {
  Suite *s = suite_create("halo_ipc");
  TCase *tc = tcase_create("ipc");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_ipc_equals_host);
  tcase_add_test(tc, test_arrays_equal_host);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_mpi_skip_all(&argc, &argv, "no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, halo_ipc_suite);
}
