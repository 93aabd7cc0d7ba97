#!/bin/sh
# Batched tridiagonal solvers against dense LAPACK, every method, layout and system family,
# at 1, 2, 3, 4 and 8 ranks in the z group (uneven rows per rank); bytes per solve vs model.
. "$srcdir/tests/lib.sh"
for np in 1 2 3 4 8; do
  ppe_run_tap "$np" t201-tridiag-solve "$bindir/tests/t201-tridiag-solve"
done
tap_done
