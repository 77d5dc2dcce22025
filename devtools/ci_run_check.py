#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-run.sh, one "ok: ..." or "FAIL: ..." line each.

  ci_run_check.py testpmd NAME STDOUT JSON EVENT
      dpdk-testpmd's "Accumulated forward statistics" (its STDOUT) against
      dpdk-pmu-run's JSON: the rx-P-Q stages' items add up to RX-packets,
      the tx-P stages' to TX-packets; rx stages measured, with EVENT's
      figures; the idle polls counted apart, with no packets.
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


def main():
    """Dispatch."""
    if len(sys.argv) == 6 and sys.argv[1] == "testpmd":
        testpmd(*sys.argv[2:])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "pcaps":
        pcaps(*sys.argv[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
