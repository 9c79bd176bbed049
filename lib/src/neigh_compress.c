/* neigh_compress.c: compression of neighbour tables into a per-row
 * prototype index (uint16) and a dictionary of the distinct offset rows,
 * small enough for CUDA constant memory on regular-like grids. */
#include "config.h"
#include "tessera/neigh.h"
#include "tessera/error.h"
#include "neigh_impl.h"

#include <stdlib.h>
#include <string.h>

/* Largest prototype count a uint16_t index can address. */
#define TSR__NEIGH_MAX_PROTO 65536

static uint64_t tsr__row_hash(const int32_t *row, int nrel) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int r = 0; r < nrel; r++) {
    h ^= (uint32_t)row[r];
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

/* Distinct rows of tab in order of first appearance. On return *rows holds
 * the prototypes ([count][nrel], grown as needed) and proto[k] the
 * prototype of row k as long as count <= TSR__NEIGH_MAX_PROTO (beyond that
 * only the count is meaningful). Returns the count, -1 if out of memory. */
static int64_t tsr__dedup(const int32_t *tab, int64_t n, int nrel, int32_t **rows_out,
                          uint16_t *proto) {
  uint64_t cap = 16;
  while (cap < 2 * (uint64_t)n) cap <<= 1;
  int64_t *slot = malloc(cap * sizeof *slot);
  int64_t room = 1024;
  int32_t *rows = malloc((size_t)room * (size_t)nrel * sizeof *rows);
  if (!slot || !rows) {
    free(slot);
    free(rows);
    return -1;
  }
  for (uint64_t s = 0; s < cap; s++) slot[s] = -1;
  int64_t count = 0;
  for (int64_t k = 0; k < n; k++) {
    if (count == room) {
      int32_t *more = realloc(rows, (size_t)(2 * room) * (size_t)nrel * sizeof *rows);
      if (!more) {
        free(slot);
        free(rows);
        return -1;
      }
      rows = more;
      room *= 2;
    }
    /* gather the candidate where a new prototype would go */
    int32_t *row = rows + count * nrel;
    for (int r = 0; r < nrel; r++) row[r] = tab[(int64_t)r * n + k];
    uint64_t s = tsr__row_hash(row, nrel) & (cap - 1);
    while (slot[s] >= 0 && memcmp(rows + slot[s] * nrel, row, (size_t)nrel * sizeof *row) != 0)
      s = (s + 1) & (cap - 1);
    if (slot[s] < 0) slot[s] = count++;
    if (slot[s] < TSR__NEIGH_MAX_PROTO) proto[k] = (uint16_t)slot[s];
  }
  free(slot);
  *rows_out = rows;
  return count;
}

int tsr_neigh_compress(tsr_neigh_t *nb, size_t max_dict_bytes, tsr_neigh_stats_t *stats) {
  TSR_CHECK(nb, TSR_ERR_ARG, "tsr_neigh_compress: neighbour tables are NULL");
  const int64_t n = nb->n;
  const int nrel = nb->nrel;
  uint16_t *proto = malloc((size_t)n * sizeof *proto);
  int32_t *rows = NULL;
  int64_t count = proto ? tsr__dedup(nb->tab, n, nrel, &rows, proto) : -1;
  if (count < 0) {
    free(proto);
    return TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate memory to compress neighbour tables of "
                     "%lld rows x %d relations", (long long)n, nrel);
  }

  tsr_neigh_stats_t st;
  memset(&st, 0, sizeof st);
  st.rows = n;
  st.nrel = nrel;
  st.nproto = count > INT32_MAX ? INT32_MAX : (int)count;
  st.table_bytes = (size_t)n * (size_t)nrel * sizeof(int32_t);
  st.index_bytes = (size_t)n * sizeof(uint16_t);
  st.dict_bytes = (size_t)count * (size_t)nrel * sizeof(int32_t);
  st.saved_bytes = (int64_t)st.table_bytes - (int64_t)st.index_bytes - (int64_t)st.dict_bytes;
  if (stats) *stats = st;

  if (count > TSR__NEIGH_MAX_PROTO || st.dict_bytes > max_dict_bytes) {
    free(rows);
    free(proto);
    if (count > TSR__NEIGH_MAX_PROTO)
      return TSR_RAISE(TSR_ERR_UNSUPPORTED,
                       "neighbour table compression: %lld x %lld x %lld grid (depth %d, %d "
                       "relations) has %lld distinct offset rows, more than the %d a uint16 "
                       "prototype index can address; use the uncompressed tables",
                       (long long)nb->nx, (long long)nb->ny, (long long)nb->nz, nb->depth, nrel,
                       (long long)count, TSR__NEIGH_MAX_PROTO);
    return TSR_RAISE(TSR_ERR_UNSUPPORTED,
                     "neighbour table compression: %lld x %lld x %lld grid (depth %d, %d "
                     "relations) has %lld prototypes, a dictionary of %zu bytes, more than the "
                     "capacity of %zu bytes (CUDA constant memory is %d); use the uncompressed "
                     "tables or a more regular storage order",
                     (long long)nb->nx, (long long)nb->ny, (long long)nb->nz, nb->depth, nrel,
                     (long long)count, st.dict_bytes, max_dict_bytes, TSR_NEIGH_CONST_BYTES);
  }

  /* Device copies of an earlier compression are stale now. */
  int rc = 0;
  if (nb->on_dev) {
    rc = tsr_device_free(&nb->dev, (void **)&nb->d_proto);
    if (!rc) rc = tsr_device_free(&nb->dev, (void **)&nb->d_dict);
  }
  if (rc) {
    free(rows);
    free(proto);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  free(nb->proto);
  free(nb->dict);
  nb->proto = proto;
  nb->dict = rows; /* exactly count rows are meaningful; the rest is slack */
  nb->nproto = (int)count;
  nb->stats = st;
  return TSR_SUCCESS;
}

int tsr_neigh_stats(const tsr_neigh_t *nb, tsr_neigh_stats_t *stats) {
  TSR_CHECK(nb && stats, TSR_ERR_ARG, "tsr_neigh_stats: NULL argument");
  TSR_CHECK(nb->proto, TSR_ERR_ARG,
            "tsr_neigh_stats: the tables are not compressed (call tsr_neigh_compress first)");
  *stats = nb->stats;
  return TSR_SUCCESS;
}
