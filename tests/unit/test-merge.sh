#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl merge refuses what it cannot merge honestly, with
# the reason and exit 1: a failed run or one with an error, a histogram
# whose bins do not hold its I/Os, the same file twice (also by another
# name); --force merges anyway and the output's error says so. A report
# with no bins at all (latency=0) merges.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

# refused WHAT PATTERN FILE...: merge exits 1 naming PATTERN, prints nothing.
refused() {
	local what=$1 pat=$2 rc=0
	shift 2
	"$ctl" merge "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ $rc = 1 ] && [ ! -s "$tmp/out" ] && grep -q -- "$pat" "$tmp/err"; then
		ok "$what refused"
	else
		notok "$what: exit $rc: $(cat "$tmp/err")"
	fi
}

r=$data/plot-report.json
sed 's/"state": "done"/"state": "failed"/; s/"error": ""/"error": "w1: \/dev\/nvme0n1: removed"/' "$r" > "$tmp/failed.json"
refused "a failed run" "not merged: job j failed: w1: /dev/nvme0n1: removed" "$r" "$tmp/failed.json"
sed 's/"error": ""/"error": "a CPU went offline"/' "$r" > "$tmp/err.json"
refused "a run with an error" "not merged: job j done: a CPU went offline" "$tmp/err.json"
sed 's/"20096": 2/"20096": 1/' "$r" > "$tmp/bins.json"
refused "bins short of N" "w1 read: its bins hold 3 I/Os, N says 4, ios 4" "$tmp/bins.json"
sed '0,/"ios": 4/s//"ios": 5/' "$r" > "$tmp/ios.json"
refused "bins short of ios" "w1 read: its bins hold 4 I/Os, N says 4, ios 5" "$tmp/ios.json"
refused "the same file twice" "not merged: the same file as $r" "$r" "$r"
ln -s "$r" "$tmp/link.json"
refused "the same file by another name" "the same file as $r" "$r" "$tmp/link.json"

rc=0
"$ctl" merge "$r" "$tmp/failed.json" --force -o json > "$tmp/out" 2> "$tmp/err" || rc=$?
if [ $rc = 0 ] && grep -q "merged anyway (--force)" "$tmp/err" &&
   grep -q '"error":"merged with --force: .*failed.json: job j failed' <(tr -d '\n' < "$tmp/out" | sed 's/": "/":"/g') &&
   grep -q '"ios":8' <(tr -d ' \n' < "$tmp/out"); then
	ok "--force merges, and says so in the output's error"
else
	notok "--force: exit $rc: $(cat "$tmp/err")"
fi

# latency=0: I/Os counted, no latency recorded.
sed 's/"N": 4/"N": 0/; s/"10048": 1,//; s/"20096": 2,//; s/"40192": 1//' "$r" > "$tmp/nolat.json"
if "$ctl" merge "$tmp/nolat.json" -o csv > "$tmp/out" 2> "$tmp/err" &&
   grep -q '^merged,w1,read,merged,1.000,4,' "$tmp/out"; then
	ok "a report without latencies merges"
else
	notok "no latencies: $(cat "$tmp/err")"
fi
# A pipe is read once: merge <(ssh host cat r.json) works.
if "$ctl" merge <(cat "$r") -o csv > "$tmp/out" 2> "$tmp/err" &&
   grep -q '^merged,w1,read,merged,1.000,4,' "$tmp/out"; then
	ok "a pipe merges"
else
	notok "pipe: $(cat "$tmp/err")"
fi
# Malformed reports are errors, not crashes.
echo '{"jobs":{}}' > "$tmp/m1.json"
echo '{"jobs":[{"workloads":5}]}' > "$tmp/m2.json"
for m in m1 m2; do
	rc=0
	"$ctl" merge "$tmp/$m.json" > /dev/null 2>&1 || rc=$?
	[ $rc = 1 ] && ok "malformed $m: exit 1" || notok "malformed $m: exit $rc"
done
exit $fail
