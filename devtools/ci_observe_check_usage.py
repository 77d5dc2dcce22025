# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: the usertools scripts given what they
cannot use (a missing file, a value out of range, no terminal for
dpdk-pmu-top's live view, no prometheus_client for the exporter): a
message and a status, never a traceback.
"""

import os
import shlex
import socket
import subprocess
import tempfile

from ci_common import REPO, report


# ---- missing input files -----------------------------------------------------

MISSING = "/nonexistent/pmu-ci"
MISSING_RUNS = [
    ("dpdk-pmu-traffic", ["count", MISSING + ".pcap"]),
    ("dpdk-pmu-traffic", ["write", MISSING + "/out.pcap"]),
    ("dpdk-pmu-exporter", ["--plugin-path", MISSING]),
    ("dpdk-pmu-top", ["--once", "--socket-path", MISSING]),
    ("dpdk-pmu-top", ["--socket-path", MISSING]),
]


def check_missing_files():
    """Every user-facing script of usertools/ given a file that is not there:
    a non-zero exit and one line on stderr that names the file (the live view
    of dpdk-pmu-top, without a terminal, says it needs one), no traceback."""
    for script, args in MISSING_RUNS:
        res = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "usertools", script)] +
                             args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=30, check=False)
        lines = res.stderr.strip().splitlines()
        report(res.returncode != 0 and len(lines) == 1 and "Traceback" not in res.stderr and
               (MISSING in lines[0] or "terminal" in lines[0]),
               f"{script} {shlex.join(args)}: exit {res.returncode}, "
               f"\"{lines[-1] if lines else ''}\"", res.stderr[-500:])


# ---- arguments out of range ---------------------------------------------------

# (script, arguments, exit status, what its last line on stderr says)
BAD_RUNS = [
    ("dpdk-pmu-exporter", ["-p", "70000"], 2, "argument -p/--port: invalid port '70000'"),
    ("dpdk-pmu-exporter", ["-p", "-1"], 2, "argument -p/--port: invalid port '-1'"),
    ("dpdk-pmu-exporter", ["-t", "0"], 2, "argument -t/--timeout: invalid timeout '0'"),
    ("dpdk-pmu-exporter", ["-t", "-1"], 2, "argument -t/--timeout: invalid timeout '-1'"),
    ("dpdk-pmu-top", ["--once", "-t", "0"], 2, "argument -t/--timeout: invalid timeout '0'"),
    ("dpdk-pmu-top", ["--once", "-t", "-1"], 2, "argument -t/--timeout: invalid timeout '-1'"),
    ("dpdk-pmu-traffic", ["count", "TEXT"], 1, "TEXT: not a pcap (magic number 0x"),
    ("dpdk-pmu-top", ["--once", "-s", "TEXT"], 1, "TEXT: not a socket"),
    ("dpdk-pmu-top", ["--once", "-s", "DEAD"], 1, "DEAD: no application listens there"),
]


def run_script(script, args, env=None):
    """usertools/SCRIPT ARGS with Debian's python3; its CompletedProcess."""
    return subprocess.run(["/usr/bin/python3", os.path.join(REPO, "usertools", script)] +
                          args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=30, check=False, env=env)


def check_bad_arguments():
    """The usertools scripts given a value they cannot use: refused where the
    arguments are parsed, argparse's way (usage, a line naming the option,
    exit 2), or a line on what is wrong with the file (exit 1); never a
    traceback. Then dpdk-pmu-exporter where prometheus_client does not import:
    --help works, a run says what it needs."""
    with tempfile.TemporaryDirectory(prefix="ci-observe-bad.") as tmp:
        text = os.path.join(tmp, "passwd.txt")
        with open(text, "w", encoding="utf-8") as f:
            f.write("root:x:0:0:root:/root:/bin/bash\n" * 4)
        # The socket of an application that ended: there, no one listening.
        dead = os.path.join(tmp, "dpdk_telemetry.v2")
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as sock:
            sock.bind(dead)
        for script, args, status, want in BAD_RUNS:
            args = [{"TEXT": text, "DEAD": dead}.get(a, a) for a in args]
            want = want.replace("TEXT", text).replace("DEAD", dead)
            res = run_script(script, args)
            lines = res.stderr.strip().splitlines()
            report(res.returncode == status and lines and want in lines[-1] and
                   "Traceback" not in res.stderr,
                   f"{script} {shlex.join(args).replace(tmp + '/', '')}: exit "
                   f"{res.returncode}, \"{(lines[-1] if lines else '').replace(tmp + '/', '')}\"",
                   f"want exit {status} and \"{want}\": {res.stderr[-500:]}")
        # A prometheus_client that does not import, first on the path.
        with open(os.path.join(tmp, "prometheus_client.py"), "w", encoding="utf-8") as f:
            f.write("raise ImportError('no prometheus_client here')\n")
        res = run_script("dpdk-pmu-exporter", ["--help"], dict(os.environ, PYTHONPATH=tmp))
        report(res.returncode == 0 and res.stdout.startswith("usage: dpdk-pmu-exporter") and
               not res.stderr, "dpdk-pmu-exporter --help without prometheus_client: "
               f"exit {res.returncode}, the usage", res.stderr[-500:])
        res = run_script("dpdk-pmu-exporter", ["-p", "1"], dict(os.environ, PYTHONPATH=tmp))
        report(res.returncode == 1 and "needs the python module prometheus_client" in
               res.stderr and "Traceback" not in res.stderr,
               "dpdk-pmu-exporter without prometheus_client: exit "
               f"{res.returncode}, what it needs", res.stderr[-500:])



def check_no_terminal():
    """dpdk-pmu-top's live view without a terminal (stdin not one, or stdout
    not one): exit 1 and the line saying it needs one, nothing on stdout
    (curses wrote its escape codes there before it failed)."""
    master, slave = os.openpty()
    try:
        for what, stdin in (("stdin /dev/null", subprocess.DEVNULL),
                            ("stdin a terminal, stdout a pipe", slave)):
            res = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "usertools",
                                                                   "dpdk-pmu-top"),
                                  "-s", MISSING], stdin=stdin, capture_output=True,
                                 timeout=30, check=False, env=dict(os.environ, TERM="xterm"))
            err = res.stderr.decode(errors="replace").strip().splitlines()
            report(res.returncode == 1 and not res.stdout and len(err) == 1 and
                   "the live view needs a terminal" in err[0],
                   f"dpdk-pmu-top live view, {what}: exit {res.returncode}, "
                   f"{len(res.stdout)} bytes on stdout, \"{err[-1] if err else ''}\"",
                   f"stdout {res.stdout[:24]!r}, stderr {res.stderr[-300:]!r}")
    finally:
        os.close(master)
        os.close(slave)

