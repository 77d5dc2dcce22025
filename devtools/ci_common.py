# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""What the CI checkers share: the "ok:"/"FAIL:" lines and their RESULT
line, the command table, JSON and pcap files, packet conservation, the
telemetry socket and Prometheus' HTTP API. The checkers import it from
their own folder (devtools/, first on sys.path for a script there).

  ci_common.py links ROOT DOCDIR   (the HTML under ROOT/DOCDIR: its links)
"""

import json
import os
import re
import socket
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
counts = {"passed": 0, "failed": 0, "skipped": 0}


def report(ok, what, why="", prefix=""):
    """One check: "ok: WHAT" or "FAIL: WHAT (WHY)"; returns ok."""
    print(f"{prefix}ok: {what}" if ok else
          f"{prefix}FAIL: {what}" + (f" ({why})" if why else ""), flush=True)
    counts["passed" if ok else "failed"] += 1
    return ok


def skip(what, prefix=""):
    print(f"{prefix}skip: {what}", flush=True)
    counts["skipped"] += 1


def result():
    """Print the RESULT line of the checks so far; the exit status."""
    print("RESULT passed={passed} failed={failed} skipped={skipped}".format(**counts))
    return 1 if counts["failed"] else 0


def main(commands, doc):
    """Run sys.argv[1] of commands {NAME: (NARGS, FUNCTION)}, NARGS a number
    or (LEAST, MOST); an error it raises is one failed check. Bad arguments:
    the usage (doc), exit 2."""
    nargs, fn = commands.get(sys.argv[1] if len(sys.argv) > 1 else "", (0, None))
    least, most = nargs if isinstance(nargs, tuple) else (nargs, nargs)
    if fn is None or not least <= len(sys.argv) - 2 <= most:
        print(doc, file=sys.stderr)
        sys.exit(2)
    try:
        fn(*sys.argv[2:])
    except (OSError, ValueError, KeyError, TypeError, RuntimeError,
            subprocess.SubprocessError) as e:
        report(False, f"{sys.argv[1]} check", f"{type(e).__name__}: {e}")


def default_first(err):
    """What a program run on its default events (cycles,instructions) counts
    first, from its stderr text @p err: where it says that those gave way
    ("... counted here: counting LIST ..."), msr/tsc/ where this machine has
    it, else task-clock; otherwise cycles. Returns (event, LIST or None)."""
    said = re.search(r"counted here: counting (\S+)", err)
    if said is None:
        return "cycles", None
    tsc = os.path.exists("/sys/bus/event_source/devices/msr/events/tsc")
    return "msr/tsc/" if tsc else "task-clock", said.group(1).split(",")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def pcap_count(path):
    """Records in a pcap (usertools/dpdk-pmu-traffic count); None on error."""
    out = subprocess.run([sys.executable, os.path.join(REPO, "usertools", "dpdk-pmu-traffic"),
                          "count", path], capture_output=True, text=True, check=False)
    return int(out.stdout) if out.returncode == 0 else None


def conserved(doc):
    """Packets conserved over each port pair (0-1, 2-3, ...): rx == tx +
    dropped. Drops counted outside the ports (dpdk-pmu-graph's pkt_drop
    node) make the ports one whole."""
    extra = doc.get("pkt_drop", 0)
    pairs = {}
    for p in doc["ports"]:
        t = pairs.setdefault(0 if "pkt_drop" in doc else p["port"] // 2, [0, 0, extra])
        for i, k in enumerate(("rx", "tx", "dropped")):
            t[i] += p[k]
    bad = {k: v for k, v in pairs.items() if v[0] == 0 or v[0] != v[1] + v[2]}
    rx, tx, dropped = (sum(v[i] for v in pairs.values()) for i in range(3))
    return report(pairs and not bad,
                  f"packets conserved on each of {len(pairs)} port pair(s): rx {rx} == "
                  f"tx {tx} + dropped {dropped}" + (f" (pkt_drop {extra})" if extra else ""),
                  "; ".join(f"pair {k}: rx {v[0]} tx {v[1]} dropped {v[2]}"
                            for k, v in sorted(bad.items())))


class Telemetry:
    """One connection to a DPDK process's telemetry socket, tried for up to
    WAIT seconds while the socket does not answer yet."""

    def __init__(self, prefix, wait=0):
        base = "/var/run/dpdk" if os.getuid() == 0 else \
            os.environ.get("XDG_RUNTIME_DIR", "/tmp") + "/dpdk"
        deadline = time.time() + wait
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                self.sock.connect(f"{base}/{prefix}/dpdk_telemetry.v2")
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        info = json.loads(self.sock.recv(1024 * 64).decode())
        self.max_len = info.get("max_output_len", 16384)

    def query(self, cmd):
        self.sock.send(cmd.encode())
        reply = json.loads(self.sock.recv(self.max_len * 2).decode())
        return reply.get(cmd.split(",")[0])


def prom_get(port, path, **params):
    """Prometheus' HTTP API on 127.0.0.1:PORT: the data of a reply."""
    url = f"http://127.0.0.1:{port}{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=5) as resp:
        body = json.load(resp)
    if body.get("status") != "success":
        raise RuntimeError(f"{url}: {body}")
    return body["data"]


def prom_range(port, query, want, timeout=30):
    """Poll a query until it gives series (a range vector's each with `want`
    samples)."""
    deadline = time.time() + timeout
    while True:
        series = prom_get(port, "/api/v1/query", query=query)["result"]
        if (series and all(len(s.get("values", [])) >= want for s in series)) or \
                time.time() > deadline:
            return series
        time.sleep(1)


def text_of(path):
    """The text of the file at path (undecodable bytes replaced)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def console_runs(text):
    """The JSON lines of each command of an arm64 guest's console, between
    its "=== RUN NAME" and "=== EXIT NAME RC" lines: {NAME: [doc, ...]}."""
    runs, name = {}, None
    for line in text.splitlines():
        line = line.strip().replace("\r", "")
        if line.startswith("=== RUN ") or line.startswith("=== EXIT "):
            name = line.split()[2] if line.startswith("=== RUN ") else None
        elif name is not None and line.startswith("{"):
            try:
                runs.setdefault(name, []).append(json.loads(line))
            except ValueError:
                pass
    return runs


def links(root, docdir):
    """Every relative href and src of the HTML pages under ROOT/DOCDIR names
    a file of ROOT, or, where it is a link into another package
    (libjs-sphinxdoc's javascript), a file of this machine."""
    pages, bad, n = 0, [], 0
    for d, _, files in os.walk(root + docdir):
        for page in (os.path.join(d, f) for f in files if f.endswith(".html")):
            pages += 1
            with open(page, encoding="utf-8", errors="replace") as f:
                urls = re.findall(r'(?:href|src)="([^"#?]+)', f.read())
            for url in (u for u in urls if not re.match(r"[a-z][a-z0-9+.-]*:|/", u)):
                n += 1
                path = os.path.normpath(os.path.join(d, urllib.parse.unquote(url)))
                if os.path.islink(path) and not os.path.exists(path):
                    path = os.path.normpath(os.path.join(os.path.dirname(path[len(root):]),
                                                         os.readlink(path)))
                if not os.path.exists(path):
                    bad.append(f"{page[len(root):]}: {url}")
    report(pages and not bad, f"the HTML under {docdir}: {pages} pages, {n} relative links, "
           f"{len(bad)} broken", "; ".join(bad[:10]))


def testpmd_start(run, prefix, options=()):
    """dpdk-testpmd forwarding between two net_null ports under dpdk-pmu-run
    (RUN, its OPTIONS), file prefix PREFIX, until testpmd_stop()."""
    return subprocess.Popen([run, *options, "--", "dpdk-testpmd", "-l", "0-1", "--no-huge",
                             "--no-pci", "-m", "256", "--vdev", "net_null0", "--vdev",
                             "net_null1", f"--file-prefix={prefix}", "--",
                             "--forward-mode=io", "--stats-period", "0",
                             "--total-num-mbufs=16384", "--auto-start"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def proc_stop(proc, sig=signal.SIGTERM):
    """Send proc SIG and wait for its end, SIGKILL after 20 s."""
    proc.send_signal(sig)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def testpmd_stop(proc):
    """End testpmd_start()'s testpmd (its "Press enter to exit", SIGINT)."""
    proc.stdin.close()
    proc_stop(proc, signal.SIGINT)


if __name__ == "__main__":
    main({"links": (2, links)}, __doc__)
