#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: first, the usertools scripts given a missing file or a value
# out of range: a message, never a traceback; dpdk-pmu-top's %lcore on
# made-up replies, and its live view without a terminal. Then a running
# application's counters seen with the real tools:
# (a) Debian's dpdk-telemetry.py on every /pmu/* command (shapes, growth,
# totals, errors); (b) usertools/dpdk-pmu-exporter scraped every second by a
# real Prometheus (series, units, labels, growth), with the recording and
# alerting rules of usertools/prometheus loaded (and unit-tested by
# promtool) and every expression of the Grafana dashboard giving series;
# (c) --trace='lib.pmu.*' decoded with babeltrace; (d) lib.pmu.error from
# pmu_autotest's open failure; (e) dpdk-pmu-top's interval on testpmd's
# sampled stages (dpdk-pmu-run): each lcore's stages within its total.
# The application is
# dpdk-test-pmu --interval --duration when built, else dpdk-pmu-observe,
# which the trace part always uses (rte_pmu_read_trace()).
# Environment: BUILD_DIR (default build).
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
events=task-clock,context-switches,page-faults
python=/usr/bin/python3
prefix=pmu_ci_observe_$$
rundir=$DPDK_RUNDIR/$prefix
prefixes="$prefix ${prefix}_h ${prefix}_t ${prefix}_e ${prefix}_m ${prefix}_f"
stage_tmp ci-observe

# checker TIMEOUT KIND ARGS...: one check of ci_observe_check.py, counted.
checker() { py_check "$1" ci_observe_check.py "$tmp/check.out" "${@:2}"; }

echo "=== observe: packages, build"
deps observe || log "could not install every package"
build_if_missing "$build" --werror || { fail "build"; finish; }

echo "=== observe: usertools scripts given a missing file"
checker 60 missing-files
echo "=== observe: usertools scripts given values out of range"
checker 60 bad-arguments
# refused STATUS LINE SCRIPT ARGS...: usertools/SCRIPT ARGS exits with
# STATUS, LINE its last line on stderr, no traceback: values that Python
# itself would refuse further on, with one.
refused()
{
	local status=$1 want=$2 st

	shift 2
	timeout 30 "$python" "usertools/$1" "${@:2}" </dev/null >/dev/null 2>"$tmp/refused.err"
	st=$?
	if [ "$st" -eq "$status" ] && [ "$(tail -n1 "$tmp/refused.err")" = "$want" ] &&
			! grep -q Traceback "$tmp/refused.err"; then
		ok "$*: exit $st, \"$want\""
	else
		fail "$*: exit $st (want $status and \"$want\"): $(tail -n2 "$tmp/refused.err")"
	fi
}
# Beyond 2^31 ms curses' timeout() overflows, time.sleep() further on: an
# hour at most, as dpdk-pmu-run; refused before any socket is tried.
for ms in 2147483648 100000000000000000000; do
	refused 2 "dpdk-pmu-top: error: --interval: at most 3600000" \
		dpdk-pmu-top --once -s "$tmp/no-socket" --interval $ms
done
# Digits that str.isdigit() takes and int() does not.
refused 1 "dpdk-pmu-traffic: ROUTED '²': not a non-negative integer" \
	dpdk-pmu-traffic write "$tmp/refused.pcap" ²
refused 1 "dpdk-pmu-traffic: --port '³': not a non-negative integer" \
	dpdk-pmu-traffic write "$tmp/refused.pcap" 10 0 0 --port ³
checker 30 misuse-sum
# dpdk-pmu-top's %lcore with task-clock on two lcores: per lcore a share of
# a second; in the total block, of the lcores' summed total (at most 100 %).
checker 30 top-total
# Its live view without a terminal: the line saying so, nothing on stdout
# (curses' escape codes went there before it failed).
checker 30 no-terminal
observe=$build/examples/dpdk-pmu-observe
tool=$build/app/test-pmu/dpdk-test-pmu
app=
[ ! -x "$observe" ] || app=$observe
# Not piped into grep -q: the tool's SIGPIPE would fail the pipeline.
if [ -x "$tool" ] && [[ $("$tool" --no-huge --no-pci -m 64 --no-telemetry \
		--file-prefix="${prefix}_h" -- --help 2>&1) == *--duration* ]]; then
	app=$tool
fi
if [ -z "$app" ]; then
	skip "telemetry, Prometheus and trace: neither $observe nor a $tool with --duration" \
		"was built (meson options examples, enable_apps)"
	finish
fi

eal=(-l 0-1 --no-huge --no-pci -m 64 --file-prefix="$prefix")
if [ "$(nproc)" -lt 2 ]; then
	skip "telemetry, Prometheus and trace: need 2 CPUs (a main and a counting worker lcore)"
	finish
fi

echo "=== observe: (a) telemetry, $app"
timeout 120 "$app" "${eal[@]}" -- -e "$events" --interval 200 --duration 60 \
	>"$tmp/app.log" 2>&1 &
app_pid=$!
pids+=("$app_pid")
if ! wait_for "[ -S $rundir/dpdk_telemetry.v2 ]" 20; then
	tail -20 "$tmp/app.log"
	fail "telemetry socket $rundir/dpdk_telemetry.v2 did not appear"
	finish
fi
if [ -x /usr/bin/dpdk-telemetry.py ]; then
	checker 60 telemetry "$prefix" "$events" "$app_pid"
else
	skip "telemetry: /usr/bin/dpdk-telemetry.py missing (package dpdk-dev)"
fi

echo "=== observe: (b) Prometheus"
if [ ! -x /usr/bin/prometheus ] || ! "$python" -c 'import prometheus_client' 2>/dev/null; then
	skip "prometheus: /usr/bin/prometheus or python3-prometheus-client missing"
else
	checker 30 any-port
	# On a made-up application: counters that never fall for one process,
	# rte_pmu not initialised, the connection closed during a scrape.
	checker 60 fake-app
	eport=$(free_port) pport=$(free_port)
	rules=$REPO/usertools/prometheus/dpdk-pmu.rules.yml
	alerts=$REPO/usertools/prometheus/dpdk-pmu.alerts.yml
	# The rules' syntax, then their figures (IPC too) and each alert firing
	# and not on made-up series.
	for t in "check rules $rules $alerts" "test rules ${rules%.yml}.test.yml" \
			"test rules ${alerts%.yml}.test.yml"; do
		# shellcheck disable=SC2086 # $t: the promtool command and its file
		if out=$(cd "${rules%/*}" && /usr/bin/promtool $t 2>&1); then
			ok "promtool ${t//"$REPO"\//}: SUCCESS${out##*SUCCESS}"
		else
			fail "promtool ${t//"$REPO"\//}: $out"
		fi
	done
	if prometheus_up "$tmp" "$prefix" "$eport" "$pport"; then
		# Load the rules into the running server (SIGHUP rereads its file).
		printf 'rule_files: [%s, %s]\n' "$rules" "$alerts" >>"$tmp/prometheus.yml"
		kill -HUP "${pids[-1]}"
		checker 60 prometheus "$pport" "$events"
		# The exporter's stage counters never fall, scraped 4 times a
		# second while testpmd's stages are sampled (dpdk-pmu-run).
		if [ -x /usr/bin/dpdk-testpmd ]; then
			checker 60 monotonic "$build/usertools/dpdk-pmu-run" "${prefix}_m"
		else
			skip "exporter counters under sampling: dpdk-testpmd missing (package dpdk)"
		fi
		checker 90 dashboard "$pport" "$events" "$rules" \
			"$REPO/usertools/grafana/dpdk-pmu.json" "$alerts"
		[[ ,$events, =~ ,(cpu_)?cycles, ]] || skip "prometheus: the IPC rule and" \
			"panel: no cycles and instructions events on this machine"
	else
		fail "exporter on 127.0.0.1:$eport or prometheus on 127.0.0.1:$pport did not come up"
	fi
fi
kill "$app_pid" 2>/dev/null

echo "=== observe: (c) trace, $observe"
tracedir=$tmp/trace
if [ ! -x "$observe" ]; then
	skip "trace: $observe not built (meson option examples leaves out pmu_observe)"
elif timeout 60 "$observe" "${eal[@]/--file-prefix=$prefix/--file-prefix=${prefix}_t}" \
		--no-telemetry --trace='lib.pmu.*' --trace-dir="$tracedir" \
		-- -e "$events" --interval 100 --duration 2 >"$tmp/trace.log" 2>&1; then
	# The stages examples/pmu_observe registers, in order.
	checker 90 trace "$tracedir" "$events" loop,spin,sample
else
	tail -20 "$tmp/trace.log"
	fail "trace: $observe failed"
fi

# lib.pmu.error: pmu_autotest's case "open failure remembered" lowers
# RLIMIT_NOFILE to 3 while worker lcore 1 opens task-clock, and
# pmu_read_autotest's test_open_sysfs_fails lowers it on lcore 0 as its
# group reads msr's sysfs files (step tsc), the two failed opens in that
# test; its trace must name them with -EMFILE.
echo "=== observe: (d) trace of a failed open, dpdk-test pmu_autotest"
tracedir=$tmp/trace_error
runner=$build/app/test/dpdk-test
if [ ! -x "$runner" ]; then
	skip "trace of a failed open: $runner not built (meson option tests)"
elif DPDK_TEST=pmu_autotest timeout 120 "$runner" \
		"${eal[@]/--file-prefix=$prefix/--file-prefix=${prefix}_e}" --no-telemetry \
		--trace='lib.pmu.*' --trace-dir="$tracedir" >"$tmp/trace_error.log" 2>&1; then
	checker 90 trace-error "$tracedir" "1:task-clock:-24,0:tsc:-24"
else
	tail -20 "$tmp/trace_error.log"
	fail "trace of a failed open: pmu_autotest failed"
fi

# (e) dpdk-pmu-top's interval on stages sampled 1 in 16: in each of its
# snapshots, an lcore's stage rows within its total.
echo "=== observe: (e) dpdk-pmu-top on testpmd's sampled stages, under dpdk-pmu-run"
if [ ! -x "$build/usertools/dpdk-pmu-run" ] || [ ! -x /usr/bin/dpdk-testpmd ]; then
	skip "dpdk-pmu-top on sampled stages: $build/usertools/dpdk-pmu-run or" \
		"/usr/bin/dpdk-testpmd missing"
else
	checker 120 top-fit "$build/usertools/dpdk-pmu-run" "${prefix}_f"
fi

finish
