/* kernels/airfoil/airfoil_profile.c: what a per-kernel profile row means:
 * the kernels' names, the counts of a problem and the byte model of each
 * kernel (docs/AIRFOIL.md, "Per-kernel profile").
 *
 * The bytes of a kernel are the minimum it must move: every array it reads
 * or writes counted once per launch over its set (a cell's q read by four
 * edges counts once), reals of R bytes, maps and int32 lists of 4 bytes,
 * CSR offsets of 8. The arrays are those of the strategy: res_calc of
 * cuda/gather writes a flux per edge instead of incrementing res, and the
 * gathering kernels read the inverse maps. Colour lists and shared-memory
 * plans are not counted (they are the strategy's overhead, which the
 * "% of floor" then shows). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernels/airfoil/airfoil_run.h"

static const char *const af_kernel_names[AIRFOIL_NKERNELS] = {
    "save_soln",        "adt_calc",        "res_calc",
    "bres_calc",        "res+bres_calc",   "gather",
    "update",           "update+adt",      "update+adt+save",
    "gather+update+adt", "gather+update+adt+save"};

const char *airfoil_kernel_name(airfoil_kernel_t k) {
  return k >= 0 && k < AIRFOIL_NKERNELS ? af_kernel_names[k] : "?";
}

/* Distinct values of map[0 .. n) (each in [0, range)). */
static int64_t af_distinct(const int32_t *map, int64_t n, int64_t range) {
  unsigned char *seen = calloc((size_t)range + 1, 1);
  int64_t d = 0;
  if (!seen) return n; /* an upper bound will do for a byte count */
  for (int64_t i = 0; i < n; i++)
    if (map[i] >= 0 && map[i] < range && !seen[map[i]]) seen[map[i]] = 1, d++;
  free(seen);
  return d;
}

void airfoil_counts_of(const airfoil_problem_t *p, airfoil_counts_t *c) {
  c->nnode = p->nnode;
  c->ncell = p->ncell_owned;
  c->nedge = p->nedge_exec;
  c->nbedge = p->nbedge_exec;
  c->nbnode = af_distinct(p->pbedge, 2 * p->nbedge_exec, p->nnode);
  c->nbcell = af_distinct(p->pbecell, p->nbedge_exec, p->ncell);
  /* sides of the busiest owned cell: the width of cuda/gather4's map */
  int32_t *deg = calloc((size_t)p->ncell + 1, sizeof(int32_t));
  c->gather_k = 4;
  if (!deg) return;
  for (int64_t i = 0; i < 2 * p->nedge_exec; i++)
    if (p->pecell[i] >= 0 && p->pecell[i] < p->ncell) deg[p->pecell[i]]++;
  for (int64_t i = 0; i < p->nbedge_exec; i++)
    if (p->pbecell[i] >= 0 && p->pbecell[i] < p->ncell) deg[p->pbecell[i]]++;
  int k = 1;
  for (int64_t i = 0; i < p->ncell_owned; i++)
    if (deg[i] > k) k = deg[i];
  c->gather_k = k;
  free(deg);
}

double airfoil_kernel_bytes(airfoil_kernel_t k, airfoil_incr_t incr, const airfoil_counts_t *c,
                            size_t real) {
  const double R = (double)real, N = (double)c->nnode, C = (double)c->ncell,
               E = (double)c->nedge, B = (double)c->nbedge, BN = (double)c->nbnode,
               BC = (double)c->nbcell;
  const int gather = incr == AIRFOIL_GATHER || incr == AIRFOIL_GATHER4;
  /* the gathering kernels' maps: CSR (offsets of edges and of bedges, the
   * signed edge list, the bedge list) or the fixed map [cell][K] */
  const double gmap = incr == AIRFOIL_GATHER4 ? 4.0 * c->gather_k * C
                                              : 2 * 8 * (C + 1) + 4 * (2 * E + B);
  const double flux = 4 * R * (E + B); /* the fluxes, written once, read once */
  switch (k) {
  case AIRFOIL_K_SAVE: return 8 * R * C;                           /* q in, qold out */
  case AIRFOIL_K_ADT: return 16 * C + 2 * R * N + 5 * R * C;      /* pcell, x, q, adt */
  case AIRFOIL_K_RES: /* pedge, pecell, x, q, adt; res read+written or a flux per edge */
    return 16 * E + 2 * R * N + 5 * R * C + (gather ? 4 * R * E : 8 * R * C);
  case AIRFOIL_K_BRES: /* pbedge, pbecell, bound; the bedges' nodes and cells */
    return 16 * B + 2 * R * BN + 5 * R * BC + (gather ? 4 * R * B : 8 * R * BC);
  case AIRFOIL_K_RESB: /* both: x, q, adt read once for edges and bedges */
    return 16 * E + 16 * B + 2 * R * N + 5 * R * C + (gather ? flux : 8 * R * C);
  case AIRFOIL_K_GATHER: return gmap + flux + 8 * R * C;           /* res read+written */
  case AIRFOIL_K_UPDATE: return 17 * R * C;                        /* qold, res rw, adt, q */
  case AIRFOIL_K_UPDATE_ADT: /* + pcell, x; adt read and written */
    return (18 * R + 16) * C + 2 * R * N;
  case AIRFOIL_K_UPDATE_ADT_SAVE: return (22 * R + 16) * C + 2 * R * N; /* + qold out */
  case AIRFOIL_K_GUPDATE_ADT: /* no res; the map and the fluxes instead */
    return (10 * R + 16) * C + 2 * R * N + gmap + flux;
  case AIRFOIL_K_GUPDATE_ADT_SAVE: return (14 * R + 16) * C + 2 * R * N + gmap + flux;
  default: return 0;
  }
}

double airfoil_kernel_passes(airfoil_kernel_t k, int64_t calls, int niter) {
  /* the loops over edges and bedges: one pass per stage in one or more
   * launches (core and rest parts, colours, plan colours); every other
   * kernel: one launch per pass */
  if (k == AIRFOIL_K_RES || k == AIRFOIL_K_BRES || k == AIRFOIL_K_RESB)
    return calls > 0 ? 2.0 * niter : 0;
  return (double)calls;
}

void airfoil_profile_csv_header(FILE *csv) {
  fprintf(csv, "app,variant,precision,ranks,block,reorder,fused,iterations,kernel,calls,passes,"
               "seconds,s_per_1000it,bytes_per_pass,bytes,gbs,ceiling_gbs,pct_floor,run_seconds,"
               "unprofiled_seconds\n");
}

void airfoil_profile_report(const airfoil_profile_t *pr, airfoil_incr_t incr,
                            const airfoil_counts_t *counts, size_t real,
                            const airfoil_profile_label_t *l, FILE *table, FILE *csv) {
  const double it1000 = l->niter > 0 ? 1000.0 / l->niter : 0;
  if (table)
    fprintf(table, "\nprofile of %s (block %d, %s; CUDA events or CPU timers around each "
            "launcher, synchronised per pair: the sum can exceed the unprofiled run)\n"
            "  %-24s %7s %7s %9s %9s %9s %8s %7s\n", l->variant, l->block,
            l->fuse ? "fused" : "unfused", "kernel", "calls", "passes", "total s", "s/1000it",
            "MB/pass", "GB/s", "%floor");
  double tsum = 0, bsum = 0;
  int64_t csum = 0;
  for (int k = 0; k <= AIRFOIL_NKERNELS; k++) {
    const int total = k == AIRFOIL_NKERNELS;
    if (!total && pr->calls[k] == 0) continue;
    double passes = 0, per = 0, sec = tsum, bytes = bsum;
    int64_t calls = csum;
    if (!total) {
      passes = airfoil_kernel_passes((airfoil_kernel_t)k, pr->calls[k], l->niter);
      per = airfoil_kernel_bytes((airfoil_kernel_t)k, incr, counts, real);
      sec = pr->seconds[k], bytes = per * passes, calls = pr->calls[k];
      tsum += sec, bsum += bytes, csum += calls;
    }
    const double gbs = sec > 0 ? bytes / sec * 1e-9 : 0;
    const double pct = sec > 0 && l->ceiling > 0 ? 100.0 * bytes / l->ceiling / sec : 0;
    const char *name = total ? "sum" : airfoil_kernel_name((airfoil_kernel_t)k);
    if (table)
      fprintf(table, "  %-24s %7lld %7.0f %9.4f %9.4f %9.2f %8.1f %7.1f\n", name,
              (long long)calls, passes, sec, sec * it1000, per * 1e-6, gbs, pct);
    if (csv)
      fprintf(csv, "airfoil,%s,%s,%d,%d,%s,%s,%d,%s,%lld,%.0f,%.9g,%.9g,%.0f,%.0f,%.6g,%.6g,%.4g,"
              "%.9g,%.9g\n", l->variant, l->precision, l->ranks, l->block, l->reorder,
              l->fuse ? "yes" : "no", l->niter, name, (long long)calls, passes, sec,
              sec * it1000, per, bytes, gbs, l->ceiling * 1e-9, pct, l->run_s, l->unprofiled_s);
  }
  if (table)
    fprintf(table, "  profiled run %.4f s, unprofiled %.4f s (median of the timed runs)\n",
            l->run_s, l->unprofiled_s);
}
