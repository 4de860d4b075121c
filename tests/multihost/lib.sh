# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by tests/multihost/run.sh and install.sh.

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
