#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-install.sh DIR [TEST|GROUP ...]
#
# Install blkgen's tests as a kselftest collection named "blkgen" in DIR
# (make kselftest-install INSTALL_PATH=DIR), for the kernel's own runner:
#
#   DIR/blkgen/GROUP_NNN.sh     one program per test, run by the runner
#   DIR/blkgen/tests/           run_tests, lib/ and the tests with their
#                               expected output
#   DIR/blkgen/bin/blkgenctl    the tool, linked statically
#   DIR/blkgen/profiles, suites what the tool's tests load
#   DIR/blkgen/settings         timeout= for the runner
#   DIR/blkgen/config           the kernel options the tests need
#   DIR/blkgen/kselftest-list.txt  the collection's blkgen:GROUP_NNN.sh
#                               lines, also added to DIR/kselftest-list.txt:
#                               appended to an existing kselftest install's
#                               (earlier blkgen lines replaced), else written
#
# With TEST or GROUP arguments only those are listed and installed. A
# program runs its test through run_tests -k: exit 0 pass, 1 fail, 4 skip
# (not root, no blkgen module, no null_blk, no NVMe, a program missing:
# the reason on a "# SKIP" line), within five sixths of the runner's
# timeout (run_tests then kills a stuck test itself and names what it
# waits on). The module is not part of the collection: install it (make
# dkms-install) on the kernel under test.
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dest=$1
shift

say() { echo "kselftest-install: $*" >&2; }
die() { say "$*"; exit 1; }

# The collection in the kselftest tree's form (tests/kselftest-tree.sh),
# installed by its own Makefile (out of a kernel tree: what lib.mk would
# do), the modules left out (TEST_GEN_MODS_DIR=). The tool is built in
# build/kselftest-tool (-ARCH for CROSS_COMPILE's).
tree=$top/build/kselftest-tree
# One install at a time: make check's kselftest boots, side by side in
# two lanes, share the tree (made anew each time) and the tool's OUTPUT.
mkdir -p "$top/build"
exec 8> "$top/build/kselftest-tree.lock"
flock 8
"$top/tests/kselftest-tree.sh" "$tree" "$@" 2> /dev/null || die "no such test or group: $*"
col=$dest/blkgen
mkdir -p "$dest"
rm -rf "$col"
make -s -C "$tree/blkgen" install INSTALL_PATH="$col" TEST_GEN_MODS_DIR= \
	OUTPUT="$top/build/kselftest-tool${CROSS_COMPILE:+-${CROSS_COMPILE%-}}" > /dev/null ||
	die "make install of the collection failed"
make -s -C "$tree/blkgen" emit_tests > "$col/list"
tests=()
mapfile -t tests < "$col/list"

# kselftest-list.txt: ours replace any earlier blkgen lines.
list=$dest/kselftest-list.txt
if [ -f "$list" ]; then
	grep -v '^blkgen:' "$list" > "$list.new" || [ $? -eq 1 ] ||
		die "cannot read $list"
	cat "$col/list" >> "$list.new"
	mv "$list.new" "$list"
	say "${#tests[@]} tests added to $list"
else
	cp "$col/list" "$list"
	say "${#tests[@]} tests listed in $list (no kselftest install there: run them with the kernel's run_kselftest.sh copied beside it)"
fi
mv "$col/list" "$col/kselftest-list.txt"
