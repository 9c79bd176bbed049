/* memory.c: memory estimates against the memory each rank has
 * (tessera/memory.h). */
#include "config.h"
#include "tessera/memory.h"
#include "tessera/error.h"
#include "tessera/node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef TSR_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

/* TSR_MEMORY_LIMIT in bytes, or -1 when unset or malformed. */
static double tsr__memory_limit(void) {
  const char *e = getenv("TSR_MEMORY_LIMIT");
  if (!e || !*e) return -1;
  char *end = NULL;
  double v = strtod(e, &end);
  if (end == e || !(v > 0)) return -1;
  switch (*end) {
  case 'k': case 'K': v *= 1024.0, end++; break;
  case 'm': case 'M': v *= 1024.0 * 1024, end++; break;
  case 'g': case 'G': v *= 1024.0 * 1024 * 1024, end++; break;
  case 't': case 'T': v *= 1024.0 * 1024 * 1024 * 1024, end++; break;
  default: break;
  }
  return *end ? -1 : v;
}

/* The node's available memory in bytes (MemAvailable, else physical). */
static double tsr__node_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    if (kb) return (double)kb * 1024.0;
  }
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
  return pages > 0 && psize > 0 ? (double)pages * (double)psize : 0;
}

int tsr_memory_host_available(MPI_Comm comm, double *bytes) {
  MPI_Comm node;
  int nrank = 0, nsize = 1;
  TSR_CALL(tsr_node_split(comm, &node, &nrank, &nsize));
  double avail = 0;
  if (nrank == 0) avail = tsr__node_available();
  MPI_Bcast(&avail, 1, MPI_DOUBLE, 0, node);
  MPI_Comm_free(&node);
  avail /= nsize > 0 ? nsize : 1;
  const double lim = tsr__memory_limit();
  if (lim > 0 && (avail <= 0 || lim < avail)) avail = lim;
  *bytes = avail;
  return TSR_SUCCESS;
}

static double tsr__gib(double b) { return b / (1024.0 * 1024 * 1024); }

int tsr_memory_check(MPI_Comm comm, const char *what, double host, double dev) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  double havail = 0, davail = 0;
  int rc = tsr_memory_host_available(comm, &havail);
  TSR_CALL(tsr_error_agree(comm, rc));
#ifdef TSR_HAVE_CUDA
  if (dev > 0) {
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) == cudaSuccess) davail = (double)fr;
    else cudaGetLastError(), davail = 0, dev = 0; /* no device: the allocation will say */
  }
#else
  dev = 0;
#endif
  /* [0] worst host shortfall ratio, [1] its need, [2] its avail, [3] total
     host need; the same for the device */
  double v[4] = {havail > 0 ? host / havail : 0, host, havail, host};
  double w[4] = {davail > 0 ? dev / davail : 0, dev, davail, dev};
  double mx[2] = {v[0], w[0]}, sum[2] = {v[3], w[3]};
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, mx, 2, MPI_DOUBLE, MPI_MAX, comm));
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, sum, 2, MPI_DOUBLE, MPI_SUM, comm));
  for (int k = 0; k < 2; k++) {
    if (mx[k] <= 1.0) continue;
    /* the rank with the worst ratio names the numbers */
    double *x = k ? w : v;
    int mine = x[0] == mx[k] ? 0 : 1, who[2] = {mine, 0};
    int rank;
    MPI_Comm_rank(comm, &rank);
    who[1] = mine ? size : rank;
    int first = size;
    TSR_CALL_MPI(MPI_Allreduce(&who[1], &first, 1, MPI_INT, MPI_MIN, comm));
    double nums[2] = {x[1], x[2]};
    TSR_CALL_MPI(MPI_Bcast(nums, 2, MPI_DOUBLE, first, comm));
    const double fit = ceil(sum[k] / nums[1]);
    /* every rank raises the same message; agreed, so it is said once */
    return tsr_error_agree(comm, TSR_RAISE(TSR_ERR_ALLOC,
                     "%s needs %.3g GiB of %s memory on rank %d, which has %.3g GiB%s; split over "
                     "ranks with that much each, about %.0f rank%s would fit it",
                     what, tsr__gib(nums[0]), k ? "device" : "host", first, tsr__gib(nums[1]),
                     k ? " free on its GPU" : getenv("TSR_MEMORY_LIMIT") ? " (TSR_MEMORY_LIMIT)" : "",
                     fit, fit == 1 ? "" : "s"));
  }
  return TSR_SUCCESS;
}
