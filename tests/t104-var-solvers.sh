#!/bin/sh
# Every solver to a true relative residual of 1e-8 on bubbles at density ratio 1000, at 1, 2
# and 4 ranks; a moved density sets the preconditioners up again.
. "$srcdir/tests/lib.sh"
for np in 1 2 4; do
  ppe_run_tap "$np" t104-var-solvers "$bindir/tests/t104-var-solvers"
done
# CG + fftptdma (its symmetric approximation D^-1/2 S^-1 D^-1/2) and CG + chebyci at small ratios
for ratio in 1.5 10; do
  ppe_run_tap 2 "t104-var-solvers ratio $ratio" "$bindir/tests/t104-var-solvers" -ratio $ratio -solvers cg-fftptdma,cg-chebyci,cg-jacobi
done
tap_done
