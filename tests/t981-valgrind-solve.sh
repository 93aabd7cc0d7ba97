#!/bin/sh
# valgrind memcheck on ppe-solve at 1 rank, 8^3, every solver type as a user selects it
# (docs/reliability.md "valgrind"): CG + Jacobi, PC fftptdma (P-TDMA on a stretched channel, DistD2 with a large
# shift; FFTW's estimate planner: measure would time plans under valgrind), KSP cbcg,
# bcgsfused + chebyci, CG + tileilu; and the paths that take the operator's rank-local block
# (MatGetDiagonalBlock, a shell whose context destroy changed in PETSc 3.23): chebyci block
# and nocomm, tileilu and PETSc's bjacobi on 2 ranks; device-resident solves on the emulated
# back end (device copies of the vectors, their host hooks, the halo from device memory) on
# 1 and 2 ranks. Each run must exit 0 with a converged
# reason; zero memcheck errors expected (tests/valgrind-lib.sh).
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/valgrind-lib.sh"
valgrind_prereq
solve="$bindir/src/tools/ppe-solve"

# vg_solve [-np N] OPTIONS...: one memchecked ppe-solve on 8^3 (1 rank unless -np N)
vg_solve() {
  np=1
  if [ "$1" = -np ]; then np=$2; shift 2; fi
  if ! np_allowed "$np"; then tap_skip "[np=$np] valgrind ppe-solve $*: more ranks than this tree runs"; return; fi
  out=$(ppe_mpiexec "$np" "$solve" -ppe_grid_n 8 -ksp_rtol 1e-8 -ppe_json "$@" 2>&1)
  rc=$?
  reason=$(echo "$out" | json_get reason)
  case "$reason" in CONVERGED_*) conv=1 ;; *) conv=0 ;; esac
  if [ "$rc" -eq 0 ] && [ "$conv" -eq 1 ]; then
    tap_ok "[np=$np] valgrind ppe-solve $*: no memcheck error, $reason"
  else
    echo "$out" | sed 's/^/# /' | tail -n 30
    tap_notok "[np=$np] valgrind ppe-solve $*: exit $rc, reason '$reason' (exit $PPE_MEMCHECK_EXIT: memcheck errors)"
  fi
}

vg_solve -ksp_type cg -pc_type jacobi
vg_solve -ppe_bc PPPPNN -ppe_grid_z_stretch tanh -ksp_type preonly -pc_type fftptdma -pc_fftptdma_zsolve ptdma -pc_fftptdma_planner estimate
vg_solve -ppe_bc PPPPDD -ppe_grid_shift 1e8 -ksp_type preonly -pc_type fftptdma -pc_fftptdma_zsolve distd2 -pc_fftptdma_planner estimate
vg_solve -ksp_type cbcg -ksp_cbcg_s 4 -pc_type jacobi
vg_solve -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode global
vg_solve -ksp_type cg -pc_type tileilu -pc_tileilu_tile 4,4,4
vg_solve -ksp_type cg -pc_type chebyci -pc_chebyci_mode block
vg_solve -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm
vg_solve -ksp_type cg -pc_type bjacobi -sub_pc_type jacobi
vg_solve -np 2 -ksp_type cg -pc_type tileilu
vg_solve -np 2 -ksp_type cg -pc_type bjacobi -sub_pc_type jacobi
vg_solve -np 2 -ksp_type cg -pc_type chebyci -pc_chebyci_mode block
vg_solve -ppe_backend emu -ppe_bc PPNNNN -ksp_type cbcg -pc_type chebyci -ppe_repeat 2
vg_solve -np 2 -ppe_backend emu -ksp_type bcgsfused -pc_type tileilu
tap_done
