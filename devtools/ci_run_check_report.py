# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Checks of ci_run_check.py on dpdk-pmu-run's report, its --json file and
its table (the -o file, or stderr): spread, nulls, inexact, same and
nothing; and the readers of both that the other checks share.
"""

import json
import re

from ci_common import load, report, text_of


def load_json(name, path):
    """The JSON document of path, or None with a FAIL line."""
    try:
        return load(path)
    except (OSError, ValueError) as err:
        report(False, f"{name}: {path}: {err}")
        return None


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


def line_marks(line):
    """Whether an event line holds '~' on a figure but its Incl/Item, and on
    its Incl/Item: that one alone is marked for a sampled stage with stages
    inside it, whose Incl is told from its own measured calls alone."""
    toks = re.sub(r" +(?:\+- *[\d.]+%|-)$", "", line).split()
    incl = toks.pop(-2) if len(toks) >= 4 else ""
    return any("~" in t for t in toks), "~" in incl


def table_marks(path):
    """{(lcore or "total", stage): [whether each event's line holds '~' on a
    figure but its Incl/Item]}."""
    blocks = {}
    for key, line in table_events(path):
        blocks.setdefault(key, []).append(line_marks(line)[0])
    return blocks


def outside_marks(path):
    """{lcore: [whether each event's "(outside stages)" line holds '~']}; the
    total block's lines left out."""
    marks, where, cur = {}, None, None
    for line in table_lines(path):
        head = re.fullmatch(r"lcore (\d+).*|total", line)
        if head:
            where = int(head.group(1)) if head.group(1) else None
            cur = None
        elif line.startswith("  (outside stages)") and where is not None:
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
    # An Incl/Item marked alone where the JSON says: sampled, stages inside,
    # a self spread above 5 % or not told, not otherwise inexact.
    incl = {}
    for key, line in table_events(table):
        incl.setdefault(key, []).append(line_marks(line))
    odd = []
    for s in stages:
        for i, e in enumerate(events):
            sp, v, own = s.get("spread", {}).get(e), s["events"].get(e), s["self"].get(e)
            want = (0 < s["measured"] < s["calls"] and s["items"] > 0 and v is not None and
                    own is not None and
                    v > own and not (sp is not None and sp <= 0.05) and not s["inexact"][e])
            got = incl.get((s["lcore"], s["name"]), [])
            if i < len(got) and not got[i][0] and got[i][1] != want:
                odd.append(f"lcore {s['lcore']} {s['name']} {e}: Incl marked {got[i][1]}")
    report(not odd, f"{name}: Incl/Item marked alone where a sampled stage has stages inside "
           "it and a self spread above 5 %, and nowhere else" + (f"; not: {'; '.join(odd[:3])}"
                                                                 if odd else ""))
    # An Incl/Item marked alone: said under the table.
    alone = sum(1 for _, line in table_events(table) if line_marks(line) == (False, True))
    with open(table, errors="replace") as f:
        said = "Incl ~ alone:" in f.read()
    report(said == (alone > 0), f"{name}: {alone} Incl/Item figure(s) marked alone, "
           f"{'and' if said else 'no'} line under the table saying why")
    # The part of an lcore outside its stages: not exact where a stage's
    # figure of the event is not, or more than 1 in 100 of a stage's calls
    # came after its last measured one (the period's p-th call is measured:
    # calls - measured * p of them), which may lie past the lcore's total.
    period = doc.get("sampling", 1)
    tail = {(s["lcore"], s["name"]) for s in stages
            if (s["calls"] - s["measured"] * period) * 100 > s["calls"]}
    lc = [l for l in doc.get("lcores", []) if l.get("events")]
    want = {l["lcore"]: [any(s["inexact"][e] or (s["lcore"], s["name"]) in tail
                             for s in stages if s["lcore"] == l["lcore"])
                         for e in events] for l in lc}
    got = {l["lcore"]: [l.get("outside_inexact", {}).get(e) for e in events] for l in lc}
    shown = outside_marks(table)
    report(lc and got == want and {k: shown.get(k) for k in want} == want,
           f"{name}: each lcore's part outside its stages marked not exact exactly where "
           f"one of its stages is, or has more than 1 in 100 of its calls after its last "
           f"measured one (sampling 1 in {period}), in the JSON and the table: {want}",
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
    lines = text_of(table).splitlines()
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
