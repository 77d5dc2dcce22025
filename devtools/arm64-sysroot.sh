#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# A private arm64 sysroot (Debian's DPDK 22.11, a static busybox) and a
# Debian arm64 kernel under ARM64_DIR (lib.sh), fetched with apt-get download
# and unpacked with dpkg -x: nothing arm64 is installed on the host. While
# sysroot/.stamp names this version and package set, it does nothing.
# Usage: devtools/arm64-sysroot.sh [--force]
set -eo pipefail

LOG_TAG=arm64-sysroot
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

DEBS=$ARM64_DIR/debs
STAMP=$SYSROOT/.stamp
# Bump when the package set or the fix-ups below change.
STAMP_VERSION=2

# The closure of group sysroot of packages.list.
ROOTS=$(pkgs_of sysroot | tr '\n' ' ')
[ -n "$ROOTS" ] || die "no sysroot packages in $PKG_LIST"
STAMP_KEY="version $STAMP_VERSION: $ROOTS"
# Not followed: the cross toolchain's C runtime, what nothing needs, tools.
SKIP='^(libc6|libc6-dev|libc-dev|libc-dev-bin|libgcc-s1|libatomic1|libstdc\+\+6|libcrypt1|libcrypt-dev|gcc-12-base|linux-libc-dev|libnsl-dev|libnsl2|libtirpc-dev|libtirpc3|libtirpc-common)$'
FOLLOW='^(lib|zlib1g|ibverbs-providers$)'

[ "${1:-}" != "--force" ] || rm -f "$STAMP"

if [ -f "$STAMP" ] && [ "$(head -n1 "$STAMP")" = "$STAMP_KEY" ] &&
		[ -f "$ARM64_DIR/vmlinuz" ]; then
	log "up to date ($SYSROOT)"
	exit 0
fi

need_tools apt-get apt-cache dpkg dpkg-deb
deps sysroot || die "no arm64 package lists"

# Breadth-first closure over Depends/Pre-Depends of the :arm64 packages.
closure()
{
	local todo="$ROOTS" seen=" " next needs d
	while [ -n "$todo" ]; do
		next=""
		seen="$seen$(echo $todo) "
		needs=$(apt-cache depends --no-recommends --no-suggests --no-conflicts \
				--no-breaks --no-replaces --no-enhances \
				$(printf '%s:arm64 ' $todo) |
			awk '$1 ~ /^\|?(Pre)?Depends:$/ && $2 !~ /^</ {print $2}' |
			sed 's/:arm64$//' | sort -u)
		for d in $needs; do
			[[ $d != *:* && ! $d =~ $SKIP && $d =~ $FOLLOW && "$seen$next " != *" $d "* ]] ||
				continue
			next="$next $d"
		done
		todo="$next"
	done
	echo $seen | tr ' ' '\n' | sort
}

# The kernel: whatever linux-image-arm64 depends on today.
kernel_pkg=$(apt-cache depends linux-image-arm64:arm64 |
	awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {sub(/:arm64$/, "", $2); print $2; exit}')
[ -n "$kernel_pkg" ] || die "cannot resolve the package linux-image-arm64:arm64 depends on"

pkgs=$(closure)
npkgs=$(echo "$pkgs" | wc -l)
log "$npkgs packages + $kernel_pkg"

download()
{
	(cd "$DEBS" && apt-get download -q $(printf '%s:arm64 ' "$@") 2>&1 |
		grep -v -e '^Get:' -e 'unsandboxed' -e '^Fetched' || true)
}

# Print the packages named that have no .deb in $DEBS.
not_in_debs() { local p; for p; do ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || echo "$p"; done; }
mkdir -p "$DEBS"
missing=$(not_in_debs $pkgs $kernel_pkg)
if [ -n "$missing" ]; then
	log "apt-get download $(echo $missing | wc -w) packages"
	download $missing
	still=$(not_in_debs $missing)
	if [ -n "$still" ]; then
		# Stale lists name versions the archive dropped.
		deps --update sysroot || die "apt-get update failed"
		download $still
	fi
	still=$(not_in_debs $missing)
	[ -z "$still" ] || die "download failed:" $still
fi

log "unpacking into $SYSROOT"
rm -rf "$SYSROOT"
mkdir -p "$SYSROOT"
for p in $pkgs; do
	# Newest version first, in case several are cached.
	ls -t "$DEBS/${p}_"*.deb | head -n1
done | xargs -P "$(nproc)" -I{} dpkg -x {} "$SYSROOT"

# Only /boot/vmlinuz-* of the kernel package (its PMU driver is built in).
deb=$(ls -t "$DEBS/${kernel_pkg}_"*.deb | head -n1)
rm -rf "$ARM64_DIR/kernel"
mkdir -p "$ARM64_DIR/kernel"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$ARM64_DIR/kernel" --wildcards './boot/vmlinuz-*'
vmlinuz=$(ls "$ARM64_DIR"/kernel/boot/vmlinuz-* | head -n1)
[ -f "$vmlinuz" ] || die "no vmlinuz in $deb"
ln -sf "kernel/boot/$(basename "$vmlinuz")" "$ARM64_DIR/vmlinuz"

# Merge /bin, /sbin and /lib into /usr as on Debian 12: one path a library.
for d in bin sbin lib; do
	[ -d "$SYSROOT/$d" ] && [ ! -L "$SYSROOT/$d" ] || continue
	mkdir -p "$SYSROOT/usr/$d"
	cp -a "$SYSROOT/$d/." "$SYSROOT/usr/$d/"
	rm -rf "${SYSROOT:?}/$d"
	ln -s "usr/$d" "$SYSROOT/$d"
done

# Without --sysroot, absolute symlinks and ld scripts would point at the host.
libdir=$SYSROOT/usr/lib/aarch64-linux-gnu
find "$SYSROOT" -type l -lname '/*' | while read -r link; do
	ln -sfnr "$SYSROOT$(readlink "$link")" "$link"
done
for f in "$libdir"/*.so; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	head -c 64 "$f" | grep -q 'ld script' || continue
	sed -i -e "s|\([ (]\)/\(usr/\)\{0,1\}lib/|\1$SYSROOT/usr/lib/|g" "$f"
done

[ -f "$libdir/pkgconfig/libdpdk.pc" ] || die "libdpdk.pc missing from the sysroot"
[ -x "$SYSROOT/bin/busybox" ] || [ -x "$SYSROOT/usr/bin/busybox" ] ||
	die "busybox missing from the sysroot"

{
	echo "$STAMP_KEY"
	echo "kernel $kernel_pkg $(basename "$vmlinuz")"
	echo "dpdk $(sed -n 's/^Version: //p' "$libdir/pkgconfig/libdpdk.pc")"
	echo "packages $npkgs"
} > "$STAMP"
log "done: $SYSROOT, $ARM64_DIR/vmlinuz"
