# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: a running application's /pmu/* telemetry
commands through Debian's dpdk-telemetry.py (shapes, growth, totals,
errors); the words the exporter's labels share with them (read paths,
clock events) and growing(), for the Prometheus and trace checks.
"""

import json
import os
import re
import subprocess
import sys
import time

from ci_common import report


TELEMETRY = "/usr/bin/dpdk-telemetry.py"


def growing(samples, strict):
    """True when each value is above (strict) or not below the one before."""
    pairs = list(zip(samples, samples[1:]))
    if strict:
        return len(pairs) > 0 and all(b > a for a, b in pairs)
    return all(b >= a for a, b in pairs)



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

