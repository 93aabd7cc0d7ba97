#!/bin/sh
# examples/embed.c, the program users copy: it builds (make check), solves with the
# matrix-free operator and converges at second order, at 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
prog="$bindir/examples/embed"
for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np"; continue; fi
  e16=$(ppe_mpiexec $np "$prog" -ppe_grid_n 16 -pc_type jacobi -ksp_rtol 1e-10 2>&1 | sed -n 's/.*max error \([0-9.e+-]*\).*/\1/p')
  e32=$(ppe_mpiexec $np "$prog" -ppe_grid_n 32 -pc_type jacobi -ksp_rtol 1e-10 2>&1 | sed -n 's/.*max error \([0-9.e+-]*\).*/\1/p')
  ratio=$(awk -v a="$e16" -v b="$e32" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')
  fge "$ratio" 3.6 && fle "$e32" 1e-3
  tap_check $? "[np=$np] embed: max error $e16 -> $e32 (<= 1e-3) (ratio $ratio >= 3.6)"
done
tap_done
