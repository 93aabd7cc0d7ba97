#!/bin/sh
# The 2D grid: options, getters, eigenvalues against the 3D grid, view, operator bounds and
# the errors of settings that contradict a 2D grid, at 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t004-grid-2d "$bindir/tests/t004-grid-2d"
done
tap_done
