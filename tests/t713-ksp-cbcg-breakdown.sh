#!/bin/sh
# KSP cbcg on bad input (indefinite or nonsymmetric operator, indefinite preconditioner, wrong
# eigenvalue intervals, NaN right-hand side, iteration limit) and the standard KSP behaviour
# (norms, nonzero initial guess with a null space, residual replacement), at 1 and 2 ranks, with
# one and with two global reductions per block.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t713-ksp-cbcg-breakdown "$bindir/tests/t713-ksp-cbcg-breakdown"
done
# both variants whatever s: one reduction per block (the default for s >= 3) and two
ppe_run_tap 1 t713-ksp-cbcg-breakdown "$bindir/tests/t713-ksp-cbcg-breakdown" -reductions 2
ppe_run_tap 2 t713-ksp-cbcg-breakdown "$bindir/tests/t713-ksp-cbcg-breakdown" -reductions 1
tap_done
