#!/bin/sh
# Determinism across rank counts and process grids, and bitwise repeatability
# (docs/reliability.md "Determinism"). Every type solves one problem on 1, 2, 3, 4, 6 and 8 ranks
# with different DMDA process grids (and pencil grids for fftptdma); each run is compared with
# the 1-rank run: the same iteration count (exact for the direct solver and for preconditioners
# that do not depend on the decomposition, within 2 for the s-step and fused Krylov methods),
# and the solution (-ksp_view_solution binary, which PETSc writes in the natural ordering of the
# DMDA whatever the ranks) equal to 1e-10 relative (max |x_P - x_1| / max |x_1|). The last run
# of each type is repeated: the two solution files must be identical (cmp) and the JSON its and
# rnorm_rel equal as printed. A negative control shows that the file comparison would see an
# ordering bug: the 1-rank solution put in PETSc's rank-by-rank ordering of the parallel grid
# differs from the parallel file by O(1).
# The sanitizer tree runs the 1- and 2-rank cases only (the others show as skipped).
. "$srcdir/tests/lib.sh"
light_skip "determinism across rank counts"
solve="$bindir/src/tools/ppe-solve"
vecdiff="$srcdir/tests/determinism/vecdiff.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/t970.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
trap 'rm -rf "$work"' EXIT

# run_one TAG PROCS PGRID OPTIONS...: one ppe-solve on the DMDA process grid PROCS (and pencil
# grid PGRID when not empty); its output in $work/TAG.out, its solution in $work/TAG.bin (TAG
# without commas: PETSc 3.20 and later read "binary:a,b" as a file name a and a format b)
run_one() {
  _tag=$1
  _procs=$2
  _pg=$3
  shift 3
  _np=$(echo "$_procs" | awk -F, '{ print $1 * $2 * $3 }')
  ppe_mpiexec "$_np" "$solve" "$@" -ppe_grid_procs "$_procs" ${_pg:+-pc_fftptdma_pgrid "$_pg"} -ppe_json \
    -ksp_view_solution "binary:$work/$_tag.bin" > "$work/$_tag.out" 2>&1
}

# facts TAG: its, reason, rnorm_rel and procs (without spaces) of a run
facts() {
  its=$(json_get its < "$work/$1.out")
  reason=$(json_get reason < "$work/$1.out")
  rnorm=$(json_get rnorm_rel < "$work/$1.out")
  procs=$(grep '^{' "$work/$1.out" | tail -n 1 | sed -n 's/.*"procs": *\[\([^]]*\)\].*/\1/p' | tr -d ' ')
}

# vdiff A B: "n maxdiff maxabs rel" of two solution files (empty when unreadable)
vdiff() { python3 "$vecdiff" "$work/$1.bin" "$work/$2.bin" 2>&1; }

# case_run NAME TOL "OPTIONS" CONFIG...: the 1-rank reference, then every CONFIG (PROCS or
# PROCS/PGRID) compared with it; TOL is the allowed iteration difference (-1: not compared,
# with the reason in $why); then the last run is repeated. Sets ref_its and last_tag.
case_run() {
  _name=$1
  _tol=$2
  _opts=$3
  shift 3
  run_one "$_name-1" 1,1,1 "" $_opts
  _rc=$?
  facts "$_name-1"
  ref_its=$its
  ok=0
  [ "$_rc" -eq 0 ] && [ -s "$work/$_name-1.bin" ] || ok=1
  case "$reason" in CONVERGED_*) ;; *) ok=1 ;; esac
  [ $ok -eq 0 ] || sed 's/^/# /' "$work/$_name-1.out" | tail -n 20
  tap_check $ok "[$_name] np=1 reference: exit $_rc, $its iterations, ${reason:-no reason}, relative residual ${rnorm:-none}"
  _last="$_name-1"
  _lastcfg="1,1,1"
  for _cfg in "$@"; do
    _procs=${_cfg%%/*}
    _pg=
    case "$_cfg" in */*) _pg=${_cfg#*/} ;; esac
    _np=$(echo "$_procs" | awk -F, '{ print $1 * $2 * $3 }')
    _what="[$_name] np=$_np procs $_procs${_pg:+ pencils $_pg}"
    if ! np_allowed "$_np"; then tap_skip "$_what: more ranks than this tree runs"; continue; fi
    # no commas in file names: PETSc >= 3.20 splits a viewer option's value at commas
    _tag="$_name-$(echo "$_procs-$_pg" | tr ',' '_')"
    run_one "$_tag" "$_procs" "$_pg" $_opts
    _rc=$?
    facts "$_tag"
    _d=$(vdiff "$_name-1" "$_tag")
    _rel=$(echo "$_d" | awk 'NF == 4 { print $4 }')
    ok=0
    [ "$_rc" -eq 0 ] || ok=1
    case "$reason" in CONVERGED_*) ;; *) ok=1 ;; esac
    [ "$procs" = "$_procs" ] || ok=1
    # nan compares false, an unreadable file leaves _rel empty
    fle "${_rel:-1}" 1e-10 && [ -n "$_rel" ] && [ "$_rel" != nan ] || ok=1
    if [ -z "$its" ]; then
      ok=1
      _itsmsg="no iteration count"
    elif [ "$_tol" -lt 0 ]; then
      _itsmsg="$its iterations (1 rank: $ref_its; $why)"
    else
      _dits=$((its - ref_its))
      [ "${_dits#-}" -le "$_tol" ] || ok=1
      if [ "$_tol" -eq 0 ]; then _itsmsg="$its iterations, 1 rank $ref_its (exact: equal)"
      else _itsmsg="$its iterations, 1 rank $ref_its (|diff| ${_dits#-} <= $_tol)"; fi
    fi
    if [ $ok -ne 0 ]; then
      echo "# $_d"
      sed 's/^/# /' "$work/$_tag.out" | tail -n 20
    fi
    tap_check $ok "$_what: $_itsmsg, ${reason:-no reason}; solution vs 1 rank: max diff ${_rel:-none} relative (<= 1e-10); DMDA grid ${procs:-none}"
    _last=$_tag
    _lastcfg=$_cfg
  done
  # the same run again: bitwise the same
  _procs=${_lastcfg%%/*}
  _pg=
  case "$_lastcfg" in */*) _pg=${_lastcfg#*/} ;; esac
  facts "$_last"
  _its1=$its
  _r1=$rnorm
  run_one "$_last-again" "$_procs" "$_pg" $_opts
  _rc=$?
  facts "$_last-again"
  ok=0
  [ "$_rc" -eq 0 ] || ok=1
  if cmp -s "$work/$_last.bin" "$work/$_last-again.bin" && [ -s "$work/$_last.bin" ]; then _same="identical"
  else _same="DIFFERENT ($(vdiff "$_last" "$_last-again"))"; ok=1; fi
  [ -n "$its" ] && [ "$its" = "$_its1" ] && [ -n "$rnorm" ] && [ "$rnorm" = "$_r1" ] || ok=1
  _np=$(echo "$_procs" | awk -F, '{ print $1 * $2 * $3 }')
  tap_check $ok "[$_name] np=$_np procs $_procs${_pg:+ pencils $_pg} run twice: solution files $_same (cmp), its ${_its1:-none} / ${its:-none}, rnorm_rel ${_r1:-none} / ${rnorm:-none}"
  last_tag=$_last
}

grid="-ppe_grid_n 24,20,16 -ksp_rtol 1e-12"

# CG + Jacobi: a fixed preconditioner, iterations exact
case_run cg-jacobi 0 "$grid -ksp_type cg -pc_type jacobi" 2,1,1 1,3,1 1,2,2 3,2,1 2,2,2 8,1,1

# negative control of the ordering, on the files of the CG runs: the same values in the
# rank-by-rank ordering of a parallel grid differ from what PETSc wrote there by O(1)
for _procs in 2,1,1 1,3,1 3,2,1; do
  _np=$(echo "$_procs" | awk -F, '{ print $1 * $2 * $3 }')
  if ! np_allowed "$_np"; then tap_skip "[cg-jacobi] np=$_np ordering control: more ranks than this tree runs"; continue; fi
  python3 "$vecdiff" --permute 24,20,16 "$_procs" "$work/cg-jacobi-1.bin" "$work/cg-jacobi-permuted.bin"
  _rel=$(python3 "$vecdiff" "$work/cg-jacobi-permuted.bin" "$work/cg-jacobi-$(echo "$_procs" | tr ',' '_')-.bin" 2>&1 | awk 'NF == 4 { print $4 }')
  fge "${_rel:-0}" 1e-2
  tap_check $? "[cg-jacobi] np=$_np procs $_procs: the file is in the natural ordering: the 1-rank solution in PETSc's rank-by-rank ordering of this grid differs from it by ${_rel:-none} relative (>= 1e-2)"
done

# CG + tile ILU(0): a block-Jacobi preconditioner whose blocks are tiles clamped to each rank's
# box. With the default 8x8x8 tiles the tiles change with the process grid, hence the
# preconditioner and the iteration count: only the solution is compared. With 4x5x4 tiles and
# process grids whose boxes are multiples of them, every grid has the same tiles: exact.
why="the tiles follow the rank boxes: not compared"
case_run tileilu-8 -1 "$grid -ksp_type cg -pc_type tileilu" 1,1,2 3,1,1 2,2,1 1,2,3 2,2,2 1,1,8
case_run tileilu-454 0 "$grid -ksp_type cg -pc_type tileilu -pc_tileilu_tile 4,5,4" 2,1,1 3,1,1 1,2,2 6,1,1 2,2,2 2,1,4

# cbcg (s = 8, Jacobi): Gram products reduce in another order on another grid
case_run cbcg 2 "$grid -ksp_type cbcg -pc_type jacobi" 1,1,2 3,1,1 2,2,1 1,2,3 2,2,2 1,1,8

# BiCGStab with fused reductions + Chebyshev (24 iterations, global mode: the same polynomial
# in the whole operator on every grid)
case_run bcgsfused-chebyci 2 "$grid -ksp_type bcgsfused -pc_type chebyci" 1,2,1 1,1,3 1,1,4 2,3,1 2,2,2 8,1,1
# mode nocomm iterates on each rank's block: another polynomial on another grid, so the
# iterations change. Dirichlet walls: on the singular all-Neumann problem a right-preconditioned
# BiCGStab (PETSc's bcgs too) leaves a constant in x that depends on the grid
why="the blocks follow the rank boxes: not compared"
case_run bcgsfused-chebyci-nocomm -1 "$grid -ppe_bc DDDDDD -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" 2,1,1 1,2,2 2,2,2

# fftptdma as a direct solver (preonly) on the stretched channel, P-TDMA across the z groups;
# the FFTW planner at "estimate" (the default "measure" times candidate plans: see below)
fft="-ppe_problem channel -ppe_grid_n 24,20,16 -ksp_type preonly -pc_type fftptdma -pc_fftptdma_planner estimate"
case_run fftptdma-ptdma 0 "$fft -pc_fftptdma_zsolve ptdma" 1,1,2/1,2 3,1,1/1,3 2,2,1/2,2 1,2,3/2,3 8,1,1/4,2 2,2,2/1,8
# DistD2 is exact only on dominant z lines: a Helmholtz shift of 1e8 and >= 4 z points per rank
case_run fftptdma-distd2 0 "$fft -ppe_grid_shift 1e8 -pc_fftptdma_zsolve distd2" 2,1,1/1,2 1,3,1/1,3 1,1,4/1,4 3,2,1/2,3 1,1,8/2,4 2,2,2/2,4

# the default planner: FFTW_MEASURE chooses among plans by timing them, so two runs may use
# different plans and round differently; not bitwise, but within a few ulps
run_one fft-measure-a 1,1,1 "" -ppe_problem channel -ppe_grid_n 24,20,16 -ksp_type preonly -pc_type fftptdma
_rc1=$?
run_one fft-measure-b 1,1,1 "" -ppe_problem channel -ppe_grid_n 24,20,16 -ksp_type preonly -pc_type fftptdma
_rc2=$?
_rel=$(vdiff fft-measure-a fft-measure-b | awk 'NF == 4 { print $4 }')
if cmp -s "$work/fft-measure-a.bin" "$work/fft-measure-b.bin"; then _same="bitwise equal this time"; else _same="not bitwise equal"; fi
[ "$_rc1" -eq 0 ] && [ "$_rc2" -eq 0 ] && [ -n "$_rel" ] && fle "$_rel" 1e-13
tap_check $? "[fftptdma planner measure] np=1 run twice: solutions differ by ${_rel:-none} relative (<= 1e-13; $_same)"

tap_done
