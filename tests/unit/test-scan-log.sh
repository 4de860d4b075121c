#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the VM log scanner flags kernel BUG/WARNING/hung-task lines
# (also with the serial console's CR LF) and the kmemleak leaks the guest's
# init reports, and ignores test output that only mentions those words;
# a real line of each message tests/lib/kernel-bad lists is flagged alone.
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

# Each string of tests/lib/kernel-bad has a real kernel line in
# console-each-bad.txt, and each such line alone is flagged.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS= read -r want; do
	grep -qF -- "$want" "$here/data/console-each-bad.txt" ||
		{ echo "not ok - no line of console-each-bad.txt holds '$want'"; fail=1; }
done < "$here/../lib/kernel-bad"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf 'ok 1 run/001\n%s\nok 2 run/002\n' "$line" > "$tmp/one.txt"
	"$scan" "$tmp/one.txt" > /dev/null ||
		{ echo "not ok - not flagged: $line"; fail=1; }
done < "$here/data/console-each-bad.txt"
[ $fail = 0 ] && echo "ok - each of the $n kernel messages is flagged alone"
exit $fail
