#!/bin/sh
# Pencil transposes (grouped all-to-all): values, round trip, bytes; 1, 3 and 4 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 3 4; do
  ppe_run_tap "$np" t301-transpose-boxes "$bindir/tests/t301-transpose-boxes"
done
tap_done
