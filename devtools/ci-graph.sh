#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: dpdk-pmu-graph (examples/pmu_graph), DPDK's librte_node IPv4
# graph with every node a stage, over two net_pcap ports on x86.
#  (a) a pcap written by usertools/dpdk-pmu-traffic (routed and unrouted
#      packets) read once: packets conserved (rx = tx + dropped, pkt_drop
#      included), the tx pcap holds the routed ones, per-node rows with
#      calls and packets for every node, equal to lib/graph's own counts;
#  (b) --compare on the same traffic looped (infinite_rx): the drop-in off,
#      on and sampled each forward packets; their rates are printed;
#  (c) bad options are refused;
#  (d) the same traffic looped with telemetry on: usertools/dpdk-pmu-exporter
#      scraped by a real Prometheus every second, which must hold growing
#      per-node stage series (calls, items) for ethdev_rx, ip4_lookup and
#      ethdev_tx, labelled with the worker lcore.
# Prints "RESULT passed=P failed=F skipped=S" and its duration.
#
# Environment: BUILD_DIR (default build).
set -uo pipefail

. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}
app=$build/examples/dpdk-pmu-graph
python=/usr/bin/python3
work=$(mktemp -d /tmp/pmu-ci-graph.XXXXXX)
prefix=pmu_ci_graph_$$
pids=()
cleanup()
{
	kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work" "${XDG_RUNTIME_DIR:-/tmp}/dpdk/${prefix}_d" "/var/run/dpdk/${prefix}_d"
}
trap cleanup EXIT

# checker KIND ARGS...: devtools/ci_graph_check.py, one check per line.
checker() { py_check 60 ci_graph_check.py "$work/check.out" "$@"; }

if [ ! -x "$app" ]; then
	skip "$app not built (meson -Dexamples=pmu_graph)"
	finish
fi

eal=(-l 0-1 --no-huge --no-pci --no-shconf -m 256)
# 5000 packets: 4375 to 10.1.y.z (port 1), one in 8 to 192.0.2.x (no route).
routed=4375 sent=5000
"$python" usertools/dpdk-pmu-traffic write "$work/in.pcap" $routed $((sent - routed)) 0 \
	--port 1 >/dev/null || { fail "dpdk-pmu-traffic write"; finish; }
echo "  traffic: $sent packets, $routed routed to port 1, $((sent - routed)) unrouted"
"$python" usertools/dpdk-pmu-traffic write "$work/empty.pcap" 0 0 0 >/dev/null

# (a) one pass over the pcap.
timeout 60 "$app" "${eal[@]}" --file-prefix="${prefix}_a" \
	--vdev "net_pcap0,rx_pcap=$work/in.pcap,tx_pcap=$work/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$work/empty.pcap,tx_pcap=$work/out1.pcap" \
	-- --duration 2 --json >"$work/a.json" 2>"$work/a.err"
rc=$?
sed -n '/^per node/,$p' "$work/a.err" | sed 's/^/  | /'
if [ $rc -ne 0 ]; then
	fail "dpdk-pmu-graph exited with $rc"
	tail -20 "$work/a.err"
else
	checker conserve "$work/a.json" $sent "$routed" "$work/out1.pcap"
fi

# (b) the drop-in off, on and sampled on looped traffic.
timeout 60 "$app" "${eal[@]}" --file-prefix="${prefix}_b" \
	--vdev "net_pcap0,rx_pcap=$work/in.pcap,tx_pcap=/dev/null,infinite_rx=1" \
	--vdev "net_pcap1,rx_pcap=$work/empty.pcap,tx_pcap=/dev/null" \
	-- --duration 3 --compare --json >"$work/b.json" 2>"$work/b.err"
rc=$?
sed -n '/^drop-in off/,$p' "$work/b.err" | sed 's/^/  | /'
if [ $rc -ne 0 ]; then
	fail "dpdk-pmu-graph --compare exited with $rc"
	tail -20 "$work/b.err"
else
	checker compare "$work/b.json"
fi

# (c) bad options: usage, exit status 2.
for bad in "--duration 0" "--sampling 0" "--no-such-option"; do
	# shellcheck disable=SC2086
	timeout 30 "$app" "${eal[@]}" --file-prefix="${prefix}_c" \
		--vdev "net_pcap0,rx_pcap=$work/empty.pcap,tx_pcap=/dev/null" \
		-- $bad >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 2 ]; then
		ok "'$bad' refused (exit 2)"
	else
		fail "'$bad' gave exit status $rc, 2 expected"
	fi
done

# (d) per-node series in Prometheus, through the exporter.
echo "  (d) per-node stage series scraped by Prometheus"
deps observe || log "could not install every package"
if [ ! -x /usr/bin/prometheus ] || ! "$python" -c 'import prometheus_client' 2>/dev/null; then
	skip "per-node series in Prometheus: /usr/bin/prometheus or python3-prometheus-client missing"
	finish
fi
timeout 60 "$app" -l 0-1 --no-huge --no-pci -m 256 --file-prefix="${prefix}_d" \
	--vdev "net_pcap0,rx_pcap=$work/in.pcap,tx_pcap=/dev/null,infinite_rx=1" \
	--vdev "net_pcap1,rx_pcap=$work/empty.pcap,tx_pcap=/dev/null" \
	-- --duration 30 >"$work/d.out" 2>&1 &
pids+=($!)
mkdir -p "$work/prom"
eport=$(free_port) pport=$(free_port)
if ! wait_for "[ -S ${XDG_RUNTIME_DIR:-/tmp}/dpdk/${prefix}_d/dpdk_telemetry.v2 ] || \
		[ -S /var/run/dpdk/${prefix}_d/dpdk_telemetry.v2 ]" 20; then
	tail -5 "$work/d.out"
	fail "dpdk-pmu-graph's telemetry socket did not appear"
elif prometheus_up "$work/prom" "${prefix}_d" "$eport" "$pport"; then
	checker prometheus "$pport" ethdev_rx,ip4_lookup,ethdev_tx
else
	fail "exporter on 127.0.0.1:$eport or prometheus on 127.0.0.1:$pport did not come up"
fi
finish
