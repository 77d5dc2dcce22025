#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: usertools/dpdk-pmu-run on Debian's dpdk-testpmd, unmodified.
# Two net_pcap ports read a pcap written here; testpmd forwards in io, mac
# and csum modes, without and with dpdk-pmu-run (task-clock; msr/tsc/ in
# io as well), stopped with SIGINT once both ports read the whole file.
# Checked: the tx pcaps identical with and without, byte for byte but
# for the timestamps net_pcap writes (two runs without differ there), the
# exit status the same, nothing of the preload on stdout, and
# (devtools/ci_run_check.py) the rx-* stages' items equal to testpmd's
# accumulated RX-packets, the tx-* items to its TX-packets.
# Then usertools/dpdk-pmu-top against testpmd under dpdk-pmu-run, its ports
# looping over a pcap (infinite_rx=1): --once (and --json) gives the rx-*
# stages calls per second; the live view, under tmux, shows them in two
# captures a second apart with changed rates, and 'q' ends it.
# Last, DPDK's l3fwd-graph built from /usr/share/dpdk/examples with its own
# Makefile, unpatched, forwarding pcaps to 198.18.P.x (its default routes)
# under dpdk-pmu-run: each node's calls and objs in the program's own last
# lib/graph statistics equal to the stages' (ci_run_check.py graph).
# Software events only (no PMU needed). About 3 minutes.
# Environment: BUILD_DIR (default build).
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}
run=$build/usertools/dpdk-pmu-run
testpmd=/usr/bin/dpdk-testpmd
python=/usr/bin/python3
packets=4000
tmp=$(mktemp -d /tmp/ci-run.XXXXXX)
prefix=ci-run-$$
pids=()

top=$REPO/usertools/dpdk-pmu-top
examples=/usr/share/dpdk/examples
tmux_sock=ci-run-$$

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	tmux -L "$tmux_sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# testpmd NAME MODE [WRAPPER...]: dpdk-testpmd in forwarding MODE over two
# net_pcap ports reading $tmp/in.pcap (tx into $tmp/NAME-P.pcap), under
# WRAPPER; stopped with SIGINT once both ports read the file (60 s at
# most); stdout in $tmp/NAME.out, stderr in $tmp/NAME.err, status in $rc.
testpmd() {
	local name=$1 mode=$2 pid i
	shift 2
	"$@" "$testpmd" -l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
		--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap" \
		--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		-- --total-num-mbufs=16384 --forward-mode="$mode" --no-flush-rx --stats-period 1 \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	for ((i = 0; i < 300; i++)); do
		[ "$(grep -cE "RX-packets: +$packets +RX-missed" "$tmp/$name.out")" -lt 2 ] || break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	sleep 1
	kill -INT "$pid" 2>/dev/null
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid"
	rc=$?
}

# stop PID: SIGINT, then its status in $rc (60 s at most).
stop() {
	kill -INT "$1" 2>/dev/null
	timeout 60 tail --pid="$1" -f /dev/null
	wait "$1"
	rc=$?
}

# wait_top PREFIX OUT [CHECK...]: dpdk-pmu-top --once --json against
# PREFIX until it answers (and CHECK OUT succeeds), 30 s at most.
wait_top() {
	local prefix=$1 out=$2 i
	shift 2
	for ((i = 0; i < 60; i++)); do
		if "$python" "$top" -f "$prefix" --once --json --interval 300 "${TOP_ARGS[@]}" \
				>"$out" 2>/dev/null && { [ $# -eq 0 ] || "$@" "$out"; }; then
			return 0
		fi
		sleep 0.5
	done
	return 1
}

deps run || { fail "packages"; finish; }
command -v tmux >/dev/null || { fail "tmux missing (group run of devtools/packages.list)"; finish; }
build_if_missing "$build" --werror || { fail "build"; finish; }
[ -x "$testpmd" ] || { skip "$testpmd missing (package dpdk-dev)"; finish; }
[ -x "$run" ] || { fail "$run not built"; finish; }
read -r _ < <("$python" usertools/dpdk-pmu-traffic write "$tmp/in.pcap" "$packets" 0 0)

echo "=== run: a program that is not a DPDK program (bash: dash ends with _exit())"
out=$("$run" -- bash -c 'echo out; exit 3' 2>"$tmp/sh.err")
st=$?
if [ "$st" -eq 3 ] && [ "$out" = out ] && grep -q '^dpdk-pmu-run: .*nothing measured' "$tmp/sh.err"; then
	ok "bash: exit status 3 and stdout kept, one line on stderr: $(cat "$tmp/sh.err")"
else
	fail "bash: exit status $st, stdout '$out', stderr: $(cat "$tmp/sh.err")"
fi

for spec in io:task-clock mac:task-clock csum:task-clock io:msr/tsc/; do
	mode=${spec%%:*} event=${spec#*:}
	name=$mode-$(echo "$event" | tr -c 'a-z0-9\n' '_')
	echo "=== run: testpmd --forward-mode=$mode, -e $event"
	if [ ! -f "$tmp/$mode-plain.out" ]; then
		testpmd "$mode-plain" "$mode"
		plain_rc=$rc
	fi
	testpmd "$name" "$mode" "$run" -e "$event" --json "$tmp/$name.json"
	[ "$rc" -eq "$plain_rc" ] && ok "$name: exit status $rc, as without" ||
		fail "$name: exit status $rc, $plain_rc without"
	if grep -q 'dpdk-pmu-run' "$tmp/$name.out"; then
		fail "$name: dpdk-pmu-run printed on stdout"
	else
		ok "$name: nothing of dpdk-pmu-run on stdout"
	fi
	if [ ! -s "$tmp/$name.json" ]; then
		fail "$name: no --json file; stderr:"
		tail -5 "$tmp/$name.err" | sed 's/^/    | /'
		continue
	fi
	for p in 0 1; do
		py_check 60 ci_run_check.py "$tmp/check.out" pcaps "$name" \
			"$tmp/$mode-plain-$p.pcap" "$tmp/$name-$p.pcap"
	done
	py_check 60 ci_run_check.py "$tmp/check.out" testpmd "$name" "$tmp/$name.out" \
		"$tmp/$name.json" "$event"
	grep -A3 'Accumulated forward' "$tmp/$name.out" | sed -n '2,3p' | sed 's/^/    /'
	grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
done
echo "=== run: dpdk-pmu-top against testpmd under dpdk-pmu-run (infinite_rx=1)"
read -r _ < <("$python" usertools/dpdk-pmu-traffic write "$tmp/top.pcap" 1000 0 0)
name=top
"$run" -e task-clock -- "$testpmd" -l 0-1 --no-huge --no-pci -m 1024 \
	--file-prefix="$prefix-$name" \
	--vdev "net_pcap0,rx_pcap=$tmp/top.pcap,infinite_rx=1" \
	--vdev "net_pcap1,rx_pcap=$tmp/top.pcap,infinite_rx=1" \
	-- --total-num-mbufs=16384 --forward-mode=io --no-flush-rx --stats-period 1 \
	>"$tmp/$name.out" 2>"$tmp/$name.err" &
pid=$!
pids+=("$pid")
TOP_ARGS=()
if ! wait_top "$prefix-$name" "$tmp/top-wait.json"; then
	fail "dpdk-pmu-top --once: testpmd's telemetry did not answer in 30 s"
	"$python" "$top" -f "$prefix-$name" --once 2>&1 | sed 's/^/    | /'
else
	"$python" "$top" -f "$prefix-$name" --once --json --interval 500 >"$tmp/top.json"
	"$python" "$top" -f "$prefix-$name" --once --interval 500 >"$tmp/top.txt"
	py_check 60 ci_run_check.py "$tmp/check.out" top top "$tmp/top.json" "$tmp/top.txt"
	sed 's/^/    /' "$tmp/top.txt"

	# The live view in a detached tmux session of its own server.
	tmux -L "$tmux_sock" new-session -d -s pmutop -x 200 -y 50 \
		"$python $top -f $prefix-$name --interval 500; echo \$? >$tmp/top.status"
	sleep 2.5
	tmux -L "$tmux_sock" capture-pane -p -t pmutop >"$tmp/screen1.txt"
	sleep 1
	tmux -L "$tmux_sock" capture-pane -p -t pmutop >"$tmp/screen2.txt"
	py_check 60 ci_run_check.py "$tmp/check.out" screens tmux \
		"$tmp/screen1.txt" "$tmp/screen2.txt"
	sed -n '1,12p' "$tmp/screen2.txt" | sed 's/^/    | /'
	tmux -L "$tmux_sock" send-keys -t pmutop q
	for ((i = 0; i < 50; i++)); do
		[ -s "$tmp/top.status" ] && break
		sleep 0.1
	done
	if [ "$(cat "$tmp/top.status" 2>/dev/null)" = 0 ]; then
		ok "tmux: 'q' ends dpdk-pmu-top with status 0"
	else
		fail "tmux: after 'q', status '$(cat "$tmp/top.status" 2>/dev/null)' (5 s)"
	fi
	sleep 0.5
	if tmux -L "$tmux_sock" has-session -t pmutop 2>/dev/null; then
		fail "tmux: the session is still there after 'q'"
	else
		ok "tmux: the session ended with dpdk-pmu-top"
	fi
fi
stop "$pid"
if [ "$rc" -eq 0 ]; then
	ok "$name: testpmd exit status 0 under dpdk-pmu-run, read by dpdk-pmu-top"
else
	fail "$name: testpmd exit status $rc; stderr:"
	tail -5 "$tmp/$name.err" | sed 's/^/    | /'
fi

echo "=== run: l3fwd-graph from $examples, built unpatched, under dpdk-pmu-run"
if [ ! -f "$examples/l3fwd-graph/Makefile" ]; then
	fail "no $examples/l3fwd-graph (package dpdk-doc)"
	finish
fi
cp -r "$examples/l3fwd-graph" "$tmp/l3fwd-graph"
if ! make -C "$tmp/l3fwd-graph" >"$tmp/l3fwd-graph.make" 2>&1; then
	fail "make -C l3fwd-graph (a copy of $examples/l3fwd-graph)"
	tail -5 "$tmp/l3fwd-graph.make" | sed 's/^/    | /'
	finish
fi
ok "l3fwd-graph built with its own Makefile (pkg-config libdpdk), unpatched"
# Enough bursts (of up to 256) for nodes measured 1 call in 16.
for p in 0 1; do
	read -r routed unrouted arp < <("$python" usertools/dpdk-pmu-traffic write \
		"$tmp/graph-in$p.pcap" 20000 50 50 --port "$p" --net 198.18)
done
graph_packets=$((2 * (routed + unrouted + arp)))
name=l3fwd-graph
"$run" -e task-clock --json "$tmp/$name.json" -- "$tmp/l3fwd-graph/build/l3fwd-graph" \
	-l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
	--vdev "net_pcap0,rx_pcap=$tmp/graph-in0.pcap,tx_pcap=$tmp/graph-out0.pcap,tx_pcap=$tmp/graph-out0b.pcap" \
	--vdev "net_pcap1,rx_pcap=$tmp/graph-in1.pcap,tx_pcap=$tmp/graph-out1.pcap,tx_pcap=$tmp/graph-out1b.pcap" \
	-- -p 0x3 --config="(0,0,1),(1,0,1)" >"$tmp/$name.out" 2>"$tmp/$name.err" &
pid=$!
pids+=("$pid")
# Stopped once the graph has forwarded the pcaps, and the program has
# printed its statistics after that (every second).
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
		out=$((out + $("$python" usertools/dpdk-pmu-traffic count "$f" 2>/dev/null || echo 0)))
	done
	if [ "$out" -eq "$routed" ]; then
		ok "$name: port $p sent the $routed frames routed to 198.18.$p.0/24 (its two tx pcaps)"
	else
		fail "$name: port $p sent $out frames, $routed routed to it"
	fi
done
grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
finish
