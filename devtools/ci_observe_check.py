#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""
Checks behind devtools/ci-observe.sh: each prints "ok: WHAT" or
"FAIL: WHAT (why)"; the shell script counts them.

  ci_observe_check.py telemetry PREFIX EVENTS PID   (Debian's dpdk-telemetry.py)
  ci_observe_check.py prometheus PORT EVENTS        (Prometheus' HTTP API)
  ci_observe_check.py dashboard PORT EVENTS RULES DASHBOARD ALERTS (the same)
  ci_observe_check.py trace DIR EVENTS [STAGES]     (babeltrace / babeltrace2)
  ci_observe_check.py trace-error DIR LCORE:OP:ERR,...  (the same; the failed opens)
  ci_observe_check.py unit-exec ROOT PREFIX PORT     (ROOT's exporter unit)
  ci_observe_check.py missing-files                 (usertools, no traceback)
  ci_observe_check.py bad-arguments                 (the same, values out of range)
  ci_observe_check.py any-port                      (dpdk-pmu-exporter -p 0)
  ci_observe_check.py fake-app                      (dpdk-pmu-exporter on a made-up
                                                    application's replies)
  ci_observe_check.py monotonic RUN PREFIX [PLUGINS] (the exporter's stage counters
                                                    never fall: testpmd, sampled)
  ci_observe_check.py misuse-sum                    (pmu.py, then pages below)
  ci_observe_check.py pages                         (pmu.py and dpdk-pmu-top on
                                                    made-up replies in pages)
  ci_observe_check.py top-total                     (dpdk-pmu-top's %lcore, per
                                                    lcore and --total)
  ci_observe_check.py no-terminal                   (dpdk-pmu-top's live view
                                                    without a terminal)
  ci_observe_check.py top-fit RUN PREFIX [TOP]      (dpdk-pmu-top, or TOP: testpmd's
                                                    sampled stages within each
                                                    lcore's total)

EVENTS is the comma-separated list the application was given; its first
event must grow whenever the counted lcore runs (task-clock). The
application runs stages (rte_pmu_stage_begin/end) on its worker lcores,
every one of them several times a second; STAGES is the comma-separated
list it registers, in order.
"""

# The checks, a file a topic: ci_observe_check_*.py.
from ci_common import main
from ci_observe_check_exporter import (check_any_port, check_fake_app, check_monotonic,
                                       check_unit_exec)
from ci_observe_check_prometheus import check_dashboard, check_prometheus
from ci_observe_check_replies import (check_misuse_sum, check_pages, check_top_fit,
                                     check_top_total)
from ci_observe_check_telemetry import check_telemetry
from ci_observe_check_trace import check_trace, check_trace_error
from ci_observe_check_usage import check_bad_arguments, check_missing_files, check_no_terminal


if __name__ == "__main__":
    main({"telemetry": (3, check_telemetry), "prometheus": (2, check_prometheus),
          "dashboard": (5, check_dashboard), "trace": ((2, 3), check_trace),
          "trace-error": (2, check_trace_error), "unit-exec": (3, check_unit_exec),
          "missing-files": (0, check_missing_files),
          "bad-arguments": (0, check_bad_arguments), "any-port": (0, check_any_port),
          "fake-app": (0, check_fake_app),
          "monotonic": ((2, 3), check_monotonic),
          "misuse-sum": (0, check_misuse_sum), "pages": (0, check_pages),
          "top-total": (0, check_top_total), "no-terminal": (0, check_no_terminal),
          "top-fit": ((2, 3), check_top_fit)},
         __doc__)
