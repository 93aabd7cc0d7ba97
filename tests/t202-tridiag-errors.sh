#!/bin/sh
# Bad input to the tridiagonal solvers: a clear error on every rank, no hang, at 1, 2 and 3 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2 3; do
  PPE_TEST_TIMEOUT=120 ppe_run_tap "$np" t202-tridiag-errors "$bindir/tests/t202-tridiag-errors"
done
tap_done
