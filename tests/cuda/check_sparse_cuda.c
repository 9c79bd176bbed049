/* check_sparse_cuda: every CUDA variant of fastsg against the CPU reference
 * on random data (hierarchization: bit for bit; evaluation: to rounding,
 * since the GPU may fuse multiply-adds). Skips without a GPU. */
#include "config.h"
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_kernels.h"

typedef int (*kernel_fn)(const fastsg_kernel_args_t *);
static const kernel_fn fns[] = {
#define FASTSG_VARIANT(dev, kernel, name, help) fastsg_##kernel##_##name##_##dev,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
};

static tsr_device_t dev;

static void *rand_array(int64_t n, tsr_dtype_t prec, unsigned long long seed) {
  void *x = malloc((size_t)n * tsr_dtype_size(prec));
  for (int64_t e = 0; e < n; e++) {
    double v = tsr_test_rand(&seed, 0, 1);
    if (e % 37 == 5) v = 1.0;
    if (e % 41 == 7) v = 0.0;
    if (prec == TSR_FLOAT) ((float *)x)[e] = (float)v;
    else ((double *)x)[e] = v;
  }
  return x;
}

static void *to_dev(const void *h, size_t bytes) {
  void *d = NULL;
  ck_tsr(tsr_device_malloc(&dev, bytes, &d));
  ck_tsr(tsr_device_upload(&dev, d, h, bytes));
  return d;
}

START_TEST(test_hier_cuda) {
  struct { int D, n; } cases[] = {{1, 12}, {2, 9}, {3, 7}, {5, 6}, {10, 4}};
  for (int c = 0; c < 5; c++)
    for (int pr = 0; pr < 2; pr++) {
      tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
      size_t bytes = (size_t)G.npoints * tsr_dtype_size(prec);
      void *orig = rand_array(G.npoints, prec, 11 + c), *ref = malloc(bytes), *got = malloc(bytes);
      memcpy(ref, orig, bytes);
      fastsg_kernel_args_t A = {.grid = &G, .prec = prec, .coef = ref, .b0 = 0, .b1 = G.nblocks};
      for (A.t = 0; A.t < G.dim; A.t++) ck_tsr(fastsg_hier_plain_cpu(&A));
      uint32_t *par = malloc(fastsg_par1d_count(G.level) * sizeof *par);
      fastsg_par1d_fill(G.level, par);
      uint32_t *dpar = to_dev(par, fastsg_par1d_count(G.level) * sizeof *par);
      for (int v = FASTSG_V_cuda_hier_plain; v <= FASTSG_V_cuda_hier_ichg1; v++)
        for (int split = 0; split < 2; split++) { /* whole sweep, or two block ranges */
          void *d = to_dev(orig, bytes);
          fastsg_kernel_args_t B = {.grid = &G, .prec = prec, .coef = d, .par1d = dpar};
          /* ranges in place on one array: the higher range first, since a
           * block's parents lie in lower blocks (sg_kernels.h) */
          for (B.t = 0; B.t < G.dim; B.t++)
            for (int q = split; q >= 0; q--) {
              fastsg_block_range(&G, q, split + 1, &B.b0, &B.b1);
              ck_tsr(fns[v](&B));
            }
          ck_tsr(tsr_device_download(&dev, got, d, bytes));
          ck_assert_msg(memcmp(got, ref, bytes) == 0, "D=%d n=%d %s variant %d split %d differs",
                        G.dim, G.level, tsr_dtype_name(prec), v, split);
          tsr_device_free(&dev, &d);
        }
      tsr_device_free(&dev, (void **)&dpar);
      free(par); free(orig); free(ref); free(got);
    }
}
END_TEST

static double get(const void *a, tsr_dtype_t prec, int64_t k) {
  return prec == TSR_FLOAT ? (double)((const float *)a)[k] : ((const double *)a)[k];
}

START_TEST(test_eval_cuda) {
  /* D=6 n=7: groups of up to 462 blocks, more than one batch of the 256
   * level vectors cuda/eval/plain unranks per CUDA block */
  struct { int D, n; int64_t m; } cases[] = {{1, 10, 1000}, {2, 7, 333}, {4, 5, 129}, {10, 4, 515},
                                             {6, 7, 300}};
  for (int c = 0; c < 5; c++)
    for (int pr = 0; pr < 2; pr++) {
      tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
      double tol = pr ? 2e-5 : 1e-12;
      size_t es = tsr_dtype_size(prec);
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
      int64_t m = cases[c].m;
      void *a = rand_array(G.npoints, prec, 21 + c), *x = rand_array(m * G.dim, prec, 31 + c);
      void *ref = malloc(m * es), *got = malloc(m * es);
      fastsg_kernel_args_t A = {.grid = &G, .prec = prec, .coef = a, .npts = m, .x = x, .r = ref};
      ck_tsr(fastsg_eval_plain_cpu(&A));
      uint8_t *btab = malloc((size_t)G.nblocks * 2 * G.dim);
      fastsg_btab_fill(&G, btab);
      void *da = to_dev(a, G.npoints * es), *dbtab = to_dev(btab, (size_t)G.nblocks * 2 * G.dim);
      for (int v = FASTSG_V_cuda_eval_plain; v <= FASTSG_V_cuda_eval_vec1p; v++) {
        fastsg_xlayout_t lay = fastsg_eval_layout(v);
        int64_t nx = fastsg_x_count(lay, m, G.dim);
        void *xt = malloc(nx * es), *dr = NULL;
        fastsg_x_relayout(lay, prec, m, G.dim, x, xt);
        void *dx = to_dev(xt, nx * es);
        ck_tsr(tsr_device_malloc(&dev, m * es, &dr));
        ck_tsr(tsr_device_memset(&dev, dr, 0xff, m * es));
        fastsg_kernel_args_t B = {.grid = &G, .prec = prec, .coef = da, .npts = m, .x = dx,
                                  .r = dr, .btab = dbtab};
        ck_tsr(fns[v](&B));
        ck_tsr(tsr_device_download(&dev, got, dr, m * es));
        for (int64_t k = 0; k < m; k++) {
          double e = get(ref, prec, k), o = get(got, prec, k);
          if (!(fabs(e - o) <= tol * (1 + fabs(e))))
            ck_abort_msg("D=%d %s variant %d point %lld: %.9g vs CPU %.9g", G.dim,
                         tsr_dtype_name(prec), v, (long long)k, o, e);
        }
        tsr_device_free(&dev, &dx);
        tsr_device_free(&dev, &dr);
        free(xt);
      }
      tsr_device_free(&dev, &da);
      tsr_device_free(&dev, &dbtab);
      free(a); free(x); free(ref); free(got); free(btab);
    }
}
END_TEST

/* The GPU of this rank, before each test. */
static void select_dev(void) { ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev)); }

static Suite *sparse_cuda_suite(void) {
  Suite *s = suite_create("sparse_cuda");
  TCase *tc = tcase_create("variants");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, select_dev, NULL);
  tcase_add_test(tc, test_hier_cuda);
  tcase_add_test(tc, test_eval_cuda);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, sparse_cuda_suite);
}
