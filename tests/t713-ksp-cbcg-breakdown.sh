#!/bin/sh
# KSP cbcg on bad input (indefinite or nonsymmetric operator, indefinite preconditioner, wrong
# eigenvalue intervals, NaN right-hand side, iteration limit) and the standard KSP behaviour
# (norms, nonzero initial guess with a null space, residual replacement), at 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t713-ksp-cbcg-breakdown "$bindir/tests/t713-ksp-cbcg-breakdown"
done
tap_done
