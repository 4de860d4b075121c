#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh — a guest of tests/multihost/run.sh (tests/vm/run.sh --run):
# blkgen loaded, chronyd keeping the clock by the host's NTP server
# (10.0.2.2, port NTP_PORT of /etc/blkgen-multihost.conf), dropbear
# serving ssh with the host's key; then it waits until the host creates
# /tmp/blkgen-poweroff (or 30 minutes pass) and the guest powers off.
set -u
. /etc/blkgen-multihost.conf

modprobe blkgen || { echo "blkgen-multihost: modprobe blkgen failed"; exit 1; }

mkdir -p /run/chrony /var/lib/chrony /etc/dropbear /root/.ssh
# chronyd's command socket: in a directory no other user reaches.
chmod 750 /run/chrony
cat > /etc/chrony.conf <<CONF
server 10.0.2.2 port $NTP_PORT iburst minpoll -2 maxpoll -2
makestep 0.01 -1
cmdport 0
CONF
chronyd -u root -f /etc/chrony.conf || { echo "blkgen-multihost: chronyd failed"; exit 1; }

chmod 700 /root/.ssh
chmod 600 /root/.ssh/authorized_keys
printf '/bin/sh\n/bin/bash\n/usr/bin/bash\n' > /etc/shells
# Host keys made at the first connection, key logins only.
dropbear -R -s -p 22 || { echo "blkgen-multihost: dropbear failed"; exit 1; }
echo "blkgen-multihost: $(hostname) ready"

SECONDS=0
while [ ! -e /tmp/blkgen-poweroff ] && [ $SECONDS -lt 1800 ]; do
	sleep 1
done
echo "blkgen-multihost: $(hostname) powering off after ${SECONDS} s"
