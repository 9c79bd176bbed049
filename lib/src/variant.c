/* variant.c: selecting an app's variants by name, pattern or "all". */
#include "config.h"
#include "tessera/variant.h"
#include "tessera/error.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int tsr_variant_built(const tsr_variant_t *v) {
  return v->device == TSR_DEV_CPU || tsr_device_cuda_built();
}

int tsr_variant_select(const tsr_variant_t *table, int n, const char *spec, int *selected,
                       int *nselected) {
  TSR_CHECK(table && selected && nselected, TSR_ERR_ARG, "tsr_variant_select: NULL argument");
  TSR_CHECK(spec && *spec, TSR_ERR_ARG, "empty --variant list (see --list-variants)");
  *nselected = 0;
  char *want = calloc((size_t)n, 1);
  char *copy = strdup(spec);
  if (!want || !copy) {
    free(want);
    free(copy);
    return TSR_RAISE(TSR_ERR_ALLOC, "out of memory");
  }
  int rc = TSR_SUCCESS;
  char *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ') tok++;
    if (!*tok) continue;
    int hit = 0;
    for (int i = 0; i < n; i++) {
      if (strcmp(tok, "all") == 0 || strcmp(tok, table[i].name) == 0 ||
          fnmatch(tok, table[i].name, 0) == 0) {
        want[i] = 1;
        hit = 1;
      }
    }
    if (!hit) {
      rc = TSR_RAISE(TSR_ERR_ARG, "unknown variant '%s' (see --list-variants)", tok);
      break;
    }
  }
  if (rc == TSR_SUCCESS)
    for (int i = 0; i < n; i++)
      if (want[i]) selected[(*nselected)++] = i;
  free(want);
  free(copy);
  return rc;
}

int tsr_variant_named(const char *spec, const char *name) {
  const char *p = spec;
  size_t n = strlen(name);
  while (*p) {
    while (*p == ' ' || *p == ',') p++;
    size_t k = strcspn(p, ",");
    size_t e = k;
    while (e > 0 && p[e - 1] == ' ') e--;
    if (e == n && strncmp(p, name, n) == 0) return 1;
    p += k;
  }
  return 0;
}

void tsr_variant_list(const tsr_variant_t *table, int n, FILE *f) {
  size_t w = 8;
  for (int i = 0; i < n; i++)
    if (strlen(table[i].name) > w) w = strlen(table[i].name);
  fprintf(f, "%-*s  %-6s  %-9s  %s\n", (int)w, "variant", "device", "available", "description");
  for (int i = 0; i < n; i++)
    fprintf(f, "%-*s  %-6s  %-9s  %s\n", (int)w, table[i].name,
            table[i].device == TSR_DEV_CUDA ? "cuda" : "cpu",
            tsr_variant_built(&table[i]) ? "yes" : "no (built without CUDA)",
            table[i].help ? table[i].help : "");
}
