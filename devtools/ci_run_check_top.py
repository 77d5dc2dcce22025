# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py on usertools/dpdk-pmu-top against a program
under dpdk-pmu-run: top (--once, --json), screens (its live view under
tmux) and settled (the program done forwarding).
"""

import re

from ci_common import load, report, text_of
from ci_run_check_report import load_json, spread_valid


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
    lines = text_of(text_path).splitlines()
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
    lines = text_of(path).splitlines()
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
