# Shared part of the valgrind memcheck tests t980 and t981 (docs/reliability.md "valgrind"): sourced after lib.sh. Every launch runs under memcheck (lib.sh's ppe_mpiexec with
# PPE_VALGRIND=yes: --error-exitcode 23, tests/valgrind.supp and OpenMPI's suppressions); a report
# is a failure of the launch and, through the ledger, one of its own. Leaks are not valgrind's job
# here (--leak-check=no): LeakSanitizer in the sanitizer tree and PETSc's -malloc_dump in every
# test cover them.
# Not in the sanitizer tree (valgrind cannot run an ASan binary). Without valgrind the tests
# are skipped, unless PPE_REQUIRE_VALGRIND=yes (run-tests.sh sets it: CI must run them).
valgrind_prereq() {
  if [ "$PPE_SANITIZERS" = yes ]; then
    tap_skip "valgrind memcheck: not in the sanitizer tree (it runs in build/)"
    tap_done
  fi
  light_skip "valgrind memcheck"
  if [ -z "$VALGRIND" ] || [ ! -x "$VALGRIND" ]; then
    if [ "${PPE_REQUIRE_VALGRIND:-no}" = yes ]; then
      tap_notok "valgrind memcheck: configure found no valgrind (Debian package valgrind; ./setup.sh installs it)"
    else
      tap_skip "valgrind memcheck: configure found no valgrind (Debian package valgrind)"
    fi
    tap_done
  fi
  export PPE_VALGRIND=yes
}
