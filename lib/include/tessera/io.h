/* tessera/io.h: parallel HDF5 files in Tessera's schema (docs/FORMAT.md is the
 * contract): regular grids, X-Y-unstructured grids with neighbour tables,
 * unstructured meshes in OP2's layout, provenance, XDMF sidecars.
 *
 * Every function taking a tsr_file_t (or a communicator) is COLLECTIVE over
 * the file's communicator: all ranks call it with the same arguments except
 * for their own data block, and all ranks return the same error code and
 * message (errors are agreed with tsr_error_agree), so nothing hangs.
 * Each rank reads and writes only its own contiguous block of rows
 * (tsr_mesh_block_rows for meshes, a block of z-planes for grids) or its
 * own box of a decomposed grid through hyperslabs with collective
 * transfers.
 *
 * Writers write PATH.tmp-XXXXXX in the same directory; tsr_file_close renames
 * it to PATH once everything is written; tsr_file_discard removes it.
 */
#ifndef TESSERA_IO_H
#define TESSERA_IO_H

#include <mpi.h>
#include "tessera/common.h"
#include "tessera/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_SCHEMA_VERSION 1

typedef struct tsr_file tsr_file_t;

/* ---- files (io_file.c) ------------------------------------------------- */
/* Open an existing file read-only. A missing file, a file that is not HDF5
 * and a damaged (e.g. truncated) file each get their own message. */
int tsr_file_open(MPI_Comm comm, const char *path, tsr_file_t **out);
/* Temporary outputs (local, not collective). tsr_tmp_create makes
 * PATH.tmp-XXXXXX with mode 0666 & ~umask (as PATH itself would get) and
 * registers it: on SIGINT or SIGTERM every registered temporary is removed
 * before the signal ends the process as before (handlers are installed with
 * the first temporary; an ignored signal stays ignored), and tsr_abort
 * removes them too. Returns an open descriptor, or -1 with errno set.
 * tsr_tmp_forget unregisters one once it is renamed or removed. */
int tsr_tmp_create(const char *path, char *tmp, size_t n);
void tsr_tmp_register(const char *tmp);
void tsr_tmp_forget(const char *tmp);
/* Check an output path before any computation: rank 0 creates and removes
 * a temporary next to it, so a missing or read-only directory (or a path
 * that is a directory) is one agreed error naming the option `flag` ("-o")
 * and the path. NULL path: nothing to check. Collective over comm. */
int tsr_output_check(MPI_Comm comm, const char *flag, const char *path);
/* Create PATH.tmp-XXXXXX for writing (PATH appears only at tsr_file_close). */
int tsr_file_create(MPI_Comm comm, const char *path, tsr_file_t **out);
/* Close; a file being written is renamed to its final name (rank 0, after a
 * barrier). If the close or the rename fails the temporary is removed. */
int tsr_file_close(tsr_file_t **f);
/* Close without keeping anything: a file being written is removed. */
int tsr_file_discard(tsr_file_t **f);
const char *tsr_file_path(const tsr_file_t *f); /* the final path */
MPI_Comm tsr_file_comm(const tsr_file_t *f);

/* The schema kind: the root attribute "kind" ("regular-grid", "xy-grid",
 * "op2-mesh"), or "op2-mesh" for files without one (OP2's own files). */
int tsr_file_kind(tsr_file_t *f, char *kind, size_t n);

/* Provenance written as root attributes with the schema version. Strings
 * may be NULL (written as ""); device NULL or "": the CPU, spelled as
 * tsr_cpu_device_name does. The release and commit, date, host and the
 * MPI, HDF5, CUDA and compiler versions are filled in (tessera/provenance.h,
 * rank 0's for every rank; docs/FORMAT.md lists the attributes). */
typedef struct {
  const char *app;          /* "tsr-airfoil"                          */
  const char *variant;      /* "cuda/unstr/zcurve/idxvar-shared"      */
  const char *device;       /* "NVIDIA H100 80GB HBM3", "CPU (16 threads)" */
  const char *command_line; /* see tsr_provenance_command_line        */
  int ranks;                /* MPI ranks of the run (0: comm size)    */
} tsr_provenance_t;
int tsr_file_write_provenance(tsr_file_t *f, const tsr_provenance_t *p);
/* argv joined with spaces into buf (truncated to n - 1 characters). */
void tsr_provenance_command_line(int argc, char **argv, char *buf, size_t n);

/* Root (obj NULL or "/") or dataset string / integer attributes. A missing
 * attribute is TSR_ERR_FORMAT. Not for hot paths. */
int tsr_file_attr_string(tsr_file_t *f, const char *obj, const char *name, char *buf, size_t n);
int tsr_file_attr_int(tsr_file_t *f, const char *obj, const char *name, int64_t *val, int count);
int tsr_file_has_attr(tsr_file_t *f, const char *obj, const char *name); /* 1/0 */
/* 1 when the file has an object (dataset or group) at path `name`, else 0. */
int tsr_file_has(tsr_file_t *f, const char *name);

/* Shape of a dataset: rank (1..3) and dims; class TSR_INT64 for any integer
 * type, TSR_DOUBLE for any float type (file element type in *type). */
int tsr_file_dataset_shape(tsr_file_t *f, const char *name, int *rank, tsr_idx_t dims[3],
                           tsr_dtype_t *type);
/* Rows [first, first + count) of a dataset of rank 1 or 2 ([rows][cols],
 * rank 1 = one column) into buf [count][cols] of type `type`, converting
 * where lossless (integer widening, integer -> double, double -> integer only
 * if every value read is integral and in range). Collective; count may be 0. */
int tsr_file_read_rows(tsr_file_t *f, const char *name, tsr_idx_t first, tsr_idx_t count,
                       tsr_dtype_t type, void *buf);
/* Create dataset `name` (and missing groups on its path) of rank 1..3 with
 * dims[0..rank), element type `type` (TSR_INT32, TSR_INT64, TSR_FLOAT or
 * TSR_DOUBLE; the file keeps it), and write this rank's rows [first, first +
 * count) of dim 0 from buf [count][dims[1]][dims[2]]. Collective on a file
 * being written; count may be 0. */
int tsr_file_write_rows(tsr_file_t *f, const char *name, int rank, const tsr_idx_t dims[3],
                        tsr_dtype_t type, tsr_idx_t first, tsr_idx_t count, const void *buf);
/* Root (obj NULL or "/") or dataset attributes of a file being written: a
 * string, or `count` integers stored as int64. Collective, same arguments. */
int tsr_file_write_attr_string(tsr_file_t *f, const char *obj, const char *name,
                               const char *value);
int tsr_file_write_attr_int(tsr_file_t *f, const char *obj, const char *name, const int64_t *val,
                            int count);

/* ---- unstructured meshes in OP2's layout (io_mesh.c) ------------------ */
typedef struct {
  const char *name;
  const char *from, *to; /* set names */
} tsr_io_map_t;
typedef struct {
  const char *name;
  const char *set;  /* set name */
  tsr_dtype_t type; /* type in memory (converted as tsr_file_read_rows) */
} tsr_io_dat_t;
/* What to load; sets named by maps and dats are loaded too. Objects in the
 * file that are not listed are ignored. */
typedef struct {
  int nsets;
  const char *const *sets;
  int nmaps;
  const tsr_io_map_t *maps;
  int ndats;
  const tsr_io_dat_t *dats;
  int nconsts;
  const char *const *consts;
} tsr_mesh_spec_t;

/* Read a mesh: on one rank a SERIAL mesh, on several a BLOCK mesh (each rank
 * holds rows tsr_mesh_block_rows(global, size, rank) of every set; maps keep
 * global targets). Checks shapes, types, set sizes (> 0) and map ranges. */
int tsr_mesh_read(MPI_Comm comm, const char *path, const tsr_mesh_spec_t *spec,
                  tsr_mesh_t **out);
int tsr_mesh_read_file(tsr_file_t *f, const tsr_mesh_spec_t *spec, tsr_mesh_t **out);
/* Write every set, map, dat and constant of a SERIAL mesh (each rank holds
 * the whole mesh and writes its block) or a BLOCK mesh (each rank writes its
 * rows), exactly as OP2 lays them out, plus the Tessera attributes (from_set,
 * to_set, set, root kind) and provenance (p may be NULL). Temp-then-rename;
 * map targets are checked before they are written. */
int tsr_mesh_write(MPI_Comm comm, const char *path, const tsr_mesh_t *mesh,
                   const tsr_provenance_t *p);
int tsr_mesh_write_file(tsr_file_t *f, const tsr_mesh_t *mesh);

/* Table of contents of a mesh file (any OP2 file): every root dataset
 * classified by OP2's conventions (docs/FORMAT.md); set names for maps and
 * dats come from Tessera's attributes or, in OP2 files, from the unique set
 * whose size equals the row count (NULL when ambiguous). Strings are owned
 * by the toc; free with tsr_mesh_toc_free. */
typedef struct {
  int nsets, nmaps, ndats, nconsts;
  char (*sets)[TSR_NAME_MAX];
  tsr_idx_t *set_size;
  tsr_io_map_t *maps;
  tsr_io_dat_t *dats; /* type: the file's type */
  char (*consts)[TSR_NAME_MAX];
  char *strings_, *names_; /* storage of the names */
} tsr_mesh_toc_t;
int tsr_mesh_toc(tsr_file_t *f, tsr_mesh_toc_t *toc);
void tsr_mesh_toc_free(tsr_mesh_toc_t *toc);

/* ---- regular and X-Y-unstructured grids (io_grid.c) -------------------- */
typedef struct {
  tsr_idx_t nx, ny, nz; /* points of the domain including halo */
  int halo[3];          /* halo width in x, y, z                */
} tsr_grid_t;
/* X-Y-unstructured: nx*ny plane cells in a storage order, m neighbour
 * relations of depth `depth` (m == 2 depth (depth + 1)), regular in z. */
typedef struct {
  tsr_idx_t nx, ny, nz;
  int depth;
  int m;
} tsr_xygrid_t;

/* Root attributes kind="regular-grid", nx, ny, nz, halo[3]. */
int tsr_grid_write_header(tsr_file_t *f, const tsr_grid_t *g);
int tsr_grid_read_header(tsr_file_t *f, tsr_grid_t *g);
/* /fields/NAME [nz][ny][nx]: this rank's planes [z0, z0 + nzl), data
 * [nzl][ny][nx] of type (TSR_FLOAT or TSR_DOUBLE; the file keeps it). */
int tsr_grid_write_field(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                         tsr_idx_t z0, tsr_idx_t nzl, const void *data);
int tsr_grid_read_field(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                        tsr_idx_t z0, tsr_idx_t nzl, void *data);
/* A decomposed grid, each rank its own box [lo, lo + n) (x, y, z; n may
 * hold zeros), data [n2][n1][n0] (io_box.c). name: a field (/fields/NAME)
 * or, when it holds '/', a dataset path ("/variants/v0/out"). The write
 * creates the dataset [nz][ny][nx] of type (groups on the path too). */
int tsr_grid_write_box(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                       const tsr_idx_t lo[3], const tsr_idx_t n[3], const void *data);
int tsr_grid_read_box(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                      const tsr_idx_t lo[3], const tsr_idx_t n[3], void *data);
/* Names of the datasets in /fields (up to max, each < TSR_NAME_MAX). */
int tsr_grid_fields(tsr_file_t *f, char (*names)[TSR_NAME_MAX], int max, int *count);

/* Root attributes kind="xy-grid", nx, ny, nz, depth, m; /order [ny*nx] int64
 * (storage index of plane cell (x, y) at y*nx + x: a permutation), /neigh
 * [m][nx*ny] int32 relative offsets in storage order (0 = none; s + off
 * within [0, nx*ny)). Every rank passes the whole tables; the ranks write
 * row blocks of them. Readers check the permutation and the offsets. */
int tsr_xygrid_write(tsr_file_t *f, const tsr_xygrid_t *g, const int64_t *order,
                     const int32_t *neigh);
int tsr_xygrid_read_header(tsr_file_t *f, tsr_xygrid_t *g);
int tsr_xygrid_read_tables(tsr_file_t *f, const tsr_xygrid_t *g, int64_t *order,
                           int32_t *neigh);
/* /fields/NAME [nz][nx*ny] in storage order; planes [z0, z0 + nzl). */
int tsr_xygrid_write_field(tsr_file_t *f, const tsr_xygrid_t *g, const char *name,
                           tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, const void *data);
int tsr_xygrid_read_field(tsr_file_t *f, const tsr_xygrid_t *g, const char *name,
                          tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, void *data);

/* Every level of the stored cells sidx[0..n) (storage indices, any order)
 * of /fields/NAME: data[z*n + i]. Reads, level by level, only the range of
 * stored cells the rank needs (io_box.c). */
int tsr_xygrid_read_cells(tsr_file_t *f, const tsr_xygrid_t *g, const char *name, tsr_dtype_t type,
                          tsr_idx_t n, const int64_t *sidx, void *data);

/* ---- XDMF sidecars (io_xdmf.c) ----------------------------------------- */
/* Path of the sidecar of h5path: "a/b.h5" -> "a/b.xmf", else h5path + ".xmf". */
void tsr_xdmf_path(const char *h5path, char *buf, size_t n);
/* 3DCoRectMesh over the grid (spacing 1, origin 0) with every /fields
 * dataset as an attribute; cell_data: fields are cell-centred (the mesh
 * has one more node per direction), else node-centred. Written by rank 0,
 * temp-then-rename; collective. */
int tsr_xdmf_write_grid(MPI_Comm comm, const char *h5path, const tsr_grid_t *g,
                        const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                        int nfields, int cell_data);
/* Quadrilateral mesh: topology from map `cellmap` (dim 4), geometry from the
 * node dat `coords` (dim 2, double), every dat on the cell set as a
 * cell-centred attribute (dim 1 scalar, else vector / matrix). */
int tsr_xdmf_write_quads(MPI_Comm comm, const char *h5path, const tsr_mesh_t *mesh,
                         const char *cellmap, const char *coords);
/* X-Y-unstructured grid: tsr_xygrid_write_xdmf_tables writes into f (being
 * written) what the sidecar needs beside the fields: /xdmf/nodes
 * [(ny+1)*(nx+1)][2] double, the plane's cell corners (x, y), and
 * /xdmf/quads [nx*ny][4] int32, the corners of each plane cell in storage
 * order (order as for tsr_xygrid_write). Collective. tsr_xdmf_write_xygrid
 * then writes the sidecar: a temporal collection of the nz levels (ParaView
 * steps through z with its time control), each level a Quadrilateral mesh
 * of the plane with every field's level as a cell-centred attribute. */
int tsr_xygrid_write_xdmf_tables(tsr_file_t *f, const tsr_xygrid_t *g, const int64_t *order);
int tsr_xdmf_write_xygrid(MPI_Comm comm, const char *h5path, const tsr_xygrid_t *g,
                          const char (*fields)[TSR_NAME_MAX], const tsr_dtype_t *types,
                          int nfields);
/* Point clouds (Polyvertex), one grid each, in one sidecar: n points whose
 * coordinates are the dataset `coords` ([n][dim], dim >= 2; the first three
 * columns when dim > 3), with node-centred scalar attributes (datasets [n]).
 * Dataset names are paths in the file ("/points"). */
typedef struct {
  const char *name;            /* the grid's name in the viewer            */
  const char *coords;          /* dataset [n][dim]                         */
  tsr_dtype_t coords_type;     /* TSR_DOUBLE or TSR_FLOAT                  */
  tsr_idx_t n;
  int dim;
  int nattrs;
  const char *const *attrs;    /* datasets [n]                             */
  const tsr_dtype_t *types;    /* their types                              */
} tsr_xdmf_points_t;
int tsr_xdmf_write_points(MPI_Comm comm, const char *h5path, const tsr_xdmf_points_t *clouds,
                          int nclouds);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_IO_H */
