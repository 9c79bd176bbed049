/* check_halo_pack: the CUDA pack/unpack kernels against the host loops on
 * random data, every element type, several component counts, index lists
 * with repeats (unpack-add must keep every contribution); the kernels that
 * move 1-4 arrays at once against one host loop per array. Skips without a
 * GPU. */
#include <math.h>
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"

static void fill_random(void *a, tsr_dtype_t t, size_t n, unsigned long long *seed) {
  for (size_t i = 0; i < n; i++) {
    double v = tsr_test_rand(seed, -100.0, 100.0);
    if (v == 0) v = 1;
    switch (t) {
      case TSR_INT32: ((int32_t *)a)[i] = (int32_t)(v * 1000); break;
      case TSR_INT64: ((int64_t *)a)[i] = (int64_t)(v * 1e9); break;
      case TSR_FLOAT: ((float *)a)[i] = (float)v; break;
      case TSR_DOUBLE: ((double *)a)[i] = v; break;
    }
  }
}

/* Largest |a-b| relative to |b|; exact types must match exactly. */
static double maxdiff(const void *a, const void *b, tsr_dtype_t t, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double x, y;
    switch (t) {
      case TSR_INT32: x = ((const int32_t *)a)[i]; y = ((const int32_t *)b)[i]; break;
      case TSR_INT64: x = (double)((const int64_t *)a)[i]; y = (double)((const int64_t *)b)[i]; break;
      case TSR_FLOAT: x = ((const float *)a)[i]; y = ((const float *)b)[i]; break;
      default: x = ((const double *)a)[i]; y = ((const double *)b)[i]; break;
    }
    double d = fabs(x - y) / (fabs(y) > 1 ? fabs(y) : 1);
    if (d > m) m = d;
  }
  return m;
}

START_TEST(test_pack_unpack) {
  tsr_device_t cpu, gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  unsigned long long seed = 20261122;
  const tsr_idx_t nelem = 5000, n = 3001;
  const int dims[] = {1, 3, 8};
  tsr_idx_t *idx = malloc((size_t)n * sizeof *idx);
  ck_assert_ptr_nonnull(idx);
  for (tsr_idx_t j = 0; j < n; j++) /* random, with repeats */
    idx[j] = (tsr_idx_t)tsr_test_rand(&seed, 0, (double)nelem);
  tsr_idx_t *d_idx;
  ck_tsr(tsr_device_malloc(&gpu, (size_t)n * sizeof *idx, (void **)&d_idx));
  ck_tsr(tsr_device_upload(&gpu, d_idx, idx, (size_t)n * sizeof *idx));
  for (int t = TSR_INT32; t <= TSR_DOUBLE; t++)
    for (int di = 0; di < 3; di++) {
      int dim = dims[di];
      size_t es = tsr_dtype_size((tsr_dtype_t)t), nd = (size_t)(nelem * dim), nb = (size_t)(n * dim);
      char *data = malloc(nd * es), *ref = malloc(nd * es), *got = malloc(nd * es);
      char *buf = malloc(nb * es), *hbuf = malloc(nb * es);
      void *d_data, *d_buf;
      ck_assert(data && ref && got && buf && hbuf);
      fill_random(data, (tsr_dtype_t)t, nd, &seed);
      ck_tsr(tsr_device_malloc(&gpu, nd * es, &d_data));
      ck_tsr(tsr_device_malloc(&gpu, nb * es, &d_buf));
      /* pack */
      ck_tsr(tsr_halo_pack(&cpu, n, idx, dim, (tsr_dtype_t)t, data, hbuf));
      ck_tsr(tsr_device_upload(&gpu, d_data, data, nd * es));
      ck_tsr(tsr_halo_pack(&gpu, n, d_idx, dim, (tsr_dtype_t)t, d_data, d_buf));
      ck_tsr(tsr_device_download(&gpu, buf, d_buf, nb * es));
      ck_assert_msg(memcmp(buf, hbuf, nb * es) == 0, "pack differs: %s dim %d",
                    tsr_dtype_name((tsr_dtype_t)t), dim);
      /* unpack (overwrite): repeated indices get one of the values, so
       * unpack a duplicate-free prefix only: first occurrences */
      fill_random(buf, (tsr_dtype_t)t, nb, &seed);
      memcpy(ref, data, nd * es);
      tsr_idx_t m = 0;
      char *seen = calloc((size_t)nelem, 1);
      tsr_idx_t *uidx = malloc((size_t)n * sizeof *uidx);
      for (tsr_idx_t j = 0; j < n; j++)
        if (!seen[idx[j]]) { seen[idx[j]] = 1; uidx[m++] = idx[j]; }
      tsr_idx_t *d_uidx;
      ck_tsr(tsr_device_malloc(&gpu, (size_t)m * sizeof *uidx, (void **)&d_uidx));
      ck_tsr(tsr_device_upload(&gpu, d_uidx, uidx, (size_t)m * sizeof *uidx));
      ck_tsr(tsr_device_upload(&gpu, d_buf, buf, nb * es));
      ck_tsr(tsr_halo_unpack(&cpu, m, uidx, dim, (tsr_dtype_t)t, buf, ref, 0));
      ck_tsr(tsr_halo_unpack(&gpu, m, d_uidx, dim, (tsr_dtype_t)t, d_buf, d_data, 0));
      ck_tsr(tsr_device_download(&gpu, got, d_data, nd * es));
      ck_assert_msg(memcmp(got, ref, nd * es) == 0, "unpack differs: %s dim %d",
                    tsr_dtype_name((tsr_dtype_t)t), dim);
      /* unpack-add with repeats: atomics on the GPU, a serial loop on the host;
       * floating-point order differs: 1e-5 (float) / 1e-12 (double) relative */
      ck_tsr(tsr_halo_unpack(&cpu, n, idx, dim, (tsr_dtype_t)t, buf, ref, 1));
      ck_tsr(tsr_halo_unpack(&gpu, n, d_idx, dim, (tsr_dtype_t)t, d_buf, d_data, 1));
      ck_tsr(tsr_device_download(&gpu, got, d_data, nd * es));
      double tol = t == TSR_FLOAT ? 1e-5 : t == TSR_DOUBLE ? 1e-12 : 0;
      double d = maxdiff(got, ref, (tsr_dtype_t)t, nd);
      ck_assert_msg(d <= tol, "unpack-add differs by %g: %s dim %d", d,
                    tsr_dtype_name((tsr_dtype_t)t), dim);
      ck_assert_msg(memcmp(ref, data, nd * es) != 0, "unpack changed nothing");
      ck_tsr(tsr_device_free(&gpu, (void **)&d_uidx));
      ck_tsr(tsr_device_free(&gpu, &d_data));
      ck_tsr(tsr_device_free(&gpu, &d_buf));
      free(seen);
      free(uidx);
      free(data);
      free(ref);
      free(got);
      free(buf);
      free(hbuf);
    }
  ck_tsr(tsr_device_free(&gpu, (void **)&d_idx));
  free(idx);
}
END_TEST

/* tsr_halo_pack_arrays_on / unpack_arrays_on on the GPU (one launch for
 * all arrays) against tsr_halo_pack / unpack on the host, array by array:
 * pack and unpack exactly, unpack-add within 1e-12 (double; atomics change
 * the order of the sums where indices repeat) and exactly for int64. */
START_TEST(test_pack_arrays) {
  tsr_device_t cpu, gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  unsigned long long seed = 20261126;
  const tsr_idx_t nelem = 4000, n = 2501, stride = 2600;
  tsr_idx_t *idx = malloc((size_t)n * sizeof *idx), *d_idx;
  ck_assert_ptr_nonnull(idx);
  for (tsr_idx_t j = 0; j < n; j++) idx[j] = (tsr_idx_t)tsr_test_rand(&seed, 0, (double)nelem);
  ck_tsr(tsr_device_malloc(&gpu, (size_t)n * sizeof *idx, (void **)&d_idx));
  ck_tsr(tsr_device_upload(&gpu, d_idx, idx, (size_t)n * sizeof *idx));
  const tsr_dtype_t types[2] = {TSR_DOUBLE, TSR_INT64};
  for (int ti = 0; ti < 2; ti++)
    for (int narr = 1; narr <= TSR_HALO_MAX_ARRAYS; narr++) {
      const tsr_dtype_t t = types[ti];
      const size_t es = tsr_dtype_size(t), nd = (size_t)nelem * es, nb = (size_t)(narr * stride) * es;
      char *data[TSR_HALO_MAX_ARRAYS], *ref[TSR_HALO_MAX_ARRAYS];
      void *d_data[TSR_HALO_MAX_ARRAYS];
      char *hbuf = calloc(1, nb), *buf = calloc(1, nb), *got = malloc(nd);
      void *d_buf;
      ck_assert(hbuf && buf && got);
      ck_tsr(tsr_device_malloc(&gpu, nb, &d_buf));
      ck_tsr(tsr_device_upload(&gpu, d_buf, hbuf, nb)); /* the gaps compare too */
      for (int a = 0; a < narr; a++) {
        data[a] = malloc(nd), ref[a] = malloc(nd);
        ck_assert(data[a] && ref[a]);
        fill_random(data[a], t, (size_t)nelem, &seed);
        ck_tsr(tsr_device_malloc(&gpu, nd, &d_data[a]));
        ck_tsr(tsr_device_upload(&gpu, d_data[a], data[a], nd));
        ck_tsr(tsr_halo_pack(&cpu, n, idx, 1, t, data[a], hbuf + (size_t)(a * stride) * es));
      }
      ck_tsr(tsr_halo_pack_arrays_on(&gpu, NULL, n, d_idx, t, narr, (const void *const *)d_data,
                                     d_buf, stride));
      ck_tsr(tsr_device_download(&gpu, buf, d_buf, nb));
      ck_assert_msg(memcmp(buf, hbuf, nb) == 0, "pack of %d arrays differs (%s)", narr,
                    tsr_dtype_name(t));
      /* unpack-add of new random parts: every repeat of an index adds */
      fill_random(buf, t, (size_t)(narr * stride), &seed);
      ck_tsr(tsr_device_upload(&gpu, d_buf, buf, nb));
      for (int a = 0; a < narr; a++) {
        memcpy(ref[a], data[a], nd);
        ck_tsr(tsr_halo_unpack(&cpu, n, idx, 1, t, buf + (size_t)(a * stride) * es, ref[a], 1));
      }
      ck_tsr(tsr_halo_unpack_arrays_on(&gpu, NULL, n, d_idx, t, narr, d_buf, stride,
                                       (void *const *)d_data, 1));
      for (int a = 0; a < narr; a++) {
        ck_tsr(tsr_device_download(&gpu, got, d_data[a], nd));
        const double tol = t == TSR_DOUBLE ? 1e-12 : 0, d = maxdiff(got, ref[a], t, (size_t)nelem);
        ck_assert_msg(d <= tol, "unpack-add of %d arrays: array %d differs by %g (%s)", narr, a, d,
                      tsr_dtype_name(t));
        ck_assert_msg(memcmp(ref[a], data[a], nd) != 0, "unpack-add changed nothing");
      }
      /* unpack (overwrite) through the first n/2 indices that do not repeat */
      char *seen = calloc((size_t)nelem, 1);
      tsr_idx_t *uidx = malloc((size_t)n * sizeof *uidx), m = 0, *d_uidx;
      for (tsr_idx_t j = 0; j < n / 2; j++)
        if (!seen[idx[j]]) seen[idx[j]] = 1, uidx[m++] = idx[j];
      ck_tsr(tsr_device_malloc(&gpu, (size_t)m * sizeof *uidx, (void **)&d_uidx));
      ck_tsr(tsr_device_upload(&gpu, d_uidx, uidx, (size_t)m * sizeof *uidx));
      for (int a = 0; a < narr; a++) {
        ck_tsr(tsr_device_upload(&gpu, d_data[a], data[a], nd));
        memcpy(ref[a], data[a], nd);
        ck_tsr(tsr_halo_unpack(&cpu, m, uidx, 1, t, buf + (size_t)(a * stride) * es, ref[a], 0));
      }
      ck_tsr(tsr_halo_unpack_arrays_on(&gpu, NULL, m, d_uidx, t, narr, d_buf, stride,
                                       (void *const *)d_data, 0));
      for (int a = 0; a < narr; a++) {
        ck_tsr(tsr_device_download(&gpu, got, d_data[a], nd));
        ck_assert_msg(memcmp(got, ref[a], nd) == 0, "unpack of %d arrays: array %d differs (%s)",
                      narr, a, tsr_dtype_name(t));
        ck_tsr(tsr_device_free(&gpu, &d_data[a]));
        free(data[a]), free(ref[a]);
      }
      ck_tsr(tsr_device_free(&gpu, (void **)&d_uidx));
      ck_tsr(tsr_device_free(&gpu, &d_buf));
      free(seen), free(uidx), free(hbuf), free(buf), free(got);
    }
  ck_tsr(tsr_device_free(&gpu, (void **)&d_idx));
  free(idx);
}
END_TEST

/* A whole exchange on the GPU (rank with itself): the device result equals
 * the host result, host-staged and, where MPI reports it, CUDA-aware. */
START_TEST(test_exchange_self) {
  tsr_device_t cpu, gpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &gpu));
  tsr_grid_part_t p;
  tsr_idx_t n[3] = {37, 29, 4};
  int per[2] = {1, 1};
  ck_tsr(tsr_grid_part_init(MPI_COMM_WORLD, n, 2, per, &p));
  tsr_grid_box_t b = tsr_grid_part_local(&p, 0);
  size_t nc = (size_t)(b.nx * b.ny * b.nz);
  double *u = malloc(nc * sizeof *u), *ref = malloc(nc * sizeof *ref);
  unsigned long long seed = 7;
  for (size_t i = 0; i < nc; i++) u[i] = ref[i] = tsr_test_rand(&seed, 1, 2);
  tsr_halo_t *h;
  ck_tsr(tsr_halo_create_regular(&p, &b, &h));
  ck_tsr(tsr_halo_exchange(h, &cpu, ref, 1, TSR_DOUBLE));
  for (int aware = 0; aware <= tsr_halo_cuda_aware_available(); aware++) {
    double *d_u;
    ck_tsr(tsr_halo_set_cuda_aware(h, aware));
    ck_tsr(tsr_device_malloc(&gpu, nc * sizeof *u, (void **)&d_u));
    ck_tsr(tsr_device_upload(&gpu, d_u, u, nc * sizeof *u));
    ck_tsr(tsr_halo_begin(h, &gpu, d_u, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_end(h, &gpu, d_u, 1, TSR_DOUBLE));
    double *got = malloc(nc * sizeof *got);
    ck_tsr(tsr_device_download(&gpu, got, d_u, nc * sizeof *u));
    ck_assert_msg(memcmp(got, ref, nc * sizeof *u) == 0, "GPU exchange (cuda-aware %d) differs", aware);
    /* reverse: halo copies added into owners (atomics on the GPU: 1e-13 relative) */
    double *rref = malloc(nc * sizeof *rref);
    memcpy(rref, ref, nc * sizeof *rref);
    ck_tsr(tsr_halo_reverse_begin(h, &cpu, rref, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_reverse_end(h, &cpu, rref, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_reverse_begin(h, &gpu, d_u, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_reverse_end(h, &gpu, d_u, 1, TSR_DOUBLE));
    ck_tsr(tsr_device_download(&gpu, got, d_u, nc * sizeof *u));
    size_t changed = 0;
    for (size_t i = 0; i < nc; i++) {
      ck_assert_msg(fabs(got[i] - rref[i]) <= 1e-13 * fabs(rref[i]), "reverse differs at %zu", i);
      changed += rref[i] != ref[i];
    }
    ck_assert(changed > 0);
    free(rref);
    free(got);
    ck_tsr(tsr_device_free(&gpu, (void **)&d_u));
  }
  ck_tsr(tsr_halo_destroy(&h));
  free(u);
  free(ref);
}
END_TEST

static Suite *pack_suite(void) {
  Suite *s = suite_create("halo_pack");
  TCase *tc = tcase_create("cuda");
  tcase_add_test(tc, test_pack_unpack);
  tcase_add_test(tc, test_pack_arrays);
  tcase_add_test(tc, test_exchange_self);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  setenv("CK_FORK", "no", 1);
  MPI_Init(&argc, &argv);
  int rc = tsr_test_run(pack_suite());
  MPI_Finalize();
  return rc;
}
