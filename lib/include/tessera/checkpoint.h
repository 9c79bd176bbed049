/* tessera/checkpoint.h: checkpoints an app writes every N iterations and a
 * later run resumes from (--checkpoint-every N, --checkpoint FILE,
 * --restart FILE: tessera/cli.h's TSR_CLI_CHECKPOINT options).
 *
 * A checkpoint is an HDF5 file of kind "checkpoint" (docs/FORMAT.md): root
 * attributes app, iteration (iterations done), match (the options a restart
 * must repeat, "key=value" lines) and provenance; the app's state under
 * /state in GLOBAL numbering (each rank writes its rows or box with
 * hyperslabs through tessera/io.h), so a run on any number of ranks can
 * resume it. It is written to PATH.tmp-XXXXXX and renamed over PATH only
 * once complete: the previous checkpoint stays until then, and a job killed
 * while writing leaves the last complete one (the temporary is removed on
 * SIGINT/SIGTERM).
 *
 * An app using it:
 *   tsr_checkpoint_match_t m;  -- what must match: sizes, mesh, precision
 *   tsr_checkpoint_match_init(&m, "tsr-airfoil");
 *   tsr_checkpoint_match_add(&m, "precision", "%s", prec);
 *   tsr_checkpoint_match_hash(&m, comm, "x", local_hash); -- data identity
 *   restart:  tsr_checkpoint_open(comm, cli.restart, &m, &k0, &f);
 *             read /state with tsr_file_read_rows / tsr_grid_read_box;
 *             tsr_file_close(&f); run iterations [k0, N) from that state
 *   writing:  n = tsr_checkpoint_next(k, N, cli.checkpoint_every) iterations,
 *             then if tsr_checkpoint_due(k, N, every):
 *             tsr_checkpoint_create(comm, cli.checkpoint, &m, k, &prov, &f);
 *             write /state; tsr_checkpoint_commit(&f, rc).
 * Every function is collective over comm; errors are agreed (one line).
 */
#ifndef TESSERA_CHECKPOINT_H
#define TESSERA_CHECKPOINT_H

#include <stdint.h>
#include <mpi.h>
#include "tessera/io.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_CHECKPOINT_KIND "checkpoint"
#define TSR_CHECKPOINT_MAXKEYS 24

/* What a restart must repeat: the app, then key=value pairs (keys without
 * '=' or newlines; values without newlines). */
typedef struct {
  char app[64];
  int n;
  char key[TSR_CHECKPOINT_MAXKEYS][32];
  char value[TSR_CHECKPOINT_MAXKEYS][160];
} tsr_checkpoint_match_t;

void tsr_checkpoint_match_init(tsr_checkpoint_match_t *m, const char *app);
/* Add key = printf(fmt, ...); TSR_ERR_ARG when full or malformed. Local. */
int tsr_checkpoint_match_add(tsr_checkpoint_match_t *m, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A hash of data that no rank holds whole: each rank adds the elements it
 * owns (each element of the global array on exactly one rank) with
 * tsr_checkpoint_hash_add, giving its global index; the sum over the ranks
 * (mod 2^64) does not depend on the rank count or the order.
 * tsr_checkpoint_match_hash reduces it over comm (collective) and adds it as
 * key = 16 hex digits. */
uint64_t tsr_checkpoint_hash_add(uint64_t h, const void *elem, size_t size, int64_t gindex);
int tsr_checkpoint_match_hash(tsr_checkpoint_match_t *m, MPI_Comm comm, const char *key,
                              uint64_t local);

/* Iterations to run from iteration k (of n in all) before the next
 * checkpoint: up to the next multiple of every (every <= 0: to n). */
int64_t tsr_checkpoint_next(int64_t k, int64_t n, int64_t every);
/* 1 when a checkpoint is written after iteration k: every > 0, k > 0 and k
 * a multiple of every. */
int tsr_checkpoint_due(int64_t k, int64_t every);

/* Start checkpoint `path` at iteration `iteration` (a temporary; root
 * attributes kind, app, iteration, match, provenance (p may be NULL)). The
 * app then writes /state/... and calls tsr_checkpoint_commit. */
int tsr_checkpoint_create(MPI_Comm comm, const char *path, const tsr_checkpoint_match_t *m,
                          int64_t iteration, const tsr_provenance_t *p, tsr_file_t **out);
/* rc == 0: close and rename over path (the previous checkpoint is replaced
 * only now); rc != 0: discard the temporary. Returns rc or the close's
 * error. */
int tsr_checkpoint_commit(tsr_file_t **f, int rc);

/* Open checkpoint `path` for a restart: a missing or damaged file, a file
 * of another kind, another app's checkpoint, and every key of m whose value
 * differs (or is missing) are one agreed error line naming the file, e.g.
 * "--restart ck.h5: written for precision=float, this run has
 * precision=double". *iteration: the iterations it holds. */
int tsr_checkpoint_open(MPI_Comm comm, const char *path, const tsr_checkpoint_match_t *m,
                        int64_t *iteration, tsr_file_t **out);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_CHECKPOINT_H */
