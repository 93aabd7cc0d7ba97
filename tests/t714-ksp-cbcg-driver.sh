#!/bin/sh
# KSP cbcg as a user meets it through ppe-solve: -help lists its options with their Set
# functions, -ksp_view shows the settings used and what the last solve did, -log_view times its
# phases, the JSON line shows <= 2/s + 0.05 global reductions per iteration on 2 ranks and the
# same answer as CG, and bad options stop with a message naming what is allowed.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

out=$(ppe_mpiexec 1 "$solve" -ksp_type cbcg -help 2>&1)
missing=""
for o in "-ksp_cbcg_s:KSPCBCGSetS" "-ksp_cbcg_eigenvalues:KSPCBCGSetEigenvalues" "-ksp_cbcg_eig_its:KSPCBCGSetEigIts" \
         "-ksp_cbcg_safety:KSPCBCGSetSafety" "-ksp_cbcg_replace:KSPCBCGSetReplace" "-ksp_cbcg_cond_max:KSPCBCGSetMaxCondition" \
         "-ksp_cbcg_single_reduction:KSPCBCGSetSingleReduction" "-ksp_cbcg_basis:KSPCBCGSetBasis"; do
  echo "$out" | grep -q -- "^ *${o%%:*}:\{0,1\} <.*(${o#*:})" || missing="$missing ${o%%:*}"
done
[ -z "$missing" ] && echo "$out" | grep -q "KSP CBCG options" && echo "$out" | grep -q -- "-ksp_type <.*cbcg"
tap_check $? "-help lists cbcg among the KSP types and its options with their Set functions${missing:+ (missing:$missing)}"

# 2 ranks, the grid operator with Jacobi: interval [0, 2] from the grid, reductions counted by PETSc
out=$(ppe_mpiexec 2 "$solve" -problem mms -ppe_grid_n 32 -ksp_type cbcg -ksp_cbcg_s 8 -pc_type jacobi -ksp_rtol 1e-10 -ksp_view -log_view -ppe_json 2>&1)
echo "$out" | grep -q "block size s: 8" && echo "$out" | grep -q "eigenvalue interval of A M^-1 used: \[0., 2.\]" && \
  echo "$out" | grep -q "interval source: grid operator with Jacobi" && echo "$out" | grep -q "fallbacks: [0-9]* blocks cut" && \
  echo "$out" | grep -q "global reductions of the method in the last solve: [0-9]*, 0\.[0-9]* per iteration" && \
  echo "$out" | grep -q "MPI_Allreduce calls counted by PETSc in the last solve: [1-9]" && \
  echo "$out" | grep -q "global reductions per block: 1 " && echo "$out" | grep -q "basis: chebyshev" && \
  echo "$out" | grep -q "largest condition number accepted 300. (default of this variant)"
tap_check $? "-ksp_view shows s, the basis, one reduction per block, the interval and its source, the condition limit, fallbacks and the reductions per iteration"
missing=""
for e in "PPECBCGBasis" "PPECBCGGram" " PPECBCGReduce" "PPECBCGSmall" "PPECBCGUpdate"; do
  echo "$out" | grep -q "^$e " || missing="$missing '$e'"
done
[ -z "$missing" ]
tap_check $? "-log_view times the basis, the Gram products and their reduction, the small solves and the updates${missing:+ (missing:$missing)}"
its=$(echo "$out" | json_get its)
red=$(echo "$out" | json_get reductions)
ecb=$(echo "$out" | json_get err_max)
[ "$(echo "$out" | json_get reason)" = CONVERGED_RTOL ] && awk -v r="$red" -v i="$its" 'BEGIN { exit !(i > 0 && r / i <= 2 / 8 + 0.05) }'
tap_check $? "2 ranks, s = 8: $(echo "$out" | json_get reason) (want CONVERGED_RTOL), $red global reductions in $its iterations (JSON), <= 2/s + 0.05 per iteration"
ecg=$(ppe_mpiexec 2 "$solve" -problem mms -ppe_grid_n 32 -ksp_type cg -pc_type jacobi -ksp_rtol 1e-10 -ppe_json 2>&1 | json_get err_max)
awk -v a="$ecb" -v b="$ecg" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-8 * b) }'
tap_check $? "2 ranks: cbcg's error against the exact solution equals CG's ($ecb vs $ecg)"

# the two-reduction variant of Ali et al. (2019), Algorithm 2, and the Newton basis: shown by -ksp_view, same answer
out=$(ppe_mpiexec 2 "$solve" -problem mms -ppe_grid_n 32 -ksp_type cbcg -ksp_cbcg_s 8 -pc_type jacobi -ksp_rtol 1e-10 -ksp_cbcg_single_reduction false -ksp_cbcg_basis newton -ksp_view -ppe_json 2>&1)
e2=$(echo "$out" | json_get err_max)
echo "$out" | grep -q "global reductions per block: 2 " && echo "$out" | grep -q "basis: newton, shifts = Leja-ordered Ritz values" && \
  echo "$out" | grep -q "largest condition number accepted 10000. (default of this variant)" && echo "$out" | grep -q "blocks with the newton basis: [1-9]" && \
  [ "$(echo "$out" | json_get reason)" = CONVERGED_RTOL ] && awk -v a="$e2" -v b="$ecg" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-8 * b) }'
tap_check $? "-ksp_cbcg_single_reduction false -ksp_cbcg_basis newton: -ksp_view shows two reductions per block and the Newton basis, same error as CG ($e2 vs $ecg, to 1e-8), $(echo "$out" | json_get reason) (want CONVERGED_RTOL)"

# an assembled operator: the interval comes from a Lanczos estimate, done at set-up
out=$(ppe_mpiexec 2 "$solve" -problem mms -ppe_grid_n 16 -ppe_operator aij -ksp_type cbcg -pc_type jacobi -ksp_cbcg_eig_its 12 -ksp_view -log_view 2>&1)
echo "$out" | grep -q "interval source: Lanczos estimate, 12 steps" && echo "$out" | grep -q "eigenvalue estimate: [0-9]* global reductions, done at set-up" && \
  echo "$out" | grep -q "^PPECBCGEigEst " && echo "$out" | grep -q "CONVERGED_RTOL"
tap_check $? "assembled operator: Lanczos estimate of 12 steps at set-up, its reductions reported apart, -log_view event"

# bad input
bad() { # expected-message option...
  _msg=$1
  shift
  _out=$(ppe_mpiexec 1 "$solve" -ppe_grid_n 8 -ksp_type cbcg "$@" 2>&1)
  _rc=$?
  [ "$_rc" -ne 0 ] && echo "$_out" | grep -q -- "$_msg"
  tap_check $? "$* fails with: $_msg"
}
bad "block size s must be in 1..16, got 0" -ksp_cbcg_s 0
bad "block size s must be in 1..16, got 17" -ksp_cbcg_s 17
bad "interval must satisfy 0 <= lmin < lmax" -ksp_cbcg_eigenvalues 5,1
bad "interval must satisfy 0 <= lmin < lmax" -ksp_cbcg_eigenvalues -1,4
bad "needs two values lmin,lmax; got 1" -ksp_cbcg_eigenvalues 3
bad "eigenvalue estimate steps must be in 1..1000, got 0" -ksp_cbcg_eig_its 0
bad "safety factor on the estimated lmax must be in \[1, 10\], got 0.5" -ksp_cbcg_safety 0.5
bad "replacement interval must be >= 0 blocks" -ksp_cbcg_replace -1
bad "largest Gram condition number must be >= 1" -ksp_cbcg_cond_max 0.5
bad "does not support preconditioner side RIGHT" -ksp_pc_side right
bad "$(unknown_choice_re monomial -ksp_cbcg_basis "chebyshev newton")" -ksp_cbcg_basis monomial
tap_done
