#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel build directory blkgen builds against by default:
# the running kernel's when its headers are installed, else the newest
# installed Debian linux-headers-*-amd64. Prints nothing (exit 1) if none.
build=/lib/modules/$(uname -r)/build
if [ -e "$build/Makefile" ]; then
	echo "$build"
	exit 0
fi
newest=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$newest" ] || exit 1
echo "$newest"
