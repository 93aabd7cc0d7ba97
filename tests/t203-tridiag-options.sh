#!/bin/sh
# What users see of the tridiagonal solvers: -help lists the options with their Set
# functions, -ppe_tridiag_view shows the settings used, -log_view times the phases, the
# options change the method, and ppe-bench -bench tridiag prints its JSON contract with
# small errors and bytes sent equal to the model.
. "$srcdir/tests/lib.sh"
bench="$bindir/examples/bench/ppe-bench"
small="-bench tridiag -bench_tridiag_n 64,40 -bench_tridiag_mib 1 -bench_reps 2 -bench_stream_n 100000"

for np in 1 2; do
  if ! np_allowed $np; then tap_skip "[np=$np] bench"; continue; fi
  # -help on one rank (on two, the help of the ranks' own batches interleaves)
  out=$(ppe_mpiexec $np "$bench" $small $([ $np -eq 1 ] && echo -help) 2>&1)
  rc=$?
  if [ $np -eq 1 ]; then
    [ "$(echo "$out" | help_text -ppe_tridiag_method)" = "Tridiagonal method: thomas (one rank), ptdma, distd2 (dominant lines), auto (choose one of) thomas ptdma distd2 auto (PPETridiagSetMethod)" ] &&
      [ "$(echo "$out" | help_value -ppe_tridiag_method)" = thomas ]
    tap_check $? "-help lists -ppe_tridiag_method with its choices and PPETridiagSetMethod"
    [ "$(echo "$out" | help_text -ppe_tridiag_precompute)" = "Pre-compute the per-line factors at set-up (else recompute them at each solve) (PPETridiagSetPrecompute)" ]
    tap_check $? "-help lists -ppe_tridiag_precompute and PPETridiagSetPrecompute"
    [ "$(echo "$out" | help_text -ppe_tridiag_view)" = "View the batch after set-up (PPETridiagView)" ]
    tap_check $? "-help lists -ppe_tridiag_view"
  fi
  lines=$(echo "$out" | grep -c '^{"bench": "tridiag"')
  refused=$(echo "$out" | grep '^{"bench": "tridiag"' | grep -c '"refused": 1')
  test $rc -eq 0 && test "$lines" -eq 14
  tap_check $? "[np=$np] ppe-bench -bench tridiag: 14 measurements (exit $rc, $lines lines)"
  # n = 40 on 2 ranks: 20 rows per rank are too few for distd2 on (-1, 4, -1), which says so
  test "$refused" -eq $((np - 1))
  tap_check $? "[np=$np] distd2 refused where it would not be exact: $refused line(s)"
  missing=""
  for key in bench method layout n nsys ranks err_rel solve_s gbs stream_copy_gbs bytes_sent bytes_model petsc_bytes_sent; do
    c=$(echo "$out" | grep '^{"bench": "tridiag"' | grep -v '"refused"' | grep -c "\"$key\": ")
    test "$c" -eq $((lines - refused)) || missing="$missing $key"
  done
  test -z "$missing"
  tap_check $? "[np=$np] every line has the JSON keys${missing:+ (missing:$missing)}"
  worst=$(echo "$out" | grep '^{"bench": "tridiag"' | grep -v '"refused"' | sed 's/.*"err_rel": \([^,]*\),.*/\1/' | sort -g | tail -n 1)
  fle "$worst" 1e-12
  tap_check $? "[np=$np] sampled lines match dense LAPACK (worst err_rel $worst <= 1e-12)"
  bad=$(echo "$out" | grep '^{"bench": "tridiag"' | grep -v '"refused"' | awk -F'"bytes_sent": ' '{split($2, a, ","); split($0, b, "\"bytes_model\": "); split(b[2], c, ","); if (a[1] != c[1]) print}' | wc -l)
  test "$bad" -eq 0
  tap_check $? "[np=$np] bytes sent per solve equal the model on every line ($bad differ)"
  if [ $np -eq 2 ]; then
    echo "$out" | grep '"method": "ptdma".*"system": "dominant".*"n": 64,' | grep -q '"lines_ptdma": 2048, .*"bytes_sent": 65536, "bytes_model": 65536,.*"petsc_bytes_sent": 131072'
    tap_check $? "[np=2] ptdma, n 64, 2048 lines: 2 values per line and rank out and 2 back; 65536 bytes cross ranks, PETSc counts 131072 with the ranks' own shares"
    echo "$out" | grep '"method": "distd2".*"n": 64,' | grep -q '"lines_distd2": 2048, .*"bytes_sent": 32768,.*"messages": 2,'
    tap_check $? "[np=2] distd2, n 64: 1 value per line to the neighbour, 2 messages per solve"
  fi
done

if np_allowed 2; then
  # only batches on both ranks (no whole-line thomas), so that only rank 0 prints
  out=$(ppe_mpiexec 2 "$bench" $small -bench_tridiag_thomas 0 -bench_tridiag_n 64 -ppe_tridiag_method ptdma -ppe_tridiag_precompute 0 -ppe_tridiag_view -log_view 2>&1)
  echo "$out" | grep -q "^  method: ptdma$" && echo "$out" | grep -q "local factors: recomputed at each solve" && ! echo "$out" | grep -q '"lines_distd2": [1-9]'
  tap_check $? "[np=2] -ppe_tridiag_method ptdma -ppe_tridiag_precompute 0 take effect and -ppe_tridiag_view shows them"
  echo "$out" | grep -q "reduced systems: 4 unknowns each" && echo "$out" | grep -q "communication per solve on rank 0: [0-9]* bytes in 2 messages"
  tap_check $? "[np=2] the view shows the reduced systems and the communication per solve"
  missing=""
  for ev in PPETridiagSetUp PPETridiagSolve " PPETridiagLocal" " PPETridiagComm" " PPETridiagRSys" " PPETridiagRecon" PPETridiagPack; do
    echo "$out" | grep -q "^$ev " || missing="$missing '$ev'"
  done
  test -z "$missing"
  tap_check $? "[np=2] -log_view has the tridiagonal events${missing:+ (missing:$missing)}"
else
  tap_skip "[np=2] options"
  tap_skip "[np=2] view"
  tap_skip "[np=2] log_view"
fi
tap_done
