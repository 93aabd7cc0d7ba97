#!/bin/sh
# ppe-bench -bench ca at tiny local sizes on 1 and 2 ranks (no timing asserted): every line is
# well-formed JSON with the keys the docs section reads; all four solvers reach the tolerance
# (true residual); a solver's synchronisations are its reductions plus its halo exchanges, per
# iteration as printed; cbcg makes fewer reductions than CG; GNoComm(CI) takes 2 x 24
# Chebyshev steps per iteration, temporally blocked on the channel; the model's bytes are the
# documented ones (CG + jacobi 152, cbcg s = 8 165 per point and iteration); each pair line
# holds its solvers' numbers and L* = (T_X - T_Y) / (S_Y - S_X); bad options get clear errors.
. "$srcdir/tests/lib.sh"
bench="$bindir/examples/bench/ppe-bench"

# tap_lines < "ok - ..." lines: numbered TAP lines (from a here-document, not a pipe, so that
# the count stays in this shell); anything else is a failure of the checker itself
tap_lines() {
  while IFS= read -r _l; do
    case "$_l" in
      "ok - "*) tap_ok "${_l#ok - }" ;;
      "not ok - "*) tap_notok "${_l#not ok - }" ;;
      "") ;;
      *) tap_notok "checker: $_l" ;;
    esac
  done
}

check_json() {
  python3 -c '
import json, sys
np_ = int(sys.argv[1])
lines = [l for l in sys.stdin.read().splitlines() if l.startswith("{")]
rows, bad = [], 0
for l in lines:
    try:
        rows.append(json.loads(l))
    except ValueError:
        bad += 1
def check(c, msg): print(("ok - " if c else "not ok - ") + "[np=%d] " % np_ + msg)
sv = [d for d in rows if d.get("bench") == "ca"]
pr = [d for d in rows if d.get("bench") == "ca-pair"]
check(not bad and len(sv) == 8 and len(pr) == 4, "%d solver lines (want 8), %d pair lines (want 4), %d malformed" % (len(sv), len(pr), bad))
need = ["n_local", "n", "ranks", "solver", "its", "rnorm_rel", "solve_s", "ms_per_it", "reductions", "halo_exchanges", "syncs", "syncs_per_it", "cheb_steps_per_it", "cheb_block_steps", "model_bytes_per_pt_it", "model_ms_per_it", "triad_gbs"]
miss = [(d.get("solver"), k) for d in sv for k in need if k not in d]
check(not miss, "solver lines have every key (missing: %s)" % miss[:4])
if miss or not sv:
    sys.exit(0)
for n in sorted(set(d["n_local"] for d in sv)):
    by = {d["solver"]: d for d in sv if d["n_local"] == n}
    check(sorted(by) == ["bicgstab", "cbcg-jacobi", "cg-jacobi", "gnocomm-ci"], "n %d: the four solvers %s" % (n, sorted(by)))
    check(all(d["n"] == [n, n, n * np_] and d["ranks"] == np_ for d in by.values()), "n %d: grid n x n x n*ranks" % n)
    worst = max(d["rnorm_rel"] for d in by.values())
    check(all(d["its"] > 0 for d in by.values()) and worst <= 1e-6, "n %d: all converge, worst true relative residual %.2e (<= 1e-6)" % (n, worst))
    ok = all(d["syncs"] == d["reductions"] + d["halo_exchanges"] and abs(d["syncs_per_it"] - d["syncs"] / d["its"]) <= 1e-3 for d in by.values())
    check(ok, "n %d: syncs = reductions + halo exchanges, syncs per iteration as printed" % n)
    cg, cb, bi, ci = by["cg-jacobi"], by["cbcg-jacobi"], by["bicgstab"], by["gnocomm-ci"]
    check(cb["reductions"] < cg["reductions"] and cg["reductions"] >= 2 * cg["its"], "n %d: cbcg %d reductions < CG %d (>= 2 per iteration)" % (n, cb["reductions"], cg["reductions"]))
    check(ci["cheb_steps_per_it"] == 48 and ci["cheb_block_steps"] >= 2 and bi["cheb_steps_per_it"] == 0, "n %d: GNoComm(CI) 48 Chebyshev steps per iteration (%g), blocked %d per sweep" % (n, ci["cheb_steps_per_it"], ci["cheb_block_steps"]))
    check(cg["model_bytes_per_pt_it"] == 152 and cb["model_bytes_per_pt_it"] == 165 and all(d["model_ms_per_it"] > 0 for d in by.values()), "n %d: model bytes CG 152, cbcg 165 per point and iteration" % n)
    for x, y in (("cbcg-jacobi", "cg-jacobi"), ("gnocomm-ci", "bicgstab")):
        p = [d for d in pr if d["n_local"] == n and d["x"] == x and d["y"] == y]
        if len(p) != 1:
            check(False, "n %d: one pair line %s against %s" % (n, x, y))
            continue
        p, X, Y = p[0], by[x], by[y]
        same = p["t_x_s"] == X["solve_s"] and p["t_y_s"] == Y["solve_s"] and p["s_x"] == X["syncs"] and p["s_y"] == Y["syncs"] and p["its_x"] == X["its"] and p["its_y"] == Y["its"]
        dT, dS = X["solve_s"] - Y["solve_s"], Y["syncs"] - X["syncs"]
        if p["crossover"] == "faster above L*":
            rel = abs(p["lstar_s"] - dT / dS) / (dT / dS)
            ok = dS > 0 and dT > 0 and rel <= 2e-3
        else:
            rel, ok = 0, p["crossover"] in ("faster at any L", "never faster", "faster below L* only")
        check(same and ok, "n %d: %s against %s: %s, L* = %.3e s (recomputed to %.1e)" % (n, x, y, p["crossover"], p["lstar_s"], rel))
' "$1"
}

for np in 1 2; do
  if ! np_allowed $np; then
    tap_skip "[np=$np] more ranks than this tree runs"
    continue
  fi
  out=$(ppe_mpiexec $np "$bench" -bench ca -bench_ca_n 12,16 -bench_reps 1 -bench_stream_n 100000 2>&1)
  tap_check $? "[np=$np] ppe-bench -bench ca -bench_ca_n 12,16 runs"
  res=$(echo "$out" | check_json $np 2>&1)
  tap_lines <<TAPEOF
$res
TAPEOF
done

out=$(ppe_mpiexec 1 "$bench" -bench ca -bench_ca_n 12 -bench_ca_problem nope 2>&1)
test $? -ne 0 && echo "$out" | grep -q "bench_ca_problem: unknown problem nope (mms, channel or bicgstab-paper)"
tap_check $? "[np=1] an unknown problem is refused with the known ones"
out=$(ppe_mpiexec 1 "$bench" -bench ca -bench_ca_n 12,3 2>&1)
test $? -ne 0 && echo "$out" | grep -q "bench_ca_n: local sizes >= 4, got 3"
tap_check $? "[np=1] a local size below 4 is refused"
tap_done
