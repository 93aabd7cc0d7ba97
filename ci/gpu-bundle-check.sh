#!/bin/bash
# Is the GPU bundle (ci/gpu-bundle.sh) self-contained?
#
#   ci/gpu-bundle-check.sh [ARCHIVE]     (default build-gpu-bundle/ppekit-gpu-bundle.tar.xz)
#
# 1. the archive is at most 48 MiB;
# 2. unpacked into an empty folder, ldd of every program, library and plugin in it resolves
#    every shared library into that folder, except the C library's and CUDA's (the GPU
#    machine's own; here the toolkit in /usr/local/cuda, and libcuda/NVML, which only a
#    driver installs);
# 3. the bundled ppe-solve solves with the emulated device back end (-ppe_backend emu) in a
#    clean environment (env -i, then the bundle's env.sh), on 1 rank (a singleton, no
#    mpiexec) and on 2 (the bundled mpiexec), and gives the host back end's iterations:
#    with Debian's PETSc, the plugin folders of Open MPI, PMIx and hwloc, and every system
#    copy of a bundled library hidden from the loader (a private mount namespace, unshare -m,
#    puts an empty folder or /dev/null over each; where unshare is not
#    allowed the check says so and relies on 4), and
# 4. the loader's own trace of those runs (LD_DEBUG=libs, every process of them: the
#    launcher, its ranks, every plugin Open MPI opens) shows no object loaded from outside
#    the folder but the C library's and CUDA's.
# Prints "ok - " / "not ok - " lines (run-tests.sh counts them); exits non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
archive=${1:-$top/build-gpu-bundle/ppekit-gpu-bundle.tar.xz}
max_mib=48
nfail=0
ok() { echo "ok - gpu bundle: $*"; }
notok() { echo "not ok - gpu bundle: $*"; nfail=$((nfail + 1)); }
[ -f "$archive" ] || { notok "no archive at $archive (ci/gpu-bundle.sh makes it)"; exit 1; }

bytes=$(stat -c %s "$archive")
if [ "$bytes" -le $((max_mib * 1048576)) ]; then ok "archive $bytes bytes, within $max_mib MiB"; else notok "archive $bytes bytes, over $max_mib MiB"; fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ppe-bundle-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/unpack"
tar -C "$tmp/unpack" -xJf "$archive" || { notok "cannot unpack $archive"; exit 1; }
B=$tmp/unpack/ppekit-gpu
[ -x "$B/bin/ppe-solve" ] && [ -f "$B/env.sh" ] || { notok "no bin/ppe-solve or env.sh in the archive"; exit 1; }

# allowed outside the folder: the C library's and CUDA's (ppe_machine_lib)
. "$top/ci/gpu-bundle-libs.sh"

# 2. ldd
bad=
nelf=0
while IFS= read -r f; do
  head -c 4 "$f" | grep -q ELF || continue
  nelf=$((nelf + 1))
  while read -r soname arrow path rest; do
    [ "$arrow" = "=>" ] || continue
    if [ "$path" = "not" ]; then
      ppe_machine_lib "$soname" || bad="$bad ${f#"$B"/}:$soname(not found)"
    elif [ "${path#"$B"/}" = "$path" ] && ! ppe_machine_lib "$path"; then
      bad="$bad ${f#"$B"/}:$path"
    fi
  done < <(env -i PATH=/usr/bin:/bin ldd "$f" 2> /dev/null)
done < <(find "$B" -type f \( -name '*.so*' -o -path "$B/bin/*" \) ! -path "$B/nvml-stub/*")
if [ -z "$bad" ] && [ "$nelf" -gt 10 ]; then
  ok "ldd of $nelf programs, libraries and plugins: every library in the folder but the C library's and CUDA's"
else
  notok "ldd of $nelf files: from outside the folder:$bad"
fi

# 3. and 4. solves in a clean environment, traced by the loader
problem="-problem mms -ppe_grid_n 24,20,16 -ppe_bc NNNNDD -ksp_type cbcg -pc_type chebyci -ksp_rtol 1e-9 -ppe_json"
cat > "$tmp/solves.sh" << EOF
PPE_BUNDLE="$B"
. "$B/env.sh"
cd "$tmp"
LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/ld1" ppe-solve $problem -ppe_backend emu > "$tmp/emu1.out" 2>&1 || echo "emu1 failed" >> "$tmp/errors"
ppe-solve $problem -ppe_backend host > "$tmp/host1.out" 2>&1 || echo "host1 failed" >> "$tmp/errors"
LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/ld2" mpiexec -n 2 ppe-solve $problem -ppe_backend emu > "$tmp/emu2.out" 2>&1 || echo "emu2 failed" >> "$tmp/errors"
mpiexec -n 2 ppe-solve $problem -ppe_backend host > "$tmp/host2.out" 2>&1 || echo "host2 failed" >> "$tmp/errors"
EOF
# hide Debian's PETSc and the system's copy of every library the bundle carries
cat > "$tmp/hide.sh" << EOF
set -e
for d in /usr/lib/petscdir /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/lib/x86_64-linux-gnu/hwloc; do
  [ -d "\$d" ] && mount -t tmpfs none "\$d"
done
for f in "$B"/lib/*.so*; do
  n=\$(basename "\$f")
  for p in /lib/x86_64-linux-gnu/\$n /usr/lib/x86_64-linux-gnu/\$n \$(/sbin/ldconfig -p | awk -v n="\$n" '\$1 == n {print \$NF}'); do
    [ -e "\$p" ] && mount --bind /dev/null "\$p"
  done
done
exec env -i PATH=/usr/bin:/bin HOME="$tmp" /bin/sh "$tmp/solves.sh"
EOF
if unshare -m /bin/sh -c 'mount -t tmpfs none /mnt' 2> /dev/null; then
  how="Debian's PETSc and the system's copies of the bundled libraries hidden (unshare -m)"
  unshare -m /bin/sh "$tmp/hide.sh" 2> "$tmp/hide.err" || { cat "$tmp/hide.err"; echo "hide failed" >> "$tmp/errors"; }
else
  how="system libraries not hidden (unshare -m not allowed here): the loader's trace decides"
  env -i PATH=/usr/bin:/bin HOME="$tmp" /bin/sh "$tmp/solves.sh"
fi
[ -f "$tmp/errors" ] && cat "$tmp/errors"
# json FILE KEY: a number or string of ppe-solve's JSON line
json() { grep '^{' "$1" | tail -n 1 | tr ',' '\n' | sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\"}]*\)\"\{0,1\}}\{0,1\}$/\1/p" | head -n 1; }
for r in 1 2; do
  e=$tmp/emu$r.out h=$tmp/host$r.out
  ie=$(json "$e" its) ih=$(json "$h" its) re=$(json "$e" rnorm_rel) be=$(json "$e" backend) rk=$(json "$e" ranks)
  if [ -n "$ie" ] && [ "$ie" = "$ih" ] && [ "$be" = emu ] && [ "$rk" = "$r" ] && awk -v x="$re" 'BEGIN {exit !(x != "" && x + 0 <= 1e-9)}'; then
    ok "bundled ppe-solve, $r rank(s), env -i, $how: -ppe_backend emu converged in $ie iterations (host back end: $ih), residual $re"
  else
    notok "bundled ppe-solve, $r rank(s): emu its '$ie' backend '$be' ranks '$rk' residual '$re', host its '$ih'; output:"
    tail -n 15 "$e" "$h" | sed 's/^/#   /'
  fi
done
# the loader's trace: every object initialised, in every process
nproc_traced=$(ls "$tmp"/ld1.* "$tmp"/ld2.* 2> /dev/null | wc -l)
loaded=$(cat "$tmp"/ld1.* "$tmp"/ld2.* 2> /dev/null | sed -n 's/.*calling init: //p' | sort -u)
outside=
for p in $loaded; do
  [ "${p#"$B"/}" != "$p" ] && continue
  ppe_machine_lib "$p" || outside="$outside $p"
done
nloaded=$(echo "$loaded" | grep -c .)
if [ -z "$outside" ] && [ "$nproc_traced" -ge 3 ] && echo "$loaded" | grep -q "^$B/.*/libpetsc\.so" && echo "$loaded" | grep -q "^$B/.*/openmpi/mca_"; then
  ok "loader's trace of $nproc_traced processes: $nloaded objects initialised (Open MPI's plugins too), none from outside the folder but the C library's and CUDA's"
else
  [ -n "$outside" ] || outside=" none, but libpetsc or the Open MPI plugins were not seen loaded from the folder"
  notok "loader's trace of $nproc_traced processes: from outside the folder:$outside"
fi
[ "$nfail" -eq 0 ]
