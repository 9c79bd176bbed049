/* kernels/stencil/stencil.h: the stencil mini-apps' kernels (laplap, hdiff,
 * fastwaves) on regular grids and on grids unstructured in X-Y and regular
 * in Z. docs/STENCIL.md has the formulas, constants, variants and the
 * mapping to the original benchmark's names.
 *
 * Arithmetic: stencil_arith.inc, included here for double (_d) and float
 * (_f); CPU loops (stencil_cpu.c) and CUDA kernels (stencil_cuda*.cu) call
 * the same functions.
 *
 * Grids (stencil_grid_t, a plain value passed to every variant):
 *  - REGULAR: a row-major tsr_layout_t with halo and alignment padding;
 *    cell index c = tsr_layout_rm_cell(L, x, y, z) (coordinates include the
 *    halo); the variant updates the box lo <= (x, y, z) < hi.
 *  - UNSTR: np plane slots in a storage order, level stride zs (a multiple
 *    of the alignment): cell index c = s + z*zs; X-Y neighbours through
 *    neighbour tables (tessera/neigh.h, ZREGULAR form, np entries per
 *    relation), uncompressed (tab) or compressed (proto + dict); depth 2
 *    (neighbours of neighbours stored, "no-chase") or depth 1 (depth-2
 *    points reached through two lookups, "chase"). The variant updates slots
 *    lo[0] <= s < hi[0] at levels lo[2] <= z < hi[2].
 * In both, L describes the cell indexing (for UNSTR, the np x nz "slot x
 * level" row-major layout, so that L.sy == zs) and carries the field
 * placement; element offsets are tsr_layout_soa/aos/aosoa of the cell index.
 *
 * Fields (stencil_fields_t): laplap in -> out; hdiff in, coeff -> out (one
 * field each, elements = cells); fastwaves seven constant fields (cst,
 * STENCIL_FW_*) and the velocities (uv: u = field 0, v = field 1) in ->
 * out, in SoA, AoS or AoSoA placement (layouts Lc and Luv, same cells).
 */
#ifndef TSR_KERNELS_STENCIL_H
#define TSR_KERNELS_STENCIL_H

#include <stdint.h>
#include "tessera/common.h"
#include "tessera/layout.h"
#include "tessera/neigh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { STENCIL_LAPLAP = 0, STENCIL_HDIFF = 1, STENCIL_FASTWAVES = 2 } stencil_kind_t;
typedef enum { STENCIL_DOUBLE = 0, STENCIL_FLOAT = 1 } stencil_prec_t;
typedef enum { STENCIL_GRID_REGULAR = 0, STENCIL_GRID_UNSTR = 1 } stencil_gridkind_t;

/* fastwaves constants of the original benchmark (fastwaves-base.cu). */
#define STENCIL_FW_DT_SMALL 10
#define STENCIL_FW_EDADLAT 1
#define STENCIL_FW_FLAT_LIMIT 0 /* the benchmark's value (COSMO's reference: 10) */

/* The 13-point footprint of laplap and hdiff: the centre and the X-Y
 * displacements of neighbour relations 0..11 (tessera/neigh.h), so point p
 * >= 1 is relation p-1. */
enum {
  STENCIL_P_C = 0,
  STENCIL_P_W = 1 + TSR_NB_XM1,
  STENCIL_P_E = 1 + TSR_NB_XP1,
  STENCIL_P_S = 1 + TSR_NB_YM1,
  STENCIL_P_N = 1 + TSR_NB_YP1,
  STENCIL_P_WS = 1 + TSR_NB_XM1YM1,
  STENCIL_P_ES = 1 + TSR_NB_XP1YM1,
  STENCIL_P_WN = 1 + TSR_NB_XM1YP1,
  STENCIL_P_EN = 1 + TSR_NB_XP1YP1,
  STENCIL_P_WW = 1 + TSR_NB_XM2,
  STENCIL_P_EE = 1 + TSR_NB_XP2,
  STENCIL_P_SS = 1 + TSR_NB_YM2,
  STENCIL_P_NN = 1 + TSR_NB_YP2,
  STENCIL_NP13 = 13
};
/* fastwaves' plane points: the cell, its +x and its +y neighbour. */
enum { STENCIL_FP_C = 0, STENCIL_FP_E = 1, STENCIL_FP_N = 2, STENCIL_NP3 = 3 };

/* Chasing: a depth-2 point p (5..12) is reached as neighbour
 * stencil_chase_second(p) of neighbour stencil_chase_first(p) (both depth-1
 * relations), e.g. WS = W of S, WW = W of W (the original's order). */
static inline TSR_HD int stencil_chase_first(int p) {
  switch (p) {
    case STENCIL_P_WS: case STENCIL_P_ES: case STENCIL_P_SS: return TSR_NB_YM1;
    case STENCIL_P_WN: case STENCIL_P_EN: case STENCIL_P_NN: return TSR_NB_YP1;
    case STENCIL_P_WW: return TSR_NB_XM1;
    default: return TSR_NB_XP1; /* EE */
  }
}
static inline TSR_HD int stencil_chase_second(int p) {
  switch (p) {
    case STENCIL_P_WS: case STENCIL_P_WN: case STENCIL_P_WW: return TSR_NB_XM1;
    case STENCIL_P_ES: case STENCIL_P_EN: case STENCIL_P_EE: return TSR_NB_XP1;
    case STENCIL_P_SS: return TSR_NB_YM1;
    default: return TSR_NB_YP1; /* NN */
  }
}

/* fastwaves fields. */
enum {
  STENCIL_FW_UTENS = 0, STENCIL_FW_VTENS, STENCIL_FW_RHO, STENCIL_FW_PPUV, STENCIL_FW_FX,
  STENCIL_FW_WGTFAC, STENCIL_FW_HHL, STENCIL_FW_NCST
};
enum { STENCIL_FW_U = 0, STENCIL_FW_V = 1, STENCIL_FW_NUV = 2 };

/* ------------------------------------------------------------ arithmetic */
#if defined(__CUDA_ARCH__)
#define ST_ADD(a, b) stencil__add((a), (b))
#define ST_SUB(a, b) stencil__sub((a), (b))
#define ST_MUL(a, b) stencil__mul((a), (b))
#define ST_DIV(a, b) stencil__div((a), (b))
#define ST_X4SUB(c, w) stencil__x4sub((c), (w))
#ifdef __cplusplus
}
#endif
/* Unfused device operations (no FMA contraction): the same bits as the host. */
static __device__ __forceinline__ double stencil__add(double a, double b) { return __dadd_rn(a, b); }
static __device__ __forceinline__ double stencil__sub(double a, double b) { return __dsub_rn(a, b); }
static __device__ __forceinline__ double stencil__mul(double a, double b) { return __dmul_rn(a, b); }
static __device__ __forceinline__ double stencil__div(double a, double b) { return __ddiv_rn(a, b); }
static __device__ __forceinline__ float stencil__add(float a, float b) { return __fadd_rn(a, b); }
static __device__ __forceinline__ float stencil__sub(float a, float b) { return __fsub_rn(a, b); }
static __device__ __forceinline__ float stencil__mul(float a, float b) { return __fmul_rn(a, b); }
static __device__ __forceinline__ float stencil__div(float a, float b) { return __fdiv_rn(a, b); }
/* 4 c - w: 4 c is exact (a power-of-two scaling), so the fused form rounds
   once where the host's multiply-then-subtract rounds once too: the same bits
   (unless 4 c overflows), one instruction instead of two. */
static __device__ __forceinline__ double stencil__x4sub(double c, double w) { return __fma_rn(4.0, c, -w); }
static __device__ __forceinline__ float stencil__x4sub(float c, float w) { return __fmaf_rn(4.0f, c, -w); }
#ifdef __cplusplus
extern "C" {
#endif
#else
#define ST_ADD(a, b) ((a) + (b))
#define ST_SUB(a, b) ((a) - (b))
#define ST_MUL(a, b) ((a) * (b))
#define ST_DIV(a, b) ((a) / (b))
#define ST_X4SUB(c, w) ((ST_REAL)4 * (c) - (w))
#endif

#define ST_REAL double
#define ST_FN(f) f##_d
#include "kernels/stencil/stencil_arith.inc"
#undef ST_REAL
#undef ST_FN
#define ST_REAL float
#define ST_FN(f) f##_f
#include "kernels/stencil/stencil_arith.inc"
#undef ST_REAL
#undef ST_FN

/* ------------------------------------------------------------ descriptors */
typedef struct {
  int kind;          /* stencil_gridkind_t */
  tsr_layout_t L;    /* cell indexing (see above); one field */
  int64_t zs;        /* cell stride between levels (L.sz regular, L.sy unstr) */
  int64_t lo[3], hi[3]; /* the cells updated: regular box; unstr slots in x, levels in z */
  /* UNSTR only: */
  int64_t np;        /* plane slots = entries per relation */
  int depth;         /* 2: depth-2 points stored; 1: chased */
  int comp;          /* 1: proto + dict, else tab */
  const int32_t *tab;    /* [nrel][np] */
  const uint16_t *proto; /* [np] */
  const int32_t *dict;   /* [nproto][nrel] */
  int nrel, nproto;
  /* UNSTR, the whole updated region [0, nown) only (else NULL): its slots
     row by row, col[p*ncol + i] = height p of column i (columns: bottom
     slots in east order, heights: north steps), found from the tables
     (stencil_ugrid_create); host memory. NULL when the region is not a
     rectangle of the relations. For the unstructured jwindow. */
  const int32_t *col;
  int64_t ncol, nrow;
} stencil_grid_t;

typedef struct {
  int prec;            /* stencil_prec_t */
  const void *in;      /* laplap, hdiff: cells of L (one field) */
  const void *coeff;   /* hdiff */
  void *out;
  const void *cst;     /* fastwaves: STENCIL_FW_NCST fields on Lc */
  const void *uvin;    /* fastwaves: u, v on Luv */
  void *uvout;
  tsr_layout_t Lc, Luv; /* fastwaves placements (same cells as the grid's L) */
  int flat_level;      /* fastwaves: levels z < flat_level use the flat formula
                          (= z halo + flat limit) */
} stencil_fields_t;

/* Element offset of field fld of cell c under L's placement (setup, CPU). */
static inline TSR_HD int64_t stencil__off(const tsr_layout_t *L, int64_t c, int fld) {
  return L->fields == TSR_AOS     ? tsr_layout_aos(L, c, fld)
         : L->fields == TSR_AOSOA ? tsr_layout_aosoa(L, c, fld)
                                  : tsr_layout_soa(L, c, fld);
}

/* UNSTR: the table offset of relation rel for slot s (compressed or not). */
static inline TSR_HD int32_t stencil_tab_off(const stencil_grid_t *g, int64_t s, int rel) {
  return g->comp ? g->dict[(int64_t)g->proto[s] * g->nrel + rel]
                 : g->tab[(int64_t)rel * g->np + s];
}
/* UNSTR: cell offset of footprint point p (STENCIL_P_*) from slot s: one
 * lookup, or two when a depth-2 point is chased through depth-1 tables. */
static inline TSR_HD int64_t stencil_unstr_off13(const stencil_grid_t *g, int64_t s, int p) {
  if (p == 0) return 0;
  if (p <= 4 || g->depth >= 2) return stencil_tab_off(g, s, p - 1);
  const int32_t o1 = stencil_tab_off(g, s, stencil_chase_first(p));
  return o1 + stencil_tab_off(g, s + o1, stencil_chase_second(p));
}
/* REGULAR: cell offset of footprint point p. */
static inline TSR_HD int64_t stencil_reg_off13(const stencil_grid_t *g, int p) {
  return p == 0 ? 0 : tsr_neigh_rel_dx(p - 1) + tsr_neigh_rel_dy(p - 1) * g->L.sy;
}

/* Halo widths a stencil needs (the original's): laplap, hdiff (2,2,0),
 * fastwaves (2,2,2). */
void stencil_halo(int kind, int halo[3]);
/* "laplap", "hdiff", "fastwaves"; -1 / NULL when unknown. */
const char *stencil_name(int kind);
int stencil_from_name(const char *name);
/* Minimum bytes per updated cell (read + written once): laplap 2, hdiff 3,
 * fastwaves 11 elements. */
int stencil_elems_per_cell(int kind);

/* ------------------------------------------------------------ CPU */
/* The reference: the original benchmark's CPU formulation (separate passes
 * with temporaries lap / flx / fly, ppgradcor / ppgrad), on a REGULAR grid
 * updating the whole inner region (fastwaves: levels hz .. nz-hz-2).
 * Independent of the fused point functions above. */
int stencil_cpu_ref(int kind, const stencil_grid_t *g, const stencil_fields_t *f);

/* CPU variants (OpenMP), updating g->lo .. g->hi:
 *   regular:  fused point function per cell
 *   unstr:    naive (lookups at every use), idxvar (lookups once per cell into
 *             index variables), kloop (lookups once per column, loop over z). */
typedef enum { STENCIL_CPU_REGULAR = 0, STENCIL_CPU_NAIVE, STENCIL_CPU_IDXVAR,
               STENCIL_CPU_KLOOP } stencil_cpu_strategy_t;
int stencil_cpu_run(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f);

/* The arithmetic of the CUDA j-window and patch strategies (stencil_win.inc)
 * run on the host, for the tests (stencil_win.c); laplap and hdiff only.
 *   jwindow: a REGULAR grid, columns of jpt (>= 1) rows, the same column
 *            function the jwindow kernel runs (plain loads);
 *   patch:   an UNSTR grid, blocks of `patch` consecutive slots marching up
 *            the levels with the staged in and L of the block, the same
 *            per-thread phase functions the patch-kloop kernel runs. */
int stencil__win_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt);
int stencil__patch_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int patch);
/*   uwin:    an UNSTR grid with g->col: chains of jpt cells along the north
 *            relation (chain t: column t mod ncol, rows from (t / ncol) jpt),
 *            the same chain walk and column function the unstructured
 *            jwindow kernel runs. */
int stencil__uwin_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt);

/* ------------------------------------------------------------ chain plans */
/* The chain plan of jwindow-plan (built on the device by the CUDA code, on
 * the host by stencil__uplan_host): for each chain, column c and strip s of
 * jpt rows (rows s*jpt .. s*jpt+n-1, n = jpt but in a short last strip),
 * the 5 (jpt + 4) entries st_uchain gives, u[5 (q + 2) + i] = the slot of
 * in(x-2+i) at row q (-2 <= q <= jpt+1), each multiplied by scale (1:
 * slots; the element size: byte offsets). Stored by groups of 32 chains:
 * entry k of plan chain t at stencil_uplan_base(t, jpt) + 32 k, with plan
 * chain t = s * stencil_uplan_ncolp(ncol) + c (columns padded to whole
 * groups of 32, so that a warp of 32 columns of one strip reads an entry as
 * one 128-byte segment). */
static inline TSR_HD int64_t stencil_uplan_ncolp(int64_t ncol) { return (ncol + 31) / 32 * 32; }
static inline TSR_HD int64_t stencil_uplan_base(int64_t t, int jpt) {
  return (t >> 5) * (5 * (jpt + 4)) * 32 + (t & 31);
}
/* Whether the window of a chain of n rows reads entry k: rows 0 .. n-1 five
 * values, rows -1 and n three, rows -2 and n+1 the centre. */
static inline TSR_HD int stencil_uplan_used(int k, int n) {
  const int q = k / 5 - 2, d = k % 5 - 2, ad = d < 0 ? -d : d;
  const int nv = q >= 0 && q < n ? 5 : (q == -1 || q == n) ? 3 : (q == -2 || q == n + 1) ? 1 : 0;
  return 2 * ad < nv;
}
#define STENCIL_UPLAN_MAXK (5 * (16 + 4)) /* entries of a chain at the largest jpt */

/* The plan's chain prototype (jwindow-proto): the slot offsets of a chain's
 * entries from its row-0 centre (entry 12) that more than half of the full
 * chains share. A chain of n rows matches when every entry it reads
 * (stencil_uplan_used) has the prototype's offset. */
typedef struct {
  int jpt, found;                  /* found: a prototype covers more than half of the full chains */
  int32_t rel[STENCIL_UPLAN_MAXK]; /* its offsets (slots); 0 for entries a full chain does not read */
  int32_t rmin;                    /* the smallest of them (<= 0) */
  int64_t nchain, nfull, nmatch;   /* chains, full chains, matching chains */
} stencil_uproto_t;
/* Find the prototype of a plan (majority vote over the full chains) and
 * mark the chains: match[s * ncol + c] = 1 when the chain of strip s and
 * column c matches (all 0 without a prototype). */
int stencil_uproto_find(const int32_t *plan, uint32_t scale, int64_t ncol, int64_t nrow, int jpt,
                        stencil_uproto_t *P, uint8_t *match);
/* The prototype's entries as byte offsets from the slot rel = rmin, for
 * elements of esz bytes: o[k] = (rel[k] - rmin) esz (0 <= o[k] < 2^31, else
 * TSR_ERR_UNSUPPORTED). */
int stencil_uproto_bytes(const stencil_uproto_t *P, int esz, int32_t *o);
/* jwindow-proto's split of the chains (ncol x nstrip, match from
 * stencil_uproto_find): the largest rectangle of matching chains, columns
 * r[0] .. r[1]-1 x strips r[2] .. r[3]-1 (none: r[0] = r[1]), and the
 * chains outside it in list (chain s*ncol + c, strip by strip, left to
 * right; *nlist of them; list holds ncol nstrip int32). */
int stencil_uproto_rect(const uint8_t *match, int64_t ncol, int64_t nstrip, int64_t r[4], int32_t *list,
                        int64_t *nlist);
/* Whether the row-0 slots of the chains of rectangle r are affine in the
 * column and strip: col[s jpt ncol + c] = a[0] + a[1] c + a[2] s (col:
 * stencil_grid_t.col); 0 for an empty rectangle. */
int stencil_uproto_affine(const int32_t *col, int64_t ncol, int jpt, const int64_t r[4], int64_t a[3]);
/* The split jwindow-proto runs: stencil_uproto_rect, then, when the
 * rectangle's row-0 slots are not affine (a grid whose column order is not
 * its east relation), no rectangle and every chain listed; a as
 * stencil_uproto_affine. */
int stencil_uproto_split(const uint8_t *match, const int32_t *col, int64_t ncol, int64_t nstrip, int jpt,
                         int64_t r[4], int64_t a[3], int32_t *list, int64_t *nlist);
/* The plan on the host (plan: stencil_uplan_base(nstrip * ncolp, jpt)
 * entries; padding chains get 0) from a host grid with g->col. */
int stencil__uplan_host(const stencil_grid_t *g, int jpt, uint32_t scale, int32_t *plan);
/*   uwinp:   jwindow-proto on the host: the plan, its prototype and its
 *            split (stencil_uproto_split) as above;
 *            the rectangle's chains through the prototype's byte offsets
 *            from their row-0 slot (stencil_uproto_affine) + rmin (the CUDA
 *            kernel's addressing), the others through the plan's slots.
 *            *nproto (may be NULL): chains computed through the prototype. */
int stencil__uwinp_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt,
                       int64_t *nproto);

/* ------------------------------------------------------------ CUDA */
/* Access strategies of the CUDA kernels (Rosti's thesis, 2020). */
typedef enum {
  STENCIL_CU_NAIVE = 0,   /* one thread per cell, index lookups at every use */
  STENCIL_CU_IDXVAR,      /* one thread per cell, lookups once into index variables */
  STENCIL_CU_SHARED,      /* idxvar + shared: leaders (threadIdx.z == 0) look up, smem */
  STENCIL_CU_WARP,        /* idxvar + warp broadcast (__shfl_sync from the column's lowest lane) */
  STENCIL_CU_KLOOP,       /* one thread per column, lookups at every level */
  STENCIL_CU_IDXVAR_KLOOP,        /* one thread per column, lookups once, loop over z */
  STENCIL_CU_IDXVAR_KLOOP_SLICED, /* one thread per kpt levels of a column */
  STENCIL_CU_TILE,        /* regular laplap/hdiff: the input tile (+halo) in shared memory, one
                             level per thread layer, L fused in shared memory */
  STENCIL_CU_TILE_KLOOP,  /* regular laplap/hdiff: as TILE, each thread layer marching up kpt
                             levels (next level prefetched into registers) */
  STENCIL_CU_JWIN,        /* regular laplap/hdiff: one thread per jpt consecutive rows of one
                             (x, z) column, a register window sliding in y (stencil_win.inc) */
  STENCIL_CU_JWIN_SHFL,   /* as JWIN, x-neighbours through warp shuffles: one aligned load per
                             row and warp plus the warp's 4 edge values */
  STENCIL_CU_PATCH,       /* unstructured laplap/hdiff: a block's slots (a patch of the storage
                             order) march up kpt levels; in and L of the patch in shared memory,
                             footprint points outside the patch through the tables */
  STENCIL_CU_JWIN_PLAN,   /* unstructured laplap/hdiff: JWIN's chains walked once per grid into a
                             chain plan; a thread per chain and kpt levels reads its slots there */
  STENCIL_CU_JWIN_PROTO,  /* as JWIN_PLAN, the plan compressed to the chain prototype most chains
                             share: the rectangle of matching chains reads no plan */
  STENCIL_CU_NSTRATEGIES
} stencil_cuda_strategy_t;

typedef struct {
  int bx, by, bz;  /* thread-block shape */
  int kpt;         /* levels per thread (sliced, tile-kloop, patch-kloop) */
  int jpt;         /* rows per thread (jwindow): 2, 4, 8 or 16; <= 0: STENCIL_JPT_DEFAULT */
} stencil_launch_t;

/* Rows per thread of the j-window strategies. */
#define STENCIL_JPT_DEFAULT 8
static inline int stencil_launch_jpt(stencil_launch_t s) {
  return s.jpt > 0 ? s.jpt : STENCIL_JPT_DEFAULT;
}
/* Whether a strategy runs on the chain plan (jwindow-plan, jwindow-proto). */
static inline int stencil_cuda_uses_plan(int strategy) {
  return strategy == STENCIL_CU_JWIN_PLAN || strategy == STENCIL_CU_JWIN_PROTO;
}
/* Whether a strategy uses jpt (the j-window ones). */
static inline int stencil_cuda_uses_jpt(int strategy) {
  return strategy == STENCIL_CU_JWIN || strategy == STENCIL_CU_JWIN_SHFL || stencil_cuda_uses_plan(strategy);
}

/* What the CUDA runtime says about the kernel a launch would use
 * (cudaFuncGetAttributes) and the device's shared-memory limit. */
typedef struct {
  int max_threads;   /* most threads per block the kernel can be launched with */
  int regs;          /* registers per thread */
  size_t local_bytes; /* local memory (spills, arrays) per thread */
  size_t smem_max;   /* dynamic shared memory a block may use (opt-in limit) */
} stencil_kattr_t;

/* Shared-tile strategies: each thread loads at most STENCIL_TILE_LOADS
 * input values per level, so (bx+4)(by+4) <= STENCIL_TILE_LOADS*bx*by; the
 * dynamic shared memory per block: per thread layer two input tiles
 * (bx+4)(by+4) (double-buffered over levels) and the L tile (bx+2)(by+2). */
#define STENCIL_TILE_LOADS 8
static inline size_t stencil_tile_smem(int bx, int by, int bz, size_t elem) {
  return ((size_t)2 * (bx + 4) * (by + 4) + (size_t)(bx + 2) * (by + 2)) * (size_t)bz * elem;
}

/* A checked launch: blocks, threads, dynamic shared memory, levels. With
 * attr != NULL the launchers below do not launch: they fill *attr for the
 * kernel they would launch. */
typedef struct {
  unsigned grid[3], block[3];
  size_t smem;
  int kpt;
  int jpt;          /* rows per thread (jwindow strategies), else 0 */
  int64_t z0, z1;
  stencil_kattr_t *attr;
  void *stream;     /* cudaStream_t to launch on; NULL: the default stream */
} stencil_cfg_t;
/* The launch of a strategy on a region: 0, or 1 with a note (a skip: the
 * region is empty, a shuffle block not whole warps along x, a tile of more
 * than STENCIL_TILE_LOADS loads per thread), or an error (a strategy the
 * stencil or grid cannot run, a shape no strategy takes). The block
 * (cfg->block) is s where s fits the region; an extent beyond it is cut to
 * the region (rows, strips of jpt rows, slots, chains, the plan's columns
 * and strips; levels or slices of kpt levels, block z 1 for the z-loops,
 * patch-kloop and the chain plans; jwindow-shfl keeps whole warps along x,
 * the warp broadcast whole warps), and then the note says "block 128x1x8 ran
 * as 33x1x5 (why)". The kernels guard every partial block, so every block
 * gives the same bits. */
int stencil_cuda_cfg(int kind, int strategy, const stencil_grid_t *g, stencil_launch_t s,
                     size_t elem, stencil_cfg_t *cfg, char *note, size_t n);
/* Whether a launch cfg fits the kernel it would run (host arithmetic, every
 * build): 0, or 1 with a note when the block has more threads than the
 * kernel's register use allows (a.max_threads) or needs more shared memory
 * than a.smem_max. sn: the strategy's name for the note. */
int stencil_cuda_fits(const stencil_cfg_t *cfg, const stencil_kattr_t *a, const char *sn,
                      char *note, size_t n);
/* stencil_cuda_cfg plus, in CUDA builds, the kernel's attributes and
 * stencil_cuda_fits: 0 = runs, 1 = skip with a note, < 0 an error. A block
 * the kernel cannot take (registers, shared memory) is halved (z, then y,
 * then x, keeping the shape rules) until it can; cfg->block is the block
 * that runs, and the note says how and why it differs from s (empty when it
 * does not): launch stencil_cuda_run with that block. Fields: only prec and
 * the placements are used. Without CUDA, the 48 KiB default shared-memory
 * limit is applied and no register check is made. */
int stencil_cuda_plan(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                      stencil_launch_t s, stencil_cfg_t *cfg, char *note, size_t n);
/* For the tests: stencil_cuda_plan with the attributes *a for every kernel
 * (no CUDA runtime query). */
int stencil__cuda_plan_attr(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                            stencil_launch_t s, const stencil_kattr_t *a, stencil_cfg_t *cfg, char *note,
                            size_t n);
/* The per-stencil launchers behind stencil_cuda_run (CUDA builds only). */
int stencil_cuda_laplap(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                        const stencil_cfg_t *cfg);
int stencil_cuda_hdiff(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                       const stencil_cfg_t *cfg);
int stencil_cuda_fastwaves(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                           const stencil_cfg_t *cfg);
/* Before the first run on a (new) grid: put its compressed dictionary into
 * constant memory (a no-op for other grids and without CUDA). */
int stencil_cuda_prepare(int kind, const stencil_grid_t *g);
/* Blocks of the last jwindow-proto launch (kind laplap or hdiff) that ran
 * through the plan's prototype (the rectangle, n[0]) and through the plan
 * (the list, n[1]), level groups counted; both 0 before any. */
int stencil_cuda_uplan_split(int kind, int64_t n[2]);
void stencil_cuda_laplap_split(int64_t n[2]);
void stencil_cuda_hdiff_split(int64_t n[2]);
int stencil_cuda_laplap_prepare(const stencil_grid_t *g);
int stencil_cuda_hdiff_prepare(const stencil_grid_t *g);
int stencil_cuda_fastwaves_prepare(const stencil_grid_t *g);
/* TSR_ERR_ARG when a shape can never run a strategy (size, warp rules). */
int stencil_cuda_shape_valid(int strategy, stencil_launch_t s);
/* Name of a strategy ("idxvar-shared"), NULL if unknown. */
const char *stencil_cuda_strategy_name(int strategy);

/* Check a launch shape for a strategy on a grid: 0 when it can run (the
 * block fitted as stencil_cuda_cfg does); 1 with a note in `note` for a
 * skip (stencil_cuda_cfg); or
 * TSR_ERR_ARG for a shape the strategy cannot take at all (warp broadcast:
 * block size a multiple of 32 and bx*by a divisor or multiple of 32). Also
 * returns the grid of blocks it would use. */
int stencil_cuda_shape(int kind, int strategy, const stencil_grid_t *g, stencil_launch_t s,
                       unsigned blocks[3], char *note, size_t n);
/* Run one CUDA variant (asynchronous on the default stream); fits the
 * shape to the region only (stencil_cuda_cfg): ask stencil_cuda_plan once
 * before and run the block it returns, so that a block the kernel cannot
 * take is halved or skipped rather than failing at launch
 * (cudaErrorLaunchOutOfResources). Without CUDA:
 * TSR_ERR_NOCUDA. The grid's tables and the fields must be device memory;
 * compressed dictionaries are copied to constant memory (at most
 * STENCIL_CUDA_DICT_BYTES, checked). */
#define STENCIL_CUDA_DICT_BYTES 65536
int stencil_cuda_run(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                     stencil_launch_t s);
/* The same on `stream` (a cudaStream_t; NULL: the default stream), for work
 * beside the default stream's (the boundary strips of a halo exchange). */
int stencil_cuda_run_stream(int kind, int strategy, const stencil_grid_t *g,
                            const stencil_fields_t *f, stencil_launch_t s, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_STENCIL_H */
