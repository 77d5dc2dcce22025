#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Install what building and testing rte_pmu needs on Debian 12 (as root);
# the packages are those of devtools/packages.list.
# Usage: devtools/install-deps.sh [--arm64]
#   --arm64  also the cross compiler and QEMU for the arm64 guest stage
set -euo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

groups=build
if [ "${1:-}" = "--arm64" ]; then
	groups="$groups arm64"
fi
pkgs_install $groups || die "packages missing"
