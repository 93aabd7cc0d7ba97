#!/usr/bin/env python3
"""The test lists are complete and in number order: TESTS (every tests/tNNN-*.sh, in number order
after PPE_LONG_TESTS, the longest tests that start first), check_PROGRAMS (every tests/tNNN-*.c)
and PPE_DEVICE_TESTS of tests/Makemodule.am, and the table of docs/testing.md (every script). Prints one TAP line per list ("ok - ..." or
"not ok - ..." with what is missing, unknown, listed twice or out of order).
Usage: check-test-lists.py SRCDIR"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
tests = os.listdir(os.path.join(root, 'tests'))
scripts = sorted(f[:-3] for f in tests if re.match(r't\d{3}-[\w-]+\.sh$', f))
progs = sorted(f[:-2] for f in tests if re.match(r't\d{3}-[\w-]+\.c$', f))

# the variables of Makemodule.am in the order they are written (continuation lines joined)
with open(os.path.join(root, 'tests', 'Makemodule.am')) as f:
    mk = re.sub(r'\\\n', ' ', f.read())
var = {}
for line in mk.split('\n'):
    m = re.match(r'(\w+)\s*(\+?=)\s*(.*)', line)
    if not m:
        continue
    name, op, val = m.groups()
    items = []
    for tok in val.split():
        ref = re.match(r'\$\((\w+)\)$', tok)
        if ref:
            items += var.get(ref.group(1), [])
        elif re.match(r'tests/t\d{3}-', tok):
            items.append(re.sub(r'\.sh$', '', os.path.basename(tok)))
    var[name] = (var.get(name, []) if op == '+=' else []) + items

with open(os.path.join(root, 'docs', 'testing.md')) as f:
    table = [m.group(1) for m in re.finditer(r'^\| (t\d{3}-[\w-]+) \|', f.read(), re.M)]

long = var.get('PPE_LONG_TESTS', [])
alltests = var.get('TESTS', [])
rest = alltests[len(long):] if alltests[:len(long)] == long else alltests
lists = [('tests/Makemodule.am TESTS after PPE_LONG_TESTS', rest, [x for x in scripts if x not in long]),
         ('tests/Makemodule.am check_PROGRAMS', var.get('check_PROGRAMS', []), progs),
         ('tests/Makemodule.am PPE_DEVICE_TESTS', var.get('PPE_DEVICE_TESTS', []), None),
         ('docs/testing.md table', table, scripts)]
for name, got, want in lists:
    errs = ['missing ' + x for x in (want or []) if x not in got]
    errs += ['not a test ' + x for x in got if x not in scripts + progs]
    errs += ['also in PPE_LONG_TESTS ' + x for x in got if x in long and name.startswith('tests/Makemodule.am TESTS')]
    errs += ['twice ' + x for x in sorted(set(got)) if got.count(x) > 1]
    errs += [a + ' before ' + b for a, b in zip(got, got[1:]) if a >= b]
    print(('not ok - ' if errs else 'ok - ') + f'{name}: {len(got)} tests in number order'
          + ('' if want is None else f', all {len(want)} listed') + ''.join('; ' + e for e in errs))
first = alltests[:len(long)] == long and len(long) > 0 and all(x in scripts for x in long)
print(('ok - ' if first else 'not ok - ') + f'tests/Makemodule.am TESTS begins with PPE_LONG_TESTS ({" ".join(long)})')
