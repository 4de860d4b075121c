#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: a profile's io_limit = Nx becomes N passes over the
# workload's range in I/Os of its mean size, from the device's size
# (before the module is needed); malformed passes and several workloads
# are usage errors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ctl=${BLKGENCTL:-$here/../../tools/blkgenctl/blkgenctl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BLKGEN_SYSFS=$tmp/none BLKGEN_CONFIGFS=$tmp/none
fail=0
truncate -s 64M "$tmp/dev"

expect() {	# NAME RC TEXT ARGS...
	local name=$1 want_rc=$2 text=$3 rc=0
	shift 3
	"$ctl" run "$@" > /dev/null 2> "$tmp/err" || rc=$?
	if [ "$rc" = "$want_rc" ] && grep -qF -- "$text" "$tmp/err"; then
		echo "ok - $name"
	else
		echo "not ok - $name: exit $rc: $(cat "$tmp/err")"
		fail=1
	fi
}

prof=$here/../../tools/profiles/precondition.prof
expect "2x of 64 MiB in 128k" 3 ": 1024 I/Os" \
	"$prof" --device "$tmp/dev" --allow-write
expect "0.5x of half in 4k/8k (mean 6k)" 3 ": 2731 I/Os" \
	"$prof" --device "$tmp/dev" --allow-write --set range=0%-50% \
	--set bs=4k/50:8k/50 --set io_limit=0.5x
expect "byte range" 3 ": 256 I/Os" \
	"$prof" --device "$tmp/dev" --allow-write --set range=0-16m --set io_limit=2x
expect "malformed passes" 2 "nor passes over the range" \
	"$prof" --device "$tmp/dev" --allow-write --set io_limit=2y
printf '[job]\nio_limit = 1x\n[workload a]\n[workload b]\n' > "$tmp/two.prof"
expect "two workloads" 2 "needs exactly one workload" \
	"$tmp/two.prof" --device "$tmp/dev"
exit $fail
