#!/bin/sh
# FFT kinds of PC fftptdma: each transform pair diagonalises K with the eigenvalues in
# output order, every location and BC pair (1 rank).
. "$srcdir/tests/lib.sh"
ppe_run_tap 1 t401-fft-kinds "$bindir/tests/t401-fft-kinds"
tap_done
