# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: dpdk-pmu-exporter started as its systemd
unit starts it (ExecStart= with the defaults expanded, run and scraped,
stopped by SIGTERM), on any free port (-p 0), and on a made-up
application (its counters, rte_pmu not initialised, the connection
closed during a scrape).
"""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

from ci_common import REPO, proc_stop, report, testpmd_start, testpmd_stop
from ci_observe_check_usage import MISSING


UNIT = "lib/systemd/system/dpdk-pmu-exporter@.service"


def env_file(path, env):
    """Add the KEY=VALUE lines of an EnvironmentFile to env (quotes removed)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, eq, value = line.strip().partition("=")
            if eq and not key.startswith(("#", ";")):
                value = value.strip()
                quoted = len(value) > 1 and value[0] == value[-1] and value[0] in "'\""
                env[key.strip()] = value[1:-1] if quoted else value


def exec_start(root, instance):
    """The command systemd runs for ExecStart= of ROOT's unit as instance
    INSTANCE: %i/%% replaced, Environment= then each EnvironmentFile= (in
    ROOT; "-": may be missing), a word "$VAR" split at white space, "${VAR}"
    replaced within its word."""
    env, line = {}, None
    with open(os.path.join(root, UNIT), encoding="utf-8") as f:
        for raw in f:
            key, _, value = raw.strip().replace("%i", instance).replace("%%", "%").partition("=")
            if key == "Environment":
                env.update(w.split("=", 1) for w in shlex.split(value))
            elif key == "EnvironmentFile":
                path = os.path.join(root, value.lstrip("-").lstrip("/"))
                if os.path.exists(path) or not value.startswith("-"):
                    env_file(path, env)
            elif key == "ExecStart":
                line = value.lstrip("-@:+!")
    argv = []
    for word in shlex.split(line or ""):
        whole = re.fullmatch(r"\$(\w+)", word)
        argv += env.get(whole.group(1), "").split() if whole else \
            [re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), word)]
    return argv


def scrape(url, timeout):
    """The exposition text at url, tried for up to timeout seconds."""
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                return resp.read().decode()
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def check_unit_exec(root, prefix, port):
    """Run the unit's ExecStart as systemd would, for the DPDK process of
    file prefix PREFIX, with PORT set in the instance's defaults file
    (/etc/default/dpdk-pmu-exporter-PREFIX); scrape it, stop it (SIGTERM)."""
    with open(os.path.join(root, f"etc/default/dpdk-pmu-exporter-{prefix}"), "w",
              encoding="utf-8") as f:
        f.write(f"DPDK_PMU_EXPORTER_PORT={port}\n")
    argv = exec_start(root, prefix)
    opts = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    report(argv[:1] == ["/usr/bin/dpdk-pmu-exporter"] and opts.get("port") == port and
           opts.get("file-prefix") == prefix and "--timeout" in argv,
           f"unit: ExecStart= with the defaults expanded: {shlex.join(argv)}", f"{argv}")
    env = {k: v for k, v in os.environ.items() if k != "RUNTIME_DIRECTORY"}
    proc = subprocess.Popen([root + argv[0]] + argv[1:], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        text = scrape(f"http://{opts.get('address')}:{port}/metrics", 15)
    except OSError as e:
        text = f"no answer: {e}"
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    clocks = re.findall(r'^dpdk_pmu_event_seconds_total\{[^}]*event="task-clock"[^}]*\} (\S+)',
                        text, re.M)
    report(re.search(r"^dpdk_pmu_up 1\.0$", text, re.M) and clocks and
           all(float(v) > 0 for v in clocks),
           f"unit: that command serves the application's counters (dpdk_pmu_up 1, "
           f"task-clock of {len(clocks)} lcores)", text[-500:] + err[-500:])
    plugin = os.path.join(root, "usr/share/dpdk-pmu/telemetry-endpoints/pmu.py")
    report(f"using endpoint plugin {plugin}" in err,
           f"unit: the exporter finds its plugin by default in {plugin[len(root):]}",
           err[-500:])
    report(proc.returncode == 0, "unit: the exporter stops on SIGTERM with status 0 "
           "(systemctl stop)", f"status {proc.returncode}: {err[-300:]}")



def check_any_port():
    """dpdk-pmu-exporter -p 0 (any free port): the port its "serving" line
    names answers, dpdk_pmu_up 0 with no application behind it."""
    line, port, text = "", None, ""
    proc = subprocess.Popen(["/usr/bin/python3",
                             os.path.join(REPO, "usertools", "dpdk-pmu-exporter"),
                             "-p", "0", "-s", MISSING], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:  # up to its "serving" line, or its end
            port = re.search(r" on http://127\.0\.0\.1:(\d+)/metrics$", line.strip())
            if port:
                break
        if port and port.group(1) != "0":
            with urllib.request.urlopen(f"http://127.0.0.1:{port.group(1)}/metrics",
                                        timeout=10) as resp:
                text = resp.read().decode()
    finally:
        proc_stop(proc)
    report(port and port.group(1) != "0" and
           re.search(r"^dpdk_pmu_up 0\.0$", text, re.M),
           f"dpdk-pmu-exporter -p 0: logs the port bound ({port.group(1) if port else '?'}), "
           "which serves dpdk_pmu_up 0 (no application)", f"{line.strip()} {text[-300:]}")



def serving_port(proc):
    """The port the exporter's "serving" line names (its stderr), or None."""
    for line in proc.stderr:
        port = re.search(r" on http://127\.0\.0\.1:(\d+)/metrics$", line.strip())
        if port:
            return port.group(1)
    return None


def stage_counters(text):
    """{(name, labels): value} of the dpdk_pmu_stage_*_total series in text."""
    return {(m.group(1), m.group(2)): float(m.group(3)) for m in re.finditer(
        r"^(dpdk_pmu_stage_\w+_total)\{([^}]*)\} (\S+)$", text, re.M)}


def check_monotonic(run, prefix, plugins=None):
    """dpdk-pmu-exporter scraped every 0.25 s for 10 s while testpmd forwards
    under dpdk-pmu-run (its default events, sampled 1 in 16): no stage
    counter goes down between two scrapes. (The library's estimates, scaled
    from the measured calls to all of them, did: Prometheus takes a fall for
    a reset and adds the whole count to the rate.) PLUGINS: the folder of
    another pmu.py. dpdk_pmu_process_start_time_seconds: testpmd's start,
    after the command began and before its first scrape (within the second
    of /proc/stat's boot time)."""
    begun = time.time()
    app = testpmd_start(run, prefix)
    exporter = subprocess.Popen(["/usr/bin/python3", os.path.join(REPO, "usertools",
                                                                   "dpdk-pmu-exporter"),
                                 "-f", prefix, "-p", "0"] + (["-P", plugins] if plugins else []),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
    scrapes, falls, last, series, start, answered = 0, [], {}, 0, None, begun
    try:
        port = serving_port(exporter)
        url = f"http://127.0.0.1:{port}/metrics"
        deadline = time.time() + 30
        while port and time.time() < deadline and not last:
            text = scrape(url, 5)
            answered = time.time()
            start = sample(text, "dpdk_pmu_process_start_time_seconds")
            last = {k: v for k, v in stage_counters(text).items()
                    if k[0] == "dpdk_pmu_stage_measured_calls_total" and v > 0}
            time.sleep(0.25)
        for _ in range(40 if last else 0):
            now = stage_counters(scrape(url, 5))
            scrapes += 1
            series = len(now)
            falls += [(k, last[k], v) for k, v in now.items() if k in last and v < last[k]]
            last = now
            time.sleep(0.25)
    except OSError as e:
        falls.append(str(e))
    finally:
        proc_stop(exporter)
        testpmd_stop(app)
    report(scrapes == 40 and series > 0 and not falls,
           f"dpdk-pmu-exporter scraped {scrapes} times in 10 s during testpmd's sampled "
           f"stages: none of its {series} stage counters went down",
           f"{len(falls)} falls: {falls[:3]}")
    report(start is not None and begun - 1.1 <= start <= answered,
           f"dpdk-pmu-exporter: dpdk_pmu_process_start_time_seconds {start} is testpmd's "
           f"start ({begun:.2f} to {answered:.2f}, when the exporter gave it)", f"{start}")


class FakeApp:
    """A telemetry socket (v2) at PATH answering from state, in a thread:
    the greeting with state["pid"], then /pmu/info and /pmu/lcore,<id>
    from state (None: an error reply, as a command the application does
    not have); state["close"]: the connection closed at the first command,
    as by an application that exits during a scrape; state["greet"]:
    "close", the connection closed before the greeting (DPDK 22.11 with
    10 clients connected), "wait", no greeting for 3 s."""

    def __init__(self, path, state):
        self.state = state
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.bind(path)
        self.sock.listen(4)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn):
        with conn:
            if self.state.get("greet") == "close":
                return
            if self.state.get("greet") == "wait":
                time.sleep(3)
                return
            conn.send(json.dumps({"version": "fake", "pid": self.state["pid"],
                                  "max_output_len": 16384}).encode())
            while True:
                req = conn.recv(1024).decode()
                if not req or self.state.get("close"):
                    return
                uri, _, arg = req.partition(",")
                value = self.state.get("replies", {}).get(uri)
                if uri == "/pmu/lcore":
                    value = (value or {}).get(arg)
                conn.send(json.dumps({uri: value}).encode())

    def close(self):
        self.sock.close()

    def pause(self):
        """Listen on, accepting no connection, as a stopped (SIGSTOP)
        application: one waits in the backlog, the next get EAGAIN."""
        path = self.sock.getsockname()
        self.close()
        os.unlink(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.bind(path)
        self.sock.listen(0)


def fake_replies(raw, scaled):
    """/pmu/info and /pmu/lcore,1 of one lcore counting cycles, raw and
    scaled (raw * enabled / running) as given."""
    return {"/pmu/info": {"initialized": 1, "events": {"cycles": {"name": "cycles",
                                                                   "unit": "count"}},
                          "lcores": {"1": {}}},
            "/pmu/lcore": {"1": {"cpu": 1, "status": "open", "slow_reads": 0,
                                 "read_errors": 0, "time_enabled": 10**9,
                                 "time_running": 10**9,
                                 "events": {"cycles": {"name": "cycles", "path": "user",
                                                       "raw": raw, "scaled": scaled}}}}}


def sample(text, name):
    """The value of metric name's first series in text, None without it."""
    m = re.search(r"^" + name + r"(\{[^}]*\})? (\S+)$", text, re.M)
    return float(m.group(2)) if m else None


def check_fake_app():
    """dpdk-pmu-exporter on a made-up application (FakeApp): the scaled
    counter dpdk_pmu_events_total never less than it exported before for
    the same process (raw=100 enabled/running=2: 200; then raw=150, 1.1:
    165), from 0 again for another pid or a raw count that went down;
    rte_pmu_fini() at the end of a process seen initialised logged at info,
    its never-less values kept; dpdk_pmu_initialized 0 (and one warning)
    while rte_pmu is not initialised, up 1; an application that closes the
    connection during a scrape: up 0, logged in those words rather than a
    JSON error; one that closes it before its greeting (DPDK 22.11's limit
    of 10 clients): logged so; failures of two kinds in turn: each logged
    once; one that accepts no connection (paused): EAGAIN explained. No
    dpdk_pmu_process_start_time_seconds for a greeting's pid that is not
    the socket's process (here pid 100, not the checker's)."""
    tmp = tempfile.mkdtemp(prefix="ci_observe_fake_")
    path = os.path.join(tmp, "dpdk_telemetry.v2")
    state = {"pid": 100, "replies": fake_replies(100, 200)}
    app = FakeApp(path, state)
    exporter = subprocess.Popen(["/usr/bin/python3", os.path.join(REPO, "usertools",
                                                                   "dpdk-pmu-exporter"),
                                 "-s", path, "-p", "0", "-t", "0.5"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
    # (what, pid, replies, failure, {metric: value wanted}); failure: the
    # connection closed "during" the scrape, "close"d before the greeting,
    # or no greeting ("wait").
    steps = [
        ("pid 100, raw 100 scaled 200", 100, fake_replies(100, 200), None,
         {"dpdk_pmu_up": 1, "dpdk_pmu_initialized": 1, "dpdk_pmu_events_total": 200,
          "dpdk_pmu_events_raw_total": 100, "dpdk_pmu_process_start_time_seconds": None}),
        ("pid 100, raw 150 scaled 165 (multiplexed less)", 100, fake_replies(150, 165),
         None, {"dpdk_pmu_events_total": 200, "dpdk_pmu_events_raw_total": 150}),
        ("pid 100, raw 300 scaled 330", 100, fake_replies(300, 330), None,
         {"dpdk_pmu_events_total": 330}),
        ("pid 101 (restarted), raw 50 scaled 50", 101, fake_replies(50, 50), None,
         {"dpdk_pmu_events_total": 50}),
        ("pid 101, raw 40 scaled 40 (counters opened again)", 101, fake_replies(40, 40),
         None, {"dpdk_pmu_events_total": 40}),
        ("pid 101 finishing (rte_pmu_fini())", 101, {"/pmu/info": {"initialized": 0}},
         None, {"dpdk_pmu_up": 1, "dpdk_pmu_initialized": 0, "dpdk_pmu_events_total": None}),
        ("pid 101, raw 45 scaled 35 (never less kept)", 101, fake_replies(45, 35), None,
         {"dpdk_pmu_events_total": 40}),
        ("pid 102, rte_pmu not initialised", 102, {}, None,
         {"dpdk_pmu_up": 1, "dpdk_pmu_initialized": 0, "dpdk_pmu_events_total": None}),
        ("rte_pmu still not initialised", 102, {"/pmu/info": {"initialized": 0}}, None,
         {"dpdk_pmu_up": 1, "dpdk_pmu_initialized": 0}),
        ("connection closed during the scrape", 102, {}, "during",
         {"dpdk_pmu_up": 0, "dpdk_pmu_initialized": None}),
        ("connection closed before the greeting", 102, {}, "close", {"dpdk_pmu_up": 0}),
        ("no greeting", 102, {}, "wait", {"dpdk_pmu_up": 0}),
        ("connection closed before the greeting again", 102, {}, "close", {"dpdk_pmu_up": 0}),
        ("no greeting again", 102, {}, "wait", {"dpdk_pmu_up": 0}),
    ] + [("paused", 102, {}, "pause", {"dpdk_pmu_up": 0})] * 3
    got, err = [], ""
    try:
        port = serving_port(exporter)
        for what, pid, replies, failure, want in steps:
            state.update(pid=pid, replies=replies, close=failure == "during", greet=failure)
            if failure == "pause" and not state.get("paused"):
                app.pause()
                state["paused"] = True
            text = scrape(f"http://127.0.0.1:{port}/metrics", 5)
            got.append((what, want, {k: sample(text, k) for k in want}))
    except OSError as e:
        got.append(("scrape", {}, str(e)))
    finally:
        proc_stop(exporter)
        err = exporter.stderr.read()
        app.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for what, want, values in got:
        report(values == want, f"dpdk-pmu-exporter on a made-up application, {what}: {want}",
               f"got {values}")
    warned = err.count("rte_pmu is not initialised")
    report(warned == 1 and "rte_pmu is initialised again" in err,
           "dpdk-pmu-exporter logs once that the application's rte_pmu is not initialised "
           f"(2 scrapes: {warned} lines)", err[-500:])
    finishing = re.findall(r" INFO pmu\.py: the application \(pid (\d+)\) is finishing", err)
    report(finishing == ["101"], "dpdk-pmu-exporter logs at info the end of pid 101 seen "
           f"initialised, rte_pmu_fini() run ({finishing})", err[-800:])
    report("the application closed the telemetry connection" in err and
           "Expecting value" not in err,
           "dpdk-pmu-exporter logs an application closing the connection during a scrape "
           "in those words, no JSON error", err[-500:])
    greeting = err.count("the telemetry socket closed the connection before its greeting, "
                         "which DPDK 22.11 does when 10 clients are connected")
    timeouts = err.count(": timed out")
    report(greeting == 1 and timeouts == 1,
           "dpdk-pmu-exporter logs a connection closed before the greeting as DPDK's limit "
           "of clients, and two kinds of failure in turn each once "
           f"({greeting} and {timeouts} lines)", err[-800:])
    paused = err.count("connect(): the application does not accept connections (EAGAIN: "
                       "its backlog is full: it is paused or busy)")
    report(paused == 1, "dpdk-pmu-exporter logs EAGAIN of connect() once as an application "
           f"that does not accept (paused: {paused} lines)", err[-500:])
