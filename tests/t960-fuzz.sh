#!/bin/sh
# Option fuzzing of ppe-solve (tests/fuzz/ppe-fuzz.py): random combinations of every
# documented PPEKit option and of PETSc's KSP/PC options, valid and invalid values, on
# small grids at 1..4 ranks, three runs at a time (a launch mostly waits on MPI
# start-up). One TAP line per failure kind (crash, timeout, exit without a PETSc
# message, no JSON line, false convergence, invalid value accepted, ignored option) and
# one for the coverage of the documented options; the report and the command line of
# every failing case come as comment lines.
# PPE_FUZZ_SEED and PPE_FUZZ_CASES choose another draw; the sanitizer tree runs the
# first 30 cases of the same seed (each launch costs about three times as much there).
. "$srcdir/tests/lib.sh"
light_skip "option fuzzing"
seed=${PPE_FUZZ_SEED:-960}
if [ "$PPE_SANITIZERS" = yes ]; then
  cases=${PPE_FUZZ_CASES:-30}
  echo "# sanitizer tree: the first $cases cases of seed $seed (300 in the plain tree)"
else
  cases=${PPE_FUZZ_CASES:-300}
fi
PPE_TEST_TIMEOUT=${PPE_TEST_TIMEOUT_FUZZ:-120} python3 "$srcdir/tests/fuzz/ppe-fuzz.py" --tap \
  --seed "$seed" --cases "$cases" --jobs 2 --timeout "${PPE_TEST_TIMEOUT_FUZZ:-120}" \
  --builddir "$abs_top_builddir" --srcdir "$srcdir" --max-np "$PPE_TEST_MAX_NP"
rc=$?
# the wisdom files of -pc_fftptdma_wisdom cases
rm -f "${TMPDIR:-/tmp}"/ppe-fuzz-wisdom-*
# every launch had its own ledger, checked by the fuzzer (failure kind memcheck); this
# script launches nothing itself
rm -f "$ppe_ledger"
# the script prints its own plan; a crash of the fuzzer itself stops the test
if [ "$rc" -gt 1 ]; then
  echo "Bail out! ppe-fuzz.py exited with status $rc"
fi
exit 0
