#!/bin/sh
# KSP bcgsfused against PETSc's bcgs at 1, 2, 4 and 8 ranks: iterations, solutions, counted
# reductions per iteration; fused apply + dot; a changing preconditioner; breakdowns.
. "$srcdir/tests/lib.sh"
for np in 1 2 4 8; do
  ppe_run_tap "$np" t701-ksp-bcgsfused "$bindir/tests/t701-ksp-bcgsfused"
done
tap_done
