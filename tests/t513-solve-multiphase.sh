#!/bin/sh
# The variable-density problems through ppe-solve: mms-var is second order (err_max falls by
# at least 3.6x per halving on 16, 32, 64 cells) at 1 and 4 ranks, in 3D and 2D; bubbles at
# density ratio 1000 converge to a true relative residual of 1e-8 with PPEKit's solvers and
# the baselines, with the same iterations at 1, 2 and 4 ranks for CG + Jacobi; a time loop
# with moving bubbles gives each step a new operator (iterations and residuals of each step);
# the JSON line has the keys of a variable operator; bad options are refused.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

# mms-var: second order at 1 and 4 ranks (CG + chebyci, rtol 1e-11)
for np in 1 4; do
  if ! np_allowed $np; then tap_skip "mms-var np=$np"; continue; fi
  for dim in 3 2; do
    prev=""; errs=""; ok=0
    for n in 16 32 64; do
      [ $dim = 3 ] && [ $n = 64 ] && [ "${PPE_TEST_LIGHT:-no}" = yes ] && continue
      g=$n; [ $dim = 2 ] && g=$((4 * n)),$((4 * n))
      out=$(ppe_mpiexec $np "$solve" -problem mms-var -ppe_grid_n $g -pc_type chebyci -ksp_rtol 1e-11 -ppe_json 2>&1)
      e=$(echo "$out" | json_get err_max)
      r=$(echo "$out" | json_get reason)
      [ "$r" = CONVERGED_RTOL ] || ok=1
      if [ -n "$prev" ]; then
        ratio=$(awk -v a="$prev" -v b="$e" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
        fge "$ratio" 3.6 || ok=1
        errs="$errs -> $e (ratio $ratio)"
      else errs="$e"; fi
      prev=$e
    done
    tap_check $ok "[np=$np] mms-var ${dim}D, CG + chebyci: err_max $errs (each ratio >= 3.6, converged)"
  done
done

# bubbles at ratio 1000: every solver to true rtol 1e-8 (the study's stopping rule)
bub="-problem bubbles -ppe_grid_n 32 -ppe_density_ratio 1000 -ppe_stop true -ppe_rtol 1e-8"
for s in "-ksp_type cg -pc_type jacobi" "-ksp_type cg -pc_type chebyci" "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" \
         "-ksp_type cg -pc_type tileilu" "-ksp_type cbcg -ksp_cbcg_s 8 -pc_type jacobi" "-ksp_type cg -pc_type fftptdma" \
         "-ppe_pmat aij -ksp_type cg -pc_type gamg" "-ppe_operator aij -ppe_assembled_type hyprestruct -ksp_type cg -pc_type pfmg"; do
  case "$s" in *pfmg*) need_package hypre "bubbles $s" || continue ;; esac
  out=$(ppe_mpiexec 2 "$solve" $bub $s -ppe_json 2>&1)
  r=$(echo "$out" | json_get reason); rr=$(echo "$out" | json_get rnorm_rel); its=$(echo "$out" | json_get its)
  [ "$r" = CONVERGED_RTOL ] && fle "$rr" 1e-8
  tap_check $? "bubbles 32^3 ratio 1000, $s: $r in $its iterations, rnorm_rel $rr (<= 1e-8)"
done

# the same iterations and residual at 1, 2 and 4 ranks (CG + Jacobi: no rank-dependent PC)
ref=""
for np in 1 2 4; do
  if ! np_allowed $np; then tap_skip "bubbles np=$np"; continue; fi
  out=$(ppe_mpiexec $np "$solve" $bub -ksp_type cg -pc_type jacobi -ppe_json 2>&1)
  its=$(echo "$out" | json_get its); rr=$(echo "$out" | json_get rnorm_rel)
  [ -z "$ref" ] && ref=$its && rref=$rr
  d=$((its - ref)); [ $d -lt 0 ] && d=$((-d))
  [ $d -le 1 ] && awk -v a="$rr" -v b="$rref" 'BEGIN { exit !(a > 0.5 * b && a < 2 * b) }'
  tap_check $? "[np=$np] bubbles CG + Jacobi: $its iterations (1 rank: $ref, at most 1 apart), rnorm_rel $rr"
done

# a time loop: the bubbles move between 4 solves; each step converges on its own operator
out=$(ppe_mpiexec 2 "$solve" $bub -ppe_grid_n 24 -ksp_type cg -pc_type chebyci -ppe_repeat 4 -ppe_bubbles_move -ppe_json 2>&1)
its=$(echo "$out" | grep '^{' | tail -n 1 | sed -n 's/.*"repeat_its": \[\([^]]*\)\].*/\1/p'); mv=$(echo "$out" | json_get bubbles_move); st=$(echo "$out" | json_get step_setup_s)
r=$(echo "$out" | json_get reason); rr=$(echo "$out" | json_get rnorm_rel)
[ "$mv" = true ] && [ "$r" = CONVERGED_RTOL ] && fle "$rr" 1e-8 && [ "$st" != null ]
tap_check $? "moving bubbles, 4 steps, CG + chebyci: iterations $its, last rnorm_rel $rr, step set-up $st s (a number)"
# without -ppe_bubbles_move the density stays: no step set-up is reported
st=$(ppe_mpiexec 2 "$solve" $bub -ppe_grid_n 24 -ksp_type cg -pc_type chebyci -ppe_repeat 2 -ppe_json 2>&1 | json_get step_setup_s)
[ "$st" = null ]
tap_check $? "bubbles without -ppe_bubbles_move: step_setup_s $st (null)"

# the JSON line of a variable operator, and the outside check of the line
out=$(ppe_mpiexec 1 "$solve" $bub -ppe_grid_n 16 -ppe_json 2>&1)
v=$(echo "$out" | json_get variable); bmin=$(echo "$out" | json_get beta_min); bmax=$(echo "$out" | json_get beta_max)
[ "$v" = true ] && awk -v a="$bmin" -v b="$bmax" 'BEGIN { exit !(a > 9.9e-4 && a < 1.01e-3 && b > 0.99 && b < 1.01) }'
tap_check $? "JSON: variable $v, beta in [$bmin, $bmax] (1e-3, 1 at ratio 1000)"
checker=${PPE_CHECK_SOLVE_JSON:-$abs_top_srcdir/../shared/tools/check-solve-json}
if [ -f "$checker" ]; then
  msg=$(echo "$out" | grep '^{' | tail -n 1 | python3 "$checker" 2>&1)
  tap_check $? "JSON of a bubbles run passes check-solve-json: $msg"
else
  tap_skip "check-solve-json not found at $checker"
fi

# bad options: refused with a message
for bad in "-ppe_density_ratio 0|finite and positive" "-ppe_density_ratio -3|finite and positive" "-ppe_bubbles -1|must be >= 0" \
           "-ppe_bubbles_radius 0.4|must be in (0, 0.25)" "-ppe_bubbles_radius 0|must be in (0, 0.25)"; do
  opt=${bad%%|*}; msg=${bad#*|}
  out=$(ppe_mpiexec 1 "$solve" -problem bubbles -ppe_grid_n 8 $opt 2>&1); rc=$?
  [ $rc -ne 0 ] && echo "$out" | grep -q -- "$msg"
  tap_check $? "bubbles $opt refused: \"$msg\""
done
out=$(ppe_mpiexec 1 "$solve" -problem mms -ppe_grid_n 8 -ppe_bubbles_move -options_left 2>&1)
echo "$out" | grep -q "Option left: name:-ppe_bubbles_move"
tap_check $? "-ppe_bubbles_move on problem mms: not read, named by -options_left"
out=$(ppe_mpiexec 1 "$solve" -problem mms-var -ppe_grid_n 8 -ppe_bc NNNNNN 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "mms-var is posed with periodic directions and Dirichlet walls"
tap_check $? "mms-var with other BCs refused"
tap_done
