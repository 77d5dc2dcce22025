#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the tree builds again once it is installed. Builds and installs
# it into a prefix (default /usr/local, as `meson install` does; root on a
# throwaway CI machine), the headers in PREFIX/include/dpdk beside DPDK's,
# builds a fresh copy of the sources with the installed rte_pmu.h on the
# compiler's path (it must use its own), and an upstream-API program with
# pkg-config alone. All it installed is then removed and checked gone.
# It never overwrites a file it did not install: the stage is skipped.
# Environment: REINSTALL_PREFIX (default /usr/local); PREFIX/include/dpdk
# and the libdir go on the paths through C_INCLUDE_PATH and LIBRARY_PATH.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
PREFIX=${REINSTALL_PREFIX:-/usr/local}
installed=0
stage_tmp ci-reinstall
# The install build sits in the tree and is configured as the default
# build (--werror), so that ccache finds its objects.
inst=$REPO/build-reinstall
rm -rf "$inst"
on_finish() { uninstall; }
# shellcheck disable=SC2317 # run by stage_cleanup
on_cleanup() { uninstall; rm -rf "$inst"; }
skip_all() { skip "$*: installed-tree rebuild not checked"; finish; }

# Files the install build would install (absolute destinations).
install_list()
{
	meson introspect --installed "$inst" |
		python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin).values()))'
}

uninstall()
{
	[ $installed -eq 1 ] || return 0
	installed=0
	ninja -C "$inst" uninstall >"$tmp/uninstall.log" 2>&1
	# The dynamic linker's cache may name the removed library.
	[ "$(id -u)" != 0 ] || ! command -v ldconfig >/dev/null || ldconfig
	local left
	left=$(install_list | while read -r f; do
		[ -e "$f" ] || [ -L "$f" ] && echo "$f"
	done)
	[ -z "$left" ] && ok "uninstall removed every installed file" || fail "uninstall left: $left"
}

# Copy the sources as a clean clone has them: tracked and new files, not
# what .gitignore names (build folders, .arm64).
copy_sources()
{
	mkdir -p "$1"
	if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' |
			tar -c --null -T - -f -) | tar -x -C "$1"
	else
		tar -c -C "$REPO" --exclude='./build*' --exclude=./.arm64 . | tar -x -C "$1"
	fi
}

deps || log "could not install every package"
need_tools meson ninja cc pkg-config python3

mkdir -p "$PREFIX" 2>/dev/null
[ -w "$PREFIX" ] || skip_all "$PREFIX is not writable (run as root, or set REINSTALL_PREFIX)"

# The fresh copy sees the installed headers, as a build sees Debian's in
# /usr/include/dpdk (libdpdk's Cflags).
export C_INCLUDE_PATH=$PREFIX/include/dpdk${C_INCLUDE_PATH:+:$C_INCLUDE_PATH}

log "build this tree for $PREFIX"
check "configure for $PREFIX" meson setup "$inst" "$REPO" --prefix="$PREFIX" --werror || finish
check "build for $PREFIX" ninja -C "$inst" || finish
libdir=$(meson introspect --buildoptions "$inst" | python3 -c \
	'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"][0])')
case "$libdir" in /*) ;; *) libdir=$PREFIX/$libdir;; esac
export LIBRARY_PATH=$libdir${LIBRARY_PATH:+:$LIBRARY_PATH}
export PKG_CONFIG_PATH=$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

for f in $(install_list); do
	if [ -e "$f" ] || [ -L "$f" ]; then
		skip_all "$f exists already (not installed by this check; not overwriting it)"
	fi
done
installed=1
check "install into $PREFIX" meson install -C "$inst" || finish
check "pkg-config librte_pmu gives the installed $PREFIX/include/dpdk/rte_pmu.h" sh -c \
	"printf '#include <rte_pmu.h>\n' | cc \$(pkg-config --cflags librte_pmu) -M -xc - |
	grep -q '$PREFIX/include/dpdk/rte_pmu.h'"

# The README's step after `meson install`, as written (ldconfig), then an
# installed program from the path with no LD_LIBRARY_PATH: it must start
# (without the step it stopped: librte_pmu.so.0 not found).
post=$(sed -n '/^## Building/,/^## /s/.*meson install -C build *&& *//p' "$REPO/README.md" | head -n 1)
if [ "$PREFIX" != /usr/local ] || [ "$(id -u)" != 0 ]; then
	skip "the README's install for /usr/local as root: prefix $PREFIX, uid $(id -u)"
else
	log "the README's step after meson install: ${post:-none}"
	[ -z "$post" ] || sh -c "$post"
	if out=$(env -u LD_LIBRARY_PATH PATH="$PREFIX/bin:$PATH" dpdk-test-pmu --help 2>&1); then
		ok "installed as the README says, dpdk-test-pmu starts from the path"
	else
		fail "installed as the README says, dpdk-test-pmu does not start: $(echo "$out" | head -n 2)"
	fi
fi

log "configure and build a fresh copy next to the installed tree"
copy_sources "$tmp/src"
check "configure a fresh copy" meson setup "$tmp/src/build" "$tmp/src" --werror &&
	check "build the fresh copy" ninja -C "$tmp/src/build" &&
	check "the fresh copy compiled its own headers, none of $PREFIX/include/dpdk" sh -c \
		"! ninja -C '$tmp/src/build' -t deps | grep '$PREFIX/include/dpdk/rte_pmu'"

check "upstream-API example builds against the installed library" \
	sh -c "cc -O2 -Wall -Werror -DALLOW_EXPERIMENTAL_API \
		\$(pkg-config --cflags librte_pmu) '$REPO/examples/pmu_upstream/main.c' \
		-o '$tmp/upstream' \$(pkg-config --libs librte_pmu)"

finish
