#!/bin/sh
# Back-end selection through ppe-solve (-ppe_backend): emu runs the device launch code and
# gives the host's iterations and solution; a back end that was not built names its
# configure option; a built one without a device reports the runtime's error cleanly (an
# error exit, not a crash) while auto falls back to the host; a bad name is rejected.
# PPE_TEST_BACKEND=cuda|hip (make check-gpu) compares that back end instead of emu.
. "$srcdir/tests/lib.sh"
solve="$bindir/src/tools/ppe-solve"
dev=${PPE_TEST_BACKEND:-emu}
args="-problem mms -ppe_grid_n 13,11,9 -ppe_bc NNPPDD -ppe_grid_z_stretch tanh -ksp_rtol 1e-9 -ppe_json"

# its and err_max of a solve
solve_json() {
  _np=$1
  shift
  ppe_mpiexec "$_np" "$solve" $args "$@" 2>&1 | grep '^{' | tail -n 1
}

for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np"; continue; fi
  for kp in "cg -pc_type jacobi" "cg -pc_type chebyci" "bcgsfused -pc_type chebyci" "cbcg -pc_type none" \
            "gmres -pc_type chebyci -pc_chebyci_mode nocomm" "cg -pc_type tileilu -pc_tileilu_layout zyx" \
            "cg -pc_type tileilu -pc_tileilu_layout xyz"; do
    h=$(solve_json $np -ksp_type $kp -ppe_backend host)
    d=$(solve_json $np -ksp_type $kp -ppe_backend "$dev")
    hi=$(echo "$h" | json_get its) di=$(echo "$d" | json_get its)
    # the true relative residual: the finest figure the JSON line has
    he=$(echo "$h" | json_get rnorm_rel) de=$(echo "$d" | json_get rnorm_rel)
    # cbcg sums its Gram blocks in another order on a device; bcgsfused's sums are the host's
    ok=1
    [ -n "$hi" ] && [ -n "$di" ] || ok=0
    if [ $ok = 1 ]; then
      case "$kp" in
        cbcg*) awk -v a="$hi" -v b="$di" -v x="$he" -v y="$de" 'BEGIN { d = a - b; exit !(d * d <= 1 && x < 1e-9 && y < 1e-9) }' || ok=0 ;;
        *) [ "$hi" = "$di" ] && [ "$he" = "$de" ] || ok=0 ;;
      esac
    fi
    [ $ok = 1 ]
    tap_check $? "[np=$np] -ksp_type $kp: $dev its $di residual $de, host its $hi residual $he"
  done
done

# PC fftptdma: the device transforms (pre and post passes around the FFT library) round
# differently from FFTW's, so the solutions agree to rounding: every transform kind, singular
# operators (the zero mean removed spectrally or in the copy back), boxes smaller than the
# DMDA (vertex Dirichlet), and 4 ranks with a 2 x 2 pencil grid (x-y transposes, P-TDMA,
# DistD2 and the y-z transposes of the Thomas method)
fft_case() {
  _np=$1
  shift
  if ! np_allowed $_np; then tap_skip "np=$_np fftptdma $*"; return; fi
  h=$(solve_json $_np -ksp_type preonly -pc_type fftptdma "$@" -ppe_backend host)
  d=$(solve_json $_np -ksp_type preonly -pc_type fftptdma "$@" -ppe_backend "$dev")
  hr=$(echo "$h" | json_get rnorm_rel) dr=$(echo "$d" | json_get rnorm_rel)
  he=$(echo "$h" | json_get err_max) de=$(echo "$d" | json_get err_max)
  [ -n "$hr" ] && [ -n "$dr" ] && awk -v x="$hr" -v y="$dr" -v a="$he" -v b="$de" 'BEGIN { e = (a - b) / a; exit !(x < 1e-12 && y < 1e-12 && e * e <= 1e-20) }'
  tap_check $? "[np=$_np] preonly fftptdma $*: $dev residual $dr error $de, host residual $hr error $he"
}
fft_case 1
fft_case 1 -ppe_bc NNNNNN
fft_case 1 -ppe_bc NNNNNN -ppe_grid_location vertex
fft_case 1 -ppe_bc DDDDNN -ppe_grid_location vertex
fft_case 1 -ppe_bc DNNDPP
fft_case 2 -ppe_bc NDDNDD -ppe_grid_location vertex
fft_case 2 -ppe_bc PPNNNN
fft_case 4 -ppe_bc NNPPDD -ppe_grid_procs 1,2,2 -pc_fftptdma_pgrid 2,2 -pc_fftptdma_zsolve ptdma
fft_case 4 -ppe_bc NNPPDD -ppe_grid_shift 1e8 -ppe_grid_procs 1,2,2 -pc_fftptdma_pgrid 2,2 -pc_fftptdma_zsolve distd2
fft_case 4 -ppe_bc PPNNNN -ppe_grid_procs 2,2,1 -pc_fftptdma_pgrid 2,2 -pc_fftptdma_zsolve transpose

# -ppe_vectors backend: ppe-solve's vectors are the operator's back end's (PPEKit's device
# vector type here; PETSc's VECCUDA/VECHIP with a device PETSc), so that PETSc's own KSPs run
# their vector operations there too: the iterations and residuals of the host run (cbcg and
# fftptdma to rounding, as above), the vector type in the JSON line
case $dev in emu) want_vt=ppeemu ;; *) want_vt="${dev}" ;; esac
for np in 1 2; do
  if ! np_allowed $np; then tap_skip "np=$np -ppe_vectors backend"; continue; fi
  for kp in "cg -pc_type chebyci" "cg -pc_type tileilu -pc_tileilu_layout zyx" "bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" \
            "cbcg -pc_type chebyci" "preonly -pc_type fftptdma"; do
    h=$(solve_json $np -ksp_type $kp -ppe_backend host -ppe_vectors backend)
    d=$(solve_json $np -ksp_type $kp -ppe_backend "$dev" -ppe_vectors backend)
    hi=$(echo "$h" | json_get its) di=$(echo "$d" | json_get its)
    he=$(echo "$h" | json_get rnorm_rel) de=$(echo "$d" | json_get rnorm_rel)
    hv=$(echo "$h" | json_get vec_type) dv=$(echo "$d" | json_get vec_type)
    ok=1
    [ -n "$hi" ] && [ -n "$di" ] || ok=0
    case "$hv:$dv" in seq:*$want_vt | mpi:*$want_vt) ;; *) ok=0 ;; esac
    if [ $ok = 1 ]; then
      case "$kp" in
        cbcg* | preonly*) awk -v a="$hi" -v b="$di" -v x="$he" -v y="$de" 'BEGIN { d = a - b; exit !(d * d <= 1 && x < 1e-9 && y < 1e-9) }' || ok=0 ;;
        *) [ "$hi" = "$di" ] && [ "$he" = "$de" ] || ok=0 ;;
      esac
    fi
    [ $ok = 1 ]
    tap_check $? "[np=$np] -ksp_type $kp -ppe_vectors backend: $dev ($dv vectors) its $di residual $de, host ($hv) its $hi residual $he"
  done
done
out=$(ppe_mpiexec 1 "$solve" $args -ppe_operator aij -ppe_vectors backend 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -q -- '-ppe_vectors backend needs the matrix-free operator'
tap_check $? "-ppe_vectors backend with an assembled operator: clean error (exit $rc, want 1..127)"

# the back end is shown by -ksp_view (the operator's view) and the default is the host here
out=$(ppe_mpiexec 1 "$solve" $args -ksp_type cg -pc_type jacobi -ppe_backend "$dev" -ksp_view 2>&1)
echo "$out" | grep -q "back end: $dev (device 0 of"
tap_check $? "-ksp_view shows \"back end: $dev (device ...)\""
if [ "$PPE_HAVE_CUDA" != 1 ] && [ "$PPE_HAVE_HIP" != 1 ]; then
  out=$(ppe_mpiexec 1 "$solve" $args -ksp_type cg -pc_type jacobi -ksp_view 2>&1)
  echo "$out" | grep -q "back end: host"
  tap_check $? "default back end without a device back end built: host"
fi

# back ends not built: the configure option is named
for be in cuda hip; do
  eval built=\$PPE_HAVE_$(echo $be | tr a-z A-Z)
  out=$(ppe_mpiexec 1 "$solve" $args -ppe_backend $be 2>&1)
  rc=$?
  if [ "$built" = 1 ]; then
    if [ -n "$(command -v nvidia-smi)" ] && [ $be = cuda ] && nvidia-smi -L > /dev/null 2>&1; then
      [ $rc -eq 0 ]
      tap_check $? "-ppe_backend $be solves on this machine's device (exit $rc, want 0)"
    else
      # no device: an error exit (not a signal) naming the runtime's reason; auto = host
      [ $rc -ne 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -q "no usable $be device on rank 0"
      tap_check $? "-ppe_backend $be without a device: clean error (exit $rc, want 1..127; $(echo "$out" | grep -m1 'no usable' | sed 's/^.*-ppe_backend/-ppe_backend/'))"
      out=$(ppe_mpiexec 1 "$solve" $args -ksp_type cg -pc_type jacobi -ksp_view 2>&1)
      rc=$?
      [ $rc -eq 0 ] && echo "$out" | grep -q "back end: host"
      tap_check $? "-ppe_backend auto without a device: falls back to the host (exit $rc, want 0; view says \"$(echo "$out" | grep -m1 -o 'back end: [a-z]*')\", want \"back end: host\")"
    fi
  else
    [ $rc -ne 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -q "built without the $(echo $be | tr a-z A-Z) back end: configure PPEKit with --with-$be"
    tap_check $? "-ppe_backend $be in a build without it: error names --with-$be (exit $rc, want 1..127)"
  fi
done
out=$(ppe_mpiexec 1 "$solve" $args -ppe_backend gpu 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -q 'Unknown back end "gpu": use auto, host, cuda, hip or emu'
tap_check $? "-ppe_backend gpu: unknown name rejected with the list (exit $rc, want 1..127)"

# device_bytes: the bytes between host and device per solve. None on the host; on a device
# back end with host vectors (today's path) every operator application copies x in and y
# out, so CG + Jacobi moves at least 2 n doubles per iteration, the same per iteration
# whatever the tolerance (8 bytes, n = 13 x 11 x 9 points)
h=$(solve_json 1 -ksp_type cg -pc_type jacobi -ppe_backend host)
[ "$(echo "$h" | json_get device_bytes)" = 0 ]
tap_check $? "host back end: device_bytes 0"
perit=""
ok=1
for tol in 1e-4 1e-9; do
  d=$(solve_json 1 -ksp_type cg -pc_type jacobi -ppe_backend "$dev" -ksp_rtol $tol)
  db=$(echo "$d" | json_get device_bytes) di=$(echo "$d" | json_get its)
  awk -v b="$db" -v i="$di" 'BEGIN { exit !(i > 0 && b >= 2 * i * 1287 * 8) }' || ok=0
  perit="$perit $(awk -v b="$db" -v i="$di" 'BEGIN { printf "%.1f", b / i }')"
done
set -- $perit
awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 1.02 && b / a < 1.02) }' || ok=0
[ $ok = 1 ]
tap_check $? "$dev back end, host vectors: CG + Jacobi copies >= 2 vectors per iteration, $1 and $2 bytes per iteration at rtol 1e-4 and 1e-9"
tap_done
