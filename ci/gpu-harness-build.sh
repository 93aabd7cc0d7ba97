#!/bin/bash
# The GPU harness (tests/device) builds here with nvcc, as tests/device/run-on-gpu.sh builds it
# on a bare GPU machine (no device needed to compile), and what must travel to such a machine
# stays well under its 64 MiB limit: the sources the script compiles plus the binary.
# Prints "ok - ..." / "not ok - ..."; exits with the number of failures.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "not ok - nvcc not found (CUDA toolkit at /usr/local/cuda): the GPU harness cannot be built"
  exit 1
fi
if out=$(NVCC=$nvcc "$top/tests/device/run-on-gpu.sh" --build-only --dir "$work" 2>&1) && ! echo "$out" | grep -q 'warning'; then
  echo "ok - run-on-gpu.sh --build-only: $(echo "$out" | tail -n 1)"
else
  echo "not ok - run-on-gpu.sh --build-only builds the CUDA harness without warnings"
  echo "$out" | tail -n 20 | sed 's/^/#   /'
  fails=$((fails + 1))
fi
# what travels: the harness, the device launch code, the kernels' bodies, the binary
kib=$(du -ck "$top/tests/device" "$top/src/backend/device" "$top/src/backend/cuda" "$top/src/kernels" "$work/harness" 2>/dev/null | tail -n 1 | cut -f1)
if [ -f "$work/harness" ] && [ "$kib" -lt 16384 ]; then
  echo "ok - sources and binary of the GPU harness: $kib KiB (limit of a GPU machine's tree: 65536 KiB)"
else
  echo "not ok - sources and binary of the GPU harness under 16 MiB (got ${kib} KiB)"
  fails=$((fails + 1))
fi
exit $fails
