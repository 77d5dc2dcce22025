#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: usertools/dpdk-pmu-run on Debian's dpdk-testpmd, unmodified.
# Two net_pcap ports read a pcap written here; testpmd forwards in io, mac
# and csum modes, without and with dpdk-pmu-run (task-clock; msr/tsc/ and
# the default events in io as well: without a hardware PMU, msr/tsc/ alone
# where it opens, else task-clock), stopped with SIGINT once both ports
# read the whole file.
# First what is not a forwarding run: programs that measure nothing (their
# -o and --json files this run's, not an earlier one's), programs that
# cannot be started (127, 126), refusals before the program starts, and
# --interval ending mid-interval (the last interval printed).
# Checked: the tx pcaps identical with and without, byte for byte but
# for the timestamps net_pcap writes (two runs without differ there), the
# exit status the same, nothing of the preload on stdout, and
# (devtools/ci_run_check.py) the rx-* stages' items equal to testpmd's
# accumulated RX-packets, the tx-* items to its TX-packets.
# Then usertools/dpdk-pmu-top against testpmd under dpdk-pmu-run, its ports
# looping over a pcap (infinite_rx=1): --once (and --json) gives the rx-*
# stages calls per second; the live view, under tmux, shows them in two
# captures a second apart with changed rates, and 'q' ends it.
# DPDK's l2fwd, l3fwd and l3fwd-graph, built from /usr/share/dpdk/examples
# with their own Makefiles, unpatched, under dpdk-pmu-run: l2fwd over
# net_pcap ports (pcaps as without, stages' items = packets read and
# written = its own totals); l3fwd over net_tap ports fed from the kernel's
# side (frames routed as its default routes say, stages' items = the taps'
# counters); l3fwd-graph forwarding pcaps to 198.18.P.x, each node's calls
# and objs in its own last lib/graph statistics equal to the stages'.
# testpmd over net_null ports under dpdk-pmu-run (task-clock, msr/tsc/):
# each lcore's stages, their self figures added up, at most its total;
# with --interval (there and in io with msr/tsc/), each table's lcore
# total and part outside the stages those of its interval, its stages
# (sampled 1 in 16) adding up to no more than that total.
# testpmd's packet rate over net_null ports under dpdk-pmu-run --sampling
# 16 (msr/tsc/, task-clock) against without, alternating runs: the median
# ratio with msr/tsc/ at least 0.8x, the aim 0.9x printed (met or missed;
# on this shared VM CI's runs gave medians from 0.894x to 0.988x, so a
# gate at the aim failed one run in about 16), task-clock's printed. The same testpmd run three times in the arm64 guest
# (the arm64 stage's build, one CPU): each stage's instructions the same in
# two of them.
# Software events on the host (no PMU needed). About 8 minutes.
# Environment: BUILD_DIR (default build), ARM64_BUILD (build-arm64),
# ARM64_DIR (lib.sh), RATE_SECONDS (each rate run, default 5).
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}
run=$build/usertools/dpdk-pmu-run
preload=$(cd "$build" 2>/dev/null && pwd)/app/pmu-preload/librte_pmu_preload.so
testpmd=/usr/bin/dpdk-testpmd
python=/usr/bin/python3
packets=4000
tmp=$(mktemp -d /tmp/ci-run.XXXXXX)
prefix=ci-run-$$
pids=()

top=$REPO/usertools/dpdk-pmu-top
tmux_sock=ci-run-$$
tap=pmu$$t

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	tmux -L "$tmux_sock" kill-server 2>/dev/null
	ip link del "${tap}0" 2>/dev/null
	ip link del "${tap}1" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stop PID: SIGINT, then its status in $rc (60 s at most).
stop() {
	kill -INT "$1" 2>/dev/null
	timeout 60 tail --pid="$1" -f /dev/null
	wait "$1"
	rc=$?
}

# as_without NAME RC_WITHOUT: the status in $rc as without dpdk-pmu-run,
# and nothing of it on the program's stdout ($tmp/NAME.out).
as_without() {
	[ "$rc" -eq "$2" ] && ok "$1: exit status $rc, as without" ||
		fail "$1: exit status $rc, $2 without"
	! grep -q 'dpdk-pmu-run' "$tmp/$1.out" && ok "$1: nothing of dpdk-pmu-run on stdout" ||
		fail "$1: dpdk-pmu-run printed on stdout"
}

count() { "$python" usertools/dpdk-pmu-traffic count "$1" 2>/dev/null || echo 0; }

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
py_check 60 ci_run_check.py "$tmp/check.out" circles \
	"$build/app/pmu-preload/librte_pmu_preload.so.p"

# The checks, a file a topic (devtools/ci-run-*.sh), in this order.
# shellcheck source=devtools/ci-run-nothing.sh
. "$REPO/devtools/ci-run-nothing.sh"
# shellcheck source=devtools/ci-run-testpmd.sh
. "$REPO/devtools/ci-run-testpmd.sh"
# shellcheck source=devtools/ci-run-examples.sh
. "$REPO/devtools/ci-run-examples.sh"
# shellcheck source=devtools/ci-run-rate.sh
. "$REPO/devtools/ci-run-rate.sh"
# shellcheck source=devtools/ci-run-guest.sh
. "$REPO/devtools/ci-run-guest.sh"
# shellcheck source=devtools/ci-run-graph.sh
. "$REPO/devtools/ci-run-graph.sh"
finish
