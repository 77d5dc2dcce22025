#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# /init of the arm64 test guest (packed by arm64-qemu-test.sh), in busybox
# sh: allow user-space counter reads, print what the guest offers, run the
# commands of /etc/pmu-guest/cmds ("NAME COMMAND..." a line; $EAL from
# /etc/pmu-guest/eal, each limited to /etc/pmu-guest/timeout seconds),
# power off. Console: "=== RUN NAME", "=== EXIT NAME RC", "=== DONE".

CONF=/etc/pmu-guest

/bin/busybox mount -t devtmpfs devtmpfs /dev
exec 0</dev/console 1>/dev/console 2>&1
/bin/busybox --install -s
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /dev/shm /run/dpdk
mount -t tmpfs tmpfs /dev/shm

# This guest is the test's own machine: allow user-space counter reads.
echo 1 > /proc/sys/kernel/perf_user_access ||
	echo "=== WARN cannot enable perf_user_access"

echo "=== FACTS"
echo "kernel: $(uname -r) $(uname -m), cpus: $(nproc)"
echo "perf_user_access: $(cat /proc/sys/kernel/perf_user_access 2>&1)," \
	"perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid 2>&1)"
echo "event sources: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
for d in /sys/bus/event_source/devices/*; do
	[ -d "$d/format" ] || continue
	case "$(basename "$d")" in
	software|tracepoint|breakpoint|kprobe|uprobe) continue;;
	esac
	echo "pmu $(basename "$d"): type $(cat "$d/type")"
	for f in "$d"/format/*; do
		echo "  format/$(basename "$f"): $(cat "$f")"
	done
	[ -d "$d/caps" ] && for f in "$d"/caps/*; do
		echo "  caps/$(basename "$f"): $(cat "$f")"
	done
done
echo "=== END FACTS"

EAL=$(cat "$CONF/eal")
CMD_TIMEOUT=$(cat "$CONF/timeout")
export EAL
# Machine-wide settings may change here; hardware counters must work.
export RTE_PMU_TEST_GUEST=1

while read -r name cmd <&3; do
	echo "=== RUN $name"
	timeout "$CMD_TIMEOUT" sh -c "$cmd" </dev/null
	echo "=== EXIT $name $?"
done 3< "$CONF/cmds"

echo "=== DONE"
sync
poweroff -f
