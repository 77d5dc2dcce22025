#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Each library's version nodes against its headers' markers, as DPDK
requires of its own libraries. For every lib/NAME/version.map (a new library
is covered by adding its folder):

  - a symbol declared __rte_experimental is in the EXPERIMENTAL node, and a
    symbol in EXPERIMENTAL is declared __rte_experimental;
  - a symbol in INTERNAL is declared __rte_internal, and a symbol declared
    __rte_internal is in INTERNAL (an application cannot call an
    __rte_internal function, so what public inline code calls is
    experimental);
  - every symbol of a node is declared in a header of the library, and, where
    BUILD_DIR/lib/librte_NAME.so is built, defined there in that node.

A marker is found on the declaration it precedes: on the line(s) before the
return type, or on the same line. A static inline function is exported by no
node and its marker is not checked.

One exception: a per-lcore variable (RTE_DECLARE_PER_LCORE(type, name), the
symbol per_lcore_NAME) in EXPERIMENTAL needs no marker when a public header
(rte_*.h) declares it. It cannot carry one: __rte_experimental puts its
symbol in section .text.experimental, and the variable's definition would
then place a thread-local variable in a code section, a section type conflict
with any experimental function of the same file (GCC and clang both refuse
it). Such a variable is checked otherwise like the others.

Usage: check-symbols.py [BUILD_DIR]   (default build). Prints one ok:/FAIL:
line per library, then a RESULT line; exits 1 when a check failed.
"""
import glob
import os
import re
import subprocess
import sys

from ci_common import REPO, report, result

MARKERS = {'__rte_experimental': 'EXPERIMENTAL', '__rte_internal': 'INTERNAL'}
PER_LCORE = re.compile(r'RTE_DECLARE_PER_LCORE\s*\(.*,\s*(\w+)\s*\)', re.S)
IDENT = re.compile(r'[A-Za-z_]\w*')


def version_nodes(path):
    """{symbol: node} of a version.map; its nodes in order."""
    text = re.sub(r'#.*', '', open(path).read())
    symbols, nodes = {}, []
    for node, body in re.findall(r'(\w+)\s*\{(.*?)\}\s*\w*\s*;', text, re.S):
        nodes.append(node)
        scope = 'global'
        for item in re.findall(r'[^;]+;', re.sub(r'\b(global|local)\s*:', r'\1:;', body)):
            item = item.strip().rstrip(';').strip()
            if item in ('global:', 'local:'):
                scope = item[:-1]
            elif scope == 'global' and item:
                symbols[item] = node
    return symbols, nodes


def strip_source(text):
    """C text without comments, strings, preprocessor lines and the
    extern "C" guard."""
    text = re.sub(r'/\*.*?\*/|//[^\n]*', ' ', text, flags=re.S)
    text = re.sub(r'(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r'extern\s*""\s*\{', ' ', text)


def top_level(text):
    """The top-level declarations of stripped C text (function bodies and
    struct members left out), each up to its ';' or '{'."""
    decls, cur, depth = [], [], 0
    for c in text:
        if depth > 0:
            depth += {'{': 1, '}': -1}.get(c, 0)
            continue
        if c in ';{':
            decls.append(''.join(cur))
            cur = []
            depth = 1 if c == '{' else 0
        elif c != '}':
            cur.append(c)
    return decls


def declared(decl):
    """(name, kind) declared by one declaration, kind 'per_lcore', 'static',
    'function' or 'variable'; None for a type alone."""
    m = PER_LCORE.search(decl)
    if m:
        return 'per_lcore_' + m.group(1), 'per_lcore'
    decl = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', decl, flags=re.S)
    words = IDENT.findall(decl)
    if not words or words[0] == 'typedef':
        return None
    if '(' in decl:
        m = re.search(r'(\w+)\s*\(', decl)
        kind = 'static' if 'static' in words else 'function'
        return m.group(1), kind
    m = re.search(r'(\w+)\s*(?:\[.*)?(?:=.*)?$', decl.strip(), re.S)
    if m is None or words[0] in ('struct', 'union', 'enum') and len(words) <= 2:
        return None
    return m.group(1), 'static' if 'static' in words else 'variable'


def declarations(folder):
    """{name: (markers, kind, public)} of the declarations in the library's
    headers; public: in a header rte_*.h."""
    out = {}
    for h in sorted(glob.glob(os.path.join(folder, '*.h'))):
        public = os.path.basename(h).startswith('rte_')
        for decl in top_level(strip_source(open(h).read())):
            d = declared(decl)
            if d is None:
                continue
            marks = {MARKERS[w] for w in IDENT.findall(decl) if w in MARKERS}
            name, kind = d
            old = out.get(name, (set(), kind, False))
            out[name] = (old[0] | marks, kind, old[2] or public)
    return out


def built(build, lib):
    """{symbol: node} defined in build/lib/librte_LIB.so; None unbuilt; a
    string: why nm could not read it."""
    so = os.path.join(build, 'lib', 'librte_%s.so' % lib)
    if not os.path.exists(so):
        return None
    try:
        nm = subprocess.run(['nm', '-D', '--defined-only', '--with-symbol-versions', so],
                            capture_output=True, text=True, check=False)
    except OSError as e:
        return 'nm: %s' % e
    if nm.returncode != 0:
        return 'nm: %s' % nm.stderr.strip()
    syms = {}
    for line in nm.stdout.splitlines():
        sym = line.split()[-1]
        if '@' in sym:
            name, node = re.split(r'@+', sym, maxsplit=1)
            syms[name] = node
    return syms


def check_library(build, folder):
    lib = os.path.basename(folder)
    nodes, _ = version_nodes(os.path.join(folder, 'version.map'))
    decls = declarations(folder)
    so = built(build, lib)
    problems = []
    if isinstance(so, str):
        problems.append(so)
        so = None
    for name, (marks, kind, public) in sorted(decls.items()):
        if kind == 'static':
            continue
        for mark in sorted(marks):
            if nodes.get(name) != mark:
                problems.append('%s is __rte_%s but in %s' % (
                    name, mark.lower(), nodes.get(name, 'no node')))
    for name, node in sorted(nodes.items()):
        marks, kind, public = decls.get(name, (set(), None, False))
        if kind is None:
            problems.append('%s (%s) is declared in no header' % (name, node))
        elif node in MARKERS.values() and node not in marks and \
                not (node == 'EXPERIMENTAL' and kind == 'per_lcore' and public):
            problems.append('%s is in %s but not __rte_%s' % (name, node, node.lower()))
        if so is not None and so.get(name) != node:
            problems.append('%s (%s) is %s in librte_%s.so' % (
                name, node, 'in ' + so[name] if name in so else 'not defined', lib))
    counts = ', '.join('%s %d' % (n, list(nodes.values()).count(n))
                       for n in sorted(set(nodes.values())))
    what = 'lib/%s: %d symbols (%s), their headers%s agree' % (
        lib, len(nodes), counts or 'none',
        ' and librte_%s.so' % lib if so is not None else
        ' (librte_%s.so not built: not compared)' % lib)
    report(not problems, what if not problems else 'lib/%s' % lib, '; '.join(problems))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    maps = sorted(glob.glob(os.path.join(REPO, 'lib', '*', 'version.map')))
    if not maps:
        report(False, 'version maps', 'no lib/*/version.map under %s' % REPO)
    for m in maps:
        check_library(build, os.path.dirname(m))
    sys.exit(result())


if __name__ == '__main__':
    main()
