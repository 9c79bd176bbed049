/* kernels/stencil/stencil_cpu.c: the CPU reference and the CPU variants of
 * laplap, hdiff and fastwaves (double and float), plus the stencils' names,
 * halos and traffic. Built with -ffp-contract=off (see stencil_arith.inc). */
#include "config.h"
#include "kernels/stencil/stencil.h"
#include "tessera/error.h"

#include <stdlib.h>
#include <string.h>

static const char *const stencil_names[] = {"laplap", "hdiff", "fastwaves"};

const char *stencil_name(int kind) {
  return kind >= 0 && kind < 3 ? stencil_names[kind] : NULL;
}

int stencil_from_name(const char *name) {
  for (int k = 0; name && k < 3; k++)
    if (strcmp(name, stencil_names[k]) == 0) return k;
  return -1;
}

void stencil_halo(int kind, int halo[3]) {
  halo[0] = halo[1] = 2;
  halo[2] = kind == STENCIL_FASTWAVES ? 2 : 0;
}

int stencil_elems_per_cell(int kind) {
  return kind == STENCIL_LAPLAP ? 2 : kind == STENCIL_HDIFF ? 3 : STENCIL_FW_NCST + 2 * STENCIL_FW_NUV;
}

#define ST_REAL double
#define ST_FN(f) f##_d
#include "kernels/stencil/stencil_ref.inc"
#include "kernels/stencil/stencil_cpu.inc"
#undef ST_REAL
#undef ST_FN
#define ST_REAL float
#define ST_FN(f) f##_f
#include "kernels/stencil/stencil_ref.inc"
#include "kernels/stencil/stencil_cpu.inc"
#undef ST_REAL
#undef ST_FN

static int check_fields(int kind, const stencil_grid_t *g, const stencil_fields_t *f,
                        const char *who) {
  TSR_CHECK(g && f, TSR_ERR_ARG, "%s: NULL grid or fields", who);
  TSR_CHECK(kind >= 0 && kind <= STENCIL_FASTWAVES, TSR_ERR_ARG, "%s: unknown stencil %d", who, kind);
  TSR_CHECK(f->prec == STENCIL_DOUBLE || f->prec == STENCIL_FLOAT, TSR_ERR_ARG,
            "%s: unknown precision %d", who, f->prec);
  if (kind == STENCIL_FASTWAVES)
    TSR_CHECK(f->cst && f->uvin && f->uvout && f->uvin != f->uvout, TSR_ERR_ARG,
              "%s: fastwaves needs cst, uvin and a distinct uvout", who);
  else
    TSR_CHECK(f->in && f->out && f->in != f->out && (kind != STENCIL_HDIFF || f->coeff),
              TSR_ERR_ARG, "%s: %s needs in%s and a distinct out", who, stencil_name(kind),
              kind == STENCIL_HDIFF ? ", coeff" : "");
  if (g->kind == STENCIL_GRID_UNSTR)
    TSR_CHECK(g->comp ? (g->proto && g->dict) : g->tab != NULL, TSR_ERR_ARG,
              "%s: unstructured grid without %s", who, g->comp ? "prototypes/dictionary" : "tables");
  for (int d = 0; d < 3; d++)
    TSR_CHECK(g->lo[d] <= g->hi[d], TSR_ERR_ARG, "%s: empty or inverted range in %c", who, "xyz"[d]);
  return TSR_SUCCESS;
}

int stencil_cpu_ref(int kind, const stencil_grid_t *g, const stencil_fields_t *f) {
  TSR_CALL(check_fields(kind, g, f, "stencil_cpu_ref"));
  TSR_CHECK(g->kind == STENCIL_GRID_REGULAR, TSR_ERR_ARG,
            "stencil_cpu_ref: the reference runs on regular grids only");
  if (f->prec == STENCIL_DOUBLE) TSR_CALL(ref_run_d(kind, g, f));
  else TSR_CALL(ref_run_f(kind, g, f));
  return TSR_SUCCESS;
}

int stencil_cpu_run(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f) {
  TSR_CALL(check_fields(kind, g, f, "stencil_cpu_run"));
  TSR_CHECK(strategy >= STENCIL_CPU_REGULAR && strategy <= STENCIL_CPU_KLOOP, TSR_ERR_ARG,
            "stencil_cpu_run: unknown strategy %d", strategy);
  TSR_CHECK((strategy == STENCIL_CPU_REGULAR) == (g->kind == STENCIL_GRID_REGULAR), TSR_ERR_ARG,
            "stencil_cpu_run: strategy %d does not run on a%s grid", strategy,
            g->kind == STENCIL_GRID_REGULAR ? " regular" : "n unstructured");
  if (f->prec == STENCIL_DOUBLE) cpu_run_d(kind, strategy, g, f);
  else cpu_run_f(kind, strategy, g, f);
  return TSR_SUCCESS;
}
