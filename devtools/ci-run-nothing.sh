# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash disable=SC2154 # the variables are devtools/ci-run.sh's
#
# What is not a forwarding run, sourced by devtools/ci-run.sh: the
# program's signal dispositions; programs that measure nothing, their -o
# and --json files this run's, not an earlier one's; programs that cannot
# be started (127, 126); --interval ending mid-interval (the last interval
# printed); refusals before the program starts; -o and --json files that
# cannot be written at exit.

echo "=== run: the program's signal dispositions are its parent's"
# Python ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored
# across exec: the program got them ignored (a write to a closed pipe no
# longer ended it: 'yes | head -1' exited 1, not 141).
want=$(env --default-signal=PIPE,XFSZ grep SigIgn /proc/self/status)
got=$(env --default-signal=PIPE,XFSZ "$run" -- grep SigIgn /proc/self/status 2>/dev/null)
[ "$got" = "$want" ] && ok "the program's ignored signals are its parent's ($got)" ||
	fail "the program's ignored signals: '$got', its parent's '$want'"

echo "=== run: a program that is not a DPDK program (bash: dash ends with _exit())"
out=$("$run" -- bash -c 'echo out; exit 3' 2>"$tmp/sh.err")
st=$?
if [ "$st" -eq 3 ] && [ "$out" = out ] && grep -q '^dpdk-pmu-run: .*nothing measured' "$tmp/sh.err"; then
	ok "bash: exit status 3 and stdout kept, one line on stderr: $(cat "$tmp/sh.err")"
else
	fail "bash: exit status $st, stdout '$out', stderr: $(cat "$tmp/sh.err")"
fi

# A script's commands and its forks say nothing; the script says it once.
"$run" -- bash -c '/bin/true; /bin/true x | cat; exit 3' 2>"$tmp/sh2.err"
st=$?
[ "$st" -eq 3 ] && [ "$(grep -c 'nothing measured' "$tmp/sh2.err")" -eq 1 ] &&
	grep -q '^dpdk-pmu-run: bash did not call rte_eal_init()' "$tmp/sh2.err" &&
	ok "bash running true, true | cat: one line, bash's: $(cat "$tmp/sh2.err")" ||
	fail "bash running true, true | cat: status $st, stderr: $(cat "$tmp/sh2.err")"
# -o a FIFO no one reads: neither dpdk-pmu-run nor the program waits for
# a reader (perf stat -o waits at the start); the program's line, its
# rte_eal_init() failing, cannot go there, and says so.
mkfifo "$tmp/o.fifo"
timeout 20 "$run" -o "$tmp/o.fifo" -- "$testpmd" --no-such-eal-option --no-huge --no-pci \
	-m 256 --file-prefix="$prefix-fifo" >/dev/null 2>"$tmp/fifo.err"
st=$?
[ "$st" -ne 124 ] && grep -q "^dpdk-pmu-run: -o .*o.fifo: No such device or address" "$tmp/fifo.err" &&
	ok "-o a FIFO no one reads: status $st, said: $(grep -- '-o ' "$tmp/fifo.err")" ||
	fail "-o a FIFO no one reads: status $st (124: it waited), stderr:" \
		"$(grep '^dpdk-pmu-run' "$tmp/fifo.err")"

echo "=== run: programs that measure nothing say so in one line"
# coreutils' true with an argument closes stderr at exit (close_stdout()).
"$run" -- /bin/true x 2>"$tmp/true.err"
grep -q '^dpdk-pmu-run: .*nothing measured$' "$tmp/true.err" &&
	ok "/bin/true x: $(cat "$tmp/true.err")" ||
	fail "/bin/true x: no 'nothing measured' line: $(cat "$tmp/true.err")"
own=$build/examples/dpdk-pmu-stage
if [ -x "$own" ]; then
	"$run" -o "$tmp/own.table" --json "$tmp/own.json" -- "$own" -l 0 --no-huge --no-pci \
		-m 256 --file-prefix="$prefix-own" >"$tmp/own.out" 2>"$tmp/own.err"
	st=$?
	if [ "$st" -eq 0 ] && grep -q '^dpdk-pmu-run: .*steps aside: nothing measured$' \
			"$tmp/own.err" && { [ -d /sys/bus/event_source/devices/cpu ] ||
			grep -q '^PMU: no core PMU' "$tmp/own.err"; }; then
		ok "dpdk-pmu-stage (uses rte_pmu itself): status 0, its own PMU lines kept," \
			"said: $(grep 'steps aside' "$tmp/own.err")"
	else
		fail "dpdk-pmu-stage: status $st; stderr:"
		grep -v '^EAL' "$tmp/own.err" | head -8 | sed 's/^/    | /'
	fi
fi

echo "=== run: -o and --json of a run that measures nothing: this run's, not an earlier one's"
# nothing NAME [dpdk-pmu-run OPTIONS] -- PROGRAM...: the files first hold
# an earlier run's figures; after dpdk-pmu-run -o --json (under WRAP, an
# array), the line saying why nothing was measured and a JSON file with
# no stage (perf stat -o empties its file at the start).
WRAP=()
nothing() {
	local name=$1
	shift
	echo "  rx-0-0   125   4000   32.00  task-clock ns  (an earlier run's)" >"$tmp/$name.table"
	echo '{"events": ["task-clock"], "sampling": 16, "stages": [{"lcore": 1,' \
		'"name": "rx-0-0", "calls": 125}], "lcores": []}' >"$tmp/$name.json"
	"${WRAP[@]}" "$run" -o "$tmp/$name.table" --json "$tmp/$name.json" "$@" >/dev/null \
		2>"$tmp/$name.err"
	py_check 60 ci_run_check.py "$tmp/check.out" nothing "$name" "$tmp/$name.table" \
		"$tmp/$name.json"
}
nothing not-dpdk -- bash -c 'exit 0'
nothing eal-fails -- "$testpmd" --no-such-eal-option --no-huge --no-pci -m 256 \
	--file-prefix="$prefix-eal-fails"
nothing not-found -- "$tmp/no-such-program"
[ ! -x "$own" ] || nothing own -- "$own" -l 0 --no-huge --no-pci -m 256 \
	--file-prefix="$prefix-own2"
# rte_pmu_init() fails where no PMU is listed: an empty folder mounted over
# the kernel's list, in a mount namespace of its own (root).
if unshare -m true 2>/dev/null; then
	WRAP=(unshare -m bash -c 'mount -t tmpfs none /sys/bus/event_source/devices &&
		exec "$@"' sh)
	nothing pmu-init-fails -- "$testpmd" -l 0 --no-huge --no-pci -m 256 \
		--file-prefix="$prefix-pmu-init"
	WRAP=()
else
	skip "rte_pmu_init() failing: no mount namespace here (unshare -m, root)"
fi

echo "=== run: testpmd started by a shell that outlives it: the files hold testpmd's report"
# The shell loads the library too and ends last, without rte_eal_init():
# its 'nothing measured' must not replace the report of its child.
name=shell-child
# Then a testpmd that stops on a bad argument, no stage called: its line
# does not replace the first one's report either.
(sleep 2; echo) | "$run" -e task-clock -o "$tmp/$name.table" --json "$tmp/$name.json" -- \
	bash -c '"$@"; "$@" --no-such-testpmd-option; true' sh "$testpmd" -l 0-1 --no-huge \
	--no-pci -m 256 --file-prefix="$prefix-$name" --vdev net_null0 --vdev net_null1 -- \
	--total-num-mbufs=8192 --forward-mode=io --auto-start --stats-period 0 --no-flush-rx \
	>/dev/null 2>"$tmp/$name.err"
if grep -q '^  rx-0-0 ' "$tmp/$name.table" && grep -q '"name": "rx-0-0"' "$tmp/$name.json" &&
		! grep -q 'did not call' "$tmp/$name.err"; then
	ok "$name: -o and --json hold testpmd's stages (rx-0-0), not the shell's nothing, nor" \
		"a second testpmd's that stopped on a bad argument; no line of the shell's on stderr"
else
	grep '^dpdk-pmu-run: .*nothing measured' "$tmp/$name.err"
	fail "$name: -o holds '$(head -n2 "$tmp/$name.table" | tr '\n' ' ')'," \
		"--json '$(head -c 120 "$tmp/$name.json")'"
fi

# A command that is not a DPDK program, then a DPDK program whose
# rte_eal_init() fails: the file gives the second's reason.
name=reason
"$run" -o "$tmp/$name.table" -- bash -c '/bin/true; "$@"; true' sh "$testpmd" \
	--no-such-eal-option --no-huge --no-pci -m 256 --file-prefix="$prefix-$name" \
	>/dev/null 2>&1
line=$(cat "$tmp/$name.table")
[ "$line" = "the program's rte_eal_init() failed: nothing measured" ] &&
	ok "$name: /bin/true, then testpmd's rte_eal_init() failing: -o FILE gives that: $line" ||
	fail "$name: -o FILE holds '$line', not the failed rte_eal_init()'s line"
# A launcher that runs the DPDK program as its child and closes the
# descriptors it does not pass on (Python's subprocess): the program's
# line alone on stderr, not the launcher's 'did not call' after it.
name=launcher
"$run" -- "$python" -c 'import subprocess, sys; subprocess.run(sys.argv[1:])' "$testpmd" \
	--no-such-eal-option --no-huge --no-pci -m 256 --file-prefix="$prefix-$name" \
	>/dev/null 2>"$tmp/$name.err"
lines=$(grep '^dpdk-pmu-run: .*nothing measured' "$tmp/$name.err")
[ "$lines" = "dpdk-pmu-run: the program's rte_eal_init() failed: nothing measured" ] &&
	ok "$name: python's subprocess.run(testpmd): testpmd's line only: $lines" ||
	fail "$name: python's subprocess.run(testpmd): stderr lines: $lines"
# One that starts it in the background and exits at once (setsid -f):
# it ends before the program reaches rte_eal_init(), with a child running.
name=launcher-bg
"$run" -- setsid -f "$testpmd" --no-such-eal-option --no-huge --no-pci -m 256 \
	--file-prefix="$prefix-$name" >/dev/null 2>"$tmp/$name.err"
for ((i = 0; i < 100; i++)); do
	grep -q 'failed: nothing measured' "$tmp/$name.err" && break
	sleep 0.1
done
lines=$(grep '^dpdk-pmu-run: .*nothing measured' "$tmp/$name.err")
[ "$lines" = "dpdk-pmu-run: the program's rte_eal_init() failed: nothing measured" ] &&
	ok "$name: setsid -f testpmd: testpmd's line only: $lines" ||
	fail "$name: setsid -f testpmd: stderr lines: $lines"

# A program whose rte_eal_init() fails, and that panics then, as DPDK's
# helloworld does (rte_panic(): abort(), no exit handler): said all the
# same, on stderr and in the files (they stayed empty, no line).
name=panic
printf '%s\n' '#include <rte_eal.h>' '#include <rte_debug.h>' \
	'int main(int argc, char **argv) { if (rte_eal_init(argc, argv) < 0)' \
	'	rte_panic("Cannot init EAL\n"); return 0; }' >"$tmp/$name.c"
read -ra flags < <(pkg-config --cflags --libs libdpdk)
want="the program died of SIGABRT after its rte_eal_init() failed: nothing measured"
if cc -o "$tmp/$name" "$tmp/$name.c" "${flags[@]}" 2>"$tmp/$name.cc"; then
	"$run" -o "$tmp/$name.table" --json "$tmp/$name.json" -- "$tmp/$name" \
		--no-such-eal-option --no-huge --no-pci -m 256 --file-prefix="$prefix-$name" \
		>/dev/null 2>"$tmp/$name.err"
	rc=$?
	lines=$(grep '^dpdk-pmu-run: ' "$tmp/$name.err")
	if [ "$rc" -eq 134 ] && [ "$lines" = "dpdk-pmu-run: $want" ] &&
			[ "$(cat "$tmp/$name.table")" = "$want" ] &&
			grep -q '"stages": \[\]' "$tmp/$name.json"; then
		ok "$name: rte_eal_init() failed, then rte_panic(): status 134, '$lines', the same" \
			"in -o, an empty --json"
	else
		fail "$name: status $rc, stderr '$lines', -o '$(cat "$tmp/$name.table")'," \
			"--json '$(head -c 100 "$tmp/$name.json")'"
	fi
else
	fail "$name: cc: $(head -n 3 "$tmp/$name.cc")"
fi

echo "=== run: a program that calls rte_pmu_init() and rte_pmu_fini() after its port started"
# The table is taken at its rte_pmu_fini(), while the stages stand (it said
# 'no stage was called ...: nothing measured' at exit).
name=late-pmu
read -ra flags < <(PKG_CONFIG_PATH=$build/meson-uninstalled pkg-config --cflags --libs \
	libdpdk librte_pmu)
if cc -O1 -DALLOW_EXPERIMENTAL_API -o "$tmp/$name" devtools/ci-run-late-pmu.c "${flags[@]}" \
		2>"$tmp/$name.cc"; then
	LD_LIBRARY_PATH=$build/lib "$run" -e task-clock -- "$tmp/$name" -l 0 --no-huge --no-pci \
		-m 256 --vdev net_null0 --file-prefix="$prefix-$name" >"$tmp/$name.out" \
		2>"$tmp/$name.err"
	st=$?
	[ "$st" -eq 0 ] && grep -qE '^dpdk-pmu-run:   rx-0-0 +99 +3168 ' "$tmp/$name.err" &&
		! grep -q 'nothing measured' "$tmp/$name.err" &&
		ok "$name: its table at its rte_pmu_fini(): rx-0-0 with 99 calls (the 100th" \
			"polled last, never ended), $(cat "$tmp/$name.out")" ||
		fail "$name: status $st, stderr: $(grep '^dpdk-pmu-run' "$tmp/$name.err")"
else
	fail "$name: cc: $(tail -3 "$tmp/$name.cc")"
fi

echo "=== run: a program that cannot be started: 127 not found, 126 not executable (as env)"
: >"$tmp/not-executable"
for spec in 127:"$tmp/no-such-program" 127:no-such-program-on-path 126:"$tmp/not-executable" \
		126:"$tmp"; do
	"$run" -- "${spec#*:}" 2>"$tmp/start.err"
	st=$?
	[ "$st" -eq "${spec%%:*}" ] && ok "-- ${spec#*:}: status $st, $(cat "$tmp/start.err")" ||
		fail "-- ${spec#*:}: status $st, not ${spec%%:*}: $(cat "$tmp/start.err")"
done
# -I MS, as perf stat -I: --interval's short option.
out=$("$run" -I 250 -- bash -c 'echo "$RTE_PMU_RUN_INTERVAL"' 2>"$tmp/dash-i.err")
st=$?
[ "$st" -eq 0 ] && [ "$out" = 250 ] && ok "-I 250: the program runs with an interval of 250 ms" ||
	fail "-I 250: status $st, RTE_PMU_RUN_INTERVAL '$out': $(head -n2 "$tmp/dash-i.err")"

echo "=== run: --interval, the program ending mid-interval: the last interval printed, -o's header"
# testpmd over net_null ports, 3.5 s with tables every 2 s: a table at 2 s,
# then the 1.5 s the end cut short, before the final table (perf stat -I
# prints it); the intervals' calls add up to the final table's. The -o
# file starts with the line that says the figures are sampled.
# first_table NAME: wait (20 s at most) for the first interval table in
# $tmp/NAME.err.
first_table()
{
	for _ in $(seq 200); do
		grep -qE '^dpdk-pmu-run: +[0-9]+\.[0-9]{6} ' "$tmp/$1.err" && return
		sleep 0.1
	done
}
# null_testpmd NAME RUN-ARGS...: testpmd over two net_null ports under
# dpdk-pmu-run RUN-ARGS until a line on its stdin; $tmp/NAME.out and .err.
null_testpmd()
{
	local name=$1

	shift
	"$run" "$@" -- "$testpmd" -l 0-1 --no-huge --no-pci -m 256 --file-prefix="$prefix-$name" \
		--vdev net_null0 --vdev net_null1 -- --total-num-mbufs=8192 --forward-mode=io \
		--auto-start --stats-period 0 --no-flush-rx >"$tmp/$name.out" 2>"$tmp/$name.err"
}
name=interval-end
# The end 1.5 s after the first table (not from the start: testpmd may be
# slow to start on a busy machine).
: >"$tmp/$name.err"
(first_table "$name"; sleep 1.5; echo) |
	null_testpmd "$name" -e task-clock --interval 2000 -o "$tmp/$name.table"
py_check 60 ci_run_check.py "$tmp/check.out" interval-sum "$name" "$tmp/$name.err" \
	"$tmp/$name.table" 2000
line=$(head -n1 "$tmp/$name.table")
[ "$line" = "stages, sampling 1 in 16:" ] &&
	ok "$name: -o FILE starts with the header of stderr's table: $line" ||
	fail "$name: -o FILE's first line '$line', not 'stages, sampling 1 in 16:'"

echo "=== run: --interval with the program stopped for a while: no burst of intervals after"
# testpmd stopped (SIGSTOP) for 1.2 s under tables every 100 ms, then run
# on: the interval thread wakes with a dozen deadlines passed, and skips
# them (it printed a table for each, microseconds apart).
name=interval-stop
: >"$tmp/$name.err"
(first_table "$name"; sleep 0.5
pid=$(pgrep -f "file-prefix=$prefix-$name" | head -n1)
kill -STOP "$pid"; sleep 1.2; kill -CONT "$pid"; sleep 0.8; echo) |
	null_testpmd "$name" -e task-clock -I 100
py_check 60 ci_run_check.py "$tmp/check.out" interval-gaps "$name" "$tmp/$name.err" 100

echo "=== run: refusals before the program starts (perf's kind of message, status not 0)"
# refuse WHAT PATTERN ARGS...: dpdk-pmu-run ARGS -- bash writing a file:
# a status not 0, PATTERN on stderr, the file not written.
refuse() {
	local what=$1 pattern=$2 st
	shift 2
	rm -f "$tmp/ran"
	"$run" "$@" -- bash -c "echo ran >$tmp/ran" 2>"$tmp/refuse.err"
	st=$?
	if [ "$st" -ne 0 ] && [ ! -e "$tmp/ran" ] && grep -qE "$pattern" "$tmp/refuse.err"; then
		ok "$what: status $st, the program not run: $(grep -E "$pattern" "$tmp/refuse.err" | head -n1)"
	else
		fail "$what: status $st, program run: $([ -e "$tmp/ran" ] && echo yes || echo no);" \
			"stderr: $(head -n2 "$tmp/refuse.err")"
	fi
}
refuse "-e no-such-event" "^dpdk-pmu-run: event syntax error: 'no-such-event'" -e no-such-event
refuse "-e task-clock,no-such-event" "event syntax error: 'no-such-event'" \
	-e task-clock,no-such-event
if [ ! -d /sys/bus/event_source/devices/cpu ]; then
	refuse "-e cycles (no core PMU here)" "^dpdk-pmu-run: event 'cycles' cannot be counted" \
		-e cycles
fi
refuse "-o /nonexistent/t.txt" \
	"^dpdk-pmu-run: Cannot open -o file /nonexistent/t.txt: No such file or directory" \
	-o /nonexistent/t.txt
refuse "--json /nonexistent/t.json" \
	"^dpdk-pmu-run: Cannot open --json file /nonexistent/t.json: No such file" \
	--json /nonexistent/t.json
# Usage errors (argparse's status 2): values the preload would refuse,
# -e lists dpdk-test-pmu refuses.
refuse "--interval 3600001" "^dpdk-pmu-run: error: --interval: at most 3600000" \
	--interval 3600001
refuse "-o and --json one file" "^dpdk-pmu-run: error: -o and --json name the same file" \
	-o "$tmp/same.out" --json "$tmp/./same.out"
for list in "," "" task-clock,,page-faults; do
	refuse "-e '$list'" \
		"^dpdk-pmu-run: error: invalid --events '$list': want names separated by single commas" \
		-e "$list"
done
# perf's group syntax: one line that says so (it gave two "unknown event").
refuse "-e {task-clock,page-faults}" \
	"^dpdk-pmu-run: error: invalid --events '\\{task-clock,page-faults\\}': perf's event groups" \
	-e "{task-clock,page-faults}"
refuse "-e task-clock,task-clock" \
	"^dpdk-pmu-run: error: invalid --events 'task-clock,task-clock': 'task-clock' is given twice" \
	-e task-clock,task-clock
# Each -e adds its events, as perf stat's: a name twice across them too.
refuse "-e task-clock -e page-faults,task-clock" \
	"^dpdk-pmu-run: error: invalid --events 'task-clock,page-faults,task-clock': 'task-clock' is given twice" \
	-e task-clock -e page-faults,task-clock
refuse "-e task-clock -e page-faults,,context-switches" \
	"^dpdk-pmu-run: error: invalid --events 'page-faults,,context-switches': want names" \
	-e task-clock -e page-faults,,context-switches
# testpmd on one lcore ends after its rte_eal_init(): the JSON at exit
# names the events it counted. A comma inside a PMU's "/.../" is one of
# the event's terms, as perf reads -e.
terms=software/config=0x1,config1=0x0/
"$run" -e task-clock -e page-faults,$terms --json "$tmp/two-e.json" -- "$testpmd" \
	-l 0 --no-huge --no-pci -m 512 --file-prefix="$prefix-two-e" >/dev/null 2>"$tmp/two-e.err"
got=$("$python" -c 'import json, sys; print("|".join(json.load(open(sys.argv[1]))["events"]))' \
	"$tmp/two-e.json" 2>/dev/null)
if [ "$got" = "task-clock|page-faults|$terms" ]; then
	ok "-e task-clock -e page-faults,$terms: testpmd's --json counts $got"
else
	fail "-e task-clock -e page-faults,$terms: --json events '$got'; stderr:" \
		"$(grep '^dpdk-pmu-run' "$tmp/two-e.err" | head -3)"
fi
rm -f "$tmp/ran"
"$run" --events-optional -e task-clock,no-such-event -- bash -c "echo ran >$tmp/ran" \
	2>"$tmp/refuse.err"
st=$?
[ "$st" -eq 0 ] && [ -e "$tmp/ran" ] &&
	ok "--events-optional -e task-clock,no-such-event: the program runs (status 0)" ||
	fail "--events-optional: status $st, program run: $([ -e "$tmp/ran" ] && echo yes || echo no)"

echo "=== run: -o and --json files that cannot be written at exit (/dev/full)"
# testpmd on one lcore ends after its rte_eal_init() (no forwarding lcore):
# the report at exit, said where it cannot be written, the status as without.
"$testpmd" -l 0 --no-huge --no-pci -m 512 --file-prefix="$prefix-full" >/dev/null 2>&1
plain_rc=$?
"$run" -e task-clock -o /dev/full --json /dev/full -- "$testpmd" -l 0 --no-huge --no-pci -m 512 \
	--file-prefix="$prefix-full" >/dev/null 2>"$tmp/full.err"
st=$?
if [ "$st" -eq "$plain_rc" ] &&
		grep -q '^dpdk-pmu-run: -o /dev/full: No space left on device' "$tmp/full.err" &&
		grep -q '^dpdk-pmu-run: --json /dev/full: No space left on device' "$tmp/full.err"; then
	ok "-o /dev/full --json /dev/full: both failed writes said, status $st as without:" \
		"$(grep '^dpdk-pmu-run: -o' "$tmp/full.err")"
else
	fail "-o /dev/full --json /dev/full: status $st ($plain_rc without); stderr:" \
		"$(grep '^dpdk-pmu-run' "$tmp/full.err" | head -3)"
fi
