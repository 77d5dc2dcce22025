#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: examples' dpdk-pmu-pipeline forwarding real ethdev ports.
#  (a) net_pcap: two ports read a pcap written here (routed, unrouted and
#      non-IPv4 frames); packets conserved, the drops, the tx pcaps, the
#      per-stage rows (devtools/ci_pipeline_check.py pcap);
#  (b) --compare: stages off, on, sampled 1 in 16, on net_ring (the
#      cheapest ports: the stage calls' own cost) and on net_pcap replaying
#      the pcap of (a) (the forwarder the stage calls were specified on), on
#      the software events and again on msr/tsc/ (x86: rdtsc in user space,
#      checked read without read()); the ratios are printed (figures, not
#      gates);
#  (c) soak, 30 s: two worker lcores on four net_ring ports while telemetry
#      is queried every 10 ms and the Prometheus exporter scraped every
#      second: figures monotonic, descriptors flat, VmRSS sampled once a
#      second and flat after warm-up (growth under 1 MiB), packets conserved.
# Software events (this stage runs on machines without a PMU), and msr/tsc/ where
# the machine has it. About 65 s.
# Environment: BUILD_DIR (default build), SOAK_SECONDS (default 30, at most 60).
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}
app=$build/examples/dpdk-pmu-pipeline
python=/usr/bin/python3
events=task-clock,page-faults
soak=${SOAK_SECONDS:-30}
[ "$soak" -le 60 ] || soak=60
tmp=$(mktemp -d /tmp/ci-pipeline.XXXXXX)
prefix=ci-pipeline-$$
pids=()
if [ "$(id -u)" -eq 0 ]; then
	rundir=/var/run/dpdk
else
	rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk
fi

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		timeout 10 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null
	done
	rm -rf "$tmp" "$rundir/$prefix-a" "$rundir/$prefix-b" "$rundir/$prefix-p" \
		"$rundir/$prefix-c"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# checker ARGS...: run a check of ci_pipeline_check.py, count its ok/FAIL
# lines; none, or a checker that dies or times out, is a failure.
checker() { py_check 120 ci_pipeline_check.py "$tmp/check.out" "$@"; }

# pipeline PREFIX OUT LCORES ARGS...: run the example (EAL args, then ours
# after --), stdout to OUT, stderr to OUT.err, in the background when
# PIPELINE_BG is set (pid in $app_pid), exit status in $rc otherwise.
pipeline() {
	local p=$1 out=$2 lcores=$3
	shift 3
	local eal=(--lcores "$lcores" --no-huge --no-pci -m 256 --file-prefix="$p"
		--log-level=lib.pmu:warning)
	if [ -n "${PIPELINE_BG:-}" ]; then
		# Not under timeout: the checker looks at this very process (the
		# app stops after its --duration; cleanup kills it otherwise).
		"$app" "${eal[@]}" "$@" >"$out" 2>"$out.err" &
		app_pid=$!
		pids+=("$app_pid")
	else
		timeout 120 "$app" "${eal[@]}" "$@" >"$out" 2>"$out.err"
		rc=$?
	fi
}

deps || { fail "packages"; finish; }
build_if_missing "$build" --werror || { fail "build"; finish; }
if [ ! -x "$app" ]; then
	skip "$app not built (meson option examples)"
	finish
fi
cpu=0
[ "$(nproc)" -gt 1 ] && cpu=1

echo "=== pipeline: (a) net_pcap, generated traffic"
read -r routed unrouted nonip < <("$python" usertools/dpdk-pmu-traffic write "$tmp/in.pcap" \
	20000 50 50)
t0=$SECONDS
pipeline "$prefix-a" "$tmp/pcap.json" "0@0,1@$cpu" \
	--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out1.pcap" \
	-- --duration 10 --packets $((2 * (routed + unrouted + nonip))) --events "$events" --json
if [ "$rc" -ne 0 ]; then
	tail -5 "$tmp/pcap.json.err"
	fail "dpdk-pmu-pipeline over net_pcap exited with status $rc"
else
	echo "  ($((SECONDS - t0)) s; the run's table:)"
	grep -v '^EAL:\|^TELEMETRY:' "$tmp/pcap.json.err" | sed 's/^/    /'
	checker pcap "$tmp/pcap.json" "$routed" "$unrouted" "$nonip" "$tmp/out0.pcap" "$tmp/out1.pcap"
fi

# compare NAME EVENTS PREFIX PORTS...: the --compare run over PORTS
# (--vdev ...) counting EVENTS; with msr/tsc/ (rdtsc in user space on x86,
# no system call) also checked read without read(), its ratios the figures
# of issue 25 (compare_tsc).
compare() {
	local name=$1 evs=$2 p=$3
	shift 3
	echo "=== pipeline: (b) $name, $evs, stages off / on / sampled 1 in 16"
	pipeline "$p" "$tmp/$p.json" "0@0,1@$cpu" "$@" \
		-- --duration 6 --events "$evs" --inject 512 --compare --json
	if [ "$rc" -ne 0 ]; then
		tail -5 "$tmp/$p.json.err"
		fail "dpdk-pmu-pipeline --compare over $name ($evs) exited with status $rc"
	else
		sed -n '/^Cost per packet/,$p' "$tmp/$p.json.err" | sed 's/^/    /'
		if [ "$evs" = msr/tsc/ ]; then
			checker compare_tsc "$tmp/$p.json" "$name"
		else
			checker compare "$tmp/$p.json"
		fi
	fi
}
# Replayed from memory (infinite_rx): a pcap that fits the mbuf pool.
"$python" usertools/dpdk-pmu-traffic write "$tmp/loop.pcap" 2000 0 0 >/dev/null
ring=(--vdev net_ring0 --vdev net_ring1)
pcap=(--vdev "net_pcap0,rx_pcap=$tmp/loop.pcap,tx_pcap=/dev/null,infinite_rx=1"
	--vdev "net_pcap1,rx_pcap=$tmp/loop.pcap,tx_pcap=/dev/null,infinite_rx=1")
compare net_ring "$events" "$prefix-b" "${ring[@]}"
compare net_pcap "$events" "$prefix-p" "${pcap[@]}"
# msr/tsc/ where the machine has it (x86: the msr PMU).
if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	compare net_ring msr/tsc/ "$prefix-b" "${ring[@]}"
	compare net_pcap msr/tsc/ "$prefix-p" "${pcap[@]}"
else
	skip "--compare with msr/tsc/: no msr PMU here (/sys/bus/event_source/devices/msr)"
fi

echo "=== pipeline: (c) soak, $soak s, two worker lcores, telemetry every 10 ms"
if [ "$(nproc)" -lt 2 ]; then
	skip "soak: needs 2 CPUs (the workers on one, telemetry and the checker on the other)"
	finish
fi
eport=-
PIPELINE_BG=1 pipeline "$prefix-c" "$tmp/soak.json" "0@0,1@1,2@1" \
	--vdev net_ring0 --vdev net_ring1 --vdev net_ring2 --vdev net_ring3 \
	-- --duration "$soak" --events "$events" --inject 256 --json
if "$python" -c 'import prometheus_client' 2>/dev/null; then
	eport=$(free_port)
	"$python" usertools/dpdk-pmu-exporter -f "$prefix-c" -a 127.0.0.1 -p "$eport" \
		>"$tmp/exporter.log" 2>&1 &
	pids+=($!)
else
	skip "soak: no exporter scrapes (python3-prometheus-client missing)"
fi
checker soak "$prefix-c" "$app_pid" "$soak" "$eport" "$tmp/soak.json"
finish
