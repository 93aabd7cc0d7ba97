#!/bin/sh
# PC fftptdma on 2D grids (nx x 1 x ny internally): preonly accuracy <= 1e-10 over every x BC
# pair times N/D/P in y, cell and vertex, uniform and tanh-stretched y, a Helmholtz shift, every
# z method, on 1, 2, 4 and 8 ranks (process grids 1 x p, p x 1, PETSc's); a pencil grid with
# py > 1 refused; second-order MMS convergence through ppe-solve; the emulated device back end;
# -ksp_view says 2D.
. "$srcdir/tests/lib.sh"
light_skip "2D fftptdma accuracy sweep (ran in build/ and the other full trees)"
ppe_run_tap 1 t624-pc-fftptdma-2d "$bindir/tests/t624-pc-fftptdma-2d"
ppe_run_tap 2 t624-pc-fftptdma-2d "$bindir/tests/t624-pc-fftptdma-2d" -stride 2
ppe_run_tap 4 t624-pc-fftptdma-2d "$bindir/tests/t624-pc-fftptdma-2d" -stride 5
ppe_run_tap 8 t624-pc-fftptdma-2d "$bindir/tests/t624-pc-fftptdma-2d" -stride 9

solve="$bindir/src/tools/ppe-solve"
# MMS: second order (error ratio ~4 from n to 2n) with the exact solve, on 2 ranks when allowed
np=1; np_allowed 2 && np=2
for bc in PPND DNDD; do
  e1=$(ppe_mpiexec $np "$solve" -problem mms -ppe_grid_n 32,32 -ppe_bc $bc -ppe_grid_z_stretch tanh -ksp_type preonly -pc_type fftptdma -ppe_json 2>&1 | json_get err_l2)
  e2=$(ppe_mpiexec $np "$solve" -problem mms -ppe_grid_n 64,64 -ppe_bc $bc -ppe_grid_z_stretch tanh -ksp_type preonly -pc_type fftptdma -ppe_json 2>&1 | json_get err_l2)
  ratio=$(awk -v a="${e1:-1}" -v b="${e2:-1}" 'BEGIN { printf "%.3f", a / b }')
  fge "$ratio" 3.6 && fle "$ratio" 4.4
  tap_check $? "[np=$np] 2D MMS $bc (stretched y), preonly + fftptdma: L2 error ${e1:-none} (32^2) / ${e2:-none} (64^2) = $ratio in [3.6, 4.4]"
done

# the device pipeline (emulated back end): no y lines, the same exact solve
for zs in ptdma transpose; do
  r=$(ppe_mpiexec $np "$solve" -problem mms -ppe_grid_n 32,32 -ppe_bc PPND -ppe_grid_z_stretch tanh -ksp_type preonly -pc_type fftptdma -pc_fftptdma_zsolve $zs -ppe_backend emu -ppe_json 2>&1 | json_get rnorm_rel)
  fle "${r:-1}" 1e-10
  tap_check $? "[np=$np] 2D PPND on -ppe_backend emu, zsolve $zs: relative residual ${r:-none} <= 1e-10"
done

# the view says it is a 2D problem, and where the tridiagonal solve runs
out=$(ppe_mpiexec $np "$solve" -problem channel -ppe_grid_n 48,40 -ksp_type preonly -pc_type fftptdma -ksp_view -ppe_json 2>&1)
ok=0
for pat in "2D: x transforms (real DFT r2c/c2r, complex half spectrum), tridiagonal solve along y" "pencil grid: py x pz = 1 x $np" "2D (one y point, no coupling)"; do
  echo "$out" | grep -qF "$pat" || { echo "# missing in -ksp_view: $pat"; ok=1; }
done
for pat in "transforms: x" "transform passes"; do
  echo "$out" | grep -qF "$pat" && { echo "# a y transform in the 2D view: $pat"; ok=1; }
done
r=$(echo "$out" | json_get rnorm_rel)
fle "${r:-1}" 1e-10 || ok=1
tap_check $ok "[np=$np] 2D channel: -ksp_view says 2D (x transforms, tridiagonal solve along y, pencil grid 1 x $np), no y transform; residual ${r:-none} <= 1e-10"
tap_done
