#!/bin/sh
# examples/installcheck.sh EXAMPLES_DIR: run by `make installcheck` after
# `make install`, with the install directories in the environment. Outside the
# source and build trees and without LD_LIBRARY_PATH it checks that
#  - every installed program runs and has its man page (when pages are installed);
#  - the shipped batch templates are there and the source-tree scripts are not;
#  - examples/mesh_halo.c builds with pkg-config and with CMake
#    (find_package(Tessera)), carries an rpath to libdir, and runs at 1 and 2
#    ranks on a mesh made by the installed tsr-mkairfoil, giving one answer.
# Exit status 1 on the first failure, with one line saying what failed.
set -u
ex=$(cd "${1:?usage: installcheck.sh EXAMPLES_DIR}" && pwd)
: "${prefix:?} ${bindir:?} ${libdir:?} ${mandir:?} ${pkgdatadir:?} ${MPICC:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/tsr-installcheck.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset LD_LIBRARY_PATH
# mpiexec as root (CI, build machines), and more ranks than cores
OMPI_ALLOW_RUN_AS_ROOT=1; export OMPI_ALLOW_RUN_AS_ROOT
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
OMPI_MCA_rmaps_base_oversubscribe=1; export OMPI_MCA_rmaps_base_oversubscribe
OMPI_MCA_btl_vader_single_copy_mechanism=none; export OMPI_MCA_btl_vader_single_copy_mechanism
fail() { echo "installcheck: $*" >&2; exit 1; }
say() { echo "installcheck: $*"; }

# ---- programs and man pages
n=0
for p in "$bindir"/tsr-*; do
  [ -x "$p" ] || continue
  name=$(basename "$p")
  "$p" --version >out 2>&1 || fail "$p --version: $(head -1 out)"
  grep -q "^$name (Tessera) " out || fail "$p --version: '$(head -1 out)'"
  if [ -n "${TSR_MANS:-}" ] && [ -d "$mandir/man1" ]; then
    [ -s "$mandir/man1/$name.1" ] || fail "$name has no man page in $mandir/man1"
    grep -q "^\.TH $(echo "$name" | tr a-z A-Z) " "$mandir/man1/$name.1" || fail "$mandir/man1/$name.1 is not $name's page"
  fi
  n=$((n + 1))
done
[ $n -gt 0 ] || fail "no tsr-* programs in $bindir"
[ -n "${TSR_MANS:-}" ] && [ -d "$mandir/man1" ] && pages="and man pages" || pages="(no man pages: no help2man)"
say "$n programs run from $bindir without LD_LIBRARY_PATH, $pages"

# ---- scripts: the batch templates (bash syntax), no source-tree scripts
for t in cpu gpu sweep; do
  bash -n "$pkgdatadir/slurm/$t.sbatch" 2>err || fail "$pkgdatadir/slurm/$t.sbatch: $(head -1 err)"
done
for s in quickstart demo; do
  [ ! -e "$pkgdatadir/$s" ] || fail "$pkgdatadir/$s is installed but works only in a source tree"
done
say "batch templates in $pkgdatadir/slurm"

# ---- the example with pkg-config
"$bindir/tsr-mkairfoil" --size 20x30 -o mesh.h5 >out 2>&1 || fail "tsr-mkairfoil: $(tail -1 out)"
PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"; export PKG_CONFIG_PATH
flags=$(${PKG_CONFIG:-pkg-config} --cflags --libs tessera) || fail "pkg-config tessera failed"
# shellcheck disable=SC2086
$MPICC -o mesh_halo_pc "$ex/mesh_halo.c" $flags -lm 2>err || fail "pkg-config build: $(head -3 err)"
readelf -d mesh_halo_pc | grep -qE "R(UN)?PATH.*$libdir" || fail "pkg-config build: no rpath to $libdir"
say "pkg-config build: $MPICC mesh_halo.c \$(pkg-config --cflags --libs tessera)"
builds=mesh_halo_pc

# ---- the example with CMake
if [ -n "${CMAKE:-}" ]; then
  "$CMAKE" -S "$ex" -B cmake-build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$MPICC" >cmake.out 2>&1 ||
    fail "cmake configure with find_package(Tessera): $(grep -A3 -m1 -i error cmake.out)"
  "$CMAKE" --build cmake-build >>cmake.out 2>&1 || fail "cmake build: $(grep -m3 -i error cmake.out)"
  cp cmake-build/mesh_halo mesh_halo_cmake
  readelf -d mesh_halo_cmake | grep -qE "R(UN)?PATH.*$libdir" || fail "CMake build: no rpath to $libdir"
  say "CMake build: find_package(Tessera), target Tessera::tessera"
  builds="$builds mesh_halo_cmake"
else
  say "CMake build skipped: no cmake (Debian package cmake)"
fi

# ---- run each build at 1 and 2 ranks: every check passes, one area
for b in $builds; do
  for np in 1 2; do
    timeout 120 ${MPIEXEC:-mpiexec} -n $np "./$b" mesh.h5 >"run-$b-$np" 2>&1 ||
      fail "$b at $np ranks: $(tail -2 "run-$b-$np")"
    grep -q '^mesh_halo: all checks passed' "run-$b-$np" || fail "$b at $np ranks: $(tail -2 "run-$b-$np")"
    sed -n 's/.*area \(.*\)/\1/p' "run-$b-$np" >>areas
  done
done
[ "$(sort -u areas | wc -l)" -eq 1 ] || fail "the builds and rank counts disagree on the area: $(sort -u areas | tr '\n' ' ')"
sed 's/^/  /' "run-mesh_halo_pc-2"
say "$builds: layouts, neighbour tables, mesh read, halo exchange at 1 and 2 ranks: passed"
