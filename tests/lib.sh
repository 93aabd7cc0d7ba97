# Shared helpers of the test scripts: TAP output, the one MPI launcher, rank
# selection. Sourced by tests/t*.sh; run from the build directory.

. "${PPE_TEST_ENV:?run the tests through make check}"
srcdir=${srcdir:-$abs_top_srcdir}
bindir="$abs_top_builddir"

# The sanitizer tree runs only 1- and 2-rank cases (CI time); anything else
# shows up as skipped.
if [ "$PPE_SANITIZERS" = yes ]; then
  PPE_TEST_MAX_NP=${PPE_TEST_MAX_NP:-2}
  # full unwinding, so that leaks inside OpenMPI (built without frame pointers) match
  # the suppressions by library name
  export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0:exitcode=86${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$abs_top_srcdir/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  # ppe_mpiexec starts the programs through libtool (so the preload reaches the program,
  # not its wrapper script and the sed it runs) with tests/keepdso.c preloaded: OpenMPI's
  # components stay mapped, and the leak check at exit takes about 0.3 s instead of 3 s
  ppe_keepdso="$abs_top_builddir/tests/.libs/libppekeepdso.so"
  [ -f "$ppe_keepdso" ] || { echo "Bail out! $ppe_keepdso missing: make check builds it"; exit 1; }
fi
PPE_TEST_MAX_NP=${PPE_TEST_MAX_NP:-8}

tap_n=0
tap_ok()    { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
tap_notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
tap_skip()  { tap_n=$((tap_n + 1)); echo "ok $tap_n - $* # SKIP"; }
# tap_check STATUS DESCRIPTION: ok when STATUS is 0
tap_check() { if [ "$1" -eq 0 ]; then tap_ok "$2"; else tap_notok "$2"; fi; }
tap_done()  { echo "1..$tap_n"; exit 0; }

# np_allowed N: whether N ranks run in this tree
np_allowed() { [ "$1" -le "$PPE_TEST_MAX_NP" ]; }

# ppe_mpiexec N prog args...: the only way tests start MPI programs. Allows root,
# oversubscribes the two cores, keeps OpenMPI on shared memory, yields when idle
# (8 ranks on 2 cores), and kills anything that hangs.
ppe_mpiexec() {
  _np=$1
  shift
  if [ "$PPE_SANITIZERS" = yes ]; then
    set -- "$abs_top_builddir/libtool" --mode=execute env "LD_PRELOAD=$PPE_ASAN_RUNTIME $ppe_keepdso" "$@"
  fi
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
    OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    timeout -k 10 "${PPE_TEST_TIMEOUT:-300}" "$MPIEXEC" --oversubscribe -n "$_np" "$@"
}

# ppe_run_tap N LABEL prog args...: run a C test that prints "ok - ..." lines and
# turn them into numbered TAP lines tagged with the rank count; a crash, a hang or a
# non-zero exit is a failure of its own.
ppe_run_tap() {
  _np=$1
  _label=$2
  shift 2
  if ! np_allowed "$_np"; then
    tap_skip "[np=$_np] $_label: more ranks than this tree runs"
    return
  fi
  _out=$(ppe_mpiexec "$_np" "$@" 2>&1)
  _rc=$?
  _seen=0
  while IFS= read -r _line; do
    case "$_line" in
      "ok - "*) tap_ok "[np=$_np] ${_line#ok - }"; _seen=1 ;;
      "not ok - "*) tap_notok "[np=$_np] ${_line#not ok - }"; _seen=1 ;;
      "") ;;
      *) echo "# $_line" ;;
    esac
  done <<TAPEOF
$_out
TAPEOF
  if [ "$_rc" -ne 0 ] || [ "$_seen" -eq 0 ]; then
    tap_notok "[np=$_np] $_label exited with status $_rc"
  fi
}

# json_get KEY < output: value of a scalar key of the last JSON line (strings unquoted)
json_get() {
  grep '^{' | tail -n 1 | sed -n "s/.*\"$1\": *\"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p"
}

# Float comparisons: fle A B is true when A <= B, fge when A >= B.
fle() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
fge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
