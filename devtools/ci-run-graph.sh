# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# DPDK's l3fwd-graph (built by devtools/ci-run-examples.sh) under
# dpdk-pmu-run, sourced last by devtools/ci-run.sh: each node's calls and
# objs in its own last lib/graph statistics equal to its stage's, and the
# routed frames out of the ports they were routed to.

echo "=== run: l3fwd-graph under dpdk-pmu-run"
# Enough bursts (of up to 256) for nodes measured 1 call in 16.
for p in 0 1; do
	read -r routed unrouted arp < <("$python" usertools/dpdk-pmu-traffic write \
		"$tmp/graph-in$p.pcap" 20000 50 50 --port "$p" --net 198.18)
done
graph_packets=$((2 * (routed + unrouted + arp)))
name=l3fwd-graph
[ -x "$tmp/$name/build/$name" ] || { finish; }
"$run" -e task-clock --json "$tmp/$name.json" -- "$tmp/l3fwd-graph/build/l3fwd-graph" \
	-l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
	--vdev "net_pcap0,rx_pcap=$tmp/graph-in0.pcap,tx_pcap=$tmp/graph-out0.pcap,tx_pcap=$tmp/graph-out0b.pcap" \
	--vdev "net_pcap1,rx_pcap=$tmp/graph-in1.pcap,tx_pcap=$tmp/graph-out1.pcap,tx_pcap=$tmp/graph-out1b.pcap" \
	-- -p 0x3 --config="(0,0,1),(1,0,1)" >"$tmp/$name.out" 2>"$tmp/$name.err" &
pid=$!
pids+=("$pid")
# Stopped once the graph has forwarded the pcaps, and the program has
# printed its statistics after that (every second).
# shellcheck disable=SC2034 # wait_top's (devtools/ci-run.sh)
TOP_ARGS=(--total)
if wait_top "$prefix-$name" "$tmp/graph-wait.json" "$python" devtools/ci_run_check.py settled; then
	sleep 2.5
else
	fail "$name: the graph did not settle in 30 s (dpdk-pmu-top --once --json --total)"
fi
stop "$pid"
if [ "$rc" -eq 0 ]; then
	ok "$name: exit status 0 under dpdk-pmu-run"
else
	fail "$name: exit status $rc; stderr:"
	tail -5 "$tmp/$name.err" | sed 's/^/    | /'
fi
if [ -s "$tmp/$name.json" ]; then
	py_check 60 ci_run_check.py "$tmp/check.out" graph "$name" "$tmp/$name.out" \
		"$tmp/$name.json" task-clock "$graph_packets"
else
	fail "$name: no --json file"
fi
# Packets conserved: port P's routed frames out of port P, over its two
# tx queues (one a lcore).
for p in 0 1; do
	out=0
	for f in "$tmp/graph-out$p.pcap" "$tmp/graph-out${p}b.pcap"; do
		out=$((out + $(count "$f")))
	done
	if [ "$out" -eq "$routed" ]; then
		ok "$name: port $p sent the $routed frames routed to 198.18.$p.0/24 (its two tx pcaps)"
	else
		fail "$name: port $p sent $out frames, $routed routed to it"
	fi
done
grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
