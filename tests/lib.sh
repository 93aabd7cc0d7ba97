# Shared helpers of the test scripts: TAP output, the one MPI launcher, rank
# selection. Sourced by tests/t*.sh; run from the build directory.

. "${PPE_TEST_ENV:?run the tests through make check}"
srcdir=${srcdir:-$abs_top_srcdir}
bindir="$abs_top_builddir"

# PPE_TEST_ONLY: script names (without .sh), space-separated; every other script shows as one
# skip. run-tests.sh's make distcheck sets it: the tarball's build and a smoke subset of its
# tests (the whole suite ran on the same sources in build/)
if [ -n "${PPE_TEST_ONLY:-}" ]; then
  case " $PPE_TEST_ONLY " in
    *" $(basename "$0" .sh) "*) ;;
    *)
      echo "ok 1 - $(basename "$0" .sh): not in PPE_TEST_ONLY (the smoke subset of make distcheck) # SKIP"
      echo "1..1"
      exit 0
      ;;
  esac
fi

# PPE_TEST_SKIP: script names (without .sh), space-separated, that show as one skip: a tree of
# run-tests.sh that leaves out what another tree already ran on the same sources (CI time)
if [ -n "${PPE_TEST_SKIP:-}" ]; then
  case " $PPE_TEST_SKIP " in
    *" $(basename "$0" .sh) "*)
      echo "ok 1 - $(basename "$0" .sh): in PPE_TEST_SKIP (run-tests.sh ran it in another tree) # SKIP"
      echo "1..1"
      exit 0
      ;;
  esac
fi

# The sanitizer tree runs only 1- and 2-rank cases (CI time); anything else
# shows up as skipped.
if [ "$PPE_SANITIZERS" = yes ]; then
  PPE_TEST_MAX_NP=${PPE_TEST_MAX_NP:-2}
  # Allocation stacks by the fast (frame-pointer) unwinder, ASan's default: the full
  # unwinder at every malloc made each launch 0.5 s instead of 0.33 s. Its stacks stop after
  # the first frame inside a library built without frame pointers (OpenMPI, PETSc, libc),
  # which is enough for tests/lsan.supp: an OpenMPI allocation names an OpenMPI library in
  # that frame, except through libc's vasprintf (suppressed by name; nothing of ours calls
  # it). A leak report from such a library lacks the callers: rerun one launch with
  # ASAN_OPTIONS=fast_unwind_on_malloc=0 for the whole stack.
  # (exit code PPE_MEMCHECK_EXIT below: PETSc's error codes are 55-99)
  export ASAN_OPTIONS="detect_leaks=1:exitcode=23${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$abs_top_srcdir/tests/lsan.supp:print_suppressions=0:exitcode=23"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=23"
  # ppe_mpiexec starts the programs through libtool (so the preload reaches the program,
  # not its wrapper script and the sed it runs) with tests/keepdso.c preloaded: OpenMPI's
  # components stay mapped, and the leak check at exit takes about 0.3 s instead of 3 s
  ppe_keepdso="$abs_top_builddir/tests/.libs/libppekeepdso.so"
  [ -f "$ppe_keepdso" ] || { echo "Bail out! $ppe_keepdso missing: make check builds it"; exit 1; }
fi
PPE_TEST_MAX_NP=${PPE_TEST_MAX_NP:-8}

# Memory checks of every launch (docs/reliability.md). The sanitizers and valgrind exit with
# PPE_MEMCHECK_EXIT when they report; PETSc's own allocator, at PetscFinalize(), lists what
# was PetscMalloc()ed and never freed (-malloc_dump, lines "[rank] N bytes function() at
# file:line"). Not -malloc_debug: it validates the whole heap at every allocation, which made
# the create/destroy cycles of t950 7 times slower (over a minute on a loaded CI machine);
# out-of-bounds writes are the sanitizers' and valgrind's job. ppe_mpiexec writes every such launch to
# the script's ledger, and tap_done makes each a failure of its own: a memory error fails
# the test even where the script only parses the output of the launch.
PPE_MEMCHECK_EXIT=23
# (PPE_LEDGER names another file: the fuzzer gives each of its launches its own)
ppe_ledger=${PPE_LEDGER:-$abs_top_builddir/tests/$(basename "$0" .sh).memcheck}
: > "$ppe_ledger"
if [ "${PPE_MALLOC_CHECK:-yes}" = yes ]; then
  export PETSC_OPTIONS="-malloc_dump${PETSC_OPTIONS:+ $PETSC_OPTIONS}"
fi

tap_n=0
tap_ok()    { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
tap_notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
tap_skip()  { tap_n=$((tap_n + 1)); echo "ok $tap_n - $* # SKIP"; }
# tap_check STATUS DESCRIPTION: ok when STATUS is 0
tap_check() { if [ "$1" -eq 0 ]; then tap_ok "$2"; else tap_notok "$2"; fi; }
tap_done() {
  if [ -s "$ppe_ledger" ]; then
    while IFS= read -r _line; do tap_notok "memory check: $_line"; done < "$ppe_ledger"
  fi
  rm -f "$ppe_ledger"
  echo "1..$tap_n"
  exit 0
}

# light_skip WHAT: with PPE_TEST_LIGHT=yes (run-tests.sh's make distcheck, whose make check
# repeats the suite on the release tarball after build/ ran all of it) a long hardening
# test shows as one skip and stops
light_skip() {
  if [ "${PPE_TEST_LIGHT:-no}" = yes ]; then
    tap_skip "$*: PPE_TEST_LIGHT=yes (make distcheck; the full test ran in build/)"
    tap_done
  fi
}

# np_allowed N: whether N ranks run in this tree
np_allowed() { [ "$1" -le "$PPE_TEST_MAX_NP" ]; }

# ppe_mpiexec N prog args...: the only way tests start MPI programs. Allows root,
# oversubscribes the two cores, keeps OpenMPI on shared memory, yields when idle
# (8 ranks on 2 cores), and kills anything that hangs. Two settings keep launches short:
# - the ob1 messaging layer and no UCX one-sided component: UCX's start-up probe costs
#   0.2 s of idle time in every MPI_Init (0.31 s against 0.10 s for an empty MPI program on
#   our machines); on one node ob1 talks over shared memory (vader) anyway;
# - no grace period between SIGTERM and SIGKILL when a rank calls MPI_Abort (PETSc's
#   error exit): OpenMPI otherwise waits 1 s before it ends the job. The aborting rank has
#   printed its error by then, and the other ranks are being killed in either case.
# Standard output is passed on when the program has ended (it is scanned for PETSc's list of
# unfreed memory); standard error as it comes. PPE_VALGRIND=yes runs each rank under
# valgrind's memcheck (tests/valgrind.supp; not in the sanitizer tree; leaks only with
# PPE_VALGRIND_LEAK_CHECK=full, where OpenMPI's own show up).
ppe_mpiexec() {
  _pm_np=$1
  shift
  if [ "$PPE_SANITIZERS" = yes ]; then
    set -- "$abs_top_builddir/libtool" --mode=execute env "LD_PRELOAD=$PPE_ASAN_RUNTIME $ppe_keepdso" "$@"
  elif [ "${PPE_VALGRIND:-no}" = yes ]; then
    set -- "$abs_top_builddir/libtool" --mode=execute "$VALGRIND" -q --error-exitcode=$PPE_MEMCHECK_EXIT \
      --leak-check="${PPE_VALGRIND_LEAK_CHECK:-no}" --num-callers=40 --suppressions="$abs_top_srcdir/tests/valgrind.supp" \
      ${PPE_MPI_VALGRIND_SUPP:+--suppressions="$PPE_MPI_VALGRIND_SUPP"} "$@"
  fi
  _pm_out=$(mktemp)
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
    OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0 \
    timeout -k 10 "${PPE_TEST_TIMEOUT:-300}" "$MPIEXEC" --oversubscribe -n "$_pm_np" "$@" > "$_pm_out"
  _pm_rc=$?
  cat "$_pm_out"
  case $_pm_rc in 124 | 137) echo "mpiexec -n $_pm_np timed out after ${PPE_TEST_TIMEOUT:-300} s (exit $_pm_rc)" >&2 ;; esac
  if [ $_pm_rc -eq $PPE_MEMCHECK_EXIT ]; then
    echo "exit $_pm_rc (sanitizer or valgrind report) of: mpiexec -n $_pm_np $*" >> "$ppe_ledger"
  fi
  if grep -Eq '^\[ *[0-9]+\] *[0-9]+ bytes ' "$_pm_out"; then
    echo "PETSc memory not freed at PetscFinalize (-malloc_dump) by: mpiexec -n $_pm_np $*" >> "$ppe_ledger"
  fi
  rm -f "$_pm_out"
  return $_pm_rc
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

# ---- PETSc releases (3.18 through 3.25): match the meaning of PETSc's output, not its layout

# petsc_ge MAJOR.MINOR: whether the PETSc of this build is that release or newer
petsc_ge() {
  awk -v have="$PPE_PETSC_VERSION" -v want="$1" 'BEGIN {
    split(have, h, "."); split(want, w, ".")
    exit !(h[1] + 0 > w[1] + 0 || (h[1] + 0 == w[1] + 0 && h[2] + 0 >= w[2] + 0)) }'
}

# need_package PKG WHAT: skip WHAT (one TAP line) and return 1 when the PETSc of this build
# lacks the optional package PKG (hypre or mumps); return 0 when it has it
need_package() {
  case "$1" in
    hypre) _np_has=$PPE_PETSC_HAS_HYPRE ;;
    mumps) _np_has=$PPE_PETSC_HAS_MUMPS ;;
    *) _np_has=no ;;
  esac
  [ "$_np_has" = yes ] && return 0
  tap_skip "$2: PETSc $PPE_PETSC_VERSION was built without $1"
  return 1
}

# help_text OPT and help_value OPT read PETSc's -help output on standard input and print the
# description of option OPT (with its Set function in parentheses), or its current value.
# The layout of an entry changed between releases: "-opt <v>: text", "-opt <now v : formerly
# d> text", "-opt: <now v : formerly d> text", "-opt: <v>: text", ...
_help_entry() {
  awk -v want="$1" -v o="$2" '
    { s = $0; sub(/^[ \t]+/, "", s)
      if (substr(s, 1, length(o)) != o) next
      r = substr(s, length(o) + 1)
      if (r != "" && r !~ /^[:< ]/) next
      sub(/^:? */, "", r)
      v = ""
      if (substr(r, 1, 1) == "<") {
        e = index(r, ">"); v = substr(r, 2, e - 2); r = substr(r, e + 1); sub(/^:? */, "", r)
        sub(/^now /, "", v); sub(/ : .*$/, "", v)
      }
      print (want == "value" ? v : r); exit }'
}
help_text() { _help_entry text "$1"; }
help_value() { _help_entry value "$1"; }

# unknown_choice_re VALUE OPTION CHOICES: a grep pattern for PETSc's error on a value that is
# not one of an option's choices (3.19 and later quote the value)
unknown_choice_re() { echo "Unknown option \"\{0,1\}$1\"\{0,1\} for $2\. Available options: $3"; }

# expected_output NAME: the expected-output file tests/output/NAME.out for this PETSc, or, where
# PETSc's own text differs between releases, NAME-petscX.Y.out of the newest release X.Y that
# is not newer than this PETSc
expected_output() {
  _eo_best="$srcdir/tests/output/$1.out"
  # oldest release first: the last one this PETSc is not older than wins
  for _eo_f in $(ls "$srcdir/tests/output/$1"-petsc*.out 2>/dev/null | sort -V); do
    _eo_v=${_eo_f##*-petsc}
    petsc_ge "${_eo_v%.out}" && _eo_best=$_eo_f
  done
  echo "$_eo_best"
}

# Vec number $2 (from 0) of a file of -ksp_view_solution binary (PETSc's format: class id and n as
# PetscInts (int32, or int64 in a 64-bit-index PETSc: the one whose records tile the file), n
# float64, big-endian; a DMDA Vec in the natural ordering at every rank count)
# against number $4 of file $3 scaled by $5: max|x - s y| / max|x|, the means removed first
# (the bubbles problem is singular)
vecs_reldiff() {
  python3 - "$@" <<'PY'
import struct, sys
def records(d, hdr, h):
    o = 0; out = []
    while o + h <= len(d):
        n = struct.unpack(hdr, d[o:o + h])[1]
        if n <= 0 or o + h + 8 * n > len(d): return None
        out.append(struct.unpack(">%dd" % n, d[o + h:o + h + 8 * n])); o += h + 8 * n
    return out if o == len(d) and out else None
def vec(path, idx):
    d = open(path, "rb").read()
    out = records(d, ">ii", 8) or records(d, ">qq", 16)
    if out is None: sys.exit("not a file of PETSc binary Vecs: " + path)
    v = out[int(idx)]; m = sum(v) / len(v)
    return [x - m for x in v]
a = vec(sys.argv[1], sys.argv[2]); b = vec(sys.argv[3], sys.argv[4]); s = float(sys.argv[5])
print("%.3e" % (max(abs(x - s * y) for x, y in zip(a, b)) / max(abs(x) for x in a)))
PY
}
# is_num S: S is one decimal number (a failed comparison prints a message instead)
is_num() { echo "$1" | grep -Eq '^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'; }

# mg_factor NP ARGS...: the asymptotic convergence factor of the stationary iteration
# x += B (b - A x), B one application of PC ppemg on ppe-solve's problem ARGS on NP ranks: the
# geometric mean of the residual reductions of steps 5 to 8 (unpreconditioned norms from
# -ksp_monitor); "none" when the run printed no residuals
mg_factor() {
  _np=$1; shift
  ppe_mpiexec "$_np" "$bindir/src/tools/ppe-solve" "$@" -ksp_type richardson -pc_type ppemg -ksp_max_it 8 -ksp_rtol 1e-30 -ksp_norm_type unpreconditioned -ksp_monitor 2>&1 |
    awk '/KSP Residual norm/ { r[$1] = $5 } END { if (r[4] > 0 && r[8] > 0) printf "%.4f", (r[8] / r[4]) ^ 0.25; else print "none" }'
}
# spread F...: max/min of the numbers (0 if one is not a positive number)
spread() { echo "$@" | awk '{ mn = 1e300; mx = 0; for (i = 1; i <= NF; i++) { if (!($i > 0)) { print 0; exit } if ($i < mn) mn = $i; if ($i > mx) mx = $i } printf "%.3f", mx / mn }'; }
# mg_factor_sizes NP BOUND "SIZES" ARGS...: mg_factor at every size of SIZES (-ppe_grid_n);
# prints "F1 F2 ...|SPREAD"; status 0 when every factor is at most BOUND and max/min <= 1.2
mg_factor_sizes() {
  _np=$1; _bound=$2; _sizes=$3; shift 3
  _fs=""; _ok=0
  for _n in $_sizes; do
    _f=$(mg_factor "$_np" "$@" -ppe_grid_n "$_n")
    _fs="$_fs $_f"
    is_num "$_f" && fle "$_f" "$_bound" || _ok=1
  done
  _s=$(spread $_fs)
  fle "$_s" 1.2 && fge "$_s" 1 || _ok=1
  echo "${_fs# }|$_s"
  return $_ok
}
