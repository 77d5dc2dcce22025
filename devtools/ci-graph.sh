#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: dpdk-pmu-graph, librte_node's IPv4 graph with every node a stage,
# over two net_pcap ports (checks in ci_graph_check.py):
#  (a) a generated pcap read once: packets conserved, the tx pcap, each
#      node's calls and packets, equal to lib/graph's own counts; on the
#      default events, msr/tsc/ first where no hardware event opens;
#  (b) --compare on the traffic looped: off, on and sampled forward packets;
#  (c) bad options refused;
#  (d) looped with telemetry: a real Prometheus scraping the exporter holds
#      growing per-node series for ethdev_rx, ip4_lookup and ethdev_tx.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
app=$build/examples/dpdk-pmu-graph
python=/usr/bin/python3
prefix=pmu_ci_graph_$$
prefixes=${prefix}_d
stage_tmp ci-graph

checker() { py_check 60 ci_graph_check.py "$tmp/check.out" "$@"; }

[ -x "$app" ] || { skip "$app not built (meson -Dexamples=pmu_graph)"; finish; }

# graph NAME PORT0 PORT1_TX ARGS...: the example over net_pcap ports 0
# (PORT0: its rx_pcap and tx_pcap) and 1 (an empty pcap, tx to PORT1_TX),
# stdout in $tmp/NAME.out, stderr in $tmp/NAME.err, status in rc.
graph()
{
	local name=$1 port0=$2 tx1=$3

	shift 3
	run_to "$name" 60 "$app" -l 0-1 --no-huge --no-pci --no-shconf -m 256 \
		--file-prefix="${prefix}_$name" --vdev "net_pcap0,$port0" \
		--vdev "net_pcap1,rx_pcap=$tmp/empty.pcap,tx_pcap=$tx1" -- "$@"
}

# 5000 packets: 4375 to 10.1.y.z (port 1), one in 8 to 192.0.2.x (no route).
routed=4375 sent=5000
"$python" usertools/dpdk-pmu-traffic write "$tmp/in.pcap" $routed $((sent - routed)) 0 \
	--port 1 >/dev/null || { fail "dpdk-pmu-traffic write"; finish; }
echo "  traffic: $sent packets, $routed routed to port 1, $((sent - routed)) unrouted"
"$python" usertools/dpdk-pmu-traffic write "$tmp/empty.pcap" 0 0 0 >/dev/null
looped="rx_pcap=$tmp/in.pcap,tx_pcap=/dev/null,infinite_rx=1"

echo "  (a) one pass over the pcap"
graph a "rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out0.pcap" "$tmp/out1.pcap" --duration 2 --json
sed -n '/^per node/,$p' "$tmp/a.err" | sed 's/^/  | /'
if [ $rc -ne 0 ]; then
	fail "dpdk-pmu-graph exited with $rc"
	show "$tmp/a.err" 20
else
	checker conserve "$tmp/a.out" $sent "$routed" "$tmp/out1.pcap"
	checker defaults "$tmp/a.out" "$tmp/a.err"
	checker marks "$tmp/a.out" "$tmp/a.err"
fi

echo "  (b) the drop-in off, on and sampled on looped traffic"
graph b "$looped" /dev/null --duration 3 --compare --json
sed -n '/^drop-in off/,$p' "$tmp/b.err" | sed 's/^/  | /'
if [ $rc -ne 0 ]; then
	fail "dpdk-pmu-graph --compare exited with $rc"
	show "$tmp/b.err" 20
else
	checker compare "$tmp/b.out"
fi

echo "  (c) bad options: usage, exit status 2"
for bad in "--duration 0" "--sampling 0" "--no-such-option"; do
	# shellcheck disable=SC2086
	graph c "rx_pcap=$tmp/empty.pcap,tx_pcap=/dev/null" /dev/null $bad
	if [ $rc -eq 2 ]; then
		ok "'$bad' refused (exit 2)"
	else
		fail "'$bad' gave exit status $rc, 2 expected"
	fi
done
# --rounds counts instructions: without that event it is refused, not
# left out in silence (x86 VM: no instructions event opens here).
graph c "rx_pcap=$tmp/empty.pcap,tx_pcap=/dev/null" /dev/null --events task-clock \
	--walks 30 --rounds 10
if [ $rc -eq 1 ] && grep -q -- "--rounds needs an instructions event" "$tmp/c.err"; then
	ok "--rounds with task-clock only refused (exit 1, \"$(grep -- "--rounds needs" "$tmp/c.err")\")"
else
	fail "--rounds with task-clock only: exit status $rc, 1 and a line saying why expected"
	show "$tmp/c.err" 10
fi

echo "  (d) per-node stage series scraped by Prometheus"
deps observe || log "could not install every package"
if [ ! -x /usr/bin/prometheus ] || ! "$python" -c 'import prometheus_client' 2>/dev/null; then
	skip "per-node series in Prometheus: /usr/bin/prometheus or python3-prometheus-client missing"
	finish
fi
timeout 60 "$app" -l 0-1 --no-huge --no-pci -m 256 --file-prefix="${prefix}_d" \
	--vdev "net_pcap0,$looped" --vdev "net_pcap1,rx_pcap=$tmp/empty.pcap,tx_pcap=/dev/null" \
	-- --duration 30 >"$tmp/d.out" 2>&1 &
pids+=($!)
mkdir -p "$tmp/prom"
eport=$(free_port) pport=$(free_port)
if ! wait_for "[ -S $DPDK_RUNDIR/${prefix}_d/dpdk_telemetry.v2 ]" 20; then
	show "$tmp/d.out" 5
	fail "dpdk-pmu-graph's telemetry socket did not appear"
elif prometheus_up "$tmp/prom" "${prefix}_d" "$eport" "$pport"; then
	checker prometheus "$pport" ethdev_rx,ip4_lookup,ethdev_tx
else
	fail "exporter on 127.0.0.1:$eport or prometheus on 127.0.0.1:$pport did not come up"
fi
finish
