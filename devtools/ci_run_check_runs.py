# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py that compare runs: rates (testpmd's packet
rate with dpdk-pmu-run against without) and guest (the same testpmd run
three times in the arm64 guest).
"""

import os
import re
import statistics

from ci_common import console_runs, report, text_of
from ci_run_check_forward import accumulated


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
    pps = [int(v) for v in re.findall(r"Rx-pps: +(\d+)", text_of(path))]
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
