#!/bin/sh
# valgrind memcheck on 1-rank runs of one C test of every type: grid and operator
# (t101), tridiagonal batches (t201), PC chebyci (t601), tileilu (t611), fftptdma (t621, every
# 20th case, no large grid), KSP bcgsfused (t701), cbcg with its breakdown paths (t713), and the
# fault program of every type's bad input (one create/destroy cycle instead of 200). Each
# program's own checks must pass too. Zero memcheck errors expected; tests/valgrind-lib.sh says
# how. (A memchecked launch costs about 10 s of start-up and 20-50x the run time: CI time.)
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/valgrind-lib.sh"
# PPE_TEST_VALGRIND_UNITS=no (run-tests.sh's PETSc 3.25 tree): these programs exercise
# PPEKit's own kernels and life cycles, memchecked against Debian's PETSc in build/; the
# solves through the other PETSc are memchecked by t981
if [ "${PPE_TEST_VALGRIND_UNITS:-yes}" = no ]; then
  tap_skip "valgrind units: PPE_TEST_VALGRIND_UNITS=no (they ran in build/)"
  tap_done
  exit 0
fi
valgrind_prereq
t="$bindir/tests"
ppe_run_tap 1 "valgrind t101-stencil-ops" "$t/t101-stencil-ops"
ppe_run_tap 1 "valgrind t201-tridiag-solve" "$t/t201-tridiag-solve"
ppe_run_tap 1 "valgrind t601-pc-chebyci" "$t/t601-pc-chebyci"
ppe_run_tap 1 "valgrind t611-pc-tileilu" "$t/t611-pc-tileilu"
ppe_run_tap 1 "valgrind t621-pc-fftptdma" "$t/t621-pc-fftptdma" -stride 20 -big 0
ppe_run_tap 1 "valgrind t701-ksp-bcgsfused" "$t/t701-ksp-bcgsfused"
ppe_run_tap 1 "valgrind t713-ksp-cbcg-breakdown" "$t/t713-ksp-cbcg-breakdown"
ppe_run_tap 1 "valgrind t950-faults" "$t/t950-faults" -malloc_dump -cycles 1
tap_done
