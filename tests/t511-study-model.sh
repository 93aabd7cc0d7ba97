#!/bin/sh
# ppe-study, what a time-stepping user pays and what communication costs at scale:
# - against tests/studies/fake-solve.sh (fixed numbers): a row whose true residual is above
#   rtol is marked; steps_to_amortise, total_100_steps_s, the model T(L) = T_local + S L and
#   the crossovers (automatic pairs and a pair directive) are what their formulas give;
#   residuals.png, grids.png and latency.png are written;
# - the stop directive reaches ppe-solve (-ppe_stop true by default, ksp on request);
#   a bad --latency or pair is refused;
# - with ppe-solve on 2 ranks: every row stops at the same true relative residual, and the
#   table and model agree with ppe-solve's JSON.
. "$srcdir/tests/lib.sh"
out=${TMPDIR:-/tmp}/ppe-t511.$$
study="$bindir/src/tools/ppe-study"
# the interpreter configure gave ppe-study (Debian's python3, with matplotlib)
check="$(sed -n '1s/^#!//p' "$study") $srcdir/tests/studies/check-study.py"
mkdir -p "$out"
# the fake runs without MPI: drop "-n N" and start it through sh
printf '#!/bin/sh\nshift 2\nexec sh "$@"\n' > "$out/launch.sh"
tap_lines() { # turn check-study.py's lines into numbered TAP lines (not in a pipe: tap_n)
  while IFS= read -r _l; do
    case "$_l" in
      "ok - "*) tap_ok "$1${_l#ok - }" ;;
      "not ok - "*) tap_notok "$1${_l#not ok - }" ;;
      *) echo "# $_l" ;;
    esac
  done
}

# ---- fake ppe-solve
timeout 120 "$study" "$srcdir/tests/studies/model.study" -o "$out/model" --solve "$srcdir/tests/studies/fake-solve.sh" \
  --mpiexec "sh $out/launch.sh" > "$out/model.log" 2>&1
rc=$?
tail -n 3 "$out/model.log" | sed 's/^/# /'
tap_check $rc "ppe-study runs the model study on the fake ppe-solve (exit $rc)"
$check "$out/model" cbcg:cg:L\* cbcg:cg:=2.5531914894e-05 gnocomm:bcgs:L\* gnocomm:bcgs:=1.2297297297e-04 \
  "fft:cg:wins at any L" > "$out/check.log" 2>&1
tap_lines "fake: " < "$out/check.log"
[ "$(grep -c '"status": "above-rtol"' "$out/model/results.jsonl")" = 2 ] &&
  grep -q '^| above | above-rtol | CONVERGED_RTOL | .*true relative residual 3e-07 is above rtol 1e-08' "$out/model/table.md"
tap_check $? "fake: the row above rtol (2 grids) is marked in results.jsonl and table.md"
grep -q '^Modelled solve time at a synchronisation cost L: T(L) = T_local + S L; T_local measured = solve time minus the MPI waits of the rank that waited least; not a measurement' "$out/model/table.md" &&
  grep -q '^- fft against cg (pair directive): fft wins at any L' "$out/model/table.md"
tap_check $? "fake: the model table is headed as a model, the pair directive's crossover named"
for png in residuals grids latency; do
  [ -s "$out/model/$png.png" ] && head -c 8 "$out/model/$png.png" | grep -q PNG
  tap_check $? "fake: $png.png written"
done

# ---- stopping rule and bad input (no runs)
dry() { "$study" "$1" --dry-run --solve "$bindir/src/tools/ppe-solve"; }
[ "$(dry "$srcdir/tests/studies/fair.study" | grep -c -- '-ppe_stop true ')" = 5 ]
tap_check $? "--dry-run: every run gets -ppe_stop true by default"
{ cat "$srcdir/tests/studies/fair.study"; echo "stop ksp"; } > "$out/ksp.study"
[ "$(dry "$out/ksp.study" | grep -c -- '-ppe_stop ksp ')" = 5 ] && ! dry "$out/ksp.study" | grep -q -- '-ppe_stop true'
tap_check $? "--dry-run: the directive stop ksp gives -ppe_stop ksp"
"$study" "$srcdir/tests/studies/fair.study" --latency 2e-6,abc --dry-run > "$out/bad.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- "--latency '2e-6,abc'" "$out/bad.log"
tap_check $? "a bad --latency is refused (exit $rc, want 2)"
{ cat "$srcdir/tests/studies/fair.study"; echo "pair cbcg-jacobi nosuch"; } > "$out/pair.study"
dry "$out/pair.study" > "$out/bad.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "pair cbcg-jacobi nosuch: no solver named nosuch" "$out/bad.log"
tap_check $? "a pair naming an unknown solver is refused (exit $rc, want 2)"

# ---- ppe-solve, 2 ranks
if ! np_allowed 2; then
  tap_skip "ppe-solve study: 2 ranks not run in this tree"
else
  export PPE_PARENT_LEDGER="$ppe_ledger" # its runs go through ppe_mpiexec and its memory checks
  timeout 300 "$study" "$srcdir/tests/studies/fair.study" -o "$out/fair" --solve "$bindir/src/tools/ppe-solve" \
    --mpiexec "sh '$srcdir/tests/ppe-mpiexec.sh'" > "$out/fair.log" 2>&1
  rc=$?
  sed -n '/^| solver/,/^$/p' "$out/fair/table.md" | sed 's/^/# /'
  tap_check $rc "ppe-study runs the fair study with ppe-solve (exit $rc)"
  [ "$(grep -c '"status": "ok"' "$out/fair/results.jsonl")" = 5 ]
  tap_check $? "ppe-solve: all 5 rows ok under the true-residual stop"
  $check "$out/fair" cbcg-jacobi:cg-jacobi:any gnocomm:bcgs-jacobi:any > "$out/check.log" 2>&1
  tap_lines "ppe-solve: " < "$out/check.log"
fi
# only GRID SOLVER...: the other solvers are not run on that grid; a bad grid or name is refused
printf 'study o\ngrid 8 10\nsolver a -ksp_type cg\nsolver b -ksp_type cbcg\nonly 10 b\n' > "$out/only.study"
n=$("$study" "$out/only.study" --dry-run --solve "$bindir/src/tools/ppe-solve" | grep -c -- '-ppe_grid_n')
[ "$n" = 3 ]
tap_check $? "only 10 b: 3 runs (a and b on grid 8, b alone on grid 10), got $n"
printf 'study o\ngrid 8\nsolver a -ksp_type cg\nonly 9 a\n' > "$out/only.study"
"$study" "$out/only.study" --dry-run --solve "$bindir/src/tools/ppe-solve" > "$out/only.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "only 9: not a grid of the study" "$out/only.log"
tap_check $? "only on a grid the study does not have is refused (exit $rc, want 2)"
rm -rf "$out"
tap_done
