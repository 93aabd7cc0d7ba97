#!/bin/sh
# PC ppemg on grids stretched towards walls: the z-line smoother (Chebyshev in T^-1 A, T the z
# lines, each solved exactly) with x and y coarsened only, chosen by -pc_ppemg_smoother auto.
# The V-cycle's convergence factor on the channel is small and grid-independent (within 20% over
# three sizes) where the point smoother's exceeds 1; CG + ppemg needs a bounded number of
# iterations at three sizes, the same at 1, 2, 3, 4 and 8 ranks (z lines split across ranks or
# not), and the emulated device back end gives the host's bits; variable coefficients (bubbles
# on a stretched grid, moving), 2D, periodic z, Dirichlet x-y lines and a shift; -ksp_view shows
# the smoother and the semi-coarsened levels; ppe-bench -bench mg models the line smoother.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"
np=2
np_allowed 2 || np=1
work=$(mktemp -d "${TMPDIR:-/tmp}/t522.XXXXXX")
trap 'rm -rf "$work"' EXIT

# factor ARGS...: the V-cycle factor of ppemg on ppe-solve ARGS (mg_factor of tests/lib.sh)
factor() { mg_factor $np "$@"; }
# run ARGS...: CG + ppemg to a true rtol of 1e-8; prints "its rnorm_rel reason"
run() {
  out=$(ppe_mpiexec $np "$solve" -ksp_type cg -pc_type ppemg -ppe_stop true -ppe_rtol 1e-8 -ppe_json "$@" 2>&1)
  echo "$(echo "$out" | json_get its) $(echo "$out" | json_get rnorm_rel) $(echo "$out" | json_get reason)"
}

# Channel (x, y periodic, Neumann walls, tanh z: near the walls the z couplings are 24x the y
# ones at 128^3). Measured (2 ranks): zline V-cycle factors 0.0216, 0.0240, 0.0250 at 32^3, 64^3,
# 96^3; chebyci's 0.58, 1.46, 2.18 (the V-cycle diverges). Bounds: zline each <= 0.05, max/min
# <= 1.2; chebyci's at 64^3 at least 10x zline's.
# The light trees (sanitizers, valgrind) take 24^3, 32^3, 48^3 (measured 0.0206, 0.0216, 0.0228).
sizes="32 64 96"
[ "${PPE_TEST_LIGHT:-no}" = yes ] && sizes="24 32 48"
r=$(mg_factor_sizes $np 0.05 "$sizes" -problem channel); ok=$?
fs=" ${r%|*}"; s=${r#*|}
fc=$(factor -problem channel -ppe_grid_n 64 -pc_ppemg_smoother chebyci)
f64=$(factor -problem channel -ppe_grid_n 64)
is_num "$fc" && is_num "$f64" && fge "$fc" "$(awk -v f="$f64" 'BEGIN { print 10 * f }')" || ok=1
tap_check $ok "[np=$np] channel V-cycle, zline (auto): factors$fs at $sizes (each <= 0.05, max/min $s <= 1.2); chebyci at 64^3 $fc (>= 10x $f64)"

# CG + ppemg on the channel: measured 4, 4, 4 iterations at 32^3, 64^3, 96^3 (128^3: 4; the
# point smoother needed 17, 26, 55). Bound: at most 5 at each size.
its_all=""; ok=0
for n in $sizes; do
  set -- $(run -problem channel -ppe_grid_n $n)
  [ "$3" = CONVERGED_RTOL ] && fle "$2" 1e-8 && [ "$1" -le 5 ] || ok=1
  its_all="$its_all $1"
done
tap_check $ok "[np=$np] channel, CG + ppemg (zline): iterations$its_all at $sizes (each <= 5)"

# 1, 2, 3, 4 and 8 ranks (the z lines whole on a rank or split across 2 to 8, solved by the
# distributed tridiagonal methods): measured 4 iterations each, solutions within 5e-15 of one
# rank's (rtol 1e-10). Bound 1e-9.
ch="-problem channel -ppe_grid_n 32 -ksp_type cg -pc_type ppemg -ppe_stop true -ppe_rtol 1e-10 -viewer_binary_skip_info"
ref=""
for p in 1 2 3 4 8; do
  if ! np_allowed $p; then tap_skip "channel zline np=$p"; continue; fi
  out=$(ppe_mpiexec $p "$solve" $ch -ppe_json -ksp_view_solution "binary:$work/x$p.bin" 2>&1)
  its=$(echo "$out" | json_get its); rr=$(echo "$out" | json_get rnorm_rel); r=$(echo "$out" | json_get reason)
  [ -z "$ref" ] && ref=$its && xref=$p
  dx=$(vecs_reldiff "$work/x$xref.bin" 0 "$work/x$p.bin" 0 1 2>&1)
  [ "$r" = CONVERGED_RTOL ] && fle "$rr" 1e-10 && [ "$its" = "$ref" ] && is_num "$dx" && fle "$dx" 1e-9
  tap_check $? "[np=$p] channel 32^3 CG + ppemg (zline): $its iterations ($xref rank: $ref), rnorm_rel $rr, solution within $dx of $xref rank's (<= 1e-9)"
done

# The emulated device back end: the same line solves and smoother code, the same bits
out=$(ppe_mpiexec $np "$solve" $ch -ppe_json -ppe_backend emu -ksp_view_solution "binary:$work/emu.bin" 2>&1)
ie=$(echo "$out" | json_get its); be=$(echo "$out" | json_get backend)
dx=$(vecs_reldiff "$work/x$np.bin" 0 "$work/emu.bin" 0 1 2>&1)
[ "$be" = emu ] && [ "$ie" = 4 ] && is_num "$dx" && fle "$dx" 0
tap_check $? "[np=$np] channel zline on back end $be: $ie iterations, solution differs from the host's by $dx (0: the same bits)"

# Variable coefficients on a stretched grid (bubbles at ratio 1000, tanh z): measured 7 and 9
# iterations at 32^3 and 64^3 with auto (zline: the lines' rows from the face arrays), 16 and 24
# with chebyci. Bounds: auto <= 10, chebyci at least 1.5x auto's.
ok=0; msg=""
for n in 32 64; do
  set -- $(run -problem bubbles -ppe_density_ratio 1000 -ppe_grid_z_stretch tanh -ppe_grid_n $n)
  ia=$1; [ "$3" = CONVERGED_RTOL ] && fle "$2" 1e-8 && [ "$ia" -le 10 ] || ok=1
  set -- $(run -problem bubbles -ppe_density_ratio 1000 -ppe_grid_z_stretch tanh -ppe_grid_n $n -pc_ppemg_smoother chebyci)
  [ "$3" = CONVERGED_RTOL ] && [ $((2 * $1)) -ge $((3 * ia)) ] || ok=1
  msg="$msg ${n}^3: $ia (chebyci $1);"
done
tap_check $ok "[np=$np] bubbles ratio 1000 on a tanh grid, CG + ppemg auto (zline):$msg auto <= 10, chebyci >= 1.5x"

# Moving bubbles on the stretched grid, 3 steps: the lines are set up again from each density;
# the last step equals a fresh run at that step
mvb="-problem bubbles -ppe_grid_n 32 -ppe_grid_z_stretch tanh -ppe_stop true -ppe_rtol 1e-10 -viewer_binary_skip_info -ksp_type cg -pc_type ppemg"
out=$(ppe_mpiexec $np "$solve" $mvb -ppe_repeat 3 -ppe_bubbles_move -ppe_json -ksp_view_solution "binary:$work/loop.bin" 2>&1)
itl=$(echo "$out" | json_get its)
out=$(ppe_mpiexec $np "$solve" $mvb -ppe_bubbles_step 2 -ppe_json -ksp_view_solution "binary:$work/fresh.bin" 2>&1)
itf=$(echo "$out" | json_get its)
same=$(vecs_reldiff "$work/fresh.bin" 0 "$work/loop.bin" 2 1 2>&1)
[ "$itl" = "$itf" ] && is_num "$same" && fle "$same" 1e-7
tap_check $? "[np=$np] moving bubbles on a tanh grid (zline), 3 steps: the last in $itl iterations, a fresh run in $itf; solutions within $same (<= 1e-7)"

# 2D channel (y the stretched direction: the kernels' z), periodic z lines (zline forced on the
# periodic mms, 1 and 2 ranks), Dirichlet x-y boundaries (lines of different shifts), a shift.
# Measured: 4, 3, 3, 5, 3 iterations. Bound: at most 6.
for c in "-problem channel -ppe_grid_n 256,256|$np" "-problem mms -ppe_bc PPPPPP -ppe_grid_n 32 -pc_ppemg_smoother zline|1" \
         "-problem mms -ppe_bc PPPPPP -ppe_grid_n 32 -pc_ppemg_smoother zline|$np" "-problem mms -ppe_bc DDDDNN -ppe_grid_z_stretch tanh -ppe_grid_n 32|$np" \
         "-problem channel -ppe_grid_shift 3 -ppe_grid_n 32|$np"; do
  s=${c%|*}; p=${c#*|}
  out=$(ppe_mpiexec $p "$solve" -ksp_type cg -pc_type ppemg -ppe_stop true -ppe_rtol 1e-8 -ppe_json -ksp_view $s 2>&1)
  its=$(echo "$out" | json_get its); rr=$(echo "$out" | json_get rnorm_rel); r=$(echo "$out" | json_get reason)
  [ "$r" = CONVERGED_RTOL ] && fle "$rr" 1e-8 && [ "$its" -le 6 ] && echo "$out" | grep -q "zline, Chebyshev degree 4"
  tap_check $? "[np=$p] CG + ppemg (zline) $s: $r in $its iterations (<= 6), rnorm_rel $rr"
done

# -ksp_view of the 64^3 channel: auto resolved to zline, y (half the x spacing) coarsened alone
# first, then x and y, z kept; the line solver's methods
out=$(ppe_mpiexec $np "$solve" -problem channel -ppe_grid_n 64 -ksp_type cg -pc_type ppemg -ksp_view 2>&1)
echo "$out" | grep -q "smoother (auto: z spacing finer than x, y by > 1.5): zline, Chebyshev degree 4 on \[2/4" &&
  echo "$out" | grep -q "level 1 (PCMG level [0-9]*): 64 x 32 x 64, matrix-free" && echo "$out" | grep -q "level 2 (PCMG level [0-9]*): 32 x 16 x 64, matrix-free" &&
  echo "$out" | grep -q "z-line Jacobi: T^-1" && echo "$out" | grep -q "type: chebyshev"
tap_check $? "[np=$np] -ksp_view: auto -> zline (degree 4, [2/4, 2]), levels 64 x 32 x 64 and 32 x 16 x 64 (z kept), the line solves"

# ppe-bench -bench mg on a constant stretched grid: the zline byte model (2 x 4 steps of
# (16 + 8) + 32 + 40 bytes, plus the restriction's residual and the interpolation: 808) and the
# levels' own sizes (x and y coarsened: 32^3, then 16 x 16 x 32)
out=$(ppe_mpiexec $np "$bindir/examples/bench/ppe-bench" -bench mg -ppe_grid_n 32 -bench_reps 2 -bench_stream_n 100000 -bench_mg_density_ratio 0 -ppe_grid_z_stretch tanh -pc_ppemg_levels 3 2>&1)
echo "$out" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
lv = [r for r in rows if "level" in r]
ok = len(lv) == 3 and [r["points"] for r in lv] == [32768, 8192, 2048] and all(r["smoother"] == "zline" for r in lv)
ok = ok and lv[0]["model_bytes_per_point"] == 808 and all(r["level_s"] > 0 for r in lv)
sys.exit(0 if ok else 1)'
tap_check $? "[np=$np] ppe-bench -bench mg, tanh grid: zline on 3 levels of 32768, 8192, 2048 points, 808 model bytes a point"

# bad input
out=$(ppe_mpiexec $np "$solve" -problem channel -ppe_grid_n 32 -ksp_type cg -pc_type ppemg -pc_ppemg_levels 5 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "allow at most 4: coarsening stops at 4 points along y on level 3"
tap_check $? "[np=$np] channel 32^3 (z kept, y first), 5 levels asked: refused, at most 4 (a level needs 3 points a direction; exit $rc)"
out=$(ppe_mpiexec $np "$solve" -problem channel -ppe_grid_n 32 -ksp_type cg -pc_type ppemg -pc_ppemg_smooth_ratio 0.5 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "smooth_ratio must be greater than 1 (or 0: the smoother's default)"
tap_check $? "[np=$np] -pc_ppemg_smooth_ratio 0.5 refused (exit $rc)"
tap_done
