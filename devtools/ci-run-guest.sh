# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# The same testpmd three times in the arm64 guest under the preload,
# sourced by devtools/ci-run.sh: each stage's instructions the same in two
# of the runs; 8 events on QEMU's 6 counters said so under each lcore.

echo "=== run: testpmd in the arm64 guest under the preload, cycles and instructions, three times"
# The arm64 build and sysroot of the arm64 stage (devtools/arm64-ci.sh);
# testpmd is the sysroot's (group sysroot: dpdk-dev). No python in the
# guest: the preload's environment set as dpdk-pmu-run sets it; testpmd
# stops at the newline on its stdin. Every call measured (--sampling 1):
# sampled, which bursts are measured follows the idle polls, which follow
# timing. Two things make the runs the same, so that ci_run_check.py guest
# compares them exactly: the guest has one CPU (QEMU counts instructions
# for all CPUs together, so another CPU's work lands in the counts), and
# the clock is set to the same second before each run (net_pcap stamps
# each packet it writes, 3 instructions more where the nanoseconds carry).
# Where a switch between the two lcores, or an interrupt, lands in a counter
# read, the page's update makes it retry, and one event of one run counts a
# few instructions more (CI saw 20 over 125 bursts): two of three runs must
# be the same.
abuild=${ARM64_BUILD:-$ARM64_BUILD_DEFAULT}
apre=$abuild/app/pmu-preload/librte_pmu_preload.so
apcap=$(find "$SYSROOT/usr/lib/aarch64-linux-gnu" -maxdepth 1 -name 'librte_net_pcap.so.*.*' \
	2>/dev/null | head -n1)
if [ ! -f "$apre" ]; then
	guest_cannot_run "arm64 guest: no $apre (devtools/arm64-ci.sh builds it)"
elif [ ! -x "$SYSROOT/usr/bin/dpdk-testpmd" ] || [ -z "$apcap" ] ||
		! command -v qemu-system-aarch64 >/dev/null; then
	guest_cannot_run "arm64 guest: no dpdk-testpmd or net_pcap in $SYSROOT" \
		"(devtools/arm64-sysroot.sh), or no qemu-system-aarch64"
else
	for r in ta tb tc; do
		t="date -s 2026.01.01-00:00:00 >/dev/null && (sleep 2; echo) |"
		t+=" LD_PRELOAD=/usr/bin/librte_pmu_preload.so RTE_PMU_RUN_SAMPLING=1"
		t+=" RTE_PMU_RUN_EVENTS=cycles,instructions RTE_PMU_RUN_JSON=/tmp/$r.json dpdk-testpmd"
		t+=" --lcores 0@0,1@0 --no-huge --no-pci --no-shconf -m 256 --no-telemetry"
		t+=" --file-prefix=$r -d /lib/dpdk -d /usr/bin/${apcap##*/}"
		for p in 0 1; do
			t+=" --vdev net_pcap$p,rx_pcap=/usr/bin/in.pcap,tx_pcap=/tmp/$r$p.pcap"
		done
		t+=" -- --total-num-mbufs=16384 --forward-mode=io --no-flush-rx && cat /tmp/$r.json"
		echo "testpmd-${r#t} 0 $t"
	done >"$tmp/guest.cmds"
	# 7 events on QEMU's 6 event counters (and cycles): the kernel never
	# runs the group, and the table says so under each lcore.
	t="(sleep 2; echo) | LD_PRELOAD=/usr/bin/librte_pmu_preload.so RTE_PMU_RUN_SAMPLING=1"
	t+=" RTE_PMU_RUN_EVENTS=cycles,instructions,r8,r11,r08,r011,r0008,r0011 dpdk-testpmd"
	t+=" --lcores 0@0,1@0 --no-huge --no-pci --no-shconf -m 256 --no-telemetry"
	t+=" --file-prefix=t8 -d /lib/dpdk -d /usr/bin/${apcap##*/}"
	t+=" --vdev net_pcap0,rx_pcap=/usr/bin/in.pcap --vdev net_pcap1,rx_pcap=/usr/bin/in.pcap"
	t+=" -- --total-num-mbufs=16384 --forward-mode=io --no-flush-rx"
	echo "testpmd-8ev 0 $t" >>"$tmp/guest.cmds"
	# The pcap travels as a program would (in /usr/bin).
	check "arm64 guest (one CPU): testpmd-a, -b, -c and -8ev exit 0" env ARM64_CPUS=1 \
		ARM64_GUEST_CMDS="$tmp/guest.cmds" \
		ARM64_OUT="$tmp/guest" ARM64_EXTRA_BINS="$apre $apcap $tmp/in.pcap
		$SYSROOT/usr/bin/dpdk-testpmd" bash devtools/arm64-qemu-test.sh "$abuild"
	py_check 60 ci_run_check.py "$tmp/check.out" guest "$tmp/guest/arm64-guest.log" \
		cycles,instructions
	# Its section in a variable, not piped to grep -q: grep ends at the
	# line, sed is killed writing the rest, and pipefail failed the check
	# with the line there (1 CI run in 5).
	section=$(sed -n '/=== RUN testpmd-8ev[[:space:]]*$/,/=== EXIT testpmd-8ev /p' \
		"$tmp/guest/arm64-guest.log")
	grep -q "(the kernel never ran this lcore's counters" <<<"$section" &&
		ok "testpmd-8ev: 8 events on 6 counters and cycles: 'the kernel never ran this" \
			"lcore's counters' under its lcores" ||
		fail "testpmd-8ev: no line saying the kernel never ran the counters"
fi
