#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio-vm-check.sh [DIR]
#
# fio's tools on a real run's output: for each boot under DIR (default
# build/vm) whose ctl/007 left ctl007.fio.json (blkgenctl run -o fio in
# the VM) and ctl007.report.json (report -o json of the same run),
# Debian's fio_jsonplus_clat2csv converts and validates the first, and its
# CSV's percentiles are checked against the report's own
# (tests/lib/fio-csv-check.py). Fails if no boot left them.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/vm}
py=/usr/bin/python3
clat2csv=/usr/bin/fio_jsonplus_clat2csv
n=0 fail=0

for a in "$dir"/*/artifacts; do
	out=
	[ -s "$a/ctl007.fio.json" ] && [ -s "$a/ctl007.report.json" ] || continue
	boot=$(basename "$(dirname "$a")")
	tmp=$(mktemp -d)
	cp "$a/ctl007.fio.json" "$tmp/f.json"
	if (cd "$tmp" && $py $clat2csv f.json f.csv > /dev/null &&
	    $py $clat2csv f.json f.csv --validate > /dev/null) &&
	   out=$($py "$top/tests/lib/fio-csv-check.py" "$tmp/f.json" "$tmp/f" \
		 "$a/ctl007.report.json"); then
		echo "ok - $boot: fio_jsonplus_clat2csv reads blkgenctl run -o fio: $out"
	else
		echo "not ok - $boot: fio_jsonplus_clat2csv on blkgenctl run -o fio: ${out:-conversion failed}"
		fail=1
	fi
	rm -rf "$tmp"
	n=$((n + 1))
done
if [ $n = 0 ]; then
	echo "not ok - no boot under $dir left ctl/007's -o fio output"
	exit 1
fi
exit $fail
