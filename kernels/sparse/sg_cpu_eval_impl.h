/* kernels/sparse/sg_cpu_eval_impl.h: cpu/eval/walk for one element type,
 * included by sg_cpu_eval.c with R, SFX(f) and WPT (sg_walk_pt.h) defined. */

static void SFX(walk_eval)(const fastsg_grid_t *G, const R *a, int64_t npts, const R *x, R *r) {
  const int64_t ntiles = TSR_CEIL_DIV(npts, (int64_t)FASTSG_WALK_TILE);
#pragma omp parallel for schedule(dynamic, 4)
  for (int64_t tile = 0; tile < ntiles; tile++) {
    const int64_t j0 = tile * FASTSG_WALK_TILE;
    const int m = (int)TSR_MIN((int64_t)FASTSG_WALK_TILE, npts - j0);
    WPT q[FASTSG_WALK_TILE];
    WPTO qo[FASTSG_WALK_TILE];
    R acc[FASTSG_WALK_TILE];
    for (int k = 0; k < m; k++) {
      SFX(fastsg_walkpt_set)(&q[k], &qo[k], x + (j0 + k) * G->dim, G->dim);
      acc[k] = 0;
    }
    for (int g = 0; g < G->level; g++) {
      fastsg_walk_t w;
      fastsg_walk_outer_t wo;
      int ch = fastsg_walk_first(&w, &wo, G, g);
      do { /* one block: every point of the tile */
        const R *ab = a + w.pos;
        for (int k = 0; k < m; k++) {
          SFX(fastsg_walkpt_update)(&w, &q[k], ch);
          acc[k] += ab[q[k].idx] * q[k].p;
        }
      } while ((ch = fastsg_walk_next(&w)) != FASTSG_WALK_END);
    }
    for (int k = 0; k < m; k++) r[j0 + k] = acc[k];
  }
}
