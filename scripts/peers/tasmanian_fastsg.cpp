// scripts/peers/tasmanian_fastsg.cpp: a peer benchmark for tsr-fastsg built on ORNL Tasmanian's
// public API (TasGrid::TasmanianSparseGrid). Tessera's own code, compiled and linked outside the
// repository by scripts/peers/build-tasmanian.sh; nothing of Tasmanian is copied here.
//
// It builds the interpolant tsr-fastsg builds: the regular sparse grid without boundary points of
// dimension D and level n (0-based level vectors with |l|_1 <= n-1) and the piecewise-linear hat
// basis, which in Tasmanian is a local polynomial grid, rule localp0, order 1, depth n-1, type
// level, on [0,1]^D (a domain transform of the canonical [-1,1]^D). It
//   1. checks that the grid has N(D,n) = sum_{g<n} 2^g C(g+D-1, D-1) points;
//   2. loads f(x) = prod_t 4 x_t (1 - x_t) at its points and times loadNeededValues (the
//      hierarchization: Tasmanian computes the hierarchical surpluses there), on the CPU
//      (acceleration none) or on the GPU (accel_gpu_cuda), and checks that every surplus equals
//      4^-|l|_1, the exact coefficient of that f (the level vector is read off each point);
//   3. evaluates P seeded random points (the same points as tsr-fastsg --seed S: splitmix64 of
//      (S, k D + t)) with evaluateBatch on the CPU (OpenMP) and in each GPU mode, checking the
//      results against an independent reference interpolant (below) and against f;
//   4. prints the interpolant at fixed points (--eval-point, as tsr-fastsg does); for D=2, n=3 it
//      checks u(0.52, 0.73) = 0.7696 (SG++'s tutorial value, reproduced by tsr-fastsg).
// The reference: with coefficients 4^-|l| the interpolant is
//   u(x) = sum_{|l|_1 <= n-1} prod_t 4^-l_t phi_{l_t}(x_t)
// (phi_l(x) the one level-l hat that may be non-zero at x), a truncated convolution over the
// dimensions computed in O(D n^2) per point without any grid.
//
// Output: '#' lines for people, then one CSV row per measurement:
//   tool,mode,D,n,grid_points,eval_points,seconds,points_per_s,max_err
// modes: make-grid (makeLocalPolynomialGrid + setDomainTransform, once), hier-cpu, hier-cuda
// (loadNeededValues), eval-cpu, eval-<GPU mode> (see --help).
// seconds: evaluation: median of --runs timed runs after one untimed warm-up; hierarchization:
// median over --hier-runs (CPU) / --gpu-hier-runs (GPU) fresh copies of the unloaded grid;
// points_per_s: evaluation points per second (make-grid, hierarchization: grid points per
// second); max_err: max |u - f| at the evaluation points (hierarchization: max |surplus -
// 4^-|l|_1| over the grid; make-grid: 0). Exit status 0 when every check passed, 1 otherwise,
// 2 on usage errors.
#include "TasmanianSparseGrid.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef Tasmanian_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace {

struct Options {
  int dim = 10, level = 8;
  long long points = 20000, cpu_points = 5000, dense_points = 2000, batch = -1;
  long long seed = 1;
  int runs = 3, hier_runs = 3, gpu_hier_runs = 1;
  std::string mode = "both";
  std::string gpu_modes = "cuda-sparse,cuda-sparse-dev,cuda-sparse-f32,cublas,cuda-dense";
  std::string csv;
  std::vector<double> eval_points;  // [k][D]
  int gpu = 0;
};

struct Row {
  std::string mode;
  long long grid_points, eval_points;
  double seconds, per_s, max_err;
};

int g_fail = 0;
std::vector<Row> g_rows;

void fail(const char *fmt, const std::string &what) {
  std::fprintf(stderr, "tasmanian_fastsg: FAIL: ");
  std::fprintf(stderr, fmt, what.c_str());
  std::fprintf(stderr, "\n");
  g_fail = 1;
}

[[noreturn]] void usage(const char *msg) {
  if (msg) std::fprintf(stderr, "tasmanian_fastsg: %s\n", msg);
  std::fprintf(stderr,
      "usage: tasmanian_fastsg [--dim D] [--level n] [--points P] [--mode cpu|cuda|both]\n"
      "       [--cpu-points P] [--dense-points P] [--seed S] [--runs R] [--hier-runs R]\n"
      "       [--gpu-hier-runs R] [--gpu-modes LIST] [--batch B] [--gpu ID] [--csv FILE]\n"
      "       [--eval-point x1,..,xD]...\n"
      "  --points P: evaluation points of the GPU modes (default 20000); --cpu-points P:\n"
      "  of the CPU and cublas modes (default 5000); --dense-points P: of cuda-dense\n"
      "  (default 2000). --runs R: timed evaluation runs after one warm-up (default 3);\n"
      "  --hier-runs R, --gpu-hier-runs R: timed hierarchizations on the CPU (default 3)\n"
      "  and on the GPU (default 1: about 30 s at D=10, n=8).\n"
      "  GPU modes: cublas (CPU builds the sparse basis matrix, cuSPARSE multiplies),\n"
      "  cuda-sparse (GPU builds it; host arrays), cuda-sparse-dev (the same on device\n"
      "  arrays: evaluateBatchGPU), cuda-dense (dense basis matrix + GEMM), cuda-sparse-f32\n"
      "  (cuda-sparse in single precision). Default: all, in the order cuda-sparse,\n"
      "  cuda-sparse-dev, cuda-sparse-f32, cublas, cuda-dense. MODE@P: that mode on P\n"
      "  points in calls of up to P points (e.g. cuda-sparse-dev@100000: Tasmanian's\n"
      "  sparse kernels run one thread per point, so small calls leave the GPU idle).\n"
      "  --batch B: points per evaluateBatch call (default: 2^29 / C(n-1+D, D), which\n"
      "  keeps the sparse basis matrix under 2^29 non-zeros).\n");
  std::exit(2);
}

// splitmix64 of (seed, index), as tsr-fastsg generates its evaluation points.
double rand01(uint64_t seed, uint64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (k + 1) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

double bump(const double *x, int D) {
  double v = 1;
  for (int t = 0; t < D; t++) v *= 4 * x[t] * (1 - x[t]);
  return v;
}

// N(D,n) = sum_{g<n} 2^g C(g+D-1, D-1), exact in 64 bits for the sizes that fit in memory.
long long grid_count(int D, int n) {
  long double sum = 0, c = 1;  // c = C(g+D-1, D-1)
  for (int g = 0; g < n; g++) {
    sum += std::ldexp(c, g);
    c = c * (g + D) / (g + 1);
  }
  return (long long)std::llround(sum);
}

// C(n-1+D, D): the number of level vectors, i.e. of hats that can be non-zero at one point.
double nblocks(int D, int n) {
  double c = 1;
  for (int k = 1; k <= D; k++) c = c * (n - 1 + k) / k;
  return c;
}

// The level-l hat (0-based level, no boundary points) that may be non-zero at x, at x.
double hat(int l, double x) {
  const double s = std::ldexp(1.0, l);
  double i = std::floor(x * s);
  if (i > s - 1) i = s - 1;  // x = 1 belongs to the last cell
  if (i < 0) i = 0;
  const double c = (2 * i + 1) / (2 * s);
  return std::max(0.0, 1 - std::fabs(x - c) * 2 * s);
}

// Reference interpolant of prod 4x(1-x): sum over |l| <= n-1 of prod_t 4^-l_t hat_{l_t}(x_t).
double ref_interp(const double *x, int D, int n) {
  std::vector<double> c(n, 0.0), nc(n), a(n);
  c[0] = 1;
  for (int t = 0; t < D; t++) {
    for (int l = 0; l < n; l++) a[l] = std::ldexp(hat(l, x[t]), -2 * l);
    for (int s = 0; s < n; s++) {
      double v = 0;
      for (int l = 0; l <= s; l++) v += c[s - l] * a[l];
      nc[s] = v;
    }
    c.swap(nc);
  }
  double u = 0;
  for (int s = 0; s < n; s++) u += c[s];
  return u;
}

// 0-based level of a grid coordinate x = (2i+1) / 2^(l+1) in (0,1); -1 if it is none.
int coord_level(double x) {
  for (int l = 0; l < 52; l++) {
    const double v = std::ldexp(x, l + 1);
    if (v == std::floor(v)) return std::fmod(v, 2.0) == 1.0 ? l : -1;
  }
  return -1;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  const size_t m = t.size();
  return m % 2 ? t[m / 2] : 0.5 * (t[m / 2 - 1] + t[m / 2]);
}

std::string times_str(const std::vector<double> &t) {
  std::ostringstream s;
  for (size_t k = 0; k < t.size(); k++) s << (k ? " " : "") << t[k];
  return s.str();
}

void emit(const Options &o, Row r) {
  std::printf("tasmanian,%s,%d,%d,%lld,%lld,%.6g,%.6g,%.3e\n", r.mode.c_str(), o.dim, o.level,
              r.grid_points, r.eval_points, r.seconds, r.per_s, r.max_err);
  std::fflush(stdout);
  g_rows.push_back(std::move(r));
}

// The grid, with its point count checked against the formula.
TasGrid::TasmanianSparseGrid make_grid(const Options &o, long long N) {
  TasGrid::TasmanianSparseGrid grid;
  grid.makeLocalPolynomialGrid(o.dim, 1, o.level - 1, 1, TasGrid::rule_localp0);
  grid.setDomainTransform(std::vector<double>(o.dim, 0.0), std::vector<double>(o.dim, 1.0));
  if (grid.getNumNeeded() != N) {
    fail("%s", "Tasmanian's grid has " + std::to_string(grid.getNumNeeded()) +
                   " points, expected N(D,n) = " + std::to_string(N));
    std::exit(1);
  }
  return grid;
}

// Every surplus of prod 4x(1-x) is 4^-|l|_1; returns the largest deviation.
double check_surpluses(const TasGrid::TasmanianSparseGrid &grid, int D) {
  const std::vector<double> pts = grid.getPoints();
  const double *s = grid.getHierarchicalCoefficients();
  const long long N = grid.getNumPoints();
  double dmax = 0;
  long long bad = -1;
  for (long long k = 0; k < N; k++) {
    int lsum = 0;
    for (int t = 0; t < D; t++) {
      const int l = coord_level(pts[(size_t)k * D + t]);
      if (l < 0) { bad = k; break; }
      lsum += l;
    }
    if (bad >= 0) break;
    const double d = std::fabs(s[k] - std::ldexp(1.0, -2 * lsum));
    dmax = std::isnan(d) ? INFINITY : std::max(dmax, d);
  }
  if (bad >= 0) {
    fail("%s", "grid point " + std::to_string(bad) + " is not a dyadic point (2i+1)/2^(l+1)");
    return INFINITY;
  }
  return dmax;
}

// Hierarchization: per run a fresh copy of the unloaded grid `proto` (copying is untimed and much
// cheaper than makeLocalPolynomialGrid), f at its points, and loadNeededValues timed.
TasGrid::TasmanianSparseGrid hierarchize(const Options &o, const TasGrid::TasmanianSparseGrid &proto,
                                         long long N, bool gpu) {
  const std::vector<double> pts = proto.getNeededPoints();
  std::vector<double> vals((size_t)N);
  for (long long k = 0; k < N; k++) vals[(size_t)k] = bump(&pts[(size_t)k * o.dim], o.dim);
  std::vector<double> t;
  TasGrid::TasmanianSparseGrid grid;
  for (int r = 0; r < (gpu ? o.gpu_hier_runs : o.hier_runs); r++) {
    double t0 = now();
    grid = proto;  // the copy resets the acceleration to none
    if (r == 0) std::printf("# copying the unloaded grid: %.3f s\n", now() - t0);
    if (gpu) grid.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
    t0 = now();
    grid.loadNeededValues(vals);
    t.push_back(now() - t0);
  }
  const std::string mode = gpu ? "hier-cuda" : "hier-cpu";
  const double dev = check_surpluses(grid, o.dim);
  std::printf("# %s: loadNeededValues times %s s; max |surplus - 4^-|l|| = %.3e\n", mode.c_str(),
              times_str(t).c_str(), dev);
  if (!(dev <= 1e-12)) fail("%s", mode + ": surpluses differ from 4^-|l|_1 by more than 1e-12");
  const double m = median(t);
  emit(o, {mode, N, 0, m, N / m, dev});
  return grid;
}

struct Points {
  long long m;
  std::vector<double> x, f, ref;
};

// as_float: coordinates rounded to float (f and the reference at the rounded points).
Points make_points(const Options &o, long long m, bool as_float = false) {
  Points p{m, std::vector<double>((size_t)m * o.dim), std::vector<double>((size_t)m),
           std::vector<double>((size_t)m)};
  for (long long k = 0; k < m; k++) {
    double *x = &p.x[(size_t)k * o.dim];
    for (int t = 0; t < o.dim; t++) {
      x[t] = rand01((uint64_t)o.seed, (uint64_t)(k * o.dim + t));
      if (as_float) x[t] = (float)x[t];
    }
    p.f[(size_t)k] = bump(x, o.dim);
    p.ref[(size_t)k] = ref_interp(x, o.dim, o.level);
  }
  return p;
}

// One evaluation mode: `run(first, count, y)` evaluates points [first, first+count) into y.
void time_eval(const Options &o, const std::string &mode, const Points &p, long long N,
               long long batch, double tol,
               const std::function<void(long long, long long, double *)> &run) {
  std::vector<double> y((size_t)p.m, NAN);
  auto all = [&]() {
    for (long long k = 0; k < p.m; k += batch) run(k, std::min(batch, p.m - k), &y[(size_t)k]);
  };
  double tw = now();
  std::vector<double> t;
  try {
    all();  // warm-up: moves the surpluses, nodes and tree to the GPU, creates handles
    tw = now() - tw;
    for (int r = 0; r < o.runs; r++) {
      std::fill(y.begin(), y.end(), NAN);
      const double t0 = now();
      all();
      t.push_back(now() - t0);
    }
  } catch (const std::exception &e) {
    fail("%s", mode + ": Tasmanian raised: " + e.what());
    return;
  }
  double emax = 0, dref = 0;
  for (long long k = 0; k < p.m; k++) {
    const double e = std::fabs(y[(size_t)k] - p.f[(size_t)k]);
    const double d = std::fabs(y[(size_t)k] - p.ref[(size_t)k]);
    emax = std::isnan(e) ? INFINITY : std::max(emax, e);
    dref = std::isnan(d) ? INFINITY : std::max(dref, d);
  }
  const double m = median(t);
  std::printf("# %s: %lld points in batches of <= %lld; warm-up %.3f s, timed %s s; "
              "max |u - reference interpolant| = %.3e (tolerance %.0e)\n",
              mode.c_str(), p.m, std::min(batch, p.m), tw, times_str(t).c_str(), dref, tol);
  if (!(dref <= tol)) fail("%s", mode + ": results differ from the reference interpolant");
  emit(o, {mode, N, p.m, m, p.m / m, emax});
}

void eval_cpu(const Options &o, TasGrid::TasmanianSparseGrid &grid, long long N, long long batch) {
  grid.enableAcceleration(TasGrid::accel_none);
  const Points p = make_points(o, o.cpu_points);
  time_eval(o, "eval-cpu", p, N, batch, 1e-12, [&](long long k, long long c, double *y) {
    grid.evaluateBatch(&p.x[(size_t)k * o.dim], (int)c, y);
  });
}

#ifdef Tasmanian_ENABLE_CUDA
void cuda_check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// favorSparseAcceleration moves one step along dense - autoselect - sparse; two steps reach an end.
void favor(TasGrid::TasmanianSparseGrid &grid, bool sparse) {
  grid.favorSparseAcceleration(sparse);
  grid.favorSparseAcceleration(sparse);
}

void eval_gpu_mode(const Options &o, TasGrid::TasmanianSparseGrid &grid, long long N,
                   long long batch, long long npts, const std::string &gm,
                   const std::string &mode);

// Every GPU mode of --gpu-modes in turn; one that raises is reported and the next one runs.
// An item MODE@P evaluates P points in batches of up to P (at most 2^31-1 basis non-zeros).
void eval_gpu(const Options &o, TasGrid::TasmanianSparseGrid &grid, long long N, long long batch,
              double nb) {
  std::stringstream list(o.gpu_modes);
  std::string item;
  while (std::getline(list, item, ',')) {
    const std::string mode = "eval-" + item;
    const size_t at = item.find('@');
    const std::string gm = item.substr(0, at);
    long long npts = 0, b = batch;
    if (at != std::string::npos) {
      npts = std::atoll(item.c_str() + at + 1);
      b = std::max(1LL, std::min(npts, (long long)(2147483647.0 / nb)));
    }
    try {
      eval_gpu_mode(o, grid, N, b, npts, gm, mode);
    } catch (const std::exception &e) {
      fail("%s", mode + ": Tasmanian raised: " + e.what());
    }
  }
}

// npts: points to evaluate (0: the mode's default, --points, --cpu-points or --dense-points).
void eval_gpu_mode(const Options &o, TasGrid::TasmanianSparseGrid &grid, long long N,
                   long long batch, long long npts, const std::string &gm,
                   const std::string &mode) {
  const Points p = make_points(o, npts > 0 ? npts : o.points,
                               gm == "cuda-sparse-f32");  // float: the points rounded
  if (gm == "cublas") {
    // the CPU (OpenMP) builds the sparse basis matrix: as costly as eval-cpu, so --cpu-points
    grid.enableAcceleration(TasGrid::accel_gpu_cublas, o.gpu);
    const Points pc = npts > 0 ? p : make_points(o, o.cpu_points);
    time_eval(o, mode, pc, N, batch, 1e-12, [&](long long k, long long c, double *y) {
      grid.evaluateBatch(&pc.x[(size_t)k * o.dim], (int)c, y);
    });
  } else if (gm == "cuda-sparse") {
    grid.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
    favor(grid, true);
    time_eval(o, mode, p, N, batch, 1e-12, [&](long long k, long long c, double *y) {
      grid.evaluateBatch(&p.x[(size_t)k * o.dim], (int)c, y);
    });
  } else if (gm == "cuda-dense") {
    grid.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
    favor(grid, false);
    // the dense basis matrix has N x B entries: B = 2^29 / N keeps it at 4 GiB
    const long long b = std::max(1LL, std::min(batch, (1LL << 29) / N));
    const Points pd = npts > 0 ? p : make_points(o, o.dense_points);
    time_eval(o, mode, pd, N, b, 1e-12, [&](long long k, long long c, double *y) {
      grid.evaluateBatch(&pd.x[(size_t)k * o.dim], (int)c, y);
    });
    favor(grid, true);
  } else if (gm == "cuda-sparse-dev") {
    grid.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
    favor(grid, true);
    double *dx = nullptr, *dy = nullptr;
    try {
      cuda_check(cudaSetDevice(o.gpu), "cudaSetDevice");
      cuda_check(cudaMalloc(&dx, p.x.size() * sizeof(double)), "cudaMalloc x");
      cuda_check(cudaMalloc(&dy, (size_t)p.m * sizeof(double)), "cudaMalloc y");
      cuda_check(cudaMemcpy(dx, p.x.data(), p.x.size() * sizeof(double), cudaMemcpyHostToDevice),
                 "cudaMemcpy x");
    } catch (const std::exception &e) {
      fail("%s", mode + ": " + e.what());
      cudaFree(dx);
      cudaFree(dy);
      return;
    }
    // x stays on the device, as in tsr-fastsg's timing; u is copied back inside the timed run
    // (8 bytes per point, ~0.2 ms for 20,000 points) so that it can be verified.
    time_eval(o, mode, p, N, batch, 1e-12, [&](long long k, long long c, double *y) {
      grid.evaluateBatchGPU(dx + k * o.dim, (int)c, dy + k);
      cuda_check(cudaMemcpy(y, dy + k, (size_t)c * sizeof(double), cudaMemcpyDeviceToHost),
                 "cudaMemcpy y");
    });
    cudaFree(dx);
    cudaFree(dy);
  } else if (gm == "cuda-sparse-f32") {
    grid.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
    favor(grid, true);
    // the reference is taken at the float points; float arithmetic over up to C(n-1+D, D)
    // terms of size <= 1 costs ~1e-6: tolerance 1e-5
    const Points &pf = p;
    std::vector<float> xf(pf.x.begin(), pf.x.end()), yf((size_t)std::min(batch, pf.m));
    time_eval(o, mode, pf, N, batch, 1e-5, [&](long long k, long long c, double *y) {
      grid.evaluateBatch(&xf[(size_t)k * o.dim], (int)c, yf.data());
      for (long long j = 0; j < c; j++) y[j] = yf[(size_t)j];
    });
  }
}
#endif

std::vector<double> parse_point(const char *s, int D) {
  std::vector<double> v;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    char *end = nullptr;
    const double x = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end || !(x >= 0 && x <= 1))
      usage(("--eval-point " + std::string(s) + ": coordinates must be numbers in [0,1]").c_str());
    v.push_back(x);
  }
  if ((int)v.size() != D)
    usage(("--eval-point " + std::string(s) + ": expected " + std::to_string(D) +
           " coordinates (give --dim first)").c_str());
  return v;
}

Options parse(int argc, char **argv) {
  Options o;
  auto num = [&](int &i) -> long long {
    if (i + 1 >= argc) usage((std::string(argv[i]) + ": missing value").c_str());
    char *end = nullptr;
    const long long v = std::strtoll(argv[++i], &end, 10);
    if (!*argv[i] || *end) usage((std::string(argv[i - 1]) + ": expected an integer").c_str());
    return v;
  };
  auto str = [&](int &i) -> std::string {
    if (i + 1 >= argc) usage((std::string(argv[i]) + ": missing value").c_str());
    return argv[++i];
  };
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--dim") o.dim = (int)num(i);
    else if (a == "--level") o.level = (int)num(i);
    else if (a == "--points") o.points = num(i);
    else if (a == "--dense-points") o.dense_points = num(i);
    else if (a == "--cpu-points") o.cpu_points = num(i);
    else if (a == "--gpu-hier-runs") o.gpu_hier_runs = (int)num(i);
    else if (a == "--batch") o.batch = num(i);
    else if (a == "--seed") o.seed = num(i);
    else if (a == "--runs") o.runs = (int)num(i);
    else if (a == "--hier-runs") o.hier_runs = (int)num(i);
    else if (a == "--gpu") o.gpu = (int)num(i);
    else if (a == "--mode") o.mode = str(i);
    else if (a == "--gpu-modes") o.gpu_modes = str(i);
    else if (a == "--csv") o.csv = str(i);
    else if (a == "--eval-point") {
      const std::vector<double> v = parse_point(str(i).c_str(), o.dim);
      o.eval_points.insert(o.eval_points.end(), v.begin(), v.end());
    } else if (a == "--help" || a == "-h") usage(nullptr);
    else usage(("unknown option " + a).c_str());
  }
  if (o.dim < 1 || o.dim > 32) usage("--dim: expected 1 .. 32");
  if (o.level < 1 || o.level > 20) usage("--level: expected 1 .. 20");
  if (o.points < 1 || o.points > (1LL << 31) - 1) usage("--points: expected 1 .. 2^31-1");
  if (o.runs < 1) usage("--runs: expected >= 1");
  if (o.hier_runs < 1 || o.gpu_hier_runs < 1) usage("--hier-runs, --gpu-hier-runs: expected >= 1");
  for (long long q : {o.cpu_points, o.dense_points})
    if (q < 1 || q > (1LL << 31) - 1) usage("--cpu-points, --dense-points: expected 1 .. 2^31-1");
  if (o.mode != "cpu" && o.mode != "cuda" && o.mode != "both") usage("--mode: cpu, cuda or both");
  {
    std::stringstream list(o.gpu_modes);
    std::string item;
    while (std::getline(list, item, ',')) {
      const size_t at = item.find('@');
      const std::string gm = item.substr(0, at);
      if (gm != "cublas" && gm != "cuda-sparse" && gm != "cuda-sparse-dev" && gm != "cuda-dense" &&
          gm != "cuda-sparse-f32")
        usage(("--gpu-modes: unknown mode '" + gm + "'").c_str());
      if (at != std::string::npos) {
        const long long q = std::atoll(item.c_str() + at + 1);
        if (q < 1 || q > (1LL << 31) - 1) usage(("--gpu-modes " + item + ": bad point count").c_str());
      }
    }
  }
  const double cap = grid_count(o.dim, o.level) * 8.0 * (o.dim + 8);
  if (cap > 64.0 * (1LL << 30)) usage("grid too large for this driver (> 64 GiB of Tasmanian data)");
  return o;
}

void print_fixed_points(const Options &o, TasGrid::TasmanianSparseGrid &grid) {
  std::vector<double> pts = o.eval_points;
  if (pts.empty()) {  // defaults: (0.52, 0.73, 0.52, ...), a diagonal ramp, the centre
    for (int t = 0; t < o.dim; t++) pts.push_back(t % 2 ? 0.73 : 0.52);
    for (int t = 0; t < o.dim; t++) pts.push_back(o.dim > 1 ? 0.1 + 0.8 * t / (o.dim - 1) : 0.3);
    for (int t = 0; t < o.dim; t++) pts.push_back(0.5);
  }
  grid.enableAcceleration(TasGrid::accel_none);
  for (size_t k = 0; k < pts.size() / o.dim; k++) {
    const double *x = &pts[k * o.dim];
    std::vector<double> y(1);
    grid.evaluate(std::vector<double>(x, x + o.dim), y);
    const double r = ref_interp(x, o.dim, o.level);
    std::printf("# u(");
    for (int t = 0; t < o.dim; t++) std::printf("%s%.17g", t ? ", " : "", x[t]);
    std::printf(") = %.10f   reference %.10f   f = %.10f\n", y[0], r, bump(x, o.dim));
    if (!(std::fabs(y[0] - r) <= 1e-12)) fail("%s", "interpolant differs from the reference at a --eval-point");
  }
  if (o.dim == 2 && o.level == 3) {  // SG++'s tutorial value for this grid and function
    std::vector<double> y(1);
    grid.evaluate(std::vector<double>{0.52, 0.73}, y);
    const bool ok = std::fabs(y[0] - 0.7696) <= 5e-5;
    std::printf("# D=2 n=3: u(0.52, 0.73) = %.6f, expected 0.7696 (SG++): %s\n", y[0],
                ok ? "ok" : "WRONG");
    if (!ok) fail("%s", "u(0.52, 0.73) is not 0.7696 for D=2, n=3");
  }
}

}  // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  const long long N = grid_count(o.dim, o.level);
  const double nb = nblocks(o.dim, o.level);
  const long long batch = o.batch > 0 ? std::min(o.batch, (1LL << 31) - 1)
                                      : std::max(1LL, (long long)std::min((1LL << 29) / nb, 1e9));
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::printf("# tasmanian_fastsg: Tasmanian %s (OpenMP %s, CUDA %s), %d OpenMP threads\n",
              TasGrid::TasmanianSparseGrid::getVersion(),
              TasGrid::TasmanianSparseGrid::isOpenMPEnabled() ? "on" : "off",
              TasGrid::TasmanianSparseGrid::isCudaEnabled() ? "on" : "off", threads);
  std::printf("# D = %d, n = %d: N(D,n) = %lld (formula); localp0 order 1 depth %d; "
              "%.0f level vectors; f = prod 4x(1-x); seed %lld\n",
              o.dim, o.level, N, o.level - 1, nb, o.seed);
  const bool want_cpu = o.mode != "cuda", want_gpu = o.mode != "cpu";
  const double t0 = now();
  const TasGrid::TasmanianSparseGrid proto = make_grid(o, N);
  const double t_make = now() - t0;
  std::printf("# Tasmanian's grid has %d points (formula %lld): ok; makeLocalPolynomialGrid + "
              "setDomainTransform %.3f s\n", proto.getNumNeeded(), N, t_make);
  std::printf("tool,mode,D,n,grid_points,eval_points,seconds,points_per_s,max_err\n");
  emit(o, {"make-grid", N, 0, t_make, N / t_make, 0.0});
  try {
    if (want_cpu) {
      TasGrid::TasmanianSparseGrid grid = hierarchize(o, proto, N, false);
      print_fixed_points(o, grid);
      eval_cpu(o, grid, N, batch);
    }
    if (want_gpu) {
#ifdef Tasmanian_ENABLE_CUDA
      if (TasGrid::TasmanianSparseGrid::getNumGPUs() <= o.gpu) {
        fail("%s", "--mode cuda: no CUDA device " + std::to_string(o.gpu) + " (found " +
                       std::to_string(TasGrid::TasmanianSparseGrid::getNumGPUs()) + ")");
      } else {
        std::printf("# GPU %d: %s\n", o.gpu, TasGrid::TasmanianSparseGrid::getGPUName(o.gpu).c_str());
        // initialise the context and the libraries' handles outside the timed hierarchization
        TasGrid::TasmanianSparseGrid warm;
        warm.makeLocalPolynomialGrid(2, 1, 2, 1, TasGrid::rule_localp0);
        warm.enableAcceleration(TasGrid::accel_gpu_cuda, o.gpu);
        warm.loadNeededValues(std::vector<double>(warm.getNumNeeded(), 1.0));
        TasGrid::TasmanianSparseGrid grid = hierarchize(o, proto, N, true);
        if (!want_cpu) print_fixed_points(o, grid);
        eval_gpu(o, grid, N, batch, nb);
      }
#else
      fail("%s", "--mode cuda: this Tasmanian was built without CUDA");
#endif
    }
  } catch (const std::exception &e) {
    fail("%s", std::string("Tasmanian raised: ") + e.what());
  }
  if (!o.csv.empty()) {
    FILE *f = std::fopen(o.csv.c_str(), "w");
    if (!f) {
      fail("%s", "cannot write " + o.csv);
    } else {
      std::fprintf(f, "tool,mode,D,n,grid_points,eval_points,seconds,points_per_s,max_err\n");
      for (const Row &r : g_rows)
        std::fprintf(f, "tasmanian,%s,%d,%d,%lld,%lld,%.6g,%.6g,%.3e\n", r.mode.c_str(), o.dim,
                     o.level, r.grid_points, r.eval_points, r.seconds, r.per_s, r.max_err);
      std::fclose(f);
    }
  }
  std::printf("# %s\n", g_fail ? "FAIL" : "all checks passed");
  return g_fail;
}
