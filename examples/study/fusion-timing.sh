#!/bin/sh
# Time of the fused kernels against their two-pass versions, alternated in one run (the
# machine is shared: compare only within one run). Prints a Markdown table.
#
#   examples/study/fusion-timing.sh [bindir] [n] [ranks] [rounds]
#
# Rows: bcgsfused with PC none (operator apply + dot products fused, -ksp_bcgsfused_fuse)
# against PETSc's bcgs (right-preconditioned), and PC chebyci nocomm (operator sweep + Chebyshev
# update fused, -pc_chebyci_fuse). Each solve runs a fixed number of iterations
# (-ksp_max_it, rtol 1e-30) from a zero guess; the best of the rounds is reported per variant.
bindir=${1:-build/src/tools}
n=${2:-128}
np=${3:-1}
rounds=${4:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
       OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1
solve() { # label options... -> "label solve_s"
  _l=$1
  shift
  _t=$(mpiexec --oversubscribe -n "$np" "$bindir/ppe-solve" -problem bicgstab-paper -ppe_grid_n "$n" \
       -ksp_rtol 1e-30 -ppe_json -ppe_repeat 3 "$@" | grep '^{' | sed 's/.*"solve_s_min": \([0-9.e+-]*\).*/\1/')
  echo "$_l $_t"
}
tmp=$(mktemp)
i=0
while [ $i -lt "$rounds" ]; do
  solve bcgsfused_fused -ksp_type bcgsfused -pc_type none -ksp_max_it 100 >> "$tmp"
  solve bcgsfused_twopass -ksp_type bcgsfused -pc_type none -ksp_max_it 100 -ksp_bcgsfused_fuse 0 >> "$tmp"
  solve bcgs_right -ksp_type bcgs -ksp_pc_side right -pc_type none -ksp_max_it 100 >> "$tmp"
  solve ci_fused -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm -ksp_max_it 5 >> "$tmp"
  solve ci_twopass -ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm -ksp_max_it 5 -pc_chebyci_fuse 0 >> "$tmp"
  i=$((i + 1))
done
echo "| variant ($n^3, $np rank(s), best of $rounds x 3 solves) | seconds per solve | per outer iteration [ms] |"
echo "|---|---|---|"
for v in bcgsfused_fused bcgsfused_twopass bcgs_right ci_fused ci_twopass; do
  its=100
  case $v in ci_*) its=5 ;; esac
  grep "^$v " "$tmp" | awk -v v="$v" -v its="$its" 'BEGIN { m = 1e30 } { if ($2 < m) m = $2 } END { printf "| %s | %.4f | %.3f |\n", v, m, 1000 * m / its }'
done
rm -f "$tmp"
