#!/bin/sh
# docs/options.md is what `make options-doc` writes from -help: regenerating it from this
# build must give the same file, so that a new option cannot be left out of the docs.
. "$srcdir/tests/lib.sh"
if [ "$PPE_SANITIZERS" = yes ]; then
  tap_skip "docs/options.md against -help: checked in the plain tree"
  tap_done
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
ok=0
bash "$srcdir/docs/tools/gen-options.sh" "$bindir" "$tmp" > /dev/null 2>&1 || ok=1
if [ $ok -eq 0 ] && ! diff -u "$srcdir/docs/options.md" "$tmp" > /dev/null; then
  diff -u "$srcdir/docs/options.md" "$tmp" | head -n 20 | sed 's/^/# /'
  ok=1
fi
n=$(grep -c '^| `-' "$tmp" 2>/dev/null || echo 0)
tap_check $ok "docs/options.md equals the table regenerated from -help ($n options; run make options-doc after adding one)"
tap_done
