#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-check.sh [NEWEST PREVIOUS]: DKMS follows the kernel, on a Debian 13 system with
# trixie-backports' kernels, as a user upgrading the kernel meets it.
#
# In a throwaway overlay of the trixie build root (tests/vm/newest-kernel.sh;
# a private mount namespace, so the root itself is left as it was):
#   1. the kernel before the newest is the one with headers (the newest's
#      removed); `make dkms-install` from a copy of the tree registers
#      blkgen and builds it for that kernel, found by the Makefile's
#      default KDIR;
#   2. the newest kernel's headers are installed (dpkg -i, as an upgrade
#      does): Debian's kernel hook runs DKMS's autoinstall, which must
#      build and install blkgen for the newest kernel;
#   3. `make dkms-uninstall` leaves no module and no registration.
# Each blkgen.ko must be under updates/dkms with the vermagic of its
# kernel. As root. NEWEST and PREVIOUS are trixie-backports' newest
# kernel and the one before it (make check's, looked up once at its
# start); by default looked up now.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "dkms-check: run as root" >&2; exit 1; }
if [ $# -eq 2 ]; then
	newest=$1 prev=$2
else
	newest=$("$top/tests/vm/newest-kernel.sh") || exit 1
	prev=$("$top/tests/vm/newest-kernel.sh" --previous) || exit 1
fi
mapfile -t debs_prev < <("$top/tests/vm/newest-kernel.sh" --headers-debs "$prev")
mapfile -t debs_new < <("$top/tests/vm/newest-kernel.sh" --headers-debs "$newest")
[ ${#debs_prev[@]} -eq 3 ] && [ ${#debs_new[@]} -eq 3 ] || exit 1

tmp=$(mktemp -d /tmp/blkgen-dkms.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/upper" "$tmp/work" "$tmp/root"

# The script run in the overlay, chrooted.
cat > "$tmp/check.sh" <<'EOF'
#!/bin/bash
set -u
newest=$1 prev=$2
fail() {
	tail -n 20 /var/lib/dkms/blkgen/*/build/make.log 2>/dev/null
	echo "dkms-check: FAIL: $*"
	exit 1
}
# vermagic_of REL: the release blkgen.ko was built for, under updates/dkms.
vermagic_of() {
	local ko
	ko=$(ls /lib/modules/"$1"/updates/dkms/blkgen.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] || return 1
	modinfo -F vermagic "$ko" | cut -d ' ' -f 1
}
export DEBIAN_FRONTEND=noninteractive
dpkg -r "linux-headers-$newest" > /tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "removing $newest's headers"; }
dpkg --force-depends -i /tmp/debs-prev/*.deb > /tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "installing $prev's headers"; }
echo "dkms-check: $prev's headers installed, $newest's removed"
cd /tmp/blkgen || exit 1
make -s dkms-install > /tmp/make.log 2>&1 || { tail -n 30 /tmp/make.log; fail "make dkms-install"; }
v=$(vermagic_of "$prev") || { tail -n 30 /tmp/make.log; fail "make dkms-install built nothing for $prev"; }
[ "$v" = "$prev" ] || fail "make dkms-install built for $v, not $prev"
echo "dkms-check: make dkms-install built blkgen.ko for $prev"
dpkg --force-depends -i /tmp/debs-new/*.deb > /tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; fail "installing $newest's headers"; }
v=$(vermagic_of "$newest") || { tail -n 30 /tmp/dpkg.log; fail "installing $newest's headers built nothing for it"; }
[ "$v" = "$newest" ] || fail "the autoinstall built for $v, not $newest"
echo "dkms-check: installing $newest's headers built blkgen.ko for it (DKMS autoinstall)"
make -s dkms-uninstall > /tmp/make.log 2>&1 || { tail -n 30 /tmp/make.log; fail "make dkms-uninstall"; }
left=$(ls /lib/modules/*/updates/dkms/blkgen.ko* /var/lib/dkms/blkgen 2>/dev/null)
[ -z "$left" ] || fail "make dkms-uninstall left $left"
echo "dkms-check: make dkms-uninstall left nothing"
EOF
chmod +x "$tmp/check.sh"

# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m bash -c '
	set -e
	tmp=$1 br=$2 top=$3 newest=$4 prev=$5
	shift 5
	mount --make-rprivate / 2>/dev/null || true
	mount -t overlay overlay -o "lowerdir=$br,upperdir=$tmp/upper,workdir=$tmp/work" "$tmp/root"
	mount -t proc proc "$tmp/root/proc"
	mkdir -p "$tmp/root/tmp/blkgen" "$tmp/root/tmp/debs-prev" "$tmp/root/tmp/debs-new"
	cp "$@" "$tmp/root/tmp/"
	for f in "$@"; do
		case ${f##*/} in *"-${prev%%-*}"[-_]*) mv "$tmp/root/tmp/${f##*/}" "$tmp/root/tmp/debs-prev/" ;;
		*) mv "$tmp/root/tmp/${f##*/}" "$tmp/root/tmp/debs-new/" ;; esac
	done
	# What make dkms-install reads.
	cd "$top"
	tar -cf - Makefile Kbuild dkms.conf module/Kbuild module/*.[ch] uapi tests/vm/kdir.sh |
		tar -C "$tmp/root/tmp/blkgen" -xf -
	cp "$tmp/check.sh" "$tmp/root/tmp/check.sh"
	exec chroot "$tmp/root" /tmp/check.sh "$newest" "$prev"' sh \
	"$tmp" "$blkgen_buildroot" "$top" "$newest" "$prev" "${debs_prev[@]}" "${debs_new[@]}"
