#!/bin/sh
# An unmodified PETSc program: PETSc's own KSP tutorial ex45 (3D Laplacian on a vertex DMDA,
# Dirichlet nodes as scaled identity rows), compiled from the examples the PETSc of this build
# installs, against that PETSc alone, loads PPEKit with -dll_append and solves exactly with
# -ksp_type preonly -pc_type fftptdma, at 1 and 2 ranks. ex45 prints the norm of b - A x; the
# same run with -pc_type none (x = b) is the scale it is compared with. A PETSc that installs
# no examples (Debian's) skips, with the reason.
. "$srcdir/tests/lib.sh"
lib="$abs_top_builddir/.libs/libppekit.so"
src=${PPE_PETSC_EX45:-$PETSC_PREFIX/share/petsc/examples/src/ksp/ksp/tutorials/ex45.c}
if [ ! -f "$src" ]; then
  tap_skip "PETSc's ex45: PETSc $PPE_PETSC_VERSION at $PETSC_PREFIX installs no examples (no $src; set PPE_PETSC_EX45)"
  tap_done
fi
prog="$abs_top_builddir/tests/petsc-ex45"
# the way a PETSc user builds it: PETSc's compiler and flags, nothing of PPEKit's
$PPE_CC $PETSC_CFLAGS -o "$prog" "$src" $PETSC_LIBS $PPE_RPATH_LDFLAGS -lm > "$prog.build.log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$prog.build.log" | tail -n 20
tap_check $rc "PETSc's ex45 ($src) compiles against PETSc $PPE_PETSC_VERSION alone"
[ $rc -ne 0 ] && tap_done
# no libppekit among its libraries
! ldd "$prog" 2>/dev/null | grep -q libppekit
tap_check $? "ex45 is not linked with libppekit"

grid="-da_grid_x 33 -da_grid_y 29 -da_grid_z 25"
resnorm() { sed -n 's/^Residual norm \([^ ]*\).*/\1/p' | tail -n 1; }
for np in 1 2; do
  if ! np_allowed $np; then tap_skip "[np=$np] ex45: more ranks than this tree runs"; continue; fi
  out=$(ppe_mpiexec $np "$prog" $grid -dll_append "$lib" -ksp_type preonly -pc_type fftptdma -ksp_view 2>&1)
  rc=$?
  r=$(echo "$out" | resnorm)
  ref=$(ppe_mpiexec $np "$prog" $grid -ksp_type preonly -pc_type none 2>&1 | resnorm)
  [ $rc -eq 0 ] && [ -n "$r" ] && [ -n "$ref" ] && fge "$ref" 1 &&
    awk -v a="$r" -v b="$ref" 'BEGIN { exit !(a <= 1e-12 * b) }' &&
    echo "$out" | grep -q "type: fftptdma"
  st=$?
  [ $st -ne 0 ] && echo "$out" | sed 's/^/# /' | tail -n 20
  tap_check $st "[np=$np] ex45 $grid -dll_append libppekit.so -ksp_type preonly -pc_type fftptdma: residual norm ${r:-none} <= 1e-12 x ${ref:-none} (the residual of x = b), PC fftptdma in -ksp_view (exit $rc)"
done
tap_done
