#!/bin/sh
# ppe-study: a study with a good run, a diverging one, a misspelt option and an unknown
# PC runs to the end, reports each as its own row, and writes the table, CSV, JSON lines
# and the residual plot; solvers that need a package PETSc lacks (hypre without hypre,
# STRUMPACK) are left out with a note under the table instead of failing.
. "$srcdir/tests/lib.sh"
out=${TMPDIR:-/tmp}/ppe-t505.$$
export PPE_STUDY_PATH="$srcdir/studies"
# its runs start through ppe_mpiexec (tests/ppe-mpiexec.sh), like every launch of the tests
export PPE_PARENT_LEDGER="$ppe_ledger"
timeout 300 "$bindir/src/tools/ppe-study" "$srcdir/tests/studies/faults.study" -o "$out" \
  --solve "$bindir/src/tools/ppe-solve" --mpiexec "sh '$srcdir/tests/ppe-mpiexec.sh'" > "$out.log" 2>&1
rc=$?
sed 's/^/# /' "$out.log" | tail -n 12
tap_check $rc "ppe-study completes the faults study (exit $rc)"
csv="$out/results.csv"
row() { grep "^mms,12,1,$1," "$csv"; }
row good | grep -q ',ok,CONVERGED_RTOL,'
tap_check $? "good: converged row"
row diverging | grep -q ',diverged,DIVERGED_'
tap_check $? "diverging: a row with its DIVERGED reason"
row misspelt | grep -q ',failed,.*unused option (misspelt?): -pc_tpye'
tap_check $? "misspelt option: a failed row naming -pc_tpye"
row broken | grep -q ',failed,ERROR,.*Unable to find requested PC type nosuchpc'
tap_check $? "unknown PC: a failed row with PETSc's message"
# solvers that need a package of PETSc: run where PETSc has it, else named in a note
config=$(ppe_mpiexec 1 "$bindir/src/tools/ppe-solve" -ppe_config -ppe_grid_n 4 -ksp_type preonly -pc_type none 2>&1 | grep '"packages"')
has_strumpack=no
echo "$config" | grep -q '"strumpack": true' && has_strumpack=yes
nruns=4
for s in amg:$PPE_PETSC_HAS_HYPRE:hypre strumpack:$has_strumpack:strumpack; do
  name=${s%%:*}; has=${s#*:}; has=${has%%:*}; pkg=${s##*:}
  if [ "$has" = yes ]; then
    nruns=$((nruns + 1))
    row "$name" | grep -q ',ok,CONVERGED_'
    tap_check $? "$name: PETSc has $pkg: a converged row"
  else
    ! row "$name" > /dev/null && grep -q "^Not run: .*$name (needs $pkg).*was built without .*$pkg" "$out/table.md"
    tap_check $? "$name: PETSc $PPE_PETSC_VERSION lacks $pkg: no row, and table.md says why"
  fi
done
[ "$(grep -c '"solver": ' "$out/results.jsonl")" = $nruns ] && grep -q '| good | ok |' "$out/table.md"
tap_check $? "results.jsonl has $nruns runs and table.md the rows"
[ -s "$out/residuals.png" ] && head -c 8 "$out/residuals.png" | grep -q PNG
tap_check $? "residuals.png written"
"$bindir/src/tools/ppe-study" "$srcdir/tests/studies/faults.study" --dry-run --solve "$bindir/src/tools/ppe-solve" | grep -c -- '-ppe_problem mms' | grep -q '^6$'
tap_check $? "--dry-run lists the 6 runs"
printf 'solver a -ksp_type cg\nfrobnicate 3\n' > "$out.bad.study"
"$bindir/src/tools/ppe-study" "$out.bad.study" --solve "$bindir/src/tools/ppe-solve" > "$out.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "unknown directive 'frobnicate'" "$out.log"
tap_check $? "a bad study file is refused with the line it fails on (exit $rc, want 2)"
rm -rf "$out" "$out.log" "$out.bad.study"
tap_done
