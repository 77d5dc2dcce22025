# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_observe_check.py: usertools/telemetry-endpoints/pmu.py and
dpdk-pmu-top on made-up telemetry replies: the stages' misuse added up,
replies in pages (and a library from before them), a snapshot's slow
reads, and %lcore per lcore and in total; then dpdk-pmu-top's sampled
stages within each lcore's total, on a running program's replies.
"""

import argparse
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import logging
import os
import subprocess
import time

from ci_common import REPO, report, testpmd_start, testpmd_stop


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
    ev = {"value": 10, "self_value": 10, "measured_value": 10, "measured_children": 0,
          "overhead": 0, "inexact": 0}
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
    start (time.monotonic()): lcores 1 and 2 each count @share (0.9 s) a
    second, 0.5 s of it in their stage rx, the rest outside it."""

    def __init__(self, start, name="task-clock", share=0.9):
        super().__init__({})
        self.start = start
        self.name = name
        self.share = share

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
                "name": self.name, "unit": "ns", "total": int(ns * self.share),
                "outside": int(ns * self.share) - ns // 2, "outside_inexact": 0}}
            return {"1": lcore, "2": lcore}
        return None


def top_once(top, total, name="task-clock", share=0.9):
    """dpdk-pmu-top --once --json [--total] on a ClockSocket (of event
    @name, @share): its object."""
    start = time.monotonic() - 10
    top.TelemetrySocket = lambda path, timeout: ClockSocket(start, name, share)
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
    # An lcore whose total reads 1.005 s a second (its last measured call
    # and the tool's clock apart): its total 100 %, not above (100.1 % an
    # outside tester saw), its rows and outside line adding up to it.
    each = top_once(top, False, share=1.005)
    pct = {r["stage"]: r["lcore_pct"] for r in each["rows"] + each["lcores"] if r["lcore"] == 1}
    whole, rows, outside = (pct.get(k) for k in ("(lcore total)", "rx", "(outside stages)"))
    report(None not in (whole, rows, outside) and whole <= 100.0 and
           abs(rows + outside - whole) < 1,
           "dpdk-pmu-top --once, task-clock at 1.005 s a second: %lcore at most 100 "
           f"(rx {rows or 0:.1f} + outside {outside or 0:.1f} = total {whole or 0:.1f})",
           f"{pct}")
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



def top_fit(top_path, prefix, count):
    """COUNT dpdk-pmu-top --once --json --interval 300 (every third --total)
    on PREFIX, after one that shows a stage (30 s at most): their lines
    that break the rule of check_top_fit, and each lcore's %lcore of its
    stages and total."""
    bad, sums, deadline = [], [], time.time() + 30
    i = -1
    while i < count - 1:
        total = ["--total"] if i % 3 == 2 else []
        got = subprocess.run(["/usr/bin/python3", top_path, "-f", prefix, "--once", "--json",
                              "--interval", "300"] + total,
                             capture_output=True, text=True, timeout=30, check=False)
        if i < 0 and (got.returncode or not json.loads(got.stdout)["rows"]):
            if time.time() > deadline:
                return [f"no stage in 30 s: {got.stderr.strip()[-200:]}"], sums
            time.sleep(0.5)
            continue
        i += 1
        rows = json.loads(got.stdout)["rows"] + json.loads(got.stdout)["lcores"]
        for lcore in sorted({r["lcore"] for r in rows}, key=str):
            pct = {}
            for r in (r for r in rows if r["lcore"] == lcore):
                pct[r["kind"]] = pct.get(r["kind"], 0.0) + (r.get("lcore_pct") or 0.0)
            stages, whole = pct.get("stage", 0.0), pct.get("total", 0.0)
            outside = pct.get("outside", 0.0)
            sums.append(f"{stages:.1f}/{whole:.1f}")
            if stages > whole + 0.5 or abs(stages + outside - whole) > 0.5:
                bad.append(f"snapshot {i + 1}{' --total' if total else ''}, lcore {lcore}: "
                           f"stages {stages:.1f} % + outside {outside:.1f} % of a total "
                           f"{whole:.1f} %")
        bad += [f"snapshot {i + 1}: {r['lcore']} {r['stage']} {k} {v}" for r in rows
                for k, v in list(r.items()) + list(r.get("self", {}).items()) +
                list(r.get("values", {}).items()) + list(r.get("per_item", {}).items())
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0]
    return bad, sums


def check_top_fit(run, prefix, top_path=os.path.join(REPO, "usertools", "dpdk-pmu-top")):
    """dpdk-pmu-top (or TOP) against testpmd forwarding under dpdk-pmu-run
    (RUN, file prefix PREFIX; its stages sampled 1 in 16), with task-clock
    and msr/tsc/ where it opens: in 10 snapshots of an interval each, every
    lcore's stage rows' %lcore add up to no more than its total row's (0.5 %
    for rounding), they and its outside line to the total, and no figure is
    negative. (Differences of the library's running estimates, scaled to
    every call and down to the whole run's total, went above the total and
    below 0.)"""
    tsc = os.path.exists("/sys/bus/event_source/devices/msr/events/tsc")
    for event in ("task-clock", "msr/tsc/") if tsc else ("task-clock",):
        app = testpmd_start(run, prefix, ("-e", event))
        try:
            bad, sums = top_fit(top_path, prefix, 10)
        finally:
            testpmd_stop(app)
        report(sums and not bad, f"dpdk-pmu-top --once --json, 10 snapshots of testpmd's "
               f"sampled stages, {event}: each lcore's stage rows within its total, with the "
               f"outside line adding up to it, none negative (%lcore stages/total: "
               f"{', '.join(sums)})",
               "; ".join(bad[:4]) + (f"; {len(bad) - 4} more" if len(bad) > 4 else ""))
