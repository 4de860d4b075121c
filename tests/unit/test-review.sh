#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the review's report and compare, made from a review
# directory's files (fixtures written here: a plan, a PTS preconditioning,
# each workload's points): review.json holds every point and the peak,
# summary.md the reviews' table and sentences with the same numbers,
# index.html is self-contained and shows one gnuplot chart per workload
# (and the steady state's) in headless Chromium (--dump-dom and a
# screenshot); a missing point makes the review "not complete"; compare
# ranks two drives on what they share and lists the rest. Also: the
# shipped suites (their plans and profiles), and each suite error with
# file:line and exit 2.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
rd=$data/review
export BLKGEN_PROFILES=$here/../../tools/profiles BLKGEN_SUITES=$here/../../tools/suites

# point FILE PCT IOPS BYTES_PER_IO MEAN_NS P99_NS [SVC_MEAN_NS SVC_P99_NS
# FIRST_HALF_NS LAST_HALF_NS TARGET_IOPS]: one saved point; MEAN and P99
# the response time (lat_ns); with SVC_MEAN the service time (clat_ns) and
# the response time's mean over the halves of the run (without them, a
# point of a blkgen before service times); TARGET defaults to IOPS.
point() {
	awk -v pct="$2" -v iops="$3" -v sz="$4" -v mean="$5" -v p99="$6" \
	    -v smean="${7:-}" -v sp99="${8:-}" -v h1="${9:-}" -v h2="${10:-}" -v target="${11:-$3}" 'BEGIN {
		ios = iops * 10; bw = iops * sz
		l = sprintf("{ \"mean\": %.1f, \"p50\": %d, \"p99\": %d, \"p99.9\": %d, \"max\": %d }",
			mean, mean, p99, p99 * 2, p99 * 3)
		c = smean == "" ? "" : sprintf(", \"clat_ns\": { \"mean\": %.1f, \"p50\": %d, \"p99\": %d, \"p99.9\": %d, \"max\": %d }",
			smean, smean, sp99, sp99 * 2, sp99 * 3)
		d = sprintf("{ \"ios\": %d, \"iops\": %.1f, \"bw_bytes\": %.1f, \"lat_ns\": %s%s }", ios, iops, bw, l, c)
		printf "{ \"target_pct\": %g, \"target_iops\": %d, \"ios\": %d, \"iops\": %.1f, \"bw_bytes\": %.1f,\n", pct, target, ios, iops, bw
		printf "  \"read\": %s,\n  \"write\": { \"ios\": 0, \"iops\": 0, \"bw_bytes\": 0, \"lat_ns\": { \"mean\": 0, \"p50\": 0, \"p99\": 0, \"p99.9\": 0, \"max\": 0 } },\n", d
		printf "  \"lat_ns\": %s%s,\n", l, c
		if (h1 != "")
			printf "  \"lat_halves_ns\": [ %s, %s ], \"max_lag_ns\": 0, \"depth\": 128,\n", h1, h2
		printf "  \"elapsed_ms\": 10000, \"state\": \"done\", \"error\": \"\" }\n" }' > "$1"
}

# mk_review DIR MODEL SCALE: a finished review of the mini suite; a
# drive's IOPS are SCALE x the first's.
mk_review() {
	local dir=$1 model=$2 s=$3 w pct

	mkdir -p "$dir"/points/{4k-random-read-128,64k-seq-read-32,vdi-lc-boot}
	cat > "$dir/plan.json" <<JSON
{ "blkgenctl_version": "0.1", "date": "2026-12-01T10:00:00Z", "kernel": "6.12.0-test",
  "device": { "path": "/dev/nvme0n1", "model": "$model", "serial": "S1", "firmware": "F1", "capacity_bytes": 3840755982336 },
  "suite": "$rd/mini.suite", "precondition": "pts", "region": "25%", "point_secs": 60, "quick": false,
  "points": [ 10, 50, 100 ] }
JSON
	cat > "$dir/precondition.json" <<JSON
{ "method": "pts", "purge": "discard (BLKDISCARD)",
  "fill": { "iops": 20000, "bw_bytes": 2.6e9, "secs": 3000 },
  "rounds": [ 400000, 250000, 180000, 171000, 169000, 170500, 168000 ],
  "max_rounds": 25, "window": 5, "steady_state": true, "window_avg": 169700,
  "excursion": 3000, "slope_excursion": 1200 }
JSON
	# 4K random read: the maximum (closed loop) 748,510 IOPS at 170 us;
	# its 10% and 50% points kept up, the 100% one fell behind (93% of
	# its target, the response time growing to 25 ms on average).
	point "$dir/points/4k-random-read-128/max.json" 0 "$(awk -v s="$s" 'BEGIN { print 748510 * s }')" 4096 \
		170400 420000 170400 420000 170000 171000 0
	for pct in 10 50; do
		point "$dir/points/4k-random-read-128/$pct.json" $pct \
			"$(awk -v p=$pct -v s="$s" 'BEGIN { print 7485.1 * p * s }')" 4096 \
			$((80000 + pct * 500)) 420000 $((80000 + pct * 500)) 420000 $((80000 + pct * 500)) $((80000 + pct * 500))
	done
	point "$dir/points/4k-random-read-128/100.json" 100 "$(awk -v s="$s" 'BEGIN { print 700000 * s }')" 4096 \
		25000000 52000000 180000 430000 12000000 38000000 "$(awk -v s="$s" 'BEGIN { print 748510 * s }')"
	for pct in 10 50 100; do
		point "$dir/points/64k-seq-read-32/$pct.json" $pct \
			"$(awk -v p=$pct -v s="$s" 'BEGIN { print (p == 100 ? 101013 : 1010.13 * p) * s }')" 65536 \
			"$(awk -v p=$pct 'BEGIN { print p == 100 ? 1234000 : 300000 + p * 1000 }')" 2500000
		point "$dir/points/vdi-lc-boot/$pct.json" $pct \
			"$(awk -v p=$pct -v s="$s" 'BEGIN { print 3000 * p * s }')" 12000 \
			"$(awk -v p=$pct 'BEGIN { print 90000 + p * 300 }')" 300000
	done
	for w in 64k-seq-read-32 vdi-lc-boot; do
		cp "$dir/points/$w/100.json" "$dir/points/$w/max.json"
	done
	# the VDI trace scaled to the drive: its desktops, a point's speed
	sed -i '1s/^{ /{ "desktops": 235, /' "$dir/points/vdi-lc-boot/max.json"
	sed -i '1s/^{ /{ "desktops": 235, "replay_speed_pct": 98.5, /' "$dir/points/vdi-lc-boot/100.json"
}

mk_review "$tmp/a" "Drive A" 1
if "$ctl" review --report -O "$tmp/a" 2> "$tmp/err"; then
	ok "review --report: $(tail -1 "$tmp/err")"
else
	notok "review --report: $(cat "$tmp/err")"
fi
awk -f "$here/../lib/review.awk" "$tmp/a/review.json" > "$tmp/a.tsv"
if [ "$(cut -f1,3,4,5,6 "$tmp/a.tsv" | tr '\t\n' ' ')" = \
     "4k-random-read-128 1 3 748510 3066 64k-seq-read-32 1 3 101013 6620 vdi-lc-boot 1 3 300000 3600 " ] &&
   grep -q '"complete": true' "$tmp/a/review.json"; then
	ok "review.json: each workload's maximum, its 3 points and its peak; complete"
else
	notok "review.json: $(tr '\t\n' ' |' < "$tmp/a.tsv")"
fi
if [ "$(awk -F'\t' '$1 == "vdi-lc-boot" { print $14, $15, $16 }' "$tmp/a.tsv")" = "235 98.5 10000" ] &&
   [ "$(awk -F'\t' '$1 == "4k-random-read-128" { print $14, $15 }' "$tmp/a.tsv")" = "-1 -1" ] &&
   grep -qF "a StorageReview-style VDI trace of 235 desktops (blkgenctl vdi" "$tmp/a/summary.md"; then
	ok "a VDI workload: its trace's desktops in review.json and summary.md, the 100% point's speed"
else
	notok "VDI desktops: $(grep -F 'StorageReview-style' "$tmp/a/summary.md") $(awk -F'\t' '{ print $1, $14, $15, $16 }' "$tmp/a.tsv")"
fi
for want in \
	"| Workload | Peak IOPS | MB/s | Average latency at peak | p99 at peak | Reviews' reading: highest point that kept up | its average latency |" \
	"| 4K random read (128) | 748,510 | 3,066 | 170 us | 420 us | 374,255 IOPS (50%) | 105 us |" \
	"| 64K sequential read (32) | 101,013 | 6,620 | 1.23 ms | 2.50 ms | 6,620 MB/s (100%) | 1.23 ms |" \
	"- 4K random read (128) peaked at 748,510 IOPS at an average latency of 170 us." \
	"- 64K sequential read (32) peaked at 6,620 MB/s (101,013 IOPS) at an average latency of 1.23 ms." \
	"VDI Linked Clone Boot peaked at 300,000 IOPS at an average latency of 120 us. (a StorageReview-style VDI trace" \
	"steady state **attained** after 7 rounds (at most 25)" \
	"Peak is each workload's maximum run, closed loop at its outstanding I/Os (the number in its title), and its latencies are service times, from each I/O's submission to its completion" \
	"at an average latency of 170 us. The reviews' reading, the curve's highest point that kept up (knee): 50% of the maximum, 374,255 IOPS at 105 us (service) and 105 us (response); 1 point fell behind its arrivals (backlog)." \
	"The reviews' reading, the curve's highest point that kept up (knee): 100% of the maximum, 6,620 MB/s at 1.23 ms (service) and 1.23 ms (response); 0 points fell behind their arrivals (backlog)." \
	"Beside it, the reviews' reading: they read their peak off the 0-120% curve, so the table gives the curve's highest point that kept up with its arrivals (the knee)" \
	"preconditioning: pts (purge: discard (BLKDISCARD))"; do
	if grep -qF -- "$want" "$tmp/a/summary.md"; then
		ok "summary.md: $want"
	else
		notok "summary.md lacks '$want'"
	fi
done

# The peak is the maximum run (closed loop) with its service time, not the
# open-loop 100% point (740,000 IOPS at 25 ms of response time); Little's
# law holds for it (748,510 x 170.4 us = 127.5 I/Os of 128); its response
# time is kept, and the 100% point is marked as fallen behind.
f=$(awk -F'\t' '$1 == "4k-random-read-128" { print $5, $7, $8, $9, $10, $11 }' "$tmp/a.tsv")
if [ "$f" = "748510 170400 420000 170400 128 50" ] &&
   awk -v i=748510 -v m=170400 -v t=128 'BEGIN { exit !(i * m / 1e9 <= 1.05 * t) }' &&
   [ "$(jq -c '.workloads[0].points | map(.kept_up)' "$tmp/a/review.json")" = "[true,true,false]" ] &&
   [ "$(jq -c '.workloads[0].points | map(.knee)' "$tmp/a/review.json")" = "[false,true,false]" ] &&
   [ "$(jq -c '.workloads[0].peak | [.latency, .lat_mean_ns, .resp_mean_ns]' "$tmp/a/review.json")" = '["service",170400,170400]' ]; then
	ok "review.json: the peak is the maximum run with its service and response time (Little's law holds); the knee at 50%, the 100% point fell behind"
else
	notok "review.json peak and knee: '$f' $(jq -c '.workloads[0] | [.peak, (.points | map(.kept_up))]' "$tmp/a/review.json")"
fi

# index.html: self-contained, and what a browser shows of it.
if grep -qE '(src|href)="?(https?:)?//' "$tmp/a/index.html"; then
	notok "index.html loads something from the network"
else
	ok "index.html is self-contained"
fi
browser() {
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chromium" "$@" 2> "$tmp/chromium.err"
}
if ! command -v chromium > /dev/null; then
	notok "no chromium (tests/install-deps.sh installs it)"
else
	browser --dump-dom "file://$tmp/a/index.html" > "$tmp/dom.html"
	# One section per workload, each with its chart; and the steady state's.
	n=$(awk '/<section class="workload"/ { s = 1 } s && /<svg/ { c++; s = 0 } END { print c + 0 }' "$tmp/dom.html")
	all=$(grep -c '<svg' "$tmp/dom.html")
	if [ "$n" = 3 ] && [ "$all" = 4 ]; then
		ok "chromium: 3 workload charts and the steady-state chart"
	else
		notok "chromium: $n workload charts, $all charts in all (want 3 and 4)"
	fi
	if grep -q '748,510' "$tmp/dom.html" && grep -q 'average latency (us)' "$tmp/dom.html" &&
	   grep -q '>100%<' "$tmp/dom.html"; then
		ok "chromium: the table, the axis labels and the points' percent labels"
	else
		notok "chromium: the page lacks the table's peak, the axis label or the point labels"
	fi
	if grep -q 'service time (submission to completion)' "$tmp/dom.html" &&
	   grep -q 'response time (from intended arrival)' "$tmp/dom.html" &&
	   grep -q 'knee (highest point that kept up)' "$tmp/dom.html" &&
	   grep -q 'fell behind its arrivals (backlog)' "$tmp/dom.html" &&
	   grep -q 'its latencies are service times' "$tmp/dom.html"; then
		ok "chromium: the service-time and response-time curves, the knee and the backlog marked, the latency said"
	else
		notok "chromium: the chart lacks a curve's, the knee's or the backlog's label, or the page the latency sentence"
	fi
	browser --screenshot="$tmp/shot.png" --window-size=1200,3000 "file://$tmp/a/index.html" > /dev/null
	size=$(stat -c %s "$tmp/shot.png" 2> /dev/null || echo 0)
	if [ "$(head -c 8 "$tmp/shot.png" 2> /dev/null | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] &&
	   [ "$size" -gt 20000 ]; then
		ok "chromium: a screenshot of $size bytes"
	else
		notok "chromium: no screenshot ($size bytes): $(tail -3 "$tmp/chromium.err")"
	fi
fi

# review.json alone (copied from where the review ran) draws the same report.
mkdir "$tmp/copy" && cp "$tmp/a/review.json" "$tmp/copy/"
if "$ctl" review --report -O "$tmp/copy" -q 2> "$tmp/err" &&
   cmp -s "$tmp/a/summary.md" "$tmp/copy/summary.md" &&
   [ "$(grep -c '<svg' "$tmp/copy/index.html")" = 4 ]; then
	ok "review --report of a review.json alone: the same summary.md, 4 charts"
else
	notok "review --report of a review.json alone: $(cat "$tmp/err")"
fi
mkdir "$tmp/none"
"$ctl" review --report -O "$tmp/none" 2> "$tmp/err"
if [ $? = 1 ] && grep -q 'no review here (no plan.json, and no review.json' "$tmp/err"; then
	ok "review --report of an empty directory: exit 1, said"
else
	notok "review --report of an empty directory: $(cat "$tmp/err")"
fi

# Foreign text: a newline in a title does not reach gnuplot as a command,
# markup is escaped; malformed arrays are not a crash.
mkdir "$tmp/inj"
sed -e 's|"title": "4K random read (128)"|"title": "x'"'"'\\nsystem(\\"touch '"$tmp"'/PWNED\\")\\n<script>alert(1)</script>"|' \
    -e 's|"kernel": "6.12.0-test"|"kernel": "<script>k</script>"|' "$tmp/a/review.json" > "$tmp/inj/review.json"
"$ctl" review --report -O "$tmp/inj" -q 2> "$tmp/err"
if [ ! -e "$tmp/PWNED" ] && ! grep -q '<script>' "$tmp/inj/index.html" &&
   grep -q '&lt;script&gt;k' "$tmp/inj/index.html" && [ "$(grep -c '<svg' "$tmp/inj/index.html")" = 4 ]; then
	ok "a title with a newline and markup: no gnuplot command, escaped in the page, 4 charts"
else
	notok "a title with a newline and markup: $(ls "$tmp/PWNED" 2>&1) $(grep -c '<script>' "$tmp/inj/index.html") scripts; $(cat "$tmp/err")"
fi
mkdir "$tmp/mal"
sed 's|"points": \[|"points": 5, "x": [|' "$tmp/a/review.json" > "$tmp/mal/review.json"
"$ctl" review --report -O "$tmp/mal" -q 2> "$tmp/err"
rc=$?
[ $rc -lt 128 ] && ok "points that are not arrays: exit $rc, no crash" || notok "points not arrays: exit $rc"

# A point missing, one failed, one torn: the review is not complete, and
# names each (a torn file was counted as missing, silently).
mk_review "$tmp/part" "Drive A" 1
rm "$tmp/part/points/vdi-lc-boot/50.json"
sed -i 's/"state": "done"/"state": "failed"/' "$tmp/part/points/64k-seq-read-32/10.json"
head -c 40 "$tmp/part/points/64k-seq-read-32/50.json" > "$tmp/torn" && mv "$tmp/torn" "$tmp/part/points/64k-seq-read-32/50.json"
"$ctl" review --report -O "$tmp/part" -q 2> "$tmp/err"
if grep -q '"complete": false' "$tmp/part/review.json" &&
   grep -q 'Not complete (--resume runs what is missing or failed): 64k-seq-read-32 10% (failed), 64k-seq-read-32 50% (unreadable: .*), vdi-lc-boot 50% (missing)\.' "$tmp/part/summary.md" &&
   grep -q "64k-seq-read-32/50.json: 64k-seq-read-32 50% (unreadable" "$tmp/err" &&
   [ "$(awk -f "$here/../lib/review.awk" "$tmp/part/review.json" | awk -F'\t' '$1 == "vdi-lc-boot" { print $4 }')" = 2 ]; then
	ok "a missing point: review.json not complete, summary.md says so, 2 points"
else
	notok "a missing point: $(grep complete "$tmp/part/review.json")"
fi

# Charts: the saturated points' labels merged ("100%-120%": they were
# printed on top of each other), latency in us as the tables, IOPS ticks
# as 700.0k, the steady-state window's band and slope drawn.
cp -r "$tmp/a" "$tmp/sat"
python3 - "$tmp/sat" << 'PY'
import json, os, sys
d = sys.argv[1]
plan = json.load(open(d + '/plan.json'))
plan['points'] = [10, 50, 100, 110, 120]
json.dump(plan, open(d + '/plan.json', 'w'))
p100 = d + '/points/4k-random-read-128/100.json'
o = json.load(open(p100))
for pct in (110, 120):
    o['target_pct'] = pct
    o['iops'] = o['iops'] * 1.005
    json.dump(o, open(d + '/points/4k-random-read-128/%d.json' % pct, 'w'))
PY
"$ctl" review --report -O "$tmp/sat" -q 2> "$tmp/err"
if grep -q '>100%-120%<' "$tmp/sat/index.html" && ! grep -q '>110%<' "$tmp/sat/index.html" &&
   grep -q 'average latency (us)' "$tmp/sat/index.html" && grep -q '>700.0k<' "$tmp/sat/index.html" &&
   grep -q 'window slope (least squares)' "$tmp/sat/index.html" &&
   grep -q 'window average +-10% (excursion limit)' "$tmp/sat/index.html"; then
	ok "charts: saturated labels merged, us, 700.0k ticks, the steady-state band and slope"
else
	notok "charts: $(cat "$tmp/err"; grep -o '>[0-9.]*k<\|>1[012]0%[^<]*<\|window [a-z ]*' "$tmp/sat/index.html" | sort -u | tr '\n' ' ')"
fi

# compare: drive B at half the IOPS, without the VDI workload.
mk_review "$tmp/b" "Drive B" 0.5
rm -r "$tmp/b/points/vdi-lc-boot"
sed -i 's|"suite": "[^"]*"|"suite": "'"$tmp"'/b.suite"|' "$tmp/b/plan.json"
sed '/^\[workload vdi-lc-boot\]/,$d' "$rd/mini.suite" > "$tmp/b.suite"
"$ctl" review --report -O "$tmp/b" -q
if "$ctl" compare "$tmp/a" "$tmp/b" -O "$tmp/cmp" 2> "$tmp/err"; then
	ok "compare: $(cat "$tmp/err")"
else
	notok "compare: $(cat "$tmp/err")"
fi
if grep -qF "| 1 | Drive A (/dev/nvme0n1, 3840.8 GB) | 748,510 |" "$tmp/cmp/summary.md" &&
   grep -qF "| 2 | Drive B (/dev/nvme0n1, 3840.8 GB) | 374,255 |" "$tmp/cmp/summary.md" &&
   grep -qF -- "- vdi-lc-boot: not in every review" "$tmp/cmp/summary.md" &&
   [ "$(grep -c '<section class="workload"' "$tmp/cmp/index.html")" = 2 ]; then
	ok "compare: drives ranked per shared workload, the VDI workload listed as not shared"
else
	notok "compare: $(cat "$tmp/cmp/summary.md")"
fi
if command -v chromium > /dev/null; then
	browser --dump-dom "file://$tmp/cmp/index.html" > "$tmp/cdom.html"
	if [ "$(grep -c '<svg' "$tmp/cdom.html")" = 2 ] && grep -q '>Drive B (/dev/nvme0n1' "$tmp/cdom.html"; then
		ok "compare in chromium: 2 charts, each with a line per drive"
	else
		notok "compare in chromium: $(grep -c '<svg' "$tmp/cdom.html") charts"
	fi
fi
"$ctl" compare "$tmp/a" "$tmp/b" -O "$tmp/b" 2> "$tmp/err"
if [ $? = 2 ] && grep -q 'is one of the reviews compared' "$tmp/err" && grep -q '"workloads"' "$tmp/b/review.json" &&
   ! grep -q '"drives"' "$tmp/b/review.json"; then
	ok "compare -O one of its reviews: exit 2, that review untouched"
else
	notok "compare -O one of its reviews: $(cat "$tmp/err")"
fi
"$ctl" compare "$tmp/a" -O "$tmp/cmp1" 2> "$tmp/err"
[ $? = 2 ] && ok "compare of one review: exit 2" || notok "compare of one review: $(cat "$tmp/err")"
# Each review's method beside its drive; a review compared with itself,
# and reviews of different methods (a --quick 2 s-point review over 100%
# after pts, beside 60 s points over 25% after a fill), refused; --force
# compares them, said on the pages.
grep -qF -- "- Drive B (/dev/nvme0n1, 3840.8 GB): suite $tmp/b.suite, $tmp/b (precondition pts, region 25%, 60 s points)" "$tmp/cmp/summary.md" &&
	ok "compare: each review's method beside its drive" || notok "compare: no method: $(head -5 "$tmp/cmp/summary.md")"
usage_error "is given twice: a review compared with itself" compare "$tmp/a" "$tmp/a/" -O "$tmp/cmp3"
cp -r "$tmp/b" "$tmp/q"
sed -i 's|"precondition": "pts", "region": "25%", "point_secs": 60, "quick": false|"precondition": "fill", "region": "100%", "point_secs": 2, "quick": true|' "$tmp/q/plan.json"
"$ctl" review --report -O "$tmp/q" -q
usage_error "the reviews were made by different methods" compare "$tmp/a" "$tmp/q" -O "$tmp/cmp4"
if "$ctl" compare "$tmp/a" "$tmp/q" -O "$tmp/cmp4" --force 2> "$tmp/err" &&
   grep -qF "**Made by different methods** (compared with --force)" "$tmp/cmp4/summary.md" &&
   grep -qF "(precondition fill, region 100%, 2 s points, --quick)" "$tmp/cmp4/summary.md"; then
	ok "compare --force of different methods: compared, said on the page"
else
	notok "compare --force: $(cat "$tmp/err" "$tmp/cmp4/summary.md" 2>&1 | head -8)"
fi
"$ctl" compare "$tmp/a" "$tmp/nothere" -O "$tmp/cmp2" 2> "$tmp/err"
if [ $? = 2 ] && grep -q 'nothere/review.json: not a review' "$tmp/err"; then
	ok "compare of a directory without a review: exit 2, named"
else
	notok "compare of a missing review: $(cat "$tmp/err")"
fi

# compare with a published set (tools/suites/published/pm1743.json): its
# drive ranked and labelled, the page saying what its figures are, each
# figure's source, the workloads the review lacks listed; an unknown set
# refused.
if "$ctl" compare "$tmp/a" published:pm1743 -O "$tmp/pub" 2> "$tmp/err"; then
	ok "compare published:pm1743: $(cat "$tmp/err")"
else
	notok "compare published:pm1743: $(cat "$tmp/err")"
fi
pm='Samsung PM1743 (published, StorageReview 2023)'
if grep -qF "| 1 | $pm | 1,250,000 | 5,120 | 215 us | n/a | 269 (IOPS x latency; 128 printed) | the review's peak, as printed |" "$tmp/pub/summary.md" &&
   grep -qF "Not one depth: $pm kept 269 outstanding (its IOPS x latency), Drive A (/dev/nvme0n1, 3840.8 GB) ran at 128 (2.10x)." "$tmp/pub/summary.md" &&
   grep -q "^| 2 | Drive A .* | 128 | blkgen's peak: the maximum run, closed loop |$" "$tmp/pub/summary.md" &&
   grep -qF "| 2 | Drive A" "$tmp/pub/summary.md" &&
   grep -qF "| 1 | $pm | 144,000 | 9,437 | 436 us | n/a |" "$tmp/pub/summary.md" &&
   grep -q "the review's peak of a vdbench curve .* at the workload's printed thread count, with the latency it printed; the reviews do not say which run" "$tmp/pub/summary.md" &&
   grep -q "blkgen's figures beside them are its maximum run's: closed loop, mean service latency" "$tmp/pub/summary.md" &&
   grep -qF -- '- 16k-seq-read-32: published, not in every review (first in published:pm1743)' "$tmp/pub/summary.md" &&
   grep -qF -- '- 4k-random-read-128: VDBench ワークロード分析 (VDBench Workload Analysis); 128 threads' "$tmp/pub/summary.md" &&
   grep -qF "$pm" "$tmp/pub/index.html" && [ "$(grep -c '<svg' "$tmp/pub/index.html")" = 3 ] &&
   grep -q '"title": "Samsung PM1743 review' "$tmp/pub/review.json"; then
	ok "compare published:pm1743: ranked and labelled in the tables and 3 charts, its figures' kind and sources said, its other workloads listed"
else
	notok "compare published:pm1743: $(cat "$tmp/pub/summary.md")"
fi
for set in pm1735 pblaze5; do
	"$ctl" compare "$tmp/a" "published:$set" -O "$tmp/pub-$set" 2> "$tmp/err" &&
		ok "compare published:$set: $(cat "$tmp/err")" || notok "compare published:$set: $(cat "$tmp/err")"
done
# Two reviews and a published drive: it joins where it has the figure
# (the PBlaze5's 4K read; drive A's fixture is modelled on it: a tie);
# a workload both reviews have stays compared without it.
pb='Memblaze PBlaze5 900 (published, StorageReview 2018)'
"$ctl" compare "$tmp/a" "$tmp/b" published:pblaze5 -O "$tmp/pub3" 2> "$tmp/err"
if [ "$(grep -c '^## ' "$tmp/pub3/summary.md")" -ge 3 ] &&
   sed -n '/^## 4K random read (128)/,/^## /p' "$tmp/pub3/summary.md" | grep -q "^| [12] | $pb | 748,510 |" &&
   sed -n '/^## 64K sequential read (32)/,/^## /p' "$tmp/pub3/summary.md" | grep -qF "No published figure: $pb" &&
   grep -qF -- '- vdi-lc-boot: not in every review' "$tmp/pub3/summary.md"; then
	ok "compare A B published:pblaze5: the PBlaze5 ranked where published, its missing figure said"
else
	notok "compare A B published:pblaze5: $(cat "$tmp/err" "$tmp/pub3/summary.md")"
fi
usage_error "published:nosuch: no published review" compare "$tmp/a" published:nosuch -O "$tmp/x"

# The shipped suites: each parses, its profiles exist, the plan is printed.
for s in pblaze5:16 pm1735:20 pm1743:21 full:28; do
	if "$ctl" review --dry-run --suite "${s%:*}" > "$tmp/plan" 2> "$tmp/err" &&
	   grep -q "suite ${s%:*} (.*): ${s#*:} workloads x (maximum + 12 points) of 60 s" "$tmp/plan"; then
		ok "suite ${s%:*}: ${s#*:} workloads, $(grep -o '[0-9]* runs: about [0-9.]* [a-z]*' "$tmp/plan")"
	else
		notok "suite ${s%:*}: $(head -3 "$tmp/plan" "$tmp/err")"
	fi
done
# full: the union of the three, by name.
u=$(grep -h '^\[workload ' "$BLKGEN_SUITES"/{pblaze5,pm1735,pm1743}.suite | sort -u)
f=$(grep -h '^\[workload ' "$BLKGEN_SUITES/full.suite" | sort)
[ "$u" = "$f" ] && ok "full is the union of pblaze5, pm1735 and pm1743" ||
	notok "full differs from the union: $(diff <(echo "$u") <(echo "$f") | tr '\n' ' ')"
# -O pm1743 --suite pm1743: a directory of the suite's name is not the suite.
mkdir -p "$tmp/cwd/pm1743"
if (cd "$tmp/cwd" && "$ctl" review --dry-run --suite pm1743 > "$tmp/plan" 2> "$tmp/err") &&
   grep -q 'suite pm1743 (.*): 21 workloads' "$tmp/plan"; then
	ok "a directory named as the suite: the installed suite is taken"
else
	notok "a directory named as the suite: $(cat "$tmp/err")"
fi
"$ctl" review --dry-run --suite nosuch 2> "$tmp/err"
if [ $? = 2 ] && grep -q "suite 'nosuch': $BLKGEN_SUITES/nosuch.suite: No such file" "$tmp/err"; then
	ok "a missing suite: exit 2, where it was looked for"
else
	notok "a missing suite: $(cat "$tmp/err")"
fi
# Run from the source tree, without BLKGEN_SUITES or BLKGEN_PROFILES: the
# tree's suites and profiles (tools/suites, tools/profiles beside the
# program), the plan on stdout; a device named that is none is refused.
src_ctl=$here/../../tools/blkgenctl/blkgenctl
if env -u BLKGEN_SUITES -u BLKGEN_PROFILES "$src_ctl" review --dry-run --suite pm1743 > "$tmp/plan" 2> "$tmp/err" &&
   grep -q 'suite pm1743 (.*): 21 workloads' "$tmp/plan"; then
	ok "from the source tree: its suites and profiles, the plan on stdout"
else
	notok "from the source tree: $(cat "$tmp/plan" "$tmp/err")"
fi
usage_error "/dev/nonexist is not a block device" review --dry-run --suite pm1743 --device /dev/nonexist

# Suite errors: exit 2, file:line and what is wrong.
for f in "$rd"/bad-*.suite; do
	want=$(cat "${f%.suite}.err")
	"$ctl" review --dry-run --suite "$f" 2> "$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -qF -- "$(basename "$f")$want" "$tmp/err"; then
		ok "$(basename "$f"): exit 2, $(cut -d: -f2- "$tmp/err" | head -1)"
	else
		notok "$(basename "$f"): exit $rc, '$(cat "$tmp/err")', want '$want'"
	fi
done

# The command line.
usage_error "add --allow-write" review --device /dev/null -O "$tmp/x"
usage_error "is not a block device" review --device /dev/null --allow-write -O "$tmp/x"
usage_error "expected fill, pts or none" review --device /dev/null --allow-write -O "$tmp/x" --precondition wash
usage_error "expected a percent of the device" review --device /dev/null --allow-write -O "$tmp/x" --region 0
for v in 0 0.05 1.0005 1x 36001; do
	usage_error "--point-secs $v: expected 0.1 to 36000 seconds, in whole milliseconds" \
		review --device /dev/null --allow-write -O "$tmp/x" --point-secs $v
done
if "$ctl" review --dry-run --suite pm1743 --quick --point-secs 0.5 > "$tmp/plan" 2> "$tmp/err" &&
   grep -q 'suite pm1743 (.*): 21 workloads x (maximum + 3 points) of 0.5 s' "$tmp/plan"; then
	ok "--point-secs 0.5: points of half a second"
else
	notok "--point-secs 0.5: $(cat "$tmp/plan" "$tmp/err")"
fi
usage_error "holds a review already: --resume" review --device /dev/null --allow-write -O "$tmp/a"
usage_error "usage:" review --allow-write -O "$tmp/x"
[ -e "$tmp/x" ] && notok "a refused review made $tmp/x" || ok "a refused review makes no directory"

exit $fail
