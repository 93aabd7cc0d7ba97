#!/bin/sh
# Manufactured solutions through ppe-solve with PETSc's own CG + hypre and CG + GAMG
# (matrix-free operator, assembled preconditioning matrix): converged to rtol 1e-10,
# and err_max falls by at least 3.6x when the spacing halves (second order), for
# periodic, Neumann, Dirichlet and mixed BCs, cell and vertex, uniform and tanh z.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

# unknowns for nint mesh intervals: cells and periodic n = nint; vertices lose a
# point per Dirichlet end and gain one otherwise
npoints() { # loc lo hi nint
  if [ "$1" = cell ] || [ "$2" = P ]; then echo "$4"; return; fi
  _n=$(($4 + 1))
  [ "$2" = D ] && _n=$((_n - 1))
  [ "$3" = D ] && _n=$((_n - 1))
  echo "$_n"
}
sizes() { # bc loc nint -> nx,ny,nz
  _b=$1
  printf '%s,%s,%s' "$(npoints "$2" "$(echo "$_b" | cut -c1)" "$(echo "$_b" | cut -c2)" "$3")" \
    "$(npoints "$2" "$(echo "$_b" | cut -c3)" "$(echo "$_b" | cut -c4)" "$3")" \
    "$(npoints "$2" "$(echo "$_b" | cut -c5)" "$(echo "$_b" | cut -c6)" "$3")"
}

for bc in PPPPPP NNNNNN DDDDDD NDDNND; do
  for loc in cell vertex; do
    for st in none tanh; do
      for pc in hypre gamg; do
        [ $pc = hypre ] && ! need_package hypre "mms $bc $loc z=$st cg+hypre" && continue
        e16=""
        for nint in 16 32; do
          out=$(ppe_mpiexec 1 "$solve" -problem mms -ppe_bc $bc -ppe_grid_location $loc -ppe_grid_z_stretch $st \
                -ppe_grid_n "$(sizes $bc $loc $nint)" -ppe_pmat aij -ksp_type cg -pc_type $pc -ksp_rtol 1e-10 -ppe_json 2>&1)
          reason=$(echo "$out" | json_get reason)
          rrel=$(echo "$out" | json_get rnorm_rel)
          e=$(echo "$out" | json_get err_max)
          if [ "$nint" = 16 ]; then e16=$e; else e32=$e; fi
        done
        ratio=$(awk -v a="$e16" -v b="$e32" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
        [ "$reason" = CONVERGED_RTOL ] && fle "$rrel" 1e-9 && fge "$ratio" 3.6
        tap_check $? "mms $bc $loc z=$st cg+$pc: $reason, rnorm_rel $rrel, err_max $e16 -> $e32 (ratio $ratio >= 3.6)"
      done
    done
  done
done

# the same answer on 2 and 3 ranks (uneven splits) as on 1 (with GAMG where PETSc has no hypre)
pcr=hypre
[ "$PPE_PETSC_HAS_HYPRE" = yes ] || pcr=gamg
ref=$(ppe_mpiexec 1 "$solve" -problem mms -ppe_bc NDDNND -ppe_grid_z_stretch tanh -ppe_grid_n 19,17,15 -ppe_pmat aij -ksp_type cg -pc_type $pcr -ksp_rtol 1e-10 -ppe_json 2>&1 | json_get err_max)
for np in 2 3; do
  if ! np_allowed $np; then tap_skip "np=$np"; continue; fi
  e=$(ppe_mpiexec $np "$solve" -problem mms -ppe_bc NDDNND -ppe_grid_z_stretch tanh -ppe_grid_n 19,17,15 -ppe_pmat aij -ksp_type cg -pc_type $pcr -ksp_rtol 1e-10 -ppe_json 2>&1 | json_get err_max)
  awk -v a="$e" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-6 * b) }'
  tap_check $? "[np=$np] mms NDDNND tanh cg+$pcr err_max $e equals the 1-rank $ref to 1e-6"
done
tap_done
