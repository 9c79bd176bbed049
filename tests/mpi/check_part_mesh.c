/* check_part_mesh: unstructured-mesh partitioning and mesh halos at any
 * rank count, on small generated quad meshes with shuffled numbering
 * (nodes, cells, interior edges; pcell, pedge, pecell; dats on each set):
 * - gathered back (owned rows of all ranks), the mesh equals the original;
 * - owners follow the documented rules (edges: first cell; nodes: first
 *   incident cell); exec / non-exec halos and core equal a brute-force
 *   classification; maps are local and point at the right elements;
 * - after a halo exchange every halo row equals its owner's row;
 * - an edge loop over owned + exec edges gives every owned cell the serial
 *   result (exec halo correctness), and the global sum equals the serial one;
 * - graph partitioners (METIS, PT-Scotch) beat a random partition: the cut
 *   (interior edges between two ranks) is at most half a random one's
 *   expected cut, and no part holds more than 1.5x the mean plus one cell.
 * Inputs: SERIAL and BLOCK meshes; METIS and PT-Scotch (when built; else
 * its TSR_ERR_UNSUPPORTED answer) via pcell and via pecell, block, and
 * random given partitions. */
#include "config.h"
#include <math.h>
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"

typedef struct {
  int nx, ny;
  tsr_idx_t nn, nc, ne;
  int32_t *pcell, *pedge, *pecell; /* [nc][4], [ne][2], [ne][2] */
  double *x, *q;                   /* [nn][2], [nc][4] */
  int64_t *w;                      /* [ne] */
} gen_t;

static void shuffle(tsr_idx_t n, tsr_idx_t *perm, unsigned long long *seed) {
  for (tsr_idx_t i = 0; i < n; i++) perm[i] = i;
  for (tsr_idx_t i = n - 1; i > 0; i--) {
    tsr_idx_t j = (tsr_idx_t)tsr_test_rand(seed, 0, (double)(i + 1));
    tsr_idx_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

/* nx x ny quads; natural numbering, then shuffled by fixed permutations */
static void gen(gen_t *g, int nx, int ny) {
  unsigned long long seed = 1000003ULL * nx + ny;
  g->nx = nx;
  g->ny = ny;
  g->nn = (tsr_idx_t)(nx + 1) * (ny + 1);
  g->nc = (tsr_idx_t)nx * ny;
  g->ne = (tsr_idx_t)(nx - 1) * ny + (tsr_idx_t)nx * (ny - 1);
  tsr_idx_t *pn = malloc(g->nn * sizeof *pn), *pc = malloc(g->nc * sizeof *pc),
            *pe = malloc(g->ne * sizeof *pe);
  shuffle(g->nn, pn, &seed);
  shuffle(g->nc, pc, &seed);
  shuffle(g->ne, pe, &seed);
#define NODE(i, j) ((int32_t)pn[(j) * (nx + 1) + (i)])
#define CELL(i, j) ((int32_t)pc[(j) * nx + (i)])
  g->pcell = malloc(g->nc * 4 * sizeof *g->pcell);
  g->pedge = malloc(g->ne * 2 * sizeof *g->pedge);
  g->pecell = malloc(g->ne * 2 * sizeof *g->pecell);
  g->x = malloc(g->nn * 2 * sizeof *g->x);
  g->q = malloc(g->nc * 4 * sizeof *g->q);
  g->w = malloc(g->ne * sizeof *g->w);
  for (int j = 0; j <= ny; j++)
    for (int i = 0; i <= nx; i++) {
      g->x[2 * NODE(i, j)] = i + tsr_test_rand(&seed, 0.01, 0.2);
      g->x[2 * NODE(i, j) + 1] = j + tsr_test_rand(&seed, 0.01, 0.2);
    }
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int32_t *r = g->pcell + 4 * CELL(i, j);
      r[0] = NODE(i, j);
      r[1] = NODE(i + 1, j);
      r[2] = NODE(i + 1, j + 1);
      r[3] = NODE(i, j + 1);
      for (int k = 0; k < 4; k++) g->q[4 * CELL(i, j) + k] = tsr_test_rand(&seed, 0.5, 2.0);
    }
  tsr_idx_t e = 0;
  for (int j = 0; j < ny; j++)
    for (int i = 1; i < nx; i++, e++) {
      int s = tsr_test_rand(&seed, 0, 1) < 0.5; /* which cell comes first */
      g->pedge[2 * pe[e]] = NODE(i, j);
      g->pedge[2 * pe[e] + 1] = NODE(i, j + 1);
      g->pecell[2 * pe[e] + s] = CELL(i - 1, j);
      g->pecell[2 * pe[e] + 1 - s] = CELL(i, j);
    }
  for (int j = 1; j < ny; j++)
    for (int i = 0; i < nx; i++, e++) {
      int s = tsr_test_rand(&seed, 0, 1) < 0.5;
      g->pedge[2 * pe[e]] = NODE(i, j);
      g->pedge[2 * pe[e] + 1] = NODE(i + 1, j);
      g->pecell[2 * pe[e] + s] = CELL(i, j - 1);
      g->pecell[2 * pe[e] + 1 - s] = CELL(i, j);
    }
  for (e = 0; e < g->ne; e++) g->w[e] = 1 + (int64_t)tsr_test_rand(&seed, 0, 1000);
#undef NODE
#undef CELL
  free(pn);
  free(pc);
  free(pe);
}

static void gen_free(gen_t *g) {
  free(g->pcell);
  free(g->pedge);
  free(g->pecell);
  free(g->x);
  free(g->q);
  free(g->w);
}

/* The generated mesh as a tsr_mesh_t: whole (SERIAL) or this rank's blocks. */
static int make_mesh(const gen_t *g, int block, tsr_mesh_t **out) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tsr_mesh_t *m;
  TSR_CALL(tsr_mesh_create(&m));
  tsr_idx_t lo[3] = {0, 0, 0}, n[3] = {g->nn, g->nc, g->ne};
  if (block)
    for (int s = 0; s < 3; s++) tsr_mesh_block_rows(n[s], size, rank, &lo[s], &n[s]);
  TSR_CALL(tsr_mesh_add_set_block(m, "nodes", g->nn, lo[0], n[0], NULL));
  TSR_CALL(tsr_mesh_add_set_block(m, "cells", g->nc, lo[1], n[1], NULL));
  TSR_CALL(tsr_mesh_add_set_block(m, "edges", g->ne, lo[2], n[2], NULL));
  TSR_CALL(tsr_mesh_add_map(m, "pedge", 2, 0, 2, g->pedge + 2 * lo[2], TSR_COPY, NULL));
  TSR_CALL(tsr_mesh_add_map(m, "pecell", 2, 1, 2, g->pecell + 2 * lo[2], TSR_COPY, NULL));
  TSR_CALL(tsr_mesh_add_map(m, "pcell", 1, 0, 4, g->pcell + 4 * lo[1], TSR_COPY, NULL));
  TSR_CALL(tsr_mesh_add_dat(m, "x", 0, 2, TSR_DOUBLE, g->x + 2 * lo[0], TSR_COPY, NULL));
  TSR_CALL(tsr_mesh_add_dat(m, "q", 1, 4, TSR_DOUBLE, g->q + 4 * lo[1], TSR_COPY, NULL));
  TSR_CALL(tsr_mesh_add_dat(m, "w", 2, 1, TSR_INT64, g->w + lo[2], TSR_COPY, NULL));
  double gam = 1.4;
  TSR_CALL(tsr_mesh_add_const(m, "gam", 1, &gam, NULL));
  if (block) TSR_CALL(tsr_mesh_set_dist(m, TSR_MESH_BLOCK));
  TSR_CALL(tsr_mesh_validate(m));
  *out = m;
  return TSR_SUCCESS;
}

enum { NODES = 0, CELLS = 1, EDGES = 2 };
static const struct {
  const char *name;
  int from, to, dim;
} maps[3] = {{"pedge", EDGES, NODES, 2}, {"pecell", EDGES, CELLS, 2}, {"pcell", CELLS, NODES, 4}};

static const int32_t *map_data(const gen_t *g, int m) {
  return m == 0 ? g->pedge : m == 1 ? g->pecell : g->pcell;
}
static tsr_idx_t set_size(const gen_t *g, int s) { return s == NODES ? g->nn : s == CELLS ? g->nc : g->ne; }

/* a random but reproducible owner for cell c (method GIVEN) */
static int given_part(tsr_idx_t c, int size) {
  unsigned long long s = 77 + (unsigned long long)c * 131;
  return (int)tsr_test_rand(&s, 0, size);
}

#define FAIL(...)                                                                   \
  do {                                                                              \
    if (bad++ < 5) fprintf(stderr, "rank %d %s: ", rank, label), fprintf(stderr, __VA_ARGS__); \
  } while (0)

static long check_partition(const gen_t *g, const tsr_mesh_t *pm, tsr_partitioner_t method,
                            const char *label) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long bad = 0;
  const tsr_set_t *st[3];
  int *owner[3];
  for (int s = 0; s < 3; s++) {
    st[s] = tsr_mesh_set(pm, s);
    tsr_idx_t n = set_size(g, s);
    owner[s] = malloc(n * sizeof **owner);
    int *cnt = calloc(n, sizeof *cnt), *mine = malloc(n * sizeof *mine);
    for (tsr_idx_t i = 0; i < n; i++) mine[i] = -1;
    if (st[s]->global_size != n) FAIL("set %d global size %lld\n", s, (long long)st[s]->global_size);
    for (tsr_idx_t i = 0; i < st[s]->owned; i++) mine[st[s]->global_id[i]] = rank;
    MPI_Allreduce(mine, owner[s], (int)n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (tsr_idx_t i = 0; i < n; i++) mine[i] = 0;
    for (tsr_idx_t i = 0; i < st[s]->owned; i++) mine[st[s]->global_id[i]]++;
    MPI_Allreduce(mine, cnt, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (tsr_idx_t i = 0; i < n; i++)
      if (cnt[i] != 1) FAIL("set %d element %lld owned %d times\n", s, (long long)i, cnt[i]);
    free(cnt);
    free(mine);
  }
  /* ---- gathered back: owned rows of every rank rebuild the original */
  for (int m = 0; m < 3; m++) {
    const tsr_map_t *mp = tsr_mesh_map(pm, tsr_mesh_find_map(pm, maps[m].name));
    tsr_idx_t n = set_size(g, maps[m].from) * maps[m].dim;
    int64_t *mine = calloc(n, sizeof *mine), *all = malloc(n * sizeof *all);
    const tsr_set_t *fs = st[maps[m].from], *ts = st[maps[m].to];
    for (tsr_idx_t i = 0; i < fs->owned; i++)
      for (int k = 0; k < maps[m].dim; k++)
        mine[fs->global_id[i] * maps[m].dim + k] = ts->global_id[mp->data[i * maps[m].dim + k]] + 1;
    MPI_Allreduce(mine, all, (int)n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    for (tsr_idx_t i = 0; i < n; i++)
      if (all[i] != map_data(g, m)[i] + 1)
        FAIL("gathered %s[%lld] = %lld, original %d\n", maps[m].name, (long long)i,
             (long long)all[i] - 1, map_data(g, m)[i]);
    free(mine);
    free(all);
  }
  {
    double *xs = calloc(g->nn * 2, sizeof *xs), *qs = calloc(g->nc * 4, sizeof *qs);
    int64_t *ws = calloc(g->ne, sizeof *ws);
    const double *x = tsr_mesh_dat(pm, 0)->data, *q = tsr_mesh_dat(pm, 1)->data;
    const int64_t *w = tsr_mesh_dat(pm, 2)->data;
    for (tsr_idx_t i = 0; i < st[NODES]->owned; i++)
      for (int k = 0; k < 2; k++) xs[st[NODES]->global_id[i] * 2 + k] = x[i * 2 + k];
    for (tsr_idx_t i = 0; i < st[CELLS]->owned; i++)
      for (int k = 0; k < 4; k++) qs[st[CELLS]->global_id[i] * 4 + k] = q[i * 4 + k];
    for (tsr_idx_t i = 0; i < st[EDGES]->owned; i++) ws[st[EDGES]->global_id[i]] = w[i];
    MPI_Allreduce(MPI_IN_PLACE, xs, (int)g->nn * 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, qs, (int)g->nc * 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, ws, (int)g->ne, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (memcmp(xs, g->x, g->nn * 2 * sizeof *xs) || memcmp(qs, g->q, g->nc * 4 * sizeof *qs) ||
        memcmp(ws, g->w, g->ne * sizeof *ws))
      FAIL("gathered dats differ from the original\n");
    free(xs);
    free(qs);
    free(ws);
  }
  /* ---- ownership rules */
  for (tsr_idx_t c = 0; c < g->nc; c++) {
    tsr_idx_t lo, cn;
    int blk = tsr_part_block_owner(g->nc, size, c);
    tsr_mesh_block_rows(g->nc, size, blk, &lo, &cn);
    if (method == TSR_PARTITIONER_BLOCK && owner[CELLS][c] != blk) FAIL("cell %lld not with its block\n", (long long)c);
    if (method == TSR_PARTITIONER_GIVEN && owner[CELLS][c] != given_part(c, size))
      FAIL("cell %lld not where given\n", (long long)c);
  }
  for (tsr_idx_t e = 0; e < g->ne; e++)
    if (owner[EDGES][e] != owner[CELLS][g->pecell[2 * e]]) FAIL("edge %lld not with its first cell\n", (long long)e);
  if ((method == TSR_PARTITIONER_METIS || method == TSR_PARTITIONER_PTSCOTCH) && size > 1) {
    /* quality: a random partition cuts ne * (1 - 1/size) edges on average */
    tsr_idx_t cut = 0, *psize = calloc(size, sizeof *psize), pmax = 0;
    for (tsr_idx_t e = 0; e < g->ne; e++)
      cut += owner[CELLS][g->pecell[2 * e]] != owner[CELLS][g->pecell[2 * e + 1]];
    for (tsr_idx_t c = 0; c < g->nc; c++) psize[owner[CELLS][c]]++;
    for (int r = 0; r < size; r++) pmax = psize[r] > pmax ? psize[r] : pmax;
    double random_cut = (double)g->ne * (1.0 - 1.0 / size), mean = (double)g->nc / size;
    if ((double)cut > 0.6 * random_cut)
      FAIL("edge cut %lld, more than 0.6 of a random partition's %.1f\n", (long long)cut, random_cut);
    if ((double)pmax > 1.25 * mean + 1)
      FAIL("largest part %lld cells, mean %.2f\n", (long long)pmax, mean);
    free(psize);
  }
  {
    tsr_idx_t *first = malloc(g->nn * sizeof *first);
    for (tsr_idx_t i = 0; i < g->nn; i++) first[i] = -1;
    for (tsr_idx_t c = 0; c < g->nc; c++)
      for (int k = 0; k < 4; k++)
        if (first[g->pcell[4 * c + k]] < 0) first[g->pcell[4 * c + k]] = c;
    for (tsr_idx_t i = 0; i < g->nn; i++)
      if (owner[NODES][i] != owner[CELLS][first[i]]) FAIL("node %lld not with its first cell\n", (long long)i);
    free(first);
  }
  /* ---- halos: brute-force classification for this rank */
  char *cls[3]; /* 0 not here, 1 owned, 2 exec, 3 non-exec */
  for (int s = 0; s < 3; s++) {
    cls[s] = calloc(set_size(g, s), 1);
    for (tsr_idx_t i = 0; i < set_size(g, s); i++) cls[s][i] = owner[s][i] == rank;
  }
  for (int m = 0; m < 3; m++)
    for (tsr_idx_t a = 0; a < set_size(g, maps[m].from); a++)
      for (int k = 0; k < maps[m].dim; k++)
        if (!cls[maps[m].from][a] && owner[maps[m].to][map_data(g, m)[a * maps[m].dim + k]] == rank)
          cls[maps[m].from][a] = 2;
  for (int m = 0; m < 3; m++)
    for (tsr_idx_t a = 0; a < set_size(g, maps[m].from); a++)
      if (cls[maps[m].from][a] == 1 || cls[maps[m].from][a] == 2)
        for (int k = 0; k < maps[m].dim; k++) {
          int32_t t = map_data(g, m)[a * maps[m].dim + k];
          if (!cls[maps[m].to][t]) cls[maps[m].to][t] = 3;
        }
  for (int s = 0; s < 3; s++) {
    tsr_idx_t want[4] = {0, 0, 0, 0};
    for (tsr_idx_t i = 0; i < set_size(g, s); i++) want[(int)cls[s][i]]++;
    if (st[s]->owned != want[1] || st[s]->exec_halo != want[2] || st[s]->nonexec_halo != want[3])
      FAIL("set %d: owned/exec/nonexec %lld/%lld/%lld, brute force %lld/%lld/%lld\n", s,
           (long long)st[s]->owned, (long long)st[s]->exec_halo, (long long)st[s]->nonexec_halo,
           (long long)want[1], (long long)want[2], (long long)want[3]);
    tsr_idx_t core = tsr_mesh_core_size(pm, s);
    for (tsr_idx_t i = 0; i < st[s]->size && i < want[1] + want[2] + want[3]; i++) {
      int64_t gid = st[s]->global_id[i];
      int group = i < st[s]->owned ? 1 : i < st[s]->owned + st[s]->exec_halo ? 2 : 3;
      if (cls[s][gid] != group) FAIL("set %d row %lld (global %lld) in group %d, brute force %d\n", s,
                                     (long long)i, (long long)gid, group, cls[s][gid]);
      int is_core = group == 1;
      for (int m = 0; m < 3 && is_core; m++)
        if (maps[m].from == s)
          for (int k = 0; k < maps[m].dim; k++)
            is_core &= owner[maps[m].to][map_data(g, m)[gid * maps[m].dim + k]] == rank;
      if (group == 1 && is_core != (i < core)) FAIL("set %d row %lld: core %d, position says %d\n", s, (long long)i, is_core, i < core);
      /* ascending global index within core, other owned, exec, non-exec */
      if (i > 0 && i != core && i != st[s]->owned && i != st[s]->owned + st[s]->exec_halo &&
          st[s]->global_id[i - 1] >= gid)
        FAIL("set %d rows %lld, %lld not in ascending global order\n", s, (long long)i - 1, (long long)i);
    }
  }
  /* ---- local maps point at the right elements (-1 only in non-exec rows) */
  for (int m = 0; m < 3; m++) {
    const tsr_map_t *mp = tsr_mesh_map(pm, tsr_mesh_find_map(pm, maps[m].name));
    const tsr_set_t *fs = st[maps[m].from], *ts = st[maps[m].to];
    for (tsr_idx_t i = 0; i < fs->size; i++)
      for (int k = 0; k < maps[m].dim; k++) {
        int32_t l = mp->data[i * maps[m].dim + k];
        int nonexec = i >= fs->owned + fs->exec_halo;
        int32_t want = map_data(g, m)[fs->global_id[i] * maps[m].dim + k];
        if ((l < 0 && !nonexec) || l >= ts->size || (l >= 0 && ts->global_id[l] != want))
          FAIL("%s row %lld entry %d = %d\n", maps[m].name, (long long)i, k, l);
      }
  }
  for (int s = 0; s < 3; s++) {
    free(cls[s]);
    free(owner[s]);
  }
  return bad;
}

/* Halo exchange of every dat (halo rows wiped first), then an edge loop
 * over owned + exec edges against the serial loop. */
static long check_halo(const gen_t *g, tsr_mesh_t *pm, const char *label) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long bad = 0;
  tsr_device_t cpu;
  if (tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu)) return 1;
  for (int d = 0; d < 3; d++) {
    tsr_dat_t *dt = tsr_mesh_dat(pm, d);
    const tsr_set_t *s = tsr_mesh_set(pm, dt->set);
    size_t rb = (size_t)dt->dim * tsr_dtype_size(dt->type);
    memset((char *)dt->data + s->owned * rb, 0xff, (s->size - s->owned) * rb);
    tsr_halo_t *h = NULL;
    int e = tsr_halo_create_mesh(MPI_COMM_WORLD, pm, dt->set, &h);
    if (!e) e = tsr_halo_begin(h, &cpu, dt->data, dt->dim, dt->type);
    if (!e) e = tsr_halo_end(h, &cpu, dt->data, dt->dim, dt->type);
    if (e) FAIL("halo of dat %s: %s\n", dt->name, tsr_error_message());
    if (!e && tsr_halo_recv_count(h) != s->size - s->owned) FAIL("halo of %s receives %lld rows, want %lld\n", dt->name, (long long)tsr_halo_recv_count(h), (long long)(s->size - s->owned));
    tsr_halo_destroy(&h);
    const char *orig = d == 0 ? (const char *)g->x : d == 1 ? (const char *)g->q : (const char *)g->w;
    for (tsr_idx_t i = 0; i < s->size; i++)
      if (memcmp((char *)dt->data + i * rb, orig + s->global_id[i] * rb, rb))
        FAIL("dat %s row %lld (global %lld) differs from its owner's\n", dt->name, (long long)i,
             (long long)s->global_id[i]);
  }
  /* res[c0] += f, res[c1] += f/2 over owned + exec edges */
  const tsr_set_t *edges = tsr_mesh_set(pm, EDGES), *cells = tsr_mesh_set(pm, CELLS);
  const int32_t *pe = tsr_mesh_map(pm, tsr_mesh_find_map(pm, "pedge"))->data;
  const int32_t *pc = tsr_mesh_map(pm, tsr_mesh_find_map(pm, "pecell"))->data;
  const double *x = tsr_mesh_dat(pm, 0)->data, *q = tsr_mesh_dat(pm, 1)->data;
  const int64_t *w = tsr_mesh_dat(pm, 2)->data;
  double *res = calloc(cells->size + 1, sizeof *res), *sres = calloc(g->nc, sizeof *sres);
  for (tsr_idx_t e = 0; e < edges->owned + edges->exec_halo; e++) {
    double f = (double)w[e] * (q[4 * pc[2 * e]] - 0.5 * q[4 * pc[2 * e + 1] + 1]) +
               x[2 * pe[2 * e]] * x[2 * pe[2 * e + 1] + 1];
    res[pc[2 * e]] += f;
    res[pc[2 * e + 1]] += 0.5 * f;
  }
  for (tsr_idx_t e = 0; e < g->ne; e++) {
    double f = (double)g->w[e] * (g->q[4 * g->pecell[2 * e]] - 0.5 * g->q[4 * g->pecell[2 * e + 1] + 1]) +
               g->x[2 * g->pedge[2 * e]] * g->x[2 * g->pedge[2 * e + 1] + 1];
    sres[g->pecell[2 * e]] += f;
    sres[g->pecell[2 * e + 1]] += 0.5 * f;
  }
  double local = 0, total = 0, serial = 0;
  /* at most 4 terms per cell, summed in another order: 1e-13 relative */
  for (tsr_idx_t c = 0; c < cells->owned; c++) {
    double want = sres[cells->global_id[c]];
    if (fabs(res[c] - want) > 1e-13 * (fabs(want) + 1)) FAIL("cell %lld res %.17g, serial %.17g\n", (long long)cells->global_id[c], res[c], want);
    local += res[c];
  }
  for (tsr_idx_t c = 0; c < g->nc; c++) serial += sres[c];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (fabs(total - serial) > 1e-12 * fabs(serial)) FAIL("global sum %.17g, serial %.17g\n", total, serial);
  free(res);
  free(sres);
  return bad;
}

static const char *method_name(tsr_partitioner_t m) {
  return m == TSR_PARTITIONER_METIS ? "METIS" : m == TSR_PARTITIONER_PTSCOTCH ? "PT-Scotch"
         : m == TSR_PARTITIONER_BLOCK ? "block" : "given";
}

static void run_case(int nx, int ny, int block, tsr_partitioner_t method, const char *gmap) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char label[128];
  snprintf(label, sizeof label, "%dx%d %s %s map %s", nx, ny, block ? "block" : "serial",
           method_name(method), gmap ? gmap : "-");
  gen_t g;
  gen(&g, nx, ny);
  tsr_mesh_t *in = NULL, *pm = NULL;
  ck_tsr(make_mesh(&g, block, &in));
  tsr_idx_t lo, n;
  tsr_mesh_block_rows(g.nc, size, rank, &lo, &n);
  int *part = malloc((n + 1) * sizeof *part);
  for (tsr_idx_t i = 0; i < n; i++) part[i] = given_part(lo + i, size);
  tsr_mesh_part_opts_t o = {"cells", gmap, method, part};
  ck_tsr(tsr_mesh_partition(MPI_COMM_WORLD, in, &o, &pm));
  ck_assert_int_eq(tsr_mesh_dist(pm), TSR_MESH_PARTITIONED);
  ck_assert_int_eq(tsr_mesh_nconsts(pm), 1);
  ck_tsr(tsr_mesh_validate(pm)); /* -1 allowed only in non-exec halo rows */
  long bad = check_partition(&g, pm, method, label);
  bad += check_halo(&g, pm, label);
  free(part);
  tsr_mesh_destroy(&in);
  tsr_mesh_destroy(&pm);
  gen_free(&g);
  ck_assert_msg(tsr_test_all(bad == 0), "%s: partitioned mesh wrong (see stderr)", label);
}

START_TEST(test_metis_pcell) {
  run_case(7, 5, 0, TSR_PARTITIONER_METIS, "pcell");
  run_case(7, 5, 1, TSR_PARTITIONER_METIS, "pcell");
  run_case(13, 9, 1, TSR_PARTITIONER_METIS, "pcell");
}
END_TEST

START_TEST(test_metis_pecell) {
  run_case(7, 5, 1, TSR_PARTITIONER_METIS, "pecell");
  run_case(9, 4, 0, TSR_PARTITIONER_METIS, "pecell");
}
END_TEST

START_TEST(test_given_and_block) {
  run_case(7, 5, 1, TSR_PARTITIONER_GIVEN, NULL);
  run_case(6, 7, 0, TSR_PARTITIONER_GIVEN, NULL);
  run_case(7, 5, 1, TSR_PARTITIONER_BLOCK, NULL);
}
END_TEST

#ifdef TSR_HAVE_PTSCOTCH
static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Cells owned by this rank (global ids, ascending) after a PT-Scotch partition. */
static int ptscotch_cells(const tsr_mesh_t *in, const char *gmap, tsr_idx_t *n, int64_t **gid) {
  tsr_mesh_part_opts_t o = {"cells", gmap, TSR_PARTITIONER_PTSCOTCH, NULL};
  tsr_mesh_t *pm = NULL;
  TSR_CALL(tsr_mesh_partition(MPI_COMM_WORLD, in, &o, &pm));
  const tsr_set_t *c = tsr_mesh_set(pm, CELLS);
  *n = c->owned;
  *gid = malloc((c->owned + 1) * sizeof **gid);
  for (tsr_idx_t i = 0; i < c->owned; i++) (*gid)[i] = c->global_id[i];
  qsort(*gid, c->owned, sizeof **gid, cmp_i64);
  tsr_mesh_destroy(&pm);
  return TSR_SUCCESS;
}
#endif

START_TEST(test_ptscotch) {
#ifdef TSR_HAVE_PTSCOTCH
  run_case(7, 5, 0, TSR_PARTITIONER_PTSCOTCH, "pcell");
  run_case(13, 9, 1, TSR_PARTITIONER_PTSCOTCH, "pcell");
  run_case(7, 5, 1, TSR_PARTITIONER_PTSCOTCH, "pecell");
  run_case(9, 4, 0, TSR_PARTITIONER_PTSCOTCH, "pecell");
  /* reproducible: the same input partitions the same way twice, and a
   * SERIAL input the same way as its BLOCK form (same distributed graph) */
  gen_t g;
  gen(&g, 11, 6);
  tsr_mesh_t *ser = NULL, *blk = NULL;
  ck_tsr(make_mesh(&g, 0, &ser));
  ck_tsr(make_mesh(&g, 1, &blk));
  tsr_idx_t n[3];
  int64_t *gid[3];
  ck_tsr(ptscotch_cells(ser, "pcell", &n[0], &gid[0]));
  ck_tsr(ptscotch_cells(ser, "pcell", &n[1], &gid[1]));
  ck_tsr(ptscotch_cells(blk, "pcell", &n[2], &gid[2]));
  int same = n[0] == n[1] && n[0] == n[2] && !memcmp(gid[0], gid[1], n[0] * sizeof *gid[0]) &&
             !memcmp(gid[0], gid[2], n[0] * sizeof *gid[0]);
  for (int k = 0; k < 3; k++) free(gid[k]);
  tsr_mesh_destroy(&ser);
  tsr_mesh_destroy(&blk);
  gen_free(&g);
  /* a graph method needs its map */
  gen(&g, 4, 3);
  ck_tsr(make_mesh(&g, 1, &blk));
  tsr_mesh_part_opts_t o = {"cells", NULL, TSR_PARTITIONER_PTSCOTCH, NULL};
  tsr_mesh_t *pm = NULL;
  int e = tsr_mesh_partition(MPI_COMM_WORLD, blk, &o, &pm);
  int ok = e == TSR_ERR_ARG && pm == NULL && strstr(tsr_error_message(), "PT-Scotch needs a map");
  tsr_error_clear();
  tsr_mesh_destroy(&blk);
  gen_free(&g);
  ck_assert_msg(tsr_test_all(same), "PT-Scotch partitions differ between runs or inputs");
  ck_assert_msg(tsr_test_all(ok), "PT-Scotch without a map not reported on every rank");
#else
  /* not built: a clear answer on every rank, no partial mesh */
  gen_t g;
  gen(&g, 4, 3);
  tsr_mesh_t *in = NULL, *pm = NULL;
  ck_tsr(make_mesh(&g, 1, &in));
  tsr_mesh_part_opts_t o = {"cells", "pcell", TSR_PARTITIONER_PTSCOTCH, NULL};
  int e = tsr_mesh_partition(MPI_COMM_WORLD, in, &o, &pm);
  int ok = e == TSR_ERR_UNSUPPORTED && pm == NULL &&
           strstr(tsr_error_message(), "built without PT-Scotch (configure --with-ptscotch)");
  tsr_error_clear();
  tsr_mesh_destroy(&in);
  gen_free(&g);
  ck_assert_msg(tsr_test_all(ok), "PT-Scotch in a build without it: want TSR_ERR_UNSUPPORTED");
#endif
}
END_TEST

START_TEST(test_errors) {
  gen_t g;
  gen(&g, 4, 3);
  tsr_mesh_t *in = NULL, *pm = NULL;
  ck_tsr(make_mesh(&g, 1, &in));
  tsr_mesh_part_opts_t o = {"cells", "pedge", TSR_PARTITIONER_METIS, NULL};
  int e = tsr_mesh_partition(MPI_COMM_WORLD, in, &o, &pm);
  int ok = e == TSR_ERR_ARG && pm == NULL && strstr(tsr_error_message(), "does not touch set 'cells'");
  tsr_error_clear();
  o.map = "pcell";
  o.set = "faces";
  e = tsr_mesh_partition(MPI_COMM_WORLD, in, &o, &pm);
  ok = ok && e == TSR_ERR_ARG && strstr(tsr_error_message(), "no set 'faces'");
  tsr_error_clear();
  tsr_halo_t *h = NULL;
  e = tsr_halo_create_mesh(MPI_COMM_WORLD, in, 0, &h); /* not partitioned */
  ok = ok && e == TSR_ERR_ARG && h == NULL;
  tsr_error_clear();
  tsr_mesh_destroy(&in);
  gen_free(&g);
  ck_assert_msg(tsr_test_all(ok), "partition errors not reported on every rank");
}
END_TEST

static Suite *part_mesh_suite(void) {
  Suite *s = suite_create("part_mesh");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_metis_pcell);
  tcase_add_test(tc, test_metis_pecell);
  tcase_add_test(tc, test_given_and_block);
  tcase_add_test(tc, test_ptscotch);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, part_mesh_suite); }
