#!/bin/bash
# Benchmark section: KSP cbcg against cg and pipecg (ppe-bench -bench krylov).
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC; PPE_BENCH_KRYLOV_N (grid, 64).
set -euo pipefail
n=${PPE_BENCH_KRYLOV_N:-64}
lines=""
for np in 1 2; do
  # the basis comparison (Gram conditioning, Chebyshev vs monomial) once, on 1 rank
  basis=""
  [ $np = 1 ] && basis="-bench_krylov_basis"
  lines+="$($MPIEXEC --oversubscribe -n $np "$PPE_BENCH" -bench krylov -ppe_grid_n $n -bench_reps 3 \
            -bench_krylov_problems mms,channel -bench_krylov_pcs none,jacobi,bjacobi -bench_krylov_s 4,8,12,16 $basis)"$'\n'
done
python3 - "$lines" <<'PYEOF'
import json, sys
raw = sys.argv[1]
alljs = [json.loads(l) for l in raw.splitlines() if l.startswith("{")]
rows = [d for d in alljs if d["bench"] == "krylov"]
basis = [d for d in alljs if d["bench"] == "krylov-basis"]
print("## Krylov: cbcg vs cg and pipecg\n")
print("`ppe-bench -bench krylov -ppe_grid_n N`: the `mms` problem (all-Neumann, null space) and the `channel`\n"
      "problem (PPPPNN, tanh-stretched z) with the matrix-free operator, preconditioners none, jacobi and\n"
      "bjacobi (ICC(0) blocks of the assembled operator, one block per rank), rtol 1e-10, zero initial guess; every solver set up first,\n"
      "then all solved in turn 3 times, best time kept. Reductions per iteration are PETSc's count of MPI_Allreduce calls during the solve, so they\n"
      "exist on 2 ranks only (on 1 rank cbcg's own count is shown in parentheses); cbcg's eigenvalue estimate, if\n"
      "any, is done in KSPSetUp and not counted. `diff` is ||x - x_cg|| / ||x_cg||; `cut` the blocks cut to fewer\n"
      "columns (ill-conditioned Gram matrix), `rst` the restarts from the true residual.\n")
key = lambda d: (d["problem"], d["ranks"])
for prob, ranks in sorted(set(key(d) for d in rows), key=lambda t: (t[0] != "mms", t[1])):
    sel = [d for d in rows if key(d) == (prob, ranks)]
    d0 = sel[0]
    print("### %s %dx%dx%d (%s), %d rank%s\n" % (prob, d0["n"][0], d0["n"][1], d0["n"][2], d0["bc"], ranks, "s" if ranks > 1 else ""))
    print("| pc | ksp | s | its | its / cg | reductions / it | bound 2/s+0.05 | ms / it | time / cg | cut | rst | diff |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for pc in ["none", "jacobi", "bjacobi"]:
        cg = [d for d in sel if d["pc"] == pc and d["ksp"] == "cg"]
        if not cg:
            continue
        cg = cg[0]
        for d in [x for x in sel if x["pc"] == pc]:
            if ranks > 1:
                red = "%.3f" % d["red_per_it"]
            elif d["ksp"] == "cbcg":
                red = "(%.3f)" % d["own_red_per_it"]
            else:
                red = "-"
            bound = "%.3f" % (2.0 / d["s"] + 0.05) if d["ksp"] == "cbcg" else ""
            print("| %s | %s | %s | %d | %.2f | %s | %s | %.3f | %.2f | %s | %s | %.1e |" % (
                pc, d["ksp"], d["s"] if d["ksp"] == "cbcg" else "", d["its"], d["its"] / cg["its"], red, bound,
                d["ms_per_it"], d["solve_s"] / cg["solve_s"], d["cuts"] if d["ksp"] == "cbcg" else "",
                d["restarts"] if d["ksp"] == "cbcg" else "", d["diff_cg"]))
    print()
if basis:
    print("### Gram conditioning: Chebyshev vs monomial basis, 1 rank\n")
    print("Condition number of the equilibrated s x s Gram matrix Q'AQ of one block (`-bench_krylov_basis`),\n"
          "built from b and from the residual after 30 CG iterations (same PC); `npd`: no longer positive definite in\n"
          "floating point. `s max` is the largest s with a condition number <= 1e4 (cbcg's `cond_max` with two reductions per block; 300 with one).\n")
    print("| problem | pc | start | basis | s=2 | s=3 | s=4 | s=6 | s=8 | s=12 | s=16 | s max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in basis:
        c = ["npd" if x > 1e300 else "%.1e" % x for x in d["cond"]]
        print("| %s | %s | %s | %s | %s | %d |" % (d["problem"], d["pc"], "b" if d["cg_its_before"] == 0 else "r after %d CG its" % d["cg_its_before"],
              d["basis"], " | ".join(c[s - 1] for s in (2, 3, 4, 6, 8, 12, 16)), d["smax_cond_1e4"]))
    print()
print("Raw JSON lines:\n\n```")
for l in raw.splitlines():
    if l.startswith("{"):
        print(l)
print("```")
PYEOF
