#!/bin/bash
# Benchmark section: batched tridiagonal solves (ppe-bench -bench tridiag).
# Environment: PPE_BENCH (the ppe-bench binary), MPIEXEC.
set -euo pipefail
lines=""
for np in 1 2; do
  lines+="$($MPIEXEC --oversubscribe -n $np "$PPE_BENCH" -bench tridiag -bench_reps 10)"$'\n'
done
python3 - "$lines" <<'PYEOF'
import json, sys
raw = sys.argv[1]
rows = [json.loads(l) for l in raw.splitlines() if l.startswith("{")]
print("## Tridiagonal solvers: Thomas, P-TDMA, DistD2\n")
print("`ppe-bench -bench tridiag`: about 256 MiB of right-hand sides (nsys = 2^25 / n lines of n rows),\n"
      "best of 10 solves each, against STREAM's copy loop over the same data run before each solve (it\n"
      "restores the right-hand side), so that the two bandwidths are measured at the same moment.\n"
      "thomas: whole lines on each rank (on 2 ranks each solves half of the lines, as after a full\n"
      "transpose), natural layout (the z lines of a DMDA array: line stride 1, row stride nsys) or\n"
      "SZ-packed (8 lines interleaved). ptdma and distd2: every line split over the ranks (n/P rows\n"
      "each), natural layout. System `dominant`: shared coefficients (-1, 4, -1); `poisson`: shared\n"
      "Neumann Laplacian plus a shift per line from 1e-3 to 8n^2 with the zero mode pinned (the z\n"
      "solves of an FFT Poisson solver), factors pre-computed (1) or recomputed at each solve (0).\n"
      "GB/s counts the bytes of Table 3 of [Akkurt et al. (2025)](algorithms.md#references): 16 per\n"
      "point for Thomas (the data read and\n"
      "written once), 32 for ptdma and distd2 (twice: reduction and reconstruction). Bytes sent:\n"
      "per solve, all ranks, to other ranks, counted by the batch, next to the model (ptdma: 2 values\n"
      "per line and rank out and 2 back; distd2: 1 value per line to the neighbour) and PETSc's own\n"
      "count (which includes each rank's block of the all-to-all to itself).\n")
print("| n | ranks | method | layout | system | pre | ns/point | GB/s (Table 3) | STREAM copy GB/s | fraction of copy | err vs LAPACK | bytes sent | model | PETSc count |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for d in rows:
    if d.get("refused"):
        print("| %d | %d | %s | %s | %s | | refused: too few rows per rank for an exact neighbour-only solve | | | | | | | |" % (d["n"], d["ranks"], d["method"], d["layout"], d["system"]))
        continue
    print("| %d | %d | %s | %s | %s | %d | %.3f | %.1f | %.1f | %.0f%% | %.1e | %d | %d | %d |" % (
        d["n"], d["ranks"], d["method"], d["layout"], d["system"], d["precompute"], d["ns_per_point"],
        d["gbs"], d["stream_copy_gbs"], 100 * d["copy_fraction"], d["err_rel"], d["bytes_sent"],
        d["bytes_model"], d["petsc_bytes_sent"]))
print("""
Notes:

- ns/point is the time of one solve divided by n * nsys (all ranks together).
- STREAM's copy moves 24 bytes per element (it pays a read-for-ownership of its target) for the
  16 it counts; the in-place solves move the 16 they count when a block of lines stays in cache
  between the forward and the backward sweep, so the fraction can exceed 100%.
- err vs LAPACK: the largest relative error of 4 sampled lines against dense LAPACK (gesv).
  For the poisson lines LU itself is only accurate to cond*eps; t201 compares against a
  refined dense solve instead (1e-13 or better for every method).
- The per-line factors of the poisson case (a shift per line) take 3 arrays of the size of the
  data when pre-computed: reading them is what makes pre=1 slower per byte than the dominant case.

Raw JSON lines:

```""")
for l in raw.splitlines():
    if l.startswith("{"):
        print(l)
print("```")
PYEOF
