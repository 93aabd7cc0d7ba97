#!/bin/sh
# PC fftptdma through ppe-solve: the channel problem solved exactly with preonly on 2 and 4
# ranks (json: residual, bytes sent include the transposes), CG in one iteration,
# -ksp_view facts, -help options, -log_view events (2D plans on whole planes, x and y passes
# on split planes), the copy-free path on DMDA boxes that are x-pencils, FFTW wisdom written by
# one run and imported by the next, a file that is not wisdom or cannot be written refused.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"
opts="-ppe_problem channel -ppe_grid_n 32,24,32 -pc_type fftptdma -pc_fftptdma_planner estimate -ppe_json"
for np in 2 4; do
  if ! np_allowed $np; then tap_skip "[np=$np] channel preonly: more ranks than this tree runs"; continue; fi
  out=$(ppe_mpiexec $np "$solve" $opts -ksp_type preonly -pc_fftptdma_zsolve ptdma -pc_fftptdma_pgrid $((np / 2)),2 2>&1)
  r=$(echo "$out" | json_get rnorm_rel)
  b=$(echo "$out" | json_get bytes_sent)
  fle "${r:-1}" 1e-10 && fge "${b:-0}" 1
  tap_check $? "[np=$np] channel 32x24x32, preonly, ptdma, pencil grid $((np / 2))x2: relative residual ${r:-none} <= 1e-10, bytes_sent ${b:-none} > 0"
done
out=$(ppe_mpiexec 2 "$solve" $opts -ksp_type cg -ksp_view 2>&1)
its=$(echo "$out" | json_get its)
[ "${its:-99}" -le 2 ]
tap_check $? "[np=2] CG + fftptdma on the channel: ${its:-none} iterations (<= 2)"
ok=0
for pat in "transforms: x real DFT r2c/c2r, complex half spectrum, y complex DFT of x's half spectrum" "transform passes: one 2D FFTW plan per x-y plane" \
           "FFTW planner: estimate, planning" "pencil grid: py x pz = 1 x 2 (automatic" "z solve: auto" \
           "operator: ppestencil matrix" "separable operator (grid): from the grid" "bytes per solve to other ranks"; do
  echo "$out" | grep -qF "$pat" || { echo "# missing in -ksp_view: $pat"; ok=1; }
done
tap_check $ok "-ksp_view shows transforms, pencil grid, z method, operator source, bytes per solve"
out=$(ppe_mpiexec 1 "$solve" $opts -ksp_type preonly -help 2>&1)
ok=0
for o in "-pc_fftptdma_zsolve" "-pc_fftptdma_pgrid" "-pc_fftptdma_approximate" "-pc_fftptdma_planner" "-pc_fftptdma_wisdom" "-pc_fftptdma_r2c"; do
  echo "$out" | grep -q -- "$o.*(PCFFTPTDMASet" || { echo "# missing in -help: $o"; ok=1; }
done
tap_check $ok "-help lists every option with its Set function"
# a DMDA split along x: the redistribution to x-pencils is a real exchange
out=$(ppe_mpiexec 2 "$solve" $opts -ksp_type preonly -pc_fftptdma_zsolve transpose -pc_fftptdma_pgrid 1,2 -ppe_grid_procs 2,1,1 -log_view 2>&1)
ok=0
for e in PPEFFTPTDMASetUp PPEFFTPlan PPEFFTPTDMAApply PPEFFTxyFwd PPEFFTxyBwd PPETransposeDA PPETransposeYZ PPEFFTzSolve; do
  echo "$out" | grep -q "^ *$e " || { echo "# missing in -log_view: $e"; ok=1; }
done
# pencil grid 2 x 1: planes split over the x-y group, x and y passes apart
out=$(ppe_mpiexec 2 "$solve" $opts -ksp_type preonly -pc_fftptdma_pgrid 2,1 -log_view 2>&1)
for e in PPEFFTxFwd PPEFFTyFwd PPEFFTyBwd PPEFFTxBwd PPETransposeXY; do
  echo "$out" | grep -q "^ *$e " || { echo "# missing in -log_view (pencil grid 2 x 1): $e"; ok=1; }
done
tap_check $ok "-log_view has the set-up, planning, apply, FFT (2D, and x and y apart on 2 x 1 pencils), transpose and z-solve events"
# wisdom: the first run writes the file, the second imports it
w=${TMPDIR:-/tmp}/ppe-t623-wisdom.$$
rm -f "$w"
wopts="-ppe_problem channel -ppe_grid_n 32,24,32 -pc_type fftptdma -pc_fftptdma_planner measure -pc_fftptdma_wisdom $w -ksp_type preonly -ksp_view -ppe_json"
out1=$(ppe_mpiexec 2 "$solve" $wopts 2>&1)
out2=$(ppe_mpiexec 2 "$solve" $wopts 2>&1)
ok=0
echo "$out1" | grep -q "FFTW wisdom file: .*(not found at set-up, written back)" || { echo "# first run did not write the wisdom"; ok=1; }
head -c 20 "$w" 2>/dev/null | grep -q "^(fftw-3" || { echo "# $w is not FFTW wisdom"; ok=1; }
echo "$out2" | grep -q "FFTW wisdom file: .*(imported at set-up, written back)" || { echo "# second run did not import the wisdom"; ok=1; }
r=$(echo "$out2" | json_get rnorm_rel)
fle "${r:-1}" 1e-10 || ok=1
tap_check $ok "[np=2] -pc_fftptdma_wisdom: written by the first run, imported by the second (relative residual ${r:-none} <= 1e-10)"
echo "not wisdom" > "$w"
out=$(ppe_mpiexec 1 "$solve" $wopts 2>&1)
echo "$out" | grep -q "is not an FFTW wisdom file"
tap_check $? "[np=1] a wisdom file that is not FFTW wisdom is refused with a message"
# a file that cannot be written: every rank stops with the message (rank 0 writes the file)
wopts_bad=$(echo "$wopts" | sed "s|-pc_fftptdma_wisdom [^ ]*|-pc_fftptdma_wisdom /nonexistent-ppe-dir/wisdom|")
out=$(ppe_mpiexec 2 "$solve" $wopts_bad 2>&1)
echo "$out" | grep -q "cannot write the FFTW wisdom file /nonexistent-ppe-dir/wisdom"
tap_check $? "[np=2] a wisdom file that cannot be written stops every rank with a message"
rm -f "$w"
# DMDA split along z only (1 x 1 x 2) with pencil grid 1 x 2: the x-pencils are the DMDA's
# boxes, so the x transforms run on b's and x's arrays (no redistribution event), the
# stretched grid's row scale is folded into the z systems and the mean removed spectrally
out=$(ppe_mpiexec 2 "$solve" $opts -ksp_type preonly -pc_fftptdma_pgrid 1,2 -ppe_grid_procs 1,1,2 -ksp_view -log_view 2>&1)
r=$(echo "$out" | json_get rnorm_rel)
ok=0
fle "${r:-1}" 1e-10 || ok=1
echo "$out" | grep -q "forward direct in 1, backward in 1 of 1 applications" || { echo "# no direct x transforms"; ok=1; }
echo "$out" | grep -q "row scale: depends on z only, folded into the z systems" || { echo "# row scale not folded"; ok=1; }
echo "$out" | grep -q "zero mean: removed on the (kx,ky) = (0,0) z line" || { echo "# mean not removed spectrally"; ok=1; }
if echo "$out" | grep -q "^ *PPETransposeDA "; then echo "# redistribution event present"; ok=1; fi
tap_check $ok "[np=2] DMDA 1x1x2 = x-pencils: x transforms on the Vec arrays, row scale folded, spectral mean, no redistribution; relative residual ${r:-none} <= 1e-10"
tap_done
