#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: dpdk-test-pmu as a user runs it, on software events (without a
# hardware PMU, the fallback and <not supported> rows too). TOOL_PART=guest:
# the tool in the emulated arm64 guest of the arm64 stage (its cross build
# and sysroot, ARM64_BUILD), checked to the cycle; TOOL_PART=host: the host.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
tool=$build/app/test-pmu/dpdk-test-pmu
stage_tmp ci-tool
stage_build tool
[ -x "$tool" ] || { skip "$tool not built (-Ddisable_apps=test-pmu?)"; finish; }

# One worker lcore, and two on one CPU for the totals (CPU 0 on a one-CPU machine).
cpu=$(($(nproc) > 1))
one_worker="--lcores=0@0,1@$cpu"
two_workers="--lcores=0@0,(1,2)@$cpu"
# The host's EAL arguments without their -l: each run names its lcores.
eal="${EAL_HOST_ARGS#-l 0-1 } --file-prefix=ci-tool-$$ --log-level=lib.pmu:warning"
sw="task-clock,context-switches,page-faults"

# run NAME LCORES ARGS...: the tool's stdout, stderr in $tmp/NAME.out, .err; rc.
run()
{
	local name=$1 lcores=$2

	shift 2
	# shellcheck disable=SC2086
	run_to "$name" 60 "$tool" "$lcores" $eal -- "$@"
}

# expect NAME DESCRIPTION PYTHON: the check passes when the Python
# expression, with out (stdout text), err (stderr text) and rc bound, is true.
# py NAME PYTHON [print]: evaluate it alone (and print its value).
py()
{
	PYTHONPATH=$REPO/devtools python3 - "$tmp/$1.out" "$tmp/$1.err" "$rc" "$2" "${3:-}" <<'EOF'
import csv, io, json, os, re, sys
from ci_common import console_runs
import perf_csv
out = open(sys.argv[1]).read()
err = open(sys.argv[2]).read()
rc = int(sys.argv[3])
def lines(text):
    return [l for l in text.splitlines() if l.strip() != '']
def rows(text): # the CSV's event rows (stage empty)
    return [r for r in csv.DictReader(io.StringIO(text)) if r['stage'] == '']
def stage_rows(text): # the CSV's stage rows
    return [r for r in csv.DictReader(io.StringIO(text)) if r['stage'] != '']
def dumps(text): # each rte_pmu_stage_dump() in text: its rows (section, stage, calls, items)
    out, rows = [], None
    for l in text.splitlines():
        sec = re.match(r'^(?:lcore (\d+)|(total))$', l)
        row = re.match(r'^  (\S+)\s+(\d+)\s+(\d+)\s+[\d.]+(?:\s|$)', l)
        if sec:
            if rows is None:
                rows = []
                out.append(rows)
            where = sec.group(1) or sec.group(2)
        elif rows is not None and (l.startswith('  Name ') or l.startswith('  (')):
            pass  # the header; an lcore's (lcore total) and (outside stages) lines
        elif rows is not None and row:
            rows.append((where, row.group(1), int(row.group(2)), int(row.group(3))))
        else:
            rows = None
    return out
def stage_table(text): # the stage dump's rows after " Stages (": (stage, lcore, calls, items)
    d = dumps(text.split(' Stages (')[-1]) if ' Stages (' in text else []
    return [(r[1], r[0], r[2], r[3]) for r in d[0]] if d else []
def docs(text): # JSON lines (those of perf stat -o's "#" header left out)
    return [json.loads(l) for l in lines(text) if not l.startswith('#')]
def ev(rec, name):
    return next(e for e in rec['events'] if e['event'] == name)
def sel(rs, event, lcores=None): # CSV rows of an event (on some lcores)
    return [r for r in rs if r['event'] == event and (lcores is None or r['lcore'] in lcores)]
def guest(name, n=0): # cycles and instructions of a guest command's report n
    d = console_runs(out)[name][n]['lcores'][0]
    return ev(d, 'cycles'), ev(d, 'instructions')
try:
    good = eval('(' + sys.argv[4] + '\n)')
except Exception as e:
    print('    %s: %s' % (type(e).__name__, e))
    good = False
if sys.argv[5] == 'print':
    print('  info: %s' % good)
sys.exit(0 if good else 1)
EOF
}

expect()
{
	local name=$1 what=$2

	if py "$name" "$3"; then
		ok "$what"
	else
		fail "$what (exit $rc; output in the lines below)"
		sed 's/^/    | /' "$tmp/$name.out" | head -20
		grep -v -E '^(EAL|TELEMETRY):' "$tmp/$name.err" | sed 's/^/    ! /' | head -10
	fi
}

# gexpect DESCRIPTION PYTHON: a guest check, exact to the instruction.
# A context switch inside one event's counter read makes that read retry,
# and the retry lands in that event's figure alone. The guest's interrupts
# are timed by the host (its console), so now and then one lands there: on
# the first boot (guest_try=1) a check that does not hold is printed and
# the guest boots again; every check must hold on the boot that is counted.
gexpect()
{
	if [ "$guest_try" = 2 ]; then
		expect guest "$1" "$2"
	elif ! py guest "$2" >/dev/null; then
		echo "  info: guest boot 1: '$1' did not hold; booting again"
		guest_again=1
	fi
}

# guest_boot: the tool commands in one boot of the guest (out and err in
# $tmp/guest.out and .err, rc).
guest_boot()
{
	ARM64_CPUS=1 ARM64_GUEST_CMDS=$tmp/guest.cmds ARM64_OUT=$tmp/guest \
		bash devtools/arm64-qemu-test.sh "$abuild" >"$tmp/guest.out" 2>&1
	rc=$?
	cp "$tmp/guest.out" "$tmp/guest.err"
}

guest_expects()
{
	gexpect "the guest ran every tool command (exit 0)" \
		"rc == 0 and sorted(console_runs(out)) ==
		['tool-big', 'tool-corrected', 'tool-interval', 'tool-raw']"
	gexpect "100000 loop iterations: 4.000 cycles an iteration, IPC 1.000, user page" \
		"(lambda c, i: 4.0 <= c['per_iteration'] < 4.001 and c['value'] == i['value'] and
		i['ratio'] == 1.0 and c['read_path'].startswith('user page'))(*guest('tool-big'))"
	gexpect "raw minus subtracted cycles is exactly the read overhead (100 iterations)" \
		"(lambda c, r: c['read_overhead'] > 0 and r['read_overhead'] == 0 and
		r['value'] - c['value'] == c['read_overhead'] and 400 <= c['value'] < 500)
		(guest('tool-corrected')[0], guest('tool-raw')[0])"
	gexpect "intervals: 10 reports of 100 ms, cycles equal to instructions in each" \
		"len(console_runs(out)['tool-interval']) == 10 and
		all(c['value'] > 0 and c['value'] == i['value']
		for c, i in [guest('tool-interval', n) for n in range(10)])"
	gexpect "stages: 1 loop call of 100 items, its cycles the same in two runs, IPC 1.000" \
		"(lambda a, b: a['calls'] == 1 and a['items'] == 100 and a['ipc'] == 1.0 and
		a['events'] == b['events'] and ev(a, 'cycles')['value'] > 400)(
		*[console_runs(out)[n][0]['stages'][0] for n in ('tool-corrected', 'tool-raw')])"
	gexpect "stages: 100000 loop items, 4.00x cycles an item; 2 snapshots" \
		"(lambda l, s: l['stage'] == 'loop' and l['items'] == 100000 and
		4.0 <= ev(l, 'cycles')['per_item'] < 4.01 and s['calls'] == 2)(
		*console_runs(out)['tool-big'][0]['stages'])"
	gexpect "stages per interval: loop items = calls x 10,000; loop's and snapshot's cycles = instructions" \
		"all(l['items'] == l['calls'] * 10000 and l['calls'] > 0 and
		all(ev(s, 'cycles')['value'] == ev(s, 'instructions')['value'] for s in (l, t))
		for d in console_runs(out)['tool-interval'] for l, t in [d['stages'][:2]])"
	py guest "'cycles - instructions of loop/snapshot per interval: ' + ' '.join(
		'%d/%d' % tuple(ev(s, 'cycles')['value'] - ev(s, 'instructions')['value']
		for s in d['stages'][:2]) for d in console_runs(out).get('tool-interval', []))" \
		print
}

# The same tool on real counters in the arm64 guest (TOOL_PART=guest: these
# checks alone, which need only the guest and the cross build).
guest_checks()
{
	echo "=== arm64 guest: real counters, exact under QEMU -icount shift=0"
	# Needs the arm64 build and sysroot that the arm64 stage made (arm64-ci.sh).
	abuild=${ARM64_BUILD:-$ARM64_BUILD_DEFAULT}
	if [ ! -x "$abuild/app/test-pmu/dpdk-test-pmu" ]; then
		guest_cannot_run "arm64 guest: no $abuild/app/test-pmu/dpdk-test-pmu (devtools/arm64-ci.sh builds it)"
	elif [ ! -f "$SYSROOT/.stamp" ] || ! command -v qemu-system-aarch64 >/dev/null; then
		guest_cannot_run "arm64 guest: no sysroot in $ARM64_DIR or no qemu-system-aarch64"
	else
		# One CPU: QEMU keeps one instruction count for all CPUs, so with
		# two a read now and then takes in what the other one ran.
		t="dpdk-test-pmu \$EAL --file-prefix=t1 -- -e cycles,instructions"
		printf '%s\n' "EAL=--lcores 0@0,1@0 ${EAL_GUEST_ARGS#-l 0-1 }" "tool-corrected 0 $t --iterations 100 --json" "tool-raw 0 $t --iterations 100 --json --raw" \
			"tool-big 0 $t --iterations 100000 --json" "tool-interval 0 $t -I 100 --duration 1 --json" >"$tmp/guest.cmds"
		guest_boot
		guest_try=1 guest_again=0
		guest_expects
		[ "$guest_again" = 0 ] || guest_boot
		guest_try=2
		guest_expects
	fi
}

case ${TOOL_PART:-all} in
guest) guest_checks; finish ;;
esac

echo "=== dpdk-test-pmu: default events"
run default "$one_worker"
if grep -q "no hardware events here" "$tmp/default.out"; then
	expect default "no hardware PMU: cycles, instructions <not supported> with a reason" \
		"rc == 0 and re.search(r'<not supported>\s+cycles\s+\(\S', out) and
		re.search(r'<not supported>\s+instructions\s+\(\S', out)"
	expect default "fallback: the software events are counted" \
		"all(re.search(r'^\s+[\d.,]+ (msec )?\s*%s\s' % e, out, re.M)
		for e in ['task-clock', 'context-switches', 'page-faults'])"
	# msr/tsc/ first where it opens (read with rdtsc), else task-clock.
	first=task-clock
	[ ! -e /sys/bus/event_source/devices/msr/events/tsc ] || first=msr/tsc/
	expect default "fallback: $first first (the first counted row, the stage table's first column), the loop stage's $first/Call above 0" \
		"[m.group(2) for m in re.finditer(r'^\s+[\d.,]+ (msec )?\s*(\S+)\s', out, re.M)][:1] ==
		['$first'] and re.search(r'^  Name\s+Calls\s+Items\s+Items/Call\s+%s/Item\s'
		% re.escape('$first'), out, re.M) and float(re.search(
		r'^  loop\s+1\s+\d+\s+[\d.]+\s+[\d.]+~?\s+([\d.]+)', out, re.M).group(1)) > 0"
	expect default "stage table: each event's whole name in its column heads (context-switches, 16 characters, was cut to 15)" \
		"re.search(r'^  Name\s.*\scontext-switches/Item\s+context-switches/Call\s', out, re.M)"
else
	skip "this machine has a hardware PMU: no fallback to check"
	expect default "hardware PMU: cycles and instructions counted, with IPC" \
		"rc == 0 and 'insn per cycle' in out and '<not supported>' not in out"
fi

echo "=== dpdk-test-pmu as an unprivileged user, perf_event_paranoid 2"
# The docs' promise: a user counts the software events at paranoid 2 and
# below. The kernel refuses their default (user and kernel) there: the
# library counts user space, as perf stat does, and says so; a clock event
# is counted whole all the same (the kernel applies its levels to samples),
# and the library says that.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if [ "$(id -u)" -ne 0 ] || ! command -v runuser >/dev/null; then
	skip "unprivileged run: not root, or no runuser"
elif [ "$paranoid" != 2 ]; then
	skip "unprivileged run: kernel.perf_event_paranoid is $paranoid here, not 2 (not changed)"
elif ! runuser -u nobody -- test -x "$tool"; then
	skip "unprivileged run: user nobody cannot reach $tool"
else
	out=$(runuser -u nobody -- env -u XDG_RUNTIME_DIR "$tool" -l 0 --no-huge --no-pci -m 64 \
		--file-prefix=ci-tool-nobody-$$ -- -e task-clock,page-faults --iterations 1000 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'page-faults: kernel.perf_event_paranoid = 2 allows user space only: counting user space' <<<"$out" &&
			grep -q 'task-clock: a clock event: the kernel counts it in user and kernel space alike, whatever kernel.perf_event_paranoid allows' <<<"$out" &&
			grep -qE '^ +[0-9.]+ msec task-clock ' <<<"$out" &&
			! grep -q '<not supported>' <<<"$out"; then
		ok "user nobody: task-clock and page-faults counted in user space, said so (exit 0)"
	else
		echo "$out" | grep -v '^EAL' | tail -8 | sed 's/^/    | /'
		fail "user nobody: task-clock,page-faults at paranoid 2: exit $rc, not counted"
	fi
fi

echo "=== the README's first command: devtools/run-tool.sh"
BUILD_DIR=$build run_to readme 120 bash devtools/run-tool.sh
expect readme "run-tool.sh: exit 0, the tool's report on cycles and instructions (counted or <not supported>) with its stage dump (loop: 1 call on the lcore and in total)" \
	"rc == 0 and all(re.search(r'^\s+(<not supported>|[\d.,]+)\s+%s\s' % e, out, re.M)
	for e in ['cycles', 'instructions']) and
	[r[2] for r in stage_table(out) if r[0] == 'loop'] == [1, 1]"
expect readme "run-tool.sh: the pipeline forwards its generated pcap, 40200 packets received, stages rx, process and tx" \
	"re.search(r'^  all\s+40200\s', out, re.M) and len(dumps(out)) == 2 and
	[r[1] for r in dumps(out)[1] if r[0] == 'total'] == ['rx', 'process', 'tx']"

echo "=== table: units, ratios, grouping, read overhead"
run table "$one_worker" -e "$sw" --workload memory --iterations 2000000
expect table "task-clock in msec with CPUs utilized" \
	"rc == 0 and
	re.search(r'^\s+\d+\.\d+ msec task-clock\s+#\s+[\d.]+ CPUs utilized', out, re.M)"
expect table "counts with thousands grouping (iterations 2,000,000)" \
	"'x 2,000,000 iterations' in out"
expect table "rates per second for software events" \
	"re.search(r'page-faults\s+#\s+[\d.]+ [KMG]?/sec', out)"
expect table "the read overhead is measured, subtracted and said so" \
	"re.search(r'read overhead subtracted per round: [\d.]+ ns \([\d.]+ ns a read\), '
	r'task-clock \d', out) and
	'Figures exclude the read overhead' in out"
expect table "no total block for a single lcore" "'Counts for total' not in out"
expect table "stage table: memory (one call, 2,000,000 items) chained with snapshot (the base and the round's)" \
	"stage_table(out) == [('memory', '1', 1, 2000000), ('snapshot', '1', 2, 2),
	('memory', 'total', 1, 2000000), ('snapshot', 'total', 2, 2)] and
	re.search(r'^  Name\s+Calls\s+Items\s+Items/Call\s+task-clock/Item\s+task-clock/Call\s',
	out, re.M)"

echo "=== events: -e, --events, <not supported>"
run short "$one_worker" -e task-clock
expect short "-e is accepted" "rc == 0 and 'task-clock' in out and 'invalid option' not in err"
run long "$one_worker" --events=task-clock,page-faults
expect long "--events=LIST is accepted" "rc == 0 and 'page-faults' in out"
# As perf stat: each -e adds its events after those of the -e before it.
run twoe "$one_worker" -e task-clock -e page-faults,context-switches -x ,
expect twoe "-e task-clock -e page-faults,context-switches: the events of both -e, in order" \
	"rc == 0 and [r['event'] for r in perf_csv.parse(out)] ==
	['task-clock', 'page-faults', 'context-switches']"
run bogus "$one_worker" -e task-clock,no-such-event
expect bogus "an unknown event is a <not supported> row with its reason, the rest counted" \
	"rc == 0 and re.search(r'<not supported>\s+no-such-event\s+\(.+\)', out) and
	'msec task-clock' in out"
run none "$one_worker" -e no-such-event,nor-this-one
expect none "no countable event: exit 1, each event named on stderr" \
	"rc == 1 and 'none of the events can be counted' in err and 'nor-this-one' in err"

echo "=== values are sane"
run small "$one_worker" -e task-clock --csv --iterations 1000000
run big "$one_worker" -e task-clock --csv --iterations 10000000
expect big "task-clock grows with the work (10x iterations: over 3x the time)" \
	"int(rows(out)[0]['value']) > 3 * int(rows(open('$tmp/small.out').read())[0]['value'])"
run faults "$one_worker" -e page-faults --csv --workload memory
expect faults "page-faults counts the memory workload's first touches" \
	"rc == 0 and int(rows(out)[0]['value']) > 0"
run loopfaults "$one_worker" -e page-faults --csv --workload loop
expect loopfaults "the loop workload takes no page fault" \
	"rc == 0 and int(rows(out)[0]['value']) == 0"
expect small "task-clock per iteration is between 0.05 and 100 ns, CPUs utilized at most 1.05" \
	"0.05 < float(rows(out)[0]['per_iteration']) < 100 and
	0 < float(rows(out)[0]['ratio']) <= 1.05"

echo "=== read overhead subtraction"
# One-iteration rounds for a second: nearly all the raw task-clock is the
# reads' own. A read may cost less than at calibration, but no more than the
# raw count is subtracted: never below zero, the two add up to the raw count,
# which is at most the rounds' wall time (less where the VM's other work
# takes the CPU: the bound below is what a loaded 2-CPU machine still gives).
run ovh "$one_worker" -e task-clock --iterations 1 --duration 1 --json
expect ovh "one-iteration rounds: task-clock after subtraction is below the overhead subtracted, not below 0" \
	"(lambda l, e: e['read_overhead'] > 0 and 0 <= e['value'] < e['read_overhead']
	and l['elapsed_ns'] >= 0 and 0.2e9 < e['value'] + e['read_overhead'] <=
	1.05 * (l['elapsed_ns'] + l['rounds'] * l['read_overhead_ns']))(
	docs(out)[0]['lcores'][0], ev(docs(out)[0]['lcores'][0], 'task-clock'))"
run raw "$one_worker" -e task-clock --iterations 1 --duration 1 --json --raw
expect raw "--raw: nothing subtracted, and the output says so" \
	"(lambda d: d['read_overhead_subtracted'] is False and
	ev(d['lcores'][0], 'task-clock')['read_overhead'] == 0 and
	ev(d['lcores'][0], 'task-clock')['value'] > 0)(docs(out)[0])"

echo "=== CSV"
run csv "$two_workers" -e "task-clock,no-such-event,page-faults" --csv
expect csv "CSV parses: one table (one header, no empty line), a row per lcore (1, 2, total) and event" \
	"rc == 0 and '\\n\\n' not in out and out.count('time_s,') == 1 and [(r['lcore'], r['event']) for r in rows(out)] ==
	[(l, e) for l in ['1', '2', 'total']
	for e in ['task-clock', 'no-such-event', 'page-faults']]"
expect csv "CSV values: task-clock integers in ns, <not supported> a status with a reason" \
	"all(int(r['value']) > 0 and r['unit'] == 'ns' for r in sel(rows(out), 'task-clock'))
	and all(r['status'] == 'not supported' and r['value'] == '' and r['reason'] != ''
	for r in sel(rows(out), 'no-such-event'))"
# Short enough that one lcore ends before the other runs (within one
# time slice): the total's elapsed time is their span, not the longest.
run turns "$two_workers" -e task-clock --csv --iterations 100000
expect turns "two lcores taking turns on one CPU: the total uses at most 1.05 CPUs (it said 1.93)" \
	"0 < float(sel(rows(out), 'task-clock', ['total'])[0]['ratio']) <= 1.05"
# Three lcores, two taking turns on one CPU, in rounds: the total's
# elapsed time is never less than an lcore's (it took out the read
# overhead of the lcore with the most reads: 94.0 ms for an lcore's 94.5).
for k in 1 2 3; do
	run "span$k" "--lcores=0@0,1@0,2@$cpu" -e task-clock,msr/tsc/ --iterations 10000 \
		--timeout 100 --csv
done
expect span1 "rounds on 3 lcores, 2 on one CPU, 3 runs: the total's elapsed time at least each lcore's" \
	"all((lambda rs: int(sel(rs, 'task-clock', ['total'])[0]['elapsed_ns']) >=
	max(int(r['elapsed_ns']) for r in sel(rs, 'task-clock', ['1', '2'])))(rows(open(
	os.path.join(os.path.dirname(sys.argv[2]), 'span%d.out' % k)).read())) for k in (1, 2, 3))"
expect csv "CSV total is the sum of the lcores" \
	"sum(int(r['value']) for r in sel(rows(out), 'task-clock', ['1', '2'])) ==
	int(sel(rows(out), 'task-clock', ['total'])[0]['value'])"
expect csv "CSV, one table: after the event rows, a row per stage, lcore (1, 2, total) and counted event" \
	"[(r['stage'], r['lcore'], r['event']) for r in stage_rows(out)] ==
	[(s, l, e) for l in ['1', '2', 'total'] for s in ['loop', 'snapshot']
	for e in ['task-clock', 'page-faults']]"
expect csv "CSV stages: per lcore 1 loop call of all iterations, 2 snapshots; the total the sum" \
	"(lambda st, it: all(int(r['misuse']) == 0 and
	(int(r['calls']), int(r['items'])) == ((1, int(it[r['lcore']])) if r['stage'] == 'loop'
	else (2, 2)) for r in st if r['lcore'] != 'total') and
	all(int(t['value']) == sum(int(r['value']) for r in st if r['lcore'] != 'total' and
	(r['stage'], r['event']) == (t['stage'], t['event'])) and
	int(t['calls']) == (2 if t['stage'] == 'loop' else 4)
	for t in st if t['lcore'] == 'total'))(stage_rows(out),
	{r['lcore']: r['iterations'] for r in sel(rows(out), 'task-clock', ['1', '2'])})"
expect csv "CSV inexact: 0 or 1 on each stage row (the total's 1 where an lcore's is), empty on the event rows" \
	"(lambda st: all(r['inexact'] in ('0', '1') for r in st) and
	all(r['inexact'] == '' for r in rows(out)) and
	all(t['inexact'] == str(int(any(r['inexact'] == '1' for r in st if r['lcore'] != 'total'
	and (r['stage'], r['event']) == (t['stage'], t['event'])))) for t in st
	if t['lcore'] == 'total'))(stage_rows(out))"

echo "=== JSON"
run json "$two_workers" -e "$sw" --json
expect json "JSON parses (python3 -m json.tool) into one document" \
	"rc == 0 and len(lines(out)) == 1 and json.loads(out)['interval'] == 0"
check "python3 -m json.tool accepts the JSON output" python3 -m json.tool "$tmp/json.out"
expect json "JSON: two lcores, totals summed, ratios named" \
	"(lambda d: [l['lcore'] for l in d['lcores']] == [1, 2] and d['total']['lcores'] == 2 and
	ev(d['total'], 'task-clock')['value'] ==
	sum(ev(l, 'task-clock')['value'] for l in d['lcores'])
	and ev(d['total'], 'task-clock')['ratio_unit'] == 'CPUs utilized')(json.loads(out))"
expect json "JSON stages: per lcore loop calls = rounds, items = iterations, snapshots = rounds + 1; totals summed" \
	"(lambda d: [(s['stage'], s['lcore']) for s in d['stages']] ==
	[('loop', 1), ('snapshot', 1), ('loop', 2), ('snapshot', 2)] and
	all((s['calls'], s['items']) == ((l['rounds'], l['iterations']) if s['stage'] == 'loop'
	else (l['rounds'] + 1, l['rounds'] + 1)) and l['rounds'] == 1 and s['misuse'] == 0
	for l in d['lcores'] for s in d['stages'] if s['lcore'] == l['lcore']) and
	[(t['stage'], t['lcores'], t['calls']) for t in d['stage_totals']] ==
	[('loop', 2, 2), ('snapshot', 2, 4)] and
	all(ev(t, 'task-clock')['value'] == sum(ev(s, 'task-clock')['value']
	for s in d['stages'] if s['stage'] == t['stage']) for t in d['stage_totals']))(
	json.loads(out))"
expect json "JSON stages: each event's inexact a boolean" \
	"all(isinstance(e['inexact'], bool) for s in json.loads(out)['stages'] +
	json.loads(out)['stage_totals'] for e in s['events'])"

echo "=== interval mode"
run itable "$one_worker" -e "$sw" --interval 200 --duration 2
expect itable "table: one line per interval (10 for 2 s every 200 ms), perf's stamps (0.200xxxxxx: 9 decimals) from 0.2 to 2.0" \
	"rc == 0 and (lambda t: len(t) == 10 and all(0.2 * i <= float(x) < 0.2 * i + 0.1
	for i, x in enumerate(t, 1)))([l[:16].strip() for l in lines(out)
	if re.match(r'^ {5}\d\.\d{9}\s+1\s', l)])"
run icsv "$one_worker" -I 250 --duration 1 -e task-clock,page-faults --csv
expect icsv "CSV: 4 intervals x (lcore 1 + total) x 2 events, task-clock counted in each" \
	"rc == 0 and len(rows(out)) == 16 and sorted({r['interval'] for r in rows(out)}) ==
	['1', '2', '3', '4'] and all(int(r['value']) > 0 for r in sel(rows(out), 'task-clock'))"
run ijson "$one_worker" -e task-clock -I 100 --duration 1 --json
expect ijson "JSON lines: one object per interval (10), time_s increasing" \
	"rc == 0 and [d['interval'] for d in docs(out)] == list(range(1, 11)) and
	all(a['time_s'] < b['time_s'] for a, b in zip(docs(out), docs(out)[1:]))"
# Stage figures are read a little after the snapshot of the interval, while
# the lcore runs on: calls may be some rounds ahead (more on a loaded VM,
# where the main lcore waits for a CPU between the two).
expect ijson "JSON lines: stages per interval, loop items = calls x 10,000, calls close to rounds" \
	"all(s['items'] == s['calls'] * (10000 if s['stage'] == 'loop' else 1) and
	s['calls'] > 0 and s['misuse'] == 0 and
	abs(s['calls'] - d['lcores'][0]['rounds']) <= max(10, d['lcores'][0]['rounds'] // 4)
	for d in docs(out) for s in d['stages'])"
# The telemetry stage's own command line, shortened.
run telem "$one_worker" -e task-clock,page-faults,context-switches --interval 1000 --duration 2
expect telem "the telemetry stage's options (--interval 1000 --duration 2): 2 lines" \
	"rc == 0 and len([l for l in lines(out) if re.match(r'^\s+[12]\.\d{9}\s+1\s', l)]) == 2"
run dur "$one_worker" -e task-clock --duration 1 --json
# The rounds' wall time is what elapsed_ns leaves after the read overhead
# (the stage boundaries included: about a quarter of it on the read() path).
expect dur "--duration alone: one report over about 1 s of rounds (elapsed + read overhead)" \
	"rc == 0 and len(docs(out)) == 1 and (lambda l: 0.9e9 < l['elapsed_ns'] +
	l['rounds'] * l['read_overhead_ns'] < 5e9 and l['elapsed_ns'] > 0)(docs(out)[0]['lcores'][0])"
# --timeout MS (perf stat's): the rounds stop after MS ms and the counts so
# far are reported. With --duration 60 beside it, a tool that ignored the
# timeout would run 60 s: the run must end within 20 s (EAL start included).
t0=$(date +%s%N)
run tmo "$one_worker" -e task-clock --timeout 500 --duration 60 --json
ms=$((($(date +%s%N) - t0) / 1000000))
expect tmo "--timeout 500 --duration 60: stops in time (${ms} ms, under 20000), one report of about 0.5 s of rounds with counts" \
	"rc == 0 and $ms < 20000 and len(docs(out)) == 1 and (lambda l: l['rounds'] > 1 and
	0.45e9 < l['elapsed_ns'] + l['rounds'] * l['read_overhead_ns'] < 5e9 and
	ev(l, 'task-clock')['value'] > 0)(docs(out)[0]['lcores'][0])"
# shellcheck disable=SC2086
"$tool" "$one_worker" $eal -- -e task-clock -I 100 >"$tmp/sig.out" 2>"$tmp/sig.err" &
pid=$!
# Three interval lines (at most 15 s), then SIGTERM.
for _ in $(seq 150); do
	[ "$(matching '^ +[0-9]+\.[0-9]{9} +1 ' "$tmp/sig.out")" -ge 3 ] && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
expect sig "--interval without --duration runs until SIGTERM, then exits 0" \
	"rc == 0 and len([l for l in lines(out) if re.match(r'^\s+\d+\.\d{9}\s+1\s', l)]) >= 3"
# cut NAME SIGNAL PATTERN ARGS...: the tool with -I 500 and ARGS in the
# background; once 2 lines of its output match PATTERN (15 s at most),
# SIGNAL halfway through the next interval; its status in rc.
cut()
{
	local name=$1 sig=$2 pattern=$3

	shift 3
	# shellcheck disable=SC2086
	"$tool" "$one_worker" $eal -- -e task-clock -I 500 "$@" >"$tmp/$name.out" \
		2>"$tmp/$name.err" &
	pid=$!
	for _ in $(seq 300); do
		[ "$(matching "$pattern" "$tmp/$name.out")" -ge 2 ] && break
		sleep 0.05
	done
	sleep 0.25
	kill "-$sig" $pid
	wait $pid
	rc=$?
}
# perf stat -I prints the interval a signal cuts short: a last line, its
# stamp before the end the interval would have had.
cut cutx INT '^ +[0-9]+\.[0-9]{9},' -x ,
expect cutx "-x , -I 500, SIGINT halfway through an interval: exit 0, that interval's line last, stamped before its end" \
	"(lambda t: rc == 0 and len(t) >= 3 and
	0.5 * (len(t) - 1) < t[-1] < 0.5 * len(t))([r['interval'] for r in perf_csv.parse(out)])"
cut cutj TERM '"interval":' --json
expect cutj "--json -I 500, SIGTERM halfway through an interval: exit 0, that interval's object last (interval n, time_s before n x 0.5)" \
	"(lambda d: rc == 0 and len(d) >= 3 and [x['interval'] for x in d] ==
	list(range(1, len(d) + 1)) and 0.5 * (len(d) - 1) < d[-1]['time_s'] < 0.5 * len(d) and
	ev(d[-1]['lcores'][0], 'task-clock')['value'] > 0)(docs(out))"
# A round too long to wait for (--timeout, rounds of many seconds): the
# first SIGINT ends the rounds after this one, a second one the run, at
# once (it waited for the round: an outside tester needed SIGKILL).
# shellcheck disable=SC2086
"$tool" "$one_worker" $eal -- -e task-clock --timeout 600000 --iterations 50000000000 \
	>"$tmp/twice.out" 2>"$tmp/twice.err" &
pid=$!
sleep 1
kill -INT $pid
sleep 0.5
kill -INT $pid
for _ in $(seq 100); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
expect twice "a second SIGINT in a round of many seconds ends the run within 5 s (status 130)" \
	"rc == 130"
# A pipe closed by its reader: a write error said (SIGPIPE ended the tool
# with no word, status 141).
# shellcheck disable=SC2086
"$tool" "$one_worker" $eal -- -e task-clock -I 100 --duration 3 2>"$tmp/pipe.err" |
	head -n 2 >"$tmp/pipe.out"
rc=${PIPESTATUS[0]}
expect pipe "a pipe closed by its reader: status 1, 'stdout: Broken pipe' on stderr" \
	"rc == 1 and 'stdout: Broken pipe' in err"
run oneL "--lcores=0@0" -e task-clock -I 100 --duration 1
expect oneL "--interval with no worker lcore: exit 1 and why" \
	"rc == 1 and 'need a worker lcore' in err"

echo "=== options"
run help "$one_worker" -h
expect help "-h: usage on stdout, exit 0, perf stat's letters with their long names, the tool's own options long only" \
	"rc == 0 and all(re.search(r'^  -%s, --%s\\b' % (s, l), out, re.M) for s, l in
	[('e', 'events'), ('x', 'field-separator'), ('j', 'json-output'), ('I', 'interval'),
	('r', 'repeat'), ('o', 'output'), ('A', 'no-aggr'), ('a', 'all-cpus'), ('h', 'help')])
	and all(re.search(r'^  --%s\\b' % l, out, re.M) for l in
	['iterations', 'workload', 'duration', 'csv', 'json', 'raw', 'list', 'version'])"
expect help "-h: --timeout MS among perf stat's options, with how it combines" \
	"rc == 0 and re.search(r'^ +--timeout MS +stop after MS milliseconds', out, re.M) and 'not with -I' in out"
# --help before "--", among the EAL options: the tool's usage, then EAL's.
run_to help0 60 "$tool" --help
expect help0 "--help without --: the tool's usage first, then EAL's, exit 0" \
	"rc == 0 and out.startswith('Usage: dpdk-test-pmu [EAL options] -- [options]') and
	'--iterations N' in out and 'EAL common options' in out"
run_to version 60 "$tool" --version
expect version "--version: the tool's version (VERSION) and DPDK's, exit 0" \
	"rc == 0 and out.startswith('dpdk-test-pmu (rte_pmu) $(cat VERSION), DPDK ')"
run repeat "$two_workers" -e task-clock --iterations 100000 -r 3
expect repeat "-r 3: 3 runs, each count with its spread as perf stat prints it (+- x.xx%)" \
	"rc == 0 and '(3 runs)' in out and
	len(re.findall(r'msec task-clock .*\\( \\+- +\\d+\\.\\d\\d% \\)$', out, re.M)) == 3"
run repeatj "$one_worker" -e task-clock --iterations 100000 -r 3 --json -o "$tmp/repeat.json"
cp "$tmp/repeat.json" "$tmp/repeatj.out" 2>/dev/null
expect repeatj "-r 3 --json -o FILE: JSON in FILE, nothing on stdout, runs 3 and spread_pct" \
	"rc == 0 and (lambda d: d['runs'] == 3 and
	ev(d['lcores'][0], 'task-clock')['spread_pct'] >= 0)(docs(out)[0])"
# A report that cannot be written is an error in every format, as for an
# -o FILE that does not open: exit 1, and why on stderr (the report went
# nowhere, and said so nowhere, before). /dev/full takes no byte; where
# /proc/version opens for writing (root), each write fails with EIO.
enospc="dpdk-test-pmu: -o /dev/full: $(python3 -c 'import os; print(os.strerror(28))')"
for f in table --csv --json "-x ," -j; do
	# shellcheck disable=SC2086
	run full "$one_worker" -e task-clock -o /dev/full ${f#table}
	WANT=$enospc expect full "-o /dev/full ($f): exit 1, \"$enospc\" on stderr" \
		"rc == 1 and out == '' and os.environ['WANT'] + '\\n' in err"
done
# shellcheck disable=SC2086
"$tool" "$one_worker" $eal -- -e task-clock --csv >/dev/full 2>"$tmp/full.err"
rc=$?
: >"$tmp/full.out"
expect full "--csv >/dev/full: exit 1, \"dpdk-test-pmu: stdout: \" and why on stderr" \
	"rc == 1 and 'dpdk-test-pmu: stdout: ' + os.strerror(28) + '\\n' in err"
# Started with stdout closed, EAL's shared config on (no --no-shconf): its
# file took fd 1 and got the report (the tool hung in EAL's lock, timeout
# ended it, status 124).
# shellcheck disable=SC2086
timeout 60 "$tool" "$one_worker" ${eal/--no-shconf/} --file-prefix=ci-tool-shconf-$$ -- \
	-e task-clock --iterations 1000 >&- 2>"$tmp/full.err"
rc=$?
rm -rf "$DPDK_RUNDIR/ci-tool-shconf-$$"
: >"$tmp/full.out"
expect full "stdout closed: exit 1, \"dpdk-test-pmu: stdout: \" and why on stderr" \
	"rc == 1 and 'dpdk-test-pmu: stdout: ' + os.strerror(9) + '\\n' in err"
run full "$one_worker" -e task-clock -j -o /proc/version
expect full "-j -o /proc/version: exit 1, \"dpdk-test-pmu: -o /proc/version: \" and why on stderr" \
	"rc == 1 and re.search(r'^dpdk-test-pmu: -o /proc/version: \\S', err, re.M)"
run all "$two_workers" -e task-clock -A --iterations 1000
expect all "-A (--no-aggr): the table's record per lcore, no total" \
	"rc == 0 and 'Counts for lcore 1' in out and 'Counts for lcore 2' in out and
	'Counts for total' not in out"

echo "=== perf stat's formats: -x SEP, -j, -A, -I with -r"
# perf_csv.parse() (devtools/perf_csv.py) reads perf stat -x's lines: the
# tool's are read as perf's.
pfields="['counter-value', 'unit', 'event', 'event-runtime', 'pcnt-running', 'metric-value', 'metric-unit']"
run pcsv "$two_workers" -e "task-clock,no-such-event,page-faults" -x ,
expect pcsv "-x ,: no header, a line per event of the total over lcores 1 and 2: perf's 7 fields, then net-of-read-cost" \
	"rc == 0 and [(r['who'], r['event'], r['more']) for r in perf_csv.parse(out)] ==
	[(None, e, ['net-of-read-cost']) for e in ['task-clock', 'no-such-event', 'page-faults']]
	and all(len(l.split(',')) == 8 for l in lines(out))"
expect pcsv "-x ,: task-clock in msec (2 decimals; over run-time, the CPUs utilized), <not supported> as perf writes it, page-faults an integer with a rate per second" \
	"(lambda t, n, p: re.match(r'^\d+\.\d\d,msec,task-clock,', lines(out)[0]) and
	t['metric_unit'] == 'CPUs utilized' and 0 < t['metric'] <= 2.1 and t['running'] == 100.0 and
	abs(t['value'] * 1e6 / t['runtime'] - t['metric']) < 0.01 + 0.01 * t['metric'] and
	(n['counted'], n['unit'], n['runtime'], n['metric'], n['metric_unit']) ==
	('<not supported>', '', 0, None, '') and
	p['unit'] == '' and re.match(r'^\d+$', p['counted']) and
	re.match(r'^[KMG]?/sec$', p['metric_unit']))(*perf_csv.parse(out))"
run pcsvA "$two_workers" -e task-clock,page-faults -x ';' -A --raw
expect pcsvA "-x ';' -A --raw: ';' between fields, a line per lcore (lcore1, lcore2) and event, no total, each saying raw" \
	"rc == 0 and [(r['who'], r['event'], r['more']) for r in perf_csv.parse(out, ';')] ==
	[(w, e, ['raw']) for w in ['lcore1', 'lcore2'] for e in ['task-clock', 'page-faults']]
	and all(len(l.split(';')) == 9 for l in lines(out))"
run pcsvI "$one_worker" -e task-clock -x , -I 200 --duration 1
expect pcsvI "-x , -I 200 --duration 1: 5 lines, perf's stamp first (0.200xxxxxx: 6 wide, 9 decimals)" \
	"rc == 0 and len(lines(out)) == 5 and
	all(re.match(r'^ {5}\d\.\d{9},\d+\.\d\d,msec,task-clock,', l) for l in lines(out)) and
	all(0.2 * i <= r['interval'] < 0.2 * i + 0.15 for i, r in enumerate(perf_csv.parse(out), 1))"
run pIr "$one_worker" -e task-clock -x , -I 250 --duration 1 -r 2
expect pIr "-I 250 -r 2 (perf stat runs it): each run's 4 intervals in turn, the second's stamps from 0.25 again" \
	"rc == 0 and [round(r['interval'] * 4) for r in perf_csv.parse(out)] == [1, 2, 3, 4] * 2
	and all(r['value'] > 0 for r in perf_csv.parse(out))"
run pjson "$two_workers" -e task-clock,no-such-event,page-faults -j
expect pjson "-j: JSON lines, a flat object per event of the total, perf's keys in perf's order, then net-of-read-cost true; counter-value a string" \
	"rc == 0 and [list(d) for d in docs(out)] == [$pfields + ['net-of-read-cost']] * 3 and
	[d['event'] for d in docs(out)] == ['task-clock', 'no-such-event', 'page-faults'] and
	all(isinstance(d['counter-value'], str) and d['net-of-read-cost'] is True for d in docs(out))
	and docs(out)[1]['counter-value'] == '<not supported>' and docs(out)[0]['unit'] == 'msec'
	and float(docs(out)[0]['counter-value']) > 0"
run pjsonI "$one_worker" -e task-clock -j -A -I 250 --duration 1 --raw -r 2
expect pjsonI "-j -A -I 250 -r 2 --raw: interval, then lcore, then perf's keys (variance after event, as with -r); net-of-read-cost false; 2 runs of 4" \
	"rc == 0 and [list(d) for d in docs(out)] == [['interval', 'lcore'] + ${pfields}[:3] +
	['variance'] + ${pfields}[3:] + ['net-of-read-cost']] * 8 and
	all(d['lcore'] == '1' and d['net-of-read-cost'] is False for d in docs(out)) and
	[round(d['interval'] * 4) for d in docs(out)] == [1, 2, 3, 4] * 2"
run pjsonr "$one_worker" -e task-clock -j -r 3 --iterations 100000
expect pjsonr "-j -r 3: perf's variance key after event, as perf stat -j -r gives it" \
	"rc == 0 and list(docs(out)[0])[:4] == ['counter-value', 'unit', 'event', 'variance'] and
	docs(out)[0]['variance'] >= 0"
# perf stat -r keeps the variance field on every line: 0.00 on those of
# <not supported> (perf 6.1: <not supported>,,cycles,0.00%,0,100.00,,),
# and on each line of -I -r.
run pvar "$one_worker" -e task-clock,no-such-event -x , -r 2 --iterations 100000
expect pvar "-x , -r 2: the variance on every line, 0.00% for <not supported>: 9 fields each" \
	"rc == 0 and [(r['event'], r['variance'] is not None) for r in perf_csv.parse(out)] ==
	[('task-clock', True), ('no-such-event', True)] and
	perf_csv.parse(out)[1]['variance'] == 0 and all(len(l.split(',')) == 9 for l in lines(out))"
run pvarj "$one_worker" -e task-clock,no-such-event -j -r 2 --iterations 100000
expect pvarj "-j -r 2: the same keys on every line, variance after event (0.00 for <not supported>)" \
	"rc == 0 and [list(d) for d in docs(out)] == [${pfields}[:3] + ['variance'] + ${pfields}[3:] +
	['net-of-read-cost']] * 2 and docs(out)[1]['variance'] == 0"
run pvarI "$one_worker" -e task-clock,no-such-event -x , -I 250 --duration 1 -r 2
expect pvarI "-x , -I 250 -r 2: 2 runs of 4 intervals, every line with its variance: 10 fields each" \
	"rc == 0 and [r['event'] for r in perf_csv.parse(out)] ==
	['task-clock', 'no-such-event'] * 8 and
	all(r['variance'] is not None for r in perf_csv.parse(out)) and
	all(len(l.split(',')) == 10 for l in lines(out))"

echo "=== perf stat -x, beside the tool: the same events, the same process"
# perf stat counts the whole process (every thread: EAL's start, the main
# lcore, which spins in rte_eal_mp_wait_lcore() without --duration and
# sleeps with it); the tool counts its worker lcore's rounds, a part of
# that. What is comparable, and checked:
# - each of the tool's counts is at most perf's, in every run;
# - with --duration 2 (the main lcore asleep), the worker's busy rounds
#   are most of the process's task-clock: over half of it (85 % on an idle
#   2-CPU VM, 83 % under load; --raw, as perf subtracts nothing);
# - the memory workload's first pass over its 8 MiB takes a fault per 4 KiB
#   page inside the tool's one round (2047 or so): perf's count for it
#   less perf's for the loop workload (the rest of the process the same)
#   is the tool's within 10 % or 64 faults.
# One parser, perf_csv.parse(), reads perf's output and the tool's.
if ! command -v perf >/dev/null; then
	skip "perf stat beside the tool: no perf (package linux-perf, group tool of packages.list)"
elif ! perf stat -x, -o "$tmp/probe.csv" -e "$sw" true 2>"$tmp/probe.err"; then
	skip "perf stat beside the tool: perf stat cannot count here: $(head -c 200 "$tmp/probe.err")"
else
	prc=0
	for w in "memory --workload memory" "loop --workload loop" \
			"busy --workload loop --duration 2 --raw"; do
		# shellcheck disable=SC2086
		run_to "perf-${w%% *}" 60 perf stat -x, -o "$tmp/perf-${w%% *}.perf" -e "$sw" -- \
			"$tool" "$one_worker" $eal -- -e "$sw" -x , ${w#* }
		prc=$((prc | rc))
	done
	rc=$prc
	runs="['memory', 'loop', 'busy']"
	both="(lambda w: tuple(perf_csv.parse(open('$tmp/perf-%s.%s' % (w, x)).read())
	for x in ('perf', 'out')))"
	bym="(lambda w: tuple(perf_csv.by_event(p) for p in $both(w)))"
	expect perf-busy "perf stat -x, and the tool -x , (3 runs): all exit 0, one parser reads both: the same events in the same order, units (msec) and metric units (CPUs utilized, /sec)" \
		"rc == 0 and all([(r['event'], r['unit'], r['metric_unit'][-4:]) for r in P] ==
		[(r['event'], r['unit'], r['metric_unit'][-4:]) for r in T] and T[0]['unit'] == 'msec'
		for w in $runs for P, T in [$both(w)])"
	expect perf-busy "each of the tool's counts at most perf's, in each run (busy: --raw, the others net of the read cost)" \
		"all(T[e] <= P[e] for w in $runs for P, T in [$bym(w)] for e in P) and
		[$both(w)[1][0]['more'] for w in $runs] == [['net-of-read-cost']] * 2 + [['raw']]"
	expect perf-busy "task-clock with --duration 2: the worker's rounds over half of perf's process" \
		"(lambda P, T: T['task-clock'] > 0.5 * P['task-clock'])(*$bym('busy'))"
	expect perf-busy "page-faults: perf's memory minus loop within 10 % or 64 of the tool's memory minus loop (over 1000)" \
		"(lambda m, l: m[1]['page-faults'] - l[1]['page-faults'] > 1000 and
		abs((m[0]['page-faults'] - l[0]['page-faults']) - (m[1]['page-faults'] -
		l[1]['page-faults'])) <= max(64, 0.1 * (m[1]['page-faults'] - l[1]['page-faults'])))(
		$bym('memory'), $bym('loop'))"
	py perf-busy "'perf/tool: ' + '; '.join(w + ' ' + ', '.join('%s %g/%g' % (e, P[e], T[e])
		for e in P) for w in $runs for P, T in [$bym(w)])" print
	# perf stat -j's keys, and the tool's, once and with -I.
	perf stat -j -o "$tmp/pj.perf" -e "$sw" true 2>/dev/null
	perf stat -j -I 100 -o "$tmp/pjI.perf" -e task-clock sleep 0.25 2>/dev/null
	run pj "$one_worker" -e "$sw" -j
	run pjI "$one_worker" -e task-clock -j -I 100 --duration 1
	expect pj "-j: perf stat -j's keys, in its order (with -I too), then net-of-read-cost" \
		"all([list(d) + ['net-of-read-cost'] for d in docs(open('$tmp/%s.perf' % n).read())][0] ==
		list(docs(open('$tmp/%s.out' % n).read())[0]) for n in ['pj', 'pjI']) and
		list(docs(open('$tmp/pjI.perf').read())[0])[0] == 'interval'"
fi
run list "$one_worker" --list
expect list "--list lists the events, task-clock opening through read()" \
	"rc == 0 and re.search(r'^task-clock\s+software\s+read\(\)\s+opens$', out, re.M)"
. "$REPO/devtools/ci-tool-options.sh"

[ "${TOOL_PART:-all}" = host ] || guest_checks
finish
