#!/bin/bash
# Benchmark section: the communication-avoiding solvers against their synchronous twins per
# local size, and the crossover cost of a synchronisation L* (ppe-bench -bench ca), with the
# plot ca-lstar.svg written next to the page.
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC; PPE_BENCH_CA_N (local sizes,
# 32,64,128); PPE_BENCH_DOCDIR (where the plot goes, default docs/ of this tree).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sizes=${PPE_BENCH_CA_N:-32,64,128}
docdir=${PPE_BENCH_DOCDIR:-$here/../../docs}
lines="$($MPIEXEC --oversubscribe -n 1 "$PPE_BENCH" -bench ca -bench_ca_n "$sizes" -bench_reps 3)"
python3 - "$lines" "$docdir/ca-lstar.svg" <<'PYEOF'
import json, math, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
sv = [d for d in rows if d["bench"] == "ca"]
pr = [d for d in rows if d["bench"] == "ca-pair"]
t0 = sv[0]
print("## Communication-avoiding solvers: local cost and the crossover L*\n")
print("`ppe-bench -bench ca` (%s problem, %s, 1 rank, rtol %.0e, every solver set up first, then all solved in turn 3 times, best time kept):\n"
      "cbcg (s = 8, PC jacobi) against CG + jacobi, and GNoComm(CI) (bcgsfused + chebyci nocomm, 24 Chebyshev steps per application,\n"
      "temporally blocked) against Bi-CGSTAB (bcgsfused, no PC). `S` counts the synchronisations of a solve: global reductions (on one\n"
      "rank the calls that would reduce: PETSc's vector dot products and norms, and the methods' own counts) plus halo exchanges.\n"
      "On one rank all of a solve is local work, so\n\n"
      "    L* = (T_X - T_Y) / (S_Y - S_X)\n\n"
      "is the cost of one synchronisation above which the communication-avoiding method X beats its twin Y on a machine whose\n"
      "ranks each hold this local size (ppe-study's formula). The model is the bytes each method moves per point and iteration\n"
      "(docs/types/cbcg.md, docs/types/chebyci.md) at the STREAM triad bandwidth measured in the same run (%.1f GB/s); the\n"
      "Chebyshev steps are compute-bound on this machine (see docs/types/chebyci.md), so GNoComm(CI) runs far above its byte model.\n"
      % (t0["problem"], t0["bc"], t0["rtol"], t0["triad_gbs"]))
print("| local n^3 | solver | its | ms / it | model ms / it | S | S / it |")
print("|---|---|---|---|---|---|---|")
for d in sv:
    print("| %d | %s | %d | %.3f | %.3f | %d | %.2f |" % (d["n_local"], d["solver"], d["its"], d["ms_per_it"], d["model_ms_per_it"], d["syncs"], d["syncs_per_it"]))
print("\n| local n^3 | X against Y | local time per iteration X / Y | S_X / S_Y | T_X / T_Y | L* |")
print("|---|---|---|---|---|---|")
for p in pr:
    ls = ("%.1f us" % (1e6 * p["lstar_s"])) if p["crossover"] == "faster above L*" else p["crossover"]
    print("| %d | %s / %s | %.2f | %d / %d | %.2f | %s |" % (p["n_local"], p["x"], p["y"], p["local_ratio_per_it"], p["s_x"], p["s_y"], p["t_x_s"] / p["t_y_s"], ls))
print("\nRead: an allreduce costs about 2-50 us on large machines (more at thousands of ranks); where L* is below the\n"
      "synchronisation cost of the machine, the communication-avoiding method is the faster one at that local size.\n")
# the plot: L* against the local size, log-log, one line per pair
W, H, ml, mr, mt, mb = 560, 360, 70, 20, 30, 50
pts = {}
for p in pr:
    if p["crossover"] == "faster above L*" and p["lstar_s"] > 0:
        pts.setdefault("%s vs %s" % (p["x"], p["y"]), []).append((p["n_local"], 1e6 * p["lstar_s"]))
allx = [x for v in pts.values() for x, _ in v] or [32, 128]
ally = [y for v in pts.values() for _, y in v] or [1, 100]
x0, x1 = math.log10(min(allx)) - 0.1, math.log10(max(allx)) + 0.1
y0, y1 = math.floor(math.log10(min(ally))), math.ceil(math.log10(max(ally)))
if y1 <= y0:
    y1 = y0 + 1
X = lambda x: ml + (math.log10(x) - x0) / (x1 - x0) * (W - ml - mr)
Y = lambda y: H - mb - (math.log10(y) - y0) / (y1 - y0) * (H - mt - mb)
svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, H),
       '<rect width="100%" height="100%" fill="white"/>',
       '<text x="%d" y="18" font-size="13">Crossover cost of a synchronisation L* against the local size (1 rank, measured)</text>' % ml]
for e in range(int(y0), int(y1) + 1):
    svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (ml, Y(10 ** e), W - mr, Y(10 ** e)))
    svg.append('<text x="%d" y="%.1f" text-anchor="end">%g us</text>' % (ml - 6, Y(10 ** e) + 4, 10 ** e))
for x in sorted(set(allx)):
    svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(x), mt, X(x), H - mb))
    svg.append('<text x="%.1f" y="%d" text-anchor="middle">%d^3</text>' % (X(x), H - mb + 16, x))
svg.append('<text x="%d" y="%d" text-anchor="middle">local grid per rank</text>' % ((W + ml) // 2, H - 12))
for i, (name, v) in enumerate(sorted(pts.items())):
    col = ["#1f77b4", "#d62728", "#2ca02c"][i % 3]
    v.sort()
    svg.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (col, " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in v)))
    for x, y in v:
        svg.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(x), Y(y), col))
    svg.append('<text x="%d" y="%d" fill="%s">%s</text>' % (ml + 10, mt + 16 + 16 * i, col, name))
svg.append("</svg>")
with open(sys.argv[2], "w") as f:
    f.write("\n".join(svg) + "\n")
print("![L* against the local size](ca-lstar.svg)\n")
print("<details><summary>raw JSON lines</summary>\n\n```")
for d in rows:
    print(json.dumps(d))
print("```\n</details>")
PYEOF
