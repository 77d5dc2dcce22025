#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Install what building and testing rte_pmu needs on Debian 12 (as root).
# Usage: devtools/install-deps.sh [--arm64]
#   --arm64  also the cross compiler and QEMU for the arm64 guest stage
set -euo pipefail

pkgs="build-essential meson ninja-build pkg-config libdpdk-dev libnuma-dev
	python3-pyelftools"
if [ "${1:-}" = "--arm64" ]; then
	pkgs="$pkgs qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio"
fi

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
