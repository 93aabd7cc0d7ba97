#!/bin/sh
# A stand-in for ppe-solve (t511): prints the JSON line of the ppe-solve contract with fixed,
# made-up numbers chosen by -ksp_type, so that ppe-study's marking, per-step columns, model
# and crossovers can be checked exactly. -fake_rnorm_rel V reports that true relative residual
# with reason CONVERGED_RTOL (a row above rtol). Not a solver: the numbers mean nothing.
ksp=cg pc=jacobi stop=ksp rtol=1e-8 rr= n=12
while [ $# -gt 0 ]; do
  case "$1" in
    -ksp_type) ksp=$2; shift ;;
    -pc_type) pc=$2; shift ;;
    -ppe_stop) stop=$2; shift ;;
    -ksp_rtol) rtol=$2; shift ;;
    -fake_rnorm_rel) rr=$2; shift ;;
    -ppe_grid_n) n=$2; shift ;;
  esac
  shift
done
# its setup_s solve_s sync_s reductions halo_exchanges stop_norm
case "$ksp" in
  cg) set -- 40 2.0e-3 1.10e-2 1.2e-3 120 40 unpreconditioned ;;
  cbcg) set -- 48 3.0e-3 1.25e-2 3.0e-4 18 48 "true residual" ;;
  bcgs) set -- 30 2.0e-3 1.80e-2 1.5e-3 120 60 unpreconditioned ;;
  bcgsfused) set -- 35 5.0e-2 2.60e-2 4.0e-4 36 70 "true residual" ;;
  preonly) set -- 0 9.0e-2 1.30e-3 1.0e-5 2 4 none ;;
  *) echo "fake-solve: no numbers for -ksp_type $ksp" >&2; exit 1 ;;
esac
[ "$stop" = ksp ] && [ "$7" != none ] && set -- "$1" "$2" "$3" "$4" "$5" "$6" preconditioned
rr=${rr:-$(awk -v r="$rtol" 'BEGIN { printf "%.6e", 0.5 * r }')}
awk -v its="$1" -v su="$2" -v so="$3" -v sy="$4" -v red="$5" -v halo="$6" -v sn="$7" -v stop="$stop" \
  -v n="$n" -v ksp="$ksp" -v pc="$pc" -v rtol="$rtol" -v rr="$rr" 'BEGIN {
  printf "{\"problem\": \"mms\", \"dim\": 3, \"n\": [%d, %d, %d], \"ranks\": 2, \"ksp\": \"%s\", \"pc\": \"%s\", ", n, n, n, ksp, pc
  printf "\"rtol\": %s, \"its\": %d, \"reason\": \"CONVERGED_RTOL\", \"rnorm_rel\": %s, \"err_max\": 1e-3, ", rtol, its, rr
  printf "\"stop\": \"%s\", \"stop_norm\": \"%s\", \"true_checks\": %d, ", stop, sn, its
  printf "\"setup_s\": %s, \"solve_s\": %s, \"solve_s_min\": %s, \"solve_s_max\": %s, ", su, so, 0.9 * so, 1.1 * so
  printf "\"sync_s\": %s, \"local_s\": %.6e, \"latency_s\": 1.5e-6, \"syncs\": %d, ", sy, so - sy, red + halo
  printf "\"reductions\": %d, \"halo_exchanges\": %d, ", red, halo
  printf "\"history\": [1, 0.1, 0.001], \"history_its\": [0, %d, %d], ", its / 2, its
  printf "\"history_true\": [1, 0.2, %s], \"history_s\": [0, %.6e, %.6e]}\n", rr, so / 2, so
}'
