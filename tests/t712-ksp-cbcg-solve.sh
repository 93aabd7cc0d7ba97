#!/bin/sh
# KSP cbcg against KSP cg (tests/t712-ksp-cbcg-solve.c): same solution to 1e-8 at rtol 1e-10,
# iterations, reductions per block, on the Neumann (null space), Dirichlet and stretched channel
# problems with no PC, Jacobi and block Jacobi/ICC, s = 1..16; and the same answers on 2, 4 and
# 8 ranks as on 1 (saved solutions).
. "$srcdir/tests/lib.sh"
prog="$bindir/tests/t712-ksp-cbcg-solve"
ref=${TMPDIR:-/tmp}/ppe-t712.$$
# The sanitizer tree (each solve ~10x slower) checks every problem and PC for three block
# sizes; the plain tree checks all six.
svals=""
[ "$PPE_SANITIZERS" = yes ] && svals="-svals 2,8,16"
ppe_run_tap 1 t712-ksp-cbcg-solve "$prog" -ref_write "$ref" $svals
ppe_run_tap 2 t712-ksp-cbcg-solve "$prog" -ref_read "$ref" $svals
# more ranks on two cores: fewer cases (each still compared with CG and with the 1-rank answer)
ppe_run_tap 4 t712-ksp-cbcg-solve "$prog" -ref_read "$ref" -pcs 0,1 -svals 4,16
ppe_run_tap 8 t712-ksp-cbcg-solve "$prog" -ref_read "$ref" -problems 0,2 -pcs 1 -svals 8
# the acceptance problem of KSP cbcg where it is hardest: the stretched channel at 64^3 (1 rank,
# every preconditioner and block size), reductions per iteration held to 2/s + 0.05 except the
# two known excesses, at their measured values (docs/types/cbcg.md, Limitations)
if [ "$PPE_SANITIZERS" != yes ]; then
  ppe_run_tap 1 t712-ksp-cbcg-solve "$prog" -n 64 -problems 2 -red_min_its 50 -red_known 2,0,8,0.38,2,1,12,0.25
fi
rm -f "$ref"-*
tap_done
