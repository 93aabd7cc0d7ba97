#!/bin/bash
# What a user of an installed PPEKit does, checked on an installation PREFIX:
#   ci/installed-check.sh PREFIX OTHER_PETSC_INCLUDE
# 1. the installed ppe-solve starts and solves without LD_LIBRARY_PATH (run-time paths);
# 2. examples/embed.c built with `pkg-config --cflags --libs ppekit`, with PREFIX's pkg-config
#    directory first on the path and the system's (Debian's PETSc.pc) after it, links exactly
#    one PETSc, the one PPEKit was built with, and runs on 2 ranks with PETSc's list of unfreed
#    memory (-malloc_dump) empty;
# 3. the same program compiled against another PETSc's headers (OTHER_PETSC_INCLUDE: another
#    release, or another index size) stops at compile time with PPEKit's message.
# Prints "ok - ..." / "not ok - ..." lines; exits with the number of failures.
set -uo pipefail
prefix=${1:?usage: installed-check.sh PREFIX [OTHER_PETSC_INCLUDE]}
other=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
unset LD_LIBRARY_PATH
fails=0
check() { # STATUS MESSAGE [OUTPUT]
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else
    echo "not ok - $2"
    [ -n "${3:-}" ] && echo "$3" | tail -n 15 | sed 's/^/#   /'
    fails=$((fails + 1))
  fi
}
pcdir="$prefix/lib/pkgconfig"
petsc_pcdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=petsc_pcdir ppekit)
petsc_libdir=$(PKG_CONFIG_PATH="$petsc_pcdir" pkg-config --variable=libdir PETSc 2>/dev/null || echo unknown)
petsc_version=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=petsc_version ppekit)

out=$(timeout 120 mpiexec -n 1 "$prefix/bin/ppe-solve" -ppe_grid_n 12 -ppe_json 2>&1)
echo "$out" | grep '^{' | grep -q '"reason": "CONVERGED_RTOL"'
check $? "installed ppe-solve (PETSc $petsc_version) runs without LD_LIBRARY_PATH and converges" "$out"

out=$(PKG_CONFIG_PATH="$pcdir" mpicc "$top/examples/embed.c" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs ppekit) -o "$work/embed" 2>&1)
check $? "examples/embed.c builds with pkg-config --cflags --libs ppekit alone" "$out"
if [ -x "$work/embed" ]; then
  libs=$(ldd "$work/embed" | grep -E 'libpetsc[^ ]*\.so' || true)
  n=$(echo "$libs" | grep -c . || true)
  [ "$n" -eq 1 ] && echo "$libs" | grep -qF "$petsc_libdir/"
  check $? "the program links exactly one PETSc, PPEKit's ($petsc_libdir): $(echo "$libs" | awk '{ print $3 }' | tr '\n' ' ')" "$libs"
  out=$(timeout 120 mpiexec --oversubscribe -n 2 "$work/embed" -ppe_grid_n 16 -pc_type jacobi -malloc_dump 2>&1)
  echo "$out" | grep -q "^embed: [0-9]* iterations, max error" && ! echo "$out" | grep -Eq '^\[ *[0-9]+\] *[0-9]+ bytes '
  check $? "the program runs on 2 ranks without LD_LIBRARY_PATH, no unfreed memory: $(echo "$out" | grep '^embed:')" "$out"
fi
if [ -n "$other" ]; then
  out=$(PKG_CONFIG_PATH="$pcdir" mpicc -I"$other" "$top/examples/embed.c" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs ppekit) -o "$work/embed-mixed" 2>&1)
  rc=$?
  [ $rc -ne 0 ] && echo "$out" | grep -Eq "PPEKit was built with (another PETSc|a PETSc of another index size)"
  check $? "compiled against another PETSc's headers ($other): stops at compile time with PPEKit's message" "$out"
fi
exit $fails
