#!/bin/sh
# ppe-bench -bench fft2d at a tiny size: every line is well-formed JSON with the keys the
# docs section reads, PC fftptdma solves the 2D problem exactly (true residual), the 2D floor
# (FFTW 1D transforms along x + tridiagonal sweeps along y) gives fftptdma's solution, the
# iterative solvers reach rtol 1e-8, and bad input gets clear errors (more than one rank, a
# floor with periodic y). No timing is asserted.
. "$srcdir/tests/lib.sh"
bench="$bindir/examples/bench/ppe-bench"
solvers=gamg,mg
[ "$PPE_PETSC_HAS_HYPRE" = yes ] && solvers=boomeramg,pfmg,gamg,mg
out=$(ppe_mpiexec 1 "$bench" -bench fft2d -bench_fft2d_n 24,32 -bench_fft2d_bcs PPNN,NNNN,DDNN,NDDN -bench_fft2d_solvers "$solvers" -bench_reps 2 -bench_fft2d_iter_reps 1 2>&1)
tap_check $? "ppe-bench -bench fft2d: 24^2 and 32^2, PPNN NNNN DDNN NDDN, iterative $solvers"
echo "$out" | python3 -c '
import json, sys
lines = [l for l in sys.stdin.read().splitlines() if l.startswith("{")]
rows, bad = [], 0
for l in lines:
    try:
        rows.append(json.loads(l))
    except ValueError:
        bad += 1
def check(c, msg): print(("ok - " if c else "not ok - ") + msg)
check(lines and not bad and all(d.get("bench") == "fft2d" for d in rows), "%d JSON lines of bench fft2d, %d malformed" % (len(lines), bad))
need = {"fftptdma": ["bc", "n", "setup_s", "solve_s", "pcapply_s", "rnorm_rel"], "floor": ["plan_s", "fwd_x_s", "y_sweeps_s", "bwd_x_s", "floor_s", "diff_fftptdma", "ratio_solve_floor", "ratio_pcapply_floor"],
        "iterative": ["solver", "setup_s", "solve_s", "its", "rnorm_rel", "ratio_solve_fftptdma"], "summary": ["fftptdma_solve_s", "floor_s", "ratio_solve_floor", "fastest_iterative", "ratio_iterative"]}
miss = [(d["what"], k) for d in rows for k in need.get(d["what"], []) if k not in d]
check(not miss, "every line has the keys of its kind (missing: %s)" % miss[:4])
ff = [d for d in rows if d["what"] == "fftptdma"]
check(len(ff) == 8 and all(len(d["n"]) == 2 for d in ff), "fftptdma measured for 8 cases (4 BC codes x 2 sizes), sizes of 2 values")
check(all(d["rnorm_rel"] <= 1e-10 for d in ff), "fftptdma exact: worst true relative residual %.1e (<= 1e-10)" % max(d["rnorm_rel"] for d in ff))
fl = [d for d in rows if d["what"] == "floor"]
check(len(fl) == 8 and all(d["diff_fftptdma"] <= 1e-10 for d in fl), "the 2D floor gives fftptdma'"'"'s solution: worst difference %.1e (<= 1e-10, means removed when singular)" % max(d["diff_fftptdma"] for d in fl))
it = [d for d in rows if d["what"] == "iterative"]
nsol = len(sys.argv[1].split(","))
check(len(it) == 8 * nsol and all(d["rnorm_rel"] <= 1e-7 for d in it), "%d iterative solves reach the true residual 1e-8 (worst %.1e)" % (len(it), max(d["rnorm_rel"] for d in it)))
check(len([d for d in rows if d["what"] == "summary"]) == 8, "one summary per case")
' "$solvers" > "$abs_top_builddir/tests/t510.tap"
while IFS= read -r line; do
  case $line in
    "not ok - "*) tap_notok "${line#not ok - }" ;;
    "ok - "*) tap_ok "${line#ok - }" ;;
  esac
done < "$abs_top_builddir/tests/t510.tap"
[ -s "$abs_top_builddir/tests/t510.tap" ] || tap_notok "the JSON check printed nothing"
rm -f "$abs_top_builddir/tests/t510.tap"
# bad input
if np_allowed 2; then
  msg=$(ppe_mpiexec 2 "$bench" -bench fft2d -bench_fft2d_n 16 -bench_fft2d_solvers none 2>&1)
  echo "$msg" | grep -q "bench fft2d runs on one rank (got 2)"
  tap_check $? "2 ranks: refused with \"-bench fft2d runs on one rank (got 2)\""
else
  tap_skip "2 ranks refused"
fi
msg=$(ppe_mpiexec 1 "$bench" -bench fft2d -bench_fft2d_n 16 -bench_fft2d_bcs NNPP -bench_fft2d_solvers none 2>&1)
echo "$msg" | grep -q "The 2D floor solves non-periodic y lines (got periodic y)"
tap_check $? "periodic y: the floor refuses with \"The 2D floor solves non-periodic y lines (got periodic y)\""
msg=$(ppe_mpiexec 1 "$bench" -bench fft2d -bench_fft2d_n 4 2>&1)
echo "$msg" | grep -q "sizes must be >= 8, got 4"
tap_check $? "size 4: refused with \"sizes must be >= 8, got 4\""
tap_done
