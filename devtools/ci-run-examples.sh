# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# DPDK's examples from /usr/share/dpdk/examples, built with their own
# Makefiles, unpatched, sourced by devtools/ci-run.sh: l2fwd, skeleton,
# packet_ordering, eventdev_pipeline and l3fwd under dpdk-pmu-run (the
# run of l3fwd-graph, built here, is devtools/ci-run-graph.sh's).

examples=/usr/share/dpdk/examples

echo "=== run: l2fwd, l3fwd, l3fwd-graph, skeleton, packet_ordering and eventdev_pipeline from $examples, built unpatched"
# l3fwd includes ../common (its Makefile's -I).
cp -r "$examples/common" "$tmp/common" 2>/dev/null
for ex in l2fwd l3fwd l3fwd-graph skeleton packet_ordering eventdev_pipeline; do
	if [ ! -f "$examples/$ex/Makefile" ]; then
		fail "no $examples/$ex (package dpdk-doc)"
	elif cp -r "$examples/$ex" "$tmp/$ex" && make -C "$tmp/$ex" >"$tmp/$ex.make" 2>&1; then
		ok "$ex built with its own Makefile (pkg-config libdpdk), unpatched"
	else
		fail "make -C $ex (a copy of $examples/$ex)"
		tail -5 "$tmp/$ex.make" | sed 's/^/    | /'
	fi
done

# l2fwd NAME [WRAPPER...]: DPDK's l2fwd over two net_pcap ports reading
# $tmp/in.pcap (tx into $tmp/NAME-P.pcap), its totals printed every second;
# stopped with SIGINT once it has sent both files (60 s at most).
l2fwd() {
	local name=$1 pid
	shift
	"$@" "$tmp/l2fwd/build/l2fwd" -l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
		--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap" \
		--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		-- -p 0x3 -T 1 >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	wait_for "grep -q 'Total packets sent: *$((2 * packets))\$' '$tmp/$name.out'" 60
	sleep 1
	stop "$pid"
}

echo "=== run: l2fwd under dpdk-pmu-run (net_pcap ports, until SIGINT)"
if [ -x "$tmp/l2fwd/build/l2fwd" ]; then
	l2fwd l2fwd-plain
	plain_rc=$rc
	l2fwd l2fwd "$run" -e task-clock --json "$tmp/l2fwd.json"
	as_without l2fwd "$plain_rc"
	for p in 0 1; do
		py_check 60 ci_run_check.py "$tmp/check.out" pcaps l2fwd \
			"$tmp/l2fwd-plain-$p.pcap" "$tmp/l2fwd-$p.pcap"
	done
	py_check 60 ci_run_check.py "$tmp/check.out" ports l2fwd "$tmp/l2fwd.json" \
		$((2 * packets)) $(($(count "$tmp/l2fwd-0.pcap") + $(count "$tmp/l2fwd-1.pcap"))) \
		"$tmp/l2fwd.out"
	grep '^dpdk-pmu-run:' "$tmp/l2fwd.err" | sed 's/^/    /'
fi

# skeleton sets no signal handler: SIGINT kills it. Started with SIGINT's
# default disposition (a background job of this script would inherit it
# ignored), stopped by SIGINT once dpdk-pmu-top sees no packet move.
# skeleton_start NAME STDERR COMMAND...: COMMAND (dpdk-pmu-run and its
# options) runs skeleton over two pcap ports of in.pcap, in the background
# (its pid in $pid), its stdout in $tmp/NAME.out, its stderr in STDERR.
skeleton_start() {
	local name=$1 err=$2

	shift 2
	"$@" -- "$tmp/skeleton/build/basicfwd" -l 0 --no-huge --no-pci -m 512 \
		--file-prefix="$prefix-$name" \
		--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap" \
		--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		>"$tmp/$name.out" 2>"$err" &
	pid=$!
	pids+=("$pid")
}

echo "=== run: skeleton under dpdk-pmu-run, killed by SIGINT (no handler of its own)"
if [ -x "$tmp/skeleton/build/basicfwd" ]; then
	name=skeleton
	# 1 call in 32,768 measured: the rx and tx stages of the packets (about
	# 60 calls each) have none measured (1 in 1,000 runs would), the idle
	# polls some.
	skeleton_start "$name" "$tmp/$name.err" env --default-signal=INT "$run" -e task-clock \
		--sampling 32768 --json "$tmp/$name.json" -o "$tmp/$name.table"
	# shellcheck disable=SC2034 # wait_top's (devtools/ci-run.sh)
	TOP_ARGS=(--total)
	wait_top "$prefix-$name" "$tmp/$name-wait.json" "$python" devtools/ci_run_check.py \
		settled || fail "$name: its ports did not settle in 30 s (dpdk-pmu-top --once)"
	# No port: skeleton exits (rte_exit()) before it starts any.
	"$run" -e task-clock --json "$tmp/$name-none.json" -- "$tmp/skeleton/build/basicfwd" -l 0 \
		--no-huge --no-pci -m 512 --file-prefix="$prefix-$name-none" \
		>/dev/null 2>"$tmp/$name-none.err"
	grep -q '^dpdk-pmu-run: no stage was called .*nothing measured$' "$tmp/$name-none.err" &&
		grep -q '"stages": \[\]' "$tmp/$name-none.json" &&
		! grep -q 'stages, sampling' "$tmp/$name-none.err" &&
		ok "$name without ports: the 'nothing measured' line, an empty --json, no table" ||
		fail "$name without ports: $(grep '^dpdk-pmu-run' "$tmp/$name-none.err" | head -3)"
	# SIGINT twice at once, as timeout(1) sends it (to the program, then
	# to its process group): the report is still written.
	kill -INT "$pid" 2>/dev/null
	stop "$pid"
	[ "$rc" -eq 130 ] && ok "$name: died of SIGINT (status 130) as it does without" ||
		fail "$name: exit status $rc, not 130 (death by SIGINT)"
	if grep -qE '^  rx-0-0 +[0-9]+ +'"$packets"' ' "$tmp/$name.table" 2>/dev/null; then
		ok "$name: -o FILE written at SIGINT sent twice (rx-0-0 with $packets packets)"
	else
		fail "$name: -o FILE not written at SIGINT, or without rx-0-0's $packets packets"
	fi
	py_check 60 ci_run_check.py "$tmp/check.out" ports "$name" "$tmp/$name.json" \
		$((2 * packets)) $((2 * packets))
	# Killed while its lcore polls: the table and the JSON of one read;
	# the stages with no measured call null in the JSON, '-' in the table.
	py_check 60 ci_run_check.py "$tmp/check.out" same "$name" "$tmp/$name.json" \
		"$tmp/$name.table"
	py_check 60 ci_run_check.py "$tmp/check.out" nulls "$name" "$tmp/$name.json"
	grep -qE '^  tx-0 +[0-9]+ +[0-9]+ +[0-9.]+ +task-clock ns +- ' "$tmp/$name.table" &&
		ok "$name: tx-0 with no measured call: '-' in the table" ||
		fail "$name: tx-0's line in the table: $(grep '^  tx-0 ' "$tmp/$name.table")"
	grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
	# SIGQUIT (abort()'s SIGABRT, SIGALRM, SIGUSR1 and SIGUSR2 alike): it
	# dies of it, its report written.
	name=skeleton-quit
	skeleton_start "$name" "$tmp/$name.err" env --default-signal=QUIT "$run" -e task-clock \
		--json "$tmp/$name.json"
	sleep 3 # its ports started (its stdout, a file, is not flushed before exit)
	kill -QUIT "$pid" 2>/dev/null
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq 131 ] && grep -q '"name": "rx-0-0"' "$tmp/$name.json" &&
		ok "$name: died of SIGQUIT (status 131, as without), its --json written" ||
		fail "$name: exit status $rc, --json: $(head -c 200 "$tmp/$name.json")"
	# Killed in its rte_eal_init(): net_pcap opens its rx file as the EAL
	# probes it, a FIFO no one writes, and waits there for good. Started
	# by a shell after a command that is no DPDK program, whose line ("did
	# not call rte_eal_init()") the program's replaces.
	name=skeleton-eal
	mkfifo "$tmp/$name.fifo"
	"$run" -e task-clock -o "$tmp/$name.table" --json "$tmp/$name.json" -- \
		sh -c "/bin/true; exec $tmp/skeleton/build/basicfwd -l 0 --no-huge --no-pci \
		-m 512 --file-prefix=$prefix-$name --vdev net_pcap0,rx_pcap=$tmp/$name.fifo" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 100); do
		[ "$(cat "/proc/$pid/wchan" 2>/dev/null)" = wait_for_partner ] && break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq 143 ] && grep -q "^the program died of SIGTERM in its rte_eal_init(): nothing measured$" \
		"$tmp/$name.table" && grep -q '"stages": \[\]' "$tmp/$name.json" &&
		ok "$name: SIGTERM in rte_eal_init(): status 143, said in -o, an empty --json" ||
		fail "$name: exit status $rc, -o: $(head -c 200 "$tmp/$name.table"), stderr:" \
			"$(grep -v '^EAL' "$tmp/$name.err" | head -3)"
	# Its standard error a pipe that no one reads, full: the report's
	# lines wait there, SIGTERM's handler waits 10 s for them, then the
	# program dies of it; the files were written first.
	name=skeleton-stall
	mkfifo "$tmp/$name.fifo"
	exec 7<>"$tmp/$name.fifo"
	skeleton_start "$name" "$tmp/$name.fifo" "$run" -e task-clock --json "$tmp/$name.json"
	wait_top "$prefix-$name" "$tmp/$name-wait.json" "$python" devtools/ci_run_check.py \
		settled || fail "$name: its ports did not settle in 30 s (dpdk-pmu-top --once)"
	"$python" -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
try:
    while True:
        os.write(fd, b"x" * 4096)
except BlockingIOError:
    pass' "$tmp/$name.fifo"
	kill -TERM "$pid" 2>/dev/null
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid"
	rc=$?
	exec 7>&-
	[ "$rc" -eq 143 ] && grep -q '"name": "rx-0-0"' "$tmp/$name.json" &&
		ok "$name: SIGTERM with stderr a full pipe: status 143, its --json written" ||
		fail "$name: exit status $rc, --json: $(head -c 200 "$tmp/$name.json")"
	# Started through dash's exec and taskset, which pass on LD_PRELOAD as
	# they got it: the library took itself out of it as they loaded it.
	name=skeleton-sh
	env --default-signal=INT "$run" -e task-clock -o "$tmp/$name.table" -- \
		sh -c "exec taskset -c 0 $tmp/skeleton/build/basicfwd -l 0 --no-huge --no-pci \
		-m 512 --file-prefix=$prefix-$name \
		--vdev net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap \
		--vdev net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	wait_top "$prefix-$name" "$tmp/$name-wait.json" "$python" devtools/ci_run_check.py \
		settled || fail "$name: its ports did not settle in 30 s (dpdk-pmu-top --once)"
	stop "$pid"
	[ "$rc" -eq 130 ] && grep -qE '^  rx-0-0 +[0-9]+ +'"$packets"' ' "$tmp/$name.table" &&
		ok "$name: sh -c 'exec taskset ... basicfwd': measured (rx-0-0 with $packets packets)" ||
		fail "$name: exit status $rc, -o: $(head -c 200 "$tmp/$name.table")"
fi

# packet_ordering: an rx lcore, a worker that never touches a port, a tx
# lcore that only transmits (its last burst must be counted); three lcores
# on the two CPUs. Its own per-port counts at exit (SIGINT, its handler).
echo "=== run: packet_ordering under dpdk-pmu-run (rx, worker and tx lcores)"
if [ -x "$tmp/packet_ordering/build/packet_ordering" ]; then
	name=ordering
	"$run" -e task-clock --json "$tmp/$name.json" -- \
		"$tmp/packet_ordering/build/packet_ordering" --lcores 0@0,1@1,2@1 --no-huge \
		--no-pci -m 1024 --file-prefix="$prefix-$name" \
		--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap" \
		--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		-- -p 0x3 >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	# shellcheck disable=SC2034 # wait_top's (devtools/ci-run.sh)
	TOP_ARGS=(--total)
	wait_top "$prefix-$name" "$tmp/$name-wait.json" "$python" devtools/ci_run_check.py \
		settled || fail "$name: its ports did not settle in 30 s (dpdk-pmu-top --once)"
	stop "$pid"
	[ "$rc" -eq 0 ] && ok "$name: exit status 0 under dpdk-pmu-run" ||
		fail "$name: exit status $rc"
	py_check 60 ci_run_check.py "$tmp/check.out" ordering "$name" "$tmp/$name.json" \
		"$tmp/$name.out"
	grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
fi

# eventdev_pipeline's handler calls rte_exit(1) at a second SIGINT: sent
# while the report is written at its rte_eal_cleanup() (stderr not read),
# the handler's rte_exit() came back into the report, whose lock the
# thread held: it hung for good. Now the signal waits for the report, on
# another thread: the program's exit (0) and its handler's (1) race, as
# they do without the tool for a signal during its cleanup.
echo "=== run: eventdev_pipeline under dpdk-pmu-run, a second SIGINT during its report"
if [ -x "$tmp/eventdev_pipeline/build/eventdev_pipeline" ]; then
	name=evp
	py_check 90 ci_run_check.py "$tmp/check.out" twice "$name" 0,1 "$run" -e task-clock,page-faults,context-switches -- \
		"$tmp/eventdev_pipeline/build/eventdev_pipeline" --lcores 0@0,1@1,2@1 --no-huge \
		--no-pci -m 1024 --file-prefix="$prefix-$name" --vdev event_sw0 \
		--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-0.pcap" \
		--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/$name-1.pcap" \
		-- -r2 -t2 -e2 -w4 -s1 -n0 -c32
fi

# l3fwd asks its ports for rx checksum offloads, which net_pcap lacks: its
# ports are net_tap ones on taps made here first, without IPv6 (so that the
# kernel sends nothing on them), and fed from their kernel side
# (ci_run_check.py tap). One lcore: l3fwd makes a tx queue an lcore, and
# net_tap wants as many tx queues as rx queues.
echo "=== run: l3fwd under dpdk-pmu-run (net_tap ports fed from the kernel's side)"
if [ ! -x "$tmp/l3fwd/build/l3fwd" ]; then
	:
elif ! for i in 0 1; do ip tuntap add dev "$tap$i" mode tap multi_queue &&
		ip link set "$tap$i" addrgenmode none || exit 1; done 2>"$tmp/tap.err"; then
	skip "l3fwd: no tap interface: $(head -n1 "$tmp/tap.err") (root needed)"
else
	for p in 0 1; do
		read -r _ < <("$python" usertools/dpdk-pmu-traffic write "$tmp/l3-in$p.pcap" \
			"$packets" 50 50 --port "$p" --net 198.18)
	done
	for name in l3fwd-plain l3fwd; do
		wrap=()
		[ "$name" = l3fwd-plain ] || wrap=("$run" -e task-clock --json "$tmp/$name.json")
		"${wrap[@]}" "$tmp/l3fwd/build/l3fwd" -l 1 --no-huge --no-pci -m 1024 \
			--file-prefix="$prefix-$name" --vdev "net_tap0,iface=${tap}0" \
			--vdev "net_tap1,iface=${tap}1" -- -p 0x3 --config="(0,0,1),(1,0,1)" \
			--parse-ptype >"$tmp/$name.out" 2>"$tmp/$name.err" &
		pid=$!
		pids+=("$pid")
		wait_for "grep -q 'entering main loop' '$tmp/$name.err'" 30
		sleep 0.5
		py_check 120 ci_run_check.py "$tmp/check.out" tap "$name" "$tmp/l3-in0.pcap" \
			"$tmp/l3-in1.pcap" "${tap}0" "${tap}1" "$tmp/$name.counts"
		stop "$pid"
		[ "$name" = l3fwd-plain ] && plain_rc=$rc
	done
	as_without l3fwd "$plain_rc"
	# shellcheck disable=SC2046
	py_check 60 ci_run_check.py "$tmp/check.out" ports l3fwd "$tmp/l3fwd.json" \
		$(cat "$tmp/l3fwd.counts")
	grep '^dpdk-pmu-run:' "$tmp/l3fwd.err" | sed 's/^/    /'
fi
