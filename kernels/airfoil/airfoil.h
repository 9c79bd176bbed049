/* kernels/airfoil/airfoil.h: the arithmetic of OP2's Airfoil (a 2-D
 * finite-volume Euler solver around a NACA0012 aerofoil), written once for
 * the CPU loops and the CUDA thread mappings, in double and in float.
 *
 * The five loops of one iteration (OP2's names, OP2's arithmetic):
 *   save_soln  cells   qold = q
 *   adt_calc   cells   adt  = local time step from q and the 4 corner nodes
 *   res_calc   edges   flux f between the two cells of an interior edge:
 *                      res[cell0] += f, res[cell1] -= f    (indirect increment)
 *   bres_calc  bedges  flux through a boundary edge (wall or far field):
 *                      res[cell] += f                       (indirect increment)
 *   update     cells   q = qold - res/adt, res = 0, rms += sum(del^2)
 * One iteration is save_soln, then twice (adt_calc, res_calc, bres_calc,
 * update); the rms of the second update is the one reported.
 *
 * Every kernel takes plain values (pointers to small local arrays) and
 * returns its result, so each variant does its own loads and stores (AoS,
 * SoA, shared memory) and its own increments (plain, atomic, coloured).
 * Literals are float literals as in OP2 (0.5f, 1.0f): in the double kernels
 * they are promoted exactly, in the float kernels they stay float.
 *
 * Names: airfoil_<kernel>_d (double) and airfoil_<kernel>_f (float), made
 * from airfoil_kernels.inc included twice below.
 */
#ifndef TSR_KERNELS_AIRFOIL_H
#define TSR_KERNELS_AIRFOIL_H

#include <math.h>
#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The constants of the problem as OP2 declares them (op_decl_const), in
 * double: read from a mesh file or made by airfoil_consts_default. */
typedef struct {
  double gam, gm1, cfl, eps, mach, alpha;
  double qinf[4]; /* free stream: density, x-momentum, y-momentum, energy */
} airfoil_consts_t;

/* OP2's values: each set from a float literal (gam = 1.4f, ...) and the free
 * stream derived from them in double, as OP2's double-precision Airfoil does. */
static inline void airfoil_consts_default(airfoil_consts_t *c) {
  c->gam = 1.4f;
  c->gm1 = c->gam - 1.0f;
  c->cfl = 0.9f;
  c->eps = 0.05f;
  c->mach = 0.4f;
  c->alpha = 3.0f * atanf(1.0f) / 45.0f; /* OP2's C++ calls atan(float) */
  double p = 1.0f, r = 1.0f;
  double u = sqrt(c->gam * p / r) * c->mach;
  double e = p / (r * c->gm1) + 0.5f * u * u;
  c->qinf[0] = r;
  c->qinf[1] = r * u;
  c->qinf[2] = 0.0f;
  c->qinf[3] = r * e;
}

/* ---- double ------------------------------------------------------------ */
#define AF_REAL double
#define AF_SFX d
#define AF_SQRT sqrt
#define AF_FABS fabs
#include "kernels/airfoil/airfoil_kernels.inc"
#undef AF_REAL
#undef AF_SFX
#undef AF_SQRT
#undef AF_FABS

/* ---- float ------------------------------------------------------------- */
#define AF_REAL float
#define AF_SFX f
#define AF_SQRT sqrtf
#define AF_FABS fabsf
#include "kernels/airfoil/airfoil_kernels.inc"
#undef AF_REAL
#undef AF_SFX
#undef AF_SQRT
#undef AF_FABS

/* Kernel constants in float, as OP2's single-precision Airfoil sets them:
 * every constant a float, the free stream computed in float. */
static inline airfoil_kc_f_t airfoil_kc_make_f(const airfoil_consts_t *c) {
  airfoil_kc_f_t k;
  k.gam = (float)c->gam;
  k.gm1 = (float)c->gm1;
  k.cfl = (float)c->cfl;
  k.eps = (float)c->eps;
  for (int n = 0; n < 4; n++) k.qinf[n] = (float)c->qinf[n];
  return k;
}
static inline airfoil_kc_d_t airfoil_kc_make_d(const airfoil_consts_t *c) {
  airfoil_kc_d_t k;
  k.gam = c->gam;
  k.gm1 = c->gm1;
  k.cfl = c->cfl;
  k.eps = c->eps;
  for (int n = 0; n < 4; n++) k.qinf[n] = c->qinf[n];
  return k;
}

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_H */
