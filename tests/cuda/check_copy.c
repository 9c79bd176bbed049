/* check_copy (CUDA): every CUDA copy variant against the CPU copy of the
 * same layout on random data, odd and even sizes, several block shapes.
 * Skips without a CUDA device. */
#include "config.h"

#include <unistd.h> /* tsr_check.h uses getpid() */

#include "tsr_check.h"
#include "kernels/copy/copy.h"


static const struct {
  int id, device, kind;
} VARIANTS[] = {
#define COPY_VARIANT(id, name, dev, kind, help) {COPY_##id, dev, kind},
#include "kernels/copy/variants.def"
#undef COPY_VARIANT
};

/* The CPU reference of variant id on host arrays (cuda/memcpy: everything). */
static void reference(int id, tsr_layout_t L, const double *src, double *dst) {
  if (id == COPY_CUDA_MEMCPY) {
    memcpy(dst, src, tsr_layout_bytes(&L, 8));
    return;
  }
  ck_tsr(L.kind == TSR_LAYOUT_ROWMAJOR ? copy_rowmajor_cpu(L, src, dst)
                                       : copy_zcurve_cpu(L, src, dst));
}

static void check_variant(const tsr_device_t *gpu, const tsr_device_t *cpu, int id, tsr_layout_t L,
                          int bx, int by, int bz, unsigned long long seed) {
  int64_t *htab = NULL, *dtab = NULL;
  ck_tsr(tsr_layout_table_create(cpu, &L, &htab));
  ck_tsr(tsr_layout_table_create(gpu, &L, &dtab));
  tsr_layout_t H = tsr_layout_with_table(L, htab), D = tsr_layout_with_table(L, dtab);
  size_t bytes = tsr_layout_bytes(&L, 8);
  double *src = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
  for (int64_t i = 0; i < L.size; i++) {
    src[i] = tsr_test_rand(&seed, 1.0, 2.0);
    want[i] = -7.0; /* halo and padding of dst keep this */
  }
  double *dsrc = NULL, *ddst = NULL;
  ck_tsr(tsr_device_malloc(gpu, bytes, (void **)&dsrc));
  ck_tsr(tsr_device_malloc(gpu, bytes, (void **)&ddst));
  ck_tsr(tsr_device_upload(gpu, dsrc, src, bytes));
  ck_tsr(tsr_device_upload(gpu, ddst, want, bytes));
  reference(id, H, src, want);
  int64_t *dcells = NULL;
  if (L.kind == TSR_LAYOUT_ZCURVE) { /* the inverse plane table, for cuda/zcurve-storage */
    int64_t np = L.d[0] * L.d[1], *hcells = malloc((size_t)np * sizeof *hcells);
    ck_tsr(tsr_zorder_plane_inverse(L.d[0], L.d[1], L.zbits, hcells));
    ck_tsr(tsr_device_malloc(gpu, (size_t)np * sizeof *hcells, (void **)&dcells));
    ck_tsr(tsr_device_upload(gpu, dcells, hcells, (size_t)np * sizeof *hcells));
    free(hcells);
  }
  ck_tsr(copy_run(id, D, dcells, dsrc, ddst, bx, by, bz));
  ck_tsr(tsr_device_sync(gpu));
  ck_tsr(tsr_device_download(gpu, got, ddst, bytes));
  for (int64_t i = 0; i < L.size; i++)
    REQUIRE(got[i] == want[i], "%s n=%lldx%lldx%lld block %dx%dx%d: element %lld is %g, want %g",
            copy_variant_name(id), (long long)L.n[0], (long long)L.n[1], (long long)L.n[2], bx,
            by, bz, (long long)i, got[i], want[i]);
  ck_tsr(tsr_device_free(gpu, (void **)&dsrc));
  ck_tsr(tsr_device_free(gpu, (void **)&ddst));
  ck_tsr(tsr_device_free(gpu, (void **)&dcells));
  ck_tsr(tsr_layout_table_destroy(cpu, &htab));
  ck_tsr(tsr_layout_table_destroy(gpu, &dtab));
  free(src);
  free(want);
  free(got);
}

START_TEST(test_cuda_vs_cpu) {
  tsr_device_t gpu, cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  static const int64_t sz[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 4}, {64, 32, 8}, {100, 9, 5}};
  static const int blk[][3] = {{32, 4, 1}, {128, 1, 1}, {7, 3, 2}};
  unsigned long long seed = 77;
  for (size_t v = 0; v < sizeof VARIANTS / sizeof *VARIANTS; v++) {
    if (VARIANTS[v].device != TSR_DEV_CUDA) continue;
    for (size_t i = 0; i < sizeof sz / sizeof *sz; i++)
      for (size_t b = 0; b < sizeof blk / sizeof *blk; b++)
        for (int nf = 1; nf <= 2; nf++) {
          tsr_layout_t L = VARIANTS[v].kind == TSR_LAYOUT_ZCURVE
                               ? tsr_layout_zcurve(sz[i][0], sz[i][1], sz[i][2], (int)(b * 2))
                               : tsr_layout_rowmajor(sz[i][0], sz[i][1], sz[i][2]);
          L = tsr_layout_with_fields(tsr_layout_with_halo(L, (int64_t)b, 1, (int64_t)(i % 2)), nf,
                                     TSR_SOA);
          check_variant(&gpu, &cpu, VARIANTS[v].id, L, blk[b][0], blk[b][1], blk[b][2], seed++);
        }
  }
}
END_TEST

START_TEST(test_cuda_checks) {
  tsr_device_t gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  tsr_layout_t L = tsr_layout_rowmajor(8, 8, 8);
  double *a = NULL, *b = NULL;
  ck_tsr(tsr_layout_alloc(&gpu, &L, 8, (void **)&a));
  ck_tsr(tsr_layout_alloc(&gpu, &L, 8, (void **)&b));
  ck_tsr_fails(copy_rowmajor_cuda(L, a, b, 64, 32, 1), TSR_ERR_ARG); /* 2048 threads */
  ck_tsr_fails(copy_rowmajor_cuda(L, a, b, 0, 1, 1), TSR_ERR_ARG);
  ck_tsr_fails(copy_zcurve_cuda(L, a, b, 32, 1, 1), TSR_ERR_ARG);    /* not a Z-curve */
  ck_tsr_fails(copy_zcurve_storage_cuda(L, NULL, a, b, 32, 1, 1), TSR_ERR_ARG);
  ck_tsr(tsr_device_free(&gpu, (void **)&a));
  ck_tsr(tsr_device_free(&gpu, (void **)&b));
}
END_TEST

static Suite *copy_cuda_suite(void) {
  Suite *s = suite_create("copy_cuda");
  TCase *tc = tcase_create("cuda");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_cuda_vs_cpu);
  tcase_add_test(tc, test_cuda_checks);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, copy_cuda_suite);
}
