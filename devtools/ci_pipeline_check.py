#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-pipeline.sh and devtools/arm64-ci.sh on
dpdk-pmu-pipeline, one "ok:" or "FAIL:" line each.

  pcap JSON ROUTED UNROUTED NON_IPV4 OUT0 OUT1  two net_pcap ports on one pcap:
      conserved, the drops asked for, the tx pcaps, rx/process/tx rows
  compare JSON             a --compare run: three modes, their ratios printed
  compare_tsc JSON PORTS   the same on msr/tsc/: read without read()
  soak PREFIX PID SECONDS EXPORTER_PORT|- JSON  telemetry every 10 ms, the
      exporter every second: figures monotonic, descriptors and RSS flat
  guest CONSOLE_LOG        the arm64 guest's runs (arm64-guest.cmds): each
      stage's instructions per packet the same in two runs, compare's ratios
"""

import os
import time
import urllib.request

from ci_common import Telemetry, conserved, console_runs, load, main, pcap_count, report

STAGES = ("rx", "process", "tx")


def stage_totals(res):
    tot = {}
    for row in res["stages"]:
        t = tot.setdefault(row["name"], {"calls": 0, "items": 0, "measured": 0, "misuse": 0,
                                         "events": {}})
        for k in ("calls", "items", "measured", "misuse"):
            t[k] += row[k]
        for e, v in row["events"].items():
            t["events"][e] = t["events"].get(e, 0) + v
    return tot


def check_pcap(path, routed, unrouted, non_ipv4, out0, out1):
    res = load(path)
    routed, unrouted, non_ipv4 = int(routed), int(unrouted), int(non_ipv4)
    ports = {p["port"]: p for p in res["ports"]}
    if not report(sorted(ports) == [0, 1], "two ports in the JSON", str(sorted(ports))):
        return
    conserved(res)
    for p in (0, 1):
        for key, want, what in (
                ("rx", routed + unrouted + non_ipv4,
                 f"received the whole pcap: {routed + unrouted + non_ipv4}"),
                ("dropped", unrouted + non_ipv4,
                 f"dropped the {unrouted} unrouted and {non_ipv4} non-IPv4 packets"),
                ("tx", routed, f"sent the {routed} routed packets of its peer")):
            report(ports[p][key] == want, f"port {p} {what}", f"{key} {ports[p][key]}")
    for p, out in ((0, out0), (1, out1)):
        n = pcap_count(out)
        report(n == ports[p]["tx"], f"tx pcap of port {p} holds the {ports[p]['tx']} sent",
               f"{n} records")
    tot = stage_totals(res)
    if not report(sorted(tot) == sorted(STAGES), "stages rx, process, tx", str(sorted(tot))):
        return
    bad = [r["name"] for r in res["stages"] if sorted(r.get("inexact", {})) !=
           sorted(r["events"]) or not all(isinstance(v, bool) for v in r["inexact"].values())]
    marks = [v is True for r in res["stages"] for v in r.get("inexact", {}).values()]
    report(not bad, "each stage row marks each event's figure exact or not (\"inexact\", "
           f"as the dump's '~'): {sum(marks)} of {len(marks)} not exact",
           f"no boolean per event in {bad}" if bad else "")
    for name in STAGES:
        t = tot[name]
        report(t["calls"] > 0, f"stage {name}: {t['calls']} calls")
        report(t["measured"] == t["calls"], f"stage {name}: every call measured (sampling 1)",
               f"{t['measured']} of {t['calls']}")
    for name, key, what in (("rx", "rx", "received"), ("process", "rx", "received"),
                            ("tx", "tx", "sent")):
        n = sum(p[key] for p in res["ports"])
        report(tot[name]["items"] == n, f"stage {name}: items == packets {what} ({n})",
               str(tot[name]["items"]))
    report(all(tot[n]["misuse"] == 0 for n in STAGES), "no stage misuse on any lcore")
    report(tot["process"]["calls"] == tot["tx"]["calls"] <= tot["rx"]["calls"],
           "process and tx run once per non-empty rx burst",
           f"rx {tot['rx']['calls']} process {tot['process']['calls']} tx {tot['tx']['calls']}")
    for name in STAGES:
        ev = tot[name]["events"]
        report(sorted(ev) == sorted(res["events"]) and len(ev) > 0,
               f"stage {name}: a figure for each event {res['events']}", str(sorted(ev)))
    clock = [e for e in res["events"] if e in ("task-clock", "cycles")][:1]
    for e in clock:
        report(all(tot[n]["events"].get(e, 0) > 0 for n in STAGES),
               f"stage figures: {e} counted in every stage",
               str({n: tot[n]["events"].get(e) for n in STAGES}))


def check_compare(path):
    res = load(path)
    conserved(res)
    cmp_ = res.get("compare")
    if not report(isinstance(cmp_, dict), "compare figures in the JSON"):
        return None
    for m in ("off", "on", "sampled"):
        r = cmp_.get(m, {})
        report(r.get("packets", 0) > 0 and r.get("pps", 0) > 0,
               f"mode {m}: {r.get('packets')} packets, {r.get('pps')} packets/s")
    for m in ("on", "sampled"):
        r = cmp_.get(m, {})
        report("rate_ratio" in r, f"mode {m}: rate ratio {r.get('rate_ratio')} against off")
    s = cmp_.get("sampled", {}).get("rate_ratio", 0)
    # A figure, not a gate: timed results on a shared VM are not asserted.
    print(f"info: packet rate, on {cmp_.get('on', {}).get('rate_ratio')}x, sampled 1 in "
          f"{cmp_.get('period')} {s}x of off (goal for sampled: at least "
          f"{cmp_.get('goal_rate_ratio_sampled')}x)")
    return res


# Issue 25's goals over net_ring with msr/tsc/ (figures, not gates).
TSC_GOAL_SAMPLED, TSC_GOAL_ON = 0.9, 0.6


def check_compare_tsc(path, ports):
    """A --compare run counting msr/tsc/: as compare, the counter read
    without read() on each worker lcore, and the two ratios as a figure."""
    res = check_compare(path)
    if res is None:
        return
    report(res.get("events") == ["msr/tsc/"], f"counting msr/tsc/ alone: {res.get('events')}")
    lc = res.get("lcores", [])
    report(lc and all(l["open_status"] == 0 and l["slow_reads"] == 0 and l["read_errors"] == 0
                      for l in lc),
           f"msr/tsc/ read in user space (rdtsc): no read() fallback on lcore(s) "
           f"{[l['lcore'] for l in lc]}",
           "; ".join(f"lcore {l['lcore']}: open {l['open_status']}, {l['slow_reads']} read(), "
                     f"{l['read_errors']} failed" for l in lc))
    c = res.get("compare", {})
    on, sampled = c.get("on", {}).get("rate_ratio"), c.get("sampled", {}).get("rate_ratio")
    if not report(isinstance(on, (int, float)) and isinstance(sampled, (int, float)) and
                  on > 0 and sampled > 0, f"{ports}, msr/tsc/: both packet rate ratios present",
                  f"on {on}, sampled {sampled}"):
        return
    goal = ""
    if ports == "net_ring":
        goal = (f"; issue 25's goal here: at least {TSC_GOAL_ON}x every call "
                f"({'met' if on >= TSC_GOAL_ON else 'not met'}), at least {TSC_GOAL_SAMPLED}x "
                f"sampled ({'met' if sampled >= TSC_GOAL_SAMPLED else 'not met'})")
    # A figure, not a gate: timed results on a shared VM are not asserted.
    report(True, f"figure, {ports}, msr/tsc/: packet rate with every call measured {on:.3f}x, "
           f"sampled 1 in {c.get('period')} {sampled:.3f}x of stages off{goal}")


def flatten(obj, key=""):
    """The numbers of a telemetry reply, by path."""
    if isinstance(obj, (dict, list)):
        for k, v in (obj.items() if isinstance(obj, dict) else enumerate(obj)):
            yield from flatten(v, f"{key}.{k}" if isinstance(obj, dict) else f"{key}[{k}]")
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield key, obj


CUMULATIVE = ("time_enabled", "time_running", "raw", "scaled", "slow_reads", "calls", "items",
              "measured", "values", "self_values", "value", "self_value", "misuse")


class Monotonic:
    """Figures that must never fall: the last value of each, the falls."""

    def __init__(self):
        self.last, self.falls = {}, []

    def add(self, key, v):
        if key in self.last and v < self.last[key]:
            self.falls.append(f"{key} {self.last[key]} -> {v}")
        self.last[key] = v


def scrape(port):
    """The exporter's counters (*_total series): {series: value}."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
        lines = r.read().decode().splitlines()
    return {n: float(v) for n, _, v in (l.rpartition(" ") for l in lines
            if l.strip() and not l.startswith("#")) if n.split("{")[0].endswith("_total")}


def proc_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next((int(l.split()[1]) for l in f if l.startswith("VmRSS:")), 0)


# Growth of VmRSS allowed after warm-up (issue 25: "flat").
RSS_GROWTH_KIB = 1024


def rss_flat(series, start, warm):
    """VmRSS once a second: its growth after warm-up (the largest sample over
    the first one after it) under RSS_GROWTH_KIB."""
    print("info: VmRSS once a second (s:KiB): " +
          " ".join(f"{t - start:.0f}:{r}" for t, r in series))
    after = [r for t, r in series if t >= warm]
    if len(after) < 2:
        report(False, "RSS sampled once a second after warm-up", f"{len(after)} samples")
        return
    growth = max(after) - after[0]
    report(growth < RSS_GROWTH_KIB,
           f"RSS flat after a {warm - start:.0f} s warm-up, {len(after)} samples a second "
           f"apart: first {after[0]} KiB, last {after[-1]} KiB, max growth {growth} KiB "
           f"(under {RSS_GROWTH_KIB})", f"growth {growth} KiB")


def check_soak(prefix, pid, seconds, exporter_port, json_path):
    pid, seconds = int(pid), float(seconds)
    try:
        tel = Telemetry(prefix, wait=20)
    except OSError as e:
        report(False, "telemetry socket", f"no answer in 20 s: {e}")
        return
    report(True, "telemetry socket")
    info = tel.query("/pmu/info") or {}
    queries = [f"/pmu/lcore,{l}" for l in info.get("lcores", [])]
    if "/pmu/stages" in (tel.query("/") or []):
        st = tel.query("/pmu/stages") or {}
        queries += [f"/pmu/stage,{n}" for n in st.get("names", [])] + ["/pmu/stages"]
    else:
        queries.append("/pmu/info")
    print(f"info: querying {', '.join(queries)} every 10 ms")
    tel_figs, prom = Monotonic(), Monotonic()
    n_queries = errors = scrapes = prom_series = 0
    start = next_scrape = time.time()
    warm = start + min(5.0, seconds / 3)
    fd_samples, rss_series, timeline = [], [], []   # (time, fds), (time, KiB), (t, KiB, fds)
    # Up to 2 s before the application's own end: its exit is not the soak.
    while time.time() - start < seconds - 2 and os.path.exists(f"/proc/{pid}"):
        for q in queries:
            try:
                reply = tel.query(q)
            except (OSError, ValueError):
                errors += 1
                continue
            n_queries += 1
            for path, v in flatten(reply, q):
                if path.split(".")[-1].split("[")[0] in CUMULATIVE:
                    tel_figs.add(path, v)
        if exporter_port != "-" and time.time() >= next_scrape:
            next_scrape += 1.0
            try:
                s = scrape(exporter_port)
            except OSError:
                s = None
            if s is not None:
                scrapes, prom_series = scrapes + 1, max(prom_series, len(s))
                for k, v in s.items():
                    prom.add(k, v)
        try:
            now, fds, rss = time.time(), len(os.listdir(f"/proc/{pid}/fd")), proc_rss_kib(pid)
        except OSError:
            break
        if rss == 0:
            break   # exiting
        if not rss_series or now - rss_series[-1][0] >= 1:
            rss_series.append((now, rss))
        if now >= warm:
            fd_samples.append((now, fds, rss))
            if not timeline or now - timeline[-1][0] >= 1:
                timeline.append((now, rss, fds))
        time.sleep(0.01)
    report(n_queries > 100 and errors == 0,
           f"telemetry answered {n_queries} queries in {time.time() - start:.0f} s",
           f"{errors} errors")
    report(not tel_figs.falls, f"every cumulative telemetry figure monotonic "
           f"({len(tel_figs.last)} figures)", "; ".join(tel_figs.falls[:5]))
    if exporter_port != "-":
        report(scrapes >= seconds / 2 and prom_series > 0,
               f"exporter scraped {scrapes} times, {prom_series} counter series")
        report(not prom.falls, "every exporter counter monotonic", "; ".join(prom.falls[:5]))
    if fd_samples:
        steps = " ".join(f"{t - start:.0f}s:{r}K/{f}" for t, r, f in timeline)
        _, base_fd, base_rss = fd_samples[0]
        max_fd, max_rss = max(s[1] for s in fd_samples), max(s[2] for s in fd_samples)
        # A telemetry client (ours, a scrape) holds a socket while connected:
        # what stays is the fewest descriptors over the last 2 s.
        last_fd = min(f for t, f, _ in fd_samples if t >= fd_samples[-1][0] - 2)
        report(last_fd <= base_fd and max_fd <= base_fd + 2,
               f"descriptors after warm-up: {base_fd}, at most {max_fd}, "
               f"at the end {last_fd} (fewest over its last 2 s)", steps)
        report(max_rss <= base_rss + 4096,
               f"RSS after warm-up: {base_rss} KiB -> at most {max_rss} KiB (bound +4096)",
               steps)
    else:
        report(False, "descriptors and RSS", "the application ended before warm-up")
    rss_flat(rss_series, start, warm)
    # The run's own figures, once it has ended.
    end = time.time() + 30
    while os.path.exists(f"/proc/{pid}") and time.time() < end:
        time.sleep(0.1)
    res = load(json_path)
    conserved(res)
    lc = sorted({r["lcore"] for r in res["stages"] if r["calls"] > 0})
    report(len(lc) == 2, f"two worker lcores ran the stages: {lc}")
    report(stage_totals(res).get("rx", {}).get("items") == sum(p["rx"] for p in res["ports"]),
           "stage rx items == packets received")


def per_item(res):
    """Per stage, events per item: the median round's where the run has rounds
    (one worker), else the totals'."""
    out = {}
    for name, t in stage_totals(res).items():
        rows = [r for r in res["stages"] if r["name"] == name]
        if len(rows) == 1 and "median_per_item" in rows[0]:
            out[name] = rows[0]["median_per_item"]
        elif t["items"] > 0:
            out[name] = {e: v / t["items"] for e, v in t["events"].items()}
    return out


def same(a, b):
    for res in (a, b):
        conserved(res)
    ta, tb = per_item(a), per_item(b)
    rounds = [r.get("rounds", 1) for r in a["stages"]]
    print(f"info: instructions per packet of the median of {max(rounds)} rounds"
          if max(rounds) > 1 else "info: instructions per packet of the whole runs")
    for name in STAGES:
        if name not in ta or name not in tb:
            report(False, f"stage {name}: in both runs, with packets")
            continue
        pa, pb = ta[name], tb[name]
        want = [e for e in pa if e in ("instructions", "inst_retired")]
        report(bool(want), f"stage {name}: instructions counted", str(sorted(pa)))
        for e in want:
            report(pa[e] == pb[e] and pa[e] > 0,
                   f"stage {name}: {e} per packet identical in two runs: {pa[e]:.4f}",
                   f"{pa[e]!r} != {pb[e]!r}")


# The gate of the sampled stages' instructions-per-packet ratio in the guest
# while the goal is not met. The figure is not the same in every run (CI
# printed 1.057x and 1.061x for one tree; 1.049x with the countdowns;
# 1.044x to 1.048x in the guest on this machine with rte_pmu_stage_next()'s
# unmeasured boundary inline: the rx stage's empty polls vary from run to
# run), so the gate is the worst seen plus a margin.
# What measuring leaves in the next stage made the same work in every
# shape but the plain one (figures that hold in every shape) costs the
# boundaries: 1.052x sampled, 1.297x with every call measured (1.28x
# before).
SAMPLED_RATIO_GATE = 1.065
ON_RATIO_GATE = 1.31


def check_guest(log):
    with open(log, errors="replace") as f:
        runs = {n: [d for d in docs if "burst" in d][-1]
                for n, docs in console_runs(f.read()).items() if any("burst" in d for d in docs)}
    for n in ("pipeline-a", "pipeline-b", "pipeline-compare"):
        report(n in runs, f"guest run {n} printed its JSON")
    if "pipeline-a" in runs and "pipeline-b" in runs:
        same(runs["pipeline-a"], runs["pipeline-b"])
    if "pipeline-compare" in runs:
        res = runs["pipeline-compare"]
        conserved(res)
        c = res.get("compare", {})
        ok = all("instructions_per_packet" in c.get(m, {}) for m in ("off", "on", "sampled"))
        report(ok, "compare: instructions per packet for stages off, on and sampled")
        if ok:
            s = c["sampled"]["instructions_ratio"]
            goal = c.get("goal_instructions_ratio_sampled")
            print(f"info: instructions per packet: off {c['off']['instructions_per_packet']:.2f}, "
                  f"on {c['on']['instructions_per_packet']:.2f} "
                  f"({c['on']['instructions_ratio']:.3f}x), sampled 1 in {c.get('period')} "
                  f"{c['sampled']['instructions_per_packet']:.2f} ({s:.3f}x; goal at most "
                  f"{goal}x: {'met' if s <= goal else 'not met'})")
            # Gated at the goal where it is met, else at this tree's worst
            # figure plus a margin, so that a dearer unmeasured call fails.
            gate = goal if s <= goal else SAMPLED_RATIO_GATE
            report(s <= gate, f"compare: sampled 1 in {c.get('period')} costs at most {gate}x "
                   f"the instructions per packet of off: {s:.3f}x", f"{s:.3f}x")
            # Every call measured: issue 32's goal (1.26x) not met; gated
            # at this tree's figure (1.276x and 1.280x in CI's runs in the
            # guest, once the calls out of line passed on what they had
            # looked at; 1.287x before) plus a margin.
            on = c["on"]["instructions_ratio"]
            report(on <= ON_RATIO_GATE, f"compare: every call costs at most {ON_RATIO_GATE}x "
                   f"the instructions per packet of off (issue 32's goal 1.26x: "
                   f"{'met' if on <= 1.26 else 'not met'}): {on:.3f}x", f"{on:.3f}x")


if __name__ == "__main__":
    main({"pcap": (6, check_pcap), "compare": (1, check_compare),
          "compare_tsc": (2, check_compare_tsc), "soak": (5, check_soak),
          "guest": (1, check_guest)}, __doc__)
