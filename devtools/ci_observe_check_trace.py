# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: the lib.pmu.* trace points of a run
(--trace='lib.pmu.*'), decoded with babeltrace or babeltrace2, and the
lib.pmu.error record of pmu_autotest's open failure.
"""

import re
import shutil
import subprocess

from ci_common import report
from ci_observe_check_telemetry import growing


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


def check_trace_error(trace_dir, specs):
    """The failed opens named by LCORE:OP:ERR (comma-separated) are the
    lib.pmu.error records, each written on its lcore's CPU, and their
    lib.pmu.group.open have the same ret."""
    want = sorted((int(lc), {"lcore_id": int(lc), "op": op, "err": int(err)})
                  for lc, op, err in (s.split(":") for s in specs.split(",")))
    tool, records = decode_records(trace_dir)
    errors = [(r[1].get("cpu_id"), r[2]) for r in records if r[0] == "lib.pmu.error"]
    # pmu_autotest also reads indexes never added: each is recorded as op
    # "index", err -22 (EINVAL), by design; the open failure is the other one.
    index = [e for e in errors if e[1].get("op") == "index"]
    errors = [e for e in errors if e[1].get("op") != "index"]
    report(len(index) > 0 and all(e[1].get("err") == -22 for e in index),
           f"trace: reads of an index never added recorded as lib.pmu.error op index, "
           f"err -22 ({len(index)})", f"got {index[:3]}")
    report(sorted(errors, key=str) == sorted(want, key=str),
           f"trace: {tool} decodes a lib.pmu.error for each failed open ({specs}), on "
           f"its lcore's CPU", f"got {errors}")
    failed = [r[2] for r in records if r[0] == "lib.pmu.group.open" and r[2].get("ret") != 0]
    report(sorted((o.get("lcore_id"), o.get("ret")) for o in failed) ==
           sorted((w[0], w[1]["err"]) for w in want),
           f"trace: each failed lib.pmu.group.open has its ret ({specs})", f"got {failed}")


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

