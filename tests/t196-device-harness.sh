#!/bin/sh
# The PETSc-free device harness (tests/device, run on a GPU by tests/device/run-on-gpu.sh)
# built with the host C compiler and run on the emulation back end at small sizes, so that it
# cannot rot between GPU runs: every launcher of src/backend/device against the single-source
# bodies in plain host loops (its checks, passed through one by one), its exit status, and
# its JSON lines (one per check and per timing, a device line and a summary that agrees with
# the checks). Timings are printed, never asserted.
. "$srcdir/tests/lib.sh"
light_skip "device harness"
# the harness has no PETSc: a tree built against another PETSc runs the same program again
if [ "${PPE_TEST_HARNESS:-yes}" = no ]; then
  tap_skip "device harness: PPE_TEST_HARNESS=no (it has no PETSc; build/ and build-asan/ ran it)"
  tap_done
fi
# in the sanitizer tree, the harness and the emulated launch code are instrumented too
hflags=
[ "$PPE_SANITIZERS" = yes ] && hflags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
dir="$abs_top_builddir/tests/t196-harness"
rm -rf "$dir"
out=$(CC="${PPE_CC:-cc}" HARNESS_CFLAGS="$hflags" "$srcdir/tests/device/run-on-gpu.sh" --emu --dir "$dir" 2>&1)
rc=$?
# the harness's checks, renumbered into this script's stream
echo "$out" | grep -E '^(not )?ok [0-9]+ - ' > "$dir.tap" || true
while IFS= read -r line; do
  case $line in
    "not ok"*) tap_notok "harness: ${line#not ok * - }" ;;
    *) tap_ok "harness: ${line#ok * - }" ;;
  esac
done < "$dir.tap"
nchecks=$(wc -l < "$dir.tap")
rm -f "$dir.tap"
[ "$rc" -eq 0 ] || echo "$out" | tail -n 20 | sed 's/^/# /'
tap_check "$rc" "run-on-gpu.sh --emu exits 0 ($nchecks checks)"
# no compiler warning: CI builds the library with -Werror, the harness must be as clean
if echo "$out" | grep -q 'warning:'; then tap_notok "the harness compiles without warnings"; else tap_ok "the harness compiles without warnings"; fi
python3 - "$dir/harness.json" "$nchecks" > "$dir.json.tap" <<'PYEOF'
import json, sys
rows, bad = [], 0
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    lines = []
for l in lines:
    try:
        rows.append(json.loads(l))
    except ValueError:
        bad += 1
def check(c, msg): print(("ok - " if c else "not ok - ") + msg)
kinds = [r.get("type") for r in rows]
checks = [r for r in rows if r.get("type") == "check"]
times = [r for r in rows if r.get("type") == "time"]
summ = [r for r in rows if r.get("type") == "summary"]
check(lines and not bad, "harness.json: %d lines, %d malformed" % (len(lines), bad))
check(kinds[:1] == ["device"] and kinds[-1:] == ["summary"], "harness.json begins with the device line and ends with the summary")
check(len(checks) == int(sys.argv[2]) and summ and summ[0]["checks"] == len(checks) and summ[0]["failed"] == sum(1 for c in checks if not c["ok"]),
      "one JSON line per printed check (%d), the summary agrees" % len(checks))
fam = set(c["kernel"].split()[0] for c in checks)
check(len(checks) >= 100, "at least 100 checks (%d) over %d kernels" % (len(checks), len(fam)))
need = ["kernel", "size", "seconds", "bytes", "GBps", "frac_copy"]
check(times and all(all(k in t for k in need) and t["seconds"] > 0 for t in times), "%d timing lines with %s, positive times" % (len(times), ", ".join(need)))
PYEOF
while IFS= read -r line; do
  case $line in
    "not ok - "*) tap_notok "${line#not ok - }" ;;
    "ok - "*) tap_ok "${line#ok - }" ;;
  esac
done < "$dir.json.tap"
[ -s "$dir.json.tap" ] || tap_notok "the JSON check printed nothing"
rm -f "$dir.json.tap"
# kept for a look when something failed
[ "$rc" -eq 0 ] && rm -rf "$dir"
tap_done
