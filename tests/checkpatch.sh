#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh FILE...
#
# Run the kernel's checkpatch.pl --strict (options in /.checkpatch.conf)
# on FILEs. checkpatch.pl and its data files come from Debian's
# linux-source-6.12 tarball and are unpacked once into build/checkpatch.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/checkpatch
tarball=$(ls /usr/src/linux-source-6.12*.tar.xz 2>/dev/null | sort -V | tail -n 1)

if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	if [ -z "$tarball" ]; then
		echo "checkpatch: install linux-source-6.12 for scripts/checkpatch.pl" >&2
		exit 1
	fi
	mkdir -p "$dir"
	src=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		"$src/scripts/checkpatch.pl" "$src/scripts/spelling.txt" \
		"$src/scripts/const_structs.checkpatch"
fi

cd "$top"
# compat.h is where version tests belong: do not flag them there.
rc=0
for f in "$@"; do
	extra=()
	case $f in
	*/compat.h) extra=(--ignore "LINUX_VERSION_CODE,CONSTANT_COMPARISON") ;;
	esac
	"$dir/scripts/checkpatch.pl" --quiet "${extra[@]}" -f "$f" || rc=1
done
exit $rc
