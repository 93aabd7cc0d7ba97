#!/bin/sh
# Fast DCT/DST (src/fft/fastdct.c): every supported r2r kind against FFTW's own r2r plans,
# n = 1..97, contiguous, strided and general-stride lines, in and out of place (1 rank).
. "$srcdir/tests/lib.sh"
# the sanitizer tree (about 20x slower here) takes every 8th length and 97
step=1
[ "$PPE_SANITIZERS" = yes ] && step=8
ppe_run_tap 1 t402-fft-fastdct "$bindir/tests/t402-fft-fastdct" -step $step
tap_done
