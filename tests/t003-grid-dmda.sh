#!/bin/sh
# Grid attached to a user's DMDA, and its mismatch errors, at 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t003-grid-dmda "$bindir/tests/t003-grid-dmda"
done
tap_done
