#!/bin/sh
# ppe-mpiexec.sh -n N prog args...: tests/lib.sh's ppe_mpiexec as an mpiexec-like command,
# for tools of ours that take a launcher (ppe-study --mpiexec, t505), so that their MPI runs
# get the same settings, time limit and memory checks as every other launch of the tests.
# What the memory checks find goes to the ledger of the calling test, PPE_PARENT_LEDGER
# (tap_done there turns it into failing TAP lines).
[ "$1" = -n ] && [ $# -ge 3 ] || { echo "usage: $0 -n N program [arguments]" >&2; exit 2; }
_np=$2
shift 2
PPE_LEDGER=$(mktemp)
export PPE_LEDGER
. "$srcdir/tests/lib.sh"
ppe_mpiexec "$_np" "$@"
_rc=$?
cat "$ppe_ledger" >> "${PPE_PARENT_LEDGER:?set by the calling test to its ledger}"
rm -f "$ppe_ledger"
exit $_rc
