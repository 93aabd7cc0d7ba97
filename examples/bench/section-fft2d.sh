#!/bin/bash
# Benchmark section: PC fftptdma on 2D problems (one rank) against the 2D floor (FFTW's 1D
# transforms along x + the tridiagonal sweeps along y with pre-computed factors) and the
# PETSc/hypre solvers (ppe-bench -bench fft2d).
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC; optional PPE_BENCH_FFT2D_N (sizes
# with every solver, default 2048), PPE_BENCH_FFT2D_BIG (default 4096: a size timed with the
# two iterative solvers that were fastest at the largest of PPE_BENCH_FFT2D_N; empty: none),
# PPE_BENCH_FFT2D_BCS (BC codes, default PPNN,NNNN).
set -euo pipefail
sizes=${PPE_BENCH_FFT2D_N:-2048}
big=${PPE_BENCH_FFT2D_BIG:-4096}
bcs=${PPE_BENCH_FFT2D_BCS:-PPNN,NNNN}
lines="$($MPIEXEC -n 1 "$PPE_BENCH" -bench fft2d -bench_fft2d_n "$sizes" -bench_fft2d_bcs "$bcs" -bench_reps 10 -bench_fft2d_iter_reps 2)"$'\n'
if [ -n "$big" ]; then
  two=$(echo "$lines" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
it = [d for d in rows if d["what"] == "iterative" and d["rnorm_rel"] <= 1e-7]
top = max(d["n"][0] for d in it)
best = {}
for d in it:
    if d["n"][0] == top: best[d["solver"]] = min(best.get(d["solver"], 1e300), d["solve_s"])
print(",".join(sorted(best, key=best.get)[:2]))')
  lines+="$($MPIEXEC -n 1 "$PPE_BENCH" -bench fft2d -bench_fft2d_n "$big" -bench_fft2d_bcs "$bcs" -bench_fft2d_solvers "$two" -bench_reps 10 -bench_fft2d_iter_reps 2)"$'\n'
fi
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)
python3 - "$lines" "$load" <<'PYEOF'
import json, sys
raw, load = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in raw.splitlines() if l.startswith("{")]
def ms(t): return "%.3g" % (1e3 * t)
print("## PC fftptdma in 2D: against the 2D floor and iterative solvers")
print()
print("`ppe-bench -bench fft2d`, one rank, load average before the section: %s. The 2D channel" % load)
print("(periodic x, Neumann walls at both ends of a tanh-stretched y; `NNNN`: a closed box on")
print("the same grid), n x n cells. fftptdma: `KSPPREONLY` solve (set-up separate) and `PCApply`")
print("alone; the floor: FFTW's 1D transforms along x (the faster of an estimated and a measured")
print("plan, all ny lines in one batch) + the tridiagonal sweeps along y with factors computed")
print("beforehand, run across the modes row after row, + the inverse transforms, alternating")
print("with fftptdma, best of 10 each. Iterative: CG to the true relative residual 1e-8 on the")
print("matrix-free operator, preconditioned on the assembled one, best of 2 solves; at the")
print("largest size only the two iterative solvers that were fastest at the size below.")
print()
print("| bc | n | fftptdma set-up (ms) | solve (ms) | PCApply (ms) | floor (ms) | solve / floor | PCApply / floor | x fwd + bwd (ms) | y sweeps (ms) | floor vs fftptdma |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
ff = {(r["bc"], r["n"][0]): r for r in rows if r["what"] == "fftptdma"}
for r in rows:
    if r["what"] != "floor": continue
    f = ff[(r["bc"], r["n"][0])]
    print("| %s | %d^2 | %s | %s | %s | %s | %.2f | %.2f | %s | %s | %.1e |" % (r["bc"], r["n"][0], ms(f["setup_s"]), ms(f["solve_s"]), ms(f["pcapply_s"]), ms(r["floor_s"]), r["ratio_solve_floor"], r["ratio_pcapply_floor"], ms(r["fwd_x_s"] + r["bwd_x_s"]), ms(r["y_sweeps_s"]), r["diff_fftptdma"]))
print()
print("| bc | n | solver | set-up (ms) | solve (ms) | its | true residual | solve / fftptdma solve |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    if r["what"] == "iterative":
        print("| %s | %d^2 | %s | %s | %s | %d | %.1e | %.1f |" % (r["bc"], r["n"][0], r["solver"], ms(r["setup_s"]), ms(r["solve_s"]), r["its"], r["rnorm_rel"], r["ratio_solve_fftptdma"]))
print()
for r in rows:
    if r["what"] == "summary":
        print("- %s %d^2: fftptdma solve %s ms = %.2fx the floor; the fastest iterative solver, %s, takes %.1fx longer." % (r["bc"], r["n"][0], ms(r["fftptdma_solve_s"]), r["ratio_solve_floor"], r["fastest_iterative"], r["ratio_iterative"]))
print()
print("```")
print(raw.strip())
print("```")
PYEOF
