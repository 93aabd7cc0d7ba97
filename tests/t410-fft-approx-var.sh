#!/bin/sh
# PC fftptdma -pc_fftptdma_approximate on symmetric variable-coefficient (multiphase bubble)
# matrices at 1 and 2 ranks: the PC's operator symmetric and positive definite off the null
# space, CG converges at density ratios 1.5, 10 and 1000 (singular and Dirichlet z walls).
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t410-fft-approx-var "$bindir/tests/t410-fft-approx-var"
done
tap_done
