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

# The checks, a file a topic: ci_run_check_*.py.
from ci_common import main
from ci_run_check_forward import first, graph, ordering, pause, pcaps, ports, tap, testpmd
from ci_run_check_interval import interval, interval_gaps, interval_sum, lcores
from ci_run_check_preload import circles, twice
from ci_run_check_report import inexact, nothing, nulls, same, spread
from ci_run_check_runs import guest, rates
from ci_run_check_top import screens, settled, top


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
    "interval-gaps": (3, interval_gaps),
    "twice": ((3, 64), twice),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
