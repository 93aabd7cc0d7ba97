#!/bin/bash
# PPEKit's CUDA back end against a CUDA build of PETSc 3.25.4, on a machine without a GPU.
# Run by hand before landing a change that touches the device back ends or PPEKit's use of
# PETSc's vectors: no CI leg runs it (another whole make check, and once per machine the
# CUDA PETSc build, do not fit in CI's 25 minutes, which run-tests.sh's legs already fill;
# docs/testing.md has the figures).
#
#   ci/petsc-cuda-check.sh [TREE]     (TREE: the build tree, default build-petsc325-cuda/)
#   nice -n 10 ci/petsc-cuda-check.sh     on a shared machine
#
# 1. builds (once per machine, cached: ci/petsc-vendor.sh --cuda) or reuses PETSc 3.25.4
#    configured --with-cuda=1 (nvcc from /usr/local/cuda, sm_90);
# 2. configures PPEKit in TREE with --with-petsc=<that PETSc> --with-cuda --enable-werror
#    and builds everything (library with the CUDA back end, tools, examples, plugins, test
#    programs): every PETSc header PPEKit includes, with PETSC_HAVE_CUDA set, compiles
#    warning-free, and so do PPEKit's paths that ask PETSc for a vector's memory type;
# 3. runs the test suite there as the 3.25 tree of run-tests.sh does (rank loops up to 4,
#    the fuzzer's first 100 cases, valgrind of the solves), host vectors throughout; the
#    device tests (t191-t195) see no GPU: -ppe_backend cuda must fail cleanly, auto must fall
#    back to the host.
#
# No GPU is needed, and no GPU driver: a PETSc built with CUDA links libnvidia-ml.so.1
# (NVML), which only a driver installs; this script puts on LD_LIBRARY_PATH the stand-in that
# ci/petsc-vendor.sh --cuda left beside that PETSc (PPEKit's NVML stub), so the programs
# link and load, and the CUDA runtime, finding no driver (libcuda.so.1), reports that there
# is no device. PETSc's device initialisation is lazy by default (-device_enable lazy):
# PetscInitialize only asks the runtime how many devices there are, takes its error
# (cudaErrorInsufficientDriver) as "none", and goes to the device again only when a device
# object (a VECCUDA, a device context) is used, which host vectors never do. So no PETSc
# option is needed and PETSC_OPTIONS is left alone: the tests run as a user's program would
# on a CPU node with this PETSc. PPE_CUDA_CHECK_PETSC_OPTIONS adds options (for example
# "-device_enable none" to keep PETSc away from the CUDA runtime altogether).
#
# Ends with one line "N passed, N failed[, N skipped]" (a failed configure or build counts
# as one failure) and exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
tree=${1:-$top/build-petsc325-cuda}
jobs=${PPE_JOBS:-$(nproc)}
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }
pass=0 fail=0 skip=0
finish() {
  local summary="$pass passed, $fail failed"
  [ "$skip" -gt 0 ] && summary="$summary, $skip skipped"
  echo "== done [at $(elapsed)]"
  echo "$summary"
  [ "$fail" -eq 0 ]
  exit
}

[ -x "$top/configure" ] || { echo "petsc-cuda-check: no ./configure: run ./setup.sh --no-run (or autoreconf -fi) first"; fail=1; finish; }

echo "== PETSc 3.25.4 with CUDA (ci/petsc-vendor.sh --cuda; built once per machine) [at $(elapsed)]"
if ! prefix=$(bash ci/petsc-vendor.sh --cuda); then
  echo "petsc-cuda-check: PETSc 3.25.4 with CUDA could not be built"
  fail=1; finish
fi
echo "PETSc at $prefix [at $(elapsed)]"
grep -E '^#define PETSC_HAVE_CUDA( |_VERSION_[0-9_]+PLUS )|^#define PETSC_PKG_CUDA_VERSION_(MAJOR|MINOR) ' "$prefix/include/petscconf.h" ||
  { echo "petsc-cuda-check: $prefix/include/petscconf.h does not say PETSC_HAVE_CUDA"; fail=1; finish; }
stubrun=$prefix/ppekit-nvml-stub/run
[ -e "$stubrun/libnvidia-ml.so.1" ] ||
  { echo "petsc-cuda-check: no NVML stand-in in $stubrun (rebuild: ci/petsc-vendor.sh --cuda)"; fail=1; finish; }
# a machine with a GPU driver uses its own NVML; the stand-in only fills in for a missing
# driver (ldconfig knows libnvidia-ml.so.1 where a driver is installed)
if ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
  echo "petsc-cuda-check: this machine has a GPU driver (libnvidia-ml.so.1): the stub stays off LD_LIBRARY_PATH"
else
  export LD_LIBRARY_PATH=$stubrun${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# valgrind (t981 memchecks the solves): NVIDIA's cuBLASLt, which this PETSc links, makes the
# loader report 4 invalid reads before main (ci/cuda-valgrind.supp says why); suppressed for
# this tree only, through valgrind's own environment variable
export VALGRIND_OPTS="${VALGRIND_OPTS:+$VALGRIND_OPTS }--suppressions=$top/ci/cuda-valgrind.supp"
if [ -n "${PPE_CUDA_CHECK_PETSC_OPTIONS:-}" ]; then
  export PETSC_OPTIONS="${PETSC_OPTIONS:+$PETSC_OPTIONS }$PPE_CUDA_CHECK_PETSC_OPTIONS"
fi
echo "PETSC_OPTIONS=${PETSC_OPTIONS:-} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-} VALGRIND_OPTS=$VALGRIND_OPTS"

echo "== configure and build $tree: --with-petsc --with-cuda --enable-werror [at $(elapsed)]"
mkdir -p "$tree"
cd "$tree" || { fail=1; finish; }
flags=(--with-petsc="$prefix" --with-cuda --enable-werror)
# configure again when it has not run, when configure is newer, or when the flags changed
# (as run-tests.sh's configure_tree)
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ] || [ "$(cat configure.flags 2>/dev/null)" != "${flags[*]}" ]; then
  "$top/configure" "${flags[@]}" > configure.out 2>&1 || { tail -n 40 configure.out; fail=1; finish; }
  echo "${flags[*]}" > configure.flags
fi
sed -n '/PPEKit .* configured/,/run-time/p' configure.out
grep -E '^ +CUDA ' configure.out
grep -Eq '^#define PPEKIT_HAVE_CUDA +1' include/ppekit/ppekitconf.h ||
  { echo "petsc-cuda-check: configure did not enable the CUDA back end"; grep -n CUDA include/ppekit/ppekitconf.h; fail=1; finish; }
make -j"$jobs" > make.out 2>&1 || { tail -n 40 make.out; fail=1; finish; }
# every test program too, before the timed test run
make -j"$jobs" check TESTS= > make-check-programs.out 2>&1 || { tail -n 40 make-check-programs.out; fail=1; finish; }
ncu=$(ls src/backend/cuda/*_cuda.lo 2>/dev/null | wc -l)
echo "built [at $(elapsed)]: $ncu CUDA objects of the back end"
# the code that only a CUDA PETSc compiles, or that asks PETSc where a vector's values live
echo "PPEKit's files with PETSc memory-type or CUDA-PETSc paths (compiled above):" \
  $(cd "$top" && grep -rlE 'PetscMemType|AndMemType|VECCUDA|VecCUDA|PETSC_HAVE_CUDA' src plugins include 2>/dev/null | sort)

echo "== make check in $tree (host vectors; rank loops up to 4, 100 fuzz cases, valgrind of the solves) [at $(elapsed)]"
rm -f test-suite.log
# the 3.25 tree of run-tests.sh: the PETSc-free device harness (t196) and the valgrind units
# of PPEKit's own kernels (t980) do not depend on PETSc and run in the other trees
PPE_TEST_HARNESS=no PPE_TEST_VALGRIND_UNITS=no PPE_TEST_MAX_NP=4 PPE_FUZZ_CASES=100 PPE_REQUIRE_VALGRIND=yes \
  make -j"$jobs" check > check.out 2>&1
if [ -f test-suite.log ]; then
  p=$(sed -n 's/^# PASS: *//p' test-suite.log)
  s=$(sed -n 's/^# SKIP: *//p' test-suite.log)
  f=$(($(sed -n 's/^# FAIL: *//p' test-suite.log) + $(sed -n 's/^# ERROR: *//p' test-suite.log) + $(sed -n 's/^# XPASS: *//p' test-suite.log)))
  pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
  grep -E '^(FAIL|ERROR|XPASS):' test-suite.log | head -n 40
else
  echo "petsc-cuda-check: no test-suite.log; the end of check.out:"
  tail -n 20 check.out
  fail=$((fail + 1))
fi
finish
