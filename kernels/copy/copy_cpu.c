/* kernels/copy/copy_cpu.c: argument checks and the CPU copy variants. */
#include "config.h"

#include "kernels/copy/copy.h"
#include "tessera/error.h"

int copy_check(const char *who, const tsr_layout_t *L, int kind, const double *src,
               const double *dst) {
  TSR_CHECK(L && src && dst, TSR_ERR_ARG, "%s: NULL layout or array", who);
  TSR_CALL(tsr_layout_check(L));
  TSR_CHECK(L->kind == kind, TSR_ERR_ARG, "%s: needs a %s layout, got %s", who,
            tsr_layout_kind_name(kind), tsr_layout_kind_name(L->kind));
  TSR_CHECK(L->fields == TSR_SOA || L->nf == 1, TSR_ERR_ARG,
            "%s: the copy kernels use SoA offsets; got %d fields placed as %s", who, L->nf,
            tsr_layout_fields_name(L->fields));
  TSR_CHECK(kind != TSR_LAYOUT_ZCURVE || L->ztab, TSR_ERR_ARG,
            "%s: the Z-curve layout has no plane table (tsr_layout_table_create + "
            "tsr_layout_with_table)", who);
  TSR_CHECK(src != dst, TSR_ERR_ARG, "%s: src and dst are the same array", who);
  return TSR_SUCCESS;
}

int copy_rowmajor_cpu(tsr_layout_t L, const double *src, double *dst) {
  TSR_CALL(copy_check("copy_rowmajor_cpu", &L, TSR_LAYOUT_ROWMAJOR, src, dst));
  const int64_t x0 = L.halo[0], x1 = x0 + L.n[0];
  const int64_t y0 = L.halo[1], y1 = y0 + L.n[1];
  const int64_t z0 = L.halo[2], z1 = z0 + L.n[2];
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t z = z0; z < z1; z++)
    for (int64_t y = y0; y < y1; y++)
      for (int64_t x = x0; x < x1; x++) copy_rowmajor_cell(&L, src, dst, x, y, z);
  return TSR_SUCCESS;
}

int copy_zcurve_cpu(tsr_layout_t L, const double *src, double *dst) {
  TSR_CALL(copy_check("copy_zcurve_cpu", &L, TSR_LAYOUT_ZCURVE, src, dst));
  const int64_t x0 = L.halo[0], x1 = x0 + L.n[0];
  const int64_t y0 = L.halo[1], y1 = y0 + L.n[1];
  const int64_t z0 = L.halo[2], z1 = z0 + L.n[2];
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t z = z0; z < z1; z++)
    for (int64_t y = y0; y < y1; y++)
      for (int64_t x = x0; x < x1; x++) copy_zcurve_cell(&L, src, dst, x, y, z);
  return TSR_SUCCESS;
}
