/* kernels/stencil/stencil_problem.h: host-side set-up of stencil problems:
 * the fields on the regular grid (the picture every variant is checked
 * against), the X-Y-unstructured storage of the same cells, random inputs,
 * and the comparison used for verification.
 *
 * Sizes are the original benchmark's: the domain X x Y x Z INCLUDES the halo
 * (stencil_halo); the updated region is the inner region (fastwaves: without
 * its top inner level, as in the original).
 */
#ifndef TSR_KERNELS_STENCIL_PROBLEM_H
#define TSR_KERNELS_STENCIL_PROBLEM_H

#include "kernels/stencil/stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The problem on the regular grid (host memory). */
typedef struct {
  int kind, prec;
  int64_t size[3];        /* domain, halo included */
  int halo[3];
  tsr_layout_t L;         /* row-major, halo, aligned; one field */
  tsr_layout_t Lc, Luv;   /* fastwaves: 7 and 2 fields on L's cells, placement as asked */
  void *in, *coeff;       /* laplap, hdiff: L.size elements */
  void *cst, *uv;         /* fastwaves: Lc.size, Luv.size elements */
} stencil_problem_t;

/* Allocate (zeroed) fields of a domain of size[] (>= 2*halo+1 in each
 * dimension, else TSR_ERR_ARG naming the stencil's halo); placement: TSR_SOA,
 * TSR_AOS or TSR_AOSOA (fastwaves only). */
int stencil_problem_create(int kind, int prec, const int64_t size[3], int placement,
                           stencil_problem_t *P);
void stencil_problem_destroy(stencil_problem_t *P);
/* Elements of one array of the problem: the input (in / uv) and the
 * constant fields (coeff / cst); 0 when the stencil has none. */
int64_t stencil_problem_elems(const stencil_problem_t *P, int constant);
size_t stencil_problem_esize(const stencil_problem_t *P);
/* Random inputs on every cell (halo included), a function of (seed, field,
 * global cell x0+x, y0+y, z) only, so any decomposition sees the same
 * values; off[] shifts local coordinates to global ones (NULL = 0).
 * Values in [-1, 1], except rho in [1, 2] and hhl = z + [0, 0.5) (positive
 * density and monotone heights: no division by ~0). */
void stencil_problem_fill(stencil_problem_t *P, uint64_t seed, const int64_t off[3]);
/* The regular grid descriptor: the inner region (fastwaves: levels hz ..
 * Z-hz-2). */
stencil_grid_t stencil_problem_grid(const stencil_problem_t *P);
/* Fields for a step in -> out (arrays of P's layouts, host or device). */
stencil_fields_t stencil_problem_fields(const stencil_problem_t *P, const void *in,
                                        const void *coeff_or_cst, void *out, int flat_limit);

/* X-Y-unstructured storage of a problem's cells. */
typedef enum { STENCIL_ORDER_ROWMAJOR = 0, STENCIL_ORDER_ZCURVE, STENCIL_ORDER_RANDOM } stencil_order_t;
typedef struct {
  int64_t nx, ny, nz;     /* the plane and levels (halo included) */
  int64_t np;             /* slots */
  int64_t nown;           /* slots [0, nown) are updated */
  int64_t ncore;          /* slots [0, ncore) need no received halo (MPI); else nown */
  int64_t *cells;         /* [np] plane cell x + nx*y of each slot */
  int depth, comp;
  tsr_neigh_t *nb;
  tsr_layout_t L, Lc, Luv; /* slot x level layouts (one, 7, 2 fields) */
  int halo[3];
  int32_t *col;           /* the updated slots row by row (stencil_grid_t.col) or NULL */
  int64_t ncol, nrow;
} stencil_ugrid_t;

/* Single domain: the inner cells first, in `order` (z-curve of the inner
 * rectangle with width zw, row-major, or random with seed), then the halo
 * cells row-major; depth 2 (no-chase) or 1 (chase); comp: compress the
 * tables (TSR_ERR_UNSUPPORTED when the dictionary would exceed
 * STENCIL_CUDA_DICT_BYTES: skip). */
int stencil_ugrid_create(const stencil_problem_t *P, int order, int zw, uint64_t seed, int depth,
                         int comp, stencil_ugrid_t *U);
/* Any subset: slots listed in cells (np), updated [0, nown), core [0, ncore). */
int stencil_ugrid_create_cells(const stencil_problem_t *P, int64_t nx, int64_t ny, int64_t np,
                               int64_t nown, int64_t ncore, const int64_t *cells, int depth,
                               int comp, stencil_ugrid_t *U);
void stencil_ugrid_destroy(stencil_ugrid_t *U);
/* The grid descriptor (tables on the host, or on the device after
 * tsr_neigh_upload of U->nb): slots [s0, s1), levels of the updated region. */
int stencil_ugrid_grid(const stencil_ugrid_t *U, const stencil_problem_t *P, int device,
                       int64_t s0, int64_t s1, stencil_grid_t *g);
/* Copy every field of a regular array (layout Lr: L, Lc or Luv of P) into
 * the matching slot array (Lu: U's L, Lc or Luv) and back. local_off[]:
 * the regular array's origin in U's plane coordinates (0 for one domain). */
void stencil_ugrid_scatter(const stencil_ugrid_t *U, const tsr_layout_t *Lr, const void *src,
                           const tsr_layout_t *Lu, void *dst, size_t esize);
void stencil_ugrid_gather(const stencil_ugrid_t *U, const tsr_layout_t *Lu, const void *src,
                          const tsr_layout_t *Lr, void *dst, size_t esize, int64_t s1);

/* Largest |a - r| over the updated region of the regular grid g, all fields
 * of layout L (one element type), and the largest |r| there. */
void stencil_compare(const stencil_grid_t *g, const tsr_layout_t *L, int prec, const void *a,
                     const void *r, double *maxerr, double *maxref);
/* Tolerances of verification: |a - r| <= tol * max(1, max|r|); double
 * 1e-12, float 1e-5 (the arithmetic is the same bits by construction; the
 * tolerance only absorbs compilers that contract anyway). */
double stencil_tolerance(int prec);

#ifdef __cplusplus
}
#endif
#endif
