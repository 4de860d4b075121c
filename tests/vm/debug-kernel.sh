#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh
#
# Build the test VM's debug kernel from Debian's linux-source-6.12:
# `make tinyconfig` plus tests/vm/debug-kernel.config (KASAN, lockdep,
# kmemleak, UBSAN, KFENCE, debug objects, fault injection; null_blk, NVMe,
# device-mapper, ext4, blktrace and configfs built in). Each option of the
# fragment is checked in the final .config: one whose dependencies are not
# met fails the build, naming it.
#
# The build is cached outside the checkout, in
# ${BLKGEN_CACHE:-/var/cache/blkgen}/debug-kernel/KEY, KEY being a hash of
# the linux-source-6.12 package version, the fragment, this script and the
# patches in tests/vm/debug-kernel-patches/ (fixes of the kernel's own bugs
# that its checkers report, applied after extraction): a
# second run with the same KEY reuses it. It is built in a temporary
# directory renamed into place when complete, so an interrupted build is
# never taken for a finished one (a failed one leaves failed-build.log
# there). The two newest builds are kept.
#
# Progress goes to standard error; the last line of standard output is
#   KERNEL=<bzImage> KDIR=<build tree to build blkgen.ko against>
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz
frag=$top/tests/vm/debug-kernel.config
self=$top/tests/vm/debug-kernel.sh

say() { echo "debug-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) && [ -n "$pkgver" ] ||
	die "$pkg is not installed (tests/install-deps.sh, or apt-get install $pkg)"
[ -r "$tarball" ] || die "$tarball missing (reinstall $pkg)"
for tool in make gcc flex bison bc; do
	command -v "$tool" > /dev/null || die "$tool not found (tests/install-deps.sh)"
done
[ -e /usr/include/libelf.h ] || die "libelf-dev is not installed (tests/install-deps.sh)"

# Fixes the test kernel carries (a bug of the kernel, not blkgen's, that
# its checkers report), applied in name order.
patches=("$top"/tests/vm/debug-kernel-patches/*.patch)
[ -e "${patches[0]}" ] || patches=()
key=$( { echo "$pkg $pkgver"; cat "$frag" "$self" "${patches[@]}"; } | sha256sum | cut -c 1-16)
base=${BLKGEN_CACHE:-/var/cache/blkgen}/debug-kernel
dest=$base/$key

# result DIR: the line the callers read.
result() {
	echo "KERNEL=$1/linux/arch/x86/boot/bzImage KDIR=$1/linux"
}

if [ -f "$dest/linux/arch/x86/boot/bzImage" ]; then
	say "cached build $key ($pkg $pkgver, $(cat "$dest/linux/include/config/kernel.release"), built in $(cat "$dest/build-seconds" 2>/dev/null) s)"
	touch "$dest" 2>/dev/null || true	# recently used: kept by the pruning below
	result "$dest"
	exit 0
fi

mkdir -p "$base"
# One build at a time; a second caller waits and then finds the first's.
exec 9> "$base/.lock"
if ! flock -n 9; then
	say "waiting for another build (lock $base/.lock)"
	flock 9
fi
if [ -f "$dest/linux/arch/x86/boot/bzImage" ]; then
	result "$dest"
	exit 0
fi
# Left by builds that were killed (holding the lock, nothing else builds),
# and a result that is not whole.
rm -rf "$base"/.tmp-* "$dest"

tmp=$(mktemp -d "$base/.tmp-$key.XXXXXX")
src=$tmp/linux
log=$tmp/build.log
# A failed build leaves only its log, as failed-build.log.
trap 'if [ -e "$log" ]; then cp "$log" "$base/failed-build.log"; fi; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
start=$(date +%s)

say "building $key from $pkg $pkgver in $tmp (log: build.log there)"
say "extracting $tarball"
mkdir -p "$src"
tar -xf "$tarball" -C "$src" --strip-components=1
for p in "${patches[@]}"; do
	say "applying ${p#"$top"/}"
	(cd "$src" && git apply -p1 "$p") >> "$log" 2>&1 || die "${p#"$top"/} does not apply"
done

kmake() {
	make -C "$src" ARCH=x86_64 "$@" >> "$log" 2>&1 || {
		tail -n 40 "$log" >&2
		die "make $* failed (full log: $base/failed-build.log)"
	}
}

say "configuring: tinyconfig + ${frag#"$top"/}"
kmake tinyconfig
(cd "$src" && scripts/kconfig/merge_config.sh -m .config "$frag") >> "$log" 2>&1 ||
	die "merge_config.sh failed (log: $base/failed-build.log)"
kmake olddefconfig

# Every line of the fragment must hold in the result: merge_config and
# olddefconfig drop options whose dependencies are missing without failing.
missing=()
while read -r line; do
	case $line in
	"# CONFIG_"*" is not set")
		sym=${line#"# "}
		sym=${sym%% *}
		if grep -q "^$sym=" "$src/.config"; then
			missing+=("$line (is $(grep "^$sym=" "$src/.config"))")
		fi
		;;
	CONFIG_*=*)
		if ! grep -qxF "$line" "$src/.config"; then
			got=$(grep -E "^(# )?${line%%=*}[= ]" "$src/.config" || true)
			missing+=("$line (is ${got:-absent})")
		fi
		;;
	esac
done < "$frag"
if [ ${#missing[@]} -gt 0 ]; then
	say "options of ${frag#"$top"/} not in the final .config (unmet dependencies?):"
	printf '    %s\n' "${missing[@]}" >&2
	exit 1
fi

jobs=$(nproc)
say "building bzImage and modules (make -j$jobs; about 11 minutes on 2 idle cores)"
kmake -j"$jobs" bzImage modules
kmake modules_prepare
[ -f "$src/arch/x86/boot/bzImage" ] && [ -f "$src/Module.symvers" ] ||
	die "build finished without bzImage or Module.symvers"
secs=$(( $(date +%s) - start ))
echo "$secs" > "$tmp/build-seconds"
rel=$(cat "$src/include/config/kernel.release")

if ! mv -T "$tmp" "$dest" 2>/dev/null; then
	die "cannot move $tmp to $dest"
fi
trap - EXIT
rm -f "$base/failed-build.log"
say "built $rel in ${secs} s: $dest (log: $dest/build.log)"

# Keep the two newest builds.
find "$base" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%T@ %p\n' |
	sort -rn | tail -n +3 | cut -d ' ' -f 2- |
	while read -r old; do
		say "removing old build $old"
		rm -rf "$old"
	done

result "$dest"
