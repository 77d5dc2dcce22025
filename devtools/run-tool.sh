#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Build and run dpdk-test-pmu on its default events (cycles, instructions;
# software events without a hardware PMU); arguments go to the tool, e.g.
#   devtools/run-tool.sh --events task-clock,page-faults --workload memory
# Then dpdk-pmu-pipeline forwards a generated pcap between two net_pcap
# ports and prints each stage's cost per packet (PIPELINE=0: not that).
set -euo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO"
build=${BUILD_DIR:-build}
deps
build_if_missing "$build"
lcores=0
[ "$(nproc)" -gt 1 ] && lcores=0-1
"$build/app/test-pmu/dpdk-test-pmu" -l "$lcores" --no-huge --no-pci --no-shconf \
	-m 64 --file-prefix="test-pmu-$$" --log-level=lib.pmu:info -- "$@"

pipeline=$build/examples/dpdk-pmu-pipeline
if [ "${PIPELINE:-1}" = 0 ] || [ ! -x "$pipeline" ]; then
	exit 0
fi
tmp=$(mktemp -d /tmp/run-tool.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -r routed unrouted nonip < <(python3 usertools/dpdk-pmu-traffic write "$tmp/in.pcap" \
	20000 50 50)
echo
echo "dpdk-pmu-pipeline: forwarding $((routed + unrouted + nonip)) generated packets each way" \
	"between two net_pcap ports ($routed to 10.0.0.0/8, $unrouted unrouted and $nonip" \
	"non-IPv4 to drop):"
"$pipeline" -l "$lcores" --no-huge --no-pci --no-shconf -m 256 --file-prefix="pipeline-$$" \
	--log-level=lib.pmu:warning --log-level=lib.eal:warning --log-level=lib.telemetry:warning \
	--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out1.pcap" \
	-- --duration 3 --packets $((2 * (routed + unrouted + nonip)))
