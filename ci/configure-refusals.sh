#!/bin/bash
# configure refuses a PETSc of complex scalars or of another precision than double, with a
# message that names the setting: checked against copies of a real-double PETSc's headers
# (PETSC_PREFIX, an installation with include/ and lib/pkgconfig/PETSc.pc) whose petscconf.h
# says complex, then single precision. Prints "ok - ..." / "not ok - ..."; exits with the
# number of failures.
set -uo pipefail
petsc=${1:?usage: configure-refusals.sh PETSC_PREFIX}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fake() { # NAME SED-SCRIPT: a PETSc prefix whose petscconf.h is edited by SED-SCRIPT
  mkdir -p "$work/$1/lib/pkgconfig"
  cp -r "$petsc/include" "$work/$1/include"
  sed -i "$2" "$work/$1/include/petscconf.h"
  pc=$(ls "$petsc"/lib/pkgconfig/PETSc.pc "$petsc"/lib/pkgconfig/petsc.pc 2>/dev/null | head -n 1)
  # headers from the copy, the library of the original (configure stops before linking)
  sed -e "s|^prefix=.*|prefix=$work/$1|" -e "s|\${libdir}|$petsc/lib|g" "$pc" > "$work/$1/lib/pkgconfig/PETSc.pc"
}
expect() { # NAME PATTERN
  out=$(cd "$work" && mkdir -p "b-$1" && cd "b-$1" && "$top/configure" --with-petsc="$work/$1" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep -q "configure: error: .*$2"; then
    echo "ok - configure refuses a $1 PETSc: $(echo "$out" | grep 'configure: error' | cut -c18-150)..."
  else
    echo "not ok - configure refuses a $1 PETSc with a message matching '$2' (exit $rc)"
    echo "$out" | tail -n 5 | sed 's/^/#   /'
    fails=$((fails + 1))
  fi
}
fake complex '$a #define PETSC_USE_COMPLEX 1'
expect complex "uses complex scalars (--with-scalar-type=complex).*real scalars"
fake single 's/#define PETSC_USE_REAL_DOUBLE 1/#define PETSC_USE_REAL_SINGLE 1/'
expect single "uses single precision (--with-precision=single).*double precision"
exit $fails
