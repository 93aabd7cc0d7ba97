#!/bin/sh
# bcgsfused + chebyci through ppe-solve on the Bi-CGSTAB paper's problem: the paper's
# ordering of outer iterations, synchronisations counted per iteration (halo exchanges and
# reductions), the study's other preconditioners (PCKSP, PCBJACOBI on the matrix-free
# operator), -help / -ksp_view / -log_view contents, and bad input through the options.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

run() { # np options... -> full output in $out, JSON line in $json
  _np=$1
  shift
  out=$(ppe_mpiexec "$_np" "$solve" -problem bicgstab-paper -ksp_type bcgsfused -ksp_rtol 1e-10 -ksp_max_it 3000 "$@" -ppe_json 2>&1)
  json=$(echo "$out" | grep '^{' | tail -n 1)
}
get() { echo "$json" | json_get "$1"; }

np=4
if np_allowed $np; then
  run $np -ppe_grid_n 32 -pc_type none
  its_n=$(get its); red_n=$(get reductions); halo_n=$(get halo_exchanges)
  [ "$(get reason)" = CONVERGED_RTOL ] && [ "$red_n" = $((3 * its_n + 1)) ] && [ "$halo_n" = $((2 * its_n)) ]
  tap_check $? "[np=$np] BiCGS (no PC): $(get reason) (want CONVERGED_RTOL) in $its_n its, $red_n reductions = 3/it + 1, $halo_n halo exchanges = 2/it"
  run $np -ppe_grid_n 32 -pc_type chebyci -pc_chebyci_mode global
  its_g=$(get its); halo_g=$(get halo_exchanges); red_g=$(get reductions)
  [ "$(get reason)" = CONVERGED_RTOL ] && [ "$red_g" = $((3 * its_g + 1)) ] && [ "$halo_g" = $((2 * its_g + 48 * its_g)) ]
  tap_check $? "[np=$np] BiCGS-G(CI): $(get reason) (want CONVERGED_RTOL) in $its_g its, $red_g reductions = 3/it + 1, $halo_g halo exchanges = (2 + 2 x 24)/it"
  run $np -ppe_grid_n 32 -pc_type chebyci -pc_chebyci_mode block
  its_b=$(get its)
  run $np -ppe_grid_n 32 -pc_type chebyci -pc_chebyci_mode nocomm
  its_c=$(get its); halo_c=$(get halo_exchanges); red_c=$(get reductions)
  [ "$(get reason)" = CONVERGED_RTOL ] && [ "$red_c" = $((3 * its_c + 1)) ] && [ "$halo_c" = $((2 * its_c)) ]
  tap_check $? "[np=$np] BiCGS-GNoComm(CI): $(get reason) (want CONVERGED_RTOL) in $its_c its, $red_c reductions = 3/it + 1, $halo_c halo exchanges = 2/it (none in the PC)"
  [ "$(get pc_its)" = $((48 * its_c)) ]
  tap_check $? "[np=$np] GNoComm(CI) pc_its $(get pc_its) = 2 applications x 24 iterations per outer iteration"
  [ "$its_g" -lt "$its_b" ] && [ "$its_g" -lt "$its_c" ] && [ $((4 * its_b)) -le "$its_n" ] && [ $((4 * its_c)) -le "$its_n" ]
  tap_check $? "[np=$np] outer iterations: G(CI) $its_g < BJ(CI) $its_b and GNoComm(CI) $its_c, both at least 4x below no PC ($its_n)"
  syn_n=$((red_n + halo_n)); syn_c=$((red_c + halo_c))
  [ $((4 * syn_c)) -le "$syn_n" ]
  tap_check $? "[np=$np] synchronisations per solve: GNoComm(CI) $syn_c, no PC $syn_n (ratio >= 4 at 32^3; the 128^3 study shows >= 8)"

  run $np -ppe_grid_n 24 -pc_type ksp -ksp_ksp_type bcgs -ksp_ksp_rtol 1e-2 -ksp_ksp_max_it 500 -ksp_pc_type none
  its_k=$(get its)
  [ "$(get reason)" = CONVERGED_RTOL ] && fle "$(get rnorm_rel)" 1e-9 && [ "$(get pc_its)" -ge $((2 * its_k)) ]
  tap_check $? "[np=$np] FBiCGS-G(BiCGS) (PCKSP, inner bcgs to 1e-2): $(get reason) (want CONVERGED_RTOL) in $its_k its, $(get pc_its) inner iterations (>= 2/it), true residual $(get rnorm_rel) (<= 1e-9)"
  run $np -ppe_grid_n 24 -pc_type bjacobi -sub_ksp_type bcgs -sub_ksp_rtol 1e-6 -sub_ksp_max_it 500 -sub_pc_type none
  its_j=$(get its)
  [ "$(get reason)" = CONVERGED_RTOL ] && fle "$(get rnorm_rel)" 1e-9 && [ "$its_k" -lt "$its_j" ]
  tap_check $? "[np=$np] FBiCGS-BJ(BiCGS) on the matrix-free operator's local blocks: $(get reason) (want CONVERGED_RTOL) in $its_j its > G(BiCGS) $its_k, true residual $(get rnorm_rel) (<= 1e-9)"
else
  tap_skip "[np=$np] paper problem with bcgsfused and chebyci"
fi

for np in 1 2; do
  if ! np_allowed $np; then tap_skip "[np=$np] ppe-solve with assembled operator"; continue; fi
  run $np -ppe_grid_n 20 -pc_type chebyci -pc_chebyci_mode nocomm
  its_m=$(get its)
  run $np -ppe_grid_n 20 -pc_type chebyci -pc_chebyci_mode nocomm -ppe_operator aij
  [ "$(get its)" = "$its_m" ] && [ "$(get reason)" = CONVERGED_RTOL ]
  tap_check $? "[np=$np] nocomm on the assembled operator: $(get reason) (want CONVERGED_RTOL) in $(get its) its as on the matrix-free one ($its_m)"
done

# symmetric: it also preconditions CG
if np_allowed 2; then
  out=$(ppe_mpiexec 2 "$solve" -problem bicgstab-paper -ppe_grid_n 20 -ksp_type cg -ksp_rtol 1e-10 -pc_type none -ppe_json 2>&1)
  json=$(echo "$out" | grep '^{' | tail -n 1)
  its_cg=$(get its)
  for m in global nocomm; do
    out=$(ppe_mpiexec 2 "$solve" -problem bicgstab-paper -ppe_grid_n 20 -ksp_type cg -ksp_rtol 1e-10 -pc_type chebyci -pc_chebyci_mode $m -ppe_json 2>&1)
    json=$(echo "$out" | grep '^{' | tail -n 1)
    [ "$(get reason)" = CONVERGED_RTOL ] && fle "$(get rnorm_rel)" 1e-9 && [ $((3 * $(get its))) -le "$its_cg" ]
    tap_check $? "[np=2] CG + chebyci $m: $(get reason) (want CONVERGED_RTOL) in $(get its) its (want <= a third of CG alone, $its_cg), true residual $(get rnorm_rel) (<= 1e-9)"
  done
else
  tap_skip "[np=2] CG + chebyci"
fi

out=$(ppe_mpiexec 1 "$solve" -ksp_type bcgsfused -pc_type chebyci -help 2>&1)
missing=""
for o in "-pc_chebyci_mode PCChebyCISetMode" "-pc_chebyci_its PCChebyCISetIterations" \
         "-pc_chebyci_eig_source PCChebyCISetEigSource" "-pc_chebyci_eigenvalues PCChebyCISetEigenvalues" \
         "-pc_chebyci_eig_scale PCChebyCISetEigScale" "-pc_chebyci_weighted PCChebyCISetWeighted" \
         "-pc_chebyci_est_its PCChebyCISetEstimateIterations" "-ksp_bcgsfused_fuse KSPBCGSFusedSetFuse"; do
  echo "$out" | help_text "${o%% *}" | grep -q "(${o#* })\$" || missing="$missing ${o%% *}"
done
[ -z "$missing" ]
tap_check $? "-help lists every chebyci and bcgsfused option with its Set function${missing:+ (missing:$missing)}"

if np_allowed 2; then
  out=$(ppe_mpiexec 2 "$solve" -problem bicgstab-paper -ppe_grid_n 16 -ksp_type bcgsfused -pc_type chebyci \
        -pc_chebyci_mode block -pc_chebyci_its 10 -ksp_view -log_view 2>&1)
  missing=""
  for t in "type: bcgsfused" "global reductions per iteration: 3 merged" "fused operator apply + local dot products: yes" \
           "last solve: [0-9]* iterations, [0-9]* global reductions" "type: chebyci" "mode block: rank-local block" \
           "per application: 10" "operator iterated: W^-1 A" "eigenvalue source: grid, exact" \
           "bounds of the subdomains: lmin in \[" "scale factors: lmin x 1., lmax x 1." "Chebyshev interval used on this rank"; do
    echo "$out" | grep -q -- "$t" || missing="$missing '$t'"
  done
  [ -z "$missing" ]
  tap_check $? "-ksp_view shows bcgsfused's reductions and fusion, chebyci's mode, its, interval, source and factors${missing:+ (missing:$missing)}"
  missing=""
  for e in PPEChebyCISetUp PPEChebyCIApply PPEStencilLocal PPEBCGSFReduce PPEBCGSFKernel PPEStencilMult; do
    echo "$out" | grep -q "^$e " || missing="$missing $e"
  done
  [ -z "$missing" ]
  tap_check $? "-log_view times the chebyci set-up and applications, local applies, reductions and kernels${missing:+ (missing:$missing)}"
else
  tap_skip "-ksp_view / -log_view at 2 ranks"
fi

# expect_error NP "text" options...
expect_error() {
  _np=$1
  _text=$2
  shift 2
  if ! np_allowed "$_np"; then tap_skip "[np=$_np] $*"; return; fi
  _out=$(PPE_TEST_TIMEOUT=60 ppe_mpiexec "$_np" "$solve" -problem bicgstab-paper -ppe_grid_n 8 -ksp_type bcgsfused "$@" 2>&1)
  _rc=$?
  if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 124 ] && echo "$_out" | grep -q -- "$_text"; then
    tap_ok "[np=$_np] $* -> \"$_text\""
  else
    echo "$_out" | sed 's/^/# /' | head -n 20
    tap_notok "[np=$_np] $* -> expected an error with \"$_text\" (exit $_rc)"
  fi
}
expect_error 1 "needs at least 1 iteration" -pc_type chebyci -pc_chebyci_its 0
expect_error 2 "must be positive and finite (the interval must exclude 0)" -pc_type chebyci -pc_chebyci_eigenvalues -0.5,10
expect_error 2 "inverted or empty: need lmin < lmax" -pc_type chebyci -pc_chebyci_eigenvalues 10,0.5
expect_error 1 "needs two values lmin,lmax" -pc_type chebyci -pc_chebyci_eigenvalues 3
expect_error 2 "empty or inverted after scaling" -pc_type chebyci -pc_chebyci_eig_scale 1e5,1
expect_error 1 "KSP bcgsfused does not support preconditioner side LEFT" -pc_type chebyci -ksp_pc_side left
tap_done
