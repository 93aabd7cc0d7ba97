#!/bin/bash
# A multiphase time loop: 10 solves of the bubbles at density ratio 1000 that move between the
# solves (each step: new density, operators and PC set up again, solve to a true rtol of 1e-8),
# with PC ppemg and with the multigrid baselines, run one after another (the machine is shared:
# compare only within one run). One line per run: iterations of every step, the first set-up,
# the PC's set-up per step (step_setup_s - step_coef_s of ppe-solve's JSON: the problem's
# density computation and the baselines' assembly left out), the median solve and
#   loop = first set-up + 9 step set-ups + 10 solves.
#
#   examples/study/mg-time-loop.sh [bindir] [n] [ranks] [solvers...]
#
# Solvers (default: ppe-cg-mg cg-pfmg cg-mg cg-gamg cg-boomeramg ppe-cg-mg cg-pfmg cg-mg):
# ppe-cg-mg, cg-pfmg, cg-mg, cg-gamg, cg-boomeramg, with the options of studies/*.solvers
# (GAMG also -pc_gamg_reuse_interpolation false, which moving bubbles need).
bindir=${1:-build/src/tools}
n=${2:-128}
np=${3:-2}
shift 3 2> /dev/null
order=${*:-ppe-cg-mg cg-pfmg cg-mg cg-gamg cg-boomeramg ppe-cg-mg cg-pfmg cg-mg}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
common="-problem bubbles -ppe_density_ratio 1000 -ppe_grid_n $n -ppe_stop true -ppe_rtol 1e-8 -ppe_repeat 10 -ppe_bubbles_move -ppe_json"
opts() {
  case $1 in
    ppe-cg-mg) echo "-ppe_operator matfree -ksp_type cg -pc_type ppemg" ;;
    cg-pfmg) echo "-ppe_operator aij -ppe_assembled_type hyprestruct -ksp_type cg -pc_type pfmg" ;;
    cg-mg) echo "-ppe_operator aij -ksp_type cg -pc_type mg -pc_mg_levels 4 -pc_mg_galerkin pmat -pc_mg_cycle_type w -mg_levels_ksp_type richardson -mg_levels_pc_type sor -mg_levels_ksp_max_it 1" ;;
    cg-gamg) echo "-ppe_operator aij -ksp_type cg -pc_type gamg -pc_gamg_reuse_interpolation false" ;;
    cg-boomeramg) echo "-ppe_pmat aij -ksp_type cg -pc_type hypre -pc_hypre_type boomeramg" ;;
    *) echo "mg-time-loop: unknown solver $1" >&2; return 1 ;;
  esac
}
for s in $order; do
  o=$(opts "$s") || exit 1
  # shellcheck disable=SC2086
  j=$(mpiexec --oversubscribe -n "$np" "$bindir/ppe-solve" $common $o 2>&1 | grep '^{')
  python3 - "$s" "$j" <<'PY'
import json, sys
try:
    j = json.loads(sys.argv[2])
except ValueError:
    sys.exit("%s: no JSON line (the run failed)" % sys.argv[1])
step = j["step_setup_s"] - j["step_coef_s"]
loop = j["setup_s"] + 9 * step + 10 * j["solve_s"]
print("%-14s its %s  first set-up %.3f s  pc_step %.3f s  solve %.3f s  rnorm_rel %.2e  loop %.2f s" % (
    sys.argv[1], j["repeat_its"], j["setup_s"], step, j["solve_s"], j["rnorm_rel"], loop), flush=True)
PY
done
