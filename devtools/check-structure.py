#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""The library's structure, from its object files' symbols (nm):

 - no circle of files: file A depends on file B when A uses a symbol B
   defines; the graph must have no cycle;
 - the library's lock is taken (pmu_lock, rte_spinlock_lock, from the
   sources: the latter is inline) in at most two files, pmu_state.c and pmu.c;
 - perf descriptors are opened, mapped, unmapped and controlled in one file,
   pmu_fd.c (syscall, mmap, munmap, ioctl), and no other file reads a perf
   descriptor (read() only in pmu_fd.c and pmu_sysfs.c, which reads sysfs);
 - the drivers include only pmu_driver.h of the library's headers.

Usage: check-structure.py BUILD_DIR. Prints ok:/FAIL: lines and a RESULT line.
"""
import collections
import glob
import os
import re
import subprocess
import sys

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
objs = sorted(glob.glob(os.path.join(build, 'lib', 'librte_pmu.so*.p', '*.o')))
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(('  ok: ' if ok else '  FAIL: ') + what)
    if ok:
        passed += 1
    else:
        failed += 1


def name(o):
    # pmu_pmu_fd.c.o -> pmu_fd.c; .._drivers_pmu_x86_pmu_x86.c.o -> drivers/pmu_x86.c
    b = os.path.basename(o)[:-2]
    if b.startswith('.._drivers_'):
        return 'drivers/' + b.split('_pmu_')[-1]
    return b[len('pmu_'):] if b.startswith('pmu_pmu') else b


if not objs:
    print('check-structure: no object files under %s/lib' % build)
    sys.exit(1)

defined, used = {}, collections.defaultdict(set)
for o in objs:
    out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBRVWtdbr' and parts[1].isupper():
            defined.setdefault(parts[2], name(o))
        elif len(parts) == 2 and parts[0] == 'U':
            used[name(o)].add(parts[1])
files = sorted({name(o) for o in objs})
deps = {f: sorted({defined[s] for s in used[f] if s in defined and defined[s] != f})
        for f in files}

# Cycles: strongly connected components of more than one file.
index, low, stack, on, sccs = {}, {}, [], set(), []


def strong(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in deps[v]:
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))


sys.setrecursionlimit(10000)
for f in files:
    if f not in index:
        strong(f)
print('structure: %d files, %d dependencies' % (len(files), sum(len(d) for d in deps.values())))
for c in sccs:
    print('    circle: ' + ' <-> '.join(c))
check(not sccs, 'no circle of files in lib/pmu (%d found)' % len(sccs))

# rte_spinlock_lock() is inline: the sources tell who takes the lock.
lockers = sorted(os.path.basename(src) for src in glob.glob(os.path.join(repo, 'lib', 'pmu', '*.c'))
                 if re.search(r'\b(pmu_lock|rte_spinlock_(try)?lock)\(', open(src).read()))
check(set(lockers) <= {'pmu_state.c', 'pmu.c'},
      'the lock is taken in at most two files: ' + ', '.join(lockers))

perf_calls = {'syscall', 'mmap', 'mmap64', 'munmap', 'ioctl'}
perf_files = sorted(f for f in files if used[f] & perf_calls)
check(perf_files == ['pmu_fd.c'],
      'perf descriptors opened, mapped, unmapped in one file: ' + ', '.join(perf_files))
readers = sorted(f for f in files if used[f] & {'read', 'pread', 'pread64'})
check(set(readers) <= {'pmu_fd.c', 'pmu_sysfs.c'},
      'read() only in pmu_fd.c (perf) and pmu_sysfs.c (sysfs): ' + ', '.join(readers))

bad = []
for src in glob.glob(os.path.join(repo, 'drivers', 'pmu', '*', '*.c')):
    for inc in re.findall(r'#include "([^"]+)"', open(src).read()):
        if inc != 'pmu_driver.h':
            bad.append('%s: %s' % (os.path.relpath(src, repo), inc))
check(not bad, 'drivers include only pmu_driver.h' + (': ' + ', '.join(bad) if bad else ''))

print('RESULT passed=%d failed=%d skipped=0' % (passed, failed))
sys.exit(1 if failed else 0)
