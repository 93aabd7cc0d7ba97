#!/bin/bash
# Compile every C source of PPEKit (library, tools, examples, tests; -fsyntax-only, -Wall
# -Wextra -Werror) against the headers of other PETSc releases, without building them: the
# check behind "3.18 through 3.25 from one source" for the releases CI does not build.
#
#   ci/petsc-headers.sh PETSC_GIT BUILDDIR TAG...
#
# PETSC_GIT: a clone of PETSc's repository with its release tags (not part of CI: no
# network there). BUILDDIR: a configured and built PPEKit tree (its ppekitconf.h, whose
# PETSc version is rewritten to the tag's). The configuration
# headers PETSc generates (petscconf.h, ...) come from the PETSc of BUILDDIR, or from
# $PETSC_CONF_INCLUDE (3.19 needs 3.18's: its deprecation macros are the older ones).
# Prints the diagnostics per file and one summary line per tag; exits non-zero if any.
set -uo pipefail
git=${1:?usage: petsc-headers.sh PETSC_GIT BUILDDIR TAG...}
bld=$(cd "${2:?usage: petsc-headers.sh PETSC_GIT BUILDDIR TAG...}" && pwd)
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
conf=${PETSC_CONF_INCLUDE:-$(sed -n 's/^PETSC_CFLAGS = .*-I\([^ ]*\/include\).*/\1/p' "$bld/Makefile" | head -n 1)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
for tag in "$@"; do
  d=$work/$tag
  mkdir -p "$d/cfg/ppekit"
  git -C "$git" archive "$tag" include | tar -x -C "$d" || { echo "$tag: no such tag in $git"; bad=$((bad + 1)); continue; }
  for f in petscconf.h petscconfiginfo.h petscmachineinfo.h petscfix.h petscconf_poison.h petscpkg_version.h; do
    [ -f "$conf/$f" ] && cp "$conf/$f" "$d/include/"
  done
  # before 3.22 petscsys.h checks Open MPI's version against these (newer petscconf.h files
  # say PETSC_HAVE_OPENMPI instead)
  if ! grep -q PETSC_HAVE_OMPI_MAJOR_VERSION "$d/include/petscconf.h"; then
    eval "$(mpicc -E -dM -x c /dev/null -include mpi.h 2>/dev/null | awk '/define OMPI_(MAJOR|MINOR|RELEASE)_VERSION /{ print $2 "=" $3 }')"
    printf '#define PETSC_HAVE_OMPI_MAJOR_VERSION %s\n#define PETSC_HAVE_OMPI_MINOR_VERSION %s\n#define PETSC_HAVE_OMPI_RELEASE_VERSION %s\n' \
      "${OMPI_MAJOR_VERSION:-4}" "${OMPI_MINOR_VERSION:-1}" "${OMPI_RELEASE_VERSION:-0}" >> "$d/include/petscconf.h"
  fi
  v=${tag#v}
  sed -e "s/PPEKIT_PETSC_VERSION_MAJOR .*/PPEKIT_PETSC_VERSION_MAJOR $(echo "$v" | cut -d. -f1)/" \
      -e "s/PPEKIT_PETSC_VERSION_MINOR .*/PPEKIT_PETSC_VERSION_MINOR $(echo "$v" | cut -d. -f2)/" \
      -e "s/PPEKIT_PETSC_VERSION_SUBMINOR .*/PPEKIT_PETSC_VERSION_SUBMINOR $(echo "$v" | cut -d. -f3)/" \
      "$bld/include/ppekit/ppekitconf.h" > "$d/cfg/ppekit/ppekitconf.h"
  n=0
  for f in $(git -C "$top" ls-files 'src/*.c' 'plugins/*.c' 'examples/*.c' 'tests/*.c'); do
    out=$(cd "$top" && mpicc -std=c11 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Werror \
          -I"$d/cfg" -I"$bld/include" -Iinclude -Isrc -Itests -Iexamples/bench -I"$d/include" "$f" 2>&1)
    if [ -n "$out" ]; then
      n=$((n + 1))
      echo "== $tag: $f"
      echo "$out" | grep -E "error|warning" | head -n 5
    fi
  done
  echo "$tag: $n files with diagnostics"
  [ $n -eq 0 ] || bad=$((bad + 1))
done
exit $bad
