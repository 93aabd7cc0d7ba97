#!/bin/sh
# The examples users copy: projection.c makes a velocity divergence-free to 1e-10 after
# one pressure solve (CG + fftptdma by default, and CG + Jacobi); channel.c's time loop keeps every step converged and accurate.
# At 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np examples"; continue; fi
  for pcopt in "" "-pc_type jacobi"; do
    out=$(ppe_mpiexec $np "$bindir/examples/projection" -ppe_grid_n 24 $pcopt 2>&1)
    before=$(echo "$out" | sed -n 's/.*max |div u\*| = \([0-9.e+-]*\),.*/\1/p')
    after=$(echo "$out" | sed -n 's/.*max |div u| = \([0-9.e+-]*\)$/\1/p')
    its=$(echo "$out" | sed -n 's/.*pressure solve \([0-9]*\) iterations.*/\1/p')
    if [ -z "$pcopt" ]; then
      # default: CG + PC fftptdma, an exact solve: one or two iterations
      fge "$before" 1 && fle "$after" 1e-10 && [ -n "$its" ] && [ "$its" -le 2 ]
      tap_check $? "[np=$np] projection (CG + fftptdma): max |div u*| $before -> max |div u| $after <= 1e-10 in $its <= 2 iterations"
    else
      fge "$before" 1 && fle "$after" 1e-10
      tap_check $? "[np=$np] projection ($pcopt): max |div u*| $before -> max |div u| $after <= 1e-10 in $its iterations"
    fi
  done
  out=$(ppe_mpiexec $np "$bindir/examples/channel" -ppe_grid_n 24 -steps 4 -ksp_converged_reason 2>&1)
  nconv=$(echo "$out" | grep -c "Linear solve converged")
  worst=$(echo "$out" | sed -n 's/.*worst max error \([0-9.e+-]*\),.*/\1/p')
  [ "$nconv" = 4 ] && fle "$worst" 5e-3
  tap_check $? "[np=$np] channel: 4 time steps, $nconv converged, worst max error $worst <= 5e-3"
done
tap_done
