#!/bin/bash
# Build PETSc 3.25.4 from the release tarball in ../shared/vendor/ (or $PPE_PETSC_TARBALL)
# and install it into a cache outside the clone, so that only the first CI run on a machine
# pays for the build (about 15 minutes on 2 cores). Prints the install prefix (a directory
# holding include/, lib/ and lib/pkgconfig/PETSc.pc) on its last line of standard output.
#
#   ci/petsc-vendor.sh            build if the cache lacks it, then print the prefix
#   ci/petsc-vendor.sh --print    print the prefix the cache would hold, build nothing
#
# The cache key is the SHA-256 of the tarball and of this recipe (the configure options
# below), so a new tarball or a changed option builds a fresh copy beside the old one.
# Cache root: $PPE_CI_CACHE, else /var/cache/ppekit-ci when writable, else
# ~/.cache/ppekit-ci. Only Debian's packages are used: its MPI (mpicc), BLAS/LAPACK and
# FFTW; nothing is downloaded (PETSc's configure downloads only what --download-* asks).
set -euo pipefail
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

if [ -n "${PPE_CI_CACHE:-}" ]; then
  cache=$PPE_CI_CACHE
elif mkdir -p /var/cache/ppekit-ci 2>/dev/null && [ -w /var/cache/ppekit-ci ]; then
  cache=/var/cache/ppekit-ci
else
  cache=$HOME/.cache/ppekit-ci
fi
key=$( { sha256sum < "$tarball"; printf '%s\n' "${options[@]}"; } | sha256sum | cut -c1-12)
name=$(basename "$tarball" .tar.xz)
prefix=$cache/$name-$key
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
(build) > "$log" 2>&1 || { echo "petsc-vendor: the build failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
touch "$prefix/.ppekit-complete"
echo "petsc-vendor: built in $(($(date +%s) - t0)) s" >&2
echo "$prefix"
