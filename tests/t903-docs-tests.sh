#!/bin/sh
# The test lists are complete and in number order: tests/Makemodule.am's TESTS (every script;
# in number order after PPE_LONG_TESTS, the longest tests, which start first), check_PROGRAMS
# (every C test) and PPE_DEVICE_TESTS, and docs/testing.md's table.
. "$srcdir/tests/lib.sh"
out=$(python3 "$srcdir/tests/check-test-lists.py" "$srcdir" 2>&1)
rc=$?
seen=0
while IFS= read -r _line; do
  case "$_line" in
    "ok - "*) tap_ok "${_line#ok - }"; seen=1 ;;
    "not ok - "*) tap_notok "${_line#not ok - }"; seen=1 ;;
    "") ;;
    *) echo "# $_line" ;;
  esac
done <<TAPEOF
$out
TAPEOF
[ "$rc" -eq 0 ] && [ "$seen" -eq 1 ] || tap_notok "tests/check-test-lists.py exited with status $rc"
tap_done
