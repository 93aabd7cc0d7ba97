#!/bin/sh
# ppe-bench -bench fft at a tiny size: every line is well-formed JSON with the keys the
# docs section reads, PC fftptdma solves the channel problem exactly (true residual), the
# iterative solvers reach rtol 1e-8, on 2 and 4 ranks the bytes per solve of each phase
# equal the PC's model and that of Diez, Peeters and Costa (2025) (P-TDMA z bytes = 2 pz / nz of the transpose
# method's), the FFTW floor (-bench_fft_bcs PPPPNN,NNNNNN,PPNNDN,NNPPND: periodic x and y, neither, x, y) prints one well-formed line
# per BC code with every key and matches PC fftptdma's solution, and bad options get clear
# errors. No timing is asserted.
. "$srcdir/tests/lib.sh"
bench="$bindir/examples/bench/ppe-bench"

# check_json KIND < output: python3 validates the lines of one run, prints "ok - ..." lines
check_json() {
  python3 -c '
import json, sys
kind = sys.argv[1]
lines = [l for l in sys.stdin.read().splitlines() if l.startswith("{")]
rows, bad = [], 0
for l in lines:
    try:
        rows.append(json.loads(l))
    except ValueError:
        bad += 1
def check(c, msg): print(("ok - " if c else "not ok - ") + msg)
check(lines and not bad and all(d.get("bench") == "fft" for d in rows), "%d JSON lines of bench fft, %d malformed" % (len(lines), bad))
if kind == "time":
    sv = {d["solver"]: d for d in rows if d["what"] == "solve"}
    need = {"solve": ["solver", "setup_s", "solve_s", "its", "reason", "rnorm_rel"], "bare": ["kinds", "plan_s", "fwd_x_s", "fwd_y_s", "bwd_y_s", "bwd_x_s", "bare_s", "ratio_solve_bare"],
            "summary": ["fftptdma_solve_s", "ratio_solve_bare", "pass_solve_bare", "fastest_iterative", "ratio_iterative", "pass_iterative"]}
    miss = [(d["what"], k) for d in rows for k in need.get(d["what"], []) if k not in d]
    # PFMG needs hypre: a PETSc without it gets a "skipped" line that says so instead
    hypre = sys.argv[2] == "yes"
    iters = ["pfmg", "mg"] if hypre else ["mg"]
    sk = [d for d in rows if d["what"] == "skipped"]
    check(set(sv) == {"fftptdma"} | set(iters) and len([d for d in rows if d["what"] == "bare"]) == 1 and len([d for d in rows if d["what"] == "summary"]) == 1 and not miss,
          "lines: fftptdma, bare, %s, summary with their keys (missing: %s)" % (", ".join(iters), miss))
    if not hypre:
        check(len(sk) == 1 and sk[0]["solver"] == "pfmg" and "without hypre" in sk[0].get("note", ""),
              "pfmg is not run and its line says that PETSc has no hypre (%s)" % [d.get("note") for d in sk])
    f = sv.get("fftptdma", {})
    check(f.get("rnorm_rel", 1) <= 1e-10, "fftptdma (preonly) true relative residual %s <= 1e-10" % f.get("rnorm_rel"))
    bare = [d for d in rows if d["what"] == "bare"]
    check(bare and bare[0]["kinds"] == ["R2HC/HC2R", "R2HC/HC2R"], "bare transforms of the periodic x and y: the real DFT (FFTW R2HC/HC2R)")
    for s in iters:
        d = sv.get(s, {})
        check(d.get("reason") == "CONVERGED_RTOL" and d.get("rnorm_rel", 1) <= 1e-8, "CG + %s: %s, true residual %s <= 1e-8" % (s, d.get("reason"), d.get("rnorm_rel")))
    s = [d for d in rows if d["what"] == "summary"]
    check(s and s[0]["fastest_iterative"] in iters and s[0]["ratio_iterative"] > 0 and s[0]["ratio_solve_bare"] > 0, "summary names the fastest iterative solver and positive ratios")
elif kind == "floor":
    codes = sys.argv[3].split(",")
    fl = [d for d in rows if d["what"] == "floor"]
    keys = ["bcs", "n", "floor_kind", "plan_s", "fwd_s", "z_s", "bwd_s", "floor_s", "pcapply_s", "ksp_s", "ksp_nullspace_s", "ratio_pcapply_floor",
            "ratio_ksp_nullspace_pcapply", "setup_s", "setup_solves", "floor_vs_pc_rel"]
    miss = [(d.get("bcs"), k) for d in fl for k in keys if k not in d]
    check([d.get("bcs") for d in fl] == codes and not miss, "floor lines for %s with every key (got %s, missing: %s)" % (codes, [d.get("bcs") for d in fl], miss))
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    for d in fl:
        c = d.get("bcs")
        check(all(num(d.get(k)) and d[k] >= 0 for k in keys if k not in ("bcs", "n", "floor_kind")) and d["floor_kind"], "%s: times and ratios are non-negative numbers, the transforms are named (%s)" % (c, d["floor_kind"]))
        check(num(d["floor_vs_pc_rel"]) and d["floor_vs_pc_rel"] <= 1e-8, "%s: floor solution = fftptdma solution (relative max difference %s <= 1e-8)" % (c, d["floor_vs_pc_rel"]))
        check(num(d.get("floor_rnorm_rel")) and d["floor_rnorm_rel"] <= 1e-10, "%s: floor true relative residual %s <= 1e-10" % (c, d.get("floor_rnorm_rel")))
        check(d.get("singular") == (c.count("D") == 0), "%s: singular = %s" % (c, d.get("singular")))
    k = {d["bcs"]: d["floor_kind"] for d in fl}
    mixed = lambda c, p, q, kind: "%s r2c/c2r" % p in k.get(c, "") and "%s %s" % (q, kind) in k.get(c, "")
    check(k.get("PPPPNN", "").startswith("2D r2c") and "REDFT10" in k.get("NNNNNN", "") and "r2c" not in k.get("NNNNNN", "") and mixed("PPNNDN", "x", "y", "REDFT10") and mixed("NNPPND", "y", "x", "REDFT10"),
          "floor transforms: 2D r2c (PPPPNN), r2r REDFT10 (NNNNNN), x r2c with y REDFT10 (PPNNDN), y r2c with x REDFT10 (NNPPND)")
else:
    b = [d for d in rows if d["what"] == "bytes"]
    np_ = b[0]["ranks"] if b else 0
    grids = sorted(set(tuple(d["pgrid"]) for d in b))
    ndiv = len([p for p in range(1, np_ + 1) if np_ % p == 0])
    check(len(b) == 2 * len(grids) and all(py * pz == np_ for py, pz in grids) and len(grids) == ndiv, "bytes lines: ptdma and transpose on every pencil grid %s" % grids)
    check(all(d["rnorm_rel"] <= 1e-10 for d in b), "every pencil grid and z method solves exactly (worst %.1e)" % max([d["rnorm_rel"] for d in b] or [1]))
    check(all(d["bytes_xy"] == d["model_xy"] == d["paper_xy"] and d["bytes_redist"] == 0 for d in b), "x<->y transpose bytes = PC model = paper model, no redistribution on pencil DMDAs")
    check(all(d["bytes_z"] == d["model_z"] == d["paper_z"] for d in b), "z bytes (ptdma and transpose) = PC model = paper model")
    ok = True
    for g in grids:
        p = [d for d in b if tuple(d["pgrid"]) == g and d["zsolve"] == "ptdma"][0]
        t = [d for d in b if tuple(d["pgrid"]) == g and d["zsolve"] == "transpose"][0]
        if g[1] > 1: ok = ok and p["bytes_z"] * p["n"][2] == 2 * g[1] * t["bytes_z"]
        else: ok = ok and p["bytes_z"] == t["bytes_z"] == 0
    check(ok, "P-TDMA z bytes = 2 pz / nz of the transpose method on every grid (0 for pz = 1)")
' "$1" "$PPE_PETSC_HAS_HYPRE" "${2:-}"
}

# tap_lines NP < "ok - ..." lines: numbered TAP lines tagged with the rank count (from a
# here-document, not a pipe, so that the count stays in this shell); anything else is a
# failure of the checker itself
tap_lines() {
  while IFS= read -r _l; do
    case "$_l" in
      "ok - "*) tap_ok "[np=$1] ${_l#ok - }" ;;
      "not ok - "*) tap_notok "[np=$1] ${_l#not ok - }" ;;
      "") ;;
      *) tap_notok "[np=$1] checker: $_l" ;;
    esac
  done
}

out=$(ppe_mpiexec 1 "$bench" -bench fft -bench_fft_n 16 -bench_fft_solvers fftptdma,bare,pfmg,mg -bench_reps 2 -bench_fft_iter_reps 1 2>&1)
tap_check $? "[np=1] ppe-bench -bench fft -bench_fft_n 16 runs"
res=$(echo "$out" | check_json time 2>&1)
tap_lines 1 <<TAPEOF
$res
TAPEOF

codes=PPPPNN,NNNNNN,PPNNDN,NNPPND
out=$(ppe_mpiexec 1 "$bench" -bench fft -bench_fft_n 16 -bench_fft_solvers fftptdma,bare -bench_fft_bcs $codes -bench_reps 2 2>&1)
tap_check $? "[np=1] ppe-bench -bench fft -bench_fft_n 16 -bench_fft_bcs $codes runs"
res=$(echo "$out" | check_json floor $codes 2>&1)
tap_lines 1 <<TAPEOF
$res
TAPEOF

for bad in PPXNN PPXNNN PPPNN; do
  out=$(ppe_mpiexec 1 "$bench" -bench fft -bench_fft_n 16 -bench_fft_solvers fftptdma -bench_fft_bcs PPPPNN,$bad 2>&1)
  test $? -ne 0 && echo "$out" | grep -q "bench_fft_bcs: \"$bad\" is not a boundary-condition code: 6 letters P, N or D over xlo,xhi,ylo,yhi,zlo,zhi"
  tap_check $? "[np=1] -bench_fft_bcs $bad is refused with a clear message"
done
out=$(ppe_mpiexec 1 "$bench" -bench fft -bench_fft_n 16 -bench_fft_solvers fftptdma -bench_fft_bcs PNNNNN 2>&1)
test $? -ne 0 && echo "$out" | grep -q "bench_fft_bcs: \"PNNNNN\": periodic faces come in pairs (x has one; PPNNNN is x periodic)"
tap_check $? "[np=1] -bench_fft_bcs with one periodic face of a pair is refused"

out=$(ppe_mpiexec 1 "$bench" -bench fft -bench_fft_n 16 -bench_fft_solvers fftptdma,cg 2>&1)
test $? -ne 0 && echo "$out" | grep -q "Unknown solver cg in -bench_fft_solvers: use fftptdma, bare, boomeramg, pfmg, gamg, mg, mg-sor"
tap_check $? "[np=1] an unknown solver is refused with the list of the known ones"

for np in 2 4; do
  if ! np_allowed $np; then
    tap_skip "[np=$np] bytes part: more ranks than this tree runs"
    continue
  fi
  out=$(ppe_mpiexec $np "$bench" -bench fft -bench_fft_bytes_n 16 2>&1)
  tap_check $? "[np=$np] ppe-bench -bench fft -bench_fft_bytes_n 16 runs"
  res=$(echo "$out" | check_json bytes 2>&1)
  tap_lines $np <<TAPEOF
$res
TAPEOF
done
if np_allowed 4; then
  out=$(ppe_mpiexec 4 "$bench" -bench fft -bench_fft_bytes_n 16 -bench_fft_pgrids 3,1 2>&1)
  test $? -ne 0 && echo "$out" | grep -q "bench_fft_pgrids: 3 x 1 is not a grid of the 4 ranks"
  tap_check $? "[np=4] a pencil grid that does not multiply to the ranks is refused"
else
  tap_skip "[np=4] a bad pencil grid: more ranks than this tree runs"
fi
tap_done
