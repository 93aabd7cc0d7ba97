#!/bin/sh
# The numerical core of KSP cbcg: tall-skinny kernels, Gram analysis, Chebyshev basis, Lanczos
# estimate, at 1 and 2 ranks (uneven local sizes).
. "$srcdir/tests/lib.sh"
for np in 1 2; do
  ppe_run_tap "$np" t711-ksp-cbcg-kernels "$bindir/tests/t711-ksp-cbcg-kernels"
done
tap_done
