#!/bin/sh
# The device launchers of the Krylov vector kernels, the tall-skinny block kernels and the
# transpose box copies (emu here; PPE_TEST_BACKEND=cuda|hip under make check-gpu) against the
# host: element-wise kernels, combine, x/r update, Chebyshev step and box copies bitwise; dot,
# update_r's sums and Gram products to a relative tolerance.
. "$srcdir/tests/lib.sh"
ppe_run_tap 1 t193-device-krylov "$bindir/tests/t193-device-krylov" -ppe_backend "${PPE_TEST_BACKEND:-emu}"
tap_done
