#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# arch-kernel.sh ARCH
# arch-kernel.sh --headers ARCH
#
# Make Debian's newest bookworm kernel of another architecture a test
# kernel, as root, without adding the architecture to this machine (no
# dpkg --add-architecture: apt runs with a state of its own, under
# $BLKGEN_CACHE/arch/ARCH/apt, that installs nothing here). Prints the release.
#
#   arm64: the kernel's image and modules (linux-image-REL), its headers
#          and common headers, and kbuild for this machine (the amd64
#          linux-kbuild-X, the headers' scripts), unpacked with dpkg -x
#          into $BLKGEN_CACHE/arch/arm64/kernels/REL/root; and the
#          guest's userland (busybox, bash, fio, blktrace, dmsetup,
#          util-linux and their libraries, libjson-c and zlib for
#          linking blkgenctl) unpacked into $BLKGEN_CACHE/arch/arm64/sysroot.
#   --headers armhf: the headers and kbuild alone (a build check: 32-bit).
#
# The kernel is the newest of bookworm and bookworm-security whose
# release ends in the flavour (arm64: -arm64, armhf: -armmp), so the
# matrix follows Debian without an edit here. Cached: a second run with
# the same newest kernel only looks it up (apt-get update at most once an
# hour; offline, the kernel unpacked before). Each step is done in a
# temporary directory renamed into place when complete.
#
# tests/vm/kernel-lib.sh finds the files: arch_kdir, arch_image,
# arch_modroot, arch_sysroot.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"

headers_only=0
if [ "${1:-}" = --headers ]; then
	headers_only=1
	shift
fi
arch=${1:-}
case $arch in
arm64) flavour=arm64 ;;
armhf) flavour=armmp ;;
*) echo "usage: arch-kernel.sh [--headers] arm64|armhf" >&2; exit 2 ;;
esac
[ "$arch" = arm64 ] || [ $headers_only = 1 ] ||
	{ echo "arch-kernel: $arch: only --headers (a build check)" >&2; exit 2; }
mirror=http://deb.debian.org

say() { echo "arch-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get, dpkg -x into $blkgen_cache)"

# apt with a state of its own, one per architecture (ARCH, and amd64 for
# kbuild): this machine's sources, preferences and installed packages play
# no part, nothing is installed.
aptdir=$blkgen_cache/arch/$arch/apt
mkdir -p "$aptdir"/{lists/partial,archives/partial,etc} || exit 1
cat > "$aptdir/etc/sources.list" <<EOF
deb [arch=$arch,amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror/debian bookworm main
deb [arch=$arch,amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror/debian-security bookworm-security main
EOF
apt_opts=(-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
	  -o APT::Architectures::=amd64
	  -o "Dir::State=$aptdir" -o "Dir::State::Lists=$aptdir/lists"
	  -o Dir::State::status=/dev/null -o "Dir::Cache=$aptdir"
	  -o "Dir::Cache::archives=$aptdir/archives"
	  -o "Dir::Etc::SourceList=$aptdir/etc/sources.list"
	  -o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::Preferences=/dev/null
	  -o Dir::Etc::PreferencesParts=/dev/null -o Debug::NoLocking=1
	  -o APT::Install-Recommends=0 -o Acquire::Retries=3)
kdirs_of() {
	local d
	for d in "$blkgen_cache/arch/$arch/kernels"/*-"$flavour"; do
		[ -e "$d/complete" ] && basename "$d"
	done | sort -V
}

# An index that failed (a mirror in sync: seen for bookworm-security's
# armhf and i386 lists, which takes the whole suite out) is left out by
# apt: what the others hold is still looked at, and the kernel found is
# named.
stamp=$aptdir/updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	apt-get "${apt_opts[@]}" update > "$aptdir/update.log" 2>&1
	if ls "$aptdir"/lists/*_Packages* > /dev/null 2>&1; then
		touch "$stamp"
		grep -E '^(E|Err):' "$aptdir/update.log" | head -n 2 | sed 's/^/arch-kernel: apt: /' >&2
	elif r=$(kdirs_of | tail -n 1) && [ -n "$r" ]; then
		say "apt-get update failed ($(tail -n 1 "$aptdir/update.log")): $r, as cached"
		echo "$r"
		exit 0
	else
		die "apt-get update failed: $(tail -n 3 "$aptdir/update.log")"
	fi
fi

rel=$(apt-cache "${apt_opts[@]}" pkgnames linux-headers- |
	sed -nE "s/^linux-headers-([0-9][0-9.]*(-[0-9]+|\+deb12)-$flavour)\$/\1/p" |
	sort -V | tail -n 1)
[ -n "$rel" ] || die "no linux-headers-*-$flavour for $arch in bookworm"

dir=$blkgen_cache/arch/$arch/kernels/$rel
sysroot=$blkgen_cache/arch/$arch/sysroot

# download PKG...: the packages (NAME or NAME:ARCH) into apt's archive
# cache, dependencies left out; print the files.
download() {
	local p f
	for p in "$@"; do
		f=$(apt-get "${apt_opts[@]}" --print-uris download "$p" 2>/dev/null |
			awk '{ print $2 }' | head -n 1)
		[ -n "$f" ] || die "no package $p for $arch in bookworm"
		if [ ! -e "$aptdir/archives/$f" ]; then
			(cd "$aptdir/archives" && apt-get "${apt_opts[@]}" download "$p") \
				> "$aptdir/download.log" 2>&1 ||
				die "apt-get download $p failed: $(tail -n 3 "$aptdir/download.log")"
		fi
		echo "$aptdir/archives/$f"
	done
}

if [ ! -e "$dir/complete" ]; then
	say "$rel ($arch) into $dir"
	kbuild=$(apt-cache "${apt_opts[@]}" show "linux-headers-$rel" |
		grep -m1 '^Depends:' | grep -oE 'linux-kbuild-[^ ,]+' | head -n 1)
	common=$(apt-cache "${apt_opts[@]}" show "linux-headers-$rel" |
		grep -m1 '^Depends:' | grep -oE 'linux-headers-[^ ,]+-common(-rt)?' | head -n 1)
	if [ -z "$kbuild" ] || [ -z "$common" ]; then
		die "linux-headers-$rel names no kbuild or common headers"
	fi
	pkgs=("linux-headers-$rel" "$common:all" "$kbuild:amd64")
	[ $headers_only = 1 ] || pkgs+=("linux-image-$rel")
	mapfile -t debs < <(download "${pkgs[@]}")
	[ ${#debs[@]} -eq ${#pkgs[@]} ] || exit 1
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	for d in "${debs[@]}"; do
		dpkg -x "$d" "$dir.tmp/root" || die "dpkg -x $d failed"
	done
	kdir=$dir.tmp/root/usr/src/linux-headers-$rel
	[ -e "$kdir/Makefile" ] || die "no $kdir/Makefile in linux-headers-$rel"
	# The headers' scripts and tools are links to kbuild's, absolute
	# (/usr/lib/linux-kbuild-X/...): made relative, into this tree.
	find "$kdir" -maxdepth 2 -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in
		/*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$dir.tmp/root$t")" "$l" ;;
		esac
	done
	# Its Makefile includes the common headers' by absolute path, too.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" "$kdir/Makefile"
	[ -x "$kdir/scripts/basic/fixdep" ] || die "linux-headers-$rel: scripts/basic/fixdep missing (kbuild $kbuild)"
	if [ $headers_only = 0 ]; then
		cp "$dir.tmp/root/boot/vmlinuz-$rel" "$dir.tmp/vmlinuz" || die "no image in linux-image-$rel"
		depmod -b "$dir.tmp/root" "$rel" || die "depmod $rel failed"
	fi
	touch "$dir.tmp/complete"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	# Older kernels of the architecture go.
	for d in "$blkgen_cache/arch/$arch/kernels"/*; do
		[ "$d" = "$dir" ] || rm -rf "$d"
	done
fi

# The guest's userland: what tests/vm/mkinitramfs.sh copies into an
# arm64 guest (each executable with the libraries it needs), and the
# libraries blkgenctl links with.
userland=(busybox-static bash fio blktrace dmsetup util-linux libjson-c-dev zlib1g-dev)
if [ $headers_only = 0 ] &&
   [ "$(cat "$sysroot/complete" 2>/dev/null)" != "${userland[*]}" ]; then
	say "the $arch guest's userland into $sysroot"
	rm -rf "$aptdir/userland" "$sysroot.tmp"
	mkdir -p "$aptdir/userland/partial" "$sysroot.tmp"
	apt-get "${apt_opts[@]}" -o "Dir::Cache::archives=$aptdir/userland" \
		install --download-only -y -qq "${userland[@]}" > "$aptdir/userland.log" 2>&1 ||
		die "downloading the $arch userland failed: $(tail -n 3 "$aptdir/userland.log")"
	for d in "$aptdir"/userland/*.deb; do
		dpkg -x "$d" "$sysroot.tmp" || die "dpkg -x $d failed"
	done
	rm -rf "$aptdir/userland"
	echo "${userland[*]}" > "$sysroot.tmp/complete"
	rm -rf "$sysroot"
	mv "$sysroot.tmp" "$sysroot"
fi
echo "$rel"
