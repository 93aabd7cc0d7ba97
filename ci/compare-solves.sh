#!/bin/bash
# Compare two builds of PPEKit on the study set: the same ppe-solve runs with each, and for
# every run the solution's bits (the binary file of -ksp_view_solution, as an MD5 sum), the
# iterations, the residual history, the errors and every counter of the JSON line (reductions,
# halo exchanges, bytes sent, host<->device bytes, PC iterations). Timings are left out.
#
#   ci/compare-solves.sh PREFIX_A PREFIX_B [OUTDIR]
#
# PREFIX_A/B: install prefixes (bin/ppe-solve under each), or a results file a run wrote
# before (OUTDIR/a.txt of an earlier comparison: the runs of that build are not made again).
# Writes OUTDIR/a.txt and OUTDIR/b.txt (one line per run) and prints "ok - ..." or "not ok - ..." per run, then a
# summary line; exits non-zero if any run differs. Runs 1 and 2 ranks (oversubscribed on
# fewer cores); a few minutes on 2 cores.
#
# The cases: the shipped solver sets of ppe-study (studies/ppekit.solvers and
# studies/baselines.solvers) on the channel problem at 24^3 (1 and 2 ranks) and at 32 x 32 in
# 2D; PPEKit's solvers on manufactured problems with other boundary conditions, vertex
# unknowns, a Helmholtz shift and the Bi-CGSTAB paper's problem; the true-residual stop and
# repeated solves; and the emulated device back end (-ppe_backend emu) for every device path
# (stencil, chebyci in every mode, tileilu, fftptdma, cbcg, bcgsfused), at 1 and 2 ranks.
set -uo pipefail
a=${1:?usage: compare-solves.sh PREFIX_A PREFIX_B [OUTDIR]}
b=${2:?usage: compare-solves.sh PREFIX_A PREFIX_B [OUTDIR]}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# the solver lines of a .solvers file: "name options..."
solvers() { sed -n 's/^solver[[:space:]]\+//p' "$here/studies/$1.solvers"; }

cases=()
add() { cases+=("$*"); }
while read -r name opts; do
  for np in 1 2; do
    add "$np|channel3d-$name|-ppe_problem channel -ppe_grid_n 24,24,24 -ppe_rtol 1e-8 $opts"
  done
  add "2|channel2d-$name|-ppe_problem channel -ppe_grid_n 32,32 -ppe_rtol 1e-8 $opts"
done < <(solvers ppekit; solvers baselines)
while read -r name opts; do
  for p in "mms -ppe_bc NNNNDD" "mms -ppe_bc DDDDDD -ppe_grid_location vertex" "mms -ppe_bc PPNNPP -ppe_grid_shift 3" "bicgstab-paper" "mms -ppe_bc PPDD -ppe_grid_n 20,30"; do
    add "2|${p// /_}-$name|-ppe_problem $p -ppe_rtol 1e-8 $opts"
  done
done < <(solvers ppekit)
add "2|channel-stoptrue-repeat|-ppe_problem channel -ppe_grid_n 24,24,24 -ksp_type bcgsfused -pc_type chebyci -ppe_stop true -ppe_repeat 2"
for np in 1 2; do
  for s in "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode global" "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode nocomm -pc_chebyci_fuse 0" \
           "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode block" "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" \
           "-ksp_type bcgsfused -pc_type tileilu -pc_tileilu_layout zyx" "-ksp_type cbcg -pc_type tileilu" "-ksp_type cbcg -pc_type none" \
           "-ksp_type bcgsfused -pc_type none -ksp_bcgsfused_fuse 0" "-ksp_type cg -pc_type fftptdma" "-ksp_type preonly -pc_type fftptdma" \
           "-ksp_type cg -pc_type chebyci" "-ksp_type cg -pc_type tileilu"; do
    for bc in "-ppe_problem channel -ppe_grid_n 16,12,10" "-ppe_problem mms -ppe_bc NNNNDD -ppe_grid_n 12,10,8" "-ppe_problem channel -ppe_grid_n 24,20"; do
      add "$np|emu${bc// /_}${s// /_}|-ppe_backend emu $bc -ppe_rtol 1e-10 $s"
    done
  done
done

# run PREFIX FILE: every case, one line each
run() {
  local prefix=$1 file=$2 c np name opts sol json md5
  : > "$file"
  for c in "${cases[@]}"; do
    np=${c%%|*}; c=${c#*|}; name=${c%%|*}; opts=${c#*|}
    sol="$out/sol.bin"
    rm -f "$sol" "$sol.info"
    # shellcheck disable=SC2086
    json=$(mpiexec -n "$np" "$prefix/bin/ppe-solve" $opts -ppe_json -ppe_history -ksp_view_solution "binary:$sol" 2>&1 | grep '^{"problem"' | tail -n 1)
    md5=$( [ -f "$sol" ] && md5sum < "$sol" | cut -c1-32 || echo none)
    # the JSON line without its timings (keys ending in _s, the time axis of the history, the
    # latency model and memory)
    json=$(echo "$json" | python3 -c '
import json, sys
line = sys.stdin.read().strip()
if not line:
    print("no JSON line"); sys.exit()
d = json.loads(line)
# a 2D run: its own two sizes, four BC letters and two process counts (earlier versions
# gave three entries and six letters: [nx, ny, 1], the letters followed by PP, and the
# process grid of the 2D DMDA of the user, [px, py, 1])
if d.get("dim") == 2:
    if len(d.get("n", [])) == 3: d["n"] = d["n"][:2]
    if len(d.get("bc", "")) == 6: d["bc"] = d["bc"][:4]
    if len(d.get("procs", [])) == 3: d["procs"] = d["procs"][:2]
drop = ("op_s", "setup_s", "solve_s", "solve_s_min", "solve_s_max", "sync_s", "local_s", "latency_s", "history_s", "mem_mb", "true_s")
print(json.dumps({k: v for k, v in sorted(d.items()) if k not in drop and not k.endswith("_s")}, sort_keys=True))')
    echo "$np $name $md5 $json" >> "$file"
  done
}
# results of PREFIX_OR_FILE into FILE
results() {
  if [ -f "$1" ]; then
    [ "$(wc -l < "$1")" -eq "${#cases[@]}" ] || { echo "compare-solves: $1 has $(wc -l < "$1") runs, the cases are ${#cases[@]}"; exit 2; }
    [ "$1" -ef "$2" ] || cp "$1" "$2"
  else
    run "$1" "$2"
  fi
}
results "$a" "$out/a.txt"
results "$b" "$out/b.txt"
same=0 diff=0
while IFS= read -r la && IFS= read -r lb <&3; do
  name=$(echo "$la" | cut -d' ' -f1-2)
  if [ "$la" = "$lb" ]; then
    same=$((same + 1)); echo "ok - $name"
  else
    diff=$((diff + 1)); echo "not ok - $name"; echo "#  A: ${la:0:600}"; echo "#  B: ${lb:0:600}"
  fi
done < "$out/a.txt" 3< "$out/b.txt"
echo "compare-solves: $same runs identical, $diff differ (lines in $out/a.txt and $out/b.txt)"
[ "$diff" -eq 0 ]
