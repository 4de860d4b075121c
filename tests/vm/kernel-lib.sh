# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# kernel-lib.sh — where a test kernel's files are (sourced).
#
# Two kinds of kernel: Debian's, installed on this machine (bookworm's 6.1,
# 6.12 and 6.12 rt: /boot/vmlinuz-REL, /lib/modules/REL/build, built with
# the host's gcc), and those tests/vm/newest-kernel.sh unpacked from
# trixie-backports into $BLKGEN_CACHE/kernels/REL (image and modules, from
# the packages, with dpkg -x) whose headers are installed in a trixie build
# root (their compiler, gcc-14, is not bookworm's), where their builds run
# (chroot, with /proc and the build directory mounted in a private mount
# namespace).

blkgen_cache=${BLKGEN_CACHE:-/var/cache/blkgen}
# The trixie build root (newest-kernel.sh makes it).
blkgen_buildroot=$blkgen_cache/buildroot/trixie

# kernel_flavour REL: "" for a generic kernel, else rt or cloud (the
# word before the architecture: 6.12.118+deb12-rt-amd64, 6.12.12+bpo-rt-amd64).
kernel_flavour() {
	case $1 in
	*-rt-*) echo rt ;;
	*-cloud-*) echo cloud ;;
	*) echo '' ;;
	esac
}

# kernel_unpacked REL: REL is a kernel newest-kernel.sh unpacked.
kernel_unpacked() {
	[ -e "$blkgen_cache/kernels/$1/complete" ]
}

# kernel_image REL: the kernel image QEMU boots.
kernel_image() {
	if kernel_unpacked "$1"; then
		echo "$blkgen_cache/kernels/$1/vmlinuz"
	else
		echo "/boot/vmlinuz-$1"
	fi
}

# kernel_modroot REL: the directory whose lib/modules/REL holds the
# kernel's modules (/ for an installed kernel).
kernel_modroot() {
	if kernel_unpacked "$1"; then
		echo "$blkgen_cache/kernels/$1/root"
	else
		echo /
	fi
}

# kernel_kdir REL: the kernel's build tree, as a path on this machine.
kernel_kdir() {
	if kernel_unpacked "$1"; then
		echo "$blkgen_buildroot/usr/src/linux-headers-$1"
	else
		echo "/lib/modules/$1/build"
	fi
}

# buildroot_run DIR CMD...: CMD in the build root (chroot), with /proc
# and, unless DIR is empty, the directory DIR mounted at its own path
# there, in a private mount namespace (nothing stays mounted here).
buildroot_run() {
	local dir=$1
	shift
	if [ -n "$dir" ]; then
		mkdir -p "$blkgen_buildroot$dir" || return 2
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -c '
		root=$1 dir=$2
		shift 2
		mount --make-rprivate / 2>/dev/null
		mount -t proc proc "$root/proc" || exit 2
		if [ -n "$dir" ]; then mount --bind "$dir" "$root$dir" || exit 2; fi
		exec chroot "$root" "$@"' sh "$blkgen_buildroot" "$dir" "$@"
}

# kernel_cross KDIR: the make variables that cross-build for a kernel of
# another architecture (tests/vm/arch-kernel.sh's), one a line; nothing
# for an x86 one. Debian's headers name their ARCH; their CROSS_COMPILE
# comes from dpkg-architecture's DEB_HOST_* (6.1) or is fixed (6.12).
kernel_cross() {
	local arch gnu deb
	arch=$(sed -n 's/^override ARCH = //p' "$1/.kernelvariables" 2>/dev/null)
	case $arch in
	arm64) deb=arm64 gnu=aarch64-linux-gnu ;;
	arm) deb=armhf gnu=arm-linux-gnueabihf ;;
	*) return 0 ;;
	esac
	printf '%s\n' "DEB_HOST_ARCH=$deb" "DEB_HOST_GNU_TYPE=$gnu" "CROSS_COMPILE=$gnu-"
}

# kernel_arch KDIR: the kernel's Debian architecture (amd64, arm64, armhf).
kernel_arch() {
	local v
	v=$(kernel_cross "$1" | sed -n 's/^DEB_HOST_ARCH=//p')
	echo "${v:-amd64}"
}

# kernel_make KDIR ARGS...: make -C KDIR ARGS, where the kernel's compiler
# is: in the build root when KDIR is in it (M=DIR mounted at its own path
# there), else here (a cross compiler for another architecture's).
kernel_make() {
	local kdir=$1 arg mdir="" cross
	shift
	case $kdir in
	"$blkgen_buildroot"/*) ;;
	*)
		mapfile -t cross < <(kernel_cross "$kdir")
		make -C "$kdir" "${cross[@]}" "$@"
		return ;;
	esac
	for arg in "$@"; do
		case $arg in M=*) mdir=${arg#M=} ;; esac
	done
	[ -n "$mdir" ] || { echo "kernel_make: a build in $blkgen_buildroot needs M=DIR" >&2; return 2; }
	mdir=$(cd "$mdir" && pwd) || return 2
	buildroot_run "$mdir" make -C "${kdir#"$blkgen_buildroot"}" "$@"
}

# A kernel of another architecture (tests/vm/arch-kernel.sh ARCH): its
# image, build tree, module root and its guest's userland.
arch_image() { echo "$blkgen_cache/arch/$1/kernels/$2/vmlinuz"; }
arch_kdir() { echo "$blkgen_cache/arch/$1/kernels/$2/root/usr/src/linux-headers-$2"; }
arch_modroot() { echo "$blkgen_cache/arch/$1/kernels/$2/root"; }
arch_sysroot() { echo "$blkgen_cache/arch/$1/sysroot"; }
