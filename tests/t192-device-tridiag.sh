#!/bin/sh
# The device launchers of the batched tridiagonal kernels and of the tile ILU(0) sweeps (emu
# here; PPE_TEST_BACKEND=cuda|hip under make check-gpu) against the host back end, bitwise:
# every kernel pre-computed and fly on full and partial blocks of several layouts; tile ILU
# xyz, zyx gather, sweep and scatter.
. "$srcdir/tests/lib.sh"
ppe_run_tap 1 t192-device-tridiag "$bindir/tests/t192-device-tridiag" -ppe_backend "${PPE_TEST_BACKEND:-emu}"
tap_done
