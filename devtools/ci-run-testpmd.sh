# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# Debian's dpdk-testpmd under dpdk-pmu-run, sourced by devtools/ci-run.sh:
# forwarding in io, mac and csum modes over net_pcap ports, without and
# with (the tx pcaps, the exit status, the stages against testpmd's
# counts); interactive, with a pause; then usertools/dpdk-pmu-top against
# it (--once, --json, and the live view under tmux).

# testpmd NAME MODE [WRAPPER...]: dpdk-testpmd in forwarding MODE over two
# net_pcap ports reading $tmp/in.pcap (tx into $tmp/NAME-P.pcap), under
# WRAPPER; stopped with SIGINT once both ports read the file (60 s at
# most: a failure if they did not); stdout in $tmp/NAME.out, stderr in
# $tmp/NAME.err, status in $rc.
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
		[ "$(matching "RX-packets: +$packets +RX-missed" "$tmp/$name.out")" -lt 2 ] || break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	[ "$(matching "RX-packets: +$packets +RX-missed" "$tmp/$name.out")" -ge 2 ] ||
		fail "$name: testpmd's ports did not both read the $packets packets of the pcap"
	sleep 1
	kill -INT "$pid" 2>/dev/null
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid"
	rc=$?
}

# top_testpmd [dpdk-pmu-run OPTIONS]: testpmd as $name, under dpdk-pmu-run,
# its ports looping over top.pcap, in the background ($pid).
top_testpmd() {
	"$run" "$@" -- "$testpmd" -l 0-1 --no-huge --no-pci -m 1024 \
		--file-prefix="$prefix-$name" \
		--vdev "net_pcap0,rx_pcap=$tmp/top.pcap,infinite_rx=1" \
		--vdev "net_pcap1,rx_pcap=$tmp/top.pcap,infinite_rx=1" \
		-- --total-num-mbufs=16384 --forward-mode=io --no-flush-rx --stats-period 1 \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
}

# io: the default events: where no hardware event opens, msr/tsc/ alone
# (task-clock and the software events where it does not open).
for spec in io:task-clock mac:task-clock csum:task-clock io:msr/tsc/ io:; do
	mode=${spec%%:*} event=${spec#*:}
	name=$mode-$(echo "${event:-default}" | tr -c 'a-z0-9\n' '_')
	events=(-e "$event")
	[ -n "$event" ] || events=()
	echo "=== run: testpmd --forward-mode=$mode, ${events[*]:-the default events}"
	if [ ! -f "$tmp/$mode-plain.out" ]; then
		testpmd "$mode-plain" "$mode"
		plain_rc=$rc
	fi
	# The last run also sends the table at exit to a file (-o) and prints
	# one on stderr every 300 ms (--interval).
	extra=()
	[ "$spec" != io:msr/tsc/ ] || extra=(-o "$tmp/$name.table" --interval 300)
	testpmd "$name" "$mode" "$run" "${events[@]}" --json "$tmp/$name.json" "${extra[@]}"
	as_without "$name" "$plain_rc"
	if [ -z "$event" ] && [ -s "$tmp/$name.json" ]; then
		py_check 60 ci_run_check.py "$tmp/check.out" first "$name" "$tmp/$name.err" \
			"$tmp/$name.json"
		# The stage checks below on the first event, checked above.
		event=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["events"][0])' \
			"$tmp/$name.json")
	fi
	if [ ${#extra[@]} -ne 0 ]; then
		# Interval tables: lcore 1's figures of the interval, each line
		# led by the seconds since the start (perf stat -I).
		n=$(grep -cE '^dpdk-pmu-run: +[0-9]+\.[0-9]{6} lcore 1$' "$tmp/$name.err")
		if grep -qE '^  rx-0-0 +[0-9]+ +'"$packets"' ' "$tmp/$name.table" 2>/dev/null &&
				grep -qE '^  Stage +Calls +Items +Items/Call +Event +Self/Call +Self/Item +Incl/Item' \
				"$tmp/$name.table" && [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' \
				"$tmp/$name.table")" -le 132 ] &&
				! grep -q '^lcore 1$' "$tmp/$name.err" && [ "$n" -ge 2 ]; then
			ok "$name: -o FILE holds the table at exit (rx-0-0, $packets packets; self and inclusive columns; at most 132 columns), --interval 300 printed $n timestamped tables on stderr"
		else
			fail "$name: -o FILE or --interval ($n tables on stderr); the file:"
			show "$tmp/$name.table"
		fi
		# Each interval table's (lcore total) and (outside stages) of
		# that interval, as its stages are.
		py_check 60 ci_run_check.py "$tmp/check.out" interval "$name" "$tmp/$name.err" \
			"$tmp/$name.table" "$event"
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
	# Sampled 1 in 16: the spread of the figures, in the table (-o) too.
	py_check 60 ci_run_check.py "$tmp/check.out" spread "$name" "$tmp/$name.json" \
		${extra[0]:+"$tmp/$name.table"}
	# Figures that are not exact: '~' in the table (the -o file, else
	# stderr) where the JSON says so.
	table=$tmp/$name.err
	[ ${#extra[@]} -eq 0 ] || table=$tmp/$name.table
	py_check 60 ci_run_check.py "$tmp/check.out" inexact "$name" "$tmp/$name.json" "$table" \
		"$event"
	grep -A3 'Accumulated forward' "$tmp/$name.out" | sed -n '2,3p' | sed 's/^/    /'
	grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'
done
echo "=== run: interactive testpmd, start, stop, 3 s, start, stop, under dpdk-pmu-run"
# Its prompt driven through a pipe; ports looping over a pcap
# (infinite_rx=1), so that a burst is open when forwarding stops. Every
# call measured (--sampling 1): the pause is in a measured call or none.
read -r _ < <("$python" usertools/dpdk-pmu-traffic write "$tmp/loop.pcap" 500 0 0)
name=pause
{ echo start; sleep 3; echo stop; sleep 3; echo start; sleep 3; echo stop; sleep 3
	echo quit; } | timeout 120 "$run" -e task-clock --sampling 1 --json "$tmp/$name.json" -- \
	"$testpmd" -l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
	--vdev "net_pcap0,rx_pcap=$tmp/loop.pcap,infinite_rx=1" \
	--vdev "net_pcap1,rx_pcap=$tmp/loop.pcap,infinite_rx=1" \
	-- -i --total-num-mbufs=16384 --forward-mode=io --no-flush-rx \
	>"$tmp/$name.out" 2>"$tmp/$name.err"
rc=$?
[ "$rc" -eq 0 ] && ok "$name: testpmd -i exit status 0 after quit" ||
	fail "$name: testpmd -i exit status $rc"
py_check 60 ci_run_check.py "$tmp/check.out" pause "$name" "$tmp/$name.out" "$tmp/$name.json"
py_check 60 ci_run_check.py "$tmp/check.out" spread "$name" "$tmp/$name.json"
grep '^dpdk-pmu-run:' "$tmp/$name.err" | sed 's/^/    /'

echo "=== run: dpdk-pmu-top against testpmd under dpdk-pmu-run (infinite_rx=1)"
read -r _ < <("$python" usertools/dpdk-pmu-traffic write "$tmp/top.pcap" 1000 0 0)
name=top
top_testpmd -e task-clock
# shellcheck disable=SC2034 # wait_top's (devtools/ci-run.sh)
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

# The same on the default events (msr/tsc/ alone on an x86 VM): the
# %lcore of msr/tsc/ is each row's share of its lcore's total ticks.
echo "=== run: dpdk-pmu-top against testpmd under dpdk-pmu-run, the default events"
name=top-default
top_testpmd
if wait_top "$prefix-$name" "$tmp/$name-wait.json"; then
	"$python" "$top" -f "$prefix-$name" --once --json --interval 500 >"$tmp/$name.json"
	"$python" "$top" -f "$prefix-$name" --once --interval 500 >"$tmp/$name.txt"
	py_check 60 ci_run_check.py "$tmp/check.out" top "$name" "$tmp/$name.json" "$tmp/$name.txt"
	sed -n '1,6p' "$tmp/$name.txt" | sed 's/^/    /'
else
	fail "$name: dpdk-pmu-top --once: testpmd's telemetry did not answer in 30 s"
fi
stop "$pid"
