#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Run the commands of the tools' guides (doc/guides/tools/*.rst), the
sources of the man pages, as a reader would: the Examples section of each,
its literal blocks in document order, in one folder per guide, so that a
file a command reads was made by a command before it.

  check_doc_commands.py [--list] FILE.rst...

A command is a line of a literal block that starts with "$ " (with its
lines ending in "\\" and its "> " lines); the lines up to the next command
are the output shown. The environment is the caller's: PATH names the
installed programs. Comments in the rst, before a block, say more:

  .. ci: skip (REASON)   the block's commands are not run (counted skipped)
  .. ci: timeout N       each command gets SIGINT after N s, the exit of a
                         program stopped so (124, 130) is accepted
  .. ci: output          the block is the output of the command before it

A command ending in "&" stays in the background until its guide is done;
while one does, a later command is tried again, for up to 30 s, until it
succeeds. A command passes when it exits 0 and, where the doc shows
output, half of the lines shown at least have their shape in what it
printed (numbers and runs of blanks aside). A block in an Examples section
that begins with a program's name and has no "$ " is a failure: its
commands would be silently left out. The files under /tmp a guide names
(.pcap, .txt, .json) are removed before and after it.
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SECTION = "Examples"
RETRY_S = 30
DEFAULT_TIMEOUT_S = 120
# First words of a block that is commands, not output.
COMMAND_WORD = re.compile(r"^(dpdk-[\w.-]+ |cp |cat |curl |for |\(echo|ovs-|make |ip )")
TMP_FILE = re.compile(r"/tmp/[\w.-]+\.(?:pcap|txt|json)\b")
NUMBER = re.compile(r"[-+]?\d[\d,]*(\.\d+)?(e[-+]?\d+)?")
counts = {"ok": 0, "FAIL": 0, "skip": 0}


def say(kind, what):
    counts[kind] += 1
    print(f"{kind}: {what}", flush=True)


def shape(line):
    """A line with its numbers as N and its blanks as one space."""
    return " ".join(NUMBER.sub("N", line).split())


def section(lines):
    """The lines of the Examples section (title, underline, up to the next
    title with the same underline)."""
    for i in range(len(lines) - 1):
        if lines[i].strip() == SECTION and re.fullmatch(r"-{3,}", lines[i + 1].strip()):
            for j in range(i + 2, len(lines) - 1):
                if re.fullmatch(r"-{3,}", lines[j + 1].strip()) and lines[j].strip() \
                        and len(lines[j + 1].strip()) == len(lines[j].strip()):
                    return i + 1, lines[i:j]
            return i + 1, lines[i:]
    return 0, []


def blocks(lines):
    """(first line number, text lines, directives) of each literal block:
    after a paragraph ending in "::" or a code-block, the indented lines."""
    out = []
    directives = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^\.\. ci: (skip|timeout|output)\s*(.*)$", line)
        if m:
            directives.append((m.group(1), m.group(2).strip()))
        opens = line.rstrip().endswith("::") and not line.startswith("..") or \
            re.match(r"^\.\. code-block:: (console|sh|shell|bash)", line)
        i += 1
        if not opens:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        start = i
        body = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        indent = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
        out.append((start, [b[indent:] for b in body], directives))
        directives = []
    return out


def commands(text):
    """[(command, output lines)] of a block's "$ " lines."""
    cmds = []
    i = 0
    while i < len(text):
        if not text[i].startswith("$ "):
            i += 1
            continue
        cmd = [text[i][2:]]
        i += 1
        while i < len(text) and (cmd[-1].endswith(("\\", "|")) or text[i].startswith("> ")):
            cmd.append(text[i][2:] if text[i].startswith("> ") else text[i])
            i += 1
        shown = []
        while i < len(text) and not text[i].startswith("$ "):
            shown.append(text[i])
            i += 1
        cmds.append(("\n".join(cmd), shown))
    return cmds


def shape_ok(shown, printed):
    """None where nothing is shown, else (matched, of, first unmatched)."""
    want = [shape(s) for s in shown if s.strip() and s.strip() not in ("...", "^C")]
    if not want:
        return None
    have = {shape(p) for p in printed.splitlines()}
    missing = [w for w in want if w not in have]
    return len(want) - len(missing), len(want), missing[:3]


def run(cmd, shown, limit, retry, where, name):  # pylint: disable=too-many-arguments
    """Run one command (bash, in the guide's folder); report it."""
    accept = {0} | ({124, 130} if limit else set())
    deadline = time.monotonic() + (RETRY_S if retry else 0)
    while True:
        try:
            proc = subprocess.run(["timeout", "-s", "INT", "-k", "10",
                                   str(limit or DEFAULT_TIMEOUT_S), "bash", "-c", cmd],
                                  cwd=where, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, errors="replace",
                                  check=False)
        except OSError as err:
            say("FAIL", f"{name}: {err}")
            return
        got = shape_ok(shown, proc.stdout)
        good = proc.returncode in accept and (got is None or got[0] * 2 >= got[1])
        if good or time.monotonic() >= deadline:
            break
        time.sleep(1)
    what = f"{name}: $ {cmd.splitlines()[0]}" + (" ..." if "\n" in cmd else "")
    if got is not None:
        what += f" (output's shape: {got[0]}/{got[1]} lines as shown)"
    if good:
        say("ok", what)
        return
    say("FAIL", f"{what}, exit {proc.returncode}")
    for m in (got[2] if got else []):
        print(f"    | shown, not printed: {m}")
    for line in proc.stdout.splitlines()[-8:]:
        print(f"    | {line}")


def stop(background):
    """SIGINT, then SIGKILL, to each background command's process group."""
    for proc in background:
        try:
            os.killpg(proc.pid, signal.SIGINT)
        except ProcessLookupError:
            continue
    for proc in background:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def guide(path, listing):
    """Run (or list) the commands of one guide's Examples section."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    name0 = os.path.basename(path)
    first, lines = section(lines)
    if not lines:
        say("FAIL", f"{name0}: no {SECTION} section")
        return
    where = tempfile.mkdtemp(prefix="doc-" + name0[:-4] + ".")
    # The files in /tmp that the guide names, gone first: a file left by an
    # earlier run must not stand in for a command the guide lacks.
    made = set(TMP_FILE.findall("\n".join(lines)))
    if not listing:
        for path in made:
            if os.path.isfile(path):
                os.unlink(path)
    background = []
    pending = None
    try:
        for start, text, directives in blocks(lines):
            kinds = dict(directives)
            line = first + start
            if "output" in kinds:
                if listing:
                    pass
                elif pending is None:
                    say("FAIL", f"{name0}:{line}: an output block after no command")
                else:
                    run(pending[0], text, *pending[1:])
                    pending = None
                continue
            if pending is not None:
                run(pending[0], [], *pending[1:])
                pending = None
            cmds = commands(text)
            if not cmds and text and COMMAND_WORD.match(text[0]):
                say("FAIL", f"{name0}:{line}: a block of commands without \"$ \": "
                    f"{text[0][:60]}")
            for k, (cmd, shown) in enumerate(cmds):
                name = f"{name0}:{line}"
                if "skip" in kinds:
                    say("skip", f"{name}: $ {cmd.splitlines()[0][:70]} {kinds['skip']}")
                elif listing:
                    print(f"{name}: {cmd}")
                elif cmd.rstrip().endswith("&") and not cmd.rstrip().endswith("&&"):
                    background.append(subprocess.Popen(
                        ["bash", "-c", cmd.rstrip()[:-1]], cwd=where,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                        start_new_session=True))
                    say("ok", f"{name}: $ {cmd.splitlines()[0]} ... (started)")
                else:
                    limit = int(kinds["timeout"]) if "timeout" in kinds else 0
                    args = (cmd, limit, bool(background), where, name)
                    if not shown and k == len(cmds) - 1:
                        # Its output may be the next block (".. ci: output").
                        pending = args
                    else:
                        run(cmd, shown, *args[1:])
        if pending is not None:
            run(pending[0], [], *pending[1:])
    finally:
        stop(background)
        subprocess.run(["rm", "-rf", where, *made], check=False)


def main():
    args = sys.argv[1:]
    listing = bool(args) and args[0] == "--list"
    files = args[1:] if listing else args
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    for path in files:
        try:
            guide(path, listing)
        except OSError as err:
            say("FAIL", f"{path}: {err.strerror}")
    print(f"doc commands: {counts['ok']} ok, {counts['FAIL']} failed, {counts['skip']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
