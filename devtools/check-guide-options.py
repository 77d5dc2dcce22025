#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""Check that every dpdk-test-pmu option the tool guide shows is accepted.

    check-guide-options.py TOOL GUIDE.rst

The guide shows the tool's options in two places: the definitions of its
Options section (``-e, --events LIST``) and the command lines of its
examples (``$ dpdk-test-pmu [EAL options] -- OPTIONS``). Each option of a
definition is given to the tool alone, with a placeholder value when it
takes one, and must not be refused by getopt (an unknown option, a
missing or unexpected argument); a bad placeholder value is the tool's
business, not the guide's. Each example's options are given to the tool as
the guide writes them, followed by --help, and must be accepted as a whole
(exit status 0 and the usage on stdout): names and values.

Each check is a line "ok: ..." or "FAIL: ..."; the last line is
"RESULT passed=P failed=F skipped=S". Exit status 1 when a check failed or
the guide shows no option at all.
"""

import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

# EAL arguments that work on any Linux machine, whatever the guide's
# example uses: the check is about the tool's own options.
EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "-m", "64",
       "--no-telemetry", "--log-level=lib.eal:error"]

# What glibc's getopt_long prints when it refuses an option.
GETOPT_REFUSED = re.compile(r"unrecognized option|invalid option|"
                            r"requires an argument|doesn't allow an argument|"
                            r"is ambiguous")

# ``-e, --events LIST`` or ``-c, --csv`` and ``-j, --json``.
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
    """Run the tool once per argument list, two at a time (each run is
    mostly EAL's start), each with its own file prefix; the results in
    order."""
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
    passed = failed = 0

    defs = definitions(lines)
    cmds = examples(lines)
    if not defs or not cmds:
        print("FAIL: %s shows %d option definitions and %d example command lines; "
              "expected some of each" % (guide, len(defs), len(cmds)))
        failed += 1

    runs = run_all(tool, [[opt] + (["1"] if metavar else []) + ["--help"]
                          for opt, metavar in defs] + [args + ["--help"] for args in cmds])
    for (opt, metavar), r in zip(defs, runs):
        refused = GETOPT_REFUSED.search(r.stderr)
        # The usage comes on stdout for --help, on stderr after a bad value;
        # without it, the tool did not get as far as its options (EAL).
        if refused is None and "Usage:" in r.stdout + r.stderr:
            print("ok: %s%s (the guide's Options section): accepted" %
                  (opt, " " + metavar if metavar else ""))
            passed += 1
        else:
            print("FAIL: %s (the guide's Options section): refused by the tool "
                  "(exit %d): %s" % (opt, r.returncode,
                                     refused.group(0) if refused else r.stderr.strip()[-200:]))
            failed += 1

    for args, r in zip(cmds, runs[len(defs):]):
        shown = " ".join(shlex.quote(a) for a in args)
        if r.returncode == 0 and r.stdout.startswith("Usage:"):
            print("ok: example '-- %s': accepted" % shown)
            passed += 1
        else:
            err = [e for e in r.stderr.splitlines() if not e.startswith("EAL:")]
            print("FAIL: example '-- %s': exit %d: %s" %
                  (shown, r.returncode, " / ".join(err[:2])))
            failed += 1

    print("RESULT passed=%d failed=%d skipped=0" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
