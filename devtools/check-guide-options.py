#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""Check that every dpdk-test-pmu option the tool guide shows is accepted.

    check-guide-options.py TOOL GUIDE.rst

Each option its Options section defines (``-e, --events LIST``) is given to
the tool alone, with a placeholder value when it takes one, then --help:
getopt must not refuse it (a bad value is the tool's business). Each
example's options (``$ dpdk-test-pmu [EAL options] -- OPTIONS``) are given
as written, then --help: exit status 0 and the usage. An "ok:" or "FAIL:"
line a check, then the RESULT line; exit status 1 when one failed.
"""

import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

from ci_common import report, result

# EAL arguments that work anywhere: the check is about the tool's options.
EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "-m", "64",
       "--no-telemetry", "--log-level=lib.eal:error"]

# What glibc's getopt_long prints when it refuses an option.
GETOPT_REFUSED = re.compile(r"unrecognized option|invalid option|"
                            r"requires an argument|doesn't allow an argument|"
                            r"is ambiguous")

# ``-e, --events LIST``, ``-j, --json-output`` or ``--csv``.
DEFINITION = re.compile(r"``(-[A-Za-z0-9](?:, --[a-z][a-z0-9-]*)?|--[a-z][a-z0-9-]*)"
                        r"(?: ([A-Z][A-Z_]*))?``")


def options_section(lines):
    """The lines of the Options section."""
    start = None
    for i, line in enumerate(lines):
        if start is None and line.strip() == "Options" and lines[i + 1].startswith("---"):
            start = i + 2
        elif start is not None and i + 1 < len(lines) and \
                re.match(r"^-{3,}$", lines[i + 1]) and line.strip():
            return lines[start:i]
    return lines[start:] if start is not None else []


def definitions(lines):
    """(option, metavar or None) of each option the Options section defines."""
    found = []
    for line in options_section(lines):
        if not line.startswith("``-"):
            continue
        for m in DEFINITION.finditer(line):
            for opt in m.group(1).split(", "):
                found.append((opt, m.group(2)))
    return found


def examples(lines):
    """The tool arguments (after --) of each command line the guide runs."""
    found = []
    for line in lines:
        m = re.search(r"(?:^|\$ |\s|/)dpdk-test-pmu (.*)$", line.strip())
        if m is None or "[options]" in line:
            continue
        try:
            words = shlex.split(m.group(1), comments=False)
        except ValueError:
            continue
        # Stop at what the shell does with the output.
        kept = []
        for w in words:
            if w in ("|", "||", "&&", ";") or re.match(r"^\d?[<>]", w):
                break
            kept.append(w)
        if "--" not in kept:
            continue
        found.append(kept[kept.index("--") + 1:])
    return found


def run_all(tool, arg_lists):
    """Run the tool once per argument list, two at a time, each with its
    own file prefix; the results in order."""
    def one(k):
        prefix = "--file-prefix=guide-options-%d-%d" % (os.getpid(), k)
        return subprocess.run([tool] + EAL + [prefix, "--"] + arg_lists[k],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, range(len(arg_lists))))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tool, guide = sys.argv[1:]
    with open(guide, encoding="utf-8") as f:
        lines = f.read().splitlines()

    defs = definitions(lines)
    cmds = examples(lines)
    if not defs or not cmds:
        report(False, "%s shows %d option definitions and %d example command lines; "
               "expected some of each" % (guide, len(defs), len(cmds)))

    runs = run_all(tool, [[opt] + (["1"] if metavar else []) + ["--help"]
                          for opt, metavar in defs] + [args + ["--help"] for args in cmds])
    for (opt, metavar), r in zip(defs, runs):
        refused = GETOPT_REFUSED.search(r.stderr)
        # The usage comes on stdout for --help, on stderr after a bad value;
        # without it, the tool did not get as far as its options (EAL).
        report(refused is None and "Usage:" in r.stdout + r.stderr,
               "%s%s (the guide's Options section): accepted" %
               (opt, " " + metavar if metavar else ""), "refused, exit %d: %s" %
               (r.returncode, refused.group(0) if refused else r.stderr.strip()[-200:]))

    for args, r in zip(cmds, runs[len(defs):]):
        shown = " ".join(shlex.quote(a) for a in args)
        err = [e for e in r.stderr.splitlines() if not e.startswith("EAL:")]
        report(r.returncode == 0 and r.stdout.startswith("Usage:"),
               "example '-- %s': accepted" % shown,
               "exit %d: %s" % (r.returncode, " / ".join(err[:2])))
    sys.exit(result())


if __name__ == "__main__":
    main()
