#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: dpdk-pmu-pipeline forwarding between real ethdev ports, on
# software events (checks in ci_pipeline_check.py):
#  (a) two net_pcap ports on a generated pcap: packets conserved, the drops,
#      the tx pcaps, the rx/process/tx rows;
#  (b) --compare (stages off, on, sampled 1 in 16) over net_ring and
#      net_pcap, and again on msr/tsc/ where the machine has it (read without
#      read()); the ratios are printed, not gated;
#  (c) a soak of SOAK_SECONDS (30, at most 60): telemetry every 10 ms, the
#      exporter every second; figures monotonic, descriptors and RSS flat.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
app=$build/examples/dpdk-pmu-pipeline
python=/usr/bin/python3
events=task-clock,page-faults
soak=${SOAK_SECONDS:-30}
[ "$soak" -le 60 ] || soak=60
prefix=ci-pipeline-$$
prefixes="$prefix-a $prefix-b $prefix-p $prefix-c"
stage_tmp ci-pipeline

checker() { py_check 120 ci_pipeline_check.py "$tmp/check.out" "$@"; }

# pipeline NAME LCORES ARGS...: the example (EAL arguments, then its own
# after --), stdout in $tmp/NAME.json, stderr in $tmp/NAME.json.err, rc; in
# the background with PIPELINE_BG (pid in app_pid: the checker watches it).
pipeline()
{
	local out=$tmp/$1.json eal=(--lcores "$2" --no-huge --no-pci -m 256
		--file-prefix="$prefix-$1" --log-level=lib.pmu:warning)

	shift 2
	if [ -n "${PIPELINE_BG:-}" ]; then
		"$app" "${eal[@]}" "$@" >"$out" 2>"$out.err" &
		app_pid=$!
		pids+=("$app_pid")
	else
		timeout 120 "$app" "${eal[@]}" "$@" >"$out" 2>"$out.err"
		rc=$?
	fi
}

stage_build
[ -x "$app" ] || { skip "$app not built (meson option examples)"; finish; }
cpu=$(($(nproc) > 1))

echo "=== pipeline: (a) net_pcap, generated traffic"
read -r routed unrouted nonip < <("$python" usertools/dpdk-pmu-traffic write "$tmp/in.pcap" \
	20000 50 50)
pipeline a "0@0,1@$cpu" \
	--vdev "net_pcap0,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out1.pcap" \
	-- --duration 10 --packets $((2 * (routed + unrouted + nonip))) --events "$events" --json
if [ "$rc" -ne 0 ]; then
	show "$tmp/a.json.err" 5
	fail "dpdk-pmu-pipeline over net_pcap exited with status $rc"
else
	grep -v '^EAL:\|^TELEMETRY:' "$tmp/a.json.err" | sed 's/^/    /'
	checker pcap "$tmp/a.json" "$routed" "$unrouted" "$nonip" "$tmp/out0.pcap" "$tmp/out1.pcap"
fi

# compare PORTS EVENTS NAME VDEV...: a --compare run over VDEV counting EVENTS.
compare()
{
	local ports=$1 evs=$2 name=$3

	shift 3
	echo "=== pipeline: (b) $ports, $evs, stages off / on / sampled 1 in 16"
	pipeline "$name" "0@0,1@$cpu" "$@" \
		-- --duration 6 --events "$evs" --inject 512 --compare --json
	if [ "$rc" -ne 0 ]; then
		show "$tmp/$name.json.err" 5
		fail "dpdk-pmu-pipeline --compare over $ports ($evs) exited with status $rc"
		return
	fi
	sed -n '/^Cost per packet/,$p' "$tmp/$name.json.err" | sed 's/^/    /'
	if [ "$evs" = msr/tsc/ ]; then
		checker compare_tsc "$tmp/$name.json" "$ports"
	else
		checker compare "$tmp/$name.json"
	fi
}
# Replayed from memory (infinite_rx): a pcap that fits the mbuf pool.
"$python" usertools/dpdk-pmu-traffic write "$tmp/loop.pcap" 2000 0 0 >/dev/null
ring=(--vdev net_ring0 --vdev net_ring1)
pcap=(--vdev "net_pcap0,rx_pcap=$tmp/loop.pcap,tx_pcap=/dev/null,infinite_rx=1"
	--vdev "net_pcap1,rx_pcap=$tmp/loop.pcap,tx_pcap=/dev/null,infinite_rx=1")
compare net_ring "$events" b "${ring[@]}"
compare net_pcap "$events" p "${pcap[@]}"
if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	compare net_ring msr/tsc/ b "${ring[@]}"
	compare net_pcap msr/tsc/ p "${pcap[@]}"
else
	skip "--compare with msr/tsc/: no msr PMU here (/sys/bus/event_source/devices/msr)"
fi

echo "=== pipeline: (c) soak, $soak s, two worker lcores, telemetry every 10 ms"
if [ "$(nproc)" -lt 2 ]; then
	skip "soak: needs 2 CPUs (the workers on one, telemetry and the checker on the other)"
	finish
fi
eport=-
PIPELINE_BG=1 pipeline c "0@0,1@1,2@1" \
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
checker soak "$prefix-c" "$app_pid" "$soak" "$eport" "$tmp/c.json"
finish
