/* kernels/airfoil/airfoil_cuda_graph.h: the stages of the CUDA variants on
 * several ranks as CUDA graphs (airfoil_cuda_graph.c), where the exchange
 * of q and adt goes by CUDA IPC's put kernel (lib's tsr_halo_graph_*
 * pieces), AoS, fused and split; for airfoil_cuda_run.c. */
#ifndef TSR_AIRFOIL_CUDA_GRAPH_H
#define TSR_AIRFOIL_CUDA_GRAPH_H

#include "tessera/device.h"
#include "tessera/halo.h"
#include "kernels/airfoil/airfoil_cuda.cuh"

typedef struct {
  void *graph[2]; /* cudaGraphExec_t of one stage by its parity, or NULL */
  void *group[2]; /* cudaGraphExec_t of nstage stages, replayed in turn, or NULL */
  int nstage;     /* 0: no groups (without the core split) */
} airfoil_graphs_t;

/* Captures g's graphs for the run of d where they serve (hq: the exchange
 * of q and adt, made ready; queued: the exchanges run beside the core);
 * else leaves g empty. Collective over p->comm (eligibility and errors
 * agreed). */
int airfoil_graphs_make(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_cuda_t *d,
                        tsr_halo_t *hq, int queued, const tsr_device_t *dev, tsr_dtype_t T,
                        airfoil_graphs_t *g);
/* 1 where airfoil_graphs_make captured g's graphs. */
int airfoil_graphs_ready(const airfoil_graphs_t *g);
/* niter iterations by g's graphs (the prologue and the last stage from the
 * host); on an error the gates are opened, so no graph waits for ever. */
int airfoil_graphs_iterate(airfoil_cuda_t *d, const airfoil_graphs_t *g, tsr_halo_t *hq,
                           const tsr_device_t *dev, int niter, tsr_dtype_t T);
void airfoil_graphs_free(airfoil_graphs_t *g);

#endif
