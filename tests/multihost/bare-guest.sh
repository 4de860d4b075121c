#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bare-guest.sh — the guest of tests/multihost/install.sh (tests/vm/run.sh
# --run), and of run.sh: a Debian root on the virtio disk (/dev/vda),
# mounted, its /proc, /sys (configfs with it), /dev, /run and /tmp its
# own, and its OpenSSH server started inside it (chroot), so that what
# Ansible reaches is that Debian system and its kernel this guest's. Then
# it waits until the host creates the root's /tmp/blkgen-poweroff (or 40
# minutes pass), and the guest powers off.
set -u
r=/mnt/root

i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p $r
mount -t ext4 /dev/vda $r || { echo "blkgen-bare: mounting /dev/vda failed"; exit 1; }
mount -t proc proc $r/proc &&
	mount --rbind /sys $r/sys &&
	mount --rbind /dev $r/dev &&
	mount -t tmpfs -o mode=755 tmpfs $r/run &&
	mount -t tmpfs -o mode=1777 tmpfs $r/tmp ||
	{ echo "blkgen-bare: mounting the root's filesystems failed"; exit 1; }
mkdir -p $r/run/sshd
# QEMU's user-mode network: its DNS server.
echo 'nameserver 10.0.2.3' > $r/etc/resolv.conf
hostname > $r/etc/hostname
# tests/multihost/run.sh's guests (the root the install playbook
# prepared, shared, the guest's writes dropped): the host's ssh key, and
# chronyd keeping the clock by the host's NTP server, both given to the
# guest by the host (--file).
if [ -e /etc/blkgen-authorized_keys ]; then
	mkdir -p $r/root/.ssh && chmod 700 $r/root/.ssh &&
		cp /etc/blkgen-authorized_keys $r/root/.ssh/authorized_keys &&
		chmod 600 $r/root/.ssh/authorized_keys ||
		{ echo "blkgen-bare: installing the host's ssh key failed"; exit 1; }
fi
if [ -e /etc/blkgen-chrony.conf ]; then
	mkdir -p $r/run/chrony && chmod 750 $r/run/chrony &&
		cp /etc/blkgen-chrony.conf $r/etc/chrony/blkgen.conf &&
		chroot $r /usr/sbin/chronyd -u root -f /etc/chrony/blkgen.conf ||
		{ echo "blkgen-bare: chronyd failed"; exit 1; }
fi
chroot $r /usr/sbin/sshd -E /var/log/blkgen-sshd.log ||
	{ echo "blkgen-bare: sshd failed: $(tail -n 3 $r/var/log/blkgen-sshd.log 2>&1)"; exit 1; }
echo "blkgen-bare: $(hostname) ready"

SECONDS=0
rc=0
while [ ! -e $r/tmp/blkgen-poweroff ]; do
	[ $SECONDS -lt 2400 ] || { echo "blkgen-bare: no word from the host in 2400 s"; rc=1; break; }
	sleep 1
done
echo "blkgen-bare: $(hostname) powering off after ${SECONDS} s"
# What the playbook left loaded, unloaded as at a shutdown.
if [ -d /sys/module/blkgen ] && ! rmmod blkgen; then
	echo "blkgen-bare: rmmod blkgen failed"
	rc=1
fi
sync
exit $rc
