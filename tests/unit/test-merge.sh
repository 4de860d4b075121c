#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl merge refuses what it cannot merge honestly, with
# the reason and exit 1: a failed run, one stopped before its end or one
# with an error (its state said once), a histogram
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
# Stopped from outside before its end (blkgenctl stop, echo stop): its
# totals cover less time than the others', though it has no error.
sed 's/"state": "done"/"state": "stopped"/' "$r" > "$tmp/stopped.json"
refused "a run stopped before its end" "not merged: job j stopped before its end" "$tmp/stopped.json"
# A stop with a reason that names the stop already is said once.
sed 's/"state": "done"/"state": "stopped"/; s/"error": ""/"error": "stopped: the coordinator said stop: blkgen-b failed"/' "$r" > "$tmp/stopped2.json"
refused "a run the coordinator stopped" "not merged: job j stopped: the coordinator said stop: blkgen-b failed (" "$tmp/stopped2.json"
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
# Service times (clat_ns, from submission) beside the response times
# (lat_ns, from the intended arrival): merged, written by -o fio as fio's
# clat_ns, CSV's last columns, the text's svc lines; a report without them
# (an older blkgen) merges, and the merge then has none.
jq '.jobs[0].workloads[0].read.clat_ns = { "min": 5000, "max": 20000, "mean": 11250, "N": 4,
	"bins": { "5024": 1, "10048": 2, "20096": 1 } }' "$r" > "$tmp/sv.json"
cp "$tmp/sv.json" "$tmp/sv2.json"
if "$ctl" merge "$tmp/sv.json" "$tmp/sv2.json" -o json > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '.jobs[0].workloads[0].read | [.clat_ns.N, .clat_ns.mean, .clat_ns.max, .lat_ns.N, .lat_ns.mean]' "$tmp/out")" = "[8,11250,20000,8,22500]" ]; then
	ok "merge: service times (clat_ns) merged beside the response times (lat_ns)"
else
	notok "merge of clat_ns: $(jq -c '.jobs[0].workloads[0].read' "$tmp/out" | head -c 300) $(cat "$tmp/err")"
fi
if "$ctl" merge "$tmp/sv.json" "$r" -o json > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '.jobs[0].workloads[0].read | [has("clat_ns"), .lat_ns.N]' "$tmp/out")" = "[false,8]" ]; then
	ok "merge with a report without service times: merged, without clat_ns"
else
	notok "merge without clat_ns: $(cat "$tmp/err")"
fi
if "$ctl" merge "$tmp/sv.json" -o fio > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '.jobs[0].read | [.clat_ns.mean, .lat_ns.mean, .clat_ns.N]' "$tmp/out")" = "[11250,22500,4]" ]; then
	ok "-o fio: clat_ns the service time, lat_ns the response time"
else
	notok "-o fio clat_ns: $(jq -c '.jobs[0].read | [.clat_ns.mean, .lat_ns.mean]' "$tmp/out") $(cat "$tmp/err")"
fi
"$ctl" merge "$tmp/sv.json" -o csv > "$tmp/out" 2> "$tmp/err"
"$ctl" merge "$r" -o csv > "$tmp/out2" 2>> "$tmp/err"
if head -1 "$tmp/out" | grep -q ',errors,verify_errors,svc_min_us,svc_mean_us,svc_stddev_us,svc_max_us,svc_p50_us,svc_p90_us,svc_p99_us,svc_p99.9_us,svc_p99.99_us,zones_opened,zones_finished,zone_resets,zone_appends$' &&
   [ "$(awk -F, 'NR == 2 { print $12, $23, $25 }' "$tmp/out")" = "22.50 11.25 20.00" ] &&
   awk -F, 'NR == 2 { exit !(NF == 34 && $30 == "") }' "$tmp/out2"; then
	ok "csv: the service time's columns at the end of the row (empty without them)"
else
	notok "csv service columns: $(cat "$tmp/out" "$tmp/out2" "$tmp/err")"
fi
if "$ctl" merge "$tmp/sv.json" -o normal > "$tmp/out" 2> "$tmp/err" &&
   grep -q '^    lat (usec): min=10.00, max=40.00, avg=22.50' "$tmp/out" &&
   grep -q '^    svc (usec): min=5.00, max=20.00, avg=11.25' "$tmp/out" &&
   "$ctl" merge "$r" -o normal > "$tmp/out2" && ! grep -q svc "$tmp/out2"; then
	ok "text: svc beside lat when they differ, not without service times"
else
	notok "text svc: $(cat "$tmp/out" "$tmp/err")"
fi
# A pipe is read once: merge <(ssh host cat r.json) works.
if "$ctl" merge <(cat "$r") -o csv > "$tmp/out" 2> "$tmp/err" &&
   grep -q '^merged,w1,read,merged,1.000,4,' "$tmp/out"; then
	ok "a pipe merges"
else
	notok "pipe: $(cat "$tmp/err")"
fi
# Hosts armed for one start_at (run --start-at): a row each, the start
# spread, the first and last done, and the time series summed interval
# by interval (a report without start_at merges without them, as does
# --force where start times or intervals differ: refused otherwise).
AT=1796378400000000000
host() {	# host NAME STARTED_US ENDED_MS [START_AT] [INTERVAL_MS]
	jq --arg h "$1" --argjson s $((AT + $2 * 1000)) --argjson e $((AT + $3 * 1000000)) \
	   --argjson a "${4:-$AT}" --argjson l "${5:-500}" \
	   '.hostname = $h | .kernel = "6.12" | .jobs[0].start_at = $a |
	    .jobs[0].started_at_ns = $s | .jobs[0].ended_at_ns = $e |
	    .jobs[0].workloads[0].intervals[0].length_ms = $l' "$r"
}
host h1 40 1002 > "$tmp/h1.json"
host h2 75 1009 > "$tmp/h2.json"
rc=0
"$ctl" merge "$tmp/h1.json" "$tmp/h2.json" -o json > "$tmp/out" 2> "$tmp/err" || rc=$?
if [ $rc = 0 ] &&
   [ "$(jq -c '[.hosts[].hostname, .start_spread_ns, .done.first, .done.last, .hosts[0].ios]' "$tmp/out")" = \
     '["h1","h2",35000,"h1","h2",4]' ] &&
   [ "$(jq -c '[.jobs[0].workloads[0].intervals[] | [.read.ios, .read.lat_mean_ns, .read.lat_max_ns]]' "$tmp/out")" = \
     '[[4,15000,20000],[4,30000,40000]]' ] &&
   [ "$(jq '.jobs[0].workloads[0].read.ios' "$tmp/out")" = 8 ]; then
	ok "hosts armed for one start_at: rows, start spread, stragglers, time series summed"
else
	notok "armed hosts: exit $rc: $(cat "$tmp/err") $(jq -c '[.hosts, .start_spread_ns, .done]' "$tmp/out")"
fi
# Each host's own series in the merge (all its workloads), and the time
# chart of the merge: every host's IOPS beside the total, every line
# named, titled by workloads, hosts and start_at. h2 a straggler: its
# second interval 1 read.
jq '.jobs[0].workloads[0].intervals[1].read.ios = 1 | .jobs[0].workloads[0].intervals[1].read.iops = 2' \
	"$tmp/h2.json" > "$tmp/h2s.json"
"$ctl" merge "$tmp/h1.json" "$tmp/h2s.json" -o json > "$tmp/ms.json" 2> "$tmp/err"
"$ctl" plot "$tmp/ms.json" -c time --script > "$tmp/ms.gp" 2>> "$tmp/err"
if [ "$(jq -c '[.hosts[] | [.hostname, [.intervals[] | .ios, .iops]]]' "$tmp/ms.json")" = \
     '[["h1",[2,4,2,4]],["h2",[2,4,1,2]]]' ] &&
   [ "$(sed -n '/^\$host1 << EOD/,/^EOD/p' "$tmp/ms.gp" | grep -v '^[#$E]' | tr '\n' ' ')" = '0.500 4.0 1.000 2.0 ' ] &&
   grep -qx "set title 'w1 on 2 hosts (h1, h2), start_at 2026-12-04 10:00:00.00 UTC'" "$tmp/ms.gp" &&
   grep -q "title 'w1 read IOPS, all hosts'" "$tmp/ms.gp" &&
   grep -q "title 'w1 read mean latency, all hosts (right axis)'" "$tmp/ms.gp" &&
   grep -q "\$host0 using 1:2 with lines lw 1 lc 2 title 'h1 IOPS'" "$tmp/ms.gp" &&
   grep -q "\$host1 using 1:2 with lines lw 1 lc 3 title 'h2 IOPS'" "$tmp/ms.gp"; then
	ok "merge: each host's series; its time chart draws every host beside the total, every line named, titled by hosts and start_at"
else
	notok "host series: $(cat "$tmp/err") $(jq -c '[.hosts[] | .intervals]' "$tmp/ms.json") $(grep -E 'title|host' "$tmp/ms.gp")"
fi
# Reads and writes: two totals, so their sum beside the hosts' lines
# (each host's series holds both directions).
for h in h1 h2; do
	jq '.jobs[0].workloads[0].intervals[].write.ios = 1 | .jobs[0].workloads[0].intervals[].write.iops = 2 |
	    .jobs[0].workloads[0].intervals[].write.lat_mean_ns = 10000' "$tmp/$h.json" > "$tmp/${h}w.json"
done
"$ctl" merge "$tmp/h1w.json" "$tmp/h2w.json" -o json > "$tmp/mw.json" 2> "$tmp/err"
"$ctl" plot "$tmp/mw.json" -c time --script > "$tmp/mw.gp" 2>> "$tmp/err"
if [ "$(sed -n '/^\$all << EOD/,/^EOD/p' "$tmp/mw.gp" | grep -v '^[#$E]' | tr '\n' ' ')" = '0.500 12.0 1.000 12.0 ' ] &&
   grep -q "title 'IOPS, all workloads and hosts'" "$tmp/mw.gp" &&
   grep -q "title 'w1 write IOPS, all hosts'" "$tmp/mw.gp"; then
	ok "merge chart: several totals (read, write), their sum beside the hosts' lines"
else
	notok "merge chart all: $(cat "$tmp/err") $(grep -A3 '^\$all' "$tmp/mw.gp")"
fi
# Series that do not line up (no start_at) are dropped, the hosts' too.
if "$ctl" merge "$r" "$tmp/sv.json" -o json 2> /dev/null | jq -e '[.hosts[] | .intervals] == [null, null]' > /dev/null; then
	ok "merge without aligned series: no host series either"
else
	notok "host series kept without aligned series"
fi
# The merged run's times: the common start_at, the earliest first I/O,
# the latest end.
if "$ctl" merge "$tmp/h1.json" "$tmp/h2.json" -o json > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '.jobs[0] | [.start_at, .started_at_ns, .ended_at_ns]' "$tmp/out")" = \
     "[$AT,$((AT + 40000)),$((AT + 1009000000))]" ]; then
	ok "merged hosts: start_at, the earliest started_at_ns, the latest ended_at_ns"
else
	notok "merged times: $(cat "$tmp/err") $(jq -c '.jobs[0] | [.start_at, .started_at_ns, .ended_at_ns]' "$tmp/out")"
fi
# Curves of hosts armed for one start_at merge point by point: targets
# and rates summed, the histograms bin by bin, each point's start spread.
curve() {	# curve HOST START_AT SLOT_MS STARTED_US1 STARTED_US2 [PCT2]
	cat <<JSON
{ "hostname": "$1", "kernel": "6.12", "max_iops": 1000, "start_at": $2, "slot_ms": $3, "points": [
  { "target_pct": 50, "target_iops": 500, "iops": 499.5, "bw_bytes": 2045952,
    "lat_ns": { "min": 10000, "max": 20000, "mean": 12500, "N": 4, "bins": { "10000": 3, "20000": 1 }, "p99": 20000 },
    "state": "done", "started_at_ns": $(($2 + $3 * 1000000 + $4 * 1000)) },
  { "target_pct": ${6:-100}, "target_iops": 1000, "iops": 990, "bw_bytes": 4055040,
    "lat_ns": { "min": 30000, "max": 90000, "mean": 50000, "N": 10, "bins": { "30000": 7, "90000": 3 }, "p99": 90000 },
    "state": "done", "started_at_ns": $(($2 + 2 * $3 * 1000000 + $5 * 1000)) } ] }
JSON
}
curve h1 "$AT" 6000 10 20 > "$tmp/c1.json"
curve h2 "$AT" 6000 15 35 > "$tmp/c2.json"
if "$ctl" merge "$tmp/c1.json" "$tmp/c2.json" > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '[.max_iops, [.hosts[].hostname], [.points[] | .target_iops, .iops, .lat_ns.N, (.lat_ns.bins | add), .lat_ns.min, .lat_ns.max, .start_spread_ns]]' "$tmp/out")" = \
     '[2000,["h1","h2"],[1000,999,8,8,10000,20000,5000,2000,1980,20,20,30000,90000,15000]]' ]; then
	ok "curves armed for one start_at: point by point, targets and rates summed, histograms exact, start spreads"
else
	notok "curves: $(cat "$tmp/err") $(jq -c '[.max_iops, [.points[] | .target_iops, .iops, .lat_ns.N, .start_spread_ns]]' "$tmp/out")"
fi
if "$ctl" merge "$tmp/c1.json" "$tmp/c2.json" -o normal > "$tmp/out" 2>&1 &&
   grep -q '^curve of 2 hosts: maximum 2000 IOPS (h1 1000, h2 1000)' "$tmp/out"; then
	ok "curves: the normal table"
else
	notok "curves normal: $(cat "$tmp/out")"
fi
curve h2 $((AT + 1000000000)) 6000 15 35 > "$tmp/c3.json"
refused "curves armed for other times" "their points ran at other times" "$tmp/c1.json" "$tmp/c3.json"
curve h2 "$AT" 6000 15 35 90 > "$tmp/c4.json"
refused "curves of other points" "point 2 is 100% in $tmp/c1.json, 90% in $tmp/c4.json" "$tmp/c1.json" "$tmp/c4.json"
curve h1 0 0 10 20 > "$tmp/c5.json"
curve h2 0 0 15 35 > "$tmp/c6.json"
refused "curves not armed" "were not armed for one start_at" "$tmp/c5.json" "$tmp/c6.json"
# Curves started by one coordinator (curve --coordinator): no slot, the
# maximum's instant at the top and each point's own, the same on every
# host; a point started at another instant is refused.
ccurve() {	# ccurve HOST POINT2_START_AT
	jq --argjson at2 "$2" '.slot_ms = 0 | .points[0].start_at = .start_at + 2500000000 |
		.points[1].start_at = $at2' "$tmp/c1.json" | jq --arg h "$1" '.hostname = $h'
}
ccurve h1 $((AT + 5100000000)) > "$tmp/k1.json"
ccurve h2 $((AT + 5100000000)) > "$tmp/k2.json"
if "$ctl" merge "$tmp/k1.json" "$tmp/k2.json" > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq -c '[.slot_ms, [.points[] | .start_at - '"$AT"', .lat_ns.N]]' "$tmp/out")" = '[0,[2500000000,8,5100000000,20]]' ]; then
	ok "curves of one coordinator: merged point by point, each point's start_at kept"
else
	notok "curves of one coordinator: $(cat "$tmp/err") $(jq -c '[.slot_ms, [.points[] | .start_at, .lat_ns.N]]' "$tmp/out")"
fi
# Its chart titled by its hosts and start, not by the file's path.
"$ctl" plot "$tmp/out" --script -O "$tmp/k.png" > "$tmp/k.gp" 2> "$tmp/err"
if grep -qx "set title 'curve of 2 hosts (h1, h2), start_at 2026-12-04 10:00:00.00 UTC'" "$tmp/k.gp"; then
	ok "a merged curve's chart titled by its hosts and start_at"
else
	notok "a merged curve's chart: $(cat "$tmp/err") $(grep 'set title' "$tmp/k.gp")"
fi
# Host names of 300 characters: each cut to 40, the start still said.
long=$(printf 'x%.0s' $(seq 300))
for k in k1 k2; do
	jq --arg h "$long-$k" '.hostname = $h' "$tmp/$k.json" > "$tmp/$k-long.json"
done
"$ctl" merge "$tmp/k1-long.json" "$tmp/k2-long.json" > "$tmp/kl.json" 2> "$tmp/err" &&
	"$ctl" plot "$tmp/kl.json" --script -O "$tmp/kl.png" > "$tmp/kl.gp" 2>> "$tmp/err"
if grep -qx "set title 'curve of 2 hosts (${long:0:40}, ${long:0:40}), start_at 2026-12-04 10:00:00.00 UTC'" "$tmp/kl.gp"; then
	ok "a merged curve's title with long host names: each cut to 40 characters, the start kept"
else
	notok "long host names: $(cat "$tmp/err") $(grep 'set title' "$tmp/kl.gp" | cut -c1-200)"
fi
ccurve h2 $((AT + 5200000000)) > "$tmp/k3.json"
refused "a coordinated curve's point at another instant" "point 2 at start_at $((AT + 5100000000)) in $tmp/k1.json, $((AT + 5200000000)) in $tmp/k3.json" "$tmp/k1.json" "$tmp/k3.json"
# Every file's instants, not only against the first's: a first without
# them (an older blkgenctl) does not let the others differ.
jq 'del(.points[].start_at)' "$tmp/k1.json" > "$tmp/k0.json"
refused "three curves, the second's and third's point at other instants" "point 2 at start_at $((AT + 5100000000)) in $tmp/k1.json, $((AT + 5200000000)) in $tmp/k3.json" \
	"$tmp/k0.json" "$tmp/k1.json" "$tmp/k3.json"
# --force merges them, without an instant for the point they differ at.
if "$ctl" merge --force "$tmp/k1.json" "$tmp/k3.json" > "$tmp/out" 2> "$tmp/err" &&
   grep -q 'merged anyway (--force): their points ran at other times: point 2' "$tmp/err" &&
   [ "$(jq -c '[.points[] | .start_at != null]' "$tmp/out")" = '[true,false]' ]; then
	ok "--force: curves whose points ran at other instants merged, the point's start_at left out"
else
	notok "--force, other instants: $(cat "$tmp/err") $(jq -c '[.points[] | .start_at]' "$tmp/out")"
fi
# Curves armed for other --start-at TIMEs, each point with its instant:
# refused by the TIMEs, with the hint.
for c in c1 c3; do
	jq '.points[0].start_at = .start_at + 6000000000 | .points[1].start_at = .start_at + 12000000000' \
		"$tmp/$c.json" > "$tmp/$c-at.json"
done
refused "curves of other --start-at TIMEs, each point's instant said" "ms (curve --start-at with one TIME for all, or --coordinator with one coordinator)" \
	"$tmp/c1-at.json" "$tmp/c3-at.json"
refused "a curve and a report" "is not a curve" "$tmp/c1.json" "$tmp/h1.json"
echo '{ "max_iops": 1, "points": { } }' > "$tmp/c7.json"
refused "points that are not a list" 'its "points" is not a list' "$tmp/c7.json" "$tmp/c1.json"
# The summed series as CSV: a row per interval and direction, each with
# its CLOCK_REALTIME start (start_at + start_ms).
if "$ctl" merge "$tmp/h1.json" "$tmp/h2.json" -o csv-intervals > "$tmp/out" 2> "$tmp/err" &&
   [ "$(head -n 1 "$tmp/out")" = 'job,workload,direction,interval,start_ms,length_ms,start_s,ios,bytes,iops,mb_per_s,lat_mean_us,lat_max_us,errors' ] &&
   [ "$(grep -c ',read,' "$tmp/out")" = 2 ] && [ "$(grep -c ',write,' "$tmp/out")" = 2 ] &&
   [ "$(awk -F, '$3 == "read" { printf "%s:%s:%s:%s:%s ", $4, $7, $8, $12, $13 }' "$tmp/out")" = \
     "1:1796378400.000:4:15.00:20.00 2:1796378400.500:4:30.00:40.00 " ]; then
	ok "merge -o csv-intervals: the summed series, a row per interval, its wall-clock start"
else
	notok "csv-intervals: $(cat "$tmp/err" "$tmp/out")"
fi
if "$ctl" merge "$tmp/h1.json" "$tmp/h2.json" -o normal > "$tmp/out" 2>&1 &&
   grep -q '^hosts: 2, start spread 0.035 ms' "$tmp/out" &&
   grep -qE '^  h2 +6.12 +0.035 +1008.960 +4$' "$tmp/out"; then
	ok "text: a line per host, from the earliest first I/O"
else
	notok "text hosts: $(cat "$tmp/out")"
fi
host h3 10 1000 $((AT + 1000000000)) > "$tmp/h3.json"
refused "hosts with other start times" "their start times differ: $tmp/h1.json start_at $AT, $tmp/h3.json start_at $((AT + 1000000000))" \
	"$tmp/h1.json" "$tmp/h3.json"
host h4 10 1000 "$AT" 1000 > "$tmp/h4.json"
refused "hosts with other intervals" "their intervals differ: $tmp/h1.json 500 ms, $tmp/h4.json 1000 ms" \
	"$tmp/h1.json" "$tmp/h4.json"
# A host that started an interval or more after start_at (armed too
# late: it started at once, its intervals from then) does not line up.
host h5 500000 1500 > "$tmp/h5.json"
refused "a host started an interval late" "h5 ($tmp/h5.json) started 500.000 ms after start_at, an interval (500 ms) or more: its intervals count from its own start" \
	"$tmp/h1.json" "$tmp/h5.json"
host h6 499999 1500 > "$tmp/h6.json"
if "$ctl" merge "$tmp/h1.json" "$tmp/h6.json" -o json > "$tmp/out" 2> "$tmp/err" &&
   [ "$(jq '.jobs[0].workloads[0].intervals | length' "$tmp/out")" = 2 ]; then
	ok "a host started within an interval of start_at: its series summed"
else
	notok "a host 499.999 ms late: $(cat "$tmp/err")"
fi
rc=0
"$ctl" merge "$tmp/h1.json" "$tmp/h3.json" --force -o json > "$tmp/out" 2> "$tmp/err" || rc=$?
if [ $rc = 0 ] && [ "$(jq '.jobs[0].workloads[0].intervals | length' "$tmp/out")" = 0 ] &&
   jq -r '.jobs[0].error' "$tmp/out" | grep -q "merged with --force: their start times differ"; then
	ok "--force merges hosts with other start times, without time series"
else
	notok "--force start times: exit $rc: $(cat "$tmp/err")"
fi
"$ctl" merge "$r" "$tmp/sv.json" -o json > "$tmp/out" 2> "$tmp/err"
if [ "$(jq '.jobs[0].workloads[0].intervals | length' "$tmp/out")" = 0 ] &&
   "$ctl" merge "$r" -o json | jq -e '.jobs[0].workloads[0].intervals | length == 2' > /dev/null; then
	ok "runs without start_at: no time series merged; one report keeps its own"
else
	notok "no start_at: $(cat "$tmp/err")"
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
