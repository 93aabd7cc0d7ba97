#!/bin/sh
# PC chebyci at 1, 2, 4 and 8 ranks: fixed and symmetric, matrix-free = assembled, no message
# in modes block and nocomm, subdomain bounds against dense spectra, the Chebyshev error bound,
# bad input, estimated bounds for a matrix without grid.
. "$srcdir/tests/lib.sh"
for np in 1 2 4 8; do
  ppe_run_tap "$np" t601-pc-chebyci "$bindir/tests/t601-pc-chebyci"
done
tap_done
