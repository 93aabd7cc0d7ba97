#!/bin/sh
# ppe-solve -ppe_stop true: every KSP stops on the true relative residual, whatever norm it
# iterates with (unpreconditioned where the KSP has it, else a test that evaluates b - A x);
# -ppe_repeat solves other right-hand sides but reports the problem's own; -ppe_history
# records the true residual against time; the MPI waits, the local work and the measured
# cost of a synchronisation are reported and consistent.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

run() { # np options... -> JSON line in $json; without one, $nojson says why (exit code, last line)
  _np=$1
  shift
  _out=$(ppe_mpiexec "$_np" "$solve" "$@" -ppe_json 2>&1; echo "exit $?")
  json=$(echo "$_out" | grep '^{' | tail -n 1)
  nojson=
  [ -n "$json" ] || nojson=" (no JSON line: $(echo "$_out" | tail -n 1), after: $(echo "$_out" | tail -n 2 | head -n 1 | cut -c1-200))"
}

# a value of the JSON line in $json, by python (lists too)
jv() { echo "$json" | python3 -c "import json, sys; v = json.loads(sys.stdin.read()).get('$1'); print(json.dumps(v) if isinstance(v, list) else v)"; }

np=1
np_allowed 2 && np=2
prob="-problem channel -ppe_grid_n 24,24,24 -ksp_rtol 1e-8"
# name : expected stop_norm : options
for c in "cg-jacobi:unpreconditioned:-ksp_type cg -pc_type jacobi" \
         "cg-bjacobi-icc:unpreconditioned:-ppe_operator aij -ksp_type cg -pc_type bjacobi -sub_pc_type icc" \
         "cbcg-jacobi:unpreconditioned:-ksp_type cbcg -pc_type jacobi" \
         "bcgsfused-gnocomm:unpreconditioned:-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" \
         "gmres-jacobi:unpreconditioned:-ksp_type gmres -pc_type jacobi" \
         "cg-precnorm:true residual:-ksp_type cg -pc_type jacobi -ksp_norm_type preconditioned" \
         "cg-nonorm:true residual:-ksp_type cg -pc_type jacobi -ksp_norm_type none" \
         "preonly-fftptdma:none:-ksp_type preonly -pc_type fftptdma"; do
  name=${c%%:*}; rest=${c#*:}; want=${rest%%:*}; opts=${rest#*:}
  # shellcheck disable=SC2086
  run $np $prob $opts -ppe_stop true
  reason=$(jv reason); rrel=$(jv rnorm_rel); sn=$(jv stop_norm); tc=$(jv true_checks); its=$(jv its)
  ok=yes
  case $reason in CONVERGED_*) ;; *) ok=no ;; esac
  fle "$rrel" 1e-8 || ok=no
  [ "$sn" = "$want" ] || ok=no
  [ "$(jv stop)" = true ] || ok=no
  case $name in
    preonly-*) [ "$tc" = 0 ] || ok=no ;;
    cg-nonorm) [ "$tc" = "$its" ] || ok=no ;; # no norm to predict with: a true residual at every test
    *) [ "$tc" -ge 1 ] && [ "$tc" -le 3 ] || ok=no ;; # confirmed once (or twice): not at every iteration
  esac
  [ $ok = yes ]
  tap_check $? "[np=$np] -ppe_stop true, $name: $reason in $its iterations, true relative residual $rrel <= 1e-8, stop norm '$sn' (expected '$want'), $tc true residuals evaluated$nojson"
done

# -ppe_stop ksp (the default): the KSP's own norm, no true residual evaluated
run $np $prob -ksp_type cg -pc_type jacobi
[ "$(jv stop)" = ksp ] && [ "$(jv stop_norm)" = preconditioned ] && [ "$(jv true_checks)" = 0 ]
tap_check $? "[np=$np] default stop: '$(jv stop)' (want ksp), CG's preconditioned norm ('$(jv stop_norm)'), true residuals evaluated: $(jv true_checks) (want 0)$nojson"

# the true stop ends at the first iterate whose true residual meets rtol: the history's last
# true residual is below it and the one before above (cg + block Jacobi/ICC, whose
# preconditioned norm would stop elsewhere)
run $np $prob -ppe_operator aij -ksp_type cg -pc_type bjacobi -sub_pc_type icc -ppe_stop true -ppe_history
hist=$(echo "$json" | python3 -c "
import json, sys
d = json.loads(sys.stdin.read())
h, t, s, n = d['history_true'], d['history_its'], d['history_s'], d['history']
ok = len(h) == len(t) == len(s) == len(n) == d['its'] + 1 and h[-1] <= 1e-8 < h[-2] and abs(h[0] - 1) < 1e-12
steps = [b - a for a, b in zip(s, s[1:])]
ok = ok and min(steps, default=1) > 0 and s[0] >= 0
print('yes' if ok else 'no: %d values, last two %s, first time %g, shortest step %g s' % (len(h), h[-2:], s[0], min(steps, default=0)))
" 2>&1 | tail -n 1)
[ "$hist" = yes ]
tap_check $? "[np=$np] history: $(jv its) + 1 true residuals, 1 at the start, the last <= 1e-8 and the one before above; times increasing$nojson${hist#yes}"

# the reported solve is the problem's own b, whatever the number of repeats (the others solve
# b + c w): same iterations, residual and error
run $np $prob -ksp_type cg -pc_type jacobi -ppe_stop true -ppe_repeat 1
a="$(jv its) $(jv rnorm_rel) $(jv err_max)"
run $np $prob -ksp_type cg -pc_type jacobi -ppe_stop true -ppe_repeat 4
b="$(jv its) $(jv rnorm_rel) $(jv err_max)"
[ "$a" = "$b" ] && [ "$(jv repeat)" = 4 ]
tap_check $? "[np=$np] -ppe_repeat 4 (JSON repeat $(jv repeat)) reports the solve of b: its, residual, error '$b' as with 1 repeat '$a'$nojson"

# times: min <= median <= max, local + waits = solve; syncs = reductions + halo exchanges;
# a synchronisation costs something, and less than 10 ms
echo "$json" | python3 -c "
import json, sys
d = json.loads(sys.stdin.read())
ok = d['solve_s_min'] <= d['solve_s'] <= d['solve_s_max'] and d['sync_s'] >= 0
ok = ok and abs(d['local_s'] + d['sync_s'] - d['solve_s']) <= 1e-5 * d['solve_s'] + 2e-6
ok = ok and d['syncs'] == d['reductions'] + d['halo_exchanges'] and 0 < d['latency_s'] < 1e-2
print('yes' if ok else 'no: ' + str({k: d[k] for k in ('solve_s_min', 'solve_s', 'solve_s_max', 'sync_s', 'local_s', 'syncs', 'reductions', 'halo_exchanges', 'latency_s')}))
" | grep -q '^yes'
tap_check $? "[np=$np] solve_s_min <= solve_s <= solve_s_max, local_s + sync_s = solve_s, syncs = reductions + halo exchanges, latency_s $(jv latency_s) s$nojson"
if [ $np = 2 ]; then
  # the waits are seen through MPI's profiling interface: a 2-rank CG solve waits in its
  # reductions and halo exchanges for some time, however short
  fge "$(jv sync_s)" 1e-9 && [ "$(jv syncs)" -gt 0 ]
  tap_check $? "[np=2] the solve's MPI waits are measured: sync_s $(jv sync_s) s over $(jv syncs) synchronisations$nojson"
else
  tap_skip "[np=2] MPI waits"
fi

# bad input
out=$(ppe_mpiexec 1 "$solve" -ppe_grid_n 8 -ppe_stop sometimes 2>&1)
echo "$out" | grep -q "sometimes" && echo "$out" | grep -qi "ksp" && ! echo "$out" | grep -q '^{'
tap_check $? "-ppe_stop sometimes is refused with the allowed values"
out=$(ppe_mpiexec 1 "$solve" -help 2>&1)
echo "$out" | grep -qE -- "-ppe_stop:? <.*\(choose one of\) ksp true"
tap_check $? "-help lists -ppe_stop and its values"
tap_done
