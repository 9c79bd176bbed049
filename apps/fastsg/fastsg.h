/* apps/fastsg/fastsg.h: the state of one tsr-fastsg run. Every array the run
 * owns is listed here with its length. */
#ifndef FASTSG_APP_H
#define FASTSG_APP_H

#include "tessera.h"
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_dist.h"

typedef enum { FASTSG_F_BUMP = 0, FASTSG_F_SINPROD } fastsg_fun_t;

/* hierarchization variants are verified against cpu/hier/plain up to this
 * many points, against cpu/hier/ichg1 (itself bit-identical to plain in the
 * tests) above */
#define FASTSG_PLAIN_REF_MAX ((int64_t)1 << 28)

typedef struct {
  /* options */
  int dim, level;
  const char *function, *mode, *precision, *eval_points;
  int64_t npoints_eval;        /* --points (global) */
  int64_t seed;
  int do_hier, do_eval;
  fastsg_fun_t fun;
  tsr_dtype_t prec;
  size_t es;                   /* element size */
  /* MPI */
  MPI_Comm comm;
  int rank, size;
  /* grid */
  fastsg_grid_t grid;
  int64_t b0, b1;              /* this rank's blocks in distributed sweeps */
  void *samples;               /* [nrows] f at the grid points row0.. (host) */
  void *coef;                  /* [nrows] reference coefficients (host) */
  int64_t row0, nrows;         /* rows held: 0, N (whole) or the rank's rows (distributed) */
  /* distributed coefficients (fastsg_dist.c, kernels/sparse/sg_dist.h) */
  const char *distribute;      /* --distribute yes|no|auto */
  int dist;                    /* 1: each rank holds only its share */
  int any_cuda;                /* a CUDA variant is selected */
  fastsg_dist_t *plan;         /* the distribution (dist) */
  void *samples_a;             /* [plan->cap] the samples in layout A (dist) */
  int64_t dist_moved;          /* points moved by the exchange A -> B, all ranks */
  uint32_t *par1d;             /* [2^(n+1)] inv4 tables (host) */
  uint8_t *btab;               /* [nblocks][2][D] sred1 table (host) */
  /* evaluation points of this rank: global indices [k0, k0 + m) */
  int64_t k0, m;
  void *x;                     /* [m][D] */
  void *fx;                    /* [m] f at the points */
  int have_fx;                 /* f is known at the points (else no error is measured) */
  void *ref;                   /* [nref] reference values (cpu/eval/plain) at the sample */
  int64_t nref;                /* sampled points verified: local k = s * m / nref, s < nref */
  const char *hier_ref;        /* the CPU variant that made coef */
  /* HDF5 (fastsg_io.c) */
  const char *input, *output;  /* -i, -o */
  int dim_given, level_given;  /* --dim / --level on the command line */
  int in_values, in_points, in_pvalues; /* datasets present in the input */
  char source[600];            /* where the samples come from (function or file) */
  void *res;                   /* [m] results of res_variant (-o only) */
  char res_variant[64], res_device[64];
} fastsg_app_t;

/* Local index of sampled reference point s (0 <= s < nref). */
static inline int64_t fastsg_ref_index(const fastsg_app_t *app, int64_t s) {
  return s * app->m / app->nref;
}

/* f at x (D coordinates). */
double fastsg_fun_eval(fastsg_fun_t f, const double *x, int D);
/* Analytic bound on max |f - interpolant| over [0,1]^D for level n. */
double fastsg_fun_bound(fastsg_fun_t f, int D, int n);

/* fastsg_run.c: time and verify the selected variants; adds result rows. */
int fastsg_run_hier(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                    tsr_report_t *rep);
int fastsg_run_eval(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                    tsr_report_t *rep);
/* fastsg_io.c: -i FILE: check the file and take D and n from it (before
 * the grid is set up); read /values, /points, /point_values (collective). */
int fastsg_io_open(fastsg_app_t *app);
int fastsg_io_read_values(fastsg_app_t *app);
int fastsg_io_read_points(fastsg_app_t *app);
/* -o FILE: values, coefficients, coordinates, points, results, provenance. */
int fastsg_io_write(fastsg_app_t *app, const tsr_cli_t *cli);
/* The rank's rows of the coefficient array (its block range). */
void fastsg_io_rows(const fastsg_app_t *app, int64_t *p0, int64_t *p1);

/* fastsg_dist.c: memory checks (decide --distribute auto), the distributed
 * set-up (samples, plan, reference), a distributed hierarchization run, and
 * the coefficient checksum (collective when distributed; else rank 0's). */
int fastsg_check_memory(fastsg_app_t *app);
int fastsg_dist_setup(fastsg_app_t *app, const tsr_cli_t *cli);
int fastsg_dist_run_hier(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                         tsr_report_t *rep);
int fastsg_checksum(const fastsg_app_t *app, uint64_t *out);

/* Coefficients by D sweeps of a CPU variant, split over the ranks. */
int fastsg_hierarchize_cpu(fastsg_app_t *app, int variant, void *a);

#endif
