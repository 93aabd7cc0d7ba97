#!/bin/sh
# PC tileilu against PETSc's bjacobi + ILU(0) (one tile per rank, and small tiles on the
# permuted matrix), layouts, coefficient sources, transpose, CG iterations; 1, 2 and 4 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2 4; do
  ppe_run_tap "$np" t611-pc-tileilu "$bindir/tests/t611-pc-tileilu"
done
tap_done
