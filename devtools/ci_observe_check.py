#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""
Checks behind devtools/ci-observe.sh: each prints "ok: WHAT" or
"FAIL: WHAT (why)"; the shell script counts them.

  ci_observe_check.py telemetry PREFIX EVENTS PID   (Debian's dpdk-telemetry.py)
  ci_observe_check.py prometheus PORT EVENTS        (Prometheus' HTTP API)
  ci_observe_check.py dashboard PORT EVENTS RULES DASHBOARD ALERTS (the same)
  ci_observe_check.py trace DIR EVENTS [STAGES]     (babeltrace / babeltrace2)
  ci_observe_check.py trace-error DIR LCORE:OP:ERR  (the same; one failed open)
  ci_observe_check.py unit-exec ROOT PREFIX PORT     (ROOT's exporter unit)
  ci_observe_check.py missing-files                 (usertools, no traceback)
  ci_observe_check.py bad-arguments                 (the same, values out of range)
  ci_observe_check.py any-port                      (dpdk-pmu-exporter -p 0)
  ci_observe_check.py misuse-sum                    (pmu.py, then pages below)
  ci_observe_check.py pages                         (pmu.py and dpdk-pmu-top on
                                                    made-up replies in pages)
  ci_observe_check.py top-total                     (dpdk-pmu-top's %lcore, per
                                                    lcore and --total)
  ci_observe_check.py no-terminal                   (dpdk-pmu-top's live view
                                                    without a terminal)

EVENTS is the comma-separated list the application was given; its first
event must grow whenever the counted lcore runs (task-clock). The
application runs stages (rte_pmu_stage_begin/end) on its worker lcores,
every one of them several times a second; STAGES is the comma-separated
list it registers, in order.
"""

import argparse
import contextlib
import importlib.machinery
import io
import importlib.util
import json
import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from ci_common import REPO, main, prom_get, prom_range, report

TELEMETRY = "/usr/bin/dpdk-telemetry.py"


def growing(samples, strict):
    """True when each value is above (strict) or not below the one before."""
    pairs = list(zip(samples, samples[1:]))
    if strict:
        return len(pairs) > 0 and all(b > a for a, b in pairs)
    return all(b >= a for a, b in pairs)


# ---- telemetry -------------------------------------------------------------

def tel_query(prefix, commands):
    """Run commands through dpdk-telemetry.py on the real socket; one reply each."""
    res = subprocess.run([sys.executable, TELEMETRY, "-f", prefix],
                         input="\n".join(commands) + "\n", capture_output=True,
                         text=True, timeout=15, check=False)
    replies = [json.loads(l) for l in map(str.strip, res.stdout.splitlines())
               if l.startswith("{")]
    if len(replies) != len(commands):
        raise RuntimeError(f"{len(replies)} replies to {len(commands)} commands: "
                           f"{res.stdout[-300:]!r} {res.stderr[-300:]!r}")
    return [r[c.split(",")[0]] for r, c in zip(replies, commands)]


def counting_lcores(prefix, timeout=15):
    """Lcores whose group is open, once one is (the tool opens them lazily)."""
    deadline = time.time() + timeout
    while True:
        info = tel_query(prefix, ["/pmu/info"])[0] or {}
        lcores = [l for l, v in info.get("lcores", {}).items() if v.get("status") == "open"]
        if lcores or time.time() > deadline:
            return info, lcores
        time.sleep(0.2)


def names(objs):
    """The "name" of each object of a reply's dict, in order."""
    return [o.get("name") for o in objs.values()] if isinstance(objs, dict) else None


CLOCKS = ("task-clock", "cpu-clock")
PATHS = ("user", "user (rdtsc)", "read()")


def tel_key(name):
    """An event's key in every reply: its name with each character telemetry
    takes in no key written '_' (pmu_telemetry.c's event_keys())."""
    return re.sub(r"[^A-Za-z0-9_/]", "_", name)


def vocabulary(evs, events):
    """A reply's events: keyed alike in every reply, each with its exact
    name and its unit ("ns" for the clocks, "count" for the others)."""
    return isinstance(evs, dict) and list(evs) == [tel_key(e) for e in events] and \
        names(evs) == events and \
        [e.get("unit") for e in evs.values()] == ["ns" if e in CLOCKS else "count"
                                                   for e in events]


def check_telemetry(prefix, events, pid):
    events = events.split(",")
    try:
        info, lcores = counting_lcores(prefix)
        listed = tel_query(prefix, ["/pmu/list"])[0]
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        report(False, "telemetry: dpdk-telemetry.py answers /pmu/info and /pmu/list", e)
        return
    report(vocabulary(listed, events) and
           [e.get("index") for e in listed.values()] == list(range(len(events))),
           "telemetry: /pmu/list gives the added events under their keys, with name, "
           "unit and index", f"got {listed}")
    evs = info.get("events", {})
    report(info.get("initialized") == 1 and vocabulary(evs, events) and
           all({"index", "pmu", "type", "config"} <= set(e) for e in evs.values()) and
           lcores and all(info["lcores"][l]["path"] in PATHS + ("mixed",) and
                          info["lcores"][l]["status_code"] == 1 and
                          isinstance(info["lcores"][l]["cpu"], (int, str))
                          for l in lcores),
           "telemetry: /pmu/info has an object per event (name, unit, index, PMU, type, "
           "config) and per lcore (status \"open\" and its code, CPUs, read path in "
           "dpdk-test-pmu's words)", f"got {info}")
    if not lcores:
        return
    lcore = lcores[-1]
    try:
        first = tel_query(prefix, [f"/pmu/lcore,{lcore}"])[0]
        time.sleep(1)
        second = tel_query(prefix, [f"/pmu/lcore,{lcore}"])[0]
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        report(False, f"telemetry: /pmu/lcore,{lcore} answers", e)
        return
    fields = ("events", "time_enabled", "time_running", "multiplexed", "cpu", "status")
    present = all(isinstance(r, dict) and all(f in r for f in fields) and
                  all({"path", "raw", "scaled"} <= set(e) for e in r["events"].values())
                  for r in (first, second))
    report(present and vocabulary(first["events"], events) and
           first["status"] == "open" and first["status_code"] == 1 and
           all(e["path"] in PATHS for e in first["events"].values()) and
           first["time_enabled"] > 0 and first["cpu"] not in ("", None),
           f"telemetry: /pmu/lcore,{lcore} has per event (keyed as /pmu/list) its name, "
           "unit, path, raw and scaled values, and times, multiplexing, CPU, status",
           f"got {first}")
    if not present:
        return
    a, b = list(first["events"].values()), list(second["events"].values())
    grew = (b[0]["scaled"] > a[0]["scaled"] and b[0]["raw"] > a[0]["raw"] and
            second["time_enabled"] > first["time_enabled"] and
            all(y["raw"] >= x["raw"] for x, y in zip(a, b)))
    report(grew, f"telemetry: values grow between two queries 1 s apart ({events[0]} "
           f"{a[0]['scaled']} -> {b[0]['scaled']})", f"{first} -> {second}")

    check_telemetry_stages(prefix, events)

    bad = ["/pmu/lcore,abc", "/pmu/lcore,999", "/pmu/lcore", "/pmu/lcore,-1",
           "/pmu/lcore,1x", "/pmu/list,1", "/pmu/stage", "/pmu/stage,no-such-stage",
           "/pmu/stages,x"]
    try:
        answers = tel_query(prefix, bad + ["/pmu/list"])
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        report(False, "telemetry: bad parameters answer an error", e)
        return
    alive = os.path.exists(f"/proc/{pid}")
    report(all(a is None for a in answers[:-1]) and names(answers[-1]) == events and alive,
           "telemetry: bad parameters answer an error (null) and the application "
           "keeps answering", f"got {answers}, alive {alive}")


FIGURES = ("calls", "items", "measured", "misuse", "lcore_misuse")


def shaped(r, name, events):
    """A /pmu/stage reply: per lcore and in total the counts and, per event
    key, value, self_value and overhead; no thousandths."""
    figs = list(r.get("lcores", {}).values()) + [r.get("total", {})]
    keys = list(r.get("events", {}))
    return (r.get("stage") == name and vocabulary(r["events"], events) and
            len(figs) > 1 and "_milli" not in json.dumps(r) and
            all(set(FIGURES) <= set(f) and list(f.get("events", {})) == keys and
                all({"value", "self_value", "overhead"} <= set(e)
                    for e in f["events"].values()) for f in figs))


def summed(r):
    """Each stage's total is the sum of its lcores."""
    figs = list(r["lcores"].values())
    return all(r["total"][k] == sum(f[k] for f in figs) for k in FIGURES[:3]) and \
        all(e["value"] == sum(f["events"][k]["value"] for f in figs)
            for k, e in r["total"]["events"].items())


def check_telemetry_stages(prefix, events):
    """/pmu/stages lists the stages; /pmu/stage,<name> gives each lcore that
    ran it and a total that is their sum; calls grow between two queries."""
    try:
        stages = tel_query(prefix, ["/pmu/stages"])[0] or {}
        names = stages.get("names", [])
        first = tel_query(prefix, [f"/pmu/stage,{n}" for n in names])
        time.sleep(1)
        second = tel_query(prefix, [f"/pmu/stage,{n}" for n in names])
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        report(False, "telemetry: /pmu/stages and /pmu/stage,<name> answer", e)
        return
    report(names and stages.get("num_stages") == len(names) and
           [r.get("id") for r in first] == list(range(len(names))) and
           all(r.get("sampling_period", 0) >= 1 for r in first),
           f"telemetry: /pmu/stages names the stages {names}; each has its id and "
           "sampling period", f"got {stages}, {first}")
    if not names:
        return
    ok = all(isinstance(r, dict) and shaped(r, n, events) for n, r in zip(names, first))
    report(ok, "telemetry: /pmu/stage,<name> gives per lcore and in total calls, items, "
           "measured, misuse and per event value, self_value, overhead", f"got {first}")
    if not ok:
        return
    report(all(summed(r) for r in second), "telemetry: each stage's total is the sum of "
           "its lcores", f"got {second}")
    key = list(first[0]["events"])[0]
    grew = all(b["total"]["calls"] > a["total"]["calls"] and
               b["total"]["items"] >= a["total"]["items"] and
               b["total"]["events"][key]["value"] > a["total"]["events"][key]["value"] and
               b["total"]["misuse"] == 0 for a, b in zip(first, second))
    report(grew, "telemetry: every stage's calls and " + events[0] + " grow between two "
           "queries 1 s apart, no misuse (" +
           ", ".join(f"{n} {a['total']['calls']} -> {b['total']['calls']}"
                     for n, a, b in zip(names, first, second)) + ")",
           f"{first} -> {second}")


# ---- prometheus ------------------------------------------------------------

EVENT_METRICS = '{__name__=~"dpdk_pmu_%sevents_total|dpdk_pmu_%sevent_seconds_total"}[30s]'


def per_event(series, keys, events, extra=()):
    """Labels exactly keys, event and extra, the events of
    each key once; the time events under *_seconds_total, in seconds (at
    most one CPU second a second), the others under *_total."""
    groups = {}
    for s in series:
        m = s["metric"]
        groups.setdefault(tuple(m.get(k) for k in keys), []).append(m.get("event"))
        (t0, v0), (t1, v1) = s["values"][0], s["values"][-1]
        if set(m) - {"__name__", "job", "instance"} != {*keys, *extra, "event"} \
                or m["__name__"].endswith("_seconds_total") != (m.get("event") in CLOCKS) \
                or (m.get("event") in CLOCKS and float(v1) - float(v0) > 1.1 * (t1 - t0) + .1) \
                or m.get("cpu") == "":
            return groups, False
    return groups, bool(groups) and all(sorted(g) == sorted(events) for g in groups.values())


def values_of(series):
    return [[float(v) for _, v in s["values"]] for s in series]


def check_labels(lcores, paths, status, events):
    """The read path a label of its own gauge (one series of value 1 per lcore
    and event), the status a label of dpdk_pmu_lcore_status (value 1)."""
    lcores = sorted(k[0] for k in lcores)
    got = sorted((s["metric"].get("lcore"), s["metric"].get("event")) for s in paths
                 if s["metric"].get("lcore") in lcores and s["metric"].get("path") in PATHS)
    report(lcores and got == sorted((l, e) for l in lcores for e in events) and
           all(s["metric"].get("path") in PATHS + ("none",) and float(s["value"][1]) == 1 and
               set(s["metric"]) - {"__name__", "job", "instance"} ==
               {"lcore", "cpu", "event", "path"} for s in paths),
           "prometheus: dpdk_pmu_event_read_path{lcore,cpu,event,path} 1, one series per "
           f"counting lcore and event, path in dpdk-test-pmu's words ({len(paths)} series)",
           f"{[(s['metric'], s['value']) for s in paths]}")
    opened = sorted(s["metric"].get("lcore") for s in status
                    if s["metric"].get("status") == "open")
    report(set(lcores) <= set(opened) and
           all(float(s["value"][1]) == 1 and re.fullmatch(r"open|not_open|E[A-Z]+|errno_\d+",
                                                          s["metric"].get("status", ""))
               for s in status),
           "prometheus: dpdk_pmu_lcore_status{status=\"open\"} 1 for each counting lcore, "
           f"the status a label (open, not_open or an errno's name) ({opened})",
           f"{[(s['metric'], s['value']) for s in status]}")


def check_prometheus(port, events):
    events = events.split(",")
    try:
        series = prom_range(port, EVENT_METRICS % ("", ""), 4)
        targets = prom_get(port, "/api/v1/targets")["activeTargets"]
        meta = prom_get(port, "/api/v1/metadata")
        enabled = prom_range(port, "dpdk_pmu_time_enabled_seconds_total[30s]", 4, 5)
        calls = prom_range(port, "dpdk_pmu_stage_calls_total[30s]", 4)
        items = prom_range(port, "dpdk_pmu_stage_items_total[30s]", 4, 5)
        stage_events = prom_range(port, EVENT_METRICS % ("stage_", "stage_"), 4, 5)
        paths = prom_range(port, "dpdk_pmu_event_read_path", 0, 5)
        status = prom_range(port, "dpdk_pmu_lcore_status", 0, 5)
        inexact = prom_range(port, "dpdk_pmu_stage_inexact", 0, 5)
        parts = {k: prom_range(port, EVENT_METRICS % (k, k), 4, 5)
                 for k in ("stage_self_", "stage_lcore_")}
    except (OSError, RuntimeError, ValueError, KeyError) as e:
        report(False, "prometheus: HTTP API answers", e)
        return
    report(targets and all(t["health"] == "up" for t in targets),
           "prometheus: scrapes the exporter (target up)", f"targets {targets}")
    # OpenMetrics names the family without _total, the text format with it.
    types = [m["type"] for name in ("events", "event_seconds", "stage_calls", "stage_items",
                                    "stage_events", "stage_event_seconds")
             for m in meta.get(f"dpdk_pmu_{name}", []) + meta.get(f"dpdk_pmu_{name}_total", [])]
    report(types == ["counter"] * 6, "prometheus: dpdk_pmu_{events,event_seconds,stage_calls,"
           "stage_items,stage_events,stage_event_seconds}_total are counters",
           f"metadata {types}, {sorted(n for n in meta if n.startswith('dpdk'))}")
    lcores, ok = per_event(series, ("lcore",), events, ("cpu",))
    report(ok, f"prometheus: one series per lcore and event, {'/'.join(CLOCKS)} in seconds "
           "under dpdk_pmu_event_seconds_total, counts under dpdk_pmu_events_total, labels "
           f"lcore, event, cpu, no path ({len(series)} series, lcores "
           f"{sorted(k[0] for k in lcores)})",
           f"series {[s['metric'] for s in series]}")
    check_labels(lcores, paths, status, events)
    first = values_of(s for s in series if s["metric"].get("event") == events[0])
    report(first and all(growing(v, True) for v in first) and
           all(growing(v, False) for v in values_of(series)),
           f"prometheus: {events[0]} grows at every scrape, the others never fall "
           f"({[v[0] for v in first]} -> {[v[-1] for v in first]})", f"{first}")
    report(enabled and all(growing(v, True) for v in values_of(enabled)),
           "prometheus: dpdk_pmu_time_enabled_seconds_total grows", f"{enabled}")
    pairs = {(s["metric"].get("lcore"), s["metric"].get("stage")) for s in calls}
    report(calls and all(set(s["metric"]) - {"__name__", "job", "instance"} ==
                         {"lcore", "stage"} for s in calls + items) and
           pairs == {(s["metric"].get("lcore"), s["metric"].get("stage")) for s in items},
           f"prometheus: stage calls and items, one series per lcore and stage, labels "
           f"lcore and stage ({sorted(pairs)})", f"{[s['metric'] for s in calls + items]}")
    groups, ok = per_event(stage_events, ("lcore", "stage"), events)
    report(ok and set(groups) == pairs, "prometheus: dpdk_pmu_stage_events_total and "
           "dpdk_pmu_stage_event_seconds_total, one series per lcore, stage and event, time "
           f"events in seconds, labels lcore, stage, event ({len(stage_events)} series)",
           f"{[s['metric'] for s in stage_events]}")
    groups = {}
    for s in inexact:
        groups.setdefault((s["metric"].get("lcore"), s["metric"].get("stage")), []).append(
            s["metric"].get("event"))
    marks = sorted((s["metric"].get("lcore"), s["metric"].get("stage"), s["metric"].get("event"))
                   for s in inexact if s["value"][1] == "1")
    report(set(groups) == pairs and all(sorted(g) == sorted(events) for g in groups.values())
           and all(s["value"][1] in ("0", "1") for s in inexact),
           "prometheus: dpdk_pmu_stage_inexact, 0 or 1, one series per lcore, stage and event "
           f"({len(inexact)} series; 1 for {marks})", f"{[s['metric'] for s in inexact]}")
    check_parts(parts, pairs, events)
    values = {(s["metric"]["lcore"], s["metric"]["stage"]): v
              for s, v in zip(calls, values_of(calls))}
    report(values and all(growing(v, True) for v in values.values()) and
           all(growing(v, False) for v in values_of(items + stage_events)),
           "prometheus: every stage's calls grow at every scrape, items and events never "
           f"fall ({ {k: (v[0], v[-1]) for k, v in values.items()} })", f"{values}")


def check_parts(parts, pairs, events):
    """Each lcore of the stages has its whole (as its stage reads counted it)
    per event; at every scrape its stages' self figures add up to no more
    than that whole."""
    wholes, ok = per_event(parts["stage_lcore_"], ("lcore",), events)
    at = {}  # (lcore, event, time): [stages' self sum, whole]
    for i, k in enumerate(("stage_self_", "stage_lcore_")):
        for s in parts[k]:
            for t, v in s["values"]:
                point = at.setdefault((s["metric"].get("lcore"), s["metric"].get("event"), t),
                                      [0.0, None])
                point[i] = point[i] + float(v) if i == 0 else float(v)
    over = sorted((k, v) for k, v in at.items() if v[1] is None or v[0] > v[1] * (1 + 1e-9))
    lcores = {l for l, _ in pairs}
    report(ok and {l for l, in wholes} == lcores and at and not over,
           "prometheus: dpdk_pmu_stage_lcore_*, one series per lcore and event; at each of "
           f"{len({t for _, _, t in at})} scrapes each lcore's stages add up to no more "
           f"than it ({len(at)} points, lcores {sorted(lcores)})",
           f"lcores {sorted(wholes)} of {sorted(lcores)}; over: {over[:5]}")


def check_dashboard(port, events, rules, dashboard, alerts):
    """The recording rules loaded and each giving series; every expression of
    the dashboard's panels, its variables replaced by their "all", giving
    series. IPC needs cycles and instructions: ci-observe.sh skips it without.
    The alerting rules loaded, none of them pending or firing on the healthy
    application."""
    ipc = re.search(r"(^|,)(cpu_)?cycles(,|$)", events)
    with open(rules) as f:
        records = re.findall(r"^\s*- record:\s*(\S+)", f.read(), re.M)
    with open(alerts) as f:
        names = re.findall(r"^\s*- alert:\s*(\S+)", f.read(), re.M)
    with open(dashboard) as f:
        dash = json.load(f)
    variables = {v["name"]: v for v in dash["templating"]["list"]}
    panels = dash["panels"] + [q for p in dash["panels"] for q in p.get("panels", [])]
    report(variables.get("datasource", {}).get("type") == "datasource" and
           all(x["datasource"]["uid"] == "${datasource}" for p in panels
               for x in [p] + p["targets"]),
           f"dashboard: {len(panels)} panels, the datasource a variable", f"{variables}")
    for _ in range(20):  # ci-observe.sh has just sent the server SIGHUP
        try:
            rules = [r for g in prom_get(port, "/api/v1/rules")["groups"] for r in g["rules"]]
        except (OSError, RuntimeError, ValueError, KeyError) as e:
            rules = [{"name": str(e), "type": "error"}]
        loaded = [r["name"] for r in rules if r["type"] == "recording"]
        alerting = [r for r in rules if r["type"] == "alerting"]
        if loaded == records and [r["name"] for r in alerting] == names and \
                all(r["health"] != "unknown" for r in alerting):
            break
        time.sleep(0.5)
    report(loaded == records, f"prometheus: loaded the recording rules {records}",
           f"loaded {loaded}")
    report([r["name"] for r in alerting] == names and
           all(r["health"] == "ok" and r["state"] == "inactive" for r in alerting),
           f"prometheus: loaded the alerting rules {names}, evaluated, none pending or firing",
           f"{[(r['name'], r['health'], r['state'], r.get('alerts')) for r in alerting]}")
    # A variable of one value (the time event): its query finds its default.
    for name, v in variables.items():
        m = re.fullmatch(r"label_values\((.*), (\w+)\)", v.get("definition", ""))
        if m and not v.get("includeAll"):
            found = {s["metric"].get(m.group(2)) for s in prom_range(port, m.group(1), 0, 20)}
            report(v["current"]["value"] in found, f"dashboard: variable {name}'s query "
                   f"{v['definition']} gives {sorted(found)}, its default "
                   f"{v['current']['value']} in", "not in")
    exprs = [(r, r) for r in records]
    for p in panels:
        for t in p["targets"]:
            e = t["expr"].replace("$__rate_interval", "1m")
            for name, v in variables.items():
                e = re.sub(r"\$\{?" + name + r"\b\}?", v.get("allValue") or
                           v.get("current", {}).get("value", ".*"), e)
            exprs.append((f"dashboard panel \"{p['title']}\": {e}", e))
    for what, e in exprs:
        if "ipc" in e and not ipc:
            print(f"info: not run: {what}")
            continue
        try:
            n = len(prom_range(port, e, 0, 20))
        except (OSError, RuntimeError, ValueError, KeyError) as err:
            n, what = 0, f"{what}: {err}"
        report(n > 0, f"prometheus: {what} gives {n} series", "no series")


# ---- trace -----------------------------------------------------------------

EVENT_RE = re.compile(r"(lib\.pmu\.[a-z.]+): \{ (.*?) \}, \{ ?(.*?) ?\}$")
FIELD_RE = re.compile(r'(\w+) = ("[^"]*"|-?(?:0x[0-9A-Fa-f]+|\d+))')


def fields(text):
    return {k: v.strip('"') if v.startswith('"') else int(v, 0)
            for k, v in FIELD_RE.findall(text)}


def decode_records(trace_dir):
    """babeltrace's (or babeltrace2's) decoding of a trace: (tool, [(name,
    context fields, payload fields)]); an error when neither decodes it."""
    tool = next((t for t in ("babeltrace", "babeltrace2") if shutil.which(t)), None)
    if tool is None:
        raise RuntimeError("neither babeltrace nor babeltrace2 is installed")
    res = subprocess.run([tool, trace_dir], capture_output=True, text=True, timeout=60,
                         check=False)
    if res.returncode != 0:
        raise RuntimeError(f"{tool}: {' '.join(res.stderr.split())[-300:]}")
    return tool, [(m.group(1), fields(m.group(2)), fields(m.group(3)))
                  for m in map(EVENT_RE.search, res.stdout.splitlines()) if m]


def check_trace_error(trace_dir, spec):
    """The failed open named by LCORE:OP:ERR is the one lib.pmu.error record,
    written on that lcore's CPU, and its lib.pmu.group.open has the same ret."""
    lcore, op, err = spec.split(":")
    lcore, err = int(lcore), int(err)
    tool, records = decode_records(trace_dir)
    errors = [(r[1].get("cpu_id"), r[2]) for r in records if r[0] == "lib.pmu.error"]
    # pmu_autotest also reads indexes never added: each is recorded as op
    # "index", err -22 (EINVAL), by design; the open failure is the other one.
    index = [e for e in errors if e[1].get("op") == "index"]
    errors = [e for e in errors if e[1].get("op") != "index"]
    report(len(index) > 0 and all(e[1].get("err") == -22 for e in index),
           f"trace: reads of an index never added recorded as lib.pmu.error op index, "
           f"err -22 ({len(index)})", f"got {index[:3]}")
    want = [(lcore, {"lcore_id": lcore, "op": op, "err": err})]
    report(errors == want,
           f"trace: {tool} decodes one lib.pmu.error (lcore {lcore}, op {op}, err {err}) "
           f"on that lcore's CPU", f"got {errors}")
    failed = [r[2] for r in records if r[0] == "lib.pmu.group.open" and r[2].get("ret") != 0]
    report([(o.get("lcore_id"), o.get("ret")) for o in failed] == [(lcore, err)],
           f"trace: the failed lib.pmu.group.open (lcore {lcore}) has ret {err}",
           f"got {failed}")


def check_trace(trace_dir, events, stages=None):
    events = events.split(",")
    tool, records = decode_records(trace_dir)
    names = [r[0] for r in records]
    if stages is not None:
        regs = [(r[2].get("name"), r[2].get("ret")) for r in records
                if r[0] == "lib.pmu.stage.register"]
        report(regs == [(n, i) for i, n in enumerate(stages.split(","))],
               f"trace: lib.pmu.stage.register names each stage with its id ({stages})",
               f"got {regs}")
    report(names[:1] == ["lib.pmu.init"] and records[0][2].get("ret") == 0 and
           names[-1:] == ["lib.pmu.fini"],
           f"trace: {tool} decodes lib.pmu.init first (ret 0) and lib.pmu.fini last "
           f"({len(records)} records)", f"names {sorted(set(names))}")
    adds = [(r[2].get("name"), r[2].get("ret")) for r in records if r[0] == "lib.pmu.event.add"]
    report(adds == [(e, i) for i, e in enumerate(events)],
           "trace: lib.pmu.event.add names each event with its index", f"got {adds}")
    opens = [r for r in records if r[0] == "lib.pmu.group.open"]
    closes = {r[2].get("lcore_id") for r in records if r[0] == "lib.pmu.group.close"}
    workers = {r[2].get("lcore_id") for r in opens}
    # -l 0-1 pins lcore n to CPU n: a record's CPU says which thread wrote
    # it (thread names are not reliable: a worker's is set after it starts).
    report(opens and all(r[2].get("ret") == 0 and r[2].get("num_events") == len(events) and
                         r[1].get("cpu_id") == r[2].get("lcore_id") for r in opens) and
           closes == workers and 0 not in workers,
           f"trace: lib.pmu.group.open (ret 0) on the CPU of each worker lcore "
           f"{sorted(workers)}, lib.pmu.group.close for each",
           f"opens {opens}, closes {closes}")
    reads = [r for r in records if r[0] == "lib.pmu.read"]
    ok = bool(reads) and all(r[1].get("cpu_id") == r[2].get("lcore_id") and
                             r[2].get("lcore_id") in workers for r in reads)
    grow = True
    counts = {}
    for lcore in workers:
        for idx in range(len(events)):
            vals = [r[2]["value"] for r in reads
                    if r[2].get("lcore_id") == lcore and r[2].get("index") == idx]
            counts[(lcore, idx)] = len(vals)
            grow &= len(vals) >= 3 and growing(vals, idx == 0)
    report(ok and grow,
           f"trace: lib.pmu.read records each event on its lcore's CPU, "
           f"{events[0]} growing, the others never falling ({len(reads)} records)",
           f"per (lcore, index) {counts}")


# ---- the exporter's systemd unit ---------------------------------------------

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
        for script, args, status, want in BAD_RUNS:
            args = [text if a == "TEXT" else a for a in args]
            want = want.replace("TEXT", text)
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


class FakeSocket:
    """Telemetry replies from a dict, as pmu.py's metrics() and dpdk-pmu-top's
    take_snapshot() ask for them; the requests in asked, pid as the
    greeting's."""

    def __init__(self, replies, pid=1):
        self.replies = replies
        self.asked = []
        self.pid = pid

    def cmd(self, uri, arg=None):
        """The reply to URI[,ARG], or None."""
        self.asked.append(uri if arg is None else f"{uri},{arg}")
        return self.replies.get(self.asked[-1])

    def close(self):
        """Nothing to close."""


EVENTS_TC = {"task_clock": {"name": "task-clock", "unit": "ns"}}


def load_pmu():
    """usertools/telemetry-endpoints/pmu.py as a module."""
    spec = importlib.util.spec_from_file_location(
        "pmu", os.path.join(REPO, "usertools", "telemetry-endpoints", "pmu.py"))
    pmu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pmu)
    return pmu


def load_top():
    """usertools/dpdk-pmu-top (a script without .py) as a module."""
    loader = importlib.machinery.SourceFileLoader(
        "dpdk_pmu_top", os.path.join(REPO, "usertools", "dpdk-pmu-top"))
    spec = importlib.util.spec_from_loader("dpdk_pmu_top", loader)
    top = importlib.util.module_from_spec(spec)
    loader.exec_module(top)
    return top


def stage_reply(name, sid, lcores, misuse=0, calls=5):
    """A /pmu/stage reply as the library gives it: the figures of each lcore
    in lcores ({} for none; None to leave the key out), and their total."""
    ev = {"value": 10, "self_value": 10, "overhead": 0, "inexact": 0}
    fig = {"calls": calls, "items": calls, "measured": calls, "misuse": misuse,
           "lcore_misuse": 3, "events": {"task_clock": ev}}
    reply = {"stage": name, "id": sid, "sampling_period": 1, "events": EVENTS_TC,
             "total": dict(fig, calls=calls * max(1, len(lcores or ())))}
    if lcores is not None:
        reply["lcores"] = {str(l): fig for l in lcores}
    return reply


def check_misuse_sum():
    """dpdk_pmu_stage_misuse_total of an lcore: every stage's misuse on it
    added up, and its calls naming no registered stage (lcore_misuse, which
    each stage's figures repeat) once: rx 7 and tx 2 with an lcore_misuse of
    3 give 12. Then the checks of pages (check_pages) and of dpdk-pmu-top's
    interval (check_top_window)."""
    pmu = load_pmu()
    sock = FakeSocket({"/pmu/info": {"initialized": 1, "events": EVENTS_TC, "lcores": {}},
                       "/pmu/stages": {"names": ["rx", "tx"], "num_stages": 2, "first": 0},
                       "/pmu/stage,rx": stage_reply("rx", 0, [1], 7),
                       "/pmu/stage,tx": stage_reply("tx", 1, [1], 2)})
    got = [m for m in pmu.metrics(sock) if m[0] == pmu.STAGE_MISUSE]
    report(got == [(pmu.STAGE_MISUSE, 12, {"lcore": "1"})],
           "pmu.py: dpdk_pmu_stage_misuse_total of an lcore adds up its stages' misuse and "
           f"its lcore_misuse once (rx 7, tx 2, lcore 3: {got[0][1] if got else '?'})",
           f"{got}")
    check_pages()
    check_top_window()


def paged_replies():
    """Replies in pages, as the library gives them where a list does not fit
    in one: /pmu/stages 2 names of 3, then the third from id 2 (a name
    ending in a comma and digits); rx's lcores 1, 2, then 5, 7 from
    next_lcore 5; "a,1"'s 3, then 9; /pmu/stage_lcores lcore 1, then 2, 3,
    5, 7, 9 from next_lcore 2."""
    lcore = {"measured": 5, "task_clock": {"name": "task-clock", "unit": "ns", "total": 100,
                                           "outside": 10, "outside_inexact": 0}}
    return {"/pmu/info": {"initialized": 1, "events": EVENTS_TC, "lcores": {}},
            "/pmu/stages": {"names": ["rx", "tx"], "num_stages": 3, "first": 0},
            "/pmu/stages,2": {"names": ["a,1"], "num_stages": 3, "first": 2},
            "/pmu/stage,rx": dict(stage_reply("rx", 0, [1, 2]), next_lcore=5),
            "/pmu/stage,rx,5": stage_reply("rx", 0, [5, 7]),
            "/pmu/stage,tx": stage_reply("tx", 1, [1]),
            "/pmu/stage,a,1": dict(stage_reply("a,1", 2, [3]), next_lcore=9),
            "/pmu/stage,a,1,9": stage_reply("a,1", 2, [9]),
            "/pmu/stage_lcores": {"1": lcore, "next_lcore": 2},
            "/pmu/stage_lcores,2": {str(l): lcore for l in (2, 3, 5, 7, 9)}}


# Every (lcore, stage) of paged_replies(), and the same where the library
# is one from before the pages (an old one): /pmu/stages lists 1 name of 3
# (no "first"; /pmu/stages,1 refused), rx's reply has no lcores at all.
PAGED = [("1", "rx"), ("2", "rx"), ("5", "rx"), ("7", "rx"), ("1", "tx"), ("3", "a,1"),
         ("9", "a,1")]
OLD = {"/pmu/info": {"initialized": 1, "events": EVENTS_TC, "lcores": {}},
       "/pmu/stages": {"names": ["rx"], "num_stages": 3},
       "/pmu/stage,rx": stage_reply("rx", 0, None)}


class Said(logging.Handler):
    """The lines logged to a logger, kept."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def check_pages():
    """pmu.py and dpdk-pmu-top follow the pages of /pmu/stages (first),
    /pmu/stage,<name>[,<lcore>] and /pmu/stage_lcores (next_lcore) to every
    stage and lcore; with a library from before the pages, they say what
    they could not read (the exporter in dpdk_pmu_stages_missing and its
    log, dpdk-pmu-top in its snapshot's lines). dpdk-pmu-top restarts its
    figures at a new pid, the counts grown."""
    pmu, top = load_pmu(), load_top()
    sock = FakeSocket(paged_replies())
    out = pmu.metrics(sock)
    got = sorted((m[2]["lcore"], m[2]["stage"]) for m in out if m[0] == pmu.STAGE_CALLS)
    missing = [m[1] for m in out if m[0] == pmu.STAGES_MISSING]
    report(got == sorted(PAGED) and missing == [0] and "/pmu/stage,a,1,9" in sock.asked,
           f"pmu.py: follows the pages of /pmu/stages (first) and /pmu/stage (next_lcore): "
           f"{len({g[1] for g in got})} stages of 3, {len(got)} (lcore, stage) series of "
           f"{len(PAGED)}, dpdk_pmu_stages_missing {missing}",
           f"got {got}, missing {missing}, asked {sock.asked}")
    said = Said()
    pmu.LOG.addHandler(said)
    try:
        out = pmu.metrics(FakeSocket(OLD))
    finally:
        pmu.LOG.removeHandler(said)
    missing = [m[1] for m in out if m[0] == pmu.STAGES_MISSING]
    report(missing == [3] and any("1 of 3 stages read" in l for l in said.lines) and
           any("stage rx: no lcore" in l for l in said.lines),
           "pmu.py: a library before the pages (1 name of 3, a stage without lcores): "
           f"dpdk_pmu_stages_missing {missing} and a warning logged", f"{said.lines}")

    socks = [FakeSocket(paged_replies())]
    top.TelemetrySocket = lambda path, timeout: socks[-1]
    snap = top.take_snapshot("fake", 1)
    got = sorted((str(k[0]), k[1]) for k in snap.figures if k[0] != "total")
    report(got == sorted(PAGED) and sorted(k for k in snap.lcores if k != "total") ==
           [1, 2, 3, 5, 7, 9] and not snap.missing,
           "dpdk-pmu-top: follows the pages of /pmu/stages, /pmu/stage and "
           f"/pmu/stage_lcores: {len(got)} (lcore, stage) rows of {len(PAGED)}, the "
           f"lines of lcores {sorted(k for k in snap.lcores if k != 'total')}",
           f"got {got}, lcores {snap.lcores}, missing {snap.missing}, "
           f"asked {socks[-1].asked}")
    socks.append(FakeSocket(OLD))
    snap = top.take_snapshot("fake", 1)
    report(any("1 of 3 stages read" in l for l in snap.missing) and
           any("stage rx: no lcore" in l for l in snap.missing) and
           ("total", "rx") in snap.figures,
           "dpdk-pmu-top: a library before the pages: says 1 of 3 stages read and rx "
           "without lcores (its total shown)", f"{snap.missing}, {list(snap.figures)}")

    # Stages x and x,1 as this library answers them: /pmu/stage,x,1 is x
    # from lcore 1, x,1 is asked for as x,1,0 (the library before took
    # x,1 whole, and x's lcores from 1 were left out).
    comma = {"/pmu/info": {"initialized": 1, "events": EVENTS_TC, "lcores": {}},
             "/pmu/stages": {"names": ["x", "x,1"], "num_stages": 2, "first": 0},
             "/pmu/stage,x": dict(stage_reply("x", 0, [0]), next_lcore=1),
             "/pmu/stage,x,1": stage_reply("x", 0, [1]),
             "/pmu/stage,x,1,0": stage_reply("x,1", 1, [0])}
    want = [("0", "x"), ("0", "x,1"), ("1", "x")]
    out = pmu.metrics(FakeSocket(comma))
    got = sorted((m[2]["lcore"], m[2]["stage"]) for m in out if m[0] == pmu.STAGE_CALLS)
    missing = [m[1] for m in out if m[0] == pmu.STAGES_MISSING]
    socks.append(FakeSocket(comma))
    snap = top.take_snapshot("fake", 1)
    tgot = sorted((str(k[0]), k[1]) for k in snap.figures if k[0] != "total")
    report(got == want and missing == [0] and tgot == want and not snap.missing,
           "pmu.py and dpdk-pmu-top: stages x and x,1, x in two pages: every (lcore, "
           f"stage) read ({len(got)} and {len(tgot)} of {len(want)})",
           f"pmu.py {got} missing {missing}; top {tgot} missing {snap.missing}")

    # Another run (pid 2) that has counted more than the first (pid 1):
    # the figures start again from it, as where counts go back.
    viewer = top.Viewer(argparse.Namespace(timeout=1, total=False), "fake")
    replies = paged_replies()
    socks.append(FakeSocket(replies, pid=1))
    viewer.refresh()
    more = dict(replies, **{"/pmu/stage,tx": stage_reply("tx", 1, [1], calls=50)})
    socks.append(FakeSocket(more, pid=1))
    viewer.refresh()
    same = viewer.base is not viewer.last
    socks.append(FakeSocket(dict(more, **{"/pmu/stage,tx": stage_reply("tx", 1, [1],
                                                                          calls=500)}),
                            pid=2))
    viewer.refresh()
    report(same and viewer.base is viewer.last and viewer.prev is None,
           "dpdk-pmu-top: a snapshot from another pid (another run, counts grown) "
           "restarts the figures; one from the same pid does not",
           f"same pid kept the base: {same}; new pid: base is last "
           f"{viewer.base is viewer.last}, prev {viewer.prev}")


class SlowSocket(FakeSocket):
    """Replies of an lcore whose figures grow with a clock that ticks at each
    request: lcore 1 counts 1,000 a tick, stages rx and tx 400 each, the
    rest outside. The first /pmu/stage_lcores after a /pmu/stage comes 100
    ticks late (a slow reply on a loaded machine)."""

    def __init__(self, clock):
        super().__init__({})
        self.clock = clock

    def cmd(self, uri, arg=None):
        self.asked.append(uri if arg is None else f"{uri},{arg}")
        clock = self.clock
        clock["t"] += 1
        if uri == "/pmu/stage":
            clock["stage"] = True
        elif uri == "/pmu/stage_lcores" and clock.get("stage") and not clock.get("late"):
            clock["late"] = True
            clock["t"] += 100
        t = clock["t"]
        if uri == "/pmu/info":
            return {"initialized": True, "events": EVENTS_TC}
        if uri == "/pmu/stages":
            return {"names": ["rx", "tx"], "num_stages": 2, "first": 0}
        if uri == "/pmu/stage":
            ev = {"value": 400 * t, "self_value": 400 * t, "overhead": 0, "inexact": 0}
            fig = {"calls": t, "items": t, "measured": t, "misuse": 0, "lcore_misuse": 0,
                   "events": {"task_clock": ev}}
            return {"stage": arg, "id": ["rx", "tx"].index(arg), "sampling_period": 1,
                    "events": EVENTS_TC, "total": fig, "lcores": {"1": fig}}
        if uri == "/pmu/stage_lcores":
            return {"1": {"measured": 2 * t, "task_clock": {
                "name": "task-clock", "unit": "ns", "total": 1000 * t, "outside": 200 * t,
                "outside_inexact": 0}}}
        return None


def check_top_window():
    """dpdk-pmu-top: an interval's lcore total holds its stages' figures
    however long a snapshot's reads take: the stages of an interval add up
    to no more than the lcore's total of it."""
    top = load_top()
    clock = {"t": 0}
    top.TelemetrySocket = lambda path, timeout: SlowSocket(clock)
    first = top.take_snapshot("fake", 1)
    last = top.take_snapshot("fake", 1)
    stages = sum(top.delta(last, first, (1, name))[3][0] for name in ("rx", "tx"))
    total = top.lcore_delta(last, first, 1)[1][0]
    report(0 < stages <= total, "dpdk-pmu-top: a snapshot whose lcore totals came 100 ticks "
           f"after its stages: the interval's stages add up to {stages}, its lcore total "
           f"{total} ({100.0 * stages / total if total else 0:.1f} %, at most 100 %)",
           f"stages {stages}, total {total}")


class ClockSocket(FakeSocket):
    """Replies of two lcores whose task-clock grows with the time since
    start (time.monotonic()): lcores 1 and 2 each count 0.9 s a second,
    0.5 s of it in their stage rx, the rest outside it."""

    def __init__(self, start, name="task-clock"):
        super().__init__({})
        self.start = start
        self.name = name

    def cmd(self, uri, arg=None):
        self.asked.append(uri if arg is None else f"{uri},{arg}")
        ns = int((time.monotonic() - self.start) * 1e9)
        events = {"task_clock": {"name": self.name, "unit": "ns"}}
        if uri == "/pmu/info":
            return {"initialized": True, "events": events}
        if uri == "/pmu/stages":
            return {"names": ["rx"], "num_stages": 1, "first": 0}
        if uri == "/pmu/stage" and arg == "rx":
            def fig(n):
                ev = {"value": n * ns // 2, "self_value": n * ns // 2,
                      "overhead": 0, "inexact": 0}
                return {"calls": n * ns // 1000, "items": n * ns // 1000,
                        "measured": n * ns // 1000, "misuse": 0, "lcore_misuse": 0,
                        "events": {"task_clock": ev}}
            return {"stage": "rx", "id": 0, "sampling_period": 1, "events": events,
                    "total": fig(2), "lcores": {"1": fig(1), "2": fig(1)}}
        if uri == "/pmu/stage_lcores":
            lcore = {"measured": ns // 1000, "task_clock": {
                "name": self.name, "unit": "ns", "total": ns * 9 // 10,
                "outside": ns * 9 // 10 - ns // 2, "outside_inexact": 0}}
            return {"1": lcore, "2": lcore}
        return None


def top_once(top, total, name="task-clock"):
    """dpdk-pmu-top --once --json [--total] on a ClockSocket (of event
    @name): its object."""
    start = time.monotonic() - 10
    top.TelemetrySocket = lambda path, timeout: ClockSocket(start, name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        top.once(argparse.Namespace(timeout=1, interval=300, total=total, json=True), "fake")
    return json.loads(out.getvalue())


def check_top_total():
    """dpdk-pmu-top's %lcore with task-clock: per lcore, each row's share of a
    second (two lcores at 90 %, rx 50 % of it); in the total block (--total),
    each row's share of the lcores' summed total, so that the rows and the
    outside line add up to the total, 100 % (the sum of the lcores' shares,
    180 %, went above it)."""
    top = load_top()
    # task-clock:u is a time event too, as perf takes it (a modifier left out).
    for name in ("task-clock", "task-clock:u"):
        each = top_once(top, False, name)
        pct = {(r["lcore"], r["stage"]): r["lcore_pct"] for r in each["rows"] + each["lcores"]}
        want = {(1, "rx"): 50, (1, "(lcore total)"): 90, (1, "(outside stages)"): 40}
        report(all(pct.get(k) is not None and abs(pct[k] - v) < 5 for k, v in want.items()),
               f"dpdk-pmu-top --once, {name}, per lcore: %lcore each row's share of the "
               "lcore's time (lcore 1: " + ", ".join(
                   f"{k[1]} {pct.get(k) or 0:.1f}" for k in want) + ")", f"{pct}")
    # IPC of a pair of the same modifiers only, as perf pairs them; %lcore
    # with msr/tsc/u as with msr/tsc/.
    titles = {tuple(e): [c.title for c in top.columns(e)] for e in
              (["cycles:u", "instructions:u"], ["cycles:k", "instructions:u"], ["msr/tsc/u"])}
    report("IPC" in titles[("cycles:u", "instructions:u")] and
           "IPC" not in titles[("cycles:k", "instructions:u")] and
           "%lcore" in titles[("msr/tsc/u",)],
           "dpdk-pmu-top: IPC for cycles:u with instructions:u, none for cycles:k with "
           "instructions:u; %lcore with msr/tsc/u", f"{titles}")
    tot = top_once(top, True)
    pct = {r["stage"]: r["lcore_pct"] for r in tot["rows"] + tot["lcores"]}
    whole, rows = pct.get("(lcore total)"), pct.get("rx")
    outside = pct.get("(outside stages)")
    report(None not in (whole, rows, outside) and abs(whole - 100) < 0.01 and
           max(whole, rows, outside) <= 100.01 and abs(rows + outside - whole) < 1,
           "dpdk-pmu-top --once --total, task-clock on two lcores: %lcore a share of their "
           f"summed total, rows and outside adding up to it, at most 100 % (rx "
           f"{rows or 0:.1f} + outside {outside or 0:.1f} = total {whole or 0:.1f})",
           f"{pct}")


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
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    report(port and port.group(1) != "0" and
           re.search(r"^dpdk_pmu_up 0\.0$", text, re.M),
           f"dpdk-pmu-exporter -p 0: logs the port bound ({port.group(1) if port else '?'}), "
           "which serves dpdk_pmu_up 0 (no application)", f"{line.strip()} {text[-300:]}")


if __name__ == "__main__":
    main({"telemetry": (3, check_telemetry), "prometheus": (2, check_prometheus),
          "dashboard": (5, check_dashboard), "trace": ((2, 3), check_trace),
          "trace-error": (2, check_trace_error), "unit-exec": (3, check_unit_exec),
          "missing-files": (0, check_missing_files),
          "bad-arguments": (0, check_bad_arguments), "any-port": (0, check_any_port),
          "misuse-sum": (0, check_misuse_sum), "pages": (0, check_pages),
          "top-total": (0, check_top_total), "no-terminal": (0, check_no_terminal)},
         __doc__)
