#!/bin/bash
# tests/device/run-solves-on-gpu.sh [--emu] [--bundle FILE|DIR] [--sizes LIST] [--dir DIR]
#                                   [--repeat N] [--no-harness]
#
# PPEKit's own solves, through PETSc's KSP and PC types, on one GPU of a bare machine (the CUDA
# toolkit and nothing else): the bundle of ci/gpu-bundle.sh (PETSc 3.25.4 with CUDA, PPEKit
# with its CUDA back end, MPI, FFTW, BLAS...) is unpacked and each solve runs twice, on the GPU
# with PETSc's CUDA vectors (-ppe_backend cuda -ppe_vectors backend: VECCUDA, every vector
# operation and every PPEKit kernel on the device) and on the machine's host cores
# (-ppe_backend host), one rank each:
#
#   fftptdma         preonly + fftptdma
#   cg_chebyci       PETSc's CG + chebyci
#   cbcg_chebyci     cbcg + chebyci
#   bcgsfused_nocomm bcgsfused + chebyci nocomm
#   cg_tileilu_zyx   PETSc's CG + tileilu (zyx)
#   operator         the matrix-free operator alone (ppe-bench -bench stencil)
#
# on the channel problem (periodic x and y, Neumann walls, tanh-stretched z) at each size of
# LIST (default 128,256), rtol 1e-10. Checked: the device run's back end and vector type, its
# iterations equal to the host run's, and the solutions within 1e-10 of each other relative to
# the largest value (the last solve's solutions, written by -ksp_view_solution). Reported per
# solve and per iteration: the times (median of N solves, default 3), device_bytes (bytes
# between host and device per solve), and the share of the device's copy bandwidth that a
# byte model of each solver implies (per grid point; see docs/gpu.md): CG 128 B and cbcg 141 B
# per iteration, bcgsfused 192 B, a Chebyshev step 48 B, a tileilu application 88 B, the
# operator 16 B, an fftptdma solve 80 B (five passes: x and y transforms both ways and the z
# solve). The device copy bandwidth and cuFFT's bare transforms of the same 256^3 data (the
# floor of fftptdma's solve) come from the device harness run first (run-on-gpu.sh: every
# family, so that the same run also times each kernel against the copy bandwidth, the figures
# the issue's kernel bars are read from; --no-harness skips it).
#
#   --emu          the emulated device back end (-ppe_backend emu, PPEKit's VECPPEEMU
#                  vectors) on this machine's cores, sizes 24,32: what CI can run
#   --bundle F     the archive (default build-gpu-bundle/ppekit-gpu-bundle.tar.xz) or an
#                  unpacked bundle's folder
#   --dir DIR      work folder (default: a new temporary one, removed at the end)
#
# Writes solves.json (one line per run and per comparison, a summary line) and solves.md (the
# table) into DIR, and into $OUT when set, with the harness's harness.json. Exit status 0 when
# every check passed. On a GPU machine: about 3 minutes at 128,256 (the host runs go in
# parallel on its cores while the GPU runs one solve at a time; the harness about 30 s more).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=cuda
bundle=$top/build-gpu-bundle/ppekit-gpu-bundle.tar.xz
sizes=
dir=
repeat=3
harness=yes
while [ $# -gt 0 ]; do
  case $1 in
    --emu) mode=emu ;;
    --bundle) bundle=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --dir) dir=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --no-harness) harness=no ;;
    *) echo "run-solves-on-gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$sizes" ] || { [ $mode = emu ] && sizes=24,32 || sizes=128,256; }
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ppe-solves.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }
json=$dir/solves.json
: > "$json"
nfail=0

# the bundle
if [ -d "$bundle" ]; then
  B=$(cd "$bundle" && pwd)
else
  [ -f "$bundle" ] || { echo "run-solves-on-gpu.sh: no bundle at $bundle (ci/gpu-bundle.sh makes it)" >&2; exit 1; }
  rm -rf "$dir/bundle" && mkdir -p "$dir/bundle" && tar -C "$dir/bundle" -xJf "$bundle" || exit 1
  B=$dir/bundle/ppekit-gpu
fi
# shellcheck disable=SC1091
. "$B/env.sh" || exit 1
echo "run-solves-on-gpu.sh: bundle $B ($(head -n 1 "$B/MANIFEST")), mode $mode, sizes $sizes [at $(elapsed)]"

# the device's copy bandwidth and cuFFT's floor, from the harness (same machine, same run)
copy_gbps=
fft_floor=
if [ $harness = yes ]; then
  hflags=
  [ $mode = emu ] && hflags=--emu
  # shellcheck disable=SC2086
  if bash "$here/run-on-gpu.sh" $hflags --dir "$dir/harness" > "$dir/harness.out" 2>&1; then
    echo "ok - device harness ($mode): every check passed, $(grep -c '"type": "check"' "$dir/harness/harness.json") checks [at $(elapsed)]"
  else
    echo "not ok - device harness ($mode):"; tail -n 20 "$dir/harness.out"; nfail=$((nfail + 1))
  fi
  hj=$dir/harness/harness.json
  copy_gbps=$(sed -n 's/.*"type": "device".*"copy_GBps": \([0-9.e+-]*\).*/\1/p' "$hj" 2> /dev/null | head -n 1)
  fft_floor=$(grep '"kernel": "fftptdma pipeline (per)", "size": "256x256x256"' "$hj" 2> /dev/null | sed -n 's/.*"ref_seconds": \([0-9.e+-]*\).*/\1/p' | head -n 1)
  [ -n "${OUT:-}" ] && cp "$hj" "$OUT/harness.json" 2> /dev/null
fi
echo "device copy bandwidth: ${copy_gbps:-unknown} GB/s; cuFFT's bare transforms at 256^3: ${fft_floor:-not measured} s"

# key FILE KEY: a value of the last JSON line of FILE (numbers and strings)
key() { grep '^{' "$1" 2> /dev/null | tail -n 1 | tr ',' '\n' | sed -n "s/^ *{\{0,1\}\"$2\": *\"\{0,1\}\([^\"}]*\)\"\{0,1\}}\{0,1\}$/\1/p" | head -n 1; }
# maxdiff A B N: max |a - b| / max |b| over the last N values of two PETSc binary vector files
maxdiff() {
  if ! command -v python3 > /dev/null 2>&1; then
    # without Python: od reads the big-endian doubles (slower: about 10 s per 256^3 pair)
    local na nb
    na=$(stat -c %s "$1") nb=$(stat -c %s "$2")
    paste <(od -An -v -t f8 --endian=big -j $((na - 8 * $3)) "$1" | tr -s ' ' '\n' | grep .) \
      <(od -An -v -t f8 --endian=big -j $((nb - 8 * $3)) "$2" | tr -s ' ' '\n' | grep .) |
      awk '{d = $1 - $2; if (d < 0) d = -d; if (d > md) md = d; a = $2 < 0 ? -$2 : $2; if (a > m) m = a}
           END {printf "%.3e\n", (m > 0 ? md / m : md)}'
    return
  fi
  python3 - "$1" "$2" "$3" << 'EOF'
import sys, array
def last(path, n):
    with open(path, 'rb') as f:
        f.seek(-8 * n, 2)
        a = array.array('d')
        a.fromfile(f, n)
    if sys.byteorder == 'little':
        a.byteswap()
    return a
n = int(sys.argv[3])
a, b = last(sys.argv[1], n), last(sys.argv[2], n)
try:
    import numpy as np
    x, y = np.frombuffer(a, dtype=float), np.frombuffer(b, dtype=float)
    d, m = float(np.max(np.abs(x - y))), float(np.max(np.abs(y)))
except ImportError:
    d = max(abs(p - q) for p, q in zip(a, b))
    m = max(abs(q) for q in b)
print("%.3e" % (d / m if m > 0 else d))
EOF
}

be=$mode
problem="-problem channel -ksp_rtol 1e-10 -ppe_json"
cases="fftptdma cg_chebyci cbcg_chebyci bcgsfused_nocomm cg_tileilu_zyx"
opts() {
  case $1 in
    fftptdma) echo "-ksp_type preonly -pc_type fftptdma" ;;
    cg_chebyci) echo "-ksp_type cg -pc_type chebyci" ;;
    cbcg_chebyci) echo "-ksp_type cbcg -pc_type chebyci" ;;
    bcgsfused_nocomm) echo "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm" ;;
    cg_tileilu_zyx) echo "-ksp_type cg -pc_type tileilu -pc_tileilu_layout zyx" ;;
  esac
}
# byte model per grid point: per iteration (KSP part, PC part per application) or per solve
ksp_bytes() { case $1 in fftptdma) echo 80 ;; cg_*) echo 128 ;; cbcg_*) echo 141 ;; bcgsfused_*) echo 192 ;; esac; }

# host runs first, in the background, as many at once as the cores allow (one rank each)
jobs_max=$(($(nproc) > 2 ? $(nproc) - 2 : 1))
[ $mode = emu ] && jobs_max=1
for n in $(echo "$sizes" | tr ',' ' '); do
  for c in $cases; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
    # shellcheck disable=SC2046
    ppe-solve $problem -ppe_grid_n "$n,$n,$n" $(opts "$c") -ppe_backend host -ksp_view_solution "binary:$dir/x-$c-$n-host.bin" > "$dir/$c-$n-host.out" 2>&1 &
  done
done

for n in $(echo "$sizes" | tr ',' ' '); do
  npts=$((n * n * n))
  # the operator alone
  out=$dir/operator-$n.out
  ppe-bench -bench stencil -ppe_grid_n "$n,$n,$n" -ppe_backend "$be" -bench_reps 10 > "$out" 2>&1
  tm=$(key "$out" matfree_s)
  if [ -n "$tm" ]; then
    frac=$(awk -v t="$tm" -v n=$npts -v c="${copy_gbps:-0}" 'BEGIN {if (c > 0) printf "%.3f", 16 * n / t / (c * 1e9); else print "null"}')
    echo "{\"type\": \"solve\", \"case\": \"operator\", \"n\": $n, \"backend\": \"$be\", \"solve_s\": $tm, \"its\": 1, \"s_per_it\": $tm, \"bytes_model\": $((16 * npts)), \"frac_copy\": $frac, \"device_bytes\": null, \"ok\": true}" >> "$json"
    echo "ok - operator n=$n on $be: MatMult $tm s, $frac of the copy bandwidth by its byte model"
  else
    echo "{\"type\": \"solve\", \"case\": \"operator\", \"n\": $n, \"backend\": \"$be\", \"ok\": false}" >> "$json"
    echo "not ok - operator n=$n on $be: no result"; tail -n 15 "$out"; nfail=$((nfail + 1))
  fi
  # the solves on the device, one at a time
  for c in $cases; do
    out=$dir/$c-$n-dev.out
    # shellcheck disable=SC2046
    ppe-solve $problem -ppe_grid_n "$n,$n,$n" $(opts "$c") -ppe_backend "$be" -ppe_vectors backend -ppe_repeat "$repeat" -ksp_view_solution "binary:$dir/x-$c-$n-dev.bin" > "$out" 2>&1 ||
      { echo "$c $n on $be FAILED:"; tail -n 15 "$out"; }
  done
  echo "size $n: device runs done [at $(elapsed)]"
done
wait
echo "host runs done [at $(elapsed)]"

# compare and report
for n in $(echo "$sizes" | tr ',' ' '); do
  npts=$((n * n * n))
  for c in $cases; do
    d=$dir/$c-$n-dev.out h=$dir/$c-$n-host.out
    its=$(key "$d" its) hits=$(key "$h" its) ts=$(key "$d" solve_s) hts=$(key "$h" solve_s)
    vt=$(key "$d" vec_type) rb=$(key "$d" backend) db=$(key "$d" device_bytes) pcits=$(key "$d" pc_its)
    diff=
    [ -f "$dir/x-$c-$n-dev.bin" ] && [ -f "$dir/x-$c-$n-host.bin" ] && diff=$(maxdiff "$dir/x-$c-$n-dev.bin" "$dir/x-$c-$n-host.bin" "$npts")
    ok=true why=
    [ -n "$its" ] && [ -n "$ts" ] || { ok=false; why="$why no result on $be;"; }
    [ -n "$hits" ] || { ok=false; why="$why no host result;"; }
    [ "$rb" = "$be" ] || { ok=false; why="$why back end '$rb';"; }
    case $be:$vt in cuda:*cuda | emu:ppeemu) ;; *) ok=false; why="$why vector type '$vt';" ;; esac
    [ "$its" = "$hits" ] || { ok=false; why="$why iterations $its vs host $hits;"; }
    awk -v x="${diff:-1}" 'BEGIN {exit !(x + 0 <= 1e-10)}' || { ok=false; why="$why solutions ${diff:-missing} apart;"; }
    [ "${pcits:-null}" = null ] && pcits=0
    # bytes of one solve by the model: KSP part per iteration, Chebyshev steps at 48 B, tileilu
    # applications (one per iteration, plus the first) at 88 B; fftptdma: per solve
    model=$(awk -v c="$c" -v its="${its:-0}" -v pc="$pcits" -v n=$npts -v k="$(ksp_bytes "$c")" 'BEGIN {
      if (c == "fftptdma") b = k; else b = k * its + (c ~ /chebyci|nocomm/ ? 48 * pc : 0) + (c ~ /tileilu/ ? 88 * (its + 1) : 0)
      printf "%.0f", b * n }')
    read -r per frac ratio_floor < <(awk -v t="${ts:-0}" -v its="${its:-0}" -v m="$model" -v c="${copy_gbps:-0}" -v f="${fft_floor:-0}" -v cs="$c" -v n="$n" 'BEGIN {
      per = (its > 0) ? t / its : t; if (cs == "fftptdma") per = t
      fr = (c > 0 && t > 0) ? sprintf("%.3f", m / t / (c * 1e9)) : "null"
      rf = (cs == "fftptdma" && n == 256 && f > 0) ? sprintf("%.2f", t / f) : "null"
      printf "%.6e %s %s\n", per, fr, rf }')
    echo "{\"type\": \"solve\", \"case\": \"$c\", \"n\": $n, \"backend\": \"$be\", \"vec_type\": \"${vt}\", \"its\": ${its:-null}, \"host_its\": ${hits:-null}, \"pc_its\": $pcits, \"solve_s\": ${ts:-null}, \"host_solve_s\": ${hts:-null}, \"s_per_it\": $per, \"bytes_model\": $model, \"frac_copy\": $frac, \"over_fft_floor\": $ratio_floor, \"device_bytes\": ${db:-null}, \"x_diff\": ${diff:-null}, \"ok\": $ok}" >> "$json"
    if [ $ok = true ]; then
      echo "ok - $c n=$n on $be ($vt vectors): $its iterations as on the host, solutions $diff apart, $ts s per solve, device_bytes $db"
    else
      echo "not ok - $c n=$n on $be:$why"; nfail=$((nfail + 1))
      tail -n 8 "$d" | sed 's/^/#   /'
    fi
  done
done
# cbcg + chebyci against CG + chebyci, per iteration, at each size
ratios=
for n in $(echo "$sizes" | tr ',' ' '); do
  a=$(grep "\"case\": \"cbcg_chebyci\", \"n\": $n," "$json" | sed -n 's/.*"s_per_it": \([0-9.e+-]*\).*/\1/p')
  b=$(grep "\"case\": \"cg_chebyci\", \"n\": $n," "$json" | sed -n 's/.*"s_per_it": \([0-9.e+-]*\).*/\1/p')
  [ -n "$a" ] && [ -n "$b" ] && ratios="$ratios $n:$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
done
nrun=$(grep -c '"type": "solve"' "$json")
echo "{\"type\": \"summary\", \"backend\": \"$be\", \"sizes\": \"$sizes\", \"runs\": $nrun, \"failed\": $nfail, \"copy_GBps\": ${copy_gbps:-null}, \"fft_floor_s\": ${fft_floor:-null}, \"cbcg_over_cg_per_it\": \"${ratios# }\", \"seconds\": $(($(date +%s) - t0))}" >> "$json"
{
  echo "| case | n | its (host) | solve s | s/it | model GB/s share of copy | device_bytes | x diff | ok |"
  echo "|---|---|---|---|---|---|---|---|---|"
  grep '"type": "solve"' "$json" | while IFS= read -r l; do
    f() { echo "$l" | tr ',' '\n' | sed -n "s/^ *{\{0,1\}\"$1\": *\"\{0,1\}\([^\"}]*\)\"\{0,1\}}\{0,1\}$/\1/p"; }
    echo "| $(f case) | $(f n) | $(f its) ($(f host_its)) | $(f solve_s) | $(f s_per_it) | $(f frac_copy) | $(f device_bytes) | $(f x_diff) | $(f ok) |"
  done
  echo
  echo "device copy bandwidth ${copy_gbps:-unknown} GB/s; cuFFT's bare transforms at 256^3 ${fft_floor:-not measured} s; cbcg + chebyci over CG + chebyci per iteration: ${ratios:- n/a}"
} > "$dir/solves.md"
cat "$dir/solves.md"
[ -n "${OUT:-}" ] && cp "$json" "$dir/solves.md" "$OUT/" 2> /dev/null
echo "run-solves-on-gpu.sh: $nrun runs, $nfail failed [at $(elapsed)]"
[ "$nfail" -eq 0 ]
