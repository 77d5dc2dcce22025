#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the guides, the man pages, the API reference and the meson
# options, in a build with tests, apps and examples off and the docs on.
# Doxygen and sphinx warnings fail, and a warning is checked to fail each;
# a machine without graphviz builds the docs cleanly; what meson installs;
# each man page renders without a warning, its sections in order; every
# dpdk-test-pmu option the tool guide shows is one the tool of BUILD_DIR
# accepts; bad option values are refused. About a minute on two cores.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
stage_tmp ci-doc

deps doc || { fail "packages (doxygen, graphviz, sphinx)"; finish; }

off="-Dtests=false -Ddisable_apps=test-pmu,pmu-preload -Dexamples="
b=$tmp/build
tool=$build/app/test-pmu/dpdk-test-pmu

# The checks that need nothing built here run in the background from the
# start (sphinx and doxygen use one CPU each): bg NAME COMMAND... starts
# one, its output in $tmp/NAME.log; joined NAME waits for it and gives its
# exit status.
declare -A bg_pid
bg() { local n=$1; shift; "$@" >"$tmp/$n.log" 2>&1 & bg_pid[$n]=$!; }
joined() { wait "${bg_pid[$1]}"; }
# refused WHAT STATUS LOG PATTERN: WHAT holds when a command meant to fail
# did (STATUS non-zero) and its LOG names PATTERN.
refused()
{
	if [ "$2" -eq 0 ]; then
		fail "$1: the command succeeded"
	elif grep -q "$4" "$3"; then
		ok "$1"
		return
	else
		fail "$1: it failed, but not on $4"
	fi
	show "$3"
}

# A broken reference must fail the guides (conf.py reads the VERSION file
# two folders up).
mkdir -p "$tmp/badtree/doc"
cp -r doc/guides "$tmp/badtree/doc/"
cp VERSION "$tmp/badtree/"
# shellcheck disable=SC2016 # rst, not shell
printf '\nSee :doc:`no_such_guide`.\n' >>"$tmp/badtree/doc/guides/index.rst"
# A PATH without dot: meson must turn the graphs off, and the doc must
# still build without a word from doxygen.
mkdir "$tmp/bin"
find /usr/bin -mindepth 1 -maxdepth 1 ! -name dot -exec ln -s -t "$tmp/bin" {} +
# shellcheck disable=SC2086,SC2317 # run by bg
nodot() {
	PATH=$tmp/bin meson setup "$tmp/nodot" $off >"$tmp/nodot-setup.log" 2>&1 &&
		PATH=$tmp/bin ninja -C "$tmp/nodot" doc >"$tmp/nodot-ninja.log" 2>&1
}
# shellcheck disable=SC2317 # run by bg
badvalues() {
	local opt
	for opt in -Denable_apps=nope -Ddisable_apps=nope -Dexamples=nope; do
		meson setup "$tmp/bad-$opt" "$opt" >"$tmp/badopt$opt.log" 2>&1
		echo "$opt $?"
	done
}
bg sphinx sphinx-build -W -b html doc/guides "$tmp/html"
bg badsphinx sphinx-build -W -q -b html "$tmp/badtree/doc/guides" "$tmp/badhtml"
bg nodot nodot
bg badvalues badvalues

echo "=== everything off, docs on: meson setup --werror $off -Denable_docs=true"
# shellcheck disable=SC2086
if meson setup "$b" --werror $off -Denable_docs=true >"$tmp/setup.log" 2>&1 &&
		ninja -C "$b" >"$tmp/ninja.log" 2>&1; then
	ok "the library and the docs build with tests, apps and examples off"
else
	fail "the build with everything off"
	show "$tmp/setup.log"
	show "$tmp/ninja.log"
fi
progs=$(find "$b" -type f -executable -name 'dpdk-*' -printf '%P ')
if [ -f "$b/lib/librte_pmu.so" ] && [ -z "$progs" ]; then
	ok "no dpdk-test, dpdk-test-pmu nor example built; librte_pmu.so built"
else
	fail "programs built although switched off: ${progs:-none} (or no librte_pmu.so)"
fi

echo "=== sphinx: the HTML guides and the man pages"
if [ -f "$b/doc/guides/index.html" ] && [ -f "$b/doc/guides/tools/test_pmu.html" ] &&
		[ -f "$b/doc/guides/prog_guide/pmu_lib.html" ] &&
		[ -f "$b/doc/guides/rel_notes/release_0_1.html" ]; then
	ok "meson -Denable_docs=true builds the HTML guides (sphinx -W): index and the three guides"
else
	fail "no HTML guides in $b/doc/guides"
fi
# The index links the API reference, where it is built (and installed).
if grep -q 'href="../api/html/index.html"' "$b/doc/guides/index.html" 2>/dev/null &&
		[ -f "$b/doc/guides/../api/html/index.html" ]; then
	ok "the guides' index links the API reference, and the link leads to it"
else
	fail "the guides' index does not link ../api/html/index.html, or nothing is there"
fi
if joined sphinx; then
	ok "sphinx-build -W -b html doc/guides: no warning"
else
	fail "sphinx-build -W -b html doc/guides"
	show "$tmp/sphinx.log"
fi
joined badsphinx
refused "a sphinx warning fails the guides (a :doc: to a missing document: exit non-zero)" \
	$? "$tmp/badsphinx.log" no_such_guide
if meson install -C "$b" --destdir "$tmp/dest" >"$tmp/install.log" 2>&1; then
	d=$tmp/dest/usr/local/share
	if [ -f "$d/man/man1/dpdk-pmu-exporter.1" ] && [ ! -e "$d/man/man1/dpdk-test-pmu.1" ] &&
			[ -f "$d/man/man1/dpdk-pmu-traffic.1" ] &&
			[ ! -e "$d/man/man1/dpdk-pmu-pipeline.1" ] &&
			[ ! -e "$d/man/man1/dpdk-pmu-graph.1" ] &&
			[ -f "$d/doc/rte_pmu/guides/index.html" ] &&
			[ -f "$d/doc/rte_pmu/api/html/index.html" ]; then
		ok "meson install: guides, API reference, dpdk-pmu-exporter(1), dpdk-pmu-traffic(1); no dpdk-test-pmu(1) nor the examples' without them"
	else
		fail "meson install of the docs: $(cd "$tmp/dest" && find . -path '*man1*' -o -name index.html | tr '\n' ' ')"
	fi
else
	fail "meson install of the docs build"
	show "$tmp/install.log"
fi
echo "=== man pages"
# man_page FILE: its warnings (man --warnings) in FILE.warn; fails unless
# it renders without one and has the six sections, in this order.
sections="NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES SEE_ALSO"
man_page() {
	local got
	MANWIDTH=80 man --warnings -l "$1" 2>"$1.warn" >/dev/null || return 1
	[ ! -s "$1.warn" ] || return 1
	got=$(sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$1" | tr ' ' _ |
		grep -x -F -f <(tr ' ' '\n' <<<"$sections") | tr '\n' ' ')
	[ "$got" = "$sections " ]
}
# Every page conf.py makes: as many as its man_pages list.
npages=$(python3 -c 'import runpy; print(len(runpy.run_path("doc/guides/conf.py")["man_pages"]))')
pages=$(find "$b/doc" -maxdepth 1 -name '*.1' | sort)
if ! command -v man >/dev/null; then
	fail "man pages: no man command (package man-db)"
elif [ "$(wc -w <<<"$pages")" -ne "$npages" ]; then
	fail "$npages man pages in conf.py, $(wc -w <<<"$pages") generated in $b/doc"
else
	for f in $pages; do
		cp "$f" "$tmp/"
		if man_page "$tmp/${f##*/}"; then
			ok "${f##*/}: no warning from man --warnings; NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, SEE ALSO in order"
		else
			fail "${f##*/}: warnings or sections (want $sections), in the lines below"
			sed 's/^/    ! /' "$tmp/${f##*/}.warn" | head -5
			grep '^\.SH' "$f" | sed 's/^/    | /'
		fi
	done
fi
# The check fails on an undefined macro and on a page without SEE ALSO.
printf '%s\n' .TH X 1 '.SH NAME' 'x \- y' '.SH SYNOPSIS' '.SH DESCRIPTION' '.SH OPTIONS' \
	'.SH EXAMPLES' '.SH "SEE ALSO"' '.XYZZY' >"$tmp/badmacro.1"
sed '/SEE ALSO/d; /XYZZY/d' "$tmp/badmacro.1" >"$tmp/nosee.1"
sed '/XYZZY/d' "$tmp/badmacro.1" >"$tmp/good.1"
if man_page "$tmp/good.1" && ! man_page "$tmp/badmacro.1" && ! man_page "$tmp/nosee.1"; then
	ok "the man page check fails on an undefined macro and on a missing SEE ALSO, passes their fixed page"
else
	fail "the man page check does not tell good pages from bad ones"
fi

if [ ! -x "$tool" ]; then
	skip "dpdk-test-pmu(1) install and the guide's options: no $tool (run the build stage first)"
else
	# grep -c reads to the end: grep -q would end at the line, and the
	# writer's SIGPIPE fail the pipe (pipefail).
	if meson introspect --installed "$build" | grep -c '/man1/dpdk-test-pmu.1"' >/dev/null; then
		ok "meson installs dpdk-test-pmu(1) with the app ($build)"
	else
		fail "meson does not install dpdk-test-pmu(1) in $build"
	fi
	if devtools/check-guide-options.py "$tool" doc/guides/tools/test_pmu.rst >"$tmp/opts.log" 2>&1; then
		ok "every dpdk-test-pmu option the tool guide shows is accepted by the tool ($(grep -c '^ok:' "$tmp/opts.log") checks)"
	else
		fail "the tool guide shows options the tool rejects"
		grep -v '^ok:' "$tmp/opts.log" | sed 's/^/    | /'
	fi
	# The same check on a small guide showing an option the tool does not
	# have, in its Options section and in an example.
	# shellcheck disable=SC2016 # rst, not shell
	printf '%s\n' 'Options' '-------' '' '``--raw``' '  Raw.' '' \
		'``--no-such-option``' '  Not an option.' '' 'Examples' '--------' '' \
		'   $ dpdk-test-pmu -l 0-1 -- -e task-clock --json -Z' >"$tmp/bad_guide.rst"
	if ! devtools/check-guide-options.py "$tool" "$tmp/bad_guide.rst" >"$tmp/badopts.log" 2>&1 &&
			grep -q "^FAIL: --no-such-option" "$tmp/badopts.log" &&
			grep -q "^FAIL: example .*-Z" "$tmp/badopts.log"; then
		ok "a guide showing --no-such-option and -Z fails the check, naming both"
	else
		fail "the check passed a guide with options the tool does not have"
		show "$tmp/badopts.log"
	fi
fi

echo "=== doxygen"
if [ -f "$b/doc/api/html/index.html" ] &&
		grep -q "rte_pmu_read" "$b/doc/api/html/rte__pmu_8h.html"; then
	ok "the API reference is built by default with enable_docs (rte_pmu_read documented)"
else
	fail "no HTML API reference in $b/doc/api/html"
fi
# Doxygen is QUIET: any line it printed is a warning or an error.
if grep -v -E '^\[[0-9]+/[0-9]+\] |^ninja: ' "$tmp/ninja.log" >"$tmp/doxy.log"; then
	fail "doxygen printed warnings or errors"
	show "$tmp/doxy.log"
else
	ok "doxygen printed nothing (no warning, no \"Problems running dot\")"
fi
if grep -q "^WARN_AS_ERROR *= *\(YES\|FAIL_ON_WARNINGS\)" "$b/doc/doxy-api.conf"; then
	# A wrong @param next to the real header must fail the doc.
	mkdir "$tmp/bad"
	printf '/**\n * @file\n * Deliberately wrong.\n */\n%s\nint rte_pmu_bad(int x);\n' \
		'/** Nothing. @param y not a parameter @return 0 */' >"$tmp/bad/rte_pmu_bad.h"
	sed -e "s#^OUTPUT_DIRECTORY .*#OUTPUT_DIRECTORY = $tmp/bad/out#" \
		"$b/doc/doxy-api.conf" >"$tmp/bad/doxy.conf"
	echo "INPUT += $tmp/bad" >>"$tmp/bad/doxy.conf"
	(cd "$tmp" && doxygen bad/doxy.conf) >"$tmp/bad.log" 2>&1
	refused "a doxygen warning fails the doc build (a wrong @param: exit non-zero)" $? \
		"$tmp/bad.log" rte_pmu_bad
else
	fail "doxy-api.conf does not set WARN_AS_ERROR"
fi

echo "=== doxygen without graphviz"
if joined nodot && grep -q "^HAVE_DOT *= *NO" "$tmp/nodot/doc/doxy-api.conf" &&
		! grep -v -E '^\[[0-9]+/[0-9]+\] |^ninja: ' "$tmp/nodot-ninja.log" >/dev/null; then
	ok "no dot on the PATH: HAVE_DOT = NO and a clean doc build"
else
	fail "the doc build without dot"
	show "$tmp/nodot-setup.log" 5
	show "$tmp/nodot-ninja.log"
fi
# What the setting prevents: graphs asked for with no dot must fail.
if [ ! -f "$tmp/nodot/doc/doxy-api.conf" ]; then
	fail "no doxy-api.conf from the build without dot"
else
	sed -e "s#^HAVE_DOT .*#HAVE_DOT = YES#" -e "s#^DOT_PATH .*#DOT_PATH =#" \
		-e "s#^OUTPUT_DIRECTORY .*#OUTPUT_DIRECTORY = $tmp/dotfail#" \
		"$tmp/nodot/doc/doxy-api.conf" >"$tmp/dotfail.conf"
	# Run from $tmp: nothing lands in the tree whatever the configuration.
	(cd "$tmp" && PATH=$tmp/bin doxygen dotfail.conf) >"$tmp/dotfail.log" 2>&1
	rc=$?
	n=$(grep -c 'Problems running dot' "$tmp/dotfail.log")
	refused "HAVE_DOT = YES without dot fails ($n \"Problems running dot\"): the setting matters" \
		$rc "$tmp/dotfail.log" 'Problems running dot'
fi

echo "=== the telemetry keys in the guide"
# Every key the telemetry replies set by name is described in pmu_lib.rst
# (measured_value and measured_children were in no description there).
missing=$(grep -ho 'rte_tel_data_[a-z_0-9]*([^"]*"[a-z_]*"' lib/pmu/pmu_telemetry.c \
		lib/pmu_stage/pmu_stage_telemetry.c | grep -o '"[a-z_]*"' | tr -d '"' | sort -u |
	while read -r k; do
		grep -q "\`\`$k\`\`\|\"$k\"" doc/guides/prog_guide/pmu_lib.rst || printf '%s ' "$k"
	done)
n=$(grep -ho 'rte_tel_data_[a-z_0-9]*([^"]*"[a-z_]*"' lib/pmu/pmu_telemetry.c \
	lib/pmu_stage/pmu_stage_telemetry.c | grep -o '"[a-z_]*"' | sort -u | wc -l)
if [ "$n" -lt 30 ]; then
	fail "telemetry keys: only $n found in the sources (the pattern no longer matches)"
elif [ -z "$missing" ]; then
	ok "the $n keys the telemetry replies set are each named in pmu_lib.rst"
else
	fail "telemetry keys named in no line of pmu_lib.rst: $missing"
fi

echo "=== bad option values"
joined badvalues
while read -r opt rc; do
	refused "meson setup $opt is refused, naming the value" "$rc" "$tmp/badopt$opt.log" \
		'unknown .*"nope"'
done <"$tmp/badvalues.log"
[ "$(wc -l <"$tmp/badvalues.log")" -eq 3 ] || fail "bad option values: $(cat "$tmp/badvalues.log")"

finish
