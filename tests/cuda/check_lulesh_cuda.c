/* tests/cuda/check_lulesh_cuda.c: the CUDA time step of LULESH
 * (kernels/lulesh/lulesh_cuda.cu) against the serial CPU reference
 * (lulesh_cpu.c). Skips without a GPU.
 *
 * test_stages: on Sedov meshes of edge 4 and 5 with every node moved by up
 * to 3 % of the element size, random velocities, energies, pressures, q,
 * sound speeds and relative volumes, each stage runs on the CPU and on the
 * GPU from the same input (the CPU's state uploaded before each stage):
 * corner forces, force gather, node update, LagrangeElements (kinematics, Q
 * gradients, monotonic Q, EOS per region with -c 1 repetitions, sound speed,
 * volume update), time constraints; every array a stage writes is compared.
 * test_runs: -s 5 to completion (72 cycles) and -s 10 -i 10 on the GPU
 * against the CPU: cycles, time, e(0), sum of e, the final e array (and
 * -s 10 -i 10's e(0) against LULESH's).
 * test_volume_error: an element driven inside out gives VolumeError on
 * both, naming the same element.
 * test_assemblies: the node forces fx, fy, fz of every assembly (GATHER,
 * ATOMIC, COLOUR, TWOLEVEL with uniform and with uneven blocks) against the
 * CPU's corner forces + gather, on perturbed -s 4 and -s 5 meshes, as
 * generated and with elements and nodes randomly renumbered, at 32 and 128
 * threads per block (several blocks, block colours and thread colours),
 * each without and (not GATHER) with FMA contraction.
 * test_fused_stages: the fused kernels (node gather + update; monotonic Q +
 * EOS + sound speed + volume update + dt minima per region) against the CPU
 * stages from the same uploaded input: bit for bit (0 ulp).
 * test_variant_runs: whole runs of every assembly, fused and not, exact and
 * (not GATHER) with FMA contraction, on the
 * generated -s 5 mesh and on a randomly renumbered copy, against the CPU on
 * the generated mesh (energies compared element by element through the
 * renumbering): -s 5 to completion (72 cycles) and -s 6 -i 30.
 *
 * Tolerances. Both sides run the same lulesh.h arithmetic without FMA
 * contraction (-ffp-contract=off, nvcc --fmad=false); + - * / and sqrt are
 * correctly rounded on both, so every stage must match bit for bit (0 ulp),
 * except the hourglass forces: their coefficient divides by cbrt(volume),
 * and CUDA's cbrt and glibc's are each within 1 ulp of the cube root, not
 * always the same double (glibc 2.36's cbrt is 1 ulp from the correctly
 * rounded cube root for about half of the doubles in [1e-3, 8]). That scales an element's 24 hourglass forces
 * alike, so they are held to TOL_HG = 1e-13 relative to the array's largest
 * magnitude. Whole runs carry those differences along: TOL_RUN = 1e-12
 * relative on time, e(0), sum e and the e array (normwise); cycle counts
 * must be equal (on the CPU, scaling one node's force by 1 + 1e-15 every
 * cycle moves -s 5's final energies by 7e-16 relative: the runs do not
 * amplify such differences much). Every comparison with a difference prints it as a TAP
 * comment ("# ...").
 * ATOMIC, COLOUR and TWOLEVEL add each element's stress + hourglass corner
 * force (one rounding) into the node in an order of their own, where the CPU
 * sums a node's stress forces, then adds its hourglass forces: each node's
 * sum of at most 16 terms differs by a few roundings of its terms, so they
 * are held to TOL_ASM = 1e-13 relative to the largest corner force |fs| +
 * |fh| of the mesh (16 roundings are 2e-15 of it; cbrt adds 1e-16).
 * Their whole runs meet TOL_RUN like the GATHER path's: ATOMIC's order
 * changes from run to run, so its bits do (not reproducible), its energies
 * not beyond TOL_RUN.
 * With FMA contraction (lulesh_cuda_opts_t.fma: the element forces and the
 * fused monotonic Q + EOS built with nvcc --fmad=true) each a * b + c is
 * rounded once instead of twice, so each corner force moves by a few ulp of
 * the products it sums, and differences of nearly equal terms (the
 * hourglass base vectors made orthogonal to the linear field) keep that
 * absolute error: TOL_FMA = 1e-12 of the largest corner force for the node
 * forces, and TOL_RUN for whole runs (the runs damp such differences, as
 * above). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsr_check.h"
#include "lulesh_check.h"

#ifndef TSR_HAVE_CUDA
int main(void) { return tsr_test_skip_all("no CUDA device (built without CUDA)"); }
#else
#include "kernels/lulesh/lulesh_cuda.h"

#define TOL_HG 1e-13
#define TOL_RUN 1e-12
#define TOL_ASM 1e-13
#define TOL_FMA 1e-12

/* Distance in units in the last place (UINT64_MAX if one is NaN). */
static uint64_t ulps(double a, double b) {
  if (a == b) return 0;
  if (isnan(a) || isnan(b)) return UINT64_MAX;
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? (uint64_t)ia - (uint64_t)ib : (uint64_t)ib - (uint64_t)ia;
}

/* got against ref[n]: tol 0 demands identical doubles, else the largest
 * difference relative to max |ref| at most tol (and no NaN). */
static void cmp(const char *stage, const char *name, const double *ref, const double *got,
                int64_t n, double tol) {
  double amax = 0.0, dmax = 0.0;
  uint64_t umax = 0;
  int64_t at = 0;
  for (int64_t i = 0; i < n; i++) {
    amax = fmax(amax, fabs(ref[i]));
    uint64_t u = ulps(ref[i], got[i]);
    if (u > umax) umax = u, at = i;
    double d = fabs(ref[i] - got[i]);
    if (d > dmax) dmax = d;
  }
  double rel = amax > 0.0 ? dmax / amax : dmax;
  int ok = tol == 0.0 ? umax == 0 : (umax != UINT64_MAX && rel <= tol);
  if (umax)
    printf("# %s: %s: largest difference %llu ulp at %lld, %.3e relative to max |CPU| "
           "(tolerance %g relative; 0: bit for bit)\n",
           stage, name, (unsigned long long)umax, (long long)at, rel, tol);
  ck_assert_msg(ok, "%s: %s[%lld] = %.17g on the GPU, %.17g on the CPU (%llu ulp; largest "
                "difference %.3e relative to max |CPU|, tolerance %g)",
                stage, name, (long long)at, got[at], ref[at], (unsigned long long)umax, rel, tol);
}

static void cmp_scalar(const char *what, double ref, double got, double tol) {
  double rel = ref != 0.0 ? fabs(got / ref - 1.0) : fabs(got);
  if (got != ref)
    printf("# %s: GPU %.17g, CPU %.17g, relative difference %.3e\n", what, got, ref, rel);
  ck_assert_msg(tol == 0.0 ? got == ref : rel <= tol,
                "%s: GPU %.17g, CPU %.17g (relative difference %.3e, tolerance %g)", what, got,
                ref, rel, tol);
}

/* The Sedov mesh of edge nx, nodes moved by up to 3 % of the element size
 * (same seed: same mesh), and a state on it with random fields. */
static void perturbed_mesh(int nx, lulesh_mesh_t *m) {
  unsigned long long seed = 0x5eed0000ULL + (unsigned long long)nx;
  ck_tsr(lulesh_mesh_sedov(m, nx, 11, 1));
  const double h = 1.125 / nx;
  for (int32_t n = 0; n < m->num_node; n++) {
    m->x[n] += tsr_test_rand(&seed, -0.03, 0.03) * h;
    m->y[n] += tsr_test_rand(&seed, -0.03, 0.03) * h;
    m->z[n] += tsr_test_rand(&seed, -0.03, 0.03) * h;
  }
}

static void perturbed_state(const lulesh_mesh_t *m, lulesh_state_t *s) {
  unsigned long long seed = 0xf1e1dULL;
  ck_tsr(lulesh_state_init(s, m, 1));
  for (int32_t n = 0; n < s->num_node; n++) {
    s->xd[n] = tsr_test_rand(&seed, -1.0, 1.0);
    s->yd[n] = tsr_test_rand(&seed, -1.0, 1.0);
    s->zd[n] = tsr_test_rand(&seed, -1.0, 1.0);
  }
  for (int32_t e = 0; e < s->num_elem; e++) {
    s->e[e] = tsr_test_rand(&seed, 0.0, 1.0e3);
    s->p[e] = tsr_test_rand(&seed, 0.0, 10.0);
    s->q[e] = tsr_test_rand(&seed, 0.0, 1.0);
    s->ss[e] = tsr_test_rand(&seed, 0.1, 10.0);
    s->v[e] = tsr_test_rand(&seed, 0.95, 1.05);
  }
  s->deltatime = 0.01 * 1.125 / m->edge;
}

#define CMP(st, f, n, tol) cmp(st, #f, c.f, g.f, n, tol)

/* The time constraints (both set: the state has moving elements), bit for
 * bit. */
static void cmp_dt(const char *st, const lulesh_state_t *c, const lulesh_state_t *g) {
  cmp_scalar(st, c->dtcourant, g->dtcourant, 0.0);
  cmp_scalar(st, c->dthydro, g->dthydro, 0.0);
  ck_assert(c->dtcourant < 1.0e+20 && c->dthydro < 1.0e+20);
}

/* The node forces (gather), bit for bit. */
static void cmp_forces(const char *st, const lulesh_state_t *c, const lulesh_state_t *g) {
  cmp(st, "fx", c->fx, g->fx, c->num_node, 0.0);
  cmp(st, "fy", c->fy, g->fy, c->num_node, 0.0);
  cmp(st, "fz", c->fz, g->fz, c->num_node, 0.0);
}

/* The node update's positions and velocities, bit for bit. */
static void cmp_motion(const char *st, const lulesh_state_t *c, const lulesh_state_t *g) {
  const double *ref[6] = {c->x, c->y, c->z, c->xd, c->yd, c->zd};
  const double *got[6] = {g->x, g->y, g->z, g->xd, g->yd, g->zd};
  static const char *const name[6] = {"x", "y", "z", "xd", "yd", "zd"};
  for (int k = 0; k < 6; k++) cmp(st, name[k], ref[k], got[k], c->num_node, 0.0);
}

static void stages(int nx) {
  lulesh_mesh_t m;
  lulesh_state_t c, g; /* CPU; the GPU's results copied back */
  lulesh_cuda_t d;
  perturbed_mesh(nx, &m);
  perturbed_state(&m, &c);
  perturbed_state(&m, &g);
  ck_tsr(lulesh_cuda_init(&d, &c, 0));
  const int64_t ne = c.num_elem, nc = 8 * ne;
  char st[64];
  for (int round = 0; round < 2; round++) {
    snprintf(st, sizeof st, "-s %d round %d corner forces", nx, round);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    ck_tsr(lulesh_corner_forces(&c));
    ck_tsr(lulesh_cuda_corner_forces(&d));
    ck_tsr(lulesh_cuda_check(&d, &g));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    for (int k = 0; k < 3; k++) {
      cmp(st, "fs", c.fs[k], g.fs[k], nc, 0.0);
      cmp(st, "fh", c.fh[k], g.fh[k], nc, TOL_HG);
    }

    snprintf(st, sizeof st, "-s %d round %d force gather", nx, round);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    lulesh_gather_forces(&c);
    ck_tsr(lulesh_cuda_gather_forces(&d));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    cmp_forces(st, &c, &g);

    snprintf(st, sizeof st, "-s %d round %d node update", nx, round);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    lulesh_update_nodes(&c);
    ck_tsr(lulesh_cuda_update_nodes(&d, c.deltatime));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    cmp_motion(st, &c, &g);

    snprintf(st, sizeof st, "-s %d round %d LagrangeElements", nx, round);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    ck_tsr(lulesh_lagrange_elements(&c));
    ck_tsr(lulesh_cuda_lagrange_elements(&d, c.deltatime));
    ck_tsr(lulesh_cuda_check(&d, &g));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    CMP(st, vnew, ne, 0.0);
    CMP(st, delv, ne, 0.0);
    CMP(st, arealg, ne, 0.0);
    CMP(st, vdov, ne, 0.0);
    for (int k = 0; k < 3; k++) {
      cmp(st, "delx", c.delx[k], g.delx[k], ne, 0.0);
      cmp(st, "delvg", c.delvg[k], g.delvg[k], ne, 0.0);
    }
    CMP(st, ql, ne, 0.0);
    CMP(st, qq, ne, 0.0);
    CMP(st, eos_p, ne, 0.0);
    CMP(st, eos_e, ne, 0.0);
    CMP(st, eos_q, ne, 0.0);
    CMP(st, eos_bvc, ne, 0.0);
    CMP(st, p, ne, 0.0);
    CMP(st, e, ne, 0.0);
    CMP(st, q, ne, 0.0);
    CMP(st, ss, ne, 0.0);
    CMP(st, v, ne, 0.0);

    snprintf(st, sizeof st, "-s %d round %d time constraints", nx, round);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    lulesh_time_constraints(&c);
    ck_tsr(lulesh_cuda_time_constraints(&d, &g));
    cmp_dt(st, &c, &g);
  }
  /* the random state exercised both branches of the Q terms and the EOS */
  int compress = 0, expand = 0;
  for (int32_t e = 0; e < c.num_elem; e++) compress += c.vdov[e] < 0.0, expand += c.vdov[e] > 0.0;
  ck_assert_msg(compress > 0 && expand > 0, "-s %d: %d compressing, %d expanding elements", nx,
                compress, expand);
  lulesh_cuda_free(&d);
  lulesh_state_free(&g);
  lulesh_state_free(&c);
  lulesh_mesh_free(&m);
}

START_TEST(test_stages) {
  stages(4);
  stages(5);
}
END_TEST

/* e0_ref: LULESH's e(0) for the run (0: none known) */
static void whole_run(int nx, int its, int cycles_ref, double e0_ref) {
  lulesh_mesh_t m;
  lulesh_state_t c, g;
  lulesh_result_t rc, rg;
  char st[64];
  snprintf(st, sizeof st, "-s %d -i %d", nx, its);
  lulesh_test_serial_run(nx, its, &m, &c, &rc);
  ck_tsr(lulesh_state_init(&g, &m, 1));
  ck_tsr(lulesh_cuda_run(&g, its, &rg));
  ck_assert_msg(rc.cycles == cycles_ref, "%s: the CPU ran %d cycles, not %d", st, rc.cycles,
                cycles_ref);
  ck_assert_msg(rg.cycles == rc.cycles, "%s: the GPU ran %d cycles, the CPU %d", st, rg.cycles,
                rc.cycles);
  char what[96];
  snprintf(what, sizeof what, "%s time", st);
  cmp_scalar(what, rc.time, rg.time, TOL_RUN);
  snprintf(what, sizeof what, "%s e(0)", st);
  cmp_scalar(what, rc.e_origin, rg.e_origin, TOL_RUN);
  snprintf(what, sizeof what, "%s sum e", st);
  cmp_scalar(what, rc.e_total, rg.e_total, TOL_RUN);
  cmp(st, "final e", c.e, g.e, c.num_elem, TOL_RUN);
  if (e0_ref != 0.0) {
    snprintf(what, sizeof what, "%s e(0) against LULESH's", st);
    cmp_scalar(what, e0_ref, rg.e_origin, TOL_RUN);
  }
  printf("# %s: %d cycles, e(0) GPU %.17e CPU %.17e\n", st, rg.cycles, rg.e_origin, rc.e_origin);
  lulesh_state_free(&g);
  lulesh_state_free(&c);
  lulesh_mesh_free(&m);
}

START_TEST(test_runs) {
  whole_run(5, 0, 72, 0.0);
  whole_run(10, 10, 10, 2.59676419555243687e+05);
}
END_TEST

/* The element number in "... element N has ..." of the last error. */
static int error_element(void) {
  const char *msg = tsr_error_message(), *p = msg ? strstr(msg, "element ") : NULL;
  int e = -1;
  if (!p || sscanf(p, "element %d", &e) != 1) return -1;
  return e;
}

/* A random permutation perm[n] (perm[old] = new). */
static int32_t *random_perm(int32_t n, unsigned long long *seed) {
  int32_t *p = malloc(sizeof(int32_t) * ((size_t)n + 1));
  ck_assert(p);
  for (int32_t i = 0; i < n; i++) p[i] = i;
  for (int32_t i = n - 1; i > 0; i--) {
    int32_t j = (int32_t)tsr_test_rand(seed, 0.0, (double)i + 1.0);
    if (j > i) j = i;
    int32_t t = p[i];
    p[i] = p[j], p[j] = t;
  }
  return p;
}

/* m renumbered at random into *out; *eperm (kept) maps old elements to new. */
static void renumbered(const lulesh_mesh_t *m, unsigned long long seed, lulesh_mesh_t *out,
                       int32_t **eperm) {
  int32_t *ep = random_perm(m->num_elem, &seed), *np = random_perm(m->num_node, &seed);
  ck_tsr(lulesh_mesh_permute(m, ep, np, out));
  free(np);
  *eperm = ep;
}

static const char *asm_name[] = {"gather", "atomic", "colour", "twolevel"};

/* Uneven two-level blocks: sizes cycling through block, block/2 + 3, 1, ... */
static int64_t *uneven_blocks(int32_t ne, int block, int64_t *nb) {
  int64_t *off = malloc(sizeof(int64_t) * ((size_t)ne + 2));
  ck_assert(off);
  const int sizes[3] = {block, block / 2 + 3, 1};
  int64_t n = 0, at = 0;
  off[0] = 0;
  while (at < ne) {
    int64_t len = sizes[n % 3];
    if (at + len > ne) len = ne - at;
    at += len;
    off[++n] = at;
  }
  *nb = n;
  return off;
}

static void assemblies_on(const lulesh_mesh_t *m, const char *mesh_name) {
  lulesh_state_t c, g;
  perturbed_state(m, &c);
  perturbed_state(m, &g);
  ck_tsr(lulesh_corner_forces(&c));
  lulesh_gather_forces(&c);
  const int64_t nc = 8 * (int64_t)c.num_elem;
  double scale = 0.0; /* the largest corner force */
  for (int k = 0; k < 3; k++)
    for (int64_t i = 0; i < nc; i++) scale = fmax(scale, fabs(c.fs[k][i]) + fabs(c.fh[k][i]));
  for (int block = 32; block <= 128; block *= 4)
    for (int k = 0; k < 2 * (LULESH_ASM_TWOLEVEL + 2); k++) {
      /* every assembly, then TWOLEVEL with uneven blocks; exact, then FMA */
      const int a = k % (LULESH_ASM_TWOLEVEL + 2), fma = k >= LULESH_ASM_TWOLEVEL + 2;
      if (fma && a == LULESH_ASM_GATHER) continue;
      const double tol = fma ? TOL_FMA : TOL_ASM;
      lulesh_cuda_opts_t o;
      memset(&o, 0, sizeof o);
      o.assembly = a > LULESH_ASM_TWOLEVEL ? LULESH_ASM_TWOLEVEL : (lulesh_asm_t)a;
      o.block = block;
      o.fma = fma;
      int64_t *off = NULL;
      if (a > LULESH_ASM_TWOLEVEL) o.block_off = off = uneven_blocks(c.num_elem, block, &o.nblocks);
      lulesh_cuda_t d;
      char st[128];
      snprintf(st, sizeof st, "%s, block %d, %s%s%s node forces", mesh_name, block,
               asm_name[o.assembly], off ? " (uneven blocks)" : "", fma ? " FMA" : "");
      ck_tsr(lulesh_cuda_init_opts(&d, &g, &o));
      if (o.assembly == LULESH_ASM_COLOUR)
        ck_assert_msg(d.ncolours >= 8, "%s: %d colours (a hex mesh needs 8 at least)", st,
                      d.ncolours);
      if (o.assembly == LULESH_ASM_TWOLEVEL && block == 32)
        ck_assert_msg(d.nblocks > 1 && d.nbcolours > 1, "%s: %lld blocks, %d block colours", st,
                      (long long)d.nblocks, d.nbcolours);
      ck_tsr(lulesh_cuda_node_forces(&d));
      ck_tsr(lulesh_cuda_check(&d, &g));
      ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
      const double *ref[3] = {c.fx, c.fy, c.fz}, *got[3] = {g.fx, g.fy, g.fz};
      for (int m = 0; m < 3; m++) {
        double dmax = 0.0;
        int32_t at = 0;
        for (int32_t n = 0; n < c.num_node; n++) {
          double dd = fabs(ref[m][n] - got[m][n]);
          if (!(dd <= dmax)) dmax = dd, at = n;
        }
        if (dmax > 0.0)
          printf("# %s: f%c: largest difference %.3e at node %d, %.3e of the largest corner "
                 "force (tolerance %g)\n", st, "xyz"[m], dmax, at, dmax / scale, tol);
        ck_assert_msg(dmax <= tol * scale, "%s: f%c[%d] = %.17g on the GPU, %.17g on the "
                      "CPU (%.3e of the largest corner force %.3e, tolerance %g)", st, "xyz"[m],
                      at, got[m][at], ref[m][at], dmax / scale, scale, tol);
      }
      lulesh_cuda_free(&d);
      free(off);
    }
  lulesh_state_free(&g);
  lulesh_state_free(&c);
}

START_TEST(test_assemblies) {
  for (int nx = 4; nx <= 5; nx++) {
    lulesh_mesh_t m, r;
    int32_t *ep;
    char name[64];
    perturbed_mesh(nx, &m);
    snprintf(name, sizeof name, "-s %d", nx);
    assemblies_on(&m, name);
    renumbered(&m, 0xabcdULL + (unsigned)nx, &r, &ep);
    snprintf(name, sizeof name, "-s %d renumbered", nx);
    assemblies_on(&r, name);
    free(ep);
    lulesh_mesh_free(&r);
    lulesh_mesh_free(&m);
  }
}
END_TEST

START_TEST(test_fused_stages) {
  for (int nx = 4; nx <= 5; nx++) {
    lulesh_mesh_t m;
    lulesh_state_t c, g;
    lulesh_cuda_t d;
    lulesh_cuda_opts_t o;
    memset(&o, 0, sizeof o);
    o.assembly = LULESH_ASM_GATHER;
    o.fuse = 1;
    perturbed_mesh(nx, &m);
    perturbed_state(&m, &c);
    perturbed_state(&m, &g);
    ck_tsr(lulesh_cuda_init_opts(&d, &c, &o));
    const int64_t ne = c.num_elem;
    char st[64];
    snprintf(st, sizeof st, "-s %d fused node gather + update", nx);
    ck_tsr(lulesh_corner_forces(&c));
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE)); /* with the CPU's fs, fh */
    lulesh_gather_forces(&c);
    lulesh_update_nodes(&c);
    ck_tsr(lulesh_cuda_gather_update(&d, c.deltatime));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    cmp_forces(st, &c, &g);
    cmp_motion(st, &c, &g);

    snprintf(st, sizeof st, "-s %d fused monotonic Q + EOS + dt", nx);
    ck_tsr(lulesh_cuda_copy(&d, &c, LULESH_CUDA_TO_DEVICE));
    ck_tsr(lulesh_lagrange_elements(&c));
    lulesh_time_constraints(&c);
    ck_tsr(lulesh_cuda_kinematics(&d, c.deltatime));
    ck_tsr(lulesh_cuda_monoq_eos(&d));
    ck_tsr(lulesh_cuda_time_constraints(&d, &g));
    ck_tsr(lulesh_cuda_copy(&d, &g, LULESH_CUDA_TO_HOST));
    CMP(st, vnew, ne, 0.0);
    CMP(st, vdov, ne, 0.0);
    CMP(st, arealg, ne, 0.0);
    /* ql, qq and the EOS results stay in registers: p, e, q, ss carry them */
    CMP(st, p, ne, 0.0);
    CMP(st, e, ne, 0.0);
    CMP(st, q, ne, 0.0);
    CMP(st, ss, ne, 0.0);
    CMP(st, v, ne, 0.0);
    cmp_dt(st, &c, &g);
    lulesh_cuda_free(&d);
    lulesh_state_free(&g);
    lulesh_state_free(&c);
    lulesh_mesh_free(&m);
  }
}
END_TEST

/* One run of nx, its on mesh gm (renumbered by ep, or NULL) with options o
 * against the CPU's result rc and final energies ce (generated numbering). */
static void variant_run(const lulesh_mesh_t *gm, const int32_t *ep, int nx, int its,
                        const lulesh_cuda_opts_t *o, const lulesh_result_t *rc, const double *ce) {
  lulesh_state_t g;
  lulesh_result_t rg;
  char st[128];
  snprintf(st, sizeof st, "-s %d -i %d %s%s%s%s", nx, its, asm_name[o->assembly],
           o->fuse ? " fused" : "", o->fma ? " FMA" : "", ep ? " renumbered" : "");
  ck_tsr(lulesh_state_init(&g, gm, 1));
  ck_tsr(lulesh_cuda_run_opts(&g, o, its, &rg));
  ck_assert_msg(rg.cycles == rc->cycles, "%s: the GPU ran %d cycles, the CPU %d", st, rg.cycles,
                rc->cycles);
  char what[160];
  snprintf(what, sizeof what, "%s time", st);
  cmp_scalar(what, rc->time, rg.time, TOL_RUN);
  snprintf(what, sizeof what, "%s e(0)", st);
  cmp_scalar(what, rc->e_origin, rg.e_origin, TOL_RUN);
  double *e = malloc(sizeof(double) * (size_t)g.num_elem);
  ck_assert(e);
  for (int32_t i = 0; i < g.num_elem; i++) e[i] = g.e[ep ? ep[i] : i];
  cmp(st, "final e", ce, e, g.num_elem, TOL_RUN);
  free(e);
  lulesh_state_free(&g);
}

START_TEST(test_variant_runs) {
  const int runs[2][2] = {{5, 0}, {6, 30}};
  for (int k = 0; k < 2; k++) {
    const int nx = runs[k][0], its = runs[k][1];
    lulesh_mesh_t m, r;
    lulesh_state_t c;
    lulesh_result_t rc;
    int32_t *ep;
    lulesh_test_serial_run(nx, its, &m, &c, &rc);
    renumbered(&m, 0x1234ULL + (unsigned)nx, &r, &ep);
    for (int a = LULESH_ASM_GATHER; a <= LULESH_ASM_TWOLEVEL; a++)
      for (int fuse = 0; fuse <= 1; fuse++) {
        lulesh_cuda_opts_t o;
        memset(&o, 0, sizeof o);
        o.assembly = (lulesh_asm_t)a;
        o.fuse = fuse;
        o.block = 32;
        variant_run(&m, NULL, nx, its, &o, &rc, c.e);
        variant_run(&r, ep, nx, its, &o, &rc, c.e);
        if (a != LULESH_ASM_GATHER) { /* with FMA contraction */
          o.fma = 1;
          variant_run(&m, NULL, nx, its, &o, &rc, c.e);
          variant_run(&r, ep, nx, its, &o, &rc, c.e);
        }
      }
    free(ep);
    lulesh_mesh_free(&r);
    lulesh_state_free(&c);
    lulesh_mesh_free(&m);
  }
}
END_TEST

START_TEST(test_volume_error) {
  lulesh_mesh_t m;
  lulesh_state_t c, g;
  lulesh_cuda_t d;
  perturbed_mesh(4, &m);
  perturbed_state(&m, &c);
  perturbed_state(&m, &g);
  /* node (2, 2, 2) runs 10 element sizes along the diagonal in one step */
  const int32_t node = 2 + 5 * 2 + 25 * 2;
  c.xd[node] = c.yd[node] = c.zd[node] = 1.0e3;
  g.xd[node] = g.yd[node] = g.zd[node] = 1.0e3;
  ck_tsr(lulesh_cuda_init(&d, &g, 0));
  int ec = lulesh_step(&c), elem_c = error_element();
  tsr_error_clear();
  int eg = lulesh_cuda_step(&d, &g), elem_g = error_element();
  tsr_error_clear();
  ck_assert_msg(ec == LULESH_VOLUME_ERROR, "CPU step returned %d, not VolumeError", ec);
  ck_assert_msg(eg == ec, "GPU step returned %d, the CPU %d", eg, ec);
  ck_assert_msg(elem_g == elem_c && elem_c >= 0, "VolumeError at element %d on the GPU, %d on "
                "the CPU", elem_g, elem_c);
  lulesh_cuda_free(&d);
  lulesh_state_free(&g);
  lulesh_state_free(&c);
  lulesh_mesh_free(&m);
}
END_TEST

int main(void) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  Suite *s = suite_create("lulesh_cuda");
  TCase *t = tcase_create("lulesh_cuda");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_stages);
  tcase_add_test(t, test_runs);
  tcase_add_test(t, test_volume_error);
  tcase_add_test(t, test_assemblies);
  tcase_add_test(t, test_fused_stages);
  tcase_add_test(t, test_variant_runs);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif
