#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-bare.sh KDIR OUTDIR: build blkgen_bare.ko, the bare submit/reap
# loop (tests/bench/bare.c, bench/001's and make bench's yardstick),
# against the kernel tree KDIR in OUTDIR (created); prints the module's
# path. The build's output goes to OUTDIR/build.log; a failure shows it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=$1 out=$2
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"
mkdir -p "$out"
cp -u "$top/tests/bench/bare.c" "$top/tests/bench/Kbuild" "$top/module/compat.h" "$out/"
if ! kernel_make "$kdir" -s M="$out" modules > "$out/build.log" 2>&1; then
	echo "build-bare.sh: blkgen_bare.ko build failed against $kdir:" >&2
	tail -n 20 "$out/build.log" >&2
	exit 1
fi
echo "$out/blkgen_bare.ko"
