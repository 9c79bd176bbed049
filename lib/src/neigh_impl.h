/* neigh_impl.h: the neighbour-table object, shared by neigh.c (build, views,
 * device copies) and neigh_compress.c (prototype dictionary). Private. */
#ifndef TSR_NEIGH_IMPL_H
#define TSR_NEIGH_IMPL_H

#include "tessera/neigh.h"

struct tsr_neigh {
  int64_t nx, ny, nz, plane;
  int64_t n;               /* entries per relation: plane or plane*nz */
  int depth, m, nrel;
  tsr_neigh_form_t form;
  int32_t *tab;            /* host [nrel][n] */
  /* compressed form (NULL until tsr_neigh_compress succeeds) */
  uint16_t *proto;         /* host [n] */
  int32_t *dict;           /* host [nproto][nrel] */
  int nproto;
  tsr_neigh_stats_t stats;
  /* device copies (after tsr_neigh_upload) */
  int on_dev;
  tsr_device_t dev;
  int32_t *d_tab;
  uint16_t *d_proto;
  int32_t *d_dict;
};

/* Free the device copies, if any. */
int tsr__neigh_free_device(tsr_neigh_t *nb);

#endif /* TSR_NEIGH_IMPL_H */
