#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-runner.sh: print the directory holding the kernel's own
# kselftest runner (run_kselftest.sh and kselftest/), taken from Debian's
# linux-source-6.12 at test time and cached in
# ${BLKGEN_CACHE:-/var/cache/blkgen}/kselftest-runner/VERSION (the tarball
# is read once per package version: some 15 s).
set -eu
set -o pipefail

pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) && [ -n "$ver" ] ||
	{ echo "kselftest-runner: $pkg is not installed (tests/install-deps.sh)" >&2; exit 1; }
cache=${BLKGEN_CACHE:-/var/cache/blkgen}
# Not root: in the tree's build directory.
mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] ||
	cache=$(cd "$(dirname "$0")/.." && pwd)/build/cache
dest=$cache/kselftest-runner/$ver
if [ ! -x "$dest/run_kselftest.sh" ]; then
	mkdir -p "${dest%/*}"
	tmp=$(mktemp -d "${dest%/*}/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	sel=$pkg/tools/testing/selftests
	tar -xJf "$tarball" -C "$tmp" "$sel/run_kselftest.sh" "$sel/kselftest"
	# A second caller's copy may be there first: either is whole.
	mv -T "$tmp/$sel" "$dest" 2> /dev/null || true
fi
echo "$dest"
