# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py on dpdk-pmu-run --interval's tables and on each
lcore's total: interval, interval-sum, interval-gaps and lcores.
"""

import re

from ci_common import report
from ci_run_check_report import load_json, table_blocks, table_lines


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


def final_totals(path, event, block=False):
    """{lcore: (lcore total) of event} of the last dpdk-pmu-run table of a
    file (table_lines()); with block, that of its total block (None where
    it has none)."""
    out, where, whole = {}, None, None
    for line in table_lines(path):
        head = re.fullmatch(r"lcore (\d+).*|total", line)
        if head:
            where = int(head.group(1)) if head.group(1) else None
            continue
        m = re.match(r"  \(lcore total\) +- +- +-  " + re.escape(event)
                     + r"(?: \w+)? +- +- +- +(\d+)", line)
        if m and where is not None:
            out[where] = int(m.group(1))
        elif m:
            whole = int(m.group(1))
    return whole if block else out


def interval(name, err, table, event):
    """dpdk-pmu-run --interval: each table's lcore rows of its interval."""
    tables = interval_tables(err, event)
    final = final_totals(table, event)
    lcores = sorted({lc for _, t in tables for lc, fig in t.items() if "total" in fig})
    report(lcores and final, f"{name}: --interval tables with (lcore total) rows of "
           f"{event} ({len(tables)} tables, lcores {lcores}), and the final table's "
           f"(lcores {sorted(final)})")
    whole = final_totals(table, event, block=True)
    report(whole == sum(final.values()), f"{name}: the final table's total block has the "
           f"lcores' (lcore total) summed: {whole}, {sum(final.values())}")
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


def interval_gaps(name, err, ms):
    """With --interval MS, the program stopped for a while in its run: no two
    tables closer than half an interval (the deadlines missed while stopped
    are skipped, not made up for by a burst of near-empty intervals), but the
    last, which the end cuts short; and one table spans the stop."""
    stamps = [sec for sec, _ in interval_lines(err)]
    period = int(ms) / 1000.0
    gaps = [b - a for a, b in zip(stamps, stamps[1:-1])]
    close = [round(g, 6) for g in gaps if g < period / 2]
    report(len(gaps) >= 3 and not close and max(gaps) > 5 * period,
           f"{name}: {len(stamps)} tables every {ms} ms with the program stopped for a "
           f"while: none closer than {period / 2:.3f} s to the one before, the longest "
           f"interval {max(gaps, default=0):.3f} s",
           f"intervals {[round(g, 6) for g in gaps]}, {len(close)} closer than half of "
           f"{ms} ms")
