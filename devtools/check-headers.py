#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""Check that each installed header compiles alone, in C and in C++, with
the warnings of DPDK's chkincs and the conversion warnings on.

    check-headers.py --cc 'CC...' [--cxx 'CXX...'] --pkg-config PKGCONFIG
        -I DIR [-I DIR...] HEADER...

Each HEADER (a path; it is included by its file name) is the only include
of a tiny translation unit, compiled with -Wall -Wextra -Wconversion
-Wsign-conversion -Werror and ALLOW_EXPERIMENTAL_API, by the C compiler
and, when given, the C++ compiler. The include folders of DPDK (from
pkg-config libdpdk) are system folders: their own warnings are DPDK's.

Each check is a line "ok: ..." or "FAIL: ..." with the compiler's output;
the last line is "RESULT passed=P failed=F skipped=S". Exit status 1 when
a check failed, 77 (a skip) when there is no header.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

WARNINGS = ['-Wall', '-Wextra', '-Wconversion', '-Wsign-conversion', '-Werror']


def dpdk_cflags(pkg_config):
    """DPDK's compile flags, its include folders as system ones."""
    out = subprocess.run([pkg_config, '--cflags', 'libdpdk'], check=True,
                         capture_output=True, text=True).stdout
    flags = []
    for f in shlex.split(out):
        if f.startswith('-I'):
            flags += ['-isystem', f[2:]]
        else:
            flags.append(f)
    return flags


def check(compiler, lang, header, cflags, folder):
    """Compile a unit that includes @header alone; (ok, output)."""
    unit = os.path.join(folder, 'unit.' + ('c' if lang == 'c' else 'cpp'))
    with open(unit, 'w', encoding='utf-8') as f:
        f.write('#include <%s>\n' % os.path.basename(header))
    cmd = compiler + ['-x', lang, '-c', '-o', os.devnull] + WARNINGS + \
        ['-DALLOW_EXPERIMENTAL_API', '-DALLOW_INTERNAL_API'] + cflags + [unit]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cc', required=True)
    ap.add_argument('--cxx', default='')
    ap.add_argument('--pkg-config', default='pkg-config')
    ap.add_argument('-I', dest='includes', action='append', default=[])
    ap.add_argument('headers', nargs='*')
    args = ap.parse_args()

    if not args.headers:
        print('RESULT passed=0 failed=0 skipped=1 (no header)')
        return 77
    cflags = ['-I' + d for d in args.includes] + dpdk_cflags(args.pkg_config)
    compilers = [(shlex.split(args.cc), 'c')]
    if args.cxx:
        compilers.append((shlex.split(args.cxx), 'c++'))
    passed = failed = 0
    skipped = 0 if args.cxx else len(args.headers)
    with tempfile.TemporaryDirectory() as folder:
        for header in args.headers:
            for compiler, lang in compilers:
                ok, out = check(compiler, lang, header, cflags, folder)
                name = '%s (%s)' % (os.path.basename(header), lang)
                if ok:
                    passed += 1
                    print('ok: ' + name)
                else:
                    failed += 1
                    print('FAIL: %s\n%s' % (name, out))
    if not args.cxx:
        print('note: no C++ compiler, C++ not checked')
    print('RESULT passed=%d failed=%d skipped=%d' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
