#!/bin/sh
# What a user sees: ppe-solve's summary with -ppe_grid_view and -ksp_view, compared with
# tests/output/t503-solve-view_npN.out after masking times and memory. PETSc's own lines of
# -ksp_view changed wording in 3.21 and 3.25, and 3.25 counts one more reduction in a 2-rank
# KSPSolve: the expected output of 3.25 is t503-solve-view_npN-petsc3.25.out (expected_output).
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"
mask() { sed -e 's/^\(  time:\).*/\1 (masked)/' -e 's/^\(  waits in MPI:\).*/\1 (masked)/' -e 's/\(bytes sent; peak memory\) [0-9.]* MB/\1 (masked) MB/'; }
for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np"; continue; fi
  exp=$(expected_output "t503-solve-view_np$np")
  out=$(ppe_mpiexec $np "$solve" -problem mms -ppe_grid_n 10,9,8 -ppe_bc NDDNND -ppe_grid_z_stretch tanh \
        -ppe_grid_procs 1,1,$np -ppe_grid_view -ksp_view 2>&1 | mask)
  if [ "$out" = "$(cat "$exp")" ]; then
    tap_ok "[np=$np] output matches $(basename "$exp")"
  else
    echo "$out" | diff "$exp" - | sed 's/^/# /' | head -n 40
    tap_notok "[np=$np] output differs from $(basename "$exp")"
  fi
done
tap_done
