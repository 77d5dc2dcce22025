# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py on forwarding programs under dpdk-pmu-run, their
stages against the packets they forwarded by their own count, the ports'
or the pcaps': testpmd, first, pcaps, graph, ports, pause, ordering and
tap.
"""

import re
import select
import socket
import struct
import time

from ci_common import default_first, report, text_of
from ci_run_check_report import load_json


def accumulated(path):
    """RX-packets and TX-packets of testpmd's accumulated statistics."""
    text = text_of(path)
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
    event, instead = default_first(text_of(err))
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


def graph_stats(path):
    """lib/graph's last printed table: {node: (calls, objs)}."""
    text = text_of(path)
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
    text = text_of(path)
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


def pause(name, out, path):
    """Interactive testpmd with a pause: no stage holds it."""
    doc = load_json(name, path)
    if doc is None:
        return
    blocks = text_of(out).split("Accumulated forward statistics for all ports")[1:]
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
    text = text_of(out)
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
