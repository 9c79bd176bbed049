/* kernels/airfoil/airfoil_cpu.c: the plain CPU reference of Airfoil.
 *
 * OP2's main loop, sequential, AoS, in the mesh's element order: per
 * iteration save_soln, then twice adt_calc, res_calc, bres_calc, update.
 * Every other variant is checked against the rms history this produces.
 *
 * On several ranks (owner-compute, OP2's way) each stage runs
 *   begin q exchange;   adt_calc on owned cells;   end q exchange
 *   begin adt exchange; res_calc/bres_calc on core edges (owned cells only)
 *   end adt exchange;   res_calc/bres_calc on the other executed edges
 *   update on owned cells
 * and the rms sum is reduced over the communicator once per iteration.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/halo.h"
#include "kernels/airfoil/airfoil_run.h"

/* --profile: wall time of each loop into prof (timers only when asked). */
#define AF_TIC() (prof ? tsr_wtime() : 0)
#define AF_TOC(t, K)                                                                         \
  do {                                                                                       \
    if (prof) prof->seconds[K] += tsr_wtime() - (t), prof->calls[K]++;                       \
  } while (0)

#define AF_HALO(call)                                                                        \
  do {                                                                                       \
    if (p->halo && !rc) rc = (call);                                                         \
  } while (0)

/* One precision of the reference, instantiated twice below. The working
 * arrays (AoS, as OP2 holds them):
 *   x: [nnode][2]   q, qold, res: [ncell][4]   adt: [ncell]  (halo rows included) */
#define AF_CPU_REF(REAL, SFX, TYPE)                                                          \
  static void af_res_##SFX(const airfoil_problem_t *p, airfoil_kc_##SFX##_t k, const REAL *x,  \
                           const REAL *q, const REAL *adt, REAL *res, int64_t e0, int64_t e1,  \
                           int64_t b0, int64_t b1) {                                         \
    for (int64_t e = e0; e < e1; e++) {                                                      \
      const int32_t *en = p->pedge + 2 * e, *ec = p->pecell + 2 * e;                         \
      REAL f[4];                                                                             \
      airfoil_res_calc_##SFX(k, x + 2 * en[0], x + 2 * en[1], q + 4 * ec[0], q + 4 * ec[1],  \
                             adt[ec[0]], adt[ec[1]], f);                                     \
      for (int n = 0; n < 4; n++) {                                                          \
        res[4 * ec[0] + n] += f[n];                                                          \
        res[4 * ec[1] + n] -= f[n];                                                          \
      }                                                                                      \
    }                                                                                        \
    for (int64_t b = b0; b < b1; b++) {                                                      \
      const int32_t *bn = p->pbedge + 2 * b;                                                 \
      int32_t bc = p->pbecell[b];                                                            \
      REAL f[4];                                                                             \
      airfoil_bres_calc_##SFX(k, x + 2 * bn[0], x + 2 * bn[1], q + 4 * bc, adt[bc],          \
                              p->bound[b], f);                                               \
      for (int n = 0; n < 4; n++) res[4 * bc + n] += f[n];                                   \
    }                                                                                        \
  }                                                                                          \
  static void af_incr_##SFX(const airfoil_problem_t *p, airfoil_kc_##SFX##_t k, const REAL *x, \
                            const REAL *q, const REAL *adt, REAL *res, int64_t e0, int64_t e1, \
                            int64_t b0, int64_t b1, airfoil_profile_t *prof) {               \
    if (e1 > e0) {                                                                           \
      double t = AF_TIC();                                                                   \
      af_res_##SFX(p, k, x, q, adt, res, e0, e1, b0, b0);                                    \
      AF_TOC(t, AIRFOIL_K_RES);                                                              \
    }                                                                                        \
    if (b1 > b0) {                                                                           \
      double t = AF_TIC();                                                                   \
      af_res_##SFX(p, k, x, q, adt, res, e1, e1, b0, b1);                                    \
      AF_TOC(t, AIRFOIL_K_BRES);                                                             \
    }                                                                                        \
  }                                                                                          \
  static int airfoil_cpu_ref_##SFX(const airfoil_problem_t *p, airfoil_run_t *r,             \
                                   airfoil_profile_t *prof) {                                \
    const int64_t nn = p->nnode, nc = p->ncell, nco = p->ncell_owned;                        \
    airfoil_kc_##SFX##_t k = airfoil_kc_make_##SFX(&p->c);                                   \
    REAL *x = malloc(sizeof(REAL) * (size_t)(2 * nn + 1));                                   \
    REAL *q = malloc(sizeof(REAL) * (size_t)(4 * nc + 1));                                   \
    REAL *qold = malloc(sizeof(REAL) * (size_t)(4 * nc + 1));                                \
    REAL *res = calloc((size_t)(4 * nc + 1), sizeof(REAL));                                  \
    REAL *adt = calloc((size_t)(nc + 1), sizeof(REAL));                                      \
    if (!x || !q || !qold || !res || !adt) {                                                 \
      free(x); free(q); free(qold); free(res); free(adt);                                    \
      return TSR_RAISE(TSR_ERR_ALLOC, "airfoil cpu/ref: no memory for %lld cells",           \
                       (long long)nc);                                                       \
    }                                                                                        \
    for (int64_t i = 0; i < 2 * nn; i++) x[i] = (REAL)p->x[i];                               \
    for (int64_t i = 0; i < 4 * nc; i++) q[i] = (REAL)p->q0[i];                              \
    tsr_device_t cpu;                                                                        \
    memset(&cpu, 0, sizeof cpu);                                                             \
    cpu.kind = TSR_DEV_CPU, cpu.id = -1;                                                     \
    int rc = 0;                                                                              \
    double t0 = tsr_wtime();                                                                 \
    for (int it = 0; it < r->niter && !rc; it++) {                                           \
      double t = AF_TIC();                                                                   \
      for (int64_t c = 0; c < nco; c++) airfoil_save_soln_##SFX(q + 4 * c, qold + 4 * c);    \
      AF_TOC(t, AIRFOIL_K_SAVE);                                                             \
      double rms = 0;                                                                        \
      for (int stage = 0; stage < 2 && !rc; stage++) {                                       \
        AF_HALO(tsr_halo_begin(p->halo, &cpu, q, 4, TYPE));                                  \
        t = AF_TIC();                                                                        \
        for (int64_t c = 0; c < nco; c++) {                                                  \
          const int32_t *cn = p->pcell + 4 * c;                                              \
          adt[c] = airfoil_adt_calc_##SFX(k, x + 2 * cn[0], x + 2 * cn[1], x + 2 * cn[2],    \
                                          x + 2 * cn[3], q + 4 * c);                         \
        }                                                                                    \
        AF_TOC(t, AIRFOIL_K_ADT);                                                            \
        AF_HALO(tsr_halo_end(p->halo, &cpu, q, 4, TYPE));                                    \
        AF_HALO(tsr_halo_begin(p->halo, &cpu, adt, 1, TYPE));                                \
        af_incr_##SFX(p, k, x, q, adt, res, 0, p->nedge_core, 0, p->nbedge_core, prof);      \
        AF_HALO(tsr_halo_end(p->halo, &cpu, adt, 1, TYPE));                                  \
        af_incr_##SFX(p, k, x, q, adt, res, p->nedge_core, p->nedge_exec, p->nbedge_core,    \
                      p->nbedge_exec, prof);                                                 \
        rms = 0;                                                                             \
        t = AF_TIC();                                                                        \
        for (int64_t c = 0; c < nco; c++)                                                    \
          airfoil_update_##SFX(qold + 4 * c, q + 4 * c, res + 4 * c, adt[c], &rms);          \
        for (int64_t i = 4 * nco; i < 4 * nc; i++) res[i] = 0; /* halo rows: not ours */     \
        AF_TOC(t, AIRFOIL_K_UPDATE);                                                         \
      }                                                                                      \
      if (!rc && p->halo)                                                                    \
        rc = MPI_Allreduce(MPI_IN_PLACE, &rms, 1, MPI_DOUBLE, MPI_SUM, p->comm) == MPI_SUCCESS \
                 ? 0 : TSR_RAISE(TSR_ERR_MPI, "airfoil cpu/ref: MPI_Allreduce of the rms failed"); \
      r->rms[it] = airfoil_rms(rms, p->ncell_global);                                        \
    }                                                                                        \
    r->seconds = tsr_wtime() - t0;                                                           \
    if (!rc && r->q)                                                                         \
      for (int64_t i = 0; i < 4 * nc; i++) r->q[i] = (double)q[i];                           \
    free(x); free(q); free(qold); free(res); free(adt);                                      \
    TSR_CALL(rc);                                                                            \
    return 0;                                                                                \
  }

AF_CPU_REF(double, d, TSR_DOUBLE)
AF_CPU_REF(float, f, TSR_FLOAT)

int airfoil_cpu_ref(const airfoil_problem_t *p, airfoil_run_t *r) {
  TSR_CALL(airfoil_cpu_ref_profile(p, r, NULL));
  return 0;
}

int airfoil_cpu_ref_profile(const airfoil_problem_t *p, airfoil_run_t *r, airfoil_profile_t *prof) {
  TSR_CHECK(p && r && r->rms && r->niter >= 0, TSR_ERR_ARG,
            "airfoil_cpu_ref: needs a problem and an rms array for %d iterations",
            r ? r->niter : -1);
  TSR_CHECK(p->ncell_owned <= p->ncell && p->nedge_core <= p->nedge_exec &&
                p->nedge_exec <= p->nedge && p->nbedge_core <= p->nbedge_exec &&
                p->nbedge_exec <= p->nbedge && p->ncell_global > 0,
            TSR_ERR_ARG, "airfoil_cpu_ref: inconsistent ranges (build the problem with "
            "airfoil_problem_from_mesh)");
  if (r->prec == AIRFOIL_FLOAT) TSR_CALL(airfoil_cpu_ref_f(p, r, prof));
  else TSR_CALL(airfoil_cpu_ref_d(p, r, prof));
  return 0;
}
