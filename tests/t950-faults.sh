#!/bin/sh
# The bad-input and fault suite (docs/reliability.md "Fault suite"): every case expects
# one specific outcome and nothing may hang (a timeout is a failure of its own: 60 s for a
# ppe-solve run on 8^3, lib.sh's 300 s for the program that runs the many API cases, 600 s
# in the sanitizer tree).
# The API cases (every type: grid and operator, 2D grids, tridiagonal batches, PC fftptdma, chebyci,
# tileilu, KSP cbcg, bcgsfused) run inside one program per rank count, with PETSc's allocation
# count on (-malloc_dump) for the memory case; the driver cases run ppe-solve as a user would.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

# Under the sanitizers the API program runs 10 times slower when make -j2 runs another
# 2-rank test beside it (27 s alone, 250-300 s so, at 2 ranks): 600 s there, to stay a hang
# detector and not a load detector.
[ "$PPE_SANITIZERS" = yes ] && api_timeout=600 || api_timeout=${PPE_TEST_TIMEOUT:-300}
for np in 1 2; do
  PPE_TEST_TIMEOUT=$api_timeout ppe_run_tap "$np" t950-faults "$bindir/tests/t950-faults" -malloc_dump
done

# run NP OPTIONS...: ppe-solve on a small grid; sets out and rc
run() {
  _np=$1
  shift
  out=$(PPE_TEST_TIMEOUT=60 ppe_mpiexec "$_np" "$solve" -ppe_grid_n 8 "$@" 2>&1)
  rc=$?
}

# expect_error NP "message" OPTIONS...: a non-zero exit with the message, no hang
expect_error() {
  _np=$1
  _msg=$2
  shift 2
  if ! np_allowed "$_np"; then tap_skip "[np=$_np] ppe-solve $*"; return; fi
  run "$_np" "$@"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    tap_notok "[np=$_np] ppe-solve $*: hung (killed after 60 s), expected the error \"$_msg\""
  elif [ "$rc" -ne 0 ] && echo "$out" | grep -q -- "$_msg"; then
    tap_ok "[np=$_np] ppe-solve $*: error \"$_msg\""
  else
    echo "$out" | sed 's/^/# /' | head -n 20
    tap_notok "[np=$_np] ppe-solve $*: expected an error with \"$_msg\" (exit $rc)"
  fi
}

# expect_converged NP OPTIONS...: exit 0, a converged reason and rnorm_rel <= 1e-8 (the rtol given)
expect_converged() {
  _np=$1
  shift
  if ! np_allowed "$_np"; then tap_skip "[np=$_np] ppe-solve $*"; return; fi
  run "$_np" -ksp_rtol 1e-8 -ppe_json "$@"
  reason=$(echo "$out" | json_get reason)
  rrel=$(echo "$out" | json_get rnorm_rel)
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    tap_notok "[np=$_np] ppe-solve $*: hung (killed after 60 s)"
  elif [ "$rc" -eq 0 ] && case "$reason" in CONVERGED_*) true ;; *) false ;; esac && fle "$rrel" 1e-8; then
    tap_ok "[np=$_np] ppe-solve $*: exit 0, $reason, rnorm_rel $rrel <= 1e-8"
  else
    echo "$out" | sed 's/^/# /' | head -n 20
    tap_notok "[np=$_np] ppe-solve $*: expected exit 0 and converged with rnorm_rel <= 1e-8 (exit $rc, $reason, $rrel)"
  fi
}

expect_error 1 "Periodic boundary conditions come in pairs: face xlo is periodic but face xhi is neumann" -ppe_bc P,N,N,N,N,N
expect_error 2 "Periodic boundary conditions come in pairs: face zlo is dirichlet but face zhi is periodic" -ppe_bc NNNNDP -pc_type fftptdma
expect_error 2 "fewer than 2 z points per rank in the z group" -ppe_grid_n 8,8,3 -pc_type fftptdma -pc_fftptdma_pgrid 1,2
expect_error 1 "Helmholtz shift must be finite and >= 0" -ppe_grid_shift -1 -ksp_type cbcg
expect_error 1 "eigenvalue interval must satisfy 0 <= lmin < lmax" -ksp_type cbcg -ksp_cbcg_eigenvalues 5,1
expect_error 1 "eigenvalue bounds must be positive and finite" -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_eigenvalues -1,4
expect_error 1 "does not support preconditioner side RIGHT" -ksp_type cbcg -ksp_pc_side right
expect_error 1 "tile sizes must be >= 1, got 0 x 4 x 4" -pc_type tileilu -pc_tileilu_tile 0,4,4
expect_converged 2 -ksp_type bcgsfused -pc_type tileilu -pc_tileilu_tile 1000,1000,1000
expect_converged 2 -ppe_bc NNNNNN -ksp_type cbcg -pc_type fftptdma
# 2D grids (two sizes, four BCs, -ppe_grid_dim 2): settings that contradict them
expect_error 1 "-ppe_grid_n takes 1 or 2 values on a 2D grid, got 3" -ppe_grid_n 8,8,8 -ppe_bc PPNN
expect_error 2 "Periodic boundary conditions come in pairs: face ylo is periodic but face yhi is neumann" -ppe_grid_n 8,8 -ppe_bc NNPN
expect_error 1 "The grid cannot be 2D (-ppe_grid_n with two sizes) and 3D (PPEGridSetDimension() or -ppe_grid_dim)" -ppe_grid_dim 3 -ppe_grid_n 8,8
expect_error 1 "-ppe_bc needs 4 boundary conditions (xlo,xhi,ylo,yhi) or one 4-letter word on a 2D grid" -ppe_grid_dim 2 -ppe_bc PPNNDD
expect_error 2 "at least 3 points in every direction: got 2 in y" -ppe_grid_n 8,2
expect_error 1 "-ppe_grid_procs takes 2 values on a 2D grid, got 3" -ppe_grid_n 8,8 -ppe_grid_procs 1,1,1
# PETSc's list parsing would read 4,,4 as 4,4 (a 2D grid) and an empty value as none
expect_error 1 "-ppe_grid_n 4,,4 has an empty entry" -ppe_grid_n 4,,4
expect_error 1 "-ppe_grid_L 1,2, has an empty entry" -ppe_grid_L 1,2,
expect_error 1 "-ppe_bc was given no value" -ppe_bc ""
expect_error 1 "Problem bicgstab-paper is 3D" -problem bicgstab-paper -ppe_grid_n 8,8
expect_converged 2 -ppe_grid_n 9,7 -ppe_bc NNNN -ksp_type cbcg -pc_type chebyci
tap_done
