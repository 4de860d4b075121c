#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [--list] [debug-kernel]
#
# Make sure the Debian packages `make check` needs are installed. As root
# on Debian, missing ones are installed with apt-get (after one
# `apt-get update`, not repeated within the hour); otherwise they are
# named and the script fails. With debug-kernel, only those the debug
# kernel's build needs: make check installs them first and starts that
# build (its longest step) while the others are installed.
# The kernel images are only booted under QEMU; installing them adds
# entries to /boot but does not change the default boot of the host.
set -u

pkgs=(
	gcc make libc6-dev pkg-config libjson-c-dev zlib1g-dev	# build
	sparse shellcheck linux-source-6.12		# static checks
	rsync						# kselftest's lib.mk installs with it
	linux-headers-amd64 linux-image-amd64		# Debian 6.1
	linux-headers-6.12-amd64 linux-image-6.12-amd64	# Debian 6.12
	linux-headers-6.12-rt-amd64 linux-image-6.12-rt-amd64	# Debian 6.12 PREEMPT_RT
	debootstrap					# the newest kernel's build root (tests/vm/newest-kernel.sh)
	qemu-system-x86 busybox-static cpio xz-utils kmod	# the test VM
	qemu-system-arm gcc-aarch64-linux-gnu		# the arm64 VM (tests/vm/arch-kernel.sh)
	fio blktrace dmsetup				# witnesses and faults in the VM
	python3-six					# fio_jsonplus_clat2csv (unit: test-fio.sh)
	flex bison bc libelf-dev libssl-dev		# the debug kernel (linux-source-6.12)
	gnuplot-nox python3-docutils			# blkgenctl plot, the man page
	dkms						# make dkms-install (install-check.sh)
	chromium					# review: the HTML report in a browser (unit: test-review.sh)
	jq						# JSON in the host tests (unit, multihost)
	ansible-core ansible-lint openssh-client	# ansible/: linted, run against two VMs
	pycodestyle pyflakes3			# the collection's Python (its plugins), offline
	e2fsprogs					# the bare guest's disk (tests/multihost/install.sh)
)

if [ "${1:-}" = --list ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi
if [ "${1:-}" = debug-kernel ]; then
	pkgs=(gcc make libc6-dev xz-utils linux-source-6.12 flex bison bc
	      libelf-dev libssl-dev)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
	echo "install-deps: missing Debian packages: ${missing[*]}" >&2
	echo "install-deps: run as root: apt-get install ${missing[*]}" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
stamp=/var/lib/apt/lists/.blkgen-updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	apt-get update -qq || exit 1
	touch "$stamp"
fi
# INITRD=No: the kernels are for the test VMs, which boot their own
# initramfs (tests/vm/mkinitramfs.sh); Debian's kernel hook would build
# one per kernel that nothing reads (some 90 s each on this machine
# type). --force-unsafe-io: dpkg unpacks without a sync per file, as
# Debian's build chroots do.
INITRD=No apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Options::=--force-unsafe-io \
	"${missing[@]}" > /tmp/blkgen-apt.log 2>&1 || {
	tail -n 20 /tmp/blkgen-apt.log >&2
	echo "install-deps: apt-get install failed (full log: /tmp/blkgen-apt.log)" >&2
	exit 1
}
