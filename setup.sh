#!/bin/bash
# PPEKit quick start, step 1: on a fresh Debian 12 machine, install the Debian
# packages PPEKit needs, bootstrap, configure and build in build/, install into
# install/, then run the main job: the default study (studies/channel.study) with
# ppe-study, which prints its table and writes its plots into study-channel/.
#
#   ./setup.sh            everything, then the main job
#   ./setup.sh --no-run   everything but the main job (used by run-tests.sh)
#
# Safe to run again: it installs only missing packages and rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")"
top=$PWD

run_main=yes
[ "${1:-}" = "--no-run" ] && run_main=no

# Every package the build, the tests and the tools use; nothing from elsewhere. hipcc
# (Debian's HIP compiler) and libvkfft-dev (VkFFT, the HIP back end's FFT) are there for the
# compile check of the device back ends;
# python3-matplotlib draws the residual histories of the studies (examples/study/);
# valgrind runs the memcheck tests (t980, t981); petsc64-dev (PETSc 3.18 with 64-bit
# PetscInt) and clang (its -Wshorten-64-to-32 finds unchecked integer narrowing) are for
# run-tests.sh's 64-bit-index build; clang-format checks the tree's format (.clang-format,
# ci/structure-check.sh); python3 also builds PETSc 3.25 from ../shared/vendor; patchelf gives
# the GPU bundle's libraries their run paths (ci/gpu-bundle.sh).
packages="build-essential autoconf automake libtool pkg-config make gawk python3
          python3-matplotlib petsc-dev petsc64-dev libhypre-dev libfftw3-dev libfftw3-mpi-dev
          openmpi-bin hipcc libvkfft-dev valgrind clang clang-format patchelf"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  ./bootstrap > bootstrap.out 2>&1 || { cat bootstrap.out; exit 1; }
  rm -f bootstrap.out
fi
mkdir -p build
cd build
# PPE_CONFIGURE_FLAGS: more configure options (run-tests.sh: --enable-werror); a change of
# them configures again
extra=${PPE_CONFIGURE_FLAGS:-}
if [ ! -f Makefile ] || [ ../configure -nt config.status ] || [ "$(cat configure.flags 2>/dev/null)" != "$extra" ]; then
  # shellcheck disable=SC2086 # the extra flags are words
  ../configure --prefix="$top/install" $extra > configure.out || { cat configure.out; exit 1; }
  echo "$extra" > configure.flags
  sed -n '/PPEKit .* configured/,$p' configure.out
fi
make -j"$(nproc)" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
make install > install.out 2>&1 || { tail -n 40 install.out; exit 1; }
echo "setup: PPEKit built in build/ and installed in install/"

if [ "$run_main" = yes ]; then
  cd "$top"
  exec "$top/install/bin/ppe-study" channel -o "$top/study-channel"
fi
