#!/bin/sh
# The stencil operator on a device back end (emu here; PPE_TEST_BACKEND=cuda|hip under
# make check-gpu) against the host: MatMult, local block, apply + dots, PC chebyci's fused
# step, bitwise, at 1, 2 and 4 ranks (halo faces copied to the device, overlap on and off).
. "$srcdir/tests/lib.sh"
for np in 1 2 4; do
  ppe_run_tap "$np" t191-device-stencil "$bindir/tests/t191-device-stencil" -backend "${PPE_TEST_BACKEND:-emu}"
done
tap_done
