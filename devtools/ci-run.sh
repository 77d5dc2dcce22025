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
# Software events only (no PMU needed). About 2 minutes.
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

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
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

deps run || { fail "packages"; finish; }
build_if_missing "$build" --werror || { fail "build"; finish; }
[ -x "$testpmd" ] || { skip "$testpmd missing (package dpdk-dev)"; finish; }
[ -x "$run" ] || { fail "$run not built"; finish; }
read -r _ < <("$python" devtools/pcap_traffic.py write "$tmp/in.pcap" "$packets" 0 0)

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
finish
