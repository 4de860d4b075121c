#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-tree-check.sh REL
#
# The collection in the kselftest tree's form (tests/kselftest-tree.sh),
# as a farm adopts it: copied into Debian's linux-source-6.12 as
# tools/testing/selftests/blkgen and installed by the tree's own
# `make -C tools/testing/selftests TARGETS=blkgen install`, the modules
# built for kernel REL (KDIR=/lib/modules/REL/build). Checks the install:
# the kernel's runner and its list with blkgen's programs, the static
# tool, blkgen.ko for REL (and blkgen_test.ko exactly when REL has
# KUnit), and a program run by run_kselftest.sh. The source's selftests
# and scripts/subarch.include are taken from the package once and cached
# in ${BLKGEN_CACHE:-/var/cache/blkgen}/kselftest-tree/VERSION. TAP output.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
rel=${1:?usage: kselftest-tree-check.sh REL}
kdir=/lib/modules/$rel/build
pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

ver=$(dpkg-query -W -f='${Version}' "$pkg" 2> /dev/null) && [ -n "$ver" ] ||
	{ notok "$pkg is not installed (tests/install-deps.sh)"; exit 1; }
command -v rsync > /dev/null || { notok "rsync, which lib.mk installs with, is missing"; exit 1; }
[ -e "$kdir/Makefile" ] || { notok "no kernel build tree $kdir"; exit 1; }
cache=${BLKGEN_CACHE:-/var/cache/blkgen}
mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] || cache=$top/build/cache
src=$cache/kselftest-tree/$ver
if [ ! -e "$src/complete" ]; then
	mkdir -p "${src%/*}"
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" "$pkg/tools/testing/selftests" \
		"$pkg/scripts/subarch.include" || { notok "unpacking $tarball"; exit 1; }
	touch "$src.tmp/complete"
	rm -rf "$src"
	mv "$src.tmp" "$src"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$src/$pkg" "$tmp/linux"
sel="configfs/001 run/001 module/004"
# shellcheck disable=SC2086 # the selection, word by word
"$top/tests/kselftest-tree.sh" "$tmp/tree" $sel 2> /dev/null ||
	{ notok "kselftest-tree.sh"; exit 1; }
cp -a "$tmp/tree/blkgen" "$tmp/linux/tools/testing/selftests/blkgen"
inst=$tmp/inst
if make -C "$tmp/linux/tools/testing/selftests" TARGETS=blkgen install \
	INSTALL_PATH="$inst" KDIR="$kdir" > "$tmp/make.log" 2>&1; then
	ok "make -C tools/testing/selftests TARGETS=blkgen install (linux-source-6.12, KDIR for $rel)"
else
	tail -n 20 "$tmp/make.log" | sed 's/^/# /'
	notok "make -C tools/testing/selftests TARGETS=blkgen install"
	exit 1
fi
want=$(for t in $sel; do echo "blkgen:${t/\//_}.sh"; done)
check "the install's kselftest-list.txt lists blkgen's programs" \
	'[ "$(cat "$inst/kselftest-list.txt")" = "$want" ]'
check "the kernel's runner beside them" '[ -x "$inst/run_kselftest.sh" ] && [ -f "$inst/kselftest/runner.sh" ]'
check "each program, test and its output" \
	'(for t in $sel; do [ -x "$inst/blkgen/${t/\//_}.sh" ] && [ -f "$inst/blkgen/tests/$t.out" ] || exit 1; done)'
check "settings and config" '[ -f "$inst/blkgen/settings" ] && grep -qx CONFIG_KUNIT=y "$inst/blkgen/config"'
check "blkgenctl, linked statically" \
	'"$inst/blkgen/bin/blkgenctl" --version > /dev/null && ! ldd "$inst/blkgen/bin/blkgenctl" > /dev/null 2>&1'
check "blkgen.ko built for $rel (TEST_GEN_MODS_DIR)" \
	'[ "$(modinfo -F vermagic "$inst/blkgen/modules/blkgen.ko" | cut -d " " -f 1)" = "$rel" ]'
if grep -qs '^CONFIG_KUNIT=[ym]' "$kdir/.config"; then
	check "blkgen_test.ko beside it ($rel has KUnit)" '[ -f "$inst/blkgen/modules/blkgen_test.ko" ]'
else
	check "no blkgen_test.ko ($rel has no KUnit)" '[ ! -e "$inst/blkgen/modules/blkgen_test.ko" ]'
fi
# Here nothing of blkgen's is loaded (and the modules are for REL): the
# runner runs the program, which reports itself skipped with its reason.
(cd "$inst" && BLKGEN_NO_KLOG=1 timeout 120 ./run_kselftest.sh -t blkgen:configfs_001.sh) 2>&1 |
	cat > "$tmp/ktap"
check "run_kselftest.sh runs an installed program" \
	'grep -qE "^ok 1 selftests: blkgen: configfs_001.sh( # SKIP)?$" "$tmp/ktap"'
[ $fail = 0 ] || sed 's/^/# /' "$tmp/ktap"
exit $fail
