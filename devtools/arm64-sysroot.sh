#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# Build a private arm64 sysroot with Debian's DPDK 22.11, a static busybox
# and a Debian arm64 kernel, for cross-building rte_pmu and running it in an
# emulated arm64 guest (devtools/arm64-qemu-test.sh).
#
# Packages are fetched with `apt-get download` and unpacked with `dpkg -x`;
# nothing arm64 is installed on the host (installing libdpdk-dev:arm64 would
# remove the amd64 DPDK).
#
# Output, under ARM64_DIR (default <repo>/.arm64):
#   sysroot/        the unpacked packages
#   sysroot/.stamp  written last; when present the script does nothing
#   vmlinuz         the guest kernel
#   debs/           the downloaded packages
#
# Usage: devtools/arm64-sysroot.sh [--force]

set -e
set -o pipefail

LOG_TAG=arm64-sysroot
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

DEBS=$ARM64_DIR/debs
STAMP=$SYSROOT/.stamp
# Bump when the package set or the fix-ups below change.
STAMP_VERSION=2

# Where the closure starts: DPDK's development package (its Depends list every
# librte-* runtime library and the -dev packages whose .pc files libdpdk.pc
# requires) and the guest's shell: group sysroot of devtools/packages.list.
ROOTS=$(pkgs_of sysroot | tr '\n' ' ')
[ -n "$ROOTS" ] || die "no sysroot packages in $PKG_LIST"
# Packages the closure does not follow: the cross toolchain brings its own C
# runtime (/usr/aarch64-linux-gnu/lib), and nothing here needs the rest.
SKIP='^(libc6|libc6-dev|libc-dev|libc-dev-bin|libgcc-s1|libatomic1|libstdc\+\+6|libcrypt1|libcrypt-dev|gcc-12-base|linux-libc-dev|libnsl-dev|libnsl2|libtirpc-dev|libtirpc3|libtirpc-common)$'
# Only libraries are followed; tools (pkg-config, adduser, udev, ...) are not.
FOLLOW='^(lib|zlib1g|ibverbs-providers$)'

if [ "${1:-}" = "--force" ]; then
	rm -f "$STAMP"
fi

if [ -f "$STAMP" ] && [ "$(head -n1 "$STAMP")" = "version $STAMP_VERSION" ] &&
		[ -f "$ARM64_DIR/vmlinuz" ]; then
	log "up to date ($SYSROOT)"
	exit 0
fi

need_tools apt-get apt-cache dpkg dpkg-deb

# arm64 package lists.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	[ "$(id -u)" = 0 ] || die "run as root once, or: dpkg --add-architecture arm64 && apt-get update"
	log "dpkg --add-architecture arm64"
	dpkg --add-architecture arm64
	updated=0
fi
apt_update()
{
	[ "$(id -u)" = 0 ] || die "arm64 package lists missing or stale; run apt-get update as root"
	log "apt-get update"
	apt-get update -qq || die "apt-get update failed"
}
if [ "${updated-1}" = 0 ] || ! apt-cache show libdpdk-dev:arm64 >/dev/null 2>&1; then
	apt_update
	updated=1
fi

# Breadth-first closure over Depends/Pre-Depends of the :arm64 packages.
closure()
{
	local todo="$ROOTS" seen=" " next deps d p
	while [ -n "$todo" ]; do
		next=""
		for p in $todo; do
			seen="$seen$p "
		done
		deps=$(apt-cache depends --no-recommends --no-suggests --no-conflicts \
				--no-breaks --no-replaces --no-enhances \
				$(printf '%s:arm64 ' $todo) |
			awk '$1 ~ /^\|?(Pre)?Depends:$/ && $2 !~ /^</ {print $2}' |
			sed 's/:arm64$//' | sort -u)
		for d in $deps; do
			case "$d" in *:*) continue;; esac
			[[ $d =~ $SKIP ]] && continue
			[[ $d =~ $FOLLOW ]] || continue
			case "$seen" in *" $d "*) continue;; esac
			case " $next " in *" $d "*) continue;; esac
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

mkdir -p "$DEBS"
missing=""
for p in $pkgs $kernel_pkg; do
	ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "apt-get download $(echo $missing | wc -w) packages"
	download $missing
	still=""
	for p in $missing; do
		ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || still="$still $p"
	done
	if [ -n "$still" ] && [ "${updated-0}" != 1 ]; then
		# Lists older than the archive: the versions they name are gone.
		apt_update
		download $still
	fi
	for p in $missing; do
		ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || die "download of $p:arm64 failed"
	done
fi

log "unpacking into $SYSROOT"
rm -rf "$SYSROOT"
mkdir -p "$SYSROOT"
for p in $pkgs; do
	# Newest version first, in case several are cached.
	ls -t "$DEBS/${p}_"*.deb | head -n1
done | xargs -P "$(nproc)" -I{} dpkg -x {} "$SYSROOT"

# Only /boot/vmlinuz-* is needed from the kernel package (its PMU driver is
# built in; the modules are not used).
deb=$(ls -t "$DEBS/${kernel_pkg}_"*.deb | head -n1)
rm -rf "$ARM64_DIR/kernel"
mkdir -p "$ARM64_DIR/kernel"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$ARM64_DIR/kernel" --wildcards './boot/vmlinuz-*'
vmlinuz=$(ls "$ARM64_DIR"/kernel/boot/vmlinuz-* | head -n1)
[ -f "$vmlinuz" ] || die "no vmlinuz in $deb"
ln -sf "kernel/boot/$(basename "$vmlinuz")" "$ARM64_DIR/vmlinuz"

# Merge /bin, /sbin and /lib into /usr as Debian 12 systems are, so that a
# library has one path whichever package shipped it where.
for d in bin sbin lib; do
	[ -d "$SYSROOT/$d" ] && [ ! -L "$SYSROOT/$d" ] || continue
	mkdir -p "$SYSROOT/usr/$d"
	cp -a "$SYSROOT/$d/." "$SYSROOT/usr/$d/"
	rm -rf "${SYSROOT:?}/$d"
	ln -s "usr/$d" "$SYSROOT/$d"
done

# Fix-ups so the sysroot works without --sysroot (the cross compiler keeps its
# own C library): absolute symlinks (made relative) and GNU ld scripts naming
# /usr/lib/... (given the sysroot's path) would otherwise point into the host.
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
	echo "version $STAMP_VERSION"
	echo "kernel $kernel_pkg $(basename "$vmlinuz")"
	echo "dpdk $(sed -n 's/^Version: //p' "$libdir/pkgconfig/libdpdk.pc")"
	echo "packages $npkgs"
} > "$STAMP"
log "done: $SYSROOT, $ARM64_DIR/vmlinuz"
