/* tessera/error.h: error codes, call/check macros with file:line traces,
 * collective agreement on errors, and the abort used by main().
 *
 * Every fallible function returns int (0 = TSR_SUCCESS). Inside such a
 * function:
 *   TSR_CALL(expr)                 propagate a non-zero code, adding file:line
 *   TSR_CHECK(cond, code, fmt,...) raise `code` with a message a user can act on
 *   TSR_CALL_MPI(expr)             MPI call; message from MPI_Error_string
 *   TSR_CALL_H5(expr)              HDF5 call (negative = failure)
 * In main():
 *   TSR_CALL_ABORT(comm, expr)     on failure print the error once and end
 *                                  every rank of comm (never hangs).
 */
#ifndef TESSERA_ERROR_H
#define TESSERA_ERROR_H

#include <stdio.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, "description"): the one table of error codes. */
#define TSR_ERROR_TABLE(X)                                   \
  X(SUCCESS, "success")                                      \
  X(ARG, "invalid argument")                                 \
  X(ALLOC, "out of memory")                                  \
  X(IO, "I/O error")                                         \
  X(HDF5, "HDF5 error")                                      \
  X(FORMAT, "malformed input")                               \
  X(RANGE, "index out of range")                             \
  X(MPI, "MPI error")                                        \
  X(CUDA, "CUDA error")                                      \
  X(NOCUDA, "built without CUDA")                            \
  X(NODEVICE, "no GPU device available")                     \
  X(UNSUPPORTED, "not supported")                            \
  X(PARTITION, "partitioning failed")                        \
  X(VERIFY, "verification failed")                           \
  X(INTERNAL, "internal error")

typedef enum {
#define TSR__ERR_ENUM(name, str) TSR_ERR_##name,
  TSR_ERROR_TABLE(TSR__ERR_ENUM)
#undef TSR__ERR_ENUM
  TSR_ERR_COUNT_
} tsr_err_t;

#define TSR_SUCCESS TSR_ERR_SUCCESS

/* Description of an error code ("invalid argument"); never NULL. */
const char *tsr_strerror(int code);
/* Name of an error code ("ARG"); never NULL. */
const char *tsr_errname(int code);

/* Record a new error (message formatted printf-style) raised at file:line.
 * Returns code so it can be used as `return tsr_error_raise(...)`. */
int tsr_error_raise(int code, const char *file, int line, const char *func,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Add a trace frame to the current error as it climbs the stack. */
int tsr_error_trace(int code, const char *file, int line, const char *func);

/* The current error's message (empty if none) and code; clear it. */
const char *tsr_error_message(void);
int tsr_error_code(void);
void tsr_error_clear(void);

/* Print the current error: one line "PROG: error: MESSAGE" and, when the
 * environment variable TSR_TRACE is set (non-empty, not "0"), the trace. */
void tsr_error_print(FILE *f);
/* Program name used as the prefix of error lines (default "tessera"). */
void tsr_error_set_progname(const char *name);

/* Collective agreement: every rank of comm passes its local code; all ranks
 * return the same code (that of the lowest failing rank whose error is its
 * own, not one learnt from another rank's failure in a halo exchange) and
 * hold that rank's message, so the error can be reported once by rank 0 and
 * every rank can unwind. Collective: all ranks of comm must call it. */
int tsr_error_agree(MPI_Comm comm, int code);

/* Report and end. If the error is collective (came through tsr_error_agree)
 * rank 0 prints it and every rank finalises MPI and exits with status 1.
 * Otherwise the failing rank prints it (prefixed with its rank when comm has
 * several) and calls MPI_Abort so that no other rank hangs. Never returns. */
void tsr_abort(MPI_Comm comm, int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Set when the current error came through tsr_error_agree. */
int tsr_error_is_collective(void);

#define TSR_CALL(expr)                                                     \
  do {                                                                     \
    int tsr__e = (expr);                                                   \
    if (tsr__e != 0)                                                       \
      return tsr_error_trace(tsr__e, __FILE__, __LINE__, __func__);        \
  } while (0)

#define TSR_CHECK(cond, code, ...)                                         \
  do {                                                                     \
    if (!(cond))                                                           \
      return tsr_error_raise((code), __FILE__, __LINE__, __func__,         \
                             __VA_ARGS__);                                 \
  } while (0)

#define TSR_RAISE(code, ...)                                               \
  tsr_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__)

int tsr__error_mpi(int mpierr, const char *expr, const char *file, int line,
                   const char *func);
#define TSR_CALL_MPI(expr)                                                 \
  do {                                                                     \
    int tsr__m = (expr);                                                   \
    if (tsr__m != MPI_SUCCESS)                                             \
      return tsr__error_mpi(tsr__m, #expr, __FILE__, __LINE__, __func__);  \
  } while (0)

#define TSR_CALL_H5(expr)                                                  \
  do {                                                                     \
    if ((long long)(expr) < 0)                                             \
      return tsr_error_raise(TSR_ERR_HDF5, __FILE__, __LINE__, __func__,   \
                             "HDF5 call failed: %s", #expr);               \
  } while (0)

/* In main(): run expr, and on failure report and end every rank. */
#define TSR_CALL_ABORT(comm, expr)                                         \
  do {                                                                     \
    int tsr__a = (expr);                                                   \
    if (tsr__a != 0) {                                                     \
      tsr_error_trace(tsr__a, __FILE__, __LINE__, __func__);               \
      tsr_abort((comm), tsr__a);                                           \
    }                                                                      \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_ERROR_H */
