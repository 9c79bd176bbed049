/* apps/airfoil/airfoil_app.h: the state of one tsr-airfoil run, shared by
 * airfoil.c (options, mesh, reference, output) and airfoil_run.c (the
 * variants' runs, checks and profiles). */
#ifndef AIRFOIL_APP_H
#define AIRFOIL_APP_H

#include <stdio.h>

#include "tessera.h"
#include "kernels/airfoil/airfoil_mesh.h"

enum {
#define X(id, name, dev, incr, layout, help) id,
#include "kernels/airfoil/variants.def"
#undef X
  AIRFOIL_NVARIANTS
};
extern const tsr_variant_t af_variants[AIRFOIL_NVARIANTS];

typedef struct {
  /* options */
  tsr_cli_t cli;
  int64_t size[3];
  const char *precision, *reorder, *partitioner, *halo, *l2;
  int block, exact, nofuse, nograph, profile;
  const char *profile_csv;
  double imbalance, eps;
  /* MPI and what the options decide */
  int nranks, rank, say;
  airfoil_setup_t setup;
  airfoil_prec_t prec;
  airfoil_l2_t l2mode;   /* --l2-persist */
  tsr_selection_t sel;
  /* the mesh: the whole (read or generated) and this rank's part */
  tsr_mesh_t *mesh;
  char source[512];
  airfoil_local_t loc;
  airfoil_problem_t p;
  int64_t gcount[4];     /* cells, edges, bedges, nodes of the whole mesh */
  int standard;          /* OP2's standard mesh */
  int small;             /* the 40x60 mesh of OP2's generator (tsr-mkairfoil --size 40x60) */
  int niter;
  size_t real;           /* bytes of a real */
  double *ref;           /* [niter] the CPU reference's rms history, or NULL */
  double *rms;           /* [niter] the current run's rms history */
  double *qout;          /* [4 * p.ncell + 1] -o: the first variant's final q */
  int have_q;
  char qvariant[96];
  char qdevice[256];     /* the device qvariant ran on */
  tsr_report_t *rep;
  /* --profile */
  airfoil_counts_t counts;
  FILE *pcsv;            /* rank 0: the CSV, written to pcsv_tmp */
  char pcsv_tmp[1100];
  double *prms;          /* [niter + 1] the profiled run's rms history */
  /* --checkpoint-every, --restart (airfoil_ckpt.c) */
  tsr_checkpoint_match_t match;
  int k0;                /* iterations done by the restart's checkpoint (0: none) */
  double *hist;          /* [k0] their rms history */
  int ck_run;            /* a run has written the checkpoints (the first that ran) */
} af_app_t;

/* airfoil_run.c: every selected variant through the harness, checked and
 * (--profile) profiled; one row each in A->rep. */
int af_run_variants(af_app_t *A);
/* One run of variant vid on p for r->niter iterations (airfoil_run.c). */
int af_run_one(const airfoil_problem_t *p, int vid, int block, int fuse, int graph, airfoil_l2_t l2,
               airfoil_run_t *r,
               airfoil_profile_t *prof);

/* airfoil_ckpt.c: with --restart or --checkpoint-every, the options a
 * restart must repeat (A->match, from the whole mesh) and, with --restart,
 * the checkpoint's q into the mesh's p_q, its history and iteration (A->k0):
 * between reading the mesh and partitioning it. Collective. */
int af_ckpt_begin(af_app_t *A);
/* Iterations A->k0 .. r->niter of variant vid from A->p (the rms history
 * before A->k0 is the checkpoint's); write: a checkpoint at every multiple
 * of --checkpoint-every. r->seconds: the iterations' time only. */
int af_ckpt_run(af_app_t *A, int vid, airfoil_run_t *r, airfoil_profile_t *prof, int write);

#endif
