# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: usertools/dpdk-pmu-exporter as a real
Prometheus scrapes it (series, units, labels, growth), and the recording
rules, alerting rules and Grafana dashboard of usertools/prometheus
evaluated against it.
"""

import json
import math
import os
import re
import time

from ci_common import REPO, prom_get, prom_range, report
from ci_observe_check_telemetry import CLOCKS, PATHS, growing


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
        stage_events = prom_range(port, EVENT_METRICS % ("stage_measured_", "stage_measured_"),
                                  4, 5)
        paths = prom_range(port, "dpdk_pmu_event_read_path", 0, 5)
        status = prom_range(port, "dpdk_pmu_lcore_status", 0, 5)
        inexact = prom_range(port, "dpdk_pmu_stage_inexact", 0, 5)
        initialized = prom_range(port, "dpdk_pmu_initialized", 0, 5)
        started = prom_range(port, "dpdk_pmu_process_start_time_seconds[30s]", 4, 5)
        parts = {k: prom_range(port, EVENT_METRICS % (k, k), 4, 5)
                 for k in ("stage_measured_", "stage_measured_children_", "stage_lcore_")}
    except (OSError, RuntimeError, ValueError, KeyError) as e:
        report(False, "prometheus: HTTP API answers", e)
        return
    report(targets and all(t["health"] == "up" for t in targets),
           "prometheus: scrapes the exporter (target up)", f"targets {targets}")
    report(initialized and all(s["value"][1] == "1" and set(s["metric"]) ==
                               {"__name__", "job", "instance"} for s in initialized),
           "prometheus: dpdk_pmu_initialized 1 (the application's rte_pmu initialised), "
           "no label", f"{initialized}")
    starts = {v for s in started for v in values_of([s])[0]}
    report(len(started) == 1 and set(started[0]["metric"]) == {"__name__", "job", "instance"}
           and len(starts) == 1 and time.time() - 300 < min(starts) < time.time(),
           "prometheus: dpdk_pmu_process_start_time_seconds, no label, the application's "
           f"start in the last 5 minutes, the same at every scrape ({sorted(starts)})",
           f"{started}")
    # OpenMetrics names the family without _total, the text format with it.
    types = [m["type"] for name in ("events", "event_seconds", "stage_calls", "stage_items",
                                    "stage_measured_events", "stage_measured_event_seconds")
             for m in meta.get(f"dpdk_pmu_{name}", []) + meta.get(f"dpdk_pmu_{name}_total", [])]
    report(types == ["counter"] * 6, "prometheus: dpdk_pmu_{events,event_seconds,stage_calls,"
           "stage_items,stage_measured_events,stage_measured_event_seconds}_total are counters",
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
    report(ok and set(groups) == pairs, "prometheus: dpdk_pmu_stage_measured_events_total "
           "and dpdk_pmu_stage_measured_event_seconds_total, one series per lcore, stage and "
           "event, time "
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
    per event; at every scrape its stages' self figures (their measured
    figures less their children's) add up to no more than that whole."""
    wholes, ok = per_event(parts["stage_lcore_"], ("lcore",), events)
    at = {}  # (lcore, event, time): [stages' self sum, whole]
    for k, sign in (("stage_measured_", 1), ("stage_measured_children_", -1),
                    ("stage_lcore_", 0)):
        for s in parts[k]:
            for t, v in s["values"]:
                point = at.setdefault((s["metric"].get("lcore"), s["metric"].get("event"), t),
                                      [0.0, None])
                if sign:
                    point[0] += sign * float(v)
                else:
                    point[1] = float(v)
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
    rules_file = rules
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
        m = re.fullmatch(r"label_values\((.*), (\w+)\)", expand(v.get("definition", ""),
                                                                 variables))
        if m and not v.get("includeAll"):
            found = {s["metric"].get(m.group(2)) for s in prom_range(port, m.group(1), 0, 20)}
            report(v["current"]["value"] in found, f"dashboard: variable {name}'s query "
                   f"{v['definition']} gives {sorted(found)}, its default "
                   f"{v['current']['value']} in", "not in")
    check_instances(variables, panels)
    exprs = [(r, r, False) for r in records]
    for p in panels:
        for t in p["targets"]:
            e = expand(t["expr"], variables)
            exprs.append((f"dashboard panel \"{p['title']}\": {e}", e, True))
            if "$clock" in t["expr"]:
                # An application counting no task-clock (dpdk-pmu-run's
                # default msr/tsc/): the variable finds no value.
                e = expand(t["expr"], variables, {"clock": "no-such-clock"})
                exprs.append((f"dashboard panel \"{p['title']}\" without a task-clock "
                              f"event: {e}", e, True))
    for what, e, panel in exprs:
        if "ipc" in e and not ipc:
            print(f"info: not run: {what}")
            continue
        try:
            series = prom_range(port, e, 0, 20)
        except (OSError, RuntimeError, ValueError, KeyError) as err:
            series, what = [], f"{what}: {err}"
        report(series and (not panel or all("instance" in s["metric"] for s in series)),
               f"prometheus: {what} gives {len(series)} series"
               + (", each with its instance" if panel else ""),
               f"{[s['metric'] for s in series][:3]}")
    check_doc_query(port, rules_file)
    # A fallback of 0 ("or 0 * ...") gives a point where the lcore counted
    # nothing: each such query of the panels is the one tested on a stopped
    # lcore in dpdk-pmu.rules.test.yml.
    fallbacks = [" ".join(expand(t["expr"], variables).split()) for p in panels
                 for t in p["targets"] if " or 0 * " in t["expr"]]
    untested = [e for e in fallbacks if e not in tested_exprs(rules_file)]
    report(fallbacks and not untested, f"dashboard: its {len(fallbacks)} queries with a "
           "fallback of 0 are tested in dpdk-pmu.rules.test.yml (a stopped lcore)",
           f"not there: {untested}")


def tested_exprs(rules):
    """The folded expressions ("- expr: >", then lines indented more) of
    dpdk-pmu.rules.test.yml beside RULES, their blanks one space each."""
    with open(rules.replace(".yml", ".test.yml"), encoding="utf-8") as f:
        return [" ".join(t.split()) for _, t in
                re.findall(r"^( *)- expr: >\n((?:\1   .*\n)+)", f.read(), re.M)]


def expand(expr, variables, values=None):
    """expr with $__rate_interval 1m, each variable its value in values,
    else its "all", else its default."""
    expr = expr.replace("$__rate_interval", "1m")
    for name, v in variables.items():
        value = (values or {}).get(name) or v.get("allValue") or \
            v.get("current", {}).get("value", ".*")
        expr = re.sub(r"\$\{?" + name + r"\b\}?", value, expr)
    return expr


def check_instances(variables, panels):
    """Several exporters (applications) on one dashboard: the variable
    instance (several, all), and every panel's query selecting it, keeping
    it in each sum or count, and naming it in its legend."""
    v = variables.get("instance", {})
    report(v.get("type") == "query" and v.get("multi") and v.get("includeAll") and
           "dpdk_pmu_up" in v.get("definition", ""),
           "dashboard: variable instance, several or all, from dpdk_pmu_up", f"{v}")
    bad = []
    for p in panels:
        for t in p["targets"]:
            e = t["expr"]
            selectors = re.findall(r"\b(?:dpdk_pmu_\w+|\w+:dpdk_pmu_\w+:\w+)(\{[^}]*\})?", e)
            groups = re.findall(r"\b(?:sum|count) by \(([^)]*)\)", e)
            if not all('instance=~"$instance"' in sel for sel in selectors) or \
                    not all("instance" in re.split(r",\s*", g) for g in groups) or \
                    "{{instance}}" not in t.get("legendFormat", ""):
                bad.append((p["title"], e, t.get("legendFormat")))
    report(not bad, "dashboard: every panel's query selects instance=~\"$instance\", sums "
           "and counts by instance, its legend names {{instance}}", f"{bad}")


def check_doc_query(port, rules):
    """pmu_exporter.rst's query of the cost without the rules: the one
    dpdk-pmu.rules.test.yml tests (made-up series), and on the running
    application series, none NaN or infinite."""
    with open(os.path.join(REPO, "doc", "guides", "tools", "pmu_exporter.rst"),
              encoding="utf-8") as f:
        doc = re.search(r"^Without the rules,(?s:.*?)::\n\n((?:   .*\n|\n)+)", f.read(), re.M)
    query = " ".join(doc.group(1).split()) if doc else ""
    report(query and query in tested_exprs(rules),
           "doc: pmu_exporter.rst's query without the rules is tested in "
           "dpdk-pmu.rules.test.yml", query)
    try:
        series = prom_range(port, query, 0, 20) if query else []
    except (OSError, RuntimeError, ValueError, KeyError) as err:
        series = [{"metric": str(err), "value": [0, "NaN"]}]
    odd = [s for s in series if not math.isfinite(float(s["value"][1]))]
    report(series and not odd, f"prometheus: pmu_exporter.rst's query without the rules "
           f"gives {len(series)} series, none NaN or infinite",
           f"{[(s['metric'], s['value'][1]) for s in odd][:3]}")

