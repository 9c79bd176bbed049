#!/usr/bin/env bash
# build-op2-airfoil.sh OP2_SRC OUT_DIR
#
# Builds OP2's own Airfoil (OP-DSL/OP2-Common, apps/c/airfoil/airfoil_hdf5/dp:
# double precision, mesh read from ./new_grid.h5 with op_decl_set_hdf5 & co.)
# for one NVIDIA GPU, single process (OP2's "cuda" variant, not mpi_cuda), so
# that scripts/bench/airfoil.sh can time it beside tsr-airfoil on the
# same GPU.  Nothing of OP2 is copied into Tessera: this script only drives
# OP2's own Makefiles and code translator on a checkout outside the repo.
#
# Result in OUT_DIR/bin:
#   airfoil_op2_atomic_aos   OP2's default CUDA code: AoS dats, indirect
#                            increments (res_calc, bres_calc) by atomicAdd
#   airfoil_op2_atomic_soa   the same translated with OP_AUTO_SOA=1 (the
#                            translator's --force_soa): every dat SoA
#   airfoil_op2_colour_aos   translator config {"atomics": false,
#                            "color2": true}: global colouring of the edges
#                            (OP2 plan OP_COLOR2), one launch per colour
#   airfoil_op2_colour_soa   both
#   airfoil_op2_hier_aos     OP2's legacy code generator (translator/c/op2.py):
#                            two-level colouring (blocks of edges coloured,
#                            threads coloured inside a block), increments
#                            staged in shared memory: OP2's classic CUDA
#                            scheme, the hierarchical colouring that
#                            tsr-airfoil's cuda/shared variants follow
#   airfoil_op2_hier_soa     the same with OP_AUTO_SOA=1
#   BUILD-INFO.txt           OP2 commit, compilers, flags, ldd of each binary
# The copies in bin are stripped (OP2 compiles with -g; the GPU code and the
# optimisation are untouched); the unstripped ones stay in OUT_DIR/OP2-Common.
# Block size is a run-time argument of every binary: OP_BLOCK_SIZE=N (OP2's
# default is 64); OP_PART_SIZE=N likewise (edges per block of a plan: the
# hier and colour variants).
#
# Steps (OP2 docs/getting_started.rst and docs/translator.rst):
#  1. OP2_SRC is copied (without .git) to OUT_DIR/OP2-Common: OP2 writes its
#     config, objects, libraries and generated code into its own tree, and its
#     translator adds OP2-Common/op2/include by itself only under that name.
#  2. The translator (translator-v2, libclang-based) normally runs in a Python
#     that OP2 unpacks from a bundled CPython tarball plus wheels.  We use
#     Debian's instead: /usr/bin/python3 in a venv with system site packages
#     (python3-clang-16 for clang.cindex, python3-jinja2, python3-sympy) and
#     the pure-Python wheels OP2 ships (fparser, pcpp) installed offline from
#     OP2_SRC/translator-v2/python/wheels.  OP2 pins libclang==18.1.1; the
#     clang 16 bindings translate airfoil (every generated file compiles).
#  3. make -C op2 config with OP2_C_COMPILER=gnu, OP2_C_CUDA_COMPILER=nvhpc
#     (= plain nvcc from CUDA_INSTALL_PATH), NV_ARCH=Hopper (sm_90),
#     HDF5_SEQ_INSTALL_PATH = Debian's serial HDF5, TARGET_HOST=false (no
#     -march=native: the binaries run on another host), MPI and Fortran
#     switched off (the GPU machine has no parallel HDF5).  Link flags chosen
#     so the binaries need only glibc, libstdc++, libgcc_s and the CUDA driver:
#     HDF5 static (-Wl,-Bstatic -lhdf5 -lsz -laec -lz), -lcudart_static.
#  4. make -C op2 seq hdf5 cuda: OP2's static libraries.
#  5. For each variant, OP2's app Makefile (makefiles/c_app.mk) with
#     APP_NAME=airfoil_op2_<variant> (its own generated/ directory) and the
#     target airfoil_op2_<variant>_cuda: translate (-t cuda only), nvcc the
#     kernels, g++ the host program, link.
#  6. The hier variants from the legacy translator (see step 6 below).
#
# Local edits to OP2 needed for CUDA 13.0 (nvcc 13.0, sm_90): NONE at
# OP2-Common b9e7a58d (2026-05-23).  nvcc 13 warns that cub::DeviceReduce::
# ArgMin/ArgMax with KeyValuePair outputs are deprecated
# (op2/src/cuda/op2_cuda_rt_wrappers.cu); airfoil does not use them.
#
# Requirements (Debian 12): build-essential, CUDA toolkit (nvcc), GNU make
# >= 4.2, and
#   apt-get install python3-clang-16 libclang-16-dev python3-jinja2 \
#                   python3-sympy python3-venv libhdf5-dev
# Environment: CUDA_INSTALL_PATH (/usr/local/cuda), HDF5_SEQ_INSTALL_PATH
# (/usr/lib/x86_64-linux-gnu/hdf5/serial), JOBS (2), VARIANTS (all six;
# e.g. VARIANTS="atomic_aos hier_aos"), KEEP_TREE=1 (reuse OUT_DIR's built OP2).
set -euo pipefail

usage() { echo "usage: $0 OP2_SRC OUT_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
src=$(cd "$1" && pwd) || usage
mkdir -p "$2"
out=$(cd "$2" && pwd)
[ -f "$src/op2/Makefile" ] && [ -d "$src/apps/c/airfoil/airfoil_hdf5/dp" ] &&
  [ -f "$src/translator-v2/op2-translator/__main__.py" ] ||
  { echo "$0: $src is not an OP2-Common checkout with translator-v2" >&2; exit 1; }

export CUDA_INSTALL_PATH=${CUDA_INSTALL_PATH:-/usr/local/cuda}
export HDF5_SEQ_INSTALL_PATH=${HDF5_SEQ_INSTALL_PATH:-/usr/lib/x86_64-linux-gnu/hdf5/serial}
jobs=${JOBS:-2}
variants=${VARIANTS:-atomic_aos atomic_soa colour_aos colour_soa hier_aos hier_soa}
pysys=/usr/bin/python3          # Debian's, where python3-clang-16 lives

die() { echo "$0: $*" >&2; exit 1; }
[ -x "$CUDA_INSTALL_PATH/bin/nvcc" ] || die "no nvcc in $CUDA_INSTALL_PATH/bin (set CUDA_INSTALL_PATH)"
[ -f "$HDF5_SEQ_INSTALL_PATH/include/hdf5.h" ] ||
  die "no serial HDF5 at $HDF5_SEQ_INSTALL_PATH: apt-get install libhdf5-dev"
"$pysys" -c 'import clang.cindex, jinja2, sympy' 2>/dev/null ||
  die "$pysys lacks clang.cindex/jinja2/sympy: apt-get install python3-clang-16 libclang-16-dev python3-jinja2 python3-sympy python3-venv"

commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
log=$out/build.log
: > "$log"
echo "OP2-Common $commit -> $out (log: $log)"

# 1. a private copy of the tree (KEEP_TREE=1 reuses one whose libraries are
# built: for re-running step 5 only)
tree=$out/OP2-Common
keep=
[ "${KEEP_TREE:-0}" = 1 ] && [ -f "$tree/op2/lib/libop2_cuda.a" ] && keep=1
if [ -z "$keep" ]; then
  rm -rf "$tree"
  mkdir -p "$tree"
  # (leaving out OP2's own build outputs, should OP2_SRC have been built in place)
  tar -C "$src" --exclude=./.git --exclude=./translator-v2/python --exclude=./op2/obj \
      --exclude=./op2/lib --exclude=./op2/mod --exclude=./makefiles/.config.mk \
      -cf - . | tar -C "$tree" -xf -
fi
rm -rf "$tree/apps/c/airfoil/airfoil_hdf5/dp/generated" "$tree"/apps/c/airfoil/airfoil_hdf5/dp/airfoil*_cuda
# The translator asks `git describe` for its version: point it at OP2_SRC's
# repository, or give the copy one of its own.
if gitdir=$(git -C "$src" rev-parse --absolute-git-dir 2>/dev/null); then
  export GIT_DIR=$gitdir
elif [ ! -d "$tree/.git" ]; then
  git -C "$tree" init -q && git -C "$tree" -c user.name=build -c user.email=build@localhost \
    commit -q --allow-empty -m "OP2-Common copy (no history)"
fi

# 2. the translator's Python
py=$out/py
if [ ! -x "$py/bin/python" ]; then
  "$pysys" -m venv --system-site-packages "$py" >> "$log" 2>&1
  "$py/bin/pip" install -q --no-index --find-links "$src/translator-v2/python/wheels" \
    fparser pcpp >> "$log" 2>&1 || die "pip install of OP2's fparser/pcpp wheels failed (see $log)"
fi
libclang=$(ls /usr/lib/llvm-16/lib/libclang.so.1 2>/dev/null || true)
translator="env ${libclang:+LIBCLANG_PATH=$libclang} $py/bin/python $tree/translator-v2/op2-translator -t cuda -I $tree/op2/include"

# 3. configure OP2
export OP2_C_COMPILER=gnu OP2_C_CUDA_COMPILER=nvhpc NV_ARCH=Hopper TARGET_HOST=false
if [ -z "$keep" ]; then
  cfg=(CONFIG_MPICC=none-mpicc CONFIG_MPICXX=none-mpicxx CONFIG_MPIFC=none-mpif90 CONFIG_FC=none-fc
       "HDF5_SEQ_LINK=-Wl,-Bstatic -lhdf5 -lsz -laec -lz -Wl,-Bdynamic -ldl -lm"
       "CUDA_LINK=-lcudart_static -lpthread -lrt -ldl")
  echo "== make -C op2 config" | tee -a "$log"
  make -C "$tree/op2" config "${cfg[@]}" >> "$log" 2>&1 || die "OP2 config failed (see $log)"
  grep -q '^ *HAVE_CUDA := true' "$tree/makefiles/.config.mk" || die "OP2 config found no CUDA (see $log)"
  grep -q '^ *HAVE_HDF5_SEQ := true' "$tree/makefiles/.config.mk" ||
    die "OP2 config found no serial HDF5 (see $log)"

  # 4. OP2's libraries
  echo "== make -C op2 seq hdf5 cuda" | tee -a "$log"
  make -C "$tree/op2" -j"$jobs" seq hdf5 cuda >> "$log" 2>&1 || die "OP2 library build failed (see $log)"
fi

# 5. the airfoil variants
app=$tree/apps/c/airfoil/airfoil_hdf5/dp
mkdir -p "$out/bin"
for v in $variants; do
  extra=
  soa=
  case $v in
    hier_aos|hier_soa) continue ;; # below
    atomic_aos) ;;
    atomic_soa) soa=1 ;;
    colour_aos) extra="-c '{\".*\": {\"atomics\": false, \"color2\": true}}'" ;;
    colour_soa) soa=1; extra="-c '{\".*\": {\"atomics\": false, \"color2\": true}}'" ;;
    *) die "unknown variant $v" ;;
  esac
  name=airfoil_op2_$v
  echo "== $name${soa:+ (OP_AUTO_SOA=1)}${extra:+ (translator $extra)}" | tee -a "$log"
  rm -rf "$app/generated/$name" "$app/${name}_cuda"
  # OP_AUTO_SOA in the environment makes the translator force SoA (its
  # __main__.py); the generated program then calls op_init_soa.
  if ! env ${soa:+OP_AUTO_SOA=1} make -C "$app" APP_NAME="$name" "${name}_cuda" \
         TRANSLATOR="$translator" APP_EXTRA_TRANSLATOR_FLAGS="$extra" >> "$log" 2>&1; then
    die "building $name failed (see $log)"
  fi
  strip -o "$out/bin/$name" "$app/${name}_cuda" # host debug info only (4 MB instead of 10)
done

# 6. the legacy translator's CUDA code (translator/c/op2.py, plain Python, no
# clang): OP2's classic two-level colouring.  Its generator
# op2_gen_cuda_simple.py (settings inc_stage=1, atomics=0) gives indirect
# increment loops a plan (op_plan_get_stage ... OP_STAGE_INC): the edges in
# blocks (OP_PART_SIZE edges; by default as many as fit 24 KiB of staged
# increments, i.e. 768 for res_calc), blocks coloured so that a launch per
# block colour never writes a cell twice, threads coloured inside a block,
# increments accumulated in shared memory and written back colour by colour.
# OP2's Makefiles no longer build this (Makefile.legacy targets sm_70 and
# older), so we compile it with the same nvcc and g++ flags as above
# (without Makefile.legacy's --use_fast_math).
# Local edit (hier_soa): append_init_soa() in translator/c/op2.py writes its
# regular expressions as raw strings with doubled backslashes
# (r'\\bop_init\\b\\s*...'), which match a literal backslash, so op_init is
# never turned into op_init_soa(..., 1) and the SoA kernels would run on AoS
# data. We undouble them in our copy (checked below).
"$pysys" - "$tree/translator/c/op2.py" <<'EOF' >> "$log" 2>&1 || die "patching translator/c/op2.py failed"
import sys
p = sys.argv[1]
s = open(p).read()
for f in ("op_init", "op_mpi_init"):
    bad = r"r'\\b%s\\b\\s*\((.*)\)'" % f
    good = r"r'\b%s\b\s*\((.*)\)'" % f
    if bad in s:
        s = s.replace(bad, good)
        print("translator/c/op2.py: fixed the %s regular expression" % f)
open(p, "w").write(s)
EOF
cfgval() { sed -n "s/^ *$1 := \(.*\)#\$/\1/p" "$tree/makefiles/.config.mk"; }
for v in $variants; do
  case $v in
    hier_aos) soa= ;;
    hier_soa) soa=1 ;;
    *) continue ;;
  esac
  name=airfoil_op2_$v
  echo "== $name (legacy translator/c/op2.py${soa:+, OP_AUTO_SOA=1})" | tee -a "$log"
  d=$tree/apps/c/airfoil/airfoil_hdf5/legacy_$v
  rm -rf "$d"
  mkdir -p "$d"
  cp "$app"/*.h "$app/airfoil.cpp" "$d/"
  (
    cd "$d"
    env ${soa:+OP_AUTO_SOA=1} "$pysys" "$tree/translator/c/op2.py" airfoil.cpp
    if [ -n "$soa" ] && ! grep -q 'op_init_soa(.*, *1)' airfoil_op.cpp; then
      echo "airfoil_op.cpp does not call op_init_soa(..., 1)"
      exit 1
    fi
    # shellcheck disable=SC2046 # the flags are lists
    "$CUDA_INSTALL_PATH/bin/nvcc" $(cfgval NVCCFLAGS) -DOP2_CUDA -I"$tree/op2/include" -Icuda -I. \
      -c cuda/airfoil_kernels.cu -o cuda/airfoil_kernels_cu.o
    # shellcheck disable=SC2046
    g++ $(cfgval CXXFLAGS) -I"$tree/op2/include" airfoil_op.cpp cuda/airfoil_kernels_cu.o \
      -L"$tree/op2/lib" -lop2_cuda -lop2_hdf5 $(cfgval HDF5_SEQ_LIB) $(cfgval CUDA_LIB) -o "$name"
  ) >> "$log" 2>&1 || die "building $name failed (see $log)"
  strip -o "$out/bin/$name" "$d/$name"
done

# what was built, with what
{
  echo "OP2-Common commit: $commit"
  echo "source: $src"
  echo "app: apps/c/airfoil/airfoil_hdf5/dp (double, reads ./new_grid.h5)"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $("$CUDA_INSTALL_PATH/bin/nvcc" --version | tail -n 2 | head -n 1)"
  echo "g++: $(g++ --version | head -n 1)"
  echo "translator python: $("$py/bin/python" --version) with clang.cindex from $("$py/bin/python" -c 'import clang.cindex as c; print(c.__file__)')"
  echo "OP2 config (makefiles/.config.mk):"
  sed -n 's/^ *\(CXX\|CXXFLAGS\|NVCC\|NVCCFLAGS\|CUDA_LIB\|HDF5_SEQ_LIB\) :=/    \1 :=/p' \
    "$tree/makefiles/.config.mk" | sed 's/#$//'
  for v in $variants; do
    echo "airfoil_op2_$v:"
    ldd "$out/bin/airfoil_op2_$v" | sed 's/^/    /'
  done
} > "$out/bin/BUILD-INFO.txt"
cat "$out/bin/BUILD-INFO.txt"
echo "built: $(cd "$out/bin" && ls airfoil_op2_* | tr '\n' ' ')"
