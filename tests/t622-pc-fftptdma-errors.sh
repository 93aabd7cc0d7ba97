#!/bin/sh
# PC fftptdma: bad input (dofs, stencil width, z points per rank, pencil grid, BC pair,
# non-uniform x, assembled operator without inference) gets a clear error; 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t622-pc-fftptdma-errors "$bindir/tests/t622-pc-fftptdma-errors"
done
tap_done
