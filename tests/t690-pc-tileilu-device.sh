#!/bin/sh
# The tile ILU(0) sweep bodies are single-source: compile them for the device with nvcc and
# hipcc, wherever those compilers are found; skipped where none is.
. "$srcdir/tests/lib.sh"
src="$srcdir/tests/t690-pc-tileilu-device.cu"
inc="-I$srcdir/src"
tmp=${TMPDIR:-/tmp}/ppe-t690.$$
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -n "$nvcc" ]; then
  "$nvcc" -std=c++17 --fmad=false -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 $inc -c "$src" -o "$tmp.cuda.o" > "$tmp.log" 2>&1
  rc=$?
  sed 's/^/# /' "$tmp.log" | head -n 20
  tap_check $rc "nvcc compiles the tile ILU sweeps (xyz per tile, zyx per lane) for sm_80 and sm_90 ($nvcc)"
else
  tap_skip "nvcc not found"
fi
hipcc=$(command -v hipcc || ls /opt/rocm/bin/hipcc 2>/dev/null || true)
if [ -n "$hipcc" ]; then
  "$hipcc" -x hip --offload-arch=gfx90a -ffp-contract=off $inc -c "$src" -o "$tmp.hip.o" > "$tmp.log" 2>&1
  rc=$?
  sed 's/^/# /' "$tmp.log" | head -n 20
  tap_check $rc "hipcc compiles the tile ILU sweeps for gfx90a ($hipcc)"
else
  tap_skip "hipcc not found"
fi
rm -f "$tmp".*
tap_done
