#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of devtools/ci-graph.sh on dpdk-pmu-graph, one "ok:" or "FAIL:"
line each.

  conserve JSON SENT ROUTED OUT_PCAP  a run over a finite pcap, drop-in on
  compare JSON                        a --compare run
  defaults JSON STDERR                a run on the default events: msr/tsc/
                                      first where they gave way (else
                                      task-clock; cycles where they did
                                      not), counted in the nodes
  prometheus PORT NODES               per-node stage series in Prometheus
  marks JSON STDERR                   the table's '~' as the JSON's inexact
"""

from ci_common import conserved, default_first, load, main, pcap_count, prom_range, report

NODES = ("ethdev_rx", "pkt_cls", "ip4_lookup", "ip4_rewrite", "ethdev_tx", "pkt_drop")


def rows(doc, node):
    return [s for s in doc["stages"] if s["name"] == node or s["name"].startswith(node + "-")]


def total(doc, node, key):
    return sum(s[key] for s in rows(doc, node))


def defaults(path, err):
    doc = load(path)
    with open(err, encoding="utf-8", errors="replace") as f:
        event, instead = default_first(f.read())
    value = sum(s["events"].get(event) or 0 for s in doc["stages"])
    alone = event != "msr/tsc/" or doc["events"] == [event]
    report(doc["events"][:1] == [event] and alone and (instead is None or instead[0] == event)
           and value > 0, f"default events {doc['events']}: {event} first"
           f"{' and alone' if event == 'msr/tsc/' else ''} (counted instead: "
           f"{'-' if instead is None else ','.join(instead)}), {value} in the nodes")


def marks(path, err):
    """The table's '~' against the JSON's "inexact": a node's line marked
    where one of its events is not exact, and the line under the table that
    says what '~' means where any is."""
    doc = load(path)
    with open(err, encoding="utf-8", errors="replace") as f:
        text = f.read().split("\nper node, lcore")[-1].splitlines()
    want = {s["name"]: any(s.get("inexact", {}).values()) for s in doc["stages"]}
    shown = {ln.split()[0]: "~" in ln.split("|")[0] for ln in text
             if ln.split() and ln.split()[0] in want}
    legend = any(ln.startswith("~ not exact: ") for ln in text)
    report(shown == want and legend == any(want.values()),
           f"the table marks '~' on the nodes the JSON says are not exact "
           f"({[k for k, v in want.items() if v] or 'none'}), "
           f"{'with' if legend else 'without'} the line saying what it means",
           f"table {shown}, line {legend}")


def conserve(path, sent, routed, out_pcap):
    doc, sent, routed = load(path), int(sent), int(routed)
    rx = sum(p["rx"] for p in doc["ports"])
    tx = sum(p["tx"] for p in doc["ports"])
    report(rx == sent, f"received {rx} of the {sent} packets sent")
    conserved(doc)
    report(tx == routed, f"sent the {routed} routed packets: {tx}")
    n = pcap_count(out_pcap)
    report(n == routed, f"the tx pcap holds {n} records, {routed} expected")
    for node in NODES:
        calls, items = total(doc, node, "calls"), total(doc, node, "items")
        report(calls > 0, f"node {node}: {len(rows(doc, node))} row(s), {calls} calls, "
               f"{items} packets")
    want = {"ethdev_rx": sent, "pkt_cls": sent, "ip4_lookup": sent, "ip4_rewrite": routed,
            "ethdev_tx": routed, "pkt_drop": sent - routed}
    for node, n in want.items():
        got = total(doc, node, "items")
        report(got == n, f"node {node}: {got} packets, {n} expected")
    # The stages and lib/graph's own stats count the same calls and objects.
    differ = [s["name"] for s in doc["stages"]
              if s["calls"] != s["graph"]["calls"] or s["items"] != s["graph"]["objs"]]
    report(not differ, "stage calls and packets equal lib/graph's calls and objs",
           "not for " + ", ".join(differ))
    bad = [s["name"] for s in doc["stages"] if sorted(s.get("inexact", {})) !=
           sorted(s["events"]) or not all(isinstance(v, bool) for v in s["inexact"].values())]
    marks = [s["name"] for s in doc["stages"] if any(s.get("inexact", {}).values())]
    report(not bad, "each node's figures marked exact or not per event (\"inexact\", the "
           f"table's '~'): not exact in {marks or 'none'}", f"no boolean per event in {bad}")
    misuse = sum(s["misuse"] for s in doc["stages"])
    report(misuse == 0, f"no stage misuse ({misuse})")


def compare(path):
    doc = load(path)
    c = doc.get("compare")
    if not report(c is not None, "the --compare block is there"):
        return
    for m in ("off", "on", "sampled"):
        report(c[m]["packets"] > 0, f"{m}: {c[m]['packets']} packets, {c[m]['pps']:.0f} "
               f"packets/s, {c[m]['rate_ratio']:.3f}x the rate off")
    busy = [s for s in doc["stages"] if s["calls"] > 0]
    report(len(busy) >= 5, f"{len(busy)} nodes with calls in the table")


def prometheus(port, nodes):
    """Each node's calls and items series (per lcore and clone): the node's
    total grows while the graph runs (a clone on an idle port may not), no
    series ever falls, each has its lcore label."""
    calls = prom_range(port, "dpdk_pmu_stage_calls_total[30s]", 4)
    items = prom_range(port, "dpdk_pmu_stage_items_total[30s]", 4, 5)
    for node in nodes.split(","):
        for name, series in (("calls", calls), ("items", items)):
            mine = [s for s in series if s["metric"].get("stage", "") == node or
                    s["metric"].get("stage", "").startswith(node + "-")]
            values = [[float(v) for _, v in s["values"]] for s in mine]
            grows = bool(mine) and sum(v[-1] for v in values) > sum(v[0] for v in values) \
                and all(b >= a for v in values for a, b in zip(v, v[1:]))
            labels = [s["metric"].get("stage") + "@lcore" + s["metric"].get("lcore", "?")
                      for s in mine]
            report(grows and all(s["metric"].get("lcore", "") != "" for s in mine),
                   f"prometheus: {node} {name} series {labels}, total growing, none falling, "
                   f"over {[len(v) for v in values]} samples ({[v[0] for v in values]} -> "
                   f"{[v[-1] for v in values]})")


if __name__ == "__main__":
    main({"conserve": (4, conserve), "compare": (1, compare), "defaults": (2, defaults),
          "marks": (2, marks),
          "prometheus": (2, prometheus)}, __doc__)
