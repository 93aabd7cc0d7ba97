#!/bin/bash
# PPEKit quick start, step 2: the whole test suite.
#
#   1. ./setup.sh --no-run (installs missing Debian packages, builds build/)
#   2. make check in build/ (unit tests, MPI tests at 1, 2, 3, 4 and 8 ranks, the fault suite,
#      the first 120 fuzzed option sets of the seed, determinism across rank counts, valgrind
#      memcheck)
#   3. a second tree, build-asan/, with -fsanitize=address,undefined: unit tests
#      and the 1- and 2-rank tests (more ranks show as skipped)
#   4. the device back ends: build-cuda/ and build-hip/ configured --with-cuda (nvcc, sm_80
#      and sm_90) and --with-hip (Debian's hipcc, gfx90a), every device file compiled and
#      linked; their tests t191-t195 run there by make check-device (no GPU here:
#      -ppe_backend cuda|hip must fail cleanly, auto must fall back to the host, the
#      emulation must match the host); the PETSc-free GPU harness of tests/device builds with
#      nvcc as on a bare GPU machine (ci/gpu-harness-build.sh; make check runs it emulated, t196)
#   5. the installed package (ci/installed-check.sh): ppe-solve runs without LD_LIBRARY_PATH;
#      examples/embed.c built with pkg-config ppekit alone links exactly one PETSc and runs
#      on 2 ranks with PETSc's leak list (-malloc_dump) empty; compiled against another
#      PETSc's headers it stops at compile time. Then configure refuses a complex or
#      single-precision PETSc by name (ci/configure-refusals.sh), and the tree keeps the
#      structure rules of docs/hacking.md and its .clang-format (ci/structure-check.sh)
#   6. make distcheck (the release tarball builds everything and its make check runs a
#      smoke subset, one test per area, at 1 rank: PPE_TEST_ONLY, tests/lib.sh; the whole
#      suite of the same sources ran in step 2)
#   7. Debian's petsc64 (PETSc 3.18.5 with 64-bit PetscInt): build-petsc64/, compiled by
#      clang with -Wshorten-64-to-32 as an error (no unchecked PetscInt -> int narrowing),
#      the fast tests (1 and 2 ranks, no hardening tests)
#   8. PETSc 3.25.4 from ../shared/vendor/petsc-3.25.4.tar.xz (no hypre, no MUMPS), built once
#      per machine into a cache outside the clone (ci/petsc-vendor.sh; about 6 minutes on 2
#      cores, then none): build-petsc325/, the full make check with its rank loops up to 4 ranks
#      (the 6- and 8-rank cases ran against 3.18 in build/), and the installed package
#      as in step 5
#   9. the GPU bundle (ci/gpu-bundle.sh): PETSc 3.25.4 --with-cuda (built once per machine into
#      the same cache, about 11 minutes on 2 cores, then none), PPEKit's CUDA build against it,
#      ppe-solve and ppe-bench with every library they load, packed within 48 MiB; checked
#      self-contained unpacked in an empty folder (ci/gpu-bundle-check.sh: ldd, solves at 1
#      and 2 ranks under env -i with the system's copies hidden, the loader's trace), and the
#      GPU machine's script run on the emulated back end (tests/device/run-solves-on-gpu.sh
#      --emu)
# Every tree is configured --enable-werror: a compiler warning in PPEKit's code fails CI.
#
# Ends with one line "N passed, N failed[, N skipped]" summing every test that ran
# (each check of steps 5 and 8's installed package counts as one, distcheck as one) and
# exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")"
top=$PWD
jobs=$(nproc)
t0=$(date +%s)
# elapsed: seconds since the start, printed with each step (CI's time budget)
elapsed() { echo "$(($(date +%s) - t0)) s"; }

PPE_CONFIGURE_FLAGS=--enable-werror ./setup.sh --no-run || { echo "0 passed, 1 failed"; exit 1; }

pass=0 fail=0 skip=0
# count BUILD_DIR: add the summary of BUILD_DIR/test-suite.log to the totals
count() {
  local log="$1/test-suite.log" p f s
  if [ ! -f "$log" ]; then
    echo "run-tests: no $log: the test suite did not run; the end of $1/check.out:"
    tail -n 20 "$1/check.out" 2>/dev/null
    fail=$((fail + 1))
    return
  fi
  p=$(sed -n 's/^# PASS: *//p' "$log")
  s=$(sed -n 's/^# SKIP: *//p' "$log")
  f=$(($(sed -n 's/^# FAIL: *//p' "$log") + $(sed -n 's/^# ERROR: *//p' "$log") + $(sed -n 's/^# XPASS: *//p' "$log")))
  pass=$((pass + p))
  skip=$((skip + s))
  fail=$((fail + f))
  grep -E '^(FAIL|ERROR|XPASS):' "$log" | head -n 40
}

# configure_tree ARGS...: in the current build tree, run ../configure ARGS when it has not run,
# when configure is newer, or when ARGS changed (a warm tree of an older run.sh); then print
# configure's summary of the PETSc it found
configure_tree() {
  if [ ! -f Makefile ] || [ ../configure -nt config.status ] || [ "$(cat configure.flags 2>/dev/null)" != "$*" ]; then
    ../configure "$@" > configure.out || { cat configure.out; return 1; }
    echo "$*" > configure.flags
  fi
  sed -n '/PPEKit .* configured/,/run-time/p' configure.out
}

echo "== make check (build/) [at $(elapsed)]"
rm -f build/test-suite.log
# the fuzzer's first 120 cases of its seed (a developer's make check runs 300; 100 already
# draw every documented option)
PPE_FUZZ_CASES=120 PPE_REQUIRE_VALGRIND=yes make -C build -j"$jobs" check > build/check.out 2>&1
count build
# the fuzzer's report, which CI's output must show: cases and outcomes by kind
if [ -f build/tests/t960-fuzz.log ]; then
  echo "== option fuzzing report (build/tests/t960-fuzz.log)"
  sed -n '/^# ppe-fuzz:/,/^# documented options drawn/s/^# /   /p' build/tests/t960-fuzz.log
fi

echo "== sanitizer tree (build-asan/): -fsanitize=address,undefined, 1 and 2 ranks [at $(elapsed)]"
mkdir -p build-asan
(
  cd build-asan
  configure_tree --enable-sanitizers --enable-werror > /dev/null || exit 1
  make -j"$jobs" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
  rm -f test-suite.log
  # the determinism runs, the long 2D sweeps and the convergence sweep of t501 ran in build/;
  # their code paths are also in the tests kept here (CI time)
  PPE_TEST_SKIP="t970-determinism t616-pc-2d t624-pc-fftptdma-2d t630-pc-fftptdma-external-2d t501-solve-mms" make -j"$jobs" check > check.out 2>&1
  exit 0
) || fail=$((fail + 1))
count build-asan

echo "== device back ends: --with-cuda and --with-hip builds, no-device checks [at $(elapsed)]"
for be in cuda hip; do
  (
    mkdir -p build-$be
    cd build-$be
    # the host code at -O1: this tree checks the device build, the host one is timed above
    configure_tree --with-$be --enable-werror CFLAGS="-g -O1" > /dev/null || exit 1
    # all of it: the library, the tools, the examples and the plugins
    make -j"$jobs" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
    rm -f test-suite.log
    # the device tests t191-t197 (tests/Makemodule.am's PPE_DEVICE_TESTS); the device-resident
    # solves of t197 run the emulation, the same code as in build/ (CI time)
    PPE_TEST_SKIP="t197-device-resident" make -j"$jobs" check-device > check.out 2>&1
    exit 0
  ) || fail=$((fail + 1))
  count build-$be
done

# checks SCRIPT ARGS...: a ci/ script's "ok - " and "not ok - " lines, one pass or fail each
checks() {
  local out
  out=$(bash "$@" 2>&1)
  echo "$out"
  pass=$((pass + $(echo "$out" | grep -c '^ok - ')))
  fail=$((fail + $(echo "$out" | grep -c '^not ok - ')))
  echo "$out" | grep -Eq '^(not )?ok - ' || { echo "run-tests: $1 printed no result"; fail=$((fail + 1)); }
}
installed() { checks ci/installed-check.sh "$@"; }
echo "== installed package: ppe-solve without LD_LIBRARY_PATH, examples/embed.c built with pkg-config ppekit, run on 2 ranks [at $(elapsed)]"
# another PETSc's headers: petsc64's (same release, 64-bit indices)
installed "$top/install" /usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real/include
echo "== the PETSc-free GPU harness builds with nvcc and fits a GPU machine's tree (tests/device/run-on-gpu.sh --build-only) [at $(elapsed)]"
checks ci/gpu-harness-build.sh
echo "== configure refuses complex and single-precision PETSc builds, by name [at $(elapsed)]"
checks ci/configure-refusals.sh /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real
echo "== the structure rules of docs/hacking.md: function length, host/device and 2D branches, no writes into another library's objects, duplication, .clang-format (ci/structure-check.sh) [at $(elapsed)]"
checks ci/structure-check.sh

echo "== make distcheck (the tarball builds everything; its make check runs a smoke subset at 1 rank) [at $(elapsed)]"
# the tarball must build and its tests run; the whole suite of the same sources ran in build/,
# so the tarball's check runs one test per area at 1 rank (CI within its 25 minutes)
smoke="t001-grid-eig t004-grid-2d t101-stencil-ops t201-tridiag-solve t501-solve-mms t611-pc-tileilu t621-pc-fftptdma t629-pc-fftptdma-external t712-ksp-cbcg-solve t902-docs-options"
if PPE_TEST_ONLY="$smoke" PPE_TEST_MAX_NP=1 PPE_TEST_LIGHT=yes make -C build -j"$jobs" distcheck > build/distcheck.out 2>&1; then
  pass=$((pass + 1))
  grep -A1 'archives ready' build/distcheck.out | tail -n 1
else
  fail=$((fail + 1))
  echo "run-tests: make distcheck failed:"
  tail -n 40 build/distcheck.out
fi

echo "== Debian's petsc64 (PETSc 3.18.5, 64-bit PetscInt): build-petsc64/, clang -Wshorten-64-to-32, fast tests at 1 and 2 ranks [at $(elapsed)]"
petsc64=/usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real
(
  mkdir -p build-petsc64
  cd build-petsc64
  # Open MPI's mpicc with clang underneath: its -Wshorten-64-to-32 reports every implicit
  # PetscInt (64-bit here) to int or PetscMPIInt conversion; --enable-werror makes it an error
  export OMPI_CC=clang
  configure_tree --with-petsc="$petsc64" --enable-werror CFLAGS="-g -O2 -Wshorten-64-to-32" || exit 1
  make -j"$jobs" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
  rm -f test-suite.log
  PPE_TEST_MAX_NP=2 PPE_TEST_LIGHT=yes make -j"$jobs" check > check.out 2>&1
  exit 0
) || fail=$((fail + 1))
count build-petsc64

echo "== PETSc 3.25.4 from ../shared/vendor: build-petsc325/, the full make check (up to 4 ranks), the installed package [at $(elapsed)]"
if petsc325=$(bash ci/petsc-vendor.sh); then
  echo "PETSc 3.25.4 at $petsc325 [at $(elapsed)]"
  (
    mkdir -p build-petsc325
    cd build-petsc325
    configure_tree --with-petsc="$petsc325" --prefix="$top/build-petsc325/install" --enable-werror || exit 1
    make -j"$jobs" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
    make install > install.out 2>&1 || { tail -n 40 install.out; exit 1; }
    rm -f test-suite.log
    # the fuzzer's first 100 cases of its seed (120 ran against 3.18 in build/); rank loops
    # up to 4 ranks (6 and 8 ran in build/)
    # (the PETSc-free device harness, t196, ran in build/ and build-asan/; the valgrind units
    # of PPEKit's own kernels, t980, in build/: t981 memchecks the solves through this PETSc)
    PPE_TEST_HARNESS=no PPE_TEST_VALGRIND_UNITS=no PPE_TEST_MAX_NP=4 PPE_FUZZ_CASES=100 PPE_REQUIRE_VALGRIND=yes make -j"$jobs" check > check.out 2>&1
    exit 0
  ) || fail=$((fail + 1))
  count build-petsc325
  # another PETSc's headers: Debian's 3.18
  installed "$top/build-petsc325/install" /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real/include
else
  echo "run-tests: PETSc 3.25.4 could not be built (ci/petsc-vendor.sh)"
  fail=$((fail + 1))
fi

echo "== the GPU bundle: PETSc 3.25.4 with CUDA (cached), PPEKit's CUDA build and every library they load, self-contained; the GPU run's script emulated (ci/gpu-bundle.sh, ci/gpu-bundle-check.sh, tests/device/run-solves-on-gpu.sh --emu) [at $(elapsed)]"
# With PETSc's CUDA build cached this step takes about 5 minutes. Without it, building it
# first takes about 11 more, which on a run already past 68 minutes would bring CI within
# minutes of its 90-minute limit: then the step is skipped (counted, and said why) and the
# build is started in the background, detached, so that the machine's cache holds it for the
# next run (ci/petsc-vendor.sh takes a lock and only marks a finished build as cached).
cuda_petsc=$(bash ci/petsc-vendor.sh --cuda --print)
if [ -f "$cuda_petsc/.ppekit-complete" ] || [ $(($(date +%s) - t0 + 1000)) -le 5100 ]; then
  rm -f build-gpu-bundle/ppekit-gpu-bundle.tar.xz
  checks ci/gpu-bundle.sh
  if [ -f build-gpu-bundle/ppekit-gpu-bundle.tar.xz ]; then
    checks ci/gpu-bundle-check.sh build-gpu-bundle/ppekit-gpu-bundle.tar.xz
    checks tests/device/run-solves-on-gpu.sh --emu --bundle build-gpu-bundle/ppekit-gpu-bundle.tar.xz
  fi
else
  skip=$((skip + 3))
  echo "run-tests: SKIP (3) the GPU bundle: PETSc 3.25.4 with CUDA is not in this machine's cache ($cuda_petsc) and building it now would take CI past 85 minutes; its build is started in the background for the next run (or run ci/petsc-vendor.sh --cuda once)"
  (setsid nohup bash ci/petsc-vendor.sh --cuda > /dev/null 2>&1 < /dev/null &)
fi

echo "== done [at $(elapsed)]"
summary="$pass passed, $fail failed"
[ "$skip" -gt 0 ] && summary="$summary, $skip skipped"
echo "$summary"
[ "$fail" -eq 0 ]
