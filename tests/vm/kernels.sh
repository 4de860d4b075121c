#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh [PATTERN...]
#
# Print, oldest first, the kernels blkgen can be built for and booted in
# the test VM: Debian's installed ones (/boot/vmlinuz-REL plus
# /lib/modules/REL/build) and those tests/vm/newest-kernel.sh unpacked
# from trixie-backports (tests/vm/kernel-lib.sh).
#
# Flavours are chosen by name: a release's flavour is the word before
# its architecture (6.12.118+deb12-amd64: generic; 6.12.118+deb12-rt-amd64
# and 6.12.12+bpo-rt-amd64: rt; -cloud-amd64: cloud). Without a PATTERN, the generic kernels. A PATTERN
# "6.12" selects generic releases equal to it or starting with it followed
# by ".", "-" or "+" (so "6.1" is 6.1.0-57-amd64 but neither 6.12.x nor
# an rt kernel); "6.12-rt" the rt ones of 6.12; "rt" (or "cloud") every
# one of that flavour; a whole release names itself.
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"

# matches REL PATTERN
matches() {
	local rel=$1 p=$2 fl want=''
	[ "$rel" = "$p" ] && return 0
	fl=$(kernel_flavour "$rel")
	case $p in
	rt|cloud) [ "$fl" = "$p" ]; return ;;
	*-rt|*-cloud) want=${p##*-}; p=${p%-*} ;;
	esac
	[ "$fl" = "$want" ] || return 1
	case $rel in
	"$p".*|"$p"-*|"$p"+*) return 0 ;;
	esac
	return 1
}

{
	for d in /lib/modules/*/; do
		rel=$(basename "$d")
		[ -e "/boot/vmlinuz-$rel" ] && [ -e "$d/build/Makefile" ] && echo "$rel"
	done
	# Unpacked kernels build in a chroot: root's alone.
	[ "$(id -u)" -eq 0 ] && for d in "$blkgen_cache"/kernels/*/; do
		rel=$(basename "$d")
		kernel_unpacked "$rel" && [ -e "$(kernel_kdir "$rel")/Makefile" ] && echo "$rel"
	done
} 2>/dev/null | sort -u | while read -r rel; do
	if [ $# -eq 0 ]; then
		[ -z "$(kernel_flavour "$rel")" ] && echo "$rel"
		continue
	fi
	for p in "$@"; do
		if matches "$rel" "$p"; then echo "$rel"; break; fi
	done
done | sort -V
