#!/bin/sh
# ppe-solve's report: the JSON contract (keys and types), values that must hold
# (residual, counters per rank count, history length, repeats), agreement between
# matrix-free and assembled operators and across rank counts, and -help / -ksp_view /
# -log_view showing PPEKit's options, settings and events.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

# contract KEY TYPE (str|int|num|numnull|list) on the JSON line in $json
contract() {
  case "$2" in
    str) _re="\"$1\": \"[^\"]*\"" ;;
    int) _re="\"$1\": -\{0,1\}[0-9][0-9]*[,}]" ;;
    num) _re="\"$1\": -\{0,1\}[0-9][0-9.e+-]*[,}]" ;;
    numnull) _re="\"$1\": \(null\|-\{0,1\}[0-9][0-9.e+-]*\)[,}]" ;;
    list) _re="\"$1\": \[" ;;
  esac
  echo "$json" | grep -q "$_re"
}

run() { # np options... -> full output in $out, JSON line in $json
  _np=$1
  shift
  out=$(ppe_mpiexec "$_np" "$solve" "$@" -ppe_json 2>&1)
  json=$(echo "$out" | grep '^{' | tail -n 1)
}

run 2 -problem channel -ppe_grid_n 24,20,16 -ppe_grid_procs 1,1,2 -ppe_history
bad=""
for kt in problem:str n:list location:str bc:str ranks:int ksp:str pc:str its:int reason:str \
          rnorm_rel:num err_max:numnull err_l2:numnull setup_s:num solve_s:num reductions:int \
          halo_exchanges:int bytes_sent:num mem_mb:num history:list; do
  contract "${kt%%:*}" "${kt#*:}" || bad="$bad ${kt%%:*}"
done
[ -z "$bad" ]
tap_check $? "JSON line has every contract key with its type${bad:+ (bad:$bad)}"
its=$(echo "$json" | json_get its)
nh=$(echo "$json" | sed 's/.*"history": \[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
[ "$nh" -eq $((its + 1)) ]
tap_check $? "history has its+1 = $((its + 1)) norms (got $nh)"
rrel=$(echo "$json" | json_get rnorm_rel)
fle "$rrel" 1e-8
tap_check $? "default rtol 1e-8 reached: true relative residual $rrel"
red=$(echo "$json" | json_get reductions)
halo=$(echo "$json" | json_get halo_exchanges)
bytes=$(echo "$json" | json_get bytes_sent)
[ "$red" -ge $((2 * its)) ] && [ "$halo" -ge "$its" ] && fge "$bytes" 1
tap_check $? "2 ranks, $its iterations: $red reductions >= 2 per iteration, $halo halo exchanges >= 1 per iteration, $bytes bytes sent (> 0)"
# one halo exchange moves one 24x20 plane each way across the z split: 2*480*8 bytes
[ "$bytes" = $((halo * 2 * 24 * 20 * 8)) ]
tap_check $? "bytes_sent $bytes = halo exchanges x 2 ranks x one 24x20 plane of doubles"
err2=$(echo "$json" | json_get err_max)

run 1 -problem channel -ppe_grid_n 24,20,16
red=$(echo "$json" | json_get reductions)
bytes=$(echo "$json" | json_get bytes_sent)
err1=$(echo "$json" | json_get err_max)
[ "$red" = 0 ] && [ "$bytes" = 0 ]
tap_check $? "1 rank: no global reductions ($red) and no bytes sent ($bytes)"
awk -v a="$err1" -v b="$err2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-8 * b) }'
tap_check $? "channel err_max on 1 rank ($err1) and 2 ranks ($err2) agree"

for np in 1 3 4; do
  if ! np_allowed $np; then tap_skip "np=$np matfree vs aij"; continue; fi
  run $np -problem mms -ppe_bc DNNDND -ppe_grid_location vertex -ppe_grid_n 17,15,13 -ksp_rtol 1e-10
  itm=$(echo "$json" | json_get its)
  em=$(echo "$json" | json_get err_max)
  run $np -problem mms -ppe_bc DNNDND -ppe_grid_location vertex -ppe_grid_n 17,15,13 -ksp_rtol 1e-10 -ppe_operator aij
  ita=$(echo "$json" | json_get its)
  ea=$(echo "$json" | json_get err_max)
  [ "$itm" = "$ita" ] && awk -v a="$em" -v b="$ea" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-8 * b) }'
  tap_check $? "[np=$np] matfree and aij operators: $itm vs $ita iterations, err_max $em vs $ea"
done

run 1 -problem bicgstab-paper -ppe_grid_n 33 -ppe_repeat 3 -ksp_type bcgs -pc_type none -ksp_rtol 1e-10
[ "$(echo "$json" | json_get repeat)" = 3 ] && [ "$(echo "$json" | json_get err_max)" = null ] && \
  [ "$(echo "$json" | json_get bc)" = DNNDND ] && [ "$(echo "$json" | json_get location)" = vertex ] && \
  [ "$(echo "$json" | json_get reason)" = CONVERGED_RTOL ]
tap_check $? "bicgstab-paper: vertex DNNDND, exact solution unknown (err null), 3 repeats, $(echo "$json" | json_get its) bcgs iterations"

out=$(ppe_mpiexec 1 "$solve" -help 2>&1)
missing=""
for opt in -ppe_problem -ppe_operator -ppe_pmat -ppe_repeat -ppe_json -ppe_history -ppe_grid_n -ppe_grid_L \
           -ppe_grid_origin -ppe_bc -ppe_grid_location -ppe_grid_z_stretch -ppe_grid_z_stretch_factor \
           -ppe_grid_z_lines -ppe_grid_shift -ppe_grid_procs -ppe_stencil_overlap; do
  echo "$out" | grep -q -- "^ *$opt[ :<]" || missing="$missing $opt"
done
[ -z "$missing" ]
tap_check $? "-help lists every ppe-solve, grid and stencil option${missing:+ (missing:$missing)}"
echo "$out" | help_text -ppe_grid_n | grep -q " (PPEGridSetSizes)$"
tap_check $? "-help names the Set function of an option"

out=$(ppe_mpiexec 2 "$solve" -ppe_grid_n 12 -ksp_view -log_view 2>&1)
echo "$out" | grep -q "type: ppestencil" && echo "$out" | grep -q "halo exchange overlapped with the core points: yes" && \
  echo "$out" | grep -q "boundary conditions: NNNNNN"
tap_check $? "-ksp_view shows the ppestencil operator, its overlap setting and its grid"
echo "$out" | grep -q "^PPEStencilMult" && echo "$out" | grep -q "^ PPEStencilCore" && echo "$out" | grep -q "^PPEGridSetUp"
tap_check $? "-log_view times the stencil phases and the grid set-up"
tap_done
