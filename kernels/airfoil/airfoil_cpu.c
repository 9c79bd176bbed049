/* kernels/airfoil/airfoil_cpu.c: the plain CPU reference of Airfoil.
 *
 * OP2's main loop, sequential, AoS, in OP2's element order: per iteration
 * save_soln, then twice adt_calc, res_calc, bres_calc, update. Every other
 * variant is checked against the rms history this produces.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/device.h"
#include "kernels/airfoil/airfoil_run.h"

/* One precision of the reference, instantiated twice below. The working
 * arrays (AoS, as OP2 holds them):
 *   x: [nnode][2]   q, qold, res: [ncell][4]   adt: [ncell] */
#define AF_CPU_REF(REAL, SFX)                                                                \
  static int airfoil_cpu_ref_##SFX(const airfoil_problem_t *p, airfoil_run_t *r) {           \
    const int64_t nn = p->nnode, nc = p->ncell, ne = p->nedge, nb = p->nbedge;              \
    airfoil_kc_##SFX##_t k = airfoil_kc_make_##SFX(&p->c);                                   \
    REAL *x = malloc(sizeof(REAL) * (size_t)(2 * nn + 1));                                   \
    REAL *q = malloc(sizeof(REAL) * (size_t)(4 * nc + 1));                                   \
    REAL *qold = malloc(sizeof(REAL) * (size_t)(4 * nc + 1));                                \
    REAL *res = calloc((size_t)(4 * nc + 1), sizeof(REAL));                                  \
    REAL *adt = malloc(sizeof(REAL) * (size_t)(nc + 1));                                     \
    if (!x || !q || !qold || !res || !adt) {                                                 \
      free(x); free(q); free(qold); free(res); free(adt);                                    \
      return TSR_RAISE(TSR_ERR_ALLOC, "airfoil cpu/ref: no memory for %lld cells",           \
                       (long long)nc);                                                       \
    }                                                                                        \
    for (int64_t i = 0; i < 2 * nn; i++) x[i] = (REAL)p->x[i];                               \
    for (int64_t i = 0; i < 4 * nc; i++) q[i] = (REAL)p->q0[i];                              \
    double t0 = tsr_wtime();                                                                 \
    for (int it = 0; it < r->niter; it++) {                                                  \
      for (int64_t c = 0; c < nc; c++) airfoil_save_soln_##SFX(q + 4 * c, qold + 4 * c);     \
      double rms = 0;                                                                        \
      for (int stage = 0; stage < 2; stage++) {                                              \
        for (int64_t c = 0; c < nc; c++) {                                                   \
          const int32_t *cn = p->pcell + 4 * c;                                              \
          adt[c] = airfoil_adt_calc_##SFX(k, x + 2 * cn[0], x + 2 * cn[1], x + 2 * cn[2],    \
                                          x + 2 * cn[3], q + 4 * c);                         \
        }                                                                                    \
        for (int64_t e = 0; e < ne; e++) {                                                   \
          const int32_t *en = p->pedge + 2 * e, *ec = p->pecell + 2 * e;                     \
          REAL f[4];                                                                         \
          airfoil_res_calc_##SFX(k, x + 2 * en[0], x + 2 * en[1], q + 4 * ec[0],             \
                                 q + 4 * ec[1], adt[ec[0]], adt[ec[1]], f);                  \
          for (int n = 0; n < 4; n++) {                                                      \
            res[4 * ec[0] + n] += f[n];                                                      \
            res[4 * ec[1] + n] -= f[n];                                                      \
          }                                                                                  \
        }                                                                                    \
        for (int64_t b = 0; b < nb; b++) {                                                   \
          const int32_t *bn = p->pbedge + 2 * b;                                             \
          int32_t bc = p->pbecell[b];                                                        \
          REAL f[4];                                                                         \
          airfoil_bres_calc_##SFX(k, x + 2 * bn[0], x + 2 * bn[1], q + 4 * bc, adt[bc],      \
                                  p->bound[b], f);                                           \
          for (int n = 0; n < 4; n++) res[4 * bc + n] += f[n];                               \
        }                                                                                    \
        rms = 0;                                                                             \
        for (int64_t c = 0; c < nc; c++)                                                     \
          airfoil_update_##SFX(qold + 4 * c, q + 4 * c, res + 4 * c, adt[c], &rms);          \
      }                                                                                      \
      r->rms[it] = airfoil_rms(rms, nc);                                                     \
    }                                                                                        \
    r->seconds = tsr_wtime() - t0;                                                           \
    if (r->q)                                                                                \
      for (int64_t i = 0; i < 4 * nc; i++) r->q[i] = (double)q[i];                           \
    free(x); free(q); free(qold); free(res); free(adt);                                      \
    return 0;                                                                                \
  }

AF_CPU_REF(double, d)
AF_CPU_REF(float, f)

int airfoil_cpu_ref(const airfoil_problem_t *p, airfoil_run_t *r) {
  TSR_CHECK(p && r && r->rms && r->niter >= 0, TSR_ERR_ARG,
            "airfoil_cpu_ref: needs a problem and an rms array for %d iterations",
            r ? r->niter : -1);
  if (r->prec == AIRFOIL_FLOAT) TSR_CALL(airfoil_cpu_ref_f(p, r));
  else TSR_CALL(airfoil_cpu_ref_d(p, r));
  return 0;
}
