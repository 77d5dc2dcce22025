# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""
Telemetry endpoint plugin for librte_pmu, in the shape DPDK's
usertools/dpdk-telemetry-exporter.py loads (info() and metrics(sock)), also
used by dpdk-pmu-exporter. It reads /pmu/info and /pmu/lcore,<id>: one
series per lcore and event, labelled with the lcore, the event name, the
lcore's CPUs and the path its reads take.
"""

EVENTS = "events_total"
EVENTS_RAW = "events_raw_total"
ENABLED = "time_enabled_seconds_total"
RUNNING = "time_running_seconds_total"
STATUS = "lcore_status"
SLOW = "slow_reads_total"
ERRORS = "read_errors_total"


def info():
    """Metric name: (description, type), as the exporter expects."""
    return {
        EVENTS: ("Counter value, scaled for multiplexing (raw * enabled / running).",
                 "counter"),
        EVENTS_RAW: ("Counter value as the kernel counted it while on the PMU.",
                     "counter"),
        ENABLED: ("Time the lcore's event group was enabled, in seconds.", "counter"),
        RUNNING: ("Time the lcore's event group was on the PMU, in seconds.",
                  "counter"),
        STATUS: ("Group status: 1 open, 0 not open yet, negative errno of a failed "
                 "open.", "gauge"),
        SLOW: ("Reads that left the fast path (group open, read(), scaling).",
               "counter"),
        ERRORS: ("Reads that returned 0 because read() of the event failed.", "counter"),
    }


def metrics(sock):
    """(name, value, labels) of every series, read through sock.cmd()."""
    out = []
    pmu = sock.cmd("/pmu/info") or {}
    if not pmu.get("initialized"):
        return out
    for lcore_id in pmu.get("lcores", []):
        lcore = sock.cmd("/pmu/lcore", lcore_id)
        if not lcore:
            continue  # the lcore went away between the two commands
        labels = {"lcore": lcore_id, "cpu": lcore["cpu"]}
        out += [
            (STATUS, lcore["status"], labels),
            (SLOW, lcore.get("slow_reads", 0), labels),
            (ERRORS, lcore.get("read_errors", 0), labels),
        ]
        if "scaled" not in lcore:
            continue  # group not open, or not readable now
        out += [
            (ENABLED, lcore["time_enabled"] / 1e9, labels),
            (RUNNING, lcore["time_running"] / 1e9, labels),
        ]
        for event, path, scaled, raw in zip(lcore["events"], lcore["paths"],
                                            lcore["scaled"], lcore["raw"]):
            ev_labels = dict(labels, event=event, path=path)
            out += [
                (EVENTS, scaled, ev_labels),
                (EVENTS_RAW, raw, ev_labels),
            ]
    return out
