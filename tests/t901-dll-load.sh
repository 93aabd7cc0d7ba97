#!/bin/sh
# -dll_append: an unmodified PETSc program gets PPEKit's types from libppekit.so.
. "$srcdir/tests/lib.sh"
prog="$bindir/tests/t901-dll-load"
lib="$abs_top_builddir/.libs/libppekit.so"

# control: without the library the type is unknown, so the check below can fail
out=$(ppe_mpiexec 1 "$prog" -mat_type ppestencil 2>&1)
rc=$?
echo "$out" | grep -q "Unknown type" && [ $rc -ne 0 ]
tap_check $? "without -dll_append, -mat_type ppestencil is an unknown type (exit $rc)"

for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np"; continue; fi
  out=$(ppe_mpiexec $np "$prog" -dll_append "$lib" -mat_type ppestencil -info 2>&1)
  rc=$?
  echo "$out" | grep -q "^matrix type: ppestencil$"
  tap_check $? "[np=$np] -dll_append libppekit.so -mat_type ppestencil creates a ppestencil matrix (exit $rc)"
  echo "$out" | grep -q "PPEKitInitializePackage(): PPEKit [0-9.]* registered"
  tap_check $? "[np=$np] -info shows PPEKitInitializePackage registering the package"
done

out=$(ppe_mpiexec 1 "$prog" -dll_append "$lib" -help 2>&1)
echo "$out" | grep -q -- "-mat_type <.*>.*ppestencil"
tap_check $? "-help lists ppestencil among the matrix types"
tap_done
