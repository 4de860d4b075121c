#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh KDIR OUTDIR [COPYDIR]
#
# Build blkgen.ko against the kernel tree KDIR in OUTDIR (a private copy of
# the sources, so several kernels can be built side by side without
# clobbering the in-tree build; one build at a time in one OUTDIR, under
# a lock), with the kernel's own compiler (a kernel
# of tests/vm/newest-kernel.sh's builds in its trixie build root). Prints
# the path of the module (with COPYDIR, of its copy there).
set -eu

kdir=$1
out=$2
copy=${3:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"

mkdir -p "$out"
# One build at a time in OUTDIR: make check's boots of one kernel (its
# test, icount, kselftest and demo boots, side by side in two lanes)
# share build/kernels/RELEASE, and a second build there waits for the
# first and then finds nothing to do.
exec 9> "$out/.lock"
flock 9
# Copy only what changed so kbuild's incremental build keeps working.
cp -u "$top/Kbuild" "$out/"
mkdir -p "$out/module" "$out/uapi/linux"
cp -u "$top"/module/Kbuild "$top"/module/*.[ch] "$out/module/"
cp -u "$top"/uapi/linux/*.h "$out/uapi/linux/"
# Remove sources that no longer exist in the tree (not kbuild's *.mod.c).
for f in "$out"/module/*.[ch]; do
	case $f in *.mod.c) continue ;; esac
	[ -e "$top/module/$(basename "$f")" ] || rm -f "$f" "${f%.c}.o"
done

set -o pipefail
# Debian ships no vmlinux with its headers, so kbuild skips BTF: say so once, not per build.
kernel_make "$kdir" -s M="$out" modules 2>&1 | { grep -v "^Skipping BTF generation" || true; } >&2
# With COPYDIR, the modules copied there while the lock is held (a boot's
# own copy: a later build in OUTDIR, of sources edited meanwhile, cannot
# change it under the boot), and that copy's path printed.
if [ -n "$copy" ]; then
	mkdir -p "$copy"
	rm -f "$copy"/*.ko
	cp "$out/module/blkgen.ko" "$copy/"
	[ ! -e "$out/module/blkgen_test.ko" ] || cp "$out/module/blkgen_test.ko" "$copy/"
	echo "$copy/blkgen.ko"
else
	echo "$out/module/blkgen.ko"
fi
