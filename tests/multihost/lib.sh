# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # blkgen_cache, blkgen_buildroot: kernel-lib.sh's; top: the caller's
#
# Shared by tests/multihost/run.sh and install.sh (bare_root: after
# tests/vm/kernel-lib.sh).

# guest_end PID: wait up to 60 s for the guest run by PID (tests/vm/run.sh
# started with setsid: PID leads its session) to end, else kill its
# session, QEMU and all (timeout(1) puts QEMU in a process group of its
# own, so the group of PID alone would miss it). Fails when the guest
# had to be killed or its run.sh failed (a kernel log not clean).
guest_end() {
	local pid=$1 rc=0
	for _ in $(seq 60); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2> /dev/null; then
		pkill -TERM -s "$pid"
		sleep 2
		pkill -KILL -s "$pid"
		rc=1
	fi
	wait "$pid" || rc=1
	return $rc
}

# bare_root KERNEL: the path of a bare Debian root for guests of KERNEL
# (what install.sh's guest starts from; run.sh's guests are that root
# once the install playbook prepared it), made once per kernel and per
# recipe (its version in the path; other kernels' and recipes' roots
# removed): a copy of the trixie build root (tests/vm/kernel-lib.sh's
# blkgen_buildroot), with trixie-backports among its sources (where the
# kernel comes from: the build root's headers were installed without
# their dependencies, which apt adds first), DKMS and the kernel's
# headers purged (the playbook installs them), python3, openssh-server
# and chrony installed by apt (no daemon started: a policy-rc.d refuses
# them), the kernel's modules copied in. Made aside and moved into place
# under a lock; callers copy it. Its messages on stderr; 1 when it could
# not be made. (A subshell: its variables and lock its own.)
bare_recipe=2
bare_root() (
	dir=$blkgen_cache/bare-guest
	base=$dir/$1-r$bare_recipe
	mkdir -p "$dir"
	# (Held until this subshell ends, whichever way.)
	exec 8> "$dir/.lock"
	flock 8
	if [ ! -e "$base/complete" ]; then
		echo "preparing a bare guest's Debian root in $base (apt-get from Debian's archive)" >&2
		find "$dir" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
		tmpb=$base.tmp
		mkdir -p "$tmpb"
		cp -a "$blkgen_buildroot" "$tmpb/root" || { echo "copying $blkgen_buildroot failed" >&2; exit 1; }
		printf '#!/bin/sh\nexit 101\n' > "$tmpb/root/usr/sbin/policy-rc.d"
		chmod 755 "$tmpb/root/usr/sbin/policy-rc.d"
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare -m sh -c '
			mount --make-rprivate / 2> /dev/null
			mount -t proc proc "$1/proc" || exit 2
			mount --bind /dev "$1/dev" || exit 2
			cp /etc/resolv.conf "$1/etc/resolv.conf"
			echo "deb http://deb.debian.org/debian trixie-backports main" > "$1/etc/apt/sources.list.d/backports.list"
			chroot "$1" sh -ec "
				export DEBIAN_FRONTEND=noninteractive
				apt-get -q update
				apt-get -q -y --no-remove -f install
				apt-get -q -y purge dkms \"linux-headers-*\" \"linux-kbuild-*\"
				apt-get -q -y --no-install-recommends --no-remove install python3 openssh-server chrony
				apt-get clean"
		' sh "$tmpb/root" > "$tmpb/apt.log" 2>&1 ||
			{ echo "preparing the guest's root with apt failed ($tmpb/apt.log)" >&2; exit 1; }
		rm -f "$tmpb/root/usr/sbin/policy-rc.d"
		modroot=$(kernel_modroot "$1")
		mkdir -p "$tmpb/root/usr/lib/modules/$1"
		cp -a "$modroot/lib/modules/$1/." "$tmpb/root/usr/lib/modules/$1/" ||
			{ echo "copying $1's modules failed" >&2; exit 1; }
		touch "$tmpb/complete"
		mv "$tmpb" "$base"
	fi
	echo "$base/root"
)

# installed_id KERNEL: what a host install.sh prepared is (its disk's
# installed.id): the kernel, the bare root's recipe and the sources the
# collection carries (their tar's SHA-256, uncompressed: make dist's tar
# is the same for the same files). After make collection.
installed_id() {
	local sum
	sum=$(gzip -dc "$top/build/collection/src/roles/install/files/blkgen-src.tar.gz" | sha256sum) || return 1
	echo "$1 r$bare_recipe ${sum:0:16}"
}
