#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Install into a scratch prefix and build the upstream-API example against
# the installed headers and librte_pmu.pc alone, as a user would; then run
# it on a software event. Prints "install check: passed" or the failure.
set -euo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The libraries and drivers alone (the reinstall stage installs the rest),
# in a folder of the tree's, so that ccache finds its objects.
b=$REPO/build-install-check

build_if_missing "$b" --prefix="$b/inst" --werror -Dtests=false \
	-Ddisable_apps=test-pmu,pmu-preload -Dexamples=
rm -rf "$b/inst"
meson install -C "$b" >/dev/null

[ -f "$b/inst/include/dpdk/rte_pmu.h" ] || die "rte_pmu.h not installed in include/dpdk"
pc=$(dirname "$(find "$b/inst" -name librte_pmu.pc | head -1)")
export PKG_CONFIG_PATH="$pc"
cc -O2 -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API \
	$(pkg-config --cflags librte_pmu) examples/pmu_upstream/main.c \
	-o "$work/upstream" $(pkg-config --libs librte_pmu)
LD_LIBRARY_PATH="$(pkg-config --variable=libdir librte_pmu)" "$work/upstream" \
	$EAL_HOST_ARGS --file-prefix="inst-$$" \
	--log-level=lib.pmu:warning -- task-clock
echo "install check: passed"
