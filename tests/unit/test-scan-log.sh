#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the VM log scanner flags kernel BUG/WARNING/hung-task lines
# (also with the serial console's CR LF) and the kmemleak leaks the guest's
# init reports, and ignores test output that only mentions those words.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scan=$here/../vm/scan-log.sh
fail=0

expect() {
	local want=$1 log=$2 got=clean
	"$scan" "$here/data/$log" > /dev/null && got=flagged
	if [ "$got" = "$want" ]; then
		echo "ok - $log is $want"
	else
		echo "not ok - $log: want $want, got $got"
		fail=1
	fi
}

expect clean console-clean.txt
expect flagged console-warn.txt
expect flagged console-bug-crlf.txt
expect flagged console-hung.txt
expect flagged console-kernel-bug.txt
expect flagged console-kmemleak.txt
expect clean console-kmemleak-none.txt
expect flagged console-interleaved.txt
exit $fail
