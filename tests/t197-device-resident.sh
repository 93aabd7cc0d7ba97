#!/bin/sh
# Device-resident solves (emu here; PPE_TEST_BACKEND=cuda|hip under make check-gpu): cbcg and
# bcgsfused with chebyci (every mode), tileilu and none, preonly + fftptdma, against the host
# run (iterations equal, solutions to 1e-12), with b copied in and x out once per solve (the
# reductions' numbers besides, whatever the iteration count), at 1 and 2 ranks (halo faces
# counted apart), and the host view of PPEKit's device vector type kept coherent (every value
# checked printed).
. "$srcdir/tests/lib.sh"
light_skip "device-resident solves on the emulated back end (ran in build/ and the other full trees)"
for np in 1 2; do
  ppe_run_tap "$np" t197-device-resident "$bindir/tests/t197-device-resident" -ppe_test_backend "${PPE_TEST_BACKEND:-emu}"
done
tap_done
