# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""perf stat's CSV (perf stat -x SEP, perf 6.1), which dpdk-test-pmu -x SEP
prints too: one parser for both, so that CI compares them field by field.

A line, perf's fields in perf's order (those in brackets where they apply):

    [interval stamp] [who] value unit event [variance%] run-time
    percent-running metric-value metric-unit [more...]

The stamp is seconds with 9 decimals (-I); who is perf's CPU0 (-A),
comm-tid (--per-thread) or the tool's lcore1 (-A); value is a number or
<not supported> / <not counted>; more is what follows perf's fields (the
tool's net-of-read-cost or raw). Lines that are empty or start with "#"
(perf -o FILE's header) are left out.
"""

import csv
import re

STAMP = re.compile(r"^\s*\d+\.\d{9}$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def _fields(line, sep):
    if len(sep) == 1:
        return next(csv.reader([line], delimiter=sep))
    return line.split(sep)


def _float(text):
    return float(text) if NUMBER.match(text) else None


def parse(text, sep=","):
    """A dict per line: interval (float or None), who (str or None),
    value (float; None when not counted), counted (the value's text), unit,
    event, variance (float or None), runtime (int), running (float),
    metric (float or None), metric_unit, more (list of str)."""
    lines = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = _fields(line, sep)
        rec = {"interval": None, "who": None}
        if STAMP.match(f[0]):
            rec["interval"] = float(f.pop(0))
        if not NUMBER.match(f[0]) and not f[0].startswith("<not "):
            rec["who"] = f.pop(0)
        rec["counted"], rec["unit"], rec["event"] = f[0], f[1], f[2]
        rec["value"] = _float(f[0])
        f = f[3:]
        rec["variance"] = None
        if f and f[0].endswith("%"):
            rec["variance"] = float(f.pop(0)[:-1])
        rec["runtime"] = int(f[0])
        rec["running"] = float(f[1])
        rec["metric"] = _float(f[2])
        rec["metric_unit"] = f[3]
        rec["more"] = f[4:]
        lines.append(rec)
    return lines


def by_event(lines):
    """{event: value} of lines (one line per event: the aggregate)."""
    return {r["event"]: r["value"] for r in lines}
