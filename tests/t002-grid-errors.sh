#!/bin/sh
# Bad grid input gets a clear PETSc error (non-zero exit, a message that says what
# was wrong) and never hangs, at 1 and 2 ranks.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"

# expect_error NP "expected text" options...
expect_error() {
  _np=$1
  _text=$2
  shift 2
  if ! np_allowed "$_np"; then tap_skip "[np=$_np] $*"; return; fi
  _out=$(PPE_TEST_TIMEOUT=60 ppe_mpiexec "$_np" "$solve" -ppe_grid_n 8 "$@" 2>&1)
  _rc=$?
  if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 124 ] && echo "$_out" | grep -q -- "$_text"; then
    tap_ok "[np=$_np] $* -> \"$_text\""
  else
    echo "$_out" | sed 's/^/# /' | head -n 20
    tap_notok "[np=$_np] $* -> expected an error with \"$_text\" (exit $_rc)"
  fi
}

for np in 1 2; do
  expect_error $np "Periodic boundary conditions come in pairs: face xlo is periodic but face xhi is neumann" -ppe_bc P,N,N,N,N,N
  expect_error $np "Periodic boundary conditions come in pairs: face zlo is dirichlet but face zhi is periodic" -ppe_bc NNNNDP
  expect_error $np "at least 3 points in every direction: got 2 in y" -ppe_grid_n 8,2,8
  expect_error $np "Unknown boundary condition name 'wall' for face ylo" -ppe_bc periodic,periodic,wall,neumann,neumann,neumann
  expect_error $np "Unknown boundary condition 'X' at position 6" -ppe_bc PPNNDX
  expect_error $np "needs 6 boundary conditions" -ppe_bc P,P,N
  expect_error $np "lengths must be positive and finite: got Ly = 0" -ppe_grid_L 1,0,1
  expect_error $np "lengths must be positive and finite: got Lx = -2" -ppe_grid_L -2
  expect_error $np "tanh stretch factor must be positive" -ppe_grid_z_stretch tanh -ppe_grid_z_stretch_factor 0
  expect_error $np "tanh stretch factor must be positive" -ppe_grid_z_stretch_factor -1.5
  expect_error $np "Helmholtz shift must be finite and >= 0" -ppe_grid_shift -1
  expect_error $np "Expected 9 mesh lines for 8 cell-centred unknowns" -ppe_grid_z_lines 0,0.1,0.3,0.6,1
  expect_error $np "Mesh lines must increase strictly" -ppe_grid_z_lines 0,0.1,0.3,0.2,0.5,0.6,0.7,0.8,1
done
expect_error 1 "-ppe_repeat must be >= 1" -ppe_repeat 0
tap_done
