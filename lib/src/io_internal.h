/* io_internal.h: what the io_*.c files share (not installed). */
#ifndef TSR_IO_INTERNAL_H
#define TSR_IO_INTERNAL_H

#include <limits.h>
#include <stdio.h>
#include <hdf5.h>
#include "tessera/io.h"
#include "tessera/error.h"
#include "tessera/fault.h"
#include "tessera/memory.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct tsr_file {
  hid_t id;
  MPI_Comm comm; /* duplicated; freed at close */
  int rank, size;
  int writing;
  char path[PATH_MAX]; /* final path (as the user gave it) */
  char tmp[PATH_MAX];  /* temporary path while writing     */
};

/* HDF5 memory type of a tsr_dtype_t. */
hid_t tsr__h5_type(tsr_dtype_t t);
/* Collective dataset-transfer property list (H5P_DEFAULT on error). */
hid_t tsr__h5_dxpl(void);
/* Create dataset `name` of type `type` with `rank` dims and write this rank's
 * rows [first, first + count) of dim 0 (the other dims whole) from buf.
 * Collective. attributes: none (callers add them). */
int tsr__write_rows(tsr_file_t *f, const char *name, int rank, const tsr_idx_t dims[3],
                    tsr_dtype_t type, tsr_idx_t first, tsr_idx_t count, const void *buf);
/* Reading a block of any rank-1..3 dataset whose dim 0 is split into rows. */
int tsr__read_rows_nd(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                      tsr_dtype_t type, void *buf);
/* Attributes (collective when writing) */
int tsr__attr_write_string(tsr_file_t *f, hid_t obj, const char *name, const char *value);
int tsr__attr_write_int(tsr_file_t *f, hid_t obj, const char *name, const int64_t *v, int n,
                        tsr_dtype_t type);
/* Every value of data [n] (float or double; other types pass) finite, else
 * TSR_ERR_FORMAT naming the dataset and the element (first + index). Local. */
int tsr__check_finite(tsr_file_t *f, const char *name, tsr_dtype_t type, const void *data,
                      tsr_idx_t n, tsr_idx_t first);
/* Index of the first NaN or Inf in data [n] (its value in *v), or -1; its
 * name ("NaN", "+Inf", "-Inf"). */
tsr_idx_t tsr__first_nonfinite(tsr_dtype_t type, const void *data, tsr_idx_t n, double *v);
const char *tsr__nonfinite_name(double v);
/* Local existence test of a link (no error raised). */
int tsr__exists(tsr_file_t *f, const char *name);

/* XDMF sidecars (io_xdmf.c), written by one rank. begin: creates the
 * temporary file beside the sidecar of h5path (its final name in xmf, the
 * temporary one in tmp, both of n bytes) and writes the XML header up to
 * <Domain>; NULL with errno set on failure. end: closes </Domain> and the
 * file and renames it into place; TSR_ERR_IO naming xmf on failure. */
FILE *tsr__xdmf_begin(const char *h5path, char *xmf, char *tmp, size_t n);
int tsr__xdmf_end(FILE *fp, const char *xmf, const char *tmp);
/* The file name part of p, as XDMF refers to the HDF5 file relative to
 * itself; XDMF's NumberType ("Int", "Float") of t. */
const char *tsr__xdmf_base(const char *p);
const char *tsr__xdmf_num(tsr_dtype_t t);

#endif
