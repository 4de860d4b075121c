#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: --device on the command line replaces every workload's
# device, the profile's included (said on stderr), and the overwrite
# warning names the device that will really be written; an empty
# 'device =' counts as unset. Checked before the module is needed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ctl=${BLKGENCTL:-$here/../../tools/blkgenctl/blkgenctl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BLKGEN_SYSFS=$tmp/none BLKGEN_CONFIGFS=$tmp/none
fail=0
truncate -s 64M "$tmp/cmdline" "$tmp/profile"

check() {	# NAME RC has|lacks TEXT ARGS...
	local name=$1 want_rc=$2 mode=$3 text=$4 rc=0 found=lacks
	shift 4
	"$ctl" run "$@" > /dev/null 2> "$tmp/err" || rc=$?
	grep -qF -- "$text" "$tmp/err" && found=has
	if [ "$rc" = "$want_rc" ] && [ "$found" = "$mode" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name: exit $rc: $(cat "$tmp/err")"
		fail=1
	fi
}

printf '[workload w]\nrdpct = 0\ndevice = %s\n' "$tmp/profile" > "$tmp/p.prof"
check "--device replaces the profile's device" 3 has \
	"workload w: --device $tmp/cmdline replaces the profile's device $tmp/profile" \
	"$tmp/p.prof" --device "$tmp/cmdline" --allow-write
check "the warning names the device written" 3 has \
	"will overwrite $tmp/cmdline" \
	"$tmp/p.prof" --device "$tmp/cmdline" --allow-write
check "nothing said about the profile's device" 3 lacks \
	"will overwrite $tmp/profile" \
	"$tmp/p.prof" --device "$tmp/cmdline" --allow-write
check "without --device the profile's device" 3 has \
	"will overwrite $tmp/profile" \
	"$tmp/p.prof" --allow-write
printf '[workload w]\ndevice =\n' > "$tmp/empty.prof"
check "an empty device is unset" 2 has "names no device: use --device" \
	"$tmp/empty.prof"
printf '[workload a]\ndevice = /dev/x\n[workload b]\n' > "$tmp/two.prof"
check "round-robin over --device" 3 has \
	"workload a: --device $tmp/cmdline replaces the profile's device /dev/x" \
	"$tmp/two.prof" --device "$tmp/cmdline" --device "$tmp/profile"
# Each workload its device in turn: the second writer writes the second.
printf '[workload a]\nrdpct = 0\n[workload b]\nrdpct = 0\n[workload c]\nrdpct = 0\n' > "$tmp/three.prof"
check "round-robin: workload b gets the second --device" 3 has \
	"will overwrite $tmp/profile (0.1 GB), workload b" \
	"$tmp/three.prof" --device "$tmp/cmdline" --device "$tmp/profile" --allow-write
check "round-robin: workload c the first again" 3 has \
	"will overwrite $tmp/cmdline (0.1 GB), workload c" \
	"$tmp/three.prof" --device "$tmp/cmdline" --device "$tmp/profile" --allow-write
exit $fail
