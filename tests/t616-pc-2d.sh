#!/bin/sh
# PCs tileilu and chebyci, KSPs cbcg and bcgsfused on 2D operators at 1, 2 and 4 ranks
# (t616-pc-2d.c: convergence with the true residual, xy = yx, bjacobi equivalence on a 2D DMDA
# matrix, chebyci's bounds against dense spectra, emu = host bits); through ppe-solve: the 2D
# names and shapes in -ksp_view, the default 2D tile, -help, the 2D names refused in 3D.
. "$srcdir/tests/lib.sh"
light_skip "2D PCs and KSPs (ran in build/ and the other full trees)"
for np in 1 2 4; do
  ppe_run_tap "$np" t616-pc-2d "$bindir/tests/t616-pc-2d"
done

solve="$bindir/src/tools/ppe-solve"
grid="-problem mms -ppe_grid_n 40,36 -ppe_bc NNDD -ppe_grid_z_stretch tanh -ksp_rtol 1e-8 -ppe_json"
has() { echo "$out" | grep -qF -- "$1"; tap_check $? "$2: \"$1\""; }

np=2
if np_allowed $np; then
  out=$(ppe_mpiexec $np "$solve" $grid -ksp_type cg -pc_type tileilu -pc_tileilu_layout xy -pc_tileilu_tile 8,12 -ksp_view -help 2>&1)
  tap_check $? "[np=$np] ppe-solve 2D cg + tileilu xy runs"
  has "tile shape requested: 8 x 12 (2D tiles tx x ty)" "[np=$np] 2D -ksp_view"
  has "layout: xy (2D name of xyz: natural order, one tile after the other)" "[np=$np] 2D -ksp_view"
  has "tile shape used: 8 x 12" "[np=$np] 2D -ksp_view"
  has "local box: 20 x 36 (rank 0), 3 x 3 tiles" "[np=$np] 2D -ksp_view"
  has "number of tiles: 18 (per rank 9 to 9), of which 6 smaller edge tiles" "[np=$np] 2D -ksp_view"
  [ "$(echo "$out" | help_text -pc_tileilu_layout)" = "Layout of the factors and sweeps (xy, yx: the names of xyz, zyx on a 2D operator) (choose one of) xyz zyx xy yx (PCTileILUSetLayout)" ]
  tap_check $? "-help lists the layout names xy and yx"
  [ "$(echo "$out" | json_get reason)" = CONVERGED_RTOL ]
  tap_check $? "[np=$np] 2D cg + tileilu xy converges ($(echo "$out" | json_get its) iterations)"

  out=$(ppe_mpiexec $np "$solve" $grid -ksp_type cg -pc_type tileilu -ksp_view 2>&1)
  has "tile shape requested: 16 x 64 (2D tiles tx x ty, the default of 2D operators)" "[np=$np] 2D default tile"
  has "layout: yx (2D name of zyx: same point of consecutive tiles contiguous, tiles in SIMD lanes)" "[np=$np] 2D default layout"
  has "tile shape used: 16 x 36 (rank 0), clamped to the local box on 2 of 2 ranks" "[np=$np] 2D default tile"
  has "yx groups: 2 tiles per group" "[np=$np] 2D -ksp_view"

  out=$(ppe_mpiexec $np "$solve" $grid -ppe_operator aij -ksp_type cg -pc_type tileilu -pc_tileilu_layout yx -pc_tileilu_tile 4,6 -ksp_view 2>&1)
  has "coefficients: from the rows of the assembled mpiaij matrix" "[np=$np] 2D AIJ operator"
  has "tile shape used: 4 x 6" "[np=$np] 2D AIJ operator"
  [ "$(echo "$out" | json_get reason)" = CONVERGED_RTOL ]
  tap_check $? "[np=$np] 2D AIJ operator, cg + tileilu yx converges ($(echo "$out" | json_get its) iterations)"

  out=$(ppe_mpiexec $np "$solve" $grid -ksp_type cbcg -ksp_cbcg_s 4 -pc_type chebyci -pc_chebyci_mode block -ksp_view 2>&1)
  has "mode block: rank-local block with its own eigenvalue bounds, no exchange, BJ(CI)" "[np=$np] 2D cbcg + chebyci -ksp_view"
  has "block size s: 4" "[np=$np] 2D cbcg + chebyci -ksp_view"
  [ "$(echo "$out" | json_get reason)" = CONVERGED_RTOL ]
  tap_check $? "[np=$np] 2D cbcg s=4 + chebyci block converges ($(echo "$out" | json_get its) iterations)"
else
  tap_skip "[np=$np] ppe-solve 2D views"
fi

# the 2D names on a 3D operator, and a 2D tile shape there: clear errors
for opt in "-pc_tileilu_layout yx|-pc_tileilu_layout yx names a layout of 2D tiles, but the operator is 3D: use zyx" \
           "-pc_tileilu_tile 4,4|-pc_tileilu_tile 4,4 is a 2D tile shape tx,ty, but the operator is 3D: give bx,by,bz"; do
  o=${opt%%|*} t=${opt#*|}
  out=$(ppe_mpiexec 1 "$solve" -ppe_grid_n 8,8,8 -ksp_type cg -pc_type tileilu $o 2>&1)
  rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -qF -- "$t"
  tap_check $? "3D operator, $o: error \"$t\" (exit $rc, want 1..127)"
done
tap_done
