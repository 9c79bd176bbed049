/* tessera/variant.h: the run-time registry of an app's variants.
 *
 * An app lists its variants once (kernels/<app>/variants.def, an X-macro)
 * and builds a table of tsr_variant_t from it. Names look like
 * "cuda/unstr/zcurve/idxvar-shared" or "cpu/ref"; the first component is
 * the device. Every CUDA row stays in the table in a build without CUDA and
 * answers "built without CUDA" when run.
 */
#ifndef TESSERA_VARIANT_H
#define TESSERA_VARIANT_H

#include <stdio.h>
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name;       /* "cuda/regular/idxvar" */
  tsr_devkind_t device;   /* where it runs */
  const char *help;       /* one line */
  int id;                 /* the app's own number for it (enum value) */
} tsr_variant_t;

/* 1 when variant v can run in this build (CUDA rows need a CUDA build). */
int tsr_variant_built(const tsr_variant_t *v);

/* Select variants by spec: a comma-separated list of names or shell
 * patterns for fnmatch (e.g. "cuda/" followed by a star), or "all". A name that matches nothing
 * raises TSR_ERR_ARG naming it and listing how to see the valid names.
 * selected[] receives indices into table (in table order, no duplicates);
 * it must have room for n entries. */
int tsr_variant_select(const tsr_variant_t *table, int n, const char *spec,
                       int *selected, int *nselected);

/* 1 when spec (a --variant list) names name itself, not by a pattern. */
int tsr_variant_named(const char *spec, const char *name);

/* Print the table: name, device, built or not, help. */
void tsr_variant_list(const tsr_variant_t *table, int n, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_VARIANT_H */
