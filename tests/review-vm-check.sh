#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# review-vm-check.sh [DIR]
#
# A real review's report, drawn and opened in a browser: for each boot
# under DIR (default build/vm) whose review/001 left review001-review.json
# (blkgenctl review --quick --suite full on the VM's NVMe drive; the VM has
# no gnuplot), blkgenctl review --report draws it here, and headless
# Chromium must show one chart in each workload's section and the table's
# row for each. Fails if no boot left one.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/vm}
ctl=$top/tools/blkgenctl/blkgenctl
n=0 fail=0

for a in "$dir"/*/artifacts; do
	[ -s "$a/review001-review.json" ] || continue
	boot=$(basename "$(dirname "$a")")
	tmp=$(mktemp -d)
	mkdir "$tmp/r"
	cp "$a/review001-review.json" "$tmp/r/review.json"
	want=$(awk -f "$top/tests/lib/review.awk" "$tmp/r/review.json" | wc -l)
	if "$ctl" review --report -O "$tmp/r" -q 2> "$tmp/err" &&
	   chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chromium" --dump-dom "file://$tmp/r/index.html" \
		> "$tmp/dom.html" 2> /dev/null; then
		charts=$(awk '/<section class="workload"/ { s = 1 } s && /<svg/ { c++; s = 0 } END { print c + 0 }' "$tmp/dom.html")
		rows=$(grep -c '^| .* | [0-9,]* | [0-9,]* | ' "$tmp/r/summary.md")
		if [ "$want" -gt 0 ] && [ "$charts" = "$want" ] && [ "$rows" = "$want" ]; then
			echo "ok - $boot: the VM's review drawn here: $charts workloads, a chart and a row each in Chromium"
		else
			echo "not ok - $boot: the VM's review: $want workloads, $charts charts in Chromium, $rows rows in summary.md"
			fail=1
		fi
	else
		echo "not ok - $boot: review --report or chromium failed: $(cat "$tmp/err")"
		fail=1
	fi
	rm -rf "$tmp"
	n=$((n + 1))
done
if [ $n = 0 ]; then
	echo "not ok - no boot under $dir left review/001's review.json"
	exit 1
fi
exit $fail
