#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-run.sh, one "ok: ..." or "FAIL: ..." line each.

  ci_run_check.py testpmd NAME STDOUT JSON EVENT
      dpdk-testpmd's "Accumulated forward statistics" (its STDOUT) against
      dpdk-pmu-run's JSON: the rx-P-Q stages' items add up to RX-packets,
      the tx-P stages' to TX-packets; rx stages measured, with EVENT's
      figures; the idle polls counted apart, with no packets.
  ci_run_check.py first NAME STDERR JSON
      dpdk-pmu-run on its default events: the first of the JSON's events
      (index 0, the first column) is msr/tsc/ where the defaults gave way
      (STDERR says so, naming it first) and the machine has it, else
      task-clock; cycles where they did not give way.
  ci_run_check.py pcaps NAME A B
      The two pcaps' records the same, timestamps left out.
  ci_run_check.py top NAME JSON TEXT
      dpdk-pmu-top --once --json (JSON) and --once (TEXT) on a running
      program: rx-P-Q rows with calls and packets per second, in both; the
      %lcore of each lcore's rows (exclusive figures) and of the part
      outside its stages adding up to 100 % at most; each lcore with rows
      has its "(lcore total)" and "(outside stages)" lines in both, and
      its rows' self figures (first event) add up to at most its total
      (5 % for snapshots of a running program).
  ci_run_check.py screens NAME A B
      Two captures of dpdk-pmu-top's screen: both show the rx-P-Q rows, and
      their rates changed between the two.
  ci_run_check.py settled JSON
      No line; exit 0 when dpdk-pmu-top --once --json --total (JSON) saw the
      ethdev_rx-* nodes (or rx-P-Q stages) polled and no stage with a packet
      between its two snapshots: the program has forwarded the whole pcap.
  ci_run_check.py graph NAME STDOUT JSON EVENT PACKETS
      l3fwd-graph's last printed lib/graph statistics (STDOUT) against
      dpdk-pmu-run's JSON: each node's calls and objs equal to its stage's
      calls and items (a source node, polled on after the last print, has at
      least the printed calls); the ethdev_rx-* nodes received PACKETS;
      ip4_lookup and ip4_rewrite with EVENT per packet.
  ci_run_check.py ports NAME JSON RX TX [STDOUT]
      dpdk-pmu-run's JSON of a forwarder: the rx-P-Q stages' items add up to
      RX, the tx-P stages' to TX, every queue's stages there; with STDOUT,
      l2fwd's last printed totals equal to them too.
  ci_run_check.py pause NAME STDOUT JSON
      Interactive testpmd (start, stop, 3 s, start, stop) under dpdk-pmu-run
      --sampling 1: the rx-P-Q items add up to the RX-packets of its
      "Accumulated" blocks (one a stop), the tx-P items to the TX-packets;
      the twin stages (rx-0-0 and rx-1-0, tx-0 and tx-1) within 1.5x of
      each other per packet (a pause in one would make it several times
      the other's); the lcore's port stages within its lcore-* runs.
  ci_run_check.py circles OBJDIR
      The preload's object files (OBJDIR/*.o, nm): no file calls a
      function of, or reads data of, a file that depends on it, directly or
      through others.
  ci_run_check.py ordering NAME JSON STDOUT
      DPDK's packet_ordering under dpdk-pmu-run: its own per-port "Pkts in"
      and "Pkts out" (its STDOUT at exit) against the JSON: each port's
      rx-P-Q items add up to its Pkts in, its tx-P items to its Pkts out
      (the tx lcore only transmits: its last burst counted too); with the
      launched functions' lcore-* stages, each of its lcores there.
  ci_run_check.py tap NAME PCAP0 PCAP1 IF0 IF1 COUNTS
      Send PCAPn's frames on tap IFn (the kernel's side of a net_tap port of
      l3fwd), catch the frames l3fwd sends back until 2 s pass without one:
      those to 198.18.P.x out of IFP, the others out of the tap they came
      in on. "RX TX" (the taps' kernel counters) into COUNTS.
  ci_run_check.py rates LABEL[@FLOOR]=FILE[,FILE...]...
      testpmd's packets per second of its forwarding lcore's CPU time
      (accumulated RX-packets in FILE, clock ticks in FILE.cpu), and its
      Rx-pps (--stats-period 1) for the record; each LABEL's runs against
      the first LABEL's, run by run (they alternate), the median printed,
      and a check where a FLOOR is given: the median at least FLOOR.
  ci_run_check.py lcores NAME JSON EVENT
      dpdk-pmu-run's JSON: for each lcore of its "lcores" list, the self
      EVENT of its stages added up is at most the lcore's total EVENT
      (sum, total and their ratio printed); at least one lcore with stages
      and a total above 0, and the lcore's "outside" its total less that
      sum (within 1 %).
  ci_run_check.py guest CONSOLE EVENTS
      The arm64 guest's console: the preload's JSON line of commands
      testpmd-a, -b and -c, the same testpmd run three times, every call
      measured, EVENTS "CYCLES,INSTRUCTIONS": in two of the runs (the first
      pair that is; the third printed against them) each stage with packets
      has the same calls and packets, cycles equal to instructions (the
      guest's exact count), and the same instructions; idle polls, whose
      number follows timing, printed.
  ci_run_check.py spread NAME JSON [TABLE]
      dpdk-pmu-run's JSON: each stage's "spread" per event null or a
      finite fraction >= 0; with --sampling 1 all 0 (exact), sampled above
      0 for the first event where several calls of many were measured; with
      TABLE (-o), its Spread column the JSON's, per lcore and in total (the
      lcores' standard errors added as independent ones). The top check
      also checks dpdk-pmu-top's spread: its JSON rows' and table's.
  ci_run_check.py inexact NAME JSON TABLE EVENT
      dpdk-pmu-run's marks of figures that are not exact: each stage's
      "inexact" in the JSON a boolean per event; in TABLE (the -o file, or
      stderr, whose last table is read) '~' on an event's line exactly
      where the JSON says inexact, per lcore and in total (where any
      lcore's is); each lcore's "outside_inexact" and its "(outside
      stages)" line's '~' where one of its stages is; with EVENT task-clock (read with read(), a system call
      that costs more than an idle poll's work), every measured idle
      stage (rx-P-Q-idle) marked.
  ci_run_check.py interval NAME STDERR TABLE EVENT
      dpdk-pmu-run --interval's tables on STDERR: each lcore's figures of
      EVENT (the first event) those of the interval, its (lcore total) and
      (outside stages) as its stages'. In every table, an lcore's stages'
      self figures add up to at most its total (1 over a stage row, the
      rounding); in each after its first, they and its part outside them
      add up to its total (within 2 %); its
      totals over the tables add up to at most the final table's (TABLE:
      the -o file, or STDERR), which running totals would exceed; with a
      time event (task-clock, cpu-clock: ns) each interval's total at most
      the interval's length (10 % and 5 ms over it: the snapshot's
      jitter); with msr/tsc/ (wall ticks, a constant rate) the ticks a
      second of every interval but the last, which the end cut short, the
      same within 1.5x (a running total's grow with each table). An lcore in one table only (testpmd's rx
      flush on lcore 0) is printed, not checked.
  ci_run_check.py nulls NAME JSON
      dpdk-pmu-run's JSON: events and self null in each stage with no
      measured call (the table's '-'), numbers in the others.
  ci_run_check.py nothing NAME TABLE JSON
      A run of dpdk-pmu-run that measured nothing, its files holding an
      earlier run's before it: TABLE (-o) the one line that says why (no
      prefix, ending "nothing measured"), JSON (--json) valid, with no
      event, stage or lcore.
  ci_run_check.py interval-sum NAME STDERR TABLE MS
      dpdk-pmu-run --interval MS ended mid-interval: its last interval
      table less than MS after the one before (the interval the end cut
      short, printed as perf stat -I does), and each lcore's stages' calls
      over the interval tables adding up to the final table's (TABLE: the
      -o file, or STDERR).
  ci_run_check.py twice NAME STATUSES CMD...
      CMD (dpdk-pmu-run of a program whose handler ends it at a second
      SIGINT) with its stderr on a 4 KiB pipe: SIGINT after 3 s, stderr not
      read past the table's first line (its report blocks in write()),
      SIGINT again, stderr read on: it exits within 20 s with one of the
      comma-separated STATUSES, its table whole (down to its total).
  ci_run_check.py same NAME JSON TABLE
      dpdk-pmu-run's -o TABLE and --json of one run: each lcore's stage
      rows' calls and items, and its (lcore total) of the first event, the
      JSON's exactly (one read of the figures for both, even where the
      program's lcores still ran at the report).
"""

import fcntl
import glob
import json
import os
import re
import select
import signal
import socket
import statistics
import struct
import subprocess
import time

from ci_common import console_runs, default_first, load, main, report


def accumulated(path):
    """RX-packets and TX-packets of testpmd's accumulated statistics."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    block = text.split("Accumulated forward statistics for all ports")
    if len(block) < 2:
        return None, None
    rx = re.search(r"RX-packets: +(\d+)", block[-1])
    tx = re.search(r"TX-packets: +(\d+)", block[-1])
    return (int(rx.group(1)) if rx else None, int(tx.group(1)) if tx else None)


def port_stages(doc):
    """The rx-P-Q, rx-P-Q-idle and tx-P stages of a JSON document."""
    stages = doc.get("stages", [])
    return tuple([s for s in stages if re.fullmatch(pattern, s["name"])]
                 for pattern in (r"rx-\d+-\d+", r"rx-\d+-\d+-idle", r"tx-\d+"))


def testpmd(name, out, path, event):
    """The testpmd checks."""
    rx, tx = accumulated(out)
    if rx is None or tx is None:
        report(False, f"{name}: no accumulated statistics in testpmd's output")
        return
    doc = load_json(name, path)
    if doc is None:
        return
    busy, idle, txs = port_stages(doc)
    rx_items = sum(s["items"] for s in busy)
    tx_items = sum(s["items"] for s in txs)
    report(rx_items == rx and rx > 0,
          f"{name}: rx-* stages' items {rx_items} = testpmd's RX-packets {rx} "
          f"({', '.join(s['name'] + ' ' + str(s['items']) for s in busy)})")
    report(tx_items == tx and tx > 0,
          f"{name}: tx-* stages' items {tx_items} = testpmd's TX-packets {tx} "
          f"({', '.join(s['name'] + ' ' + str(s['items']) for s in txs)})")
    report(event in doc.get("events", []), f"{name}: events {doc.get('events')} hold {event}")
    measured = sum(s["measured"] for s in busy)
    value = sum(s["events"].get(event, 0) for s in busy)
    report(measured > 0 and value > 0,
          f"{name}: rx stages measured {measured} bursts of "
          f"{sum(s['calls'] for s in busy)}, {event} {value}")
    report(idle and all(s["items"] == 0 for s in idle) and sum(s["calls"] for s in idle) > 0,
          f"{name}: empty polls apart: {sum(s['calls'] for s in idle)} calls of "
          f"rx-*-idle, 0 packets")


def first(name, err, path):
    """The default events' checks."""
    doc = load_json(name, path)
    if doc is None:
        return
    with open(err, encoding="utf-8", errors="replace") as f:
        event, instead = default_first(f.read())
    # msr/tsc/ alone: a software event beside it makes each measured read a read().
    alone = event != "msr/tsc/" or doc.get("events") == [event]
    report(doc.get("events", [])[:1] == [event] and alone and
           (instead is None or instead[0] == event),
           f"{name}: default events {doc.get('events')}, {event} first"
           f"{' and alone' if event == 'msr/tsc/' else ''}; counted instead: "
           f"{'(nothing said)' if instead is None else ','.join(instead)}")


def records(path):
    """The file header and the records of a classic pcap, timestamps left out."""
    with open(path, "rb") as f:
        data = f.read()
    head, pos, recs = data[:24], 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, pos + 8)[0]
        recs.append(data[pos + 8:pos + 16 + caplen])
        pos += 16 + caplen
    return head, recs, pos == len(data)


def pcaps(name, a, b):
    """The pcap checks."""
    try:
        ha, ra, wa = records(a)
        hb, rb, wb = records(b)
    except OSError as err:
        report(False, f"{name}: {err}")
        return
    report(wa and wb and ha == hb and ra == rb and len(ra) > 0,
          f"{name}: {len(rb)} records, file header and each record's lengths and "
          f"frame identical to the {len(ra)} without ({b.rsplit('/', 1)[-1]})")


def load_json(name, path):
    """The JSON document of path, or None with a FAIL line."""
    try:
        return load(path)
    except (OSError, ValueError) as err:
        report(False, f"{name}: {path}: {err}")
        return None


RX_ROW = re.compile(r"rx-\d+-\d+")


def top(name, path, text_path):
    """The dpdk-pmu-top --once checks."""
    doc = load_json(name, path)
    if doc is None:
        return
    rx = [r for r in doc.get("rows", []) if RX_ROW.fullmatch(r["stage"])]
    report(rx and all(r["calls_per_s"] > 0 and r["items_per_s"] > 0 for r in rx),
          f"{name}: --once --json: " + (", ".join(
              f"lcore {r['lcore']} {r['stage']} {r['calls_per_s']:.0f} calls/s "
              f"{r['items_per_s']:.0f} packets/s" for r in rx) or "no rx-P-Q row"))
    with open(text_path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    rows = [ln.split() for ln in lines if len(ln.split()) > 4 and RX_ROW.fullmatch(ln.split()[1])]
    # Lcore, Stage, cost/s, Calls/s, Items/s, ...
    calls = [float(r[3].replace(",", "")) for r in rows]
    report(rows and all(c > 0 for c in calls),
          f"{name}: --once table: {len(rows)} rx-P-Q rows, calls/s "
          f"{', '.join(r[3] for r in rows) or '-'}")
    lcores = doc.get("lcores", [])
    shares = {}
    for r in doc.get("rows", []) + [r for r in lcores if r["kind"] == "outside"]:
        if r.get("lcore_pct") is not None:
            shares[r["lcore"]] = shares.get(r["lcore"], 0.0) + r["lcore_pct"]
    report(shares and all(v <= 105.0 for v in shares.values()),
           f"{name}: exclusive figures: each lcore's rows and its outside line add up to "
           f"{', '.join(f'lcore {k} {v:.1f} %' for k, v in sorted(shares.items())) or '-'}"
           f" of it (at most 100 %, 5 % for sampling)")
    marks = sum(1 for ln in lines if not ln.startswith("~ ") and "~" in ln)
    legend = [ln for ln in lines if ln.startswith("~ not exact: ")]
    report(bool(marks) == bool(legend), f"{name}: --once table: {marks} lines with a figure "
           f"marked '~', {'and a' if legend else 'no'} line saying what it means")
    top_lcores(name, doc, lines)
    top_spread(name, doc, lines)


def top_lcores(name, doc, lines):
    """dpdk-pmu-top's lines per lcore: its total and the part outside its
    stages, in the JSON and the table; its rows' self figures within its
    total."""
    event = doc["events"][0] if doc.get("events") else None
    busy = sorted({r["lcore"] for r in doc.get("rows", [])}, key=str)
    lines_of = {(r["lcore"], r["kind"]): r for r in doc.get("lcores", [])}
    text = {(ln.split()[0], " ".join(ln.split()[1:3])) for ln in lines if len(ln.split()) > 3}
    for lcore in busy:
        here = all((lcore, k) in lines_of and (str(lcore), t) in text
                   for k, t in (("total", "(lcore total)"), ("outside", "(outside stages)")))
        report(here, f"{name}: lcore {lcore}: its (lcore total) and (outside stages) lines in "
               f"the JSON and the table")
        if not here:
            continue
        total = lines_of[(lcore, "total")]["values"].get(event, 0)
        outside = lines_of[(lcore, "outside")]["values"].get(event, 0)
        selfs = sum(r["self"].get(event, 0) for r in doc["rows"] if r["lcore"] == lcore)
        report(0 < selfs <= total * 1.05,
               f"{name}: lcore {lcore}: its stage rows' self {event} add up to {selfs}, at "
               f"most its total {total} (ratio {selfs / total if total else 0:.3f}; outside "
               f"{outside})")


def screen_rows(path):
    """The rx-P-Q rows of a captured screen, by (lcore, stage)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    return {tuple(ln.split()[:2]): ln.split()[2:] for ln in lines
            if len(ln.split()) > 4 and RX_ROW.fullmatch(ln.split()[1])}


def screens(name, a, b):
    """The dpdk-pmu-top screen checks."""
    ra, rb = screen_rows(a), screen_rows(b)
    report(ra and set(ra) == set(rb),
          f"{name}: both screens show {', '.join(f'lcore {k[0]} {k[1]}' for k in sorted(ra)) or 'no rx-P-Q row'}")
    changed = [k for k in ra if k in rb and ra[k][:3] != rb[k][:3]]
    report(ra and len(changed) == len(ra),
          f"{name}: rates changed between the captures: " + "; ".join(
              f"{k[1]} calls/s {ra[k][1]} -> {rb[k][1]}" for k in sorted(ra) if k in rb))


def settled(path):
    """Exit 0 once the graph or the ports have forwarded every packet (no line)."""
    try:
        rows = load(path)["rows"]
    except (OSError, ValueError, KeyError):
        raise SystemExit(1)
    # Rows count from the first of the two snapshots: the rx nodes polled,
    # nothing received nor forwarded meanwhile.
    polled = any(r["stage"].startswith(("ethdev_rx-", "rx-")) and r["calls"] > 0 for r in rows)
    raise SystemExit(0 if polled and all(r["items"] == 0 for r in rows) else 1)


def graph_stats(path):
    """lib/graph's last printed table: {node: (calls, objs)}."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    last = [t for t in text.split("\x1b[2J") if "|Node" in t]
    if not last:
        return None
    table = {}
    for line in last[-1].splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 4 and cells[0] == "" and cells[1] != "Node" and cells[2].isdigit():
            table[cells[1]] = (int(cells[2]), int(cells[3]))
    return table


def graph(name, out, path, event, packets):
    """The l3fwd-graph checks."""
    table = graph_stats(out)
    if not table:
        report(False, f"{name}: no lib/graph statistics table in the program's output")
        return
    doc = load_json(name, path)
    if doc is None:
        return
    stages = {}
    for s in doc.get("stages", []):
        calls, items, value, measured = stages.get(s["name"], (0, 0, 0, 0))
        stages[s["name"]] = (calls + s["calls"], items + s["items"],
                             value + (s["events"].get(event) or 0), measured + s["measured"])
    for node, (calls, objs) in sorted(table.items()):
        if node not in stages:
            report(False, f"{name}: node {node} ({calls} calls, {objs} objs) has no stage")
            continue
        scalls, sitems = stages[node][:2]
        if node.startswith("ethdev_rx-"):
            report(sitems == objs and scalls >= calls,
                  f"{name}: {node}: objs {objs} = items {sitems}; calls {calls} printed, "
                  f"{scalls} at exit (a source node, polled on after the last print)")
        else:
            report(scalls == calls and sitems == objs,
                  f"{name}: {node}: calls {calls} objs {objs} = the stage's calls {scalls} "
                  f"items {sitems}")
    rx = sum(v[1] for k, v in stages.items() if k.startswith("ethdev_rx-"))
    report(rx == int(packets), f"{name}: the ethdev_rx-* stages received {rx} packets "
          f"of the {packets} in the pcaps")
    extra = [k for k, v in stages.items() if v[1] > 0 and k not in table]
    report(not extra, f"{name}: every stage with items is in the printed table"
          + (f" (not: {', '.join(extra)})" if extra else ""))
    for node in ("ip4_lookup", "ip4_rewrite"):
        calls, items, value, measured = stages.get(node, (0, 0, 0, 0))
        report(items > 0 and measured > 0 and value > 0,
              f"{name}: {node}: {items} packets, {measured} of {calls} calls measured, "
              f"{event}/packet {value / items if items else 0:.1f}")


def l2fwd_totals(path):
    """The last "Total packets received" and "sent" l2fwd printed."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    rx = re.findall(r"Total packets received: +(\d+)", text)
    tx = re.findall(r"Total packets sent: +(\d+)", text)
    return (int(rx[-1]) if rx else None, int(tx[-1]) if tx else None)


def ports(name, path, rx, tx, out=None):
    """The stages of a forwarder against its packets."""
    doc = load_json(name, path)
    if doc is None:
        return
    busy, idle, txs = port_stages(doc)
    for what, stages, want in (("rx-*", busy, int(rx)), ("tx-*", txs, int(tx))):
        items = sum(s["items"] for s in stages)
        each = ", ".join(f"lcore {s['lcore']} {s['name']} {s['items']}" for s in stages)
        report(items == want and want > 0, f"{name}: {what} stages' items {items} = {want} ({each})")
    queues = {s["name"] for s in busy}
    report(queues and all(q + "-idle" in {s["name"] for s in idle} for q in queues) and
          {"tx-" + q.split("-")[1] for q in queues} <= {s["name"] for s in txs},
          f"{name}: each queue's rx-P-Q and rx-P-Q-idle, each port's tx-P: "
          f"{', '.join(sorted(queues | {s['name'] for s in txs}))}")
    if out is not None:
        got = l2fwd_totals(out)
        report(got == (int(rx), int(tx)), f"{name}: the program's last printed totals: "
              f"received {got[0]}, sent {got[1]}")


def circles(objdir):
    """No circle among the preload's files, by the symbols they use."""
    objs = sorted(glob.glob(os.path.join(objdir, "*.o")))
    where, uses = {}, {}
    for o in objs:
        name = os.path.basename(o).split(".c.o")[0] + ".c"
        uses[name] = set()
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                where[parts[2]] = name
            elif len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
    deps = {f: {where[u] for u in us if u in where and where[u] != f} for f, us in uses.items()}

    def reach(start):
        seen, todo = set(), list(deps[start])
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo.extend(deps[f])
        return seen
    looped = sorted(f for f in deps if f in reach(f))
    report(bool(objs) and not looped,
           f"preload files: no circle ({len(objs)} files; in circles: {looped or 'none'}): " +
           "; ".join(f"{f} -> {', '.join(sorted(d)) or '-'}" for f, d in sorted(deps.items())))


def pause(name, out, path):
    """Interactive testpmd with a pause: no stage holds it."""
    doc = load_json(name, path)
    if doc is None:
        return
    with open(out, encoding="utf-8", errors="replace") as f:
        blocks = f.read().split("Accumulated forward statistics for all ports")[1:]
    # Each stop's block: its own two lines (the prompt may cut into them).
    stops = [(re.search(r"RX-packets: +(\d+)", b[:400]), re.search(r"TX-packets: +(\d+)",
                                                                    b[:400])) for b in blocks]
    rx = sum(int(r.group(1)) for r, _ in stops if r)
    tx = sum(int(t.group(1)) for _, t in stops if t)
    busy, idle, txs = port_stages(doc)
    for what, stages, want in (("rx-*", busy, rx), ("tx-*", txs, tx)):
        items = sum(s["items"] for s in stages)
        report(items == want and want > 0 and len(blocks) >= 2,
               f"{name}: {what} stages' items {items} = the {what[:2].upper()}-packets of "
               f"testpmd's {len(blocks)} stops, {want}")
    event = doc["events"][0] if doc.get("events") else None
    per = {s["name"]: s["events"].get(event, 0) / s["items"] for s in busy + txs
           if s["items"] and event}
    for a, b in (("rx-0-0", "rx-1-0"), ("tx-0", "tx-1")):
        if a not in per or b not in per:
            report(False, f"{name}: no {a} or {b} with packets")
            continue
        hi, lo = max(per[a], per[b]), min(per[a], per[b])
        report(lo > 0 and hi / lo <= 1.5, f"{name}: {event} a packet, {a} {per[a]:.1f} and "
               f"{b} {per[b]:.1f}: within 1.5x (no pause in either)")
    runs = [s for s in doc["stages"] if s["name"].startswith("lcore-")]
    totals = {lc["lcore"]: lc.get("events", {}).get(event, 0) for lc in doc.get("lcores", [])}
    for run in runs:
        inside = sum(s["events"].get(event, 0) for s in busy + idle
                     if s["lcore"] == run["lcore"])
        whole = totals.get(run["lcore"], 0)
        report(0 < inside <= whole, f"{name}: lcore {run['lcore']}: its port stages' "
               f"{event} {inside} within its total {whole} over its {run['calls']} runs "
               f"({run['name']})")
    report(bool(runs), f"{name}: the forwarding lcore's runs (lcore-*): "
           f"{[(r['lcore'], r['name'], r['calls']) for r in runs]}")


def ordering(name, path, out):
    """packet_ordering's own per-port counts against the stages."""
    doc = load_json(name, path)
    if doc is None:
        return
    with open(out, encoding="utf-8", errors="replace") as f:
        text = f.read()
    counts = {int(p): (int(i), int(o)) for p, i, o in re.findall(
        r"Port (\d+) stats:\n - Pkts in: +(\d+)\n - Pkts out: +(\d+)", text)}
    report(bool(counts), f"{name}: the program printed its ports' Pkts in and out: {counts}")
    busy, _, txs = port_stages(doc)
    for port, (pin, pout) in sorted(counts.items()):
        rx = sum(s["items"] for s in busy if s["name"].startswith(f"rx-{port}-"))
        tx = sum(s["items"] for s in txs if s["name"] == f"tx-{port}")
        lcores = sorted({s["lcore"] for s in txs if s["name"] == f"tx-{port}"})
        report(rx == pin and pin > 0, f"{name}: port {port}: rx-{port}-* items {rx} = "
               f"its Pkts in {pin}")
        report(tx == pout and pout > 0, f"{name}: port {port}: tx-{port} items {tx} (lcores "
               f"{lcores}) = its Pkts out {pout}")
    runs = {s["lcore"] for s in doc["stages"] if s["name"].startswith("lcore-")}
    ported = {s["lcore"] for s in busy + txs}
    report(bool(runs - ported) and len(runs) >= 2,
           f"{name}: launched lcores {sorted(runs)} each in an lcore-* stage, those with no "
           f"port stage among them: {sorted(runs - ported)}")


def sysfs_count(ifname, what):
    """A counter of a kernel interface."""
    with open(f"/sys/class/net/{ifname}/statistics/{what}", encoding="ascii") as f:
        return int(f.read())


def tap(name, pcap0, pcap1, if0, if1, counts):
    """Traffic through l3fwd's net_tap ports, from their kernel side."""
    ifs = (if0, if1)
    frames = [[r[8:] for r in records(p)[1]] for p in (pcap0, pcap1)]
    socks = []
    for ifname in ifs:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 24)
        s.bind((ifname, 0))
        socks.append(s)
    start = [(sysfs_count(i, "tx_packets"), sysfs_count(i, "rx_packets")) for i in ifs]
    back, want = [0, 0], [0, 0]

    def drain(quiet):
        while select.select(socks, [], [], quiet)[0]:
            for i, s in enumerate(socks):
                while select.select([s], [], [], 0)[0]:
                    if s.recvfrom(65535)[1][2] != socket.PACKET_OUTGOING:
                        back[i] += 1

    for k in range(max(len(f) for f in frames)):
        for p in (0, 1):
            if k < len(frames[p]):
                f = frames[p][k]
                socks[p].send(f)
                # Routed: 198.18.P.x to port P; the rest back where it came in.
                routed = f[12:14] == b"\x08\x00" and f[30:32] == bytes((198, 18)) and f[32] < 2
                want[f[32] if routed else p] += 1
        if k % 16 == 15:
            drain(0)
            time.sleep(0.001)
    drain(2.0)
    rx = sum(sysfs_count(i, "tx_packets") - start[n][0] for n, i in enumerate(ifs))
    tx = sum(sysfs_count(i, "rx_packets") - start[n][1] for n, i in enumerate(ifs))
    drops = sum(sysfs_count(i, "tx_dropped") for i in ifs)
    sent = sum(len(f) for f in frames)
    report(rx == sent and drops == 0, f"{name}: {sent} frames sent, {rx} into the program "
          f"(the taps' tx_packets), {drops} dropped by the taps")
    for i, ifname in enumerate(ifs):
        report(back[i] == want[i], f"{name}: {back[i]} frames out of port {i} ({ifname}), "
              f"{want[i]} expected (routed to 198.18.{i}.0/24, or unrouted in on it)")
    with open(counts, "w", encoding="ascii") as f:
        f.write(f"{rx} {tx}\n")


def run_rate(path):
    """Packets per second: testpmd's accumulated RX-packets over its lcore's
    CPU time (PATH.cpu, clock ticks), and the median over the periods of the
    ports' summed Rx-pps; 0 where missing."""
    rx = accumulated(path)[0] or 0
    try:
        with open(path + ".cpu", encoding="ascii") as f:
            cpu = int(f.read()) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        cpu = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        pps = [int(v) for v in re.findall(r"Rx-pps: +(\d+)", f.read())]
    # The first period's pps are 0 (no earlier figure to take from).
    sums = [v for v in (pps[i] + pps[i + 1] for i in range(0, len(pps) - 1, 2)) if v > 0]
    return (rx / cpu if cpu else 0), (statistics.median(sums) if sums else 0)


def rates(*specs):
    """testpmd's packet rates and their ratios."""
    runs, floors = {}, {}
    for spec in specs:
        label, files = spec.split("=", 1)
        if "@" in label:  # label@GATE/AIM
            label, floor = label.rsplit("@", 1)
            floors[label] = [float(v) for v in floor.split("/")]
        runs[label] = [run_rate(p) for p in files.split(",")]
    labels = list(runs)
    for label in labels:
        cpu, wall = ([r[i] for r in runs[label]] for i in (0, 1))
        report(all(cpu), f"rate {label}: {statistics.median(cpu) / 1e6:.2f} Mpps of the "
              f"lcore's CPU time (runs: {' '.join(f'{v / 1e6:.2f}' for v in cpu)}); Rx-pps "
              f"{statistics.median(wall) / 1e6:.2f} M (runs: {' '.join(f'{v / 1e6:.2f}' for v in wall)})")
    base = [r[0] for r in runs[labels[0]]]
    for label in labels[1:]:
        ratio = [r[0] / b for r, b in zip(runs[label], base) if r[0] and b]
        line = (f"ratio {label}: {statistics.median(ratio) if ratio else 0:.3f}x {labels[0]} "
                f"(median of {len(ratio)} alternating runs: {' '.join(f'{v:.3f}' for v in ratio)})")
        if label in floors:
            gate, aim = floors[label]
            med = statistics.median(ratio) if ratio else 0
            report(med >= gate, f"{line}, at least {gate}x (the aim {aim}x: "
                   f"{'met' if med >= aim else 'missed'})")
        elif ratio:
            print(line)


def lcores(name, path, event):
    """Each lcore's stages, self figures added up, within its total."""
    doc = load_json(name, path)
    if doc is None:
        return
    entries = doc.get("lcores", [])
    report(bool(entries), f"{name}: the JSON's \"lcores\" list: "
           f"{[e['lcore'] for e in entries]}")
    for entry in entries:
        lcore = entry["lcore"]
        stages = [s for s in doc.get("stages", []) if s["lcore"] == lcore]
        selfs = sum(s["self"].get(event) or 0 for s in stages)
        total = entry["events"].get(event, 0)
        outside = entry["outside"].get(event, 0)
        share = selfs / total if total else float("inf")
        report(stages and selfs > 0 and 0 < total and selfs <= total,
               f"{name}: lcore {lcore}: its {len(stages)} stages' self {event} add up to "
               f"{selfs}, at most its total {total} (ratio {share:.3f})")
        report(abs(total - selfs - outside) <= total / 100,
               f"{name}: lcore {lcore}: outside the stages {outside} = total less the "
               f"stages ({total - selfs}, within 1 %)")


def guest_pair(a, b, busy, cyc, ins):
    """Whether runs a and b give each stage in busy the same calls, packets
    and instructions, with cycles equal to instructions in both."""
    for k in busy:
        if any(b.get(k, {}).get(f) != a[k][f] for f in ("calls", "items")):
            return False
        va = [a[k]["events"].get(e, 0) for e in (cyc, ins)]
        vb = [b[k]["events"].get(e, 0) for e in (cyc, ins)]
        if not (va[0] == va[1] and vb[0] == vb[1] and va[1] == vb[1] and va[1] > 0):
            return False
    return True


def guest(console, events):
    """The guest's three testpmd runs, stage by stage: two the same."""
    with open(console, encoding="utf-8", errors="replace") as f:
        runs = {name: {(s["lcore"], s["name"]): s for s in docs[-1]["stages"]}
                for name, docs in console_runs(f.read()).items() if "stages" in docs[-1]}
    names = [n for n in ("testpmd-a", "testpmd-b", "testpmd-c") if n in runs]
    if len(names) < 3:
        report(False, f"guest: the preload's JSON of testpmd-a, -b and -c: {sorted(runs)}")
        return
    cyc, ins = events.split(",")
    busy = sorted(k for k, s in runs[names[0]].items() if s["items"] > 0)
    # A read that the kernel's page update made retry counts a few
    # instructions more in one event of one run (a switch between the two
    # lcores, which share the CPU, or an interrupt, at that point): the
    # first pair of runs that are the same is checked, the other printed.
    pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1:]]
    na, nb = next((p for p in pairs if guest_pair(runs[p[0]], runs[p[1]], busy, cyc, ins)),
                  pairs[0])
    a, b = runs[na], runs[nb]
    for other in names:
        if other not in (na, nb):
            print(f"guest: {na} and {nb} checked; {other}: " + ", ".join(
                f"{k[1]} {runs[other].get(k, {}).get('events', {}).get(ins, 0) - a[k]['events'].get(ins, 0):+d} "
                f"{ins}, {cyc} {runs[other].get(k, {}).get('events', {}).get(cyc, 0) - a[k]['events'].get(cyc, 0):+d}"
                for k in busy))
    report(busy and all(b.get(k, {}).get(f) == a[k][f] for k in busy for f in ("calls", "items"))
          and busy == sorted(k for k, s in b.items() if s["items"] > 0),
          f"guest: the same calls and packets in {na} and {nb}: " + ", ".join(
              f"{k[1]} {a[k]['calls']} calls {a[k]['items']} packets" for k in busy))
    for k in busy:
        va = [a[k]["events"].get(e, 0) for e in (cyc, ins)]
        vb = [b.get(k, {}).get("events", {}).get(e, 0) for e in (cyc, ins)]
        items = a[k]["items"]
        report(va[0] == va[1] and vb[0] == vb[1] and va[1] == vb[1] and va[1] > 0,
              f"guest: lcore {k[0]} {k[1]}: {ins}/packet {va[1] / items:.3f} and "
              f"{vb[1] / items:.3f} ({va[1]} and {vb[1]} over {a[k]['calls']} bursts, "
              f"{va[1] - vb[1]} apart), {cyc} = {ins} in both")
    for k in sorted(k for k, s in a.items() if s["items"] == 0):
        ea, eb = a[k], b.get(k, {"calls": 0, "events": {}})
        print(f"guest: lcore {k[0]} {k[1]}: {ea['calls']} and {eb['calls']} calls (timing), "
              f"{ins}/call {ea['events'].get(ins, 0) / ea['calls']:.2f} and "
              f"{eb['events'].get(ins, 0) / max(1, eb['calls']):.2f}")


SPREAD_END = re.compile(r"(?:\+- *([\d.]+)%|(-)|(\d))$")


def spread_valid(v):
    """A spread as the JSON gives it: null, or a finite fraction >= 0."""
    return v is None or (isinstance(v, (int, float)) and 0 <= v < float("inf"))


def table_lines(path):
    """The lines of the last dpdk-pmu-run table in a file (the -o file, or
    stderr with its "dpdk-pmu-run: " lead)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [ln[len("dpdk-pmu-run: "):] if ln.startswith("dpdk-pmu-run: ") else ln
                 for ln in f.read().splitlines()]
    starts = [i for i, ln in enumerate(lines) if ln.startswith("stages, sampling")]
    return lines[starts[-1] + 1 if starts else 0:]


def table_blocks(path):
    """[(lcore or "total", line)]: each line of a dpdk-pmu-run table
    (table_lines()) under its block's head."""
    out, where = [], None
    for line in table_lines(path):
        head = re.fullmatch(r"lcore (\d+).*|total", line)
        if head:
            where = int(head.group(1)) if head.group(1) else "total"
        else:
            out.append((where, line))
    return out


def table_events(path):
    """[((lcore or "total", stage), an event's line)] of a dpdk-pmu-run
    table (table_lines())."""
    out, stage = [], None
    for where, line in table_blocks(path):
        first = re.match(r"  (\S+) +\d+ +\d+ +\S+  ", line)
        if first and not first.group(1).startswith("("):
            stage = first.group(1)
        elif first or not line.startswith("   ") or stage is None:
            stage = None
            continue
        out.append(((where, stage), line))
    return out


def table_spreads(path):
    """{(lcore or "total", stage): [the spread the table ends each event's
    line with: a fraction, None for '-', 0 for none]} of a dpdk-pmu-run
    table file."""
    blocks = {}
    for key, line in table_events(path):
        m = SPREAD_END.search(line)
        blocks.setdefault(key, []).append(
            float(m.group(1)) / 100 if m and m.group(1) else None if m and m.group(2)
            else 0)
    return blocks


def table_marks(path):
    """{(lcore or "total", stage): [whether each event's line holds '~']}."""
    blocks = {}
    for key, line in table_events(path):
        blocks.setdefault(key, []).append("~" in line)
    return blocks


def outside_marks(path):
    """{lcore: [whether each event's "(outside stages)" line holds '~']}."""
    marks, where, cur = {}, None, None
    for line in table_lines(path):
        head = re.fullmatch(r"lcore (\d+).*", line)
        if head:
            where, cur = int(head.group(1)), None
        elif line.startswith("  (outside stages)"):
            cur = where
            marks[cur] = ["~" in line]
        elif cur is not None and re.match(r" {3,}- ", line):
            marks[cur].append("~" in line)
        else:
            cur = None
    return marks


def inexact(name, path, table, event):
    """dpdk-pmu-run's inexact marks, in the JSON and the table."""
    doc = load_json(name, path)
    if doc is None:
        return
    events, stages = doc.get("events", []), doc.get("stages", [])
    bad = [f"lcore {s['lcore']} {s['name']}: {s.get('inexact')}" for s in stages
           if sorted(s.get("inexact", {})) != sorted(events) or
           not all(isinstance(v, bool) for v in s["inexact"].values())]
    report(stages and events and not bad, f"{name}: each of the {len(stages)} stages has "
           f"\"inexact\" per event ({', '.join(events)}), a boolean"
           + (f"; not: {'; '.join(bad[:4])}" if bad else ""))
    if bad or not stages:
        return
    want = {}
    for s in stages:
        want[(s["lcore"], s["name"])] = [s["inexact"][e] for e in events]
        tot = want.setdefault(("total", s["name"]), [False] * len(events))
        want[("total", s["name"])] = [a or b for a, b in zip(tot, want[(s["lcore"], s["name"])])]
    shown = table_marks(table)
    wrong = [f"{k}: table {shown.get(k)}, JSON {v}" for k, v in sorted(want.items(), key=str)
             if shown.get(k) != v]
    marked = sum(1 for v in shown.values() for x in v if x)
    report(not wrong and shown, f"{name}: the table marks '~' on the {marked} event lines "
           "the JSON says are not exact, and on no other, per lcore and in total"
           + (f"; not: {'; '.join(wrong[:3])}" if wrong else ""))
    # The part of an lcore outside its stages: not exact where a stage's
    # figure of the event is not.
    lc = [l for l in doc.get("lcores", []) if l.get("events")]
    want = {l["lcore"]: [any(s["inexact"][e] for s in stages if s["lcore"] == l["lcore"])
                         for e in events] for l in lc}
    got = {l["lcore"]: [l.get("outside_inexact", {}).get(e) for e in events] for l in lc}
    shown = outside_marks(table)
    report(lc and got == want and {k: shown.get(k) for k in want} == want,
           f"{name}: each lcore's part outside its stages marked not exact exactly where "
           f"one of its stages is, in the JSON and the table: {want}",
           f"JSON {got}, table {shown}")
    if event != "task-clock" or event not in events:
        return
    idle = [s for s in stages if s["name"].endswith("-idle") and s["measured"] > 0]
    plain = [s["name"] for s in idle if not s["inexact"][event]]
    report(idle and not plain, f"{name}: {event} (a read() each): the measured idle polls "
           "marked inexact: " + (", ".join(
               f"lcore {s['lcore']} {s['name']} {s['self'][event] / s['calls']:.1f} ns a call"
               for s in idle) or "none measured")
           + (f"; not marked: {', '.join(plain)}" if plain else ""))


INTERVAL_LINE = re.compile(r"dpdk-pmu-run: +(\d+\.\d{6}) (.*)")


def interval_lines(path):
    """[(seconds, [(lcore id, "total" or None before a head, line)])] of
    dpdk-pmu-run --interval's tables on stderr (path), a table per stamp; a
    head gives an empty line."""
    tables, where = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = INTERVAL_LINE.fullmatch(line.rstrip("\n"))
            if m is None:
                continue
            sec, rest = float(m.group(1)), m.group(2)
            if not tables or tables[-1][0] != sec:
                tables.append((sec, []))
                where = None
            head = re.fullmatch(r"lcore (\d+).*|total", rest)
            if head:  # an empty line under the head: the lcore is in the table
                where = int(head.group(1)) if head.group(1) else "total"
                rest = ""
            tables[-1][1].append((where, rest))
    return tables


def interval_tables(path, event):
    """[(seconds, {lcore: {"stages": self total summed, "rows": stages,
    "total", "outside", "outside~": marked}})]
    of dpdk-pmu-run --interval's tables on stderr (path), figures of event
    (the first event: the line of a stage's name), "no stage called" an
    empty one."""
    row = re.compile(r"  (\(lcore total\)|\(outside stages\)|\S+) +\S+ +\S+ +\S+  "
                     + re.escape(event) + r"(?: \w+)? +\S+ +\S+ +\S+ +(\d+)(~?)(?: |$)")
    tables = []
    for sec, lines in interval_lines(path):
        figs = {}
        for where, rest in lines:
            if not isinstance(where, int):
                continue
            fig = figs.setdefault(where, {"stages": 0, "rows": 0})
            r = row.match(rest)
            if r is None:
                continue
            if r.group(1) == "(lcore total)":
                fig["total"] = int(r.group(2))
            elif r.group(1) == "(outside stages)":
                fig["outside"] = int(r.group(2))
                fig["outside~"] = r.group(3) == "~"
            else:
                fig["stages"] += int(r.group(2))
                fig["rows"] += 1
        tables.append((sec, figs))
    return tables


def final_totals(path, event):
    """{lcore: (lcore total) of event} of the last dpdk-pmu-run table of a
    file (table_lines())."""
    out, where = {}, None
    for line in table_lines(path):
        head = re.fullmatch(r"lcore (\d+).*|total", line)
        if head:
            where = int(head.group(1)) if head.group(1) else None
            continue
        m = re.match(r"  \(lcore total\) +- +- +-  " + re.escape(event)
                     + r"(?: \w+)? +- +- +- +(\d+)", line)
        if m and where is not None:
            out[where] = int(m.group(1))
    return out


def interval(name, err, table, event):
    """dpdk-pmu-run --interval: each table's lcore rows of its interval."""
    tables = interval_tables(err, event)
    final = final_totals(table, event)
    lcores = sorted({lc for _, t in tables for lc, fig in t.items() if "total" in fig})
    report(lcores and final, f"{name}: --interval tables with (lcore total) rows of "
           f"{event} ({len(tables)} tables, lcores {lcores}), and the final table's "
           f"(lcores {sorted(final)})")
    time_event = event in ("task-clock", "cpu-clock")
    checked = 0
    for lc in lcores:
        seen, parts, rates, over, whole, above = False, [], [], [], 0, []
        for i, (sec, t) in enumerate(tables):
            fig = t.get(lc)
            if fig is None or "total" not in fig:
                continue
            whole += fig["total"]
            # Its stages' parts never above its whole, in any table: 1
            # unit a row for the rounding.
            if fig["stages"] > fig["total"] + fig["rows"]:
                above.append(f"{sec:.3f}: {fig['stages']} against {fig['total']} "
                             f"({fig['stages'] / max(fig['total'], 1):.3f}x)")
            if not seen:
                seen = True
                continue
            total, dt = fig["total"], sec - tables[i - 1][0]
            parts.append((sec, fig["stages"], fig.get("outside", 0), total,
                          fig.get("outside~", False)))
            # The last table, printed at exit, is of an interval the end
            # cut short: the lcore's total runs to its last measured call,
            # its length to the report, so its rate is not a running one.
            if i != len(tables) - 1:
                rates.append((sec, total / dt))
            if time_event and total > dt * 1e9 * 1.1 + 5e6:
                over.append(f"{sec:.3f}: {total} ns in {dt * 1e3:.0f} ms")
        report(not above, f"{name}: lcore {lc}: in each of its interval tables, its stages' "
               f"self {event} add up to at most its (lcore total) (1 a row over for the "
               "rounding)", f"{len(above)} above: " + "; ".join(above[:4]))
        if not parts:
            # Stages in one interval only (testpmd's rx flush on lcore 0).
            print(f"{name}: lcore {lc}: in one interval table only: not checked")
            continue
        checked += 1
        # The stages scaled down to the total: nothing outside, 0~.
        fitted = sum(1 for _, st, out, tot, mark in parts if out == 0 and mark)
        bad = [f"{sec:.3f}: {st} + {out}{'~' if mark else ''} against {tot}"
               for sec, st, out, tot, mark in parts if abs(st + out - tot) > tot / 50]
        report(not bad, f"{name}: lcore {lc}: in each of {len(parts)} interval tables after "
               f"its first, the stages' self {event} and (outside stages) add up to its "
               f"(lcore total) (within 2 %; last: {parts[-1][1]} + {parts[-1][2]} = "
               f"{parts[-1][3]})" + (f"; in {fitted}, (outside stages) 0~" if fitted else ""),
               "; ".join(bad[:3]))
        fin = final.get(lc)
        report(fin is not None and whole <= fin * 1.01,
               f"{name}: lcore {lc}: its (lcore total) over the {len(parts) + 1} interval "
               f"tables add up to {whole}, at most the final table's {fin} (within 1 %)")
        if time_event:
            report(not over, f"{name}: lcore {lc}: each interval's (lcore total) {event} at "
                   "most the interval's length (10 % and 5 ms over it)", "; ".join(over[:3]))
        elif event == "msr/tsc/" and not rates:
            print(f"{name}: lcore {lc}: no interval table but the last: its ticks a second "
                  "not compared")
        elif event == "msr/tsc/":
            low, high = min(r for _, r in rates), max(r for _, r in rates)
            report(high <= low * 1.5, f"{name}: lcore {lc}: each interval's (lcore total) "
                   f"ticks a second the same within 1.5x ({low / 1e6:.0f} to "
                   f"{high / 1e6:.0f} M/s over {len(rates)} intervals)", ", ".join(
                       f"{sec:.3f}: {r / 1e6:.0f} M/s" for sec, r in rates[:6]))
    report(checked, f"{name}: {checked} lcores in two interval tables or more")


def total_spread(stages, i, event):
    """The spread of the stages' summed self figure of event: their standard
    errors added as independent ones; None where one is not known."""
    spreads = [s["spread"][event] for s in stages]
    selfs = [s["self"][event] or 0 for s in stages]
    if any(v is None for v in spreads):
        return None
    err = sum((v * x) ** 2 for v, x in zip(spreads, selfs)) ** 0.5
    return 0 if err == 0 else err / sum(selfs) if sum(selfs) else None


def nulls(name, path, doc=None):
    """A stage with no measured call: its figures not known (null, the
    table's '-'), never 0; a measured one's numbers."""
    doc = doc or load_json(name, path)
    if doc is None:
        return
    stages = doc.get("stages", [])
    unknown = sum(1 for s in stages if s["measured"] == 0)
    wrong = [f"lcore {s['lcore']} {s['name']} measured {s['measured']}: {s['self']}"
             for s in stages for k in ("events", "self") for v in s[k].values()
             if (v is None) != (s["measured"] == 0)]
    report(not wrong, f"{name}: events and self null in the {unknown} stages with no "
           f"measured call, numbers in the {len(stages) - unknown} others",
           "; ".join(wrong[:3]))


def spread(name, path, table=None):
    """dpdk-pmu-run's spreads in the JSON (and the table)."""
    doc = load_json(name, path)
    if doc is None:
        return
    events, sampling = doc.get("events", []), doc.get("sampling")
    stages = doc.get("stages", [])
    bad = [f"lcore {s['lcore']} {s['name']}: {s.get('spread')}" for s in stages
           if sorted(s.get("spread", {})) != sorted(events) or
           not all(spread_valid(v) for v in s["spread"].values())]
    report(stages and events and not bad, f"{name}: each of the {len(stages)} stages has a "
           f"spread per event ({', '.join(events)}), null or a finite fraction >= 0"
           + (f"; not: {'; '.join(bad[:4])}" if bad else ""))
    nulls(name, path, doc)
    if bad or not stages or not events:
        return
    first = events[0]
    # Every call measured: each figure exact (0); sampled: the first
    # event's spread above 0 in a stage with several measured calls and
    # unmeasured ones (its values vary from call to call).
    if sampling == 1:
        odd = [s for s in stages if any(v != 0 for v in s["spread"].values())
               and s["measured"] > 0]
        report(not odd, f"{name}: --sampling 1: every spread 0 (exact)" +
               (f"; not: {[(s['name'], s['spread']) for s in odd]}" if odd else ""))
    else:
        some = [s for s in stages if s["measured"] >= 2 and s["calls"] >= 2 * s["measured"]
                and s["self"][first] > 0]
        zero = [s["name"] for s in some if not s["spread"][first]]
        report(some and not zero, f"{name}: sampling 1 in {sampling}: the {first} spread of "
               f"the sampled stages above 0: " + ", ".join(
                   f"{s['name']} +- {100 * (s['spread'][first] or 0):.2f}% ({s['measured']} "
                   f"of {s['calls']} measured)" for s in some) or "no sampled stage")
    if table is not None:
        spread_table(name, doc, table)


def spread_table(name, doc, table):
    """The table's Spread column against the JSON: each stage's per lcore,
    and in total the lcores' combined as independent errors."""
    shown = table_spreads(table)
    events = doc["events"]
    want = {}
    for s in doc["stages"]:
        want[(s["lcore"], s["name"])] = [s["spread"][e] for e in events]
    for stage in {s["name"] for s in doc["stages"]}:
        each = [s for s in doc["stages"] if s["name"] == stage]
        want[("total", stage)] = [total_spread(each, i, e) for i, e in enumerate(events)]
    wrong = []
    for key, spreads in sorted(want.items(), key=str):
        got = shown.get(key)
        if got is None or len(got) != len(spreads) or any(
                (w is None) != (g is None) or (w is not None and abs(w - g) > 0.00006)
                for w, g in zip(spreads, got)):
            wrong.append(f"{key}: table {got}, JSON {spreads}")
    sampled = sum(1 for v in shown.values() for x in v if x)
    report(not wrong and sampled > 0, f"{name}: the table's Spread column ('+- x%' on "
           f"{sampled} lines) as the JSON's, per lcore and in total (the lcores' errors "
           "added as independent ones)" + (f"; not: {'; '.join(wrong[:3])}" if wrong else ""))


def top_spread(name, doc, lines):
    """dpdk-pmu-top's spread: in the JSON rows, each event's null or a
    fraction, above 0 for the sampled rx-P-Q stages; '+-x%' in their lines
    of the table."""
    rows = doc.get("rows", [])
    events = doc.get("events", [])
    bad = [r["stage"] for r in rows if sorted(r.get("spread", {})) != sorted(events) or
           not all(spread_valid(v) for v in r["spread"].values())]
    rx = [r for r in rows if RX_ROW.fullmatch(r["stage"])]
    sampled = max(doc.get("sampling") or [1]) > 1
    report(rows and not bad and rx and (not sampled or all(
        0 < (r["spread"][events[0]] or 0) < 1 for r in rx)),
           f"{name}: --json rows' spread (sampling {doc.get('sampling')}): " + ", ".join(
               f"{r['stage']} {r['spread'].get(events[0]) if events else '-'}" for r in rx)
           + (f"; malformed in {bad}" if bad else ""))
    title = any(re.search(r" Spread ", ln) for ln in lines if ln.lstrip().startswith("Lcore"))
    cells = [ln for ln in lines if len(ln.split()) > 4 and RX_ROW.fullmatch(ln.split()[1])]
    report(title and cells and all(re.search(r" \+-\d+\.\d\d%", ln) for ln in cells),
           f"{name}: the table's Spread column, '+-x%' on its {len(cells)} rx-P-Q lines")


def same(name, path, table):
    """The -o table's figures those of the JSON, read once for both."""
    doc = load_json(name, path)
    if doc is None:
        return
    event = doc["events"][0] if doc.get("events") else None
    rows = {(s["lcore"], s["name"]): s for s in doc.get("stages", [])}
    totals = {e["lcore"]: e["events"].get(event) for e in doc.get("lcores", [])}
    seen, differ = 0, []
    for where, line in table_blocks(table):
        row = re.match(r"  (\S+) +(\d+) +(\d+) ", line)
        whole = re.match(r"  \(lcore total\) .* (\d+)~? *$", line)
        if isinstance(where, int) and row and not row.group(1).startswith("("):
            s = rows.get((where, row.group(1)), {})
            seen += 1
            if (s.get("calls"), s.get("items")) != (int(row.group(2)), int(row.group(3))):
                differ.append(f"lcore {where} {row.group(1)}: table {row.group(2)} calls "
                              f"{row.group(3)} items, JSON {s.get('calls')} {s.get('items')}")
        elif isinstance(where, int) and whole:
            seen += 1
            if totals.get(where) != int(whole.group(1)):
                differ.append(f"lcore {where} total {event}: table {whole.group(1)}, JSON "
                              f"{totals.get(where)}")
    report(seen and not differ, f"{name}: the -o table and --json of one read: {seen} stage "
           f"and lcore total lines the same", "; ".join(differ[:4]))


def nothing(name, table, path):
    """A run that measured nothing: its -o file the one line saying why, its
    --json file valid JSON with no event, stage or lcore; neither holds an
    earlier run's figures."""
    with open(table, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    report(len(lines) == 1 and lines[0].endswith("nothing measured") and
           not lines[0].startswith("dpdk-pmu-run: "),
           f"{name}: -o FILE holds this run's one line: {lines[0] if lines else ''}",
           f"{len(lines)} lines: {lines[:3]}")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        report(False, f"{name}: --json FILE valid JSON", f"{err}")
        return
    report(isinstance(doc, dict) and [doc.get(k) for k in ("events", "stages", "lcores")]
           == [[], [], []], f"{name}: --json FILE {json.dumps(doc)}: no event, stage or lcore",
           f"{doc}")


def stage_calls(lines):
    """{(lcore, stage): calls} of the stage rows of a table's lines, each
    (lcore or "total", line)."""
    out = {}
    for where, line in lines:
        row = re.match(r"  (\S+) +(\d+) +(\d+) +[\d.]+  ", line)
        if isinstance(where, int) and row:
            out[(where, row.group(1))] = int(row.group(2))
    return out


def interval_sum(name, err, table, ms):
    """dpdk-pmu-run --interval MS: the last interval, cut short by the end,
    printed before the final table (perf stat -I prints it), less than MS
    after the one before; each lcore's stages' calls over the interval
    tables adding up to the final table's (TABLE: the -o file, or STDERR)."""
    tables = interval_lines(err)
    secs = [sec for sec, _ in tables]
    step = secs[-1] - secs[-2] if len(secs) >= 2 else None
    report(step is not None and step < int(ms) / 1000 * 0.95,
           f"{name}: {len(secs)} interval tables, the last at {secs[-1] if secs else 0:.6f} "
           f"s, cut short by the end ({step or 0:.3f} s after the one before, under "
           f"{int(ms) / 1000:g} s)", f"tables at {secs}")
    summed = {}
    for _, lines in tables:
        for key, calls in stage_calls(lines).items():
            summed[key] = summed.get(key, 0) + calls
    final = stage_calls(table_blocks(table))
    differ = [f"lcore {k[0]} {k[1]}: intervals {summed.get(k, 0)}, final {v}"
              for k, v in sorted(final.items(), key=str) if summed.get(k, 0) != v]
    report(final and not differ, f"{name}: each lcore's stages' calls over the "
           f"{len(secs)} interval tables add up to the final table's ("
           + ", ".join(f"lcore {k[0]} {k[1]} {v}" for k, v in sorted(final.items(), key=str)[:4])
           + ")", "; ".join(differ[:4]) or "no stage in the final table")


def twice(name, status, *cmd):
    """See the usage: a second SIGINT while the final report is written."""
    r, w = os.pipe()
    fcntl.fcntl(r, 1031, 4096)  # F_SETPIPE_SZ: the report blocks soon
    proc = subprocess.Popen(cmd, stderr=w, stdout=subprocess.DEVNULL, start_new_session=True)
    os.close(w)
    text, first, second, start = b"", False, None, time.monotonic()
    try:
        while time.monotonic() - start < 60:
            if not first and time.monotonic() - start >= 3:
                proc.send_signal(signal.SIGINT)
                first = True
            if second is None and b"stages, sampling" in text:
                time.sleep(1)
                proc.send_signal(signal.SIGINT)
                second = time.monotonic()
            ready = select.select([r], [], [], 0.1)[0]
            if ready:
                # A byte at a time until the table's first line, then on.
                data = os.read(r, 1 if second is None else 65536)
                if not data:
                    break
                text += data
            if second is not None and time.monotonic() - second > 20:
                break
        try:
            rc = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            rc = None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(r)
    text = text.decode(errors="replace")
    # Whole: down to the last section (the total over the lcores), not only
    # the first lcore's "(lcore total)", which the first 4 KiB hold already.
    whole = "(lcore total)" in text and "\ndpdk-pmu-run: total\n" in text
    report(second is not None and str(rc) in status.split(",") and whole,
           f"{name}: a second SIGINT while its report is written (its handler ends it "
           f"there): exit status {rc} (the program's own: {status}), the table whole",
           "never reached the table" if second is None else
           f"still running 20 s after the second SIGINT: killed" if rc is None else
           f"exit status {rc}{'' if whole else ', the table cut'}; stderr's end: {text[-300:]}")


# Command: (its number of arguments, or (least, most), the function).
COMMANDS = {
    "testpmd": (4, testpmd),
    "first": (3, first),
    "pcaps": (3, pcaps),
    "top": (3, top),
    "screens": (3, screens),
    "settled": (1, settled),
    "graph": (5, graph),
    "ports": ((4, 5), ports),
    "circles": (1, circles),
    "ordering": (3, ordering),
    "pause": (3, pause),
    "tap": (6, tap),
    "rates": ((1, 8), rates),
    "lcores": (3, lcores),
    "guest": (2, guest),
    "spread": ((2, 3), spread),
    "inexact": (4, inexact),
    "interval": (4, interval),
    "same": (3, same),
    "nulls": (2, nulls),
    "nothing": (3, nothing),
    "interval-sum": (4, interval_sum),
    "twice": ((3, 64), twice),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
