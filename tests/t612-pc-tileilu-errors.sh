#!/bin/sh
# PC tileilu: bad input (zero pivot naming the tile, no DMDA, 2D, dofs, not 7-point, SBAIJ,
# tile sizes) gets a clear error on every rank; a tile larger than the box is clamped.
. "$srcdir/tests/lib.sh"
for np in 1 2 4; do
  ppe_run_tap "$np" t612-pc-tileilu-errors "$bindir/tests/t612-pc-tileilu-errors"
done
tap_done
