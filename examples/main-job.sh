#!/bin/bash
# The main job of the quick start: the channel problem (x,y periodic, Neumann walls,
# tanh-stretched z, 64^3 cells) solved on 2 ranks with PPEKit's matrix-free operator
# and PETSc/hypre preconditioners, printed as a table. Each run is one ppe-solve call;
# copy any line of options to run it yourself.
#
#   bash examples/main-job.sh [BINDIR]     (default: the build tree's tools)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bindir=${1:-$here/../build/src/tools}
solve="$bindir/ppe-solve"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
np=2
common="-problem channel -ppe_grid_n 64 -ppe_repeat 3 -ksp_rtol 1e-8 -ppe_json"
configs=(
  "CG + Jacobi (matrix-free)|-ksp_type cg -pc_type jacobi"
  "CG + hypre BoomerAMG|-ppe_pmat aij -ksp_type cg -pc_type hypre"
  "CG + hypre PFMG (hyprestruct)|-ppe_operator aij -ppe_assembled_type hyprestruct -ksp_type cg -pc_type pfmg"
  "CG + PETSc GAMG|-ppe_pmat aij -ksp_type cg -pc_type gamg"
  "Bi-CGSTAB, no preconditioner|-ksp_type bcgs -pc_type none"
)
echo "main job: channel flow pressure problem, 64^3 cells (tanh z), $np ranks, rtol 1e-8"
results=""
for c in "${configs[@]}"; do
  name=${c%%|*}
  opts=${c#*|}
  echo "  running: mpiexec -n $np ppe-solve $common $opts"
  line=$(mpiexec --oversubscribe -n $np "$solve" $common $opts 2>&1 | grep '^{' || true)
  results+="$name|$line"$'\n'
done
python3 - "$results" <<'PYEOF'
import json, sys
rows = [r for r in sys.argv[1].split("\n") if r]
print()
print("| solver | its | reason | true rel. residual | err_max | setup s | solve s | reductions | halo exch. |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    name, _, js = r.partition("|")
    if not js:
        print("| %s | failed to run | | | | | | | |" % name)
        continue
    d = json.loads(js)
    print("| %s | %d | %s | %.2e | %.3e | %.3f | %.3f | %d | %d |" % (
        name, d["its"], d["reason"], d["rnorm_rel"], d["err_max"], d["setup_s"], d["solve_s"],
        d["reductions"], d["halo_exchanges"]))
PYEOF
