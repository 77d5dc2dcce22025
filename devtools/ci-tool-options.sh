# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
# shellcheck shell=bash
#
# dpdk-test-pmu's options on the host, sourced by devtools/ci-tool.sh (its
# run, expect, and $one_worker): bad options refused with the usage, event
# lists split as perf stat -e splits them, modifiers, and the separators
# and bytes of its machine formats.
bad() { # DESCRIPTION MESSAGE ARGS...: exit 1, MESSAGE and the usage on stderr
	local what=$1 msg=$2
	shift 2
	run bad "$one_worker" "$@"
	WANT=$msg expect bad "bad option $what: exit 1, \"$msg\" and usage on stderr" \
		"rc == 1 and out == '' and os.environ['WANT'] in err and 'Usage:' in err"
}
bad "-Z" "invalid option -- 'Z'" -Z
bad "-x without a separator" "option requires an argument -- 'x'" -x
bad "--nope" "unrecognized option '--nope'" --nope
bad "-e without a list" "option requires an argument -- 'e'" -e
bad "-e a,,b" "invalid --events 'a,,b'" -e a,,b
bad "-e a,b,a" "invalid --events 'task-clock,page-faults,task-clock': 'task-clock' is given twice" \
	-e task-clock,page-faults,task-clock
bad "-e a,b -e a" "invalid --events 'task-clock,page-faults,task-clock': 'task-clock' is given twice" \
	-e task-clock,page-faults -e task-clock
bad "-e a -e b,,c" "invalid --events 'page-faults,,task-clock'" \
	-e task-clock -e page-faults,,task-clock
bad "-e a,a with a PMU's terms" "invalid --events 'software/config=0x1,config1=0x0/,software/config=0x1,config1=0x0/': 'software/config=0x1,config1=0x0/' is given twice" \
	-e software/config=0x1,config1=0x0/,software/config=0x1,config1=0x0/
bad "--iterations 0" "invalid --iterations '0'" --iterations 0
bad "--timeout 5" "invalid --timeout '5'" --timeout 5
bad "--timeout 100 -I 100" "--timeout and --interval exclude each other" --timeout 100 -I 100
bad "--iterations 12x" "invalid --iterations '12x'" --iterations 12x
bad "-I 5" "invalid --interval '5'" -I 5
bad "--duration 0" "invalid --duration '0'" --duration 0
bad "--duration -1" "invalid --duration '-1'" --duration -1
bad "-x , -j" "-x, -j, --csv and --json exclude each other" -x , -j
bad "--csv --json" "-x, -j, --csv and --json exclude each other" --csv --json
bad "--workload nope" "unknown --workload 'nope'" --workload nope
bad "-r 0" "invalid --repeat '0'" -r 0
bad "-a (perf's system-wide count)" "-a (--all-cpus) is refused: the tool counts on its lcores, every worker of EAL's -l or --lcores" -a
bad "-n (perf's null run, not the tool's)" "invalid option -- 'n'" -n 100
bad "a stray argument" "unexpected argument 'stray'" stray
# A comma inside a PMU's "/.../" is one of the event's terms, as perf
# reads -e: one event, not two.
run terms "$one_worker" -e software/config=0x1,config1=0x0/,task-clock -x ';'
expect terms "-e with a PMU's terms (software/config=0x1,config1=0x0/): one event, counted" \
	"rc == 0 and [l.split(';')[2] for l in lines(out)] ==
	['software/config=0x1,config1=0x0/', 'task-clock'] and int(lines(out)[0].split(';')[0]) > 0"
# A modifier leaves the event what it is, as perf takes it: task-clock:u
# is a clock (msec, CPUs utilized).
run clock-u "$one_worker" -e task-clock:u -x ';'
expect clock-u "-e task-clock:u: in msec with CPUs utilized, as task-clock" \
	"rc == 0 and [l.split(';')[1:3] + l.split(';')[6:7] for l in lines(out)] ==
	[['msec', 'task-clock:u', 'CPUs utilized']]"
# A name of any bytes (one not counted: said in the report) keeps the
# JSON valid UTF-8.
run json-bytes "$one_worker" -e $'task-clock,bad\xff' --json
expect json-bytes "--json with an event name of byte 0xff: valid JSON, the name as \\u00ff" \
	"rc == 0 and [e['event'] for e in json.loads(out)['total']['events']] ==
	['task-clock', 'bad\\xff']"
# -x SEP: a field that holds SEP is quoted, whichever field it is.
run sep-slash "$one_worker" -e task-clock,context-switches -x /
expect sep-slash "-x /: every line 8 fields as csv reads them, the rate's unit '/sec' one" \
	"rc == 0 and [len(r) for r in csv.reader(io.StringIO(out), delimiter='/')] == [8, 8] and
	list(csv.reader(io.StringIO(out), delimiter='/'))[1][6] == '/sec'"
run sep-dot "$one_worker" -e task-clock,context-switches -x . -r 2
expect sep-dot "-x . -r 2: every line 9 fields as csv reads them, the numbers' dots quoted" \
	"rc == 0 and [len(r) for r in csv.reader(io.StringIO(out), delimiter='.')] == [9, 9]"
