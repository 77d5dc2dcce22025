#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-graph.sh on dpdk-pmu-graph's JSON: one "ok:" or
"FAIL:" line per check.

  conserve JSON SENT ROUTED OUT_PCAP  a run over a finite pcap, drop-in on
  compare JSON                        a --compare run
  prometheus PORT NODES               per-node stage series in Prometheus
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def say(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    return ok


def rows(doc, prefix):
    return [s for s in doc["stages"] if s["name"] == prefix or
            s["name"].startswith(prefix + "-")]


def total(doc, prefix, key):
    return sum(s[key] for s in rows(doc, prefix))


def conserve(path, sent, routed, out_pcap):
    doc = json.load(open(path))
    rx = sum(p["rx"] for p in doc["ports"])
    tx = sum(p["tx"] for p in doc["ports"])
    dropped = sum(p["dropped"] for p in doc["ports"]) + doc["pkt_drop"]
    say(rx == sent, "received %d of the %d packets sent" % (rx, sent))
    say(rx == tx + dropped, "packets conserved: rx %d = tx %d + dropped %d (pkt_drop %d)"
        % (rx, tx, dropped, doc["pkt_drop"]))
    say(tx == routed, "sent the %d routed packets: %d" % (routed, tx))
    out = subprocess.run([sys.executable, os.path.join(HERE, "..", "usertools", "dpdk-pmu-traffic"), "count",
                          out_pcap], capture_output=True, text=True)
    n = int(out.stdout.strip() or -1)
    say(n == routed, "the tx pcap holds %d records, %d expected" % (n, routed))
    for node in ("ethdev_rx", "pkt_cls", "ip4_lookup", "ip4_rewrite", "ethdev_tx",
                 "pkt_drop"):
        r = rows(doc, node)
        calls, items = total(doc, node, "calls"), total(doc, node, "items")
        say(len(r) > 0 and calls > 0, "node %s: %d row(s), %d calls, %d packets" %
            (node, len(r), calls, items))
    want = {"ethdev_rx": sent, "pkt_cls": sent, "ip4_lookup": sent, "ip4_rewrite": routed,
            "ethdev_tx": routed, "pkt_drop": sent - routed}
    for node, n in want.items():
        got = total(doc, node, "items")
        say(got == n, "node %s: %d packets, %d expected" % (node, got, n))
    # The stage and lib/graph's own stats count the same calls and objects.
    same = [s["name"] for s in doc["stages"]
            if s["calls"] != s["graph"]["calls"] or s["items"] != s["graph"]["objs"]]
    say(not same, "stage calls and packets equal lib/graph's calls and objs%s" %
        (": not for " + ", ".join(same) if same else ""))
    misuse = sum(s["misuse"] for s in doc["stages"])
    say(misuse == 0, "no stage misuse (%d)" % misuse)


def compare(path):
    doc = json.load(open(path))
    c = doc.get("compare")
    if not say(c is not None, "the --compare block is there"):
        return
    for m in ("off", "on", "sampled"):
        say(c[m]["packets"] > 0, "%s: %d packets, %.0f packets/s, %.3fx the rate off" %
            (m, c[m]["packets"], c[m]["pps"], c[m]["rate_ratio"]))
    per_node = [s for s in doc["stages"] if s["calls"] > 0]
    say(len(per_node) >= 5, "%d nodes with calls in the table" % len(per_node))


def prometheus(port, nodes):
    """Each node's stage series, scraped from the exporter: calls and items
    per lcore and clone, the node's totals growing while the graph runs."""
    sys.path.insert(0, HERE)
    from ci_observe_check import prom_range
    try:
        calls = prom_range(port, "dpdk_pmu_stage_calls_total[30s]", 4)
        items = prom_range(port, "dpdk_pmu_stage_items_total[30s]", 4, 5)
    except (OSError, RuntimeError, ValueError, KeyError) as e:
        say(False, "prometheus answers the stage queries: %s" % e)
        return
    for node in nodes.split(","):
        for name, series in (("calls", calls), ("items", items)):
            mine = [s for s in series if s["metric"].get("stage", "") == node or
                    s["metric"].get("stage", "").startswith(node + "-")]
            values = [[float(v) for _, v in s["values"]] for s in mine]
            # The node's total grows (a clone on an idle port may not);
            # no series ever falls.
            grows = bool(mine) and sum(v[-1] for v in values) > \
                sum(v[0] for v in values) and \
                all(all(b >= a for a, b in zip(v, v[1:])) for v in values)
            say(grows and all(s["metric"].get("lcore", "") != "" for s in mine),
                "prometheus: %s %s series %s, total growing, none falling, over %s samples (%s -> %s)"
                % (node, name, [s["metric"].get("stage") + "@lcore" +
                                 s["metric"].get("lcore", "?") for s in mine],
                   [len(v) for v in values], [v[0] for v in values],
                   [v[-1] for v in values]))


def main():
    if sys.argv[1] == "conserve":
        conserve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2])
    elif sys.argv[1] == "prometheus":
        prometheus(int(sys.argv[2]), sys.argv[3])
    else:
        print("FAIL: unknown check " + sys.argv[1])
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
