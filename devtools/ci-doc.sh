#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the API reference and the meson options. Configures a build
# with tests, apps and examples switched off and the docs on
# (-Denable_docs=true), builds it, and fails on any doxygen warning or
# error; checks that doxygen fails on a warning, that a machine without
# graphviz builds the docs cleanly, and that bad option values are refused.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
tmp=$(mktemp -d /tmp/ci-doc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
show() { sed 's/^/    | /' "$1" | tail -"${2:-15}"; }

deps doc || { fail "packages (doxygen, graphviz)"; finish; }

off="-Dtests=false -Ddisable_apps=test-pmu -Dexamples="
b=$tmp/build

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
	sed -e "s#^INPUT .*#& $tmp/bad#" \
		-e "s#^OUTPUT_DIRECTORY .*#OUTPUT_DIRECTORY = $tmp/bad/out#" \
		"$b/doc/doxy-api.conf" >"$tmp/bad/doxy.conf"
	if (cd "$tmp" && doxygen bad/doxy.conf) >"$tmp/bad.log" 2>&1; then
		fail "doxygen succeeded on a wrong @param"
		show "$tmp/bad.log"
	elif grep -q "rte_pmu_bad" "$tmp/bad.log"; then
		ok "a doxygen warning fails the doc build (a wrong @param: exit non-zero)"
	else
		fail "doxygen failed, but not on the wrong @param"
		show "$tmp/bad.log"
	fi
else
	fail "doxy-api.conf does not set WARN_AS_ERROR"
fi

echo "=== doxygen without graphviz"
# A PATH without dot: meson must turn the graphs off, and the doc must
# still build without a word from doxygen.
mkdir "$tmp/bin"
for f in /usr/bin/*; do
	[ "${f##*/}" = dot ] || ln -s "$f" "$tmp/bin/"
done
# shellcheck disable=SC2086
if PATH=$tmp/bin meson setup "$tmp/nodot" $off >"$tmp/nodot.log" 2>&1 &&
		PATH=$tmp/bin ninja -C "$tmp/nodot" doc >"$tmp/nodot-ninja.log" 2>&1 &&
		grep -q "^HAVE_DOT *= *NO" "$tmp/nodot/doc/doxy-api.conf" &&
		! grep -v -E '^\[[0-9]+/[0-9]+\] |^ninja: ' "$tmp/nodot-ninja.log" >/dev/null; then
	ok "no dot on the PATH: HAVE_DOT = NO and a clean doc build"
else
	fail "the doc build without dot"
	show "$tmp/nodot.log" 5
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
	if (cd "$tmp" && PATH=$tmp/bin doxygen dotfail.conf) >"$tmp/dotfail.log" 2>&1; then
		fail "doxygen with HAVE_DOT = YES and no dot succeeded: the check above proves nothing"
	elif grep -q 'Problems running dot' "$tmp/dotfail.log"; then
		ok "HAVE_DOT = YES without dot fails ($(grep -c 'Problems running dot' \
			"$tmp/dotfail.log") \"Problems running dot\"): the setting matters"
	else
		fail "doxygen with HAVE_DOT = YES and no dot failed, but not on dot"
		show "$tmp/dotfail.log"
	fi
fi

echo "=== bad option values"
for opt in -Denable_apps=nope -Ddisable_apps=nope -Dexamples=nope; do
	if meson setup "$tmp/bad-$opt" "$opt" >"$tmp/badopt.log" 2>&1; then
		fail "meson setup $opt succeeded"
	elif grep -q 'unknown .*"nope"' "$tmp/badopt.log"; then
		ok "meson setup $opt is refused, naming the value"
	else
		fail "meson setup $opt failed for another reason"
		show "$tmp/badopt.log" 5
	fi
done

finish
