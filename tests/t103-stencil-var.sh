#!/bin/sh
# The variable-coefficient operator: formula, twins, symmetry, null space, emulated device,
# local block, refused coefficients; at 1, 2, 3, 4 and 8 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2 3 4 8; do
  ppe_run_tap "$np" t103-stencil-var "$bindir/tests/t103-stencil-var"
done
tap_done
