/* tsr-halobench: times the halo exchange of a regular grid.
 *
 * A NX x NY x NZ field of doubles (default 512x512x64) is decomposed over
 * the ranks in X-Y (tsr_grid_part_init) with halo width W (default 2); one
 * sample is tsr_halo_begin + tsr_halo_end (pack, MPI, unpack, device sync)
 * timed on every rank, the slowest rank counting. After --warmup untimed
 * exchanges, --runs samples give median / min / max.
 *
 * Variants: cpu (host arrays, host pack), cuda/staged (device arrays, CUDA
 * pack/unpack, messages through pinned host buffers), cuda/aware (device
 * buffers handed to a CUDA-aware MPI; skipped when the MPI library does not
 * report CUDA support), cuda/ipc (device arrays, messages copied device to
 * device into the neighbours' receive buffers mapped by CUDA IPC, MPI only
 * for a zero-byte "ready"; ranks on one node), cuda/nccl (device buffers by
 * NCCL's send and receive on the stream; skipped in a build without NCCL).
 * Bytes = message payload summed over all ranks per
 * exchange; GB/s = bytes / median time.
 *
 * Verification (unless --no-verify): after one exchange every halo cell
 * equals its owner's value f(global x, y, z), on every rank.
 */
#include "config.h"
#include "tessera.h"

#include <stdlib.h>
#include <string.h>

enum { HB_CPU, HB_STAGED, HB_AWARE, HB_IPC, HB_NCCL };
static const tsr_variant_t variants[] = {
    {"cpu", TSR_DEV_CPU, "host arrays, host pack/unpack, MPI on host buffers", HB_CPU},
    {"cuda/staged", TSR_DEV_CUDA, "device arrays, CUDA pack/unpack, MPI through pinned host buffers", HB_STAGED},
    {"cuda/aware", TSR_DEV_CUDA, "device arrays, CUDA pack/unpack, CUDA-aware MPI on device buffers", HB_AWARE},
    {"cuda/ipc", TSR_DEV_CUDA, "device arrays, CUDA pack/unpack, device-to-device copies into the neighbours' buffers (CUDA IPC), MPI for a zero-byte ready", HB_IPC},
    {"cuda/nccl", TSR_DEV_CUDA, "device arrays, CUDA pack/unpack, NCCL send and receive on the stream (no host wait)", HB_NCCL},
};
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

static double f(tsr_idx_t x, tsr_idx_t y, tsr_idx_t z) {
  return 1.0 + (double)x + 1e4 * (double)y + 1e8 * (double)z;
}

/* u: [nz][ny][nx] local array (inner + halo W in x and y); owned cells f,
 * halo cells -1. */
static void fill(const tsr_grid_part_t *p, const tsr_grid_box_t *b, double *u) {
  for (tsr_idx_t i = 0; i < b->nx * b->ny * b->nz; i++) u[i] = -1.0;
  for (tsr_idx_t z = 0; z < p->n[2]; z++)
    for (tsr_idx_t y = 0; y < p->inner[1]; y++)
      for (tsr_idx_t x = 0; x < p->inner[0]; x++)
        u[((z + b->z0) * b->ny + y + b->y0) * b->nx + x + b->x0] = f(x + p->lo[0], y + p->lo[1], z);
}

/* Halo cells that lie inside the grid must hold their owner's value. */
static long count_wrong(const tsr_grid_part_t *p, const tsr_grid_box_t *b, const double *u) {
  long bad = 0;
  tsr_idx_t h = p->halo;
  for (tsr_idx_t z = 0; z < p->n[2]; z++)
    for (tsr_idx_t y = -h; y < p->inner[1] + h; y++)
      for (tsr_idx_t x = -h; x < p->inner[0] + h; x++) {
        tsr_idx_t gx = x + p->lo[0], gy = y + p->lo[1];
        if (gx < 0 || gy < 0 || gx >= p->n[0] || gy >= p->n[1]) continue;
        if (u[((z + b->z0) * b->ny + y + b->y0) * b->nx + x + b->x0] != f(gx, gy, z)) bad++;
      }
  return bad;
}

typedef struct {
  tsr_cli_t cli;
  int64_t size[3];
  int halo;
  tsr_grid_part_t part;
  tsr_grid_box_t box;
  tsr_halo_t *h;
  double *host; /* [box.nz][box.ny][box.nx] */
  size_t cells;
} bench_t;

typedef struct {
  tsr_halo_t *h;
  const tsr_device_t *dev;
  double *u;
} hb_run_t;

/* One sample: tsr_halo_begin + tsr_halo_end (device synchronised by tsr_run). */
static int hb_exchange(void *p, tsr_run_sample_t *s) {
  hb_run_t *x = p;
  (void)s;
  TSR_CALL(tsr_halo_begin(x->h, x->dev, x->u, 1, TSR_DOUBLE));
  TSR_CALL(tsr_halo_end(x->h, x->dev, x->u, 1, TSR_DOUBLE));
  return TSR_SUCCESS;
}

static int run_variant(bench_t *B, const tsr_variant_t *v, int required, tsr_report_t *rep) {
  MPI_Comm comm = MPI_COMM_WORLD;
  tsr_result_t row;
  tsr_result_init(&row, "halo", v, NULL, required);
  snprintf(row.precision, sizeof row.precision, "double");
  memcpy(row.size, B->size, sizeof row.size);
  const char *why = tsr_variant_unavailable(v);
  if (!why && v->id == HB_AWARE && !tsr_halo_cuda_aware_available()) why = "MPI is not CUDA-aware";
  if (!why && v->id == HB_NCCL && !tsr_halo_nccl_available()) why = "built without NCCL";
  if (why) {
    tsr_result_notrun(&row, "%s", why);
    return tsr_report_add(rep, &row);
  }
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(comm, v->device, &dev));
  snprintf(row.device, sizeof row.device, "%s", dev.name);
  TSR_CALL(tsr_halo_set_cuda_aware(B->h, v->id == HB_AWARE));
  TSR_CALL(tsr_halo_set_ipc(B->h, v->id == HB_IPC));
  TSR_CALL(tsr_halo_set_nccl(B->h, v->id == HB_NCCL));
  size_t bytes = B->cells * sizeof(double);
  double *u = NULL;
  int rc = tsr_device_malloc(&dev, bytes, (void **)&u);
  fill(&B->part, &B->box, B->host);
  if (!rc) rc = tsr_device_upload(&dev, u, B->host, bytes);
  if (tsr_error_agree(comm, rc)) { /* before the exchange: no rank left in it alone */
    if (u) tsr_device_free(&dev, (void **)&u);
    return tsr_error_code();
  }
  rc = tsr_halo_exchange(B->h, &dev, u, 1, TSR_DOUBLE);
  if (rc == TSR_ERR_UNSUPPORTED && (v->id == HB_IPC || v->id == HB_NCCL)) { /* agreed on every rank */
    tsr_result_notrun(&row, "%s", tsr_error_message());
    tsr_error_clear();
    TSR_CALL(tsr_device_free(&dev, (void **)&u));
    TSR_CALL(tsr_halo_set_ipc(B->h, 0));
    TSR_CALL(tsr_halo_set_nccl(B->h, 0));
    return tsr_report_add(rep, &row);
  }
  TSR_CALL(rc);
  TSR_CALL(tsr_device_sync(&dev));
  row.verify = B->cli.verify ? TSR_VERIFY_PASS : TSR_VERIFY_SKIPPED;
  if (B->cli.verify) {
    TSR_CALL(tsr_device_download(&dev, B->host, u, bytes));
    long bad = count_wrong(&B->part, &B->box, B->host), all = 0;
    TSR_CALL_MPI(MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, comm));
    row.verify = all == 0 ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
    if (all) snprintf(row.note, sizeof row.note, "%ld halo cells differ from their owners", all);
  }
  hb_run_t x = {B->h, &dev, u};
  tsr_run_t sp = {.prog = "tsr-halobench", .label = v->name, .comm = comm, .dev = &dev,
                  .timing = TSR_TIME_WALL, .warmup = B->cli.warmup, .runs = B->cli.runs,
                  .barrier = 1, .quiet = B->cli.quiet, .run = hb_exchange, .ctx = &x};
  tsr_run_result_t res;
  TSR_CALL(tsr_run(&sp, &res));
  row.time = res.time;
  double sent = (double)tsr_halo_send_count(B->h) * sizeof(double), total = 0, most = 0;
  TSR_CALL_MPI(MPI_Allreduce(&sent, &total, 1, MPI_DOUBLE, MPI_SUM, comm));
  TSR_CALL_MPI(MPI_Allreduce(&sent, &most, 1, MPI_DOUBLE, MPI_MAX, comm));
  row.bytes = total;
  row.ceiling = 0; /* the interconnect, not device memory, bounds an exchange */
  snprintf(row.figure, sizeof row.figure, "max %.1f KiB/rank sent", most / 1024.0);
  TSR_CALL(tsr_device_free(&dev, (void **)&u));
  TSR_CALL(tsr_halo_set_cuda_aware(B->h, 0));
  TSR_CALL(tsr_halo_set_ipc(B->h, 0));
  TSR_CALL(tsr_halo_set_nccl(B->h, 0));
  TSR_CALL(tsr_report_add(rep, &row));
  return TSR_SUCCESS;
}

static int bench(int argc, char **argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  bench_t B;
  memset(&B, 0, sizeof B);
  B.size[0] = 512;
  B.size[1] = 512;
  B.size[2] = 64;
  B.halo = 2;
  tsr_cli_init(&B.cli, "tsr-halobench",
               "time the halo exchange (begin+end) of a regular grid decomposed in X-Y");
  B.cli.runs = 100;
  B.cli.options &= ~(unsigned)(TSR_CLI_INPUT | TSR_CLI_OUTPUT | TSR_CLI_ITERATIONS);
  B.cli.warmup = 10;
  const char *size = NULL;
  tsr_opt_t opts[] = {
      {"size", 0, TSR_OPT_STRING, &size, "NXxNYxNZ", "global grid (default 512x512x64)"},
      {"halo", 0, TSR_OPT_INT, &B.halo, "W", "halo width in x and y (default 2)"},
  };
  TSR_CALL(tsr_cli_parse(&B.cli, argc, argv, opts, 2, comm, NULL, 0, NULL));
  if (B.cli.exit_now) return TSR_SUCCESS;
  if (B.cli.list_variants) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) tsr_variant_list(variants, NVAR, stdout);
    return TSR_SUCCESS;
  }
  if (size) TSR_CALL(tsr_parse_size3(size, B.size));
  TSR_CHECK(B.halo >= 1, TSR_ERR_ARG, "option --halo: %d, expected a width >= 1", B.halo);
  /* variants: --variant, else by --device (auto: CUDA when a GPU is visible) */
  tsr_selection_t sel;
  TSR_CALL(tsr_run_select(&B.cli, variants, NVAR, "cpu", "cuda/*", &sel));
  TSR_CALL(tsr_grid_part_init(comm, B.size, B.halo, NULL, &B.part));
  B.box = tsr_grid_part_local(&B.part, 0);
  B.cells = (size_t)(B.box.nx * B.box.ny * B.box.nz);
  TSR_CALL(tsr_memory_check(comm, "tsr-halobench", (double)B.cells * 8, /* host field; and */
                            tsr_device_cuda_count() > 0 ? (double)B.cells * 8 : 0)); /* the GPU's */
  B.host = tsr_malloc(B.cells * sizeof *B.host);
  TSR_CALL(tsr_error_agree(comm, B.host ? TSR_SUCCESS
                                        : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %zu cells", B.cells)));
  TSR_CALL(tsr_halo_create_regular(&B.part, &B.box, &B.h));
  if (!B.cli.quiet && B.part.rank == 0)
    printf("tsr-halobench: %lld x %lld x %lld doubles, halo %d, %d ranks as %d x %d, "
           "%d warm-up + %d timed exchanges\n",
           (long long)B.size[0], (long long)B.size[1], (long long)B.size[2], B.halo, B.part.size,
           B.part.dims[0], B.part.dims[1], B.cli.warmup, B.cli.runs);
  tsr_report_t *rep;
  TSR_CALL(tsr_report_create(&rep));
  for (int i = 0; i < sel.n; i++)
    TSR_CALL(run_variant(&B, &variants[sel.index[i]], sel.required[i], rep));
  TSR_CALL(tsr_report_finish(rep, &B.cli, comm));
  tsr_report_destroy(&rep);
  tsr_selection_free(&sel);
  tsr_halo_destroy(&B.h);
  free(B.host);
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname(argv[0]);
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, bench(argc, argv)));
  MPI_Finalize();
  return EXIT_SUCCESS;
}
