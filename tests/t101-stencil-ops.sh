#!/bin/sh
# Matrix-free vs AIJ stencil, overlap, symmetry, null space at 1, 2, 3, 4 and 8 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2 3 4 8; do
  ppe_run_tap "$np" t101-stencil-ops "$bindir/tests/t101-stencil-ops"
done
# a box split so thin that ranks own a single plane
ppe_run_tap 4 "t101-stencil-ops thin" "$bindir/tests/t101-stencil-ops" -n 5,4,4 -ppe_grid_procs 1,1,4
tap_done
