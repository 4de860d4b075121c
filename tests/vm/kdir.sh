#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel build directory blkgen builds against by default:
# the running kernel's when its headers are installed, else the newest
# installed Debian linux-headers-*-ARCH of the generic flavour (an rt or
# cloud kernel's headers are chosen by KDIR= only, never by sorting after
# the generic ones). Prints nothing (exit 1) if none.
build=/lib/modules/$(uname -r)/build
if [ -e "$build/Makefile" ]; then
	echo "$build"
	exit 0
fi
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
newest=$(for d in /usr/src/linux-headers-*-"$arch"; do
		case $d in *-rt-"$arch"|*-cloud-"$arch") continue ;; esac
		[ -e "$d/Makefile" ] && echo "$d"
	done | sort -V | tail -n 1)
[ -n "$newest" ] || exit 1
echo "$newest"
