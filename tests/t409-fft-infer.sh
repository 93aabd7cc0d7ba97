#!/bin/sh
# Operator inference for PC fftptdma (PPESeparableInferFromMat) at 1, 2, 4 and 8 ranks:
# every BC combination on one rank, a subset (one per 7 plus the uniform ones) on more.
. "$srcdir/tests/lib.sh"
for np in 1 2 4 8; do
  ppe_run_tap "$np" t409-fft-infer "$bindir/tests/t409-fft-infer"
done
tap_done
