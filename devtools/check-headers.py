#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Check that each installed header compiles alone, in C and in C++, with
the warnings of DPDK's chkincs and the conversion warnings on; in C also
without ALLOW_EXPERIMENTAL_API (as upstream's rte_pmu.h does: only a call
of an experimental function warns, not the include) and with -Wpedantic.

    check-headers.py --cc 'CC...' [--cxx 'CXX...'] --pkg-config PKGCONFIG
        -I DIR [-I DIR...] HEADER...

Each HEADER is the only include of a unit compiled with WARNINGS and
ALLOW_EXPERIMENTAL_API, then (C) without it, then (C) with -Wpedantic;
DPDK's include folders are system folders (their warnings are DPDK's). An "ok:" or "FAIL:" line a header and language, then
the RESULT line; exit status 1 when one failed, 77 when there is no header.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

from ci_common import report, result, skip

WARNINGS = ['-Wall', '-Wextra', '-Wconversion', '-Wsign-conversion', '-Werror']


def dpdk_cflags(pkg_config):
    """DPDK's compile flags, its include folders as system ones."""
    out = subprocess.run([pkg_config, '--cflags', 'libdpdk'], check=True,
                         capture_output=True, text=True).stdout
    return [g for f in shlex.split(out) for g in
            (['-isystem', f[2:]] if f.startswith('-I') else [f])]


# The passes: (language, what the line says, flags beside WARNINGS).
PASSES = [('c', 'c', ['-DALLOW_EXPERIMENTAL_API', '-DALLOW_INTERNAL_API']),
          ('c++', 'c++', ['-DALLOW_EXPERIMENTAL_API', '-DALLOW_INTERNAL_API']),
          ('c', 'c, without ALLOW_EXPERIMENTAL_API', []),
          ('c', 'c, -Wpedantic', ['-DALLOW_EXPERIMENTAL_API', '-Wpedantic'])]


def compiles(compiler, lang, header, cflags, folder, flags):
    """Compile a unit that includes @header alone; (ok, output)."""
    unit = os.path.join(folder, 'unit.' + ('c' if lang == 'c' else 'cpp'))
    with open(unit, 'w', encoding='utf-8') as f:
        f.write('#include <%s>\n' % os.path.basename(header))
    cmd = compiler + ['-x', lang, '-c', '-o', os.devnull] + WARNINGS + flags + cflags + [unit]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
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
    compilers = {'c': shlex.split(args.cc), 'c++': shlex.split(args.cxx)}
    with tempfile.TemporaryDirectory() as folder:
        for header in args.headers:
            for lang, what, flags in PASSES:
                if not compilers[lang]:
                    skip('%s (%s): no C++ compiler' % (os.path.basename(header), what))
                    continue
                ok, out = compiles(compilers[lang], lang, header, cflags, folder, flags)
                report(ok, '%s (%s)' % (os.path.basename(header), what), '\n' + out)
    return result()


if __name__ == '__main__':
    sys.exit(main())
