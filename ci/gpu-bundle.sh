#!/bin/bash
# A relocatable bundle of PPEKit's CUDA build for a bare GPU machine (CUDA toolkit and C
# library only: no PETSc, MPI, FFTW, BLAS or Debian packages there).
#
#   ci/gpu-bundle.sh [--tree DIR] [--out FILE]
#
#   --tree DIR   PPEKit's build tree for the bundle (default build-gpu-bundle/)
#   --out FILE   the archive (default TREE/ppekit-gpu-bundle.tar.xz)
#   PPE_CUDA_ARCH  CUDA architectures of PPEKit's kernels and PETSc's (default 90: H100, H200)
#
# 1. PETSc 3.25.4 configured --with-cuda (ci/petsc-vendor.sh --cuda: built once per machine,
#    cached outside the clone, about 11 minutes on 2 cores).
# 2. PPEKit configured against it --with-cuda --enable-werror in TREE; the library, ppe-solve
#    and ppe-bench built and installed into TREE/stage.
# 3. The bundle, one folder ppekit-gpu/:
#      bin/      ppe-solve, ppe-bench, mpiexec (Open MPI's launcher, with orted)
#      lib/      libppekit, libpetsc and every shared library they load (Open MPI, PMIx,
#                hwloc, libevent, FFTW, reference BLAS/LAPACK, the Fortran and C++ runtimes,
#                ...), found by ldd, not by a list
#      lib/openmpi/, pmix/   Open MPI's and PMIx's plugins (those whose libraries are all in
#                the bundle: the shared-memory and TCP transports; InfiniBand, UCX, OFI and
#                PSM ones are left out, named in MANIFEST) and their help texts
#      nvml-stub/libnvidia-ml.so.1   PPEKit's NVML stand-in, for a machine without a GPU
#                driver only (env.sh puts it on the loader's path when no libnvidia-ml.so.1
#                is found; never in a run path)
#      env.sh    source it: PATH, Open MPI's and PMIx's install folders, the NVML fallback
#      MANIFEST  what is inside and where each library came from
#    Every ELF file gets a run path relative to itself ($ORIGIN), then the CUDA toolkit's
#    usual folders, so nothing outside the folder is loaded but the C library (libc, libm,
#    libdl, libpthread, librt, the loader) and CUDA's libraries (cudart, cuFFT, cuBLAS,
#    cuSPARSE, cuSOLVER, cuRAND, the driver's libcuda and NVML).
#    Open MPI is Debian's (4.1): the bundle runs one rank without mpiexec (a singleton that
#    starts no daemon: env.sh sets OMPI_MCA_ess_singleton_isolated) and several ranks with
#    the bundled mpiexec on one node.
# 4. Packed as one xz archive; its size must stay within 48 MiB (a GPU machine receives at
#    most 64 MiB of tree, the sources included). ci/gpu-bundle-check.sh checks the archive.
#
# Prints "ok - " / "not ok - " lines (run-tests.sh counts them) and exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
tree=$top/build-gpu-bundle
out=
while [ $# -gt 0 ]; do
  case $1 in
    --tree) tree=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "gpu-bundle.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$tree"
tree=$(cd "$tree" && pwd)
out=${out:-$tree/ppekit-gpu-bundle.tar.xz}
arch=${PPE_CUDA_ARCH:-90}
jobs=${PPE_JOBS:-$(nproc)}
max_mib=48
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }
fail() { echo "not ok - gpu bundle: $*"; exit 1; }

# 1. PETSc with CUDA
prefix=$(PPE_CUDA_ARCH=$arch bash ci/petsc-vendor.sh --cuda | tail -n 1) || fail "PETSc 3.25.4 with CUDA could not be built (ci/petsc-vendor.sh --cuda)"
[ -f "$prefix/lib/libpetsc.so" ] || fail "no libpetsc.so in $prefix"
stub=$prefix/ppekit-nvml-stub/run/libnvidia-ml.so.1
[ -e "$stub" ] || fail "no NVML stand-in at $stub (rebuild: ci/petsc-vendor.sh --cuda)"
echo "# PETSc with CUDA: $prefix [at $(elapsed)]"
# the programs link and run here through the NVML stand-in (as ci/petsc-cuda-check.sh does):
# libpetsc needs libnvidia-ml.so.1, which only a GPU driver installs
if ! ldconfig -p 2> /dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
  export LD_LIBRARY_PATH=$(dirname "$stub")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# 2. PPEKit against it
[ -x "$top/configure" ] || fail "no ./configure: run ./setup.sh --no-run first"
flags=(--with-petsc="$prefix" --with-cuda --with-cuda-arch="$arch" --enable-werror --prefix="$tree/stage")
cd "$tree" || fail "cannot enter $tree"
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ] || [ "$(cat configure.flags 2>/dev/null)" != "${flags[*]}" ]; then
  "$top/configure" "${flags[@]}" > configure.out 2>&1 || { tail -n 30 configure.out; fail "configure failed ($tree/configure.out)"; }
  echo "${flags[*]}" > configure.flags
fi
grep -Eq '^#define PPEKIT_HAVE_CUDA +1' include/ppekit/ppekitconf.h || fail "configure did not enable the CUDA back end"
# the library and the two programs only (not the examples, plugins and tests of make all)
{ make -j"$jobs" libppekit.la src/tools/ppe-solve examples/bench/ppe-bench &&
  rm -rf stage && make install-libLTLIBRARIES install-binPROGRAMS; } > make.out 2>&1 ||
  { tail -n 30 make.out; fail "build failed ($tree/make.out)"; }
echo "# PPEKit built and installed into $tree/stage [at $(elapsed)]"

# 3. the folder
root=$tree/bundle
b=$root/ppekit-gpu
rm -rf "$root"
mkdir -p "$b/bin" "$b/lib" "$b/lib/openmpi" "$b/lib/hwloc" "$b/nvml-stub" "$b/share"
manifest=$b/MANIFEST
{
  echo "PPEKit GPU bundle: $(cd "$top" && git describe --always --dirty 2>/dev/null || echo unknown), made $(date -u +%Y-%m-%dT%H:%MZ) by ci/gpu-bundle.sh"
  echo "PETSc: $prefix (3.25.4 --with-cuda, CUDA arch $arch)"
  echo "PPEKit: configure ${flags[*]}"
  echo
} > "$manifest"
. "$top/ci/gpu-bundle-libs.sh" # ppe_machine_lib: the C library's and CUDA's, never carried
# deps FILE: the resolved paths of FILE's shared libraries that the bundle must carry
deps() {
  ldd "$1" 2>/dev/null | awk '/=> \// {print $1, $3}' | while read -r soname path; do
    ppe_machine_lib "$soname" || echo "$path"
  done
}
# carry FILE: copy a library into lib/ under its soname (once), then what it needs
carry() {
  local src=$1 name
  name=$(basename "$src")
  [ -e "$b/lib/$name" ] && return 0
  cp -L "$src" "$b/lib/$name" || fail "cannot copy $src"
  echo "lib/$name <- $(readlink -f "$src")" >> "$manifest"
  local d
  for d in $(deps "$src"); do carry "$d"; done
}
install -m 755 "$tree/stage/bin/ppe-solve" "$tree/stage/bin/ppe-bench" "$b/bin/"
for f in "$b"/bin/ppe-*; do
  for d in $(deps "$f"); do carry "$d"; done
done
ls "$b/lib" | grep -q '^libppekit\.so' || fail "ppe-solve does not load libppekit from $tree/stage"
ls "$b/lib" | grep -q '^libpetsc\.so' || fail "ppe-solve does not load libpetsc"
# Open MPI's launcher (mpiexec = orterun) and daemon, its plugins, and PMIx's
ompi_pkglib=$(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')
ompi_pkgdata=$(ompi_info --path pkgdatadir --parsable 2>/dev/null | sed -n 's/^path:pkgdatadir://p')
[ -d "$ompi_pkglib" ] || fail "Open MPI's plugin folder not found (ompi_info --path pkglibdir)"
for p in orterun orted; do
  exe=$(command -v "$p") || fail "no $p (Open MPI) on PATH"
  install -m 755 "$(readlink -f "$exe")" "$b/bin/$p"
  for d in $(deps "$exe"); do carry "$d"; done
done
ln -s orterun "$b/bin/mpiexec"
ln -s orterun "$b/bin/mpirun"
mkdir -p "$b/share/openmpi"
cp "$ompi_pkgdata"/*.txt "$b/share/openmpi/" 2>/dev/null
cp "$ompi_pkgdata"/*.conf "$b/share/openmpi/" 2>/dev/null
# the system configuration (default MCA parameters, hostfile) read from OPAL_SYSCONFDIR
sysconf=$(ompi_info --path sysconfdir --parsable 2>/dev/null | sed -n 's/^path:sysconfdir://p')
[ -d "$sysconf" ] && cp "$sysconf"/* "$b/share/openmpi/" 2>/dev/null
# a plugin comes along when every library it needs is in the bundle or is one of the small
# ones Open MPI's core plugins share (PMIx and its MUNGE, the common sm/ompio/monitoring parts)
left=
plugin_ok() {
  local d name
  for d in $(deps "$1"); do
    name=$(basename "$d")
    [ -e "$b/lib/$name" ] && continue
    case $name in
      libpmix.so.* | libmunge.so.* | libmca_common_sm.so.* | libmca_common_ompio.so.* | libmca_common_monitoring.so.*) continue ;;
    esac
    echo "$name"
    return 1
  done
  return 0
}
for f in "$ompi_pkglib"/*.so; do
  if why=$(plugin_ok "$f"); then
    cp -L "$f" "$b/lib/openmpi/"
    for d in $(deps "$f"); do carry "$d"; done
  else
    left="$left $(basename "$f" .so) ($why)"
  fi
done
pmix_so=$(ldd "$ompi_pkglib"/mca_pmix_*.so 2> /dev/null | awk '/libpmix\.so/ {print $3; exit}')
pmix_lib=
[ -n "$pmix_so" ] && pmix_lib=$(dirname "$(readlink -f "$pmix_so")")
if [ -n "$pmix_lib" ] && [ -d "$pmix_lib/pmix" ]; then
  # Debian's PMIx keeps its plugins in <prefix>/lib/pmix and its help texts in
  # <prefix>/share/pmix; the bundle keeps that shape under pmix/ (PMIX_PREFIX, env.sh)
  mkdir -p "$b/pmix/lib/pmix" "$b/pmix/share/pmix"
  for f in "$pmix_lib"/pmix/*.so; do
    if why=$(plugin_ok "$f"); then cp -L "$f" "$b/pmix/lib/pmix/"; else left="$left $(basename "$f" .so) ($why)"; fi
  done
  cp "$(dirname "$pmix_lib")"/share/pmix/*.txt "$b/pmix/share/pmix/" 2>/dev/null
fi
{ echo; echo "Open MPI plugins left out (their libraries are not in the bundle):$left"; } >> "$manifest"
cp -L "$stub" "$b/nvml-stub/libnvidia-ml.so.1"
cat > "$b/env.sh" << 'EOF'
# source this file (bash or sh): the bundle's programs on PATH, Open MPI and PMIx told where
# their plugins and help texts are, and on a machine without a GPU driver PPEKit's NVML
# stand-in on the loader's path (a PETSc built with CUDA links libnvidia-ml.so.1).
# (bash finds this file's folder itself; sh needs PPE_BUNDLE=<the folder> set first)
if [ -n "${BASH_SOURCE:-}" ]; then PPE_BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd); fi
if [ -z "${PPE_BUNDLE:-}" ] || [ ! -f "$PPE_BUNDLE/env.sh" ]; then
  echo "env.sh: set PPE_BUNDLE to the bundle's folder before sourcing it from sh" >&2
  return 1 2> /dev/null || exit 1
fi
export PPE_BUNDLE
export PATH="$PPE_BUNDLE/bin:${PATH:-/usr/bin:/bin}"
export OPAL_PREFIX="$PPE_BUNDLE" OPAL_EXEC_PREFIX="$PPE_BUNDLE" OPAL_BINDIR="$PPE_BUNDLE/bin"
export OPAL_LIBDIR="$PPE_BUNDLE/lib" OPAL_PKGLIBDIR="$PPE_BUNDLE/lib/openmpi"
export OPAL_DATAROOTDIR="$PPE_BUNDLE/share" OPAL_DATADIR="$PPE_BUNDLE/share" OPAL_PKGDATADIR="$PPE_BUNDLE/share/openmpi"
export OPAL_SYSCONFDIR="$PPE_BUNDLE/share/openmpi"
export PMIX_PREFIX="$PPE_BUNDLE/pmix" PMIX_INSTALL_PREFIX="$PPE_BUNDLE/pmix" PMIX_LIBDIR="$PPE_BUNDLE/pmix/lib"
export PMIX_PKGLIBDIR="$PPE_BUNDLE/pmix/lib/pmix" PMIX_MCA_mca_base_component_path="$PPE_BUNDLE/pmix/lib/pmix"
export PMIX_DATADIR="$PPE_BUNDLE/pmix/share" PMIX_PKGDATADIR="$PPE_BUNDLE/pmix/share/pmix"
# hwloc's optional plugins (PCI, OpenCL, GL, libxml2 topologies) are not carried: an empty folder
export HWLOC_PLUGINS_PATH="$PPE_BUNDLE/lib/hwloc"
# one rank without mpiexec starts no daemon; root may run mpiexec in a container; shared
# memory between ranks of one node, TCP otherwise; no warnings about absent interconnects
export OMPI_MCA_ess_singleton_isolated=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
ppe_nvml=no
for d in $(echo "${LD_LIBRARY_PATH:-}" | tr ':' ' '); do [ -e "$d/libnvidia-ml.so.1" ] && ppe_nvml=yes; done
if [ $ppe_nvml = no ] && /sbin/ldconfig -p 2> /dev/null | grep -q 'libnvidia-ml\.so\.1 '; then ppe_nvml=yes; fi
if [ $ppe_nvml = no ]; then export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PPE_BUNDLE/nvml-stub"; fi
unset ppe_nvml d
EOF
# run paths: relative to each file, then the CUDA toolkit's folders
cudart=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib
command -v patchelf > /dev/null || fail "patchelf is missing (apt-get install patchelf; ./setup.sh installs it)"
for f in "$b"/bin/* "$b"/lib/*.so* "$b"/lib/openmpi/*.so "$b"/pmix/lib/pmix/*.so; do
  [ -L "$f" ] && continue
  [ -f "$f" ] || continue
  case $f in
    "$b"/bin/*) rp='$ORIGIN/../lib' ;;
    "$b"/lib/openmpi/*) rp='$ORIGIN/..' ;;
    "$b"/pmix/*) rp='$ORIGIN/../../../lib' ;;
    *) rp='$ORIGIN' ;;
  esac
  chmod u+w "$f"
  patchelf --set-rpath "$rp:$cudart" "$f" || fail "patchelf failed on $f"
done
# debugging sections are not needed on the GPU machine (the archive's size)
strip --strip-unneeded "$b"/lib/*.so* "$b"/lib/openmpi/*.so "$b"/bin/ppe-* 2> /dev/null
echo "# bundle folder ready: $(du -sm "$b" | cut -f1) MiB unpacked, $(ls "$b/lib" | wc -l) libraries, $(ls "$b/lib/openmpi" | wc -l) Open MPI plugins [at $(elapsed)]"

# 4. the archive
rm -f "$out"
XZ_OPT="-6 -T$jobs" tar -C "$root" -cJf "$out" ppekit-gpu || fail "tar failed"
bytes=$(stat -c %s "$out")
mib=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}')
echo "# $out: $bytes bytes ($mib MiB) [at $(elapsed)]"
if [ "$bytes" -le $((max_mib * 1048576)) ]; then
  echo "ok - gpu bundle: built, $mib MiB (at most $max_mib MiB)"
else
  echo "not ok - gpu bundle: $mib MiB, over $max_mib MiB"
  exit 1
fi
