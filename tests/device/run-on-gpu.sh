#!/bin/sh
# tests/device/run-on-gpu.sh [--emu] [--build-only] [--arch LIST] [--dir DIR] [-- HARNESS ARGS]
#
# Build the device harness (tests/device: every launcher of src/backend/device against the
# single-source bodies on the host) and run it: one command for a bare GPU machine, which
# needs nvcc and cuFFT and nothing else (no PETSc, MPI, FFTW or autotools).
#
#   (default)      CUDA back end, nvcc for sm_90 (H100, H200): checks at small sizes, timings at
#                  sizes that fill the GPU; about 5 minutes on an H100, most of it compiling
#   --emu          the host C compiler and the emulation back end (FFTW stands in for cuFFT),
#                  small sizes: what the test suite runs on every build
#   --build-only   build, do not run (a machine without a GPU checks that it compiles)
#   --arch LIST    CUDA architectures, comma separated (default 90)
#   --dir DIR      build directory (default: a new temporary one, removed at the end)
#
# The harness's JSON lines and summary table go to DIR (harness.json, harness.md), and to
# $OUT too when that variable is set. Exit status: the harness's (0: every check passed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=cuda
build_only=no
arch=90
dir=
while [ $# -gt 0 ]; do
  case $1 in
    --emu) mode=emu ;;
    --build-only) build_only=yes ;;
    --arch) arch=$2; shift ;;
    --dir) dir=$2; shift ;;
    --) shift; break ;;
    *) echo "run-on-gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ppe-harness.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
CC=${CC:-cc}
# the flags of the library's C (configure.ac): the kernels' bitwise promises need
# -ffp-contract=off on the host and --fmad=false on the device
cflags="-O2 -std=c11 -Wall -Wextra -Wno-unused-parameter -ffp-contract=off -I$top/src"
# (HARNESS_CFLAGS: more flags for the host compiler, e.g. the sanitizers of the test suite)
cflags="$cflags ${HARNESS_CFLAGS:-}"
hsrc="$here/harness.c $here/h_stencil.c $here/h_tridiag.c $here/h_tileilu.c $here/h_tsblock.c $here/h_fft.c $here/h_solve.c"
parts="device stencil krylov tridiag tileilu tsblock transpose fft"
t0=$(date +%s)
if [ "$mode" = emu ]; then
  # shellcheck disable=SC2086
  $CC $cflags -o "$dir/harness" $hsrc $(for p in $parts; do echo "$top/src/backend/emu/${p}_emu.c"; done) -lfftw3 -lm
else
  NVCC=${NVCC:-nvcc}
  command -v "$NVCC" > /dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
  nvflags="-O3 -std=c++17 --fmad=false -I$top/src"
  for sm in $(echo "$arch" | tr ',' ' '); do nvflags="$nvflags -gencode arch=compute_$sm,code=sm_$sm"; done
  pids=
  for p in $parts; do
    # shellcheck disable=SC2086
    "$NVCC" $nvflags -c "$top/src/backend/cuda/${p}_cuda.cu" -o "$dir/${p}_cuda.o" &
    pids="$pids $!"
  done
  objs=
  for f in $hsrc; do
    o="$dir/$(basename "$f" .c).o"
    # shellcheck disable=SC2086
    $CC $cflags -DHARNESS_CUDA -c "$f" -o "$o" &
    pids="$pids $!"
    objs="$objs $o"
  done
  for pid in $pids; do wait "$pid"; done
  # shellcheck disable=SC2086
  "$NVCC" -o "$dir/harness" $objs $(for p in $parts; do echo "$dir/${p}_cuda.o"; done) -lcufft -lm
fi
echo "run-on-gpu.sh: built $dir/harness ($mode) in $(($(date +%s) - t0)) s, $(du -k "$dir/harness" | cut -f1) KiB"
[ "$build_only" = yes ] && exit 0
rc=0
"$dir/harness" --json "$dir/harness.json" --table "$dir/harness.md" "$@" || rc=$?
if [ -n "${OUT:-}" ]; then
  cp "$dir/harness.json" "$dir/harness.md" "$OUT/" 2> /dev/null || true
fi
exit $rc
