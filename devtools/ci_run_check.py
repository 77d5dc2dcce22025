#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-run.sh, one "ok: ..." or "FAIL: ..." line each.

  ci_run_check.py testpmd NAME STDOUT JSON EVENT
      dpdk-testpmd's "Accumulated forward statistics" (its STDOUT) against
      dpdk-pmu-run's JSON: the rx-P-Q stages' items add up to RX-packets,
      the tx-P stages' to TX-packets; rx stages measured, with EVENT's
      figures; the idle polls counted apart, with no packets.
  ci_run_check.py pcaps NAME A B
      The two pcaps' records the same, timestamps left out.
  ci_run_check.py top NAME JSON TEXT
      dpdk-pmu-top --once --json (JSON) and --once (TEXT) on a running
      program: rx-P-Q rows with calls and packets per second, in both.
  ci_run_check.py screens NAME A B
      Two captures of dpdk-pmu-top's screen: both show the rx-P-Q rows, and
      their rates changed between the two.
  ci_run_check.py settled JSON
      No line; exit 0 when dpdk-pmu-top --once --json --total (JSON) saw the
      ethdev_rx-* nodes polled and no node with a packet between its two
      snapshots: the graph has forwarded the whole pcap.
  ci_run_check.py graph NAME STDOUT JSON EVENT PACKETS
      l3fwd-graph's last printed lib/graph statistics (STDOUT) against
      dpdk-pmu-run's JSON: each node's calls and objs equal to its stage's
      calls and items (a source node, polled on after the last print, has at
      least the printed calls); the ethdev_rx-* nodes received PACKETS;
      ip4_lookup and ip4_rewrite with EVENT per packet.
"""

import json
import re
import struct
import sys


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


def check(ok, what):
    """One line."""
    print(("ok: " if ok else "FAIL: ") + what)


def testpmd(name, out, path, event):
    """The testpmd checks."""
    rx, tx = accumulated(out)
    if rx is None or tx is None:
        check(False, f"{name}: no accumulated statistics in testpmd's output")
        return
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        check(False, f"{name}: --json file: {err}")
        return
    stages = doc.get("stages", [])
    busy = [s for s in stages if re.fullmatch(r"rx-\d+-\d+", s["name"])]
    idle = [s for s in stages if re.fullmatch(r"rx-\d+-\d+-idle", s["name"])]
    txs = [s for s in stages if re.fullmatch(r"tx-\d+", s["name"])]
    rx_items = sum(s["items"] for s in busy)
    tx_items = sum(s["items"] for s in txs)
    check(rx_items == rx and rx > 0,
          f"{name}: rx-* stages' items {rx_items} = testpmd's RX-packets {rx} "
          f"({', '.join(s['name'] + ' ' + str(s['items']) for s in busy)})")
    check(tx_items == tx and tx > 0,
          f"{name}: tx-* stages' items {tx_items} = testpmd's TX-packets {tx} "
          f"({', '.join(s['name'] + ' ' + str(s['items']) for s in txs)})")
    check(event in doc.get("events", []), f"{name}: events {doc.get('events')} hold {event}")
    measured = sum(s["measured"] for s in busy)
    value = sum(s["events"].get(event, 0) for s in busy)
    check(measured > 0 and value > 0,
          f"{name}: rx stages measured {measured} bursts of "
          f"{sum(s['calls'] for s in busy)}, {event} {value}")
    check(idle and all(s["items"] == 0 for s in idle) and sum(s["calls"] for s in idle) > 0,
          f"{name}: empty polls apart: {sum(s['calls'] for s in idle)} calls of "
          f"rx-*-idle, 0 packets")


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
        check(False, f"{name}: {err}")
        return
    check(wa and wb and ha == hb and ra == rb and len(ra) > 0,
          f"{name}: {len(rb)} records, file header and each record's lengths and "
          f"frame identical to the {len(ra)} without ({b.rsplit('/', 1)[-1]})")


def load_json(name, path):
    """The JSON document of path, or None with a FAIL line."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as err:
        check(False, f"{name}: {path}: {err}")
        return None


RX_ROW = re.compile(r"rx-\d+-\d+")


def top(name, path, text_path):
    """The dpdk-pmu-top --once checks."""
    doc = load_json(name, path)
    if doc is None:
        return
    rx = [r for r in doc.get("rows", []) if RX_ROW.fullmatch(r["stage"])]
    check(rx and all(r["calls_per_s"] > 0 and r["items_per_s"] > 0 for r in rx),
          f"{name}: --once --json: " + (", ".join(
              f"lcore {r['lcore']} {r['stage']} {r['calls_per_s']:.0f} calls/s "
              f"{r['items_per_s']:.0f} packets/s" for r in rx) or "no rx-P-Q row"))
    with open(text_path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    rows = [ln.split() for ln in lines if len(ln.split()) > 4 and RX_ROW.fullmatch(ln.split()[1])]
    # Lcore, Stage, cost/s, Calls/s, Items/s, ...
    calls = [float(r[3].replace(",", "")) for r in rows]
    check(rows and all(c > 0 for c in calls),
          f"{name}: --once table: {len(rows)} rx-P-Q rows, calls/s "
          f"{', '.join(r[3] for r in rows) or '-'}")


def screen_rows(path):
    """The rx-P-Q rows of a captured screen, by (lcore, stage)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    return {tuple(ln.split()[:2]): ln.split()[2:] for ln in lines
            if len(ln.split()) > 4 and RX_ROW.fullmatch(ln.split()[1])}


def screens(name, a, b):
    """The dpdk-pmu-top screen checks."""
    ra, rb = screen_rows(a), screen_rows(b)
    check(ra and set(ra) == set(rb),
          f"{name}: both screens show {', '.join(f'lcore {k[0]} {k[1]}' for k in sorted(ra)) or 'no rx-P-Q row'}")
    changed = [k for k in ra if k in rb and ra[k][:3] != rb[k][:3]]
    check(ra and len(changed) == len(ra),
          f"{name}: rates changed between the captures: " + "; ".join(
              f"{k[1]} calls/s {ra[k][1]} -> {rb[k][1]}" for k in sorted(ra) if k in rb))


def settled(path):
    """Exit 0 once the graph has forwarded every packet (no line)."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["rows"]
    except (OSError, ValueError, KeyError):
        return 1
    # Rows count from the first of the two snapshots: the rx nodes polled,
    # nothing received nor forwarded meanwhile.
    polled = any(r["stage"].startswith("ethdev_rx-") and r["calls"] > 0 for r in rows)
    return 0 if polled and all(r["items"] == 0 for r in rows) else 1


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
        check(False, f"{name}: no lib/graph statistics table in the program's output")
        return
    doc = load_json(name, path)
    if doc is None:
        return
    stages = {}
    for s in doc.get("stages", []):
        calls, items, value, measured = stages.get(s["name"], (0, 0, 0, 0))
        stages[s["name"]] = (calls + s["calls"], items + s["items"],
                             value + s["events"].get(event, 0), measured + s["measured"])
    for node, (calls, objs) in sorted(table.items()):
        if node not in stages:
            check(False, f"{name}: node {node} ({calls} calls, {objs} objs) has no stage")
            continue
        scalls, sitems = stages[node][:2]
        if node.startswith("ethdev_rx-"):
            check(sitems == objs and scalls >= calls,
                  f"{name}: {node}: objs {objs} = items {sitems}; calls {calls} printed, "
                  f"{scalls} at exit (a source node, polled on after the last print)")
        else:
            check(scalls == calls and sitems == objs,
                  f"{name}: {node}: calls {calls} objs {objs} = the stage's calls {scalls} "
                  f"items {sitems}")
    rx = sum(v[1] for k, v in stages.items() if k.startswith("ethdev_rx-"))
    check(rx == int(packets), f"{name}: the ethdev_rx-* stages received {rx} packets "
          f"of the {packets} in the pcaps")
    extra = [k for k, v in stages.items() if v[1] > 0 and k not in table]
    check(not extra, f"{name}: every stage with items is in the printed table"
          + (f" (not: {', '.join(extra)})" if extra else ""))
    for node in ("ip4_lookup", "ip4_rewrite"):
        calls, items, value, measured = stages.get(node, (0, 0, 0, 0))
        check(items > 0 and measured > 0 and value > 0,
              f"{name}: {node}: {items} packets, {measured} of {calls} calls measured, "
              f"{event}/packet {value / items if items else 0:.1f}")


# Command: (its number of arguments, the function). A function's return is
# the exit status (None: 0, its lines telling the result).
COMMANDS = {
    "testpmd": (4, testpmd),
    "pcaps": (3, pcaps),
    "top": (3, top),
    "screens": (3, screens),
    "settled": (1, settled),
    "graph": (5, graph),
}


def main():
    """Dispatch."""
    nargs, fn = COMMANDS.get(sys.argv[1] if len(sys.argv) > 1 else "", (None, None))
    if fn is None or len(sys.argv) != nargs + 2:
        print(__doc__, file=sys.stderr)
        return 2
    return fn(*sys.argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main())
