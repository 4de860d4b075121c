#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh [PATTERN...]
#
# Print, oldest first, the installed kernels blkgen can be built for and
# booted in the test VM: /boot/vmlinuz-REL plus /lib/modules/REL/build.
# A PATTERN selects releases equal to it or starting with PATTERN followed
# by ".", "-" or "+" (so "6.1" is 6.1.0-57-amd64 but not 6.12.x).
for d in /lib/modules/*/; do
	rel=$(basename "$d")
	[ -e "/boot/vmlinuz-$rel" ] && [ -e "$d/build/Makefile" ] || continue
	if [ $# -eq 0 ]; then
		echo "$rel"
		continue
	fi
	for p in "$@"; do
		case $rel in
		"$p"|"$p".*|"$p"-*|"$p"+*) echo "$rel"; break ;;
		esac
	done
done | sort -V
