#!/bin/bash
# Build PETSc 3.25.4 from the release tarball in ../shared/vendor/ (or $PPE_PETSC_TARBALL)
# and install it into a cache outside the clone, so that only the first CI run on a machine
# pays for the build (about 15 minutes on 2 cores). Prints the install prefix (a directory
# holding include/, lib/ and lib/pkgconfig/PETSc.pc) on its last line of standard output.
#
#   ci/petsc-vendor.sh            build if the cache lacks it, then print the prefix
#   ci/petsc-vendor.sh --print    print the prefix the cache would hold, build nothing
#   ci/petsc-vendor.sh --cuda [--print]   the CUDA variant (PPE_PETSC_CUDA=1 does the same)
#
# The CUDA variant is the same build with --with-cuda=1: nvcc and the libraries of the
# toolkit in /usr/local/cuda (or $PPE_CUDA_DIR), --with-cuda-arch=${PPE_CUDA_ARCH:-90} given
# since the build machine need not have a GPU to ask, every other option the same. It is
# cached beside the default under its own key (the default options, and so the default
# key, are untouched). It took 649 s on our 2 shared cores; CI has no room for it or for the
# tests run against it, so no CI leg builds it: ci/petsc-cuda-check.sh does, before landing
# (docs/testing.md). The toolkit's folder is passed as --with-cuda-include/--with-cuda-lib
# rather than --with-cuda-dir (PETSc refuses the two together) because PETSc 3.25 also
# needs NVML (<nvml.h>, libnvidia-ml), which comes with the GPU driver and is on neither our
# machines nor in Debian main: the build compiles its own stand-in, ci/nvml-stub/ (NVML's
# types and entry points; every call answers "driver not loaded"), into
# PREFIX/ppekit-nvml-stub/: include/ and lib/ for the build, run/libnvidia-ml.so.1 for
# LD_LIBRARY_PATH on a machine without a driver (never in an RPATH: where a driver is
# installed, its own library is the one to load). libpetsc needs no libcuda.so.1 (the
# runtime, libcudart, looks for the driver itself and reports "insufficient driver" when
# there is none).
#
# The cache key is the SHA-256 of the tarball and of this recipe (the configure options
# below; for the CUDA variant also the NVML stand-in's sources), so a new tarball or a
# changed option builds a fresh copy beside the old one.
# Cache root: $PPE_CI_CACHE, else /var/cache/ppekit-ci when writable, else
# ~/.cache/ppekit-ci. Only Debian's packages are used: its MPI (mpicc), BLAS/LAPACK and
# FFTW; nothing is downloaded (PETSc's configure downloads only what --download-* asks).
set -euo pipefail
cuda=${PPE_PETSC_CUDA:-0}
[ "$cuda" = 0 ] || cuda=1
if [ "${1:-}" = "--cuda" ]; then cuda=1; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
tarball=${PPE_PETSC_TARBALL:-$here/../../shared/vendor/petsc-3.25.4.tar.xz}
[ -f "$tarball" ] || { echo "petsc-vendor: no PETSc tarball at $tarball" >&2; exit 1; }
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")

# The options of the issue, plus Debian's MPI compilers and FFTW; optimised, no debugging.
options=(--with-debugging=0 --with-fc=0 --with-cuda=0 --with-hip=0 --with-sycl=0 --with-x=0
  --with-hypre=0 --with-cc=mpicc --with-cxx=mpicxx --with-shared-libraries=1
  --with-fftw=1 --with-fftw-include=/usr/include
  "--with-fftw-lib=-lfftw3_mpi -lfftw3"
  "COPTFLAGS=-O2" "CXXOPTFLAGS=-O2")
if [ "$cuda" = 1 ]; then
  # the same options with CUDA on: the default list above (and so the default cache key)
  # stays exactly as it was
  cuda_dir=${PPE_CUDA_DIR:-/usr/local/cuda}
  [ -x "$cuda_dir/bin/nvcc" ] || { echo "petsc-vendor: no nvcc at $cuda_dir/bin/nvcc" >&2; exit 1; }
  # @STUB@ stands for PREFIX/ppekit-nvml-stub (the key is computed before the prefix is
  # known, so the options it hashes name the placeholder; the stub's sources are hashed too)
  options=("${options[@]/#--with-cuda=0/--with-cuda=1}"
    "--with-cudac=$cuda_dir/bin/nvcc" "--with-cuda-arch=${PPE_CUDA_ARCH:-90}"
    "--with-cuda-include=[$cuda_dir/include,@STUB@/include]"
    "--with-cuda-lib=-L$cuda_dir/lib64 -lcudart -lnvtx3interop -lcufft -lcublas -lcusparse -lcusolver -lcurand -L$cuda_dir/lib64/stubs -lcuda -L@STUB@/lib -lnvidia-ml")
fi

if [ -n "${PPE_CI_CACHE:-}" ]; then
  cache=$PPE_CI_CACHE
elif mkdir -p /var/cache/ppekit-ci 2>/dev/null && [ -w /var/cache/ppekit-ci ]; then
  cache=/var/cache/ppekit-ci
else
  cache=$HOME/.cache/ppekit-ci
fi
key=$( {
  sha256sum < "$tarball"; printf '%s\n' "${options[@]}"
  if [ "$cuda" = 1 ]; then cat "$here/nvml-stub/nvml.h" "$here/nvml-stub/nvml-stub.c"; fi
} | sha256sum | cut -c1-12)
name=$(basename "$tarball" .tar.xz)
prefix=$cache/$name-$key
stub=$prefix/ppekit-nvml-stub
options=("${options[@]//@STUB@/$stub}")
if [ "${1:-}" = "--print" ]; then echo "$prefix"; exit 0; fi
if [ -f "$prefix/.ppekit-complete" ]; then echo "$prefix"; exit 0; fi

mkdir -p "$cache"
# one builder at a time per cache entry
exec 9> "$cache/$name-$key.lock"
flock 9
if [ -f "$prefix/.ppekit-complete" ]; then echo "$prefix"; exit 0; fi
rm -rf "$prefix"
work=$(mktemp -d "$cache/build-$name-XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$cache/$name-$key.log
echo "petsc-vendor: building $name into $prefix (log: $log)" >&2
t0=$(date +%s)
build() {
  # the tarball is a `git archive` with or without a top folder
  mkdir "$work/src" && tar -xJf "$tarball" -C "$work/src" || return 1
  local src=$work/src
  [ -f "$src/configure" ] || src=$(dirname "$(find "$work/src" -maxdepth 2 -name configure | head -n 1)")
  cd "$src" || return 1
  # PETSc's configure writes into the source tree; PETSC_DIR/PETSC_ARCH of the caller must
  # not leak into it
  unset PETSC_DIR PETSC_ARCH
  python3 ./configure --prefix="$prefix" PETSC_ARCH=arch-ppekit-ci "${options[@]}" &&
    make PETSC_DIR="$src" PETSC_ARCH=arch-ppekit-ci MAKE_NP="$(nproc)" all &&
    make PETSC_DIR="$src" PETSC_ARCH=arch-ppekit-ci install
}
if [ "$cuda" = 1 ]; then
  # NVML's stand-in (see the top of this file), before configure looks for it
  mkdir -p "$stub/include" "$stub/lib" "$stub/run"
  cp "$here/nvml-stub/nvml.h" "$stub/include/"
  gcc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -Wl,-soname,libnvidia-ml.so.1 \
    -o "$stub/lib/libnvidia-ml.so" "$here/nvml-stub/nvml-stub.c"
  ln -sf ../lib/libnvidia-ml.so "$stub/run/libnvidia-ml.so.1"
fi
(build) > "$log" 2>&1 || {
  # keep configure.log (it is in the build folder, which goes away) for the post-mortem
  cp "$(find "$work/src" -maxdepth 2 -name configure.log | head -n 1)" "$cache/$name-$key.configure.log" 2>/dev/null || true
  echo "petsc-vendor: the build failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
touch "$prefix/.ppekit-complete"
echo "petsc-vendor: built in $(($(date +%s) - t0)) s" >&2
echo "$prefix"
