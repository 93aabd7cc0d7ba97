#!/bin/bash
# The structure rules of docs/hacking.md, measured on src/ and plugins/, one "ok - " or
# "not ok - " line each (run-tests.sh counts them):
#
#   1. no function longer than 110 lines (a body from its "{" in column 0 to its "}");
#   2. at most 15 host/device branch lines: conditions (if, ?:, PetscCheck, comparisons)
#      that name where data lives or runs (the PPE_BACKEND_* values, dev/devio flags, device
#      handles) outside the back ends themselves (src/backend/) and the back-end selection
#      (src/sys/backend.c): the library calls a back end's table instead of branching;
#   3. at most 25 dimension branch lines (dim == 2, dim != 3, flat, ...): a 2D grid is the
#      dimension's case, not a special branch;
#   4. no write into the operations table or private data of an object of another library:
#      an assignment to ->ops->... or ->data is allowed only in the create (or set-ops)
#      function of a type PPEKit registers, which fills its own object's table;
#   5. where the duplicates tool is installed (it is not on CI's machines): no more pairs of
#      places sharing 6 or more lines in src/ and plugins/ together than the tree had when
#      this rule came (60), now at most 30 as issue 35 asked: duplication may shrink, never grow;
#   6. every C, CUDA and HIP file of the tree as the committed .clang-format writes it
#      (clang-format 14, Debian's), and no line of them longer than its 250 columns.
#
#   ci/structure-check.sh [-v]     (-v lists what each rule counted)
set -uo pipefail
cd "$(dirname "$0")/.."
verbose=${1:-}
python3 - "$verbose" <<'EOF'
import os, re, sys
verbose = sys.argv[1] == '-v'
files = []
for top in ('src', 'plugins'):
    for d, _, fs in os.walk(top):
        files += [os.path.join(d, f) for f in fs if re.search(r'\.(c|h|cu|hip|cxx)$', f)]
files.sort()
text = {p: open(p, errors='replace').read().split('\n') for p in files}

def strip(l):
    l = re.sub(r'"([^"\\]|\\.)*"', '""', l)
    return re.sub(r'/\*.*?\*/', '', l)

def code_lines(p):
    incomment = False
    for i, l in enumerate(text[p]):
        s = l.strip()
        if incomment:
            if '*/' in s: incomment = False
            continue
        if s.startswith('/*') and '*/' not in s:
            incomment = True
            continue
        if s.startswith(('/*', '*', '//', '#')): continue
        yield i + 1, strip(l)

def functions(p):
    lines, start = text[p], None
    for i, l in enumerate(lines):
        if l.startswith('{') and start is None:
            j = i - 1
            while j >= 0 and not lines[j].strip(): j -= 1
            sig = lines[j]
            if re.search(r'=\s*$', sig) or re.match(r'\s*(typedef|struct|enum|union)\b', sig): continue
            m = re.search(r'(\w+)\s*\(', sig)
            start, name = i, (m.group(1) if m else sig.strip())
        elif l.startswith('}') and start is not None:
            yield name, start + 1, i + 1
            start = None

def report(ok, what, items):
    print('%s - %s' % ('ok' if ok else 'not ok', what))
    if verbose or not ok:
        for it in items: print('#   ' + it)

# 1. function lengths
longf = ['%s:%d %s (%d lines)' % (p, s, n, e - s + 1) for p in files for n, s, e in functions(p) if e - s + 1 > 110]
report(not longf, 'no function of src/ or plugins/ over 110 lines (%d over)' % len(longf), longf)

# 2. host/device branch lines
tok = r'(PPE_BACKEND_(HOST|CUDA|HIP|EMU)\b|\bdevio\b|\bdev\b|->dev\b|\.dev\b|\bdevb\b|\bisdev\b|\bondev\b|\bon_device\b)'
cond = r'(\bif\s*\(|\?|\bPetscCheck\(|&&|\|\||==|!=)'
hd = ['%s:%d: %s' % (p, n, l.strip()[:150]) for p in files if not p.startswith('src/backend/') and p != 'src/sys/backend.c'
      for n, l in code_lines(p) if re.search(tok, l) and re.search(cond, l)]
report(len(hd) <= 15, 'host/device branch lines in src/ and plugins/: %d (at most 15)' % len(hd), hd)

# 3. dimension branch lines
dimre = r'(\bflat\b|\bdim\s*[!=]=\s*[23]\b|\b[23]\s*[!=]=\s*\w*dim\b)'
db = ['%s:%d: %s' % (p, n, l.strip()[:150]) for p in files for n, l in code_lines(p) if re.search(dimre, l)]
report(len(db) <= 25, 'dimension (2D) branch lines in src/ and plugins/: %d (at most 25)' % len(db), db)

# 4. writes into operations tables and private data
own = r'^((KSP|PC|Mat|Vec|DM)Create_\w+|(KSP|PC|Mat|Vec)SetOps_\w+)$'
bad, allowed = [], []
for p in files:
    fn = {}
    for name, s, e in functions(p):
        for k in range(s, e + 1): fn[k] = name
    for n, l in code_lines(p):
        if re.search(r'->(ops->\w+|data)\s*=[^=]', l):
            where = '%s:%d (%s): %s' % (p, n, fn.get(n, '?'), l.strip()[:120])
            (allowed if re.match(own, fn.get(n, '')) else bad).append(where)
report(not bad, 'writes into ->ops-> or ->data only in the create or set-ops function of a PPEKit type (%d there, %d elsewhere)' % (len(allowed), len(bad)), bad + (allowed if verbose else []))
EOF
dup_max=30
if command -v duplicates > /dev/null 2>&1; then
  n=0
  for d in src plugins; do
    k=$(cd "$d" && duplicates --most 1 --seconds 120 | sed -n '1s/^\([0-9]*\) pairs.*/\1/p')
    n=$((n + ${k:-0}))
  done
  if [ "$n" -le $dup_max ]; then echo "ok - duplicates in src/ and plugins/: $n pairs (at most $dup_max)"; else echo "not ok - duplicates in src/ and plugins/: $n pairs (at most $dup_max)"; fi
else
  echo "# duplicates in src/ and plugins/: not measured (the duplicates tool is not installed here)"
fi

# rule 6: the tree as .clang-format writes it, lines within its column limit
files=$(git ls-files 'src/*.[ch]' 'plugins/*.[ch]' 'include/*.h' 'tests/*.[ch]' 'examples/*.[ch]' 'src/*.cu' 'src/*.hip' 'ci/*.[ch]' 2>/dev/null)
[ -n "$files" ] || files=$(find src plugins include tests examples ci -name '*.[ch]' -o -name '*.cu' -o -name '*.hip')
if command -v clang-format > /dev/null 2>&1; then
  bad=$(for f in $files; do clang-format --dry-run --Werror "$f" > /dev/null 2>&1 || echo "$f"; done)
  if [ -z "$bad" ]; then echo "ok - $(echo "$files" | wc -w) C, CUDA and HIP files as .clang-format writes them"; else echo "not ok - files not as .clang-format writes them (clang-format -i FILE): $(echo $bad)"; fi
else
  echo "not ok - clang-format is not installed (Debian package clang-format): the format is not checked"
fi
long=$(echo "$files" | xargs awk 'length > 250 {print FILENAME ":" FNR ": " length " columns"}')
if [ -z "$long" ]; then echo "ok - no line of the C, CUDA and HIP files over 250 columns"; else echo "not ok - lines over 250 columns:"; echo "$long" | sed 's/^/#   /'; fi
