#!/bin/bash
# Benchmark section: PC fftptdma against the FFTW floor of an FFT-Poisson solve, the bare
# FFTW transforms and PETSc/hypre solvers, and its bytes per solve against the
# communication model (ppe-bench -bench fft).
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC; optional PPE_BENCH_FFT_N (cube
# sizes of the timing part with every solver, default 128), PPE_BENCH_FFT_BIG (default 256:
# a size timed with the two fastest iterative solvers only; empty for none),
# PPE_BENCH_FFT_BYTES_N (default 128), PPE_BENCH_FFT_FLOOR_N (sizes of the floor,
# default 128,256), PPE_BENCH_FFT_FLOOR_BCS (its BC codes, default PPPPNN,NNNNNN,PPNNDN).
set -euo pipefail
sizes=${PPE_BENCH_FFT_N:-128}
bn=${PPE_BENCH_FFT_BYTES_N:-128}
big=${PPE_BENCH_FFT_BIG:-256}
fsizes=${PPE_BENCH_FFT_FLOOR_N:-128,256}
fbcs=${PPE_BENCH_FFT_FLOOR_BCS:-PPPPNN,NNNNNN,PPNNDN}
# the floor: fftptdma and the FFTW floor (and the bare 1D transforms) alternating, for
# every BC code and size of the floor; the runs below leave the floor out
lines="$($MPIEXEC -n 1 "$PPE_BENCH" -bench fft -bench_fft_n "$fsizes" -bench_fft_bcs "$fbcs" -bench_fft_solvers fftptdma,bare -bench_reps 10)"$'\n'
# every solver at the sizes of $sizes; at $big (empty: none) the two iterative solvers that
# were fastest at the largest of them (the others cost minutes there on a shared machine)
lines+="$($MPIEXEC -n 1 "$PPE_BENCH" -bench fft -bench_fft_n "$sizes" -bench_reps 10 -bench_fft_iter_reps 2 -bench_fft_floor 0)"$'\n'
if [ -n "$big" ]; then
  two=$(echo "$lines" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
it = [d for d in rows if d["what"] == "solve" and d["solver"] != "fftptdma"]
top = max(d["n"][0] for d in it)
print(",".join(d["solver"] for d in sorted((d for d in it if d["n"][0] == top), key=lambda d: d["solve_s"])[:2]))')
  lines+="$($MPIEXEC -n 1 "$PPE_BENCH" -bench fft -bench_fft_n "$big" -bench_fft_solvers "fftptdma,bare,$two" -bench_reps 10 -bench_fft_iter_reps 2 -bench_fft_floor 0)"$'\n'
fi
for np in 4 8; do
  lines+="$($MPIEXEC --oversubscribe -n $np "$PPE_BENCH" -bench fft -bench_fft_bytes_n "$bn")"$'\n'
done
# PETSc's own process grid (2x2x2 on 8 ranks): the DMDA -> x-pencil redistribution appears
lines+="$($MPIEXEC --oversubscribe -n 8 "$PPE_BENCH" -bench fft -bench_fft_bytes_n "$bn" -bench_fft_pgrids 4,2 -bench_fft_bytes_pencil_dmda 0)"$'\n'
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)
python3 - "$lines" "$load" "$bn" "$sizes" <<'PYEOF'
import json, sys
raw, load, bn, sizes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def ms(t): return "%.3g" % (1e3 * t)
rows = [json.loads(l) for l in raw.splitlines() if l.startswith("{")]
def n3(d): return "x".join(str(v) for v in d["n"])
def sel(what, **kw): return [d for d in rows if d["what"] == what and all(d.get(k) == v for k, v in kw.items())]
def ok(b): return "pass" if b else "FAIL"
print("## PC fftptdma: exact FFT + tridiagonal solve vs bare FFTW and iterative solvers\n")
print("`ppe-bench -bench fft` on the channel problem of ppe-solve (periodic x and y, Neumann walls,\n"
      "tanh-stretched z, cell-centred, singular: right-hand side projected to zero mean), 1 rank.\n"
      "fftptdma: KSP preonly + PC fftptdma on the matrix-free operator, set-up timed on its own,\n"
      "best of 10 solves after a warm-up. bare: the FFTW transforms alone on the same data, planned\n"
      "in the benchmark with the PC's kinds, layout and planner flag (FFTW_MEASURE): x lines\n"
      "(contiguous, batch ny*nz), then y lines (stride nx), forward, then back; fftptdma and bare\n"
      "alternate in every repetition. Iterative solvers: CG from a zero guess to a true relative\n"
      "residual of 1e-8 (unpreconditioned norm), best of 2 solves, each alternating with an\n"
      "fftptdma solve; every ratio uses the fftptdma solves that alternated with the variant\n"
      "it is compared with (the bare transforms, or that iterative solver).\n"
      "Every iterative solver runs at n = %s; at the largest size only the two fastest there (the\n"
      "others take minutes per solve at 256^3 on this machine). With the constant null space\n"
      "attached to the operator (as for CG), KSPSolve with preonly also duplicates b, copies it\n"
      "and projects the null space out of it, PETSc's work, not the PC's; fftptdma removes b's\n"
      "mean itself on this operator (it applies the pseudo-inverse), so the null space need not be\n"
      "attached for preonly: KSPSolve is timed both ways, and PCApply alone.\n"
      "Machine load (1, 5, 15 min) when the section finished: %s. **The machine is a shared 2-core\n"
      "VM loaded by other jobs: absolute times are noisy; the ratios come from alternating runs.**\n" % (sizes, load))
print("### PC fftptdma vs the FFTW floor of an FFT-Poisson solve\n")
print("The floor: the best FFTW does for the same solve, on the same data, 1 rank, planned with\n"
      "FFTW_MEASURE (planning excluded): 2D transforms of every z plane (x and y periodic: r2c\n"
      "forward, c2r back; neither periodic: a 2D r2r plan of the kinds of each direction's BC\n"
      "pair; one periodic direction: r2c along it and the other direction's r2r kind on the real\n"
      "and imaginary parts, in the faster of the two orders, measured at set-up), then one\n"
      "tridiagonal system per (kx,ky) line along z (the grid's stretched-z coefficients, shift\n"
      "lambda_x + lambda_y, zero mode pinned), factorised at set-up (inverse pivots per line) and\n"
      "solved by one forward and one backward sweep over whole planes (unit stride across the\n"
      "plane). Its result is checked once against PCApply (max difference relative to the\n"
      "largest value, means removed on singular problems). fftptdma PCApply, KSPSolve (preonly)\n"
      "with the null space attached (singular problems) and the floor alternate in every one of\n"
      "10 repetitions after a warm-up; best times. bare: the 1D transforms of the PC's kinds\n"
      "(x lines then y lines, forward and back), as in the table below. Set-up: KSPSetUp of\n"
      "fftptdma in units of one PCApply.\n")
print("| BCs | n | floor ms | fwd / z / bwd ms | floor transforms | bare ms | PCApply ms | PCApply / floor | KSPSolve (null space) / PCApply | KSPSolve (null space) / floor | set-up (solves) | floor vs PC |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for d in sel("floor"):
    print("| %s | %s | %s | %s / %s / %s | %s | %s | %s | %.2f | %.2f | %.2f | %.1f | %.1e |" % (
        d["bcs"], n3(d), ms(d["floor_s"]), ms(d["fwd_s"]), ms(d["z_s"]), ms(d["bwd_s"]), d["floor_kind"], ms(d["bare_s"]) if "bare_s" in d else "-",
        ms(d["pcapply_s"]), d["ratio_pcapply_floor"], d["ratio_ksp_nullspace_pcapply"], d["ratio_ksp_nullspace_floor"], d["setup_solves"], d["floor_vs_pc_rel"]))
print()
print("### Solve time vs the bare transforms (bar: fftptdma solve <= 1.5x bare)\n")
print("Times in ms.\n")
print("| n | fftptdma set-up | PCApply | KSPSolve, no null space attached | KSPSolve, null space attached | residual | bare x fwd | bare y fwd | bare y bwd | bare x bwd | bare total | PCApply / bare | KSPSolve / bare, no null space | KSPSolve / bare, null space | bar 1.5 (PCApply; KSPSolve, no null space) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for s in sel("summary"):
    b = sel("bare", n=s["n"])
    if not b or "ratio_solve_bare" not in s: continue
    b = b[0]
    print("| %s | %s | %s | %s | %s | %.1e | %s | %s | %s | %s | %s | %.2f | %.2f | %.2f | %s, %s |" % (
        n3(s), ms(s["fftptdma_setup_s"]), ms(s["fftptdma_pcapply_s"]), ms(s["fftptdma_solve_nonull_s"]), ms(s["fftptdma_solve_s"]), max(s["fftptdma_rnorm_rel"], b["fftptdma_nonull_rnorm_rel"]),
        ms(b["fwd_x_s"]), ms(b["fwd_y_s"]), ms(b["bwd_y_s"]), ms(b["bwd_x_s"]), ms(b["bare_s"]),
        s["ratio_pcapply_bare"], s["ratio_solve_nonull_bare"], s["ratio_solve_bare"], ok(s["pass_pcapply_bare"]), ok(s["pass_solve_nonull_bare"])))
print("\n### Iterative solvers to rtol 1e-8 (bar: the fastest >= 10x the fftptdma solve)\n")
print("Times in s; fftptdma in ms.\n")
print("| n | solver | assembly | set-up | solve | its | true residual | fftptdma solve ms (alternating) | solve ratio | (assembly + set-up + solve) ratio |")
print("|---|---|---|---|---|---|---|---|---|---|")
for d in sel("solve"):
    if d["solver"] == "fftptdma": continue
    print("| %s | %s | %.3g | %.3g | %.3g | %d | %.1e | %s | %.1f | %.1f |" % (
        n3(d), d["solver"], d["assembly_s"], d["setup_s"], d["solve_s"], d["its"], d["rnorm_rel"],
        ms(d.get("fftptdma_solve_s", 0)), d.get("ratio_solve", 0), d.get("ratio_setup_solve", 0)))
for d in sel("skipped"):
    print("\nNot run at n = %s: %s (%s)." % (n3(d), d["solver"], d["note"]))
print("\n| n | fastest iterative (solve) | its solve s | fftptdma solve ms (alternating) | ratio | bar 10 | fastest including set-up | its total s | / fftptdma set-up + solve |")
print("|---|---|---|---|---|---|---|---|---|")
for s in sel("summary"):
    if "fastest_iterative" not in s: continue
    print("| %s | %s | %.3g | %s | %.1f | %s | %s | %.3g | %.1f |" % (
        n3(s), s["fastest_iterative"], s["fastest_iterative_s"], ms(s["fftptdma_paired_s"]), s["ratio_iterative"], ok(s["pass_iterative"]),
        s["fastest_iterative_setup_solve"], s["fastest_iterative_setup_solve_s"], s["ratio_iterative_setup_solve"]))
print("""
Solvers: boomeramg = hypre BoomerAMG with the usual 3D settings (HMIS coarsening, ext+i
interpolation, strong threshold 0.5, P_max 4) on the AIJ matrix; pfmg = hypre PFMG on a
hyprestruct matrix (available in Debian's PETSc 3.18: `-pc_type pfmg` with
MATHYPRESTRUCT); gamg = PETSc GAMG, defaults; mg = PCMG on the DMDA with piecewise-constant
(cell-centred, DMDA_Q0) transfers, Galerkin coarse operators down to 4^3, SVD on the
singular coarsest level, PETSc's default smoother (Chebyshev/SOR); mg-sor = the same with one
SSOR sweep per level. CG applies the matrix-free operator except for mg and mg-sor (Galerkin
needs the assembled operator). Assembly of the AIJ matrix is shared by the AIJ solvers.
""")
print("### Bytes per solve: P-TDMA vs full transpose in z\n")
print("ppe-bench -bench fft on 4 and 8 ranks (oversubscribed: bytes do not depend on timing),\n"
      "%s^3 channel, every pencil grid py x pz = ranks, DMDA on the x-pencil process grid\n"
      "1 x py x pz (no redistribution) unless marked `petsc` (PETSc's 2x2x2). Bytes sent to other\n"
      "ranks per solve, all ranks together, by phase, from the PC's counters\n"
      "(PCFFTPTDMAGetCommCounts); model: the PC's model; paper: the model of\n"
      "[Diez, Peeters and Costa (2025)](algorithms.md#references) computed by\n"
      "the benchmark from the sizes alone (x<->y: 2*8*N*(py-1)/py; transpose z: 2*8*N*(pz-1)/pz;\n"
      "P-TDMA: 2 values per line and rank out and 2 back, 4*8*nx*ny*(pz-1)). PETSc's MPI count\n"
      "(PPECountersGet around KSPSolve) also counts each all-to-all block a rank sends itself.\n" % bn)
print("| ranks | DMDA | py x pz | z method | redistribution | x<->y | z | z model | z paper | PETSc count | residual |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for d in sel("bytes"):
    print("| %d | %s | %d x %d | %s | %d | %d | %d | %d | %d | %d | %.1e |" % (
        d["ranks"], d["dmda"], d["pgrid"][0], d["pgrid"][1], d["zsolve"], d["bytes_redist"], d["bytes_xy"],
        d["bytes_z"], d["model_z"], d["paper_z"], d["petsc_bytes_sent"], d["rnorm_rel"]))
print("\nAcceptance: P-TDMA's z bytes match the model, and are at most 2*pz/nz of the\n"
      "transpose method's z bytes at 8 ranks.\n")
print("| ranks | DMDA | py x pz | P-TDMA z bytes | = model and paper | transpose z bytes | ratio | 2*pz/nz | bar |")
print("|---|---|---|---|---|---|---|---|---|")
for p in sel("bytes", zsolve="ptdma"):
    t = [d for d in sel("bytes", zsolve="transpose") if d["ranks"] == p["ranks"] and d["pgrid"] == p["pgrid"] and d["dmda"] == p["dmda"]]
    if not t: continue
    t = t[0]
    pz, nz = p["pgrid"][1], p["n"][2]
    match = p["bytes_z"] == p["model_z"] == p["paper_z"]
    if pz == 1:
        print("| %d | %s | %d x %d | %d | %s | %d | - | - | (pz = 1: no z exchange) |" % (p["ranks"], p["dmda"], p["pgrid"][0], pz, p["bytes_z"], ok(match), t["bytes_z"]))
        continue
    ratio = p["bytes_z"] / t["bytes_z"]
    bar = 2.0 * pz / nz
    print("| %d | %s | %d x %d | %d | %s | %d | %.5f | %.5f | %s |" % (
        p["ranks"], p["dmda"], p["pgrid"][0], pz, p["bytes_z"], ok(match), t["bytes_z"], ratio, bar, ok(ratio <= bar * (1 + 1e-12))))
print("""
The ratio equals 2*pz/nz exactly: P-TDMA moves 4 values per line and rank of the z group
(the reduced system of 2*pz unknowns per line), the transpose moves every value of the line
there and back (2*nz per line), each leaving out the share a rank keeps.

Raw JSON lines:

```""")
for l in raw.splitlines():
    if l.startswith("{"):
        print(l)
print("```")
PYEOF
