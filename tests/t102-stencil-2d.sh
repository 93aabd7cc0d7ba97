#!/bin/sh
# The 5-point operator of a 2D grid: matrix-free vs AIJ (and hyprestruct), vs a formula of the
# test's own, symmetry, null space, DM, overlap, rank-local block, at 1, 2, 3, 4 and 8 ranks
# (13 x 11: uneven splits at every count), and process grids that split only x or only y.
. "$srcdir/tests/lib.sh"
for np in 1 2 3 4 8; do
  ppe_run_tap "$np" t102-stencil-2d "$bindir/tests/t102-stencil-2d"
done
ppe_run_tap 3 "t102-stencil-2d x split" "$bindir/tests/t102-stencil-2d" -n 7,5 -procs 3,1
ppe_run_tap 4 "t102-stencil-2d y split" "$bindir/tests/t102-stencil-2d" -n 5,9 -procs 1,4
tap_done
