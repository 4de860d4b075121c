#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# newest-kernel.sh [FLAVOUR]
# newest-kernel.sh --previous [FLAVOUR]
# newest-kernel.sh --headers-debs REL
#
# Make Debian's newest kernel of FLAVOUR (default amd64, the generic one;
# rt-amd64, cloud-amd64) a test kernel, as root: found at run time, the
# newest linux-image-*+deb13-FLAVOUR of trixie-backports, so that the
# matrix follows Debian without an edit here. Prints its release.
#
# - trixie-backports as an apt source of its own, pinned at -1 so that
#   nothing is ever installed from it on this machine (packages are only
#   downloaded from it, by name);
# - the kernel's image, modules and their lists unpacked with dpkg -x into
#   $BLKGEN_CACHE/kernels/REL/root (nothing of it needs this machine's
#   libc), its image beside it;
# - a trixie build root (debootstrap, gcc-14 and what kbuild, BTF and
#   DKMS need: the kernel's headers are built for gcc-14, which bookworm
#   lacks) in $BLKGEN_CACHE/buildroot/trixie, the kernel's headers and
#   kbuild installed in it (tests/vm/kernel-lib.sh: kernel_make).
#
# Cached: a second run with the same newest kernel does nothing but look
# it up (apt-get update at most once an hour). Each step is done in a
# temporary directory renamed into place when complete. --previous prints
# the release of the kernel before the newest, unpacking nothing;
# --headers-debs REL downloads REL's headers, common headers and kbuild
# packages and prints their files (the two, for tests/dkms-check.sh's
# kernel upgrade).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"

previous=0 headers=
case ${1:-} in
--previous) previous=1; shift ;;
--headers-debs) headers=$2; shift 2 ;;
esac
flavour=${1:-amd64}
if [ -n "$headers" ]; then
	flavour=$(echo "$headers" | sed -nE 's/^[0-9.]+\+deb13-(.*)$/\1/p')
	[ -n "$flavour" ] || { echo "newest-kernel: --headers-debs takes a trixie release (7.3.4+deb13-amd64), not '$headers'" >&2; exit 2; }
fi
suite=trixie-backports
mirror=http://deb.debian.org/debian

say() { echo "newest-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get, debootstrap, chroot)"

# The apt source and its pin: downloads by name only.
src=/etc/apt/sources.list.d/blkgen-$suite.sources
pin=/etc/apt/preferences.d/blkgen-$suite
want_src="Types: deb
URIs: $mirror
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
want_pin="# blkgen's test kernels are downloaded from $suite by name
# (tests/vm/newest-kernel.sh); nothing is installed from it here.
Package: *
Pin: release n=$suite
Pin-Priority: -1"
stamp=/var/lib/apt/lists/.blkgen-$suite-updated
if [ "$(cat "$src" 2>/dev/null)" != "$want_src" ] || [ "$(cat "$pin" 2>/dev/null)" != "$want_pin" ]; then
	echo "$want_pin" > "$pin"
	echo "$want_src" > "$src"
	rm -f "$stamp"
fi
# cached: the newest kernel of the flavour already unpacked here.
cached() {
	local d r=
	for d in "$blkgen_cache"/kernels/*+deb13-"$flavour"; do
		[ -e "$d/complete" ] && r=$(basename "$d")
	done
	[ -n "$r" ] && printf '%s\n' "$r"
}
# --headers-debs takes files of the release the run already chose: no
# look-up of a newer one.
if [ -z "$headers" ] && [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	if apt-get update -qq > /tmp/blkgen-apt-update.log 2>&1; then
		touch "$stamp"
	elif [ $previous = 0 ] && r=$(cached); then
		# Offline: the kernel unpacked before is still a kernel to test.
		say "apt-get update failed ($(tail -n 1 /tmp/blkgen-apt-update.log)): $r, as cached"
		echo "$r"
		exit 0
	else
		die "apt-get update failed: $(tail -n 3 /tmp/blkgen-apt-update.log)"
	fi
fi

# The newest release of the flavour, by its image's name (deb13: trixie's).
mapfile -t rels < <(apt-cache pkgnames linux-image- |
	sed -nE "s/^linux-image-([0-9][0-9.]*\+deb13-$flavour)\$/\1/p" | sort -V)
[ ${#rels[@]} -gt 0 ] || die "no linux-image-*+deb13-$flavour in $suite"
rel=${rels[-1]}
if [ $previous = 1 ]; then
	[ ${#rels[@]} -gt 1 ] || die "$suite has one $flavour kernel: no upgrade to test"
	echo "${rels[-2]}"
	exit 0
fi

mkdir -p "$blkgen_cache/kernels" "$blkgen_cache/buildroot" "$blkgen_cache/debs" || exit 1

# fetch PKG...: download each package of $suite into the cache; print
# the files.
fetch() {
	local p f
	for p in "$@"; do
		f=$(ls "$blkgen_cache/debs/${p}_"*.deb 2>/dev/null | tail -n 1)
		if [ -z "$f" ]; then
			(cd "$blkgen_cache/debs" && apt-get download -qq "$p/$suite") \
				> /tmp/blkgen-apt-download.log 2>&1 ||
				die "apt-get download $p/$suite failed: $(tail -n 3 /tmp/blkgen-apt-download.log)"
			f=$(ls "$blkgen_cache/debs/${p}_"*.deb | tail -n 1)
		fi
		echo "$f"
	done
}

# The build root.
if [ ! -e "$blkgen_buildroot/complete" ]; then
	command -v debootstrap > /dev/null || die "debootstrap missing (tests/install-deps.sh installs it)"
	rm -rf "$blkgen_buildroot.tmp"
	say "debootstrap trixie into $blkgen_buildroot (about a minute and a half)"
	debootstrap --variant=minbase \
		--include=gcc-14,make,libc6-dev,libelf-dev,bc,kmod,dwarves,dkms,linux-base,openssl \
		trixie "$blkgen_buildroot.tmp" "$mirror" > /tmp/blkgen-debootstrap.log 2>&1 ||
		die "debootstrap failed: $(tail -n 3 /tmp/blkgen-debootstrap.log)"
	rm -rf "$blkgen_buildroot.tmp"/var/cache/apt/archives/*.deb
	touch "$blkgen_buildroot.tmp/complete"
	rm -rf "$blkgen_buildroot"
	mv "$blkgen_buildroot.tmp" "$blkgen_buildroot"
fi

# headers_debs REL: download the kernel's headers, common headers and
# kbuild; print the files.
headers_debs() {
	local r=$1 common
	common=$(apt-cache show "linux-headers-$r/$suite" |
		sed -nE 's/^Depends:.*(linux-headers-[^ ,]*-common(-rt)?)([ ,].*)?$/\1/p' | head -n 1)
	[ -n "$common" ] || die "linux-headers-$r names no common headers"
	fetch "$common" "linux-kbuild-${r%-"$flavour"}" "linux-headers-$r"
}

# headers_install REL: the kernel's headers in the build root
# (--force-depends: gcc-14-for-host is a virtual package gcc-14 does not
# provide there). Their postinst runs the kernel's header hooks.
headers_install() {
	local r=$1 debs
	mapfile -t debs < <(headers_debs "$r")
	[ ${#debs[@]} -eq 3 ] || exit 1
	mkdir -p "$blkgen_buildroot/tmp/debs"
	cp "${debs[@]}" "$blkgen_buildroot/tmp/debs/"
	buildroot_run '' dpkg --force-depends -i \
		"${debs[@]/#"$blkgen_cache/debs"//tmp/debs}" > /tmp/blkgen-headers.log 2>&1 ||
		die "installing linux-headers-$r in the build root failed: $(tail -n 5 /tmp/blkgen-headers.log)"
	rm -rf "$blkgen_buildroot/tmp/debs"
}
if [ -n "$headers" ]; then
	headers_debs "$headers"
	exit
fi

if kernel_unpacked "$rel" && [ -e "$(kernel_kdir "$rel")/Makefile" ]; then
	echo "$rel"
	exit 0
fi
say "$rel from $suite into $blkgen_cache/kernels/$rel"
[ -e "$(kernel_kdir "$rel")/Makefile" ] || headers_install "$rel"

# The image, modules and their lists (linux-image-REL is a metapackage
# since 7.x: linux-binary-REL, linux-modules-REL, linux-base-REL).
pkgs=("linux-binary-$rel" "linux-modules-$rel" "linux-base-$rel")
apt-cache show "linux-binary-$rel/$suite" > /dev/null 2>&1 || pkgs=("linux-image-$rel")
mapfile -t debs < <(fetch "${pkgs[@]}")
[ ${#debs[@]} -eq ${#pkgs[@]} ] || die "could not download ${pkgs[*]}"
dir=$blkgen_cache/kernels/$rel
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/root"
for d in "${debs[@]}"; do
	dpkg -x "$d" "$dir.tmp/root" || die "dpkg -x $d failed"
done
# 7.x puts everything under usr/lib/modules; modprobe -d ROOT and depmod
# -b ROOT read ROOT/lib/modules.
if [ -d "$dir.tmp/root/usr/lib/modules" ] && [ ! -e "$dir.tmp/root/lib" ]; then
	ln -s usr/lib "$dir.tmp/root/lib"
fi
img=$dir.tmp/root/lib/modules/$rel/vmlinuz
[ -e "$img" ] || img=$dir.tmp/root/boot/vmlinuz-$rel
[ -e "$img" ] || die "no kernel image in ${debs[*]}"
cp "$img" "$dir.tmp/vmlinuz"
depmod -b "$dir.tmp/root" "$rel" || die "depmod $rel failed"
touch "$dir.tmp/complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
# Older kernels of the flavour, unpacked, and their image's packages go
# (their headers stay in the build root, a few MB each).
for d in "$blkgen_cache"/kernels/*+deb13-"$flavour"; do
	r=$(basename "$d")
	[ "$r" = "$rel" ] || [ ! -d "$d" ] && continue
	rm -rf "$d" "$blkgen_cache"/debs/*"$r"_*.deb
done
echo "$rel"
