#!/bin/bash
# Benchmark section: PC tileilu tile shapes vs PETSc's bjacobi+ILU(0)/ICC(0) (ppe-bench -bench tileilu).
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC. Runs for about 10-20 minutes.
set -euo pipefail
reps=${PPE_BENCH_TILEILU_REPS:-10}
lines=""
# a closed box (all-Neumann pressure, uniform isotropic spacing) and the channel (periodic x,y,
# Neumann walls, tanh z), both 128x64x256 on 1 rank
lines+="$($MPIEXEC -n 1 "$PPE_BENCH" -bench tileilu -bench_reps $reps -bench_tileilu_problem mms -ppe_bc NNNNNN -ppe_grid_L 1,0.5,2 -ppe_grid_n 128,64,256)"$'\n'
lines+="$($MPIEXEC -n 1 "$PPE_BENCH" -bench tileilu -bench_reps $reps -bench_tileilu_problem channel -ppe_grid_n 128,64,256)"$'\n'
python3 - "$lines" <<'PYEOF'
import json, sys
raw = sys.argv[1]
rows = [json.loads(l) for l in raw.splitlines() if l.startswith("{")]
print("## PC tileilu: tile shapes vs bjacobi+ILU(0)\n")
print("`ppe-bench -bench tileilu` on 1 rank, 128x64x256 unknowns (the 256x128x512 of\n"
      "[Ali et al. (2019)](algorithms.md#references) halved in every direction): for every tile shape,\n"
      "one application of the preconditioner per unknown (best of the\n"
      "repetitions, wall clock; CPU time of the process in parentheses) in the xyz layout, in the zyx layout\n"
      "fused chunk by chunk (the default), and\n"
      "in the zyx layout as three passes whose gather / sweep / scatter split comes from the log events;\n"
      "CG iterations and time to solution (rtol 1e-8, zero initial guess, matrix-free operator) with the\n"
      "default zyx variant (xyz computes the same numbers). PETSc's bjacobi runs ILU(0) / ICC(0) on the\n"
      "assembled AIJ matrix (one block: the whole box).\n")
def shape(d):
    t = d["tile"]
    return "%dx%dx%d" % tuple(t)
for prob in dict.fromkeys((d["problem"], d["bc"]) for d in rows):
    sub = [d for d in rows if (d["problem"], d["bc"]) == prob]
    base = {d["pc"]: d for d in sub if d["pc"] != "tileilu"}
    ilu = base["bjacobi+ilu(0)"]
    title = "closed box, all-Neumann, uniform spacing" if prob[1] == "NNNNNN" else "channel: periodic x,y, Neumann walls, tanh-stretched z"
    print("### %s (problem %s, bc %s)\n" % (title, prob[0], prob[1]))
    print("| preconditioner | tiles | CG its | CG time s | apply ns/unknown xyz | zyx fused (CPU) | zyx 3 passes (gather+sweep+scatter) | zyx fused vs bjacobi+ilu(0) apply, wall (CPU) | set-up s (factor + layout) | bytes/unknown |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in ("bjacobi+ilu(0)", "bjacobi+icc(0)"):
        d = base[name]
        print("| %s | 1 | %d | %.2f | %.2f (AIJ; CPU %.2f) | | | | %.3f (+ %.2f assembly) | |" % (name, d["cg_its"], d["cg_s"], d["apply_ns_per_unknown"], d["apply_cpu_ns_per_unknown"], d["setup_s"], d["assembly_s"]))
    shapes = list(dict.fromkeys(shape(d) for d in sub if d["pc"] == "tileilu"))
    best = None
    for s in shapes:
        v = [d for d in sub if d["pc"] == "tileilu" and shape(d) == s]
        xyz = next(d for d in v if d["layout"] == "xyz")
        z3 = next(d for d in v if d["layout"] == "zyx" and d["fused"] is False)
        zf = next(d for d in v if d["layout"] == "zyx" and d["fused"] is True)
        sp = ilu["apply_ns_per_unknown"] / zf["apply_ns_per_unknown"]
        spc = ilu["apply_cpu_ns_per_unknown"] / zf["apply_cpu_ns_per_unknown"]
        print("| tileilu %s | %d | %d | %.2f | %.2f | %.2f (%.2f) | %.2f (%.2f+%.2f+%.2f) | %.2fx (%.2fx) | %.3f (%.3f + %.3f) | %.1f |" % (
            s, zf["ntiles"], zf["cg_its"], zf["cg_s"], xyz["apply_ns_per_unknown"], zf["apply_ns_per_unknown"], zf["apply_cpu_ns_per_unknown"],
            z3["apply_ns_per_unknown"], z3["gather_ns"], z3["sweep_ns"], z3["scatter_ns"], sp, spc,
            zf["setup_s"], zf["fact_s"], zf["perm_s"], zf["bytes_per_unknown"]))
        if best is None or zf["cg_s"] < best[1]["cg_s"]:
            best = (s, zf)
    s, zf = best
    print("\nFastest CG time to solution: tiles %s, %.2f s in %d iterations, against %.2f s (%d its) with bjacobi+ilu(0)\n"
          "and %.2f s (%d its) with bjacobi+icc(0); its application takes %.2f ns/unknown, %.2fx faster than bjacobi+ilu(0)'s %.2f\n"
          "(CPU time: %.2fx).\n" % (
        s, zf["cg_s"], zf["cg_its"], ilu["cg_s"], ilu["cg_its"], base["bjacobi+icc(0)"]["cg_s"], base["bjacobi+icc(0)"]["cg_its"],
        zf["apply_ns_per_unknown"], ilu["apply_ns_per_unknown"] / zf["apply_ns_per_unknown"], ilu["apply_ns_per_unknown"],
        ilu["apply_cpu_ns_per_unknown"] / zf["apply_cpu_ns_per_unknown"]))
print("""Notes:

- The whole-box tile is PETSc's bjacobi+ILU(0) block computed by tileilu (the same iterations on a box
  without periodic directions; in a periodic direction owned whole by the rank PETSc keeps the wrap
  couplings, tileilu never does).
- The gather / sweep / scatter split is the mean over the repetitions of the log events of the
  three-pass variant; the fused variant does the same work a chunk of groups at a time, in cache.
- Timings are wall clock on a shared 2-core machine: compare within a table, not across runs. The
  CPU time of the process leaves out the time other tenants held the core (not their share of the
  memory bandwidth); when the two differ much, the machine was busy.

Raw JSON lines:

```""")
for l in raw.splitlines():
    if l.startswith("{"):
        print(l)
print("```")
PYEOF
