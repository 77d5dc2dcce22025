# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# testpmd over net_null ports under dpdk-pmu-run, sourced by
# devtools/ci-run.sh: each lcore's stages within its total (with
# --interval too), and the packet rate with --sampling 16 against without.

# rate NAME [WRAPPER...]: testpmd io over two net_null ports (which never
# run dry), $rate_s seconds from its first second with packets; its output
# in $tmp/NAME.out, and the CPU time (clock ticks) that lcore had, just
# before SIGINT, in $tmp/NAME.out.cpu: on this shared VM wall time holds
# others' work.
rate_s=${RATE_SECONDS:-5}
rate() {
	local name=$1 pid t
	shift
	"$@" "$testpmd" -l 0-1 --no-huge --no-pci -m 1024 --file-prefix="$prefix-$name" \
		--vdev net_null0 --vdev net_null1 -- --total-num-mbufs=16384 --forward-mode=io \
		--stats-period 1 >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	# From the first period with packets: EAL init and the ports take long
	# on a busy VM, and packets counted after the CPU time is read would
	# inflate a short run's rate.
	wait_for "grep -qE 'Rx-pps: +[1-9]' '$tmp/$name.out'" 60
	sleep "$rate_s"
	for t in /proc/"$pid"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" != rte-worker-1 ] ||
			awk '{print $14 + $15}' "$t/stat" >"$tmp/$name.out.cpu"
	done
	stop "$pid"
}

echo "=== run: testpmd on net_null ports under dpdk-pmu-run: each lcore's stages within its total"
# The stages' self figures of an lcore add up to at most the lcore's total
# (the --json "lcores" list), with a time event and with msr/tsc/; and
# with --interval 1000, each table's lcore total that of its interval (at
# most its length with task-clock), the stages' self figures adding up to
# no more than it, and with the part outside them to it.
for event in task-clock msr/tsc/; do
	name=lcores-$(echo "$event" | tr -c 'a-z0-9\n' '_')
	rate "$name" "$run" -e "$event" --json "$tmp/$name.json" --interval 1000
	py_check 60 ci_run_check.py "$tmp/check.out" lcores "$name" "$tmp/$name.json" "$event"
	py_check 60 ci_run_check.py "$tmp/check.out" interval "$name" "$tmp/$name.err" \
		"$tmp/$name.err" "$event"
done

echo "=== run: testpmd's packet rate under dpdk-pmu-run --sampling 16 against without"
# The ratios of runs that alternate, their median: msr/tsc/'s at least
# 0.8x, a timing's wide margin below the aim of 0.9x (printed).
labels=(without "-e msr/tsc/" "-e task-clock")
files=("" "" "")
for r in 1 2 3 4; do
	for i in 0 1 2; do
		k=$(((i + r) % 3))
		if [ "$k" -eq 0 ]; then
			rate "rate$k-$r"
		else
			# shellcheck disable=SC2086
			rate "rate$k-$r" "$run" --sampling 16 ${labels[k]}
		fi
		files[k]+=${files[k]:+,}$tmp/rate$k-$r.out
	done
done
py_check 60 ci_run_check.py "$tmp/check.out" rates "${labels[0]}=${files[0]}" \
	"dpdk-pmu-run --sampling 16 ${labels[1]}@0.8/0.9=${files[1]}" \
	"dpdk-pmu-run --sampling 16 ${labels[2]}=${files[2]}"
