#!/bin/sh
# PC tileilu through ppe-solve: -help lists its options with their Set functions, -ksp_view
# shows the settings used, -log_view its events; matrix-free and AIJ operators, three-pass
# and fused zyx give the same iterations (xyz: t611); a tile larger than the box is clamped
# with a -info note; bad options get clear errors (tile sizes below 1: t612).
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"
grid="-ppe_grid_n 16,12,10 -ppe_bc NNNNDD"

# expect_error NP "expected text" options...
expect_error() {
  _np=$1
  _text=$2
  shift 2
  if ! np_allowed "$_np"; then tap_skip "[np=$_np] $*"; return; fi
  _out=$(PPE_TEST_TIMEOUT=60 ppe_mpiexec "$_np" "$solve" $grid -pc_type tileilu "$@" 2>&1)
  _rc=$?
  if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 124 ] && echo "$_out" | grep -q -- "$_text"; then
    tap_ok "[np=$_np] $* -> \"$_text\""
  else
    echo "$_out" | sed 's/^/# /' | head -n 20
    tap_notok "[np=$_np] $* -> expected an error with \"$_text\" (exit $_rc)"
  fi
}

# has PATTERN DESCRIPTION: the output in $out matches the (fixed-string) pattern
has() { echo "$out" | grep -qF -- "$1"; tap_check $? "$2: \"$1\""; }

np=2
if np_allowed $np; then
  out=$(ppe_mpiexec $np "$solve" $grid -pc_type tileilu -pc_tileilu_tile 4,4,2 -pc_tileilu_layout zyx \
        -pc_tileilu_fuse 0 -ksp_view -log_view -help -ppe_json 2>&1)
  tap_check $? "[np=$np] ppe-solve -pc_type tileilu -ksp_view -log_view -help runs"
  [ "$(echo "$out" | help_value -pc_tileilu_tile)" = "4,4,2" ] &&
    [ "$(echo "$out" | help_text -pc_tileilu_tile)" = "Tile shape bx,by,bz, or tx,ty on a 2D operator (clamped to the local box; default 8,8,32 in 3D, 16,64 in 2D) (PCTileILUSetTile)" ]
  tap_check $? "-help: -pc_tileilu_tile <4,4,2>: Tile shape bx,by,bz, or tx,ty on a 2D operator (...) (PCTileILUSetTile)"
  [ "$(echo "$out" | help_value -pc_tileilu_layout)" = zyx ] &&
    [ "$(echo "$out" | help_text -pc_tileilu_layout)" = "Layout of the factors and sweeps (xy, yx: the names of xyz, zyx on a 2D operator) (choose one of) xyz zyx xy yx (PCTileILUSetLayout)" ]
  tap_check $? "-help lists -pc_tileilu_layout with its choices and PCTileILUSetLayout"
  has "tile shape requested: 4 x 4 x 2" "-ksp_view"
  has "tile shape used: 4 x 4 x 2" "-ksp_view"
  has "layout: zyx" "-ksp_view"
  has "number of tiles: 60 (per rank 30 to 30), of which 0 smaller edge tiles" "-ksp_view"
  echo "$out" | grep -q "memory: [0-9.]* MB in total, [0-9.]* MB per rank at most, [0-9.]* bytes per point"
  tap_check $? "-ksp_view shows the memory"
  has "gather/sweep/scatter as three passes" "-ksp_view"
  has "factors: symmetric operator, 4 values per point" "-ksp_view"
  echo "$out" | grep -- "-pc_tileilu_fuse" | grep -q "(PCTileILUSetFuse)"
  tap_check $? "-help lists -pc_tileilu_fuse with PCTileILUSetFuse"
  has "coefficients: from the grid of the matrix-free ppestencil operator" "-ksp_view"
  for ev in PPETileILUFact PPETileILUPerm PPETileILUApply " PPETileGather" " PPETileSweep" " PPETileScatter"; do
    echo "$out" | grep -q "^$ev  *[1-9]"
    tap_check $? "-log_view times \"$ev\""
  done
  its=$(echo "$out" | json_get its)
  reason=$(echo "$out" | json_get reason)
  [ "$reason" = CONVERGED_RTOL ] && [ -n "$its" ] && [ "$its" -gt 5 ]
  tap_check $? "[np=$np] CG + tileilu converges ($reason in $its iterations)"

  out=$(ppe_mpiexec $np "$solve" $grid -ppe_operator aij -pc_type tileilu -pc_tileilu_tile 4,4,2 -ksp_view -ppe_json 2>&1)
  its2=$(echo "$out" | json_get its)
  [ -n "$its2" ] && [ "$its2" = "$its" ]
  tap_check $? "[np=$np] AIJ operator, zyx fused chunk by chunk (the default): the same iterations ($its2 vs $its)"
  has "coefficients: from the rows of the assembled mpiaij matrix" "-ksp_view"
  has "gather/sweep/scatter fused chunk by chunk" "-ksp_view"
else
  tap_skip "[np=$np] ppe-solve with tileilu"
fi

out=$(ppe_mpiexec 1 "$solve" $grid -pc_type tileilu -pc_tileilu_tile 1000,4,4 -ksp_view -info 2>&1)
has "Tile 1000 x 4 x 4 is larger than the local box 16 x 12 x 10: clamped to 16 x 4 x 4" "-info notes the clamped tile"
has "tile shape used: 16 x 4 x 4 (rank 0), clamped to the local box on 1 of 1 ranks" "-ksp_view shows the clamped tile"

expect_error 1 "-pc_tileilu_tile 4,4 is a 2D tile shape tx,ty, but the operator is 3D: give bx,by,bz" -pc_tileilu_tile 4,4
expect_error 1 "-pc_tileilu_tile needs 3 sizes bx,by,bz (or 2 sizes tx,ty on a 2D operator), got 1" -pc_tileilu_tile 4
expect_error 1 "-pc_tileilu_layout xy names a layout of 2D tiles, but the operator is 3D: use xyz" -pc_tileilu_layout xy
expect_error 1 "$(unknown_choice_re yxz -pc_tileilu_layout "xyz zyx xy yx")" -pc_tileilu_layout yxz
tap_done
