# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""
Telemetry endpoint plugin for librte_pmu, in the shape DPDK's
usertools/dpdk-telemetry-exporter.py loads (info() and metrics(sock)), also
used by dpdk-pmu-exporter. It reads /pmu/info and /pmu/lcore,<id>: one
series per lcore and event, labelled with the lcore, the event name and the
lcore's CPUs; the path the event's reads take ("user", "user (rdtsc)",
"read()", dpdk-test-pmu's words) is a label of its own gauge, so a path that
changes during a run does not split the counter's series, and the lcore's
status ("open", "not_open", an errno's name) a label of another. Then
/pmu/stages and /pmu/stage,<name>: per lcore that ran a stage, its calls,
items and event totals, labelled lcore and stage (and event), and whether
each event's figures are exact; no total series, since a sum over lcores is
what Prometheus computes. Then /pmu/stage_lcores, after the stages: each
lcore's whole as its stage reads counted it, so that the stages' self
counts of a scrape add up to no more than the whole beside them. The replies are read to their last page (a reply
holds as many names or lcores as fit in DPDK's 16 KiB; the next from
"first" or "next_lcore"); the stages that could not be read whole (a
library before the pages) are counted in a gauge and logged.

One metric per unit: the events whose "unit" is "ns" (the kernel's clocks,
task-clock and cpu-clock) go to the *_seconds_total metrics in seconds,
every other event (msr/tsc/ ticks included) to the *_total counts.
"""

import logging
import threading

EVENTS = "events_total"
EVENT_SECONDS = "event_seconds_total"
EVENTS_RAW = "events_raw_total"
EVENT_RAW_SECONDS = "event_raw_seconds_total"
ENABLED = "time_enabled_seconds_total"
RUNNING = "time_running_seconds_total"
STATUS = "lcore_status"
READ_PATH = "event_read_path"
SLOW = "slow_reads_total"
ERRORS = "read_errors_total"
STAGE_CALLS = "stage_calls_total"
STAGE_ITEMS = "stage_items_total"
STAGE_MEASURED = "stage_measured_calls_total"
STAGE_EVENTS = "stage_measured_events_total"
STAGE_SECONDS = "stage_measured_event_seconds_total"
STAGE_CHILDREN = "stage_measured_children_events_total"
STAGE_CHILDREN_SECONDS = "stage_measured_children_event_seconds_total"
STAGE_SAMPLING = "stage_sampling_period"
STAGE_MISUSE = "stage_misuse_total"
STAGE_INEXACT = "stage_inexact"
STAGE_LCORE = "stage_lcore_events_total"
STAGE_LCORE_SECONDS = "stage_lcore_event_seconds_total"
STAGES_MISSING = "stages_missing"
INITIALIZED = "initialized"

# The most replies of /pmu/stages (RTE_PMU_MAX_STAGES names, at least one a
# reply) and of one /pmu/stage (RTE_MAX_LCORE lcores, 128 in Debian's DPDK,
# more where a build raises it) read in a scrape.
MAX_STAGE_PAGES = 1024
MAX_LCORE_PAGES = 1024
# The exporter's log (DPDK's dpdk-telemetry-exporter.py logs to the root).
LOG = logging.getLogger("dpdk-pmu-exporter")
# What the last scrape could not read, logged when it changes.
SAID = []
# Whether the last scrape found rte_pmu initialised (None: none yet),
# logged when it changes, and the pid last found initialised.
INIT_SAID = [None, None]
# Per series of the scaled counters: the raw count and the value last
# exported, of the application process "pid" (scrapes may run at once).
HIGH = {"pid": None, "series": {}}
HIGH_LOCK = threading.Lock()


def info():
    """Metric name: (description, type), as the exporter expects."""
    return {
        EVENTS: ("Event count, scaled for multiplexing (raw * enabled / running).",
                 "counter"),
        EVENT_SECONDS: ("Time event (task-clock, cpu-clock) in seconds, scaled for "
                        "multiplexing.", "counter"),
        EVENTS_RAW: ("Event count as the kernel counted it while on the PMU.", "counter"),
        EVENT_RAW_SECONDS: ("Time event in seconds as the kernel counted it while on "
                            "the PMU.", "counter"),
        ENABLED: ("Time the lcore's event group was enabled, in seconds.", "counter"),
        RUNNING: ("Time the lcore's event group was on the PMU, in seconds.",
                  "counter"),
        STATUS: ("1 for the lcore's group status: status=\"open\", \"not_open\" (not "
                 "yet), or the errno's name of a failed open (\"ENODATA\").", "gauge"),
        READ_PATH: ("1 for the path the lcore's reads of the event take: path=\"user\", "
                    "\"user (rdtsc)\", \"read()\" or \"none\".", "gauge"),
        SLOW: ("Reads that left the fast path (group open, read(), scaling).",
               "counter"),
        ERRORS: ("Reads that returned 0 because read() of the event failed.", "counter"),
        STAGE_CALLS: ("Calls of a stage on an lcore (begin to end).", "counter"),
        STAGE_ITEMS: ("Items (packets) the calls of a stage handled.", "counter"),
        STAGE_MEASURED: ("Calls of a stage whose counters were read (all of them "
                         "unless sampled).", "counter"),
        STAGE_EVENTS: ("Event count inside a stage's measured calls (summed over "
                       "stage_measured_calls_total), stages nested in it included.",
                       "counter"),
        STAGE_SECONDS: ("Time event inside a stage's measured calls in seconds (summed "
                        "over stage_measured_calls_total), stages nested in it "
                        "included.", "counter"),
        STAGE_CHILDREN: ("Event count inside the stages nested in a stage's measured "
                         "calls: its own count is its measured events less these.",
                         "counter"),
        STAGE_CHILDREN_SECONDS: ("Time event inside the stages nested in a stage's "
                                 "measured calls in seconds: its own time is its "
                                 "measured time less this.", "counter"),
        STAGE_SAMPLING: ("A stage measures one call in this many.", "gauge"),
        STAGE_MISUSE: ("Stage calls on an lcore that were misuse (never counted as "
                       "calls), all stages.", "counter"),
        STAGE_INEXACT: ("1 where a stage's figures of the event on the lcore are not "
                        "exact: the stage costs less than the read that measures it, too "
                        "few of its calls were measured, or the lcore's stages were "
                        "scaled down to its total.", "gauge"),
        STAGE_LCORE: ("An lcore's whole count of an event as its stage reads counted it "
                      "(from its first stage read to its last measured call): what its "
                      "stages' self counts add up to no more than.", "counter"),
        STAGE_LCORE_SECONDS: ("An lcore's whole time event in seconds as its stage reads "
                              "counted it.", "counter"),
        STAGES_MISSING: ("Registered stages whose figures the scrape could not read "
                         "whole (all of them, or some of their lcores): 0 where every "
                         "one was read; more with a library that gives no more than a "
                         "reply holds.", "gauge"),
        INITIALIZED: ("1 when the application's rte_pmu is initialised, 0 when it "
                      "answers without it (not initialised, or no PMU library): no "
                      "counter then.", "gauge"),
    }


def clock_keys(pmu):
    """The keys of the time events (unit "ns"), as every reply keys them."""
    return {k for k, e in pmu.get("events", {}).items() if e.get("unit") == "ns"}


def event_value(key, value, clocks, count, seconds):
    """(metric, value in its unit) of an event."""
    return (seconds, value / 1e9) if key in clocks else (count, value)


def app_pid(sock):
    """The application's pid: the greeting's where the socket kept it
    (dpdk-pmu-exporter), else /info's (DPDK's exporter); None if neither."""
    pid = getattr(sock, "pid", None)
    if pid is None:
        pid = (sock.cmd("/info") or {}).get("pid")
    return pid


def say_initialized(initialized, pid):
    """Log whether rte_pmu is initialised, when it changes. True where it
    is not, but was in the same process (pid): the application finishing,
    rte_pmu_fini() run before its telemetry closes."""
    finishing = not initialized and pid is not None and pid == INIT_SAID[1]
    if initialized != INIT_SAID[0]:
        if finishing:
            LOG.info("pmu.py: the application (pid %s) is finishing: rte_pmu_fini() ran",
                     pid)
        elif not initialized:
            LOG.warning("pmu.py: the application answers, but its rte_pmu is not "
                        "initialised (/pmu/info): no counter to export")
        elif INIT_SAID[0] is not None:
            LOG.info("pmu.py: the application's rte_pmu is initialised again")
        INIT_SAID[0] = initialized
    if initialized:
        INIT_SAID[1] = pid
    return finishing


def never_less(pid, series):
    """The scaled counters (name, value, labels) of series, each no less than
    the value last exported of it: raw * enabled / running is an estimate
    that goes down when multiplexing changes, as no counter may. Forgotten
    when the application process (pid) changes, or a series' raw count goes
    down (its counters opened again)."""
    out = []
    with HIGH_LOCK:
        if pid != HIGH["pid"]:
            HIGH["pid"], HIGH["series"] = pid, {}
        high = HIGH["series"]
        for name, value, labels, raw in series:
            key = (name, tuple(sorted(labels.items())))
            last = high.get(key)
            if last is not None and raw >= last[0]:
                value = max(value, last[1])
            high[key] = (raw, value)
            out.append((name, value, labels))
    return out


def metrics(sock):
    """(name, value, labels) of every series, read through sock.cmd()."""
    out = []
    pid = app_pid(sock)
    pmu = sock.cmd("/pmu/info") or {}
    initialized = bool(pmu.get("initialized"))
    finishing = say_initialized(initialized, pid)
    out.append((INITIALIZED, int(initialized), {}))
    if not initialized:
        if not finishing:
            with HIGH_LOCK:
                HIGH["series"] = {}  # counters opened again start from 0
        return out
    clocks = clock_keys(pmu)
    scaled = []
    for lcore_id in pmu.get("lcores", {}):
        lcore = sock.cmd("/pmu/lcore", lcore_id)
        if not lcore:
            continue  # the lcore went away between the two commands
        labels = {"lcore": lcore_id, "cpu": str(lcore["cpu"])}
        out += [
            (STATUS, 1, dict(labels, status=lcore["status"])),
            (SLOW, lcore.get("slow_reads", 0), labels),
            (ERRORS, lcore.get("read_errors", 0), labels),
        ]
        out += [(READ_PATH, 1, dict(labels, event=ev["name"], path=ev["path"]))
                for ev in lcore["events"].values()]
        if "time_enabled" not in lcore:
            continue  # group not open, or not readable now
        out += [
            (ENABLED, lcore["time_enabled"] / 1e9, labels),
            (RUNNING, lcore["time_running"] / 1e9, labels),
        ]
        for key, ev in lcore["events"].items():
            ev_labels = dict(labels, event=ev["name"])
            scaled.append(event_value(key, ev["scaled"], clocks, EVENTS, EVENT_SECONDS) +
                          (ev_labels, ev["raw"]))
            out.append(event_value(key, ev["raw"], clocks, EVENTS_RAW, EVENT_RAW_SECONDS) +
                       (ev_labels,))
    return out + never_less(pid, scaled) + stage_metrics(sock, clocks)


def stage_names(sock, missing):
    """Every registered stage's name and num_stages (None without the
    command): /pmu/stages, then its next pages (from id first plus the names
    listed) until num_stages are in. Where some are out of reach, a line
    appended to missing says how many."""
    reply = sock.cmd("/pmu/stages")
    if reply is None:
        return [], None
    names = list(reply.get("names", []))
    why = None
    for _ in range(MAX_STAGE_PAGES - 1):
        if len(names) >= reply.get("num_stages", 0):
            break
        if "first" not in reply:
            why = "the application's library does not page /pmu/stages"
            break
        page = sock.cmd("/pmu/stages", len(names))
        if not page or page.get("first") != len(names) or not page.get("names"):
            why = f"/pmu/stages,{len(names)} gave no more"  # rte_pmu_fini() meanwhile
            break
        names += page["names"]
        reply = page
    else:
        if len(names) < reply.get("num_stages", 0):
            why = f"stopped after {MAX_STAGE_PAGES} replies of /pmu/stages"
    if why is not None:
        missing.append(f"{len(names)} of {reply['num_stages']} stages read, the others left "
                       f"out: {why}")
    return names, reply.get("num_stages", len(names))


def stage_reply(sock, name, missing):
    """/pmu/stage,<name> with the lcores of its next pages (next_lcore);
    None where the stage is gone. Where lcores are out of reach, (name, why)
    appended to missing says so."""
    stage = sock.cmd("/pmu/stage", name)
    if stage and stage.get("stage", name) != name:
        # A name "<stage>,<digits>" is that stage's lcores from <digits>:
        # the whole name is asked for with its first lcore.
        stage = sock.cmd("/pmu/stage", f"{name},0")
    if not stage:
        return None
    if "lcores" not in stage:
        # A library before the pages leaves the lcores out whole when they
        # do not fit in a reply.
        if stage.get("total", {}).get("calls") or stage.get("total", {}).get("misuse"):
            missing.append((name, "no lcore in /pmu/stage's reply (too many for the "
                                  "application's library)"))
        return dict(stage, lcores={})
    page, lcores = stage, dict(stage["lcores"])
    for _ in range(MAX_LCORE_PAGES - 1):
        if "next_lcore" not in page:
            return dict(stage, lcores=lcores)
        # "<name>,<lcore>": the name of a stage, then an lcore, is that
        # stage's page (a name ending in ",<digits>" never comes first).
        first = page["next_lcore"]
        page = sock.cmd("/pmu/stage", f"{name},{first}")
        if not page or page.get("id") != stage.get("id") or not page.get("lcores") or \
                page.get("next_lcore", first + 1) <= first:
            missing.append((name, f"the lcores from {first} left out: /pmu/stage,"
                                  f"<name>,{first} gave no more"))
            return dict(stage, lcores=lcores)
        lcores.update(page["lcores"])
    if "next_lcore" in page:
        missing.append((name, f"the lcores from {page['next_lcore']} left out: stopped "
                              f"after {MAX_LCORE_PAGES} replies of /pmu/stage"))
    return dict(stage, lcores=lcores)


def stage_lcore_metrics(sock, clocks, missing):
    """Each lcore's whole, from /pmu/stage_lcores and its next pages (none
    from a library without it). Not the part outside its stages: the whole
    less the stages' estimates, it can go down, as no counter may; it is
    the whole less the stages' self series in PromQL."""
    out, first = [], 0
    for _ in range(MAX_LCORE_PAGES):
        page = sock.cmd("/pmu/stage_lcores", first or None) or {}
        for lcore_id, fig in page.items():
            if not lcore_id.isdigit() or int(lcore_id) < first:
                continue
            for key, ev in fig.items():
                if not isinstance(ev, dict) or "total" not in ev:
                    continue
                labels = {"lcore": lcore_id, "event": ev["name"]}
                out.append(event_value(key, ev["total"], clocks, STAGE_LCORE,
                                       STAGE_LCORE_SECONDS) + (labels,))
        if page.get("next_lcore", 0) <= first:
            return out
        first = page["next_lcore"]
    missing.append(f"the lcores' totals from lcore {first} left out: stopped after "
                   f"{MAX_LCORE_PAGES} replies of /pmu/stage_lcores")
    return out


def missing_lines(missing):
    """The lines of missing: its own, then one for each reason given with
    stage names (the stages counted, the first three named)."""
    lines = [m for m in missing if isinstance(m, str)]
    why_names = {}
    for name, why in (m for m in missing if not isinstance(m, str)):
        why_names.setdefault(why, []).append(name)
    for why, names in why_names.items():
        which = (f"stage {names[0]}" if len(names) == 1 else
                 f"{len(names)} stages ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''})")
        lines.append(f"{which}: {why}")
    return lines


def say_missing(missing):
    """Log what the scrape could not read, when it differs from the last's."""
    if missing != SAID:
        for line in missing:
            LOG.warning("pmu.py: %s", line)
        if not missing:
            LOG.info("pmu.py: every stage read whole again")
        SAID[:] = missing


def stage_metrics(sock, clocks):
    """Series of every registered stage, per lcore that ran it, and how many
    stages could not be read whole."""
    out = []
    misuse = {}  # per lcore: its stages' misuse added up, its own misuse
    missing = []
    names, num_stages = stage_names(sock, missing)
    partial = 0
    for name in names:
        before = len(missing)
        stage = stage_reply(sock, name, missing)
        partial += len(missing) > before
        if not stage:
            continue  # dropped by rte_pmu_fini() meanwhile
        out.append((STAGE_SAMPLING, stage["sampling_period"], {"stage": name}))
        for lcore_id, fig in stage.get("lcores", {}).items():
            # lcore_misuse (ids not registered) is the lcore's, in every stage.
            stages_misuse, own = misuse.get(lcore_id, (0, 0))
            misuse[lcore_id] = (stages_misuse + fig["misuse"], max(own, fig["lcore_misuse"]))
            if fig["calls"] == 0:
                continue  # listed for its misuse only
            labels = {"lcore": lcore_id, "stage": name}
            out += [
                (STAGE_CALLS, fig["calls"], labels),
                (STAGE_ITEMS, fig["items"], labels),
                (STAGE_MEASURED, fig["measured"], labels),
            ]
            for key, ev in fig["events"].items():
                ev_labels = dict(labels, event=stage["events"][key]["name"])
                # The sums over the measured calls, which never go down
                # (the estimates value and self_value do, as calls come).
                out += [
                    event_value(key, ev["measured_value"], clocks, STAGE_EVENTS,
                                STAGE_SECONDS) + (ev_labels,),
                    event_value(key, ev["measured_children"], clocks, STAGE_CHILDREN,
                                STAGE_CHILDREN_SECONDS) + (ev_labels,),
                    (STAGE_INEXACT, ev.get("inexact", 0), ev_labels),
                ]
    out += [(STAGE_MISUSE, sum(n), {"lcore": l}) for l, n in sorted(misuse.items())]
    out += stage_lcore_metrics(sock, clocks, missing)
    if num_stages is not None:
        out.append((STAGES_MISSING, max(0, num_stages - len(names)) + partial, {}))
    say_missing(missing_lines(missing))
    return out
