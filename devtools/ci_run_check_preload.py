# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py on the preload itself: circles (its object
files depend on one another without a circle) and twice (its report at
exit, a second SIGINT arriving while it is written).
"""

import fcntl
import glob
import os
import select
import signal
import subprocess
import time

from ci_common import report


def circles(objdir):
    """No circle among the preload's files, by the symbols they use."""
    objs = sorted(glob.glob(os.path.join(objdir, "*.o")))
    where, uses = {}, {}
    for o in objs:
        name = os.path.basename(o).split(".c.o")[0] + ".c"
        uses[name] = set()
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                where[parts[2]] = name
            elif len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
    deps = {f: {where[u] for u in us if u in where and where[u] != f} for f, us in uses.items()}

    def reach(start):
        seen, todo = set(), list(deps[start])
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo.extend(deps[f])
        return seen
    looped = sorted(f for f in deps if f in reach(f))
    report(bool(objs) and not looped,
           f"preload files: no circle ({len(objs)} files; in circles: {looped or 'none'}): " +
           "; ".join(f"{f} -> {', '.join(sorted(d)) or '-'}" for f, d in sorted(deps.items())))


def twice(name, status, *cmd):
    """See the usage: a second SIGINT while the final report is written."""
    r, w = os.pipe()
    fcntl.fcntl(r, 1031, 4096)  # F_SETPIPE_SZ: the report blocks soon
    proc = subprocess.Popen(cmd, stderr=w, stdout=subprocess.DEVNULL, start_new_session=True)
    os.close(w)
    text, first, second, start = b"", False, None, time.monotonic()
    try:
        while time.monotonic() - start < 60:
            if not first and time.monotonic() - start >= 3:
                proc.send_signal(signal.SIGINT)
                first = True
            if second is None and b"stages, sampling" in text:
                time.sleep(1)
                proc.send_signal(signal.SIGINT)
                second = time.monotonic()
            ready = select.select([r], [], [], 0.1)[0]
            if ready:
                # A byte at a time until the table's first line, then on.
                data = os.read(r, 1 if second is None else 65536)
                if not data:
                    break
                text += data
            if second is not None and time.monotonic() - second > 20:
                break
        try:
            rc = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            rc = None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(r)
    text = text.decode(errors="replace")
    # Whole: down to the last section (the total over the lcores), not only
    # the first lcore's "(lcore total)", which the first 4 KiB hold already.
    whole = "(lcore total)" in text and "\ndpdk-pmu-run: total\n" in text
    report(second is not None and str(rc) in status.split(",") and whole,
           f"{name}: a second SIGINT while its report is written (its handler ends it "
           f"there): exit status {rc} (the program's own: {status}), the table whole",
           "never reached the table" if second is None else
           "still running 20 s after the second SIGINT: killed" if rc is None else
           f"exit status {rc}{'' if whole else ', the table cut'}; stderr's end: {text[-300:]}")
