# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

"""Sphinx configuration of the rte_pmu guides (HTML and man pages).

    sphinx-build -W -b html doc/guides OUTDIR
    sphinx-build -W -b man doc/guides OUTDIR

meson runs both (doc/meson.build); the version comes from the VERSION file
at the top of the tree, as meson's own does.
"""

import os

_top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
with open(os.path.join(_top, "VERSION"), encoding="utf-8") as f:
    release = f.read().strip()
version = release

project = "rte_pmu"
author = "The rte_pmu authors"
copyright = "2026, " + author

master_doc = "index"
exclude_patterns = ["_build"]
highlight_language = "none"
html_theme = "classic"
html_show_sourcelink = False
html_title = "rte_pmu " + release + " documentation"
# Only the files sphinx needs: no copy of the .rst sources in the HTML.
html_copy_source = False

# Man pages, from the same source as the tool guides: (source, name,
# description, authors, section).
man_pages = [
    ("tools/test_pmu", "dpdk-test-pmu",
     "count performance counter events around a workload on DPDK lcores",
     [author], 1),
    ("tools/pmu_exporter", "dpdk-pmu-exporter",
     "serve the rte_pmu counters of a DPDK application to Prometheus",
     [author], 1),
    ("tools/pmu_run", "dpdk-pmu-run",
     "profile an unmodified DPDK program per rx queue, tx port and graph node",
     [author], 1),
    ("tools/pmu_top", "dpdk-pmu-top",
     "a live view of the rte_pmu stages of a running DPDK application",
     [author], 1),
    ("tools/pmu_pipeline", "dpdk-pmu-pipeline",
     "an IPv4 forwarder that prints what each stage costs per packet",
     [author], 1),
    ("tools/pmu_graph", "dpdk-pmu-graph",
     "librte_node's IPv4 graph with each node measured as a stage",
     [author], 1),
    ("tools/pmu_traffic", "dpdk-pmu-traffic",
     "write test traffic for the examples as a pcap, or count a pcap's packets",
     [author], 1),
]
man_show_urls = False
