#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: review --merge, one review of the reviews two hosts ran
# together (fixtures written here, each point with its latency bins as
# review saves them): each point's I/Os, IOPS and target the hosts' sum,
# its percentiles those of the hosts' histograms merged (not an average of
# the hosts' percentiles), its latency halves weighted by I/Os, its state
# a failed host's, its start the hosts' one instant and their spread; the plan names both hosts and devices, the report is
# made; a point one host lacks is left out (the review not complete);
# reviews of different plans, a point without bins, and an OUT holding a
# review that is not a merge are refused.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
export BLKGEN_PROFILES=$here/../../tools/profiles

cat > "$tmp/one.suite" <<'SUITE'
[suite]
title = One workload
points = 10,100

[workload 4k-random-read-128]
title = 4K random read (128)
profile = 4k-random-read
set = depth=128
SUITE

# lat BINS: a latency object of "NS:COUNT ..." bins (its mean and
# percentiles as the host's own review gave them: only the bins merge).
lat() {
	awk -v bins="$1" 'BEGIN {
		n = split(bins, b, " "); N = 0; s = 0; out = ""
		for (i = 1; i <= n; i++) {
			split(b[i], kv, ":"); N += kv[2]; s += kv[1] * kv[2]
			out = out sprintf("%s\"%s\": %d", i > 1 ? ", " : "", kv[1], kv[2])
			if (i == 1) min = kv[1]; max = kv[1]
		}
		printf "{ \"mean\": %.1f, \"p50\": 1, \"p99\": 1, \"p99.9\": 1, \"max\": %d, \"min\": %d, \"N\": %d, \"bins\": { %s } }",
			N ? s / N : 0, max, min, N, out }'
}

# point FILE PCT IOPS TARGET BINS HALF1 HALF2 [STATE ERROR]: a point of
# reads (ios = 10 s of IOPS).
point() {
	local l
	l=$(lat "$5")
	cat > "$1" <<JSON
{ "target_pct": $2, "target_iops": $4, "ios": $(($3 * 10)), "iops": $3, "bw_bytes": $(($3 * 4096)),
  "read": { "ios": $(($3 * 10)), "iops": $3, "bw_bytes": $(($3 * 4096)), "lat_ns": $l, "clat_ns": $l },
  "write": { "ios": 0, "iops": 0, "bw_bytes": 0, "lat_ns": $(lat ""), "clat_ns": $(lat "") },
  "lat_ns": $l, "clat_ns": $l, "lat_halves_ns": [ $6, $7 ], "max_lag_ns": 5, "depth": 128,
  "elapsed_ms": 10000, "start_at": 1000000000, "started_at_ns": $((1000000000 + ${off:-0})),
  "state": "${8:-done}", "error": "${9:-}" }
JSON
}

# host DIR NAME MODEL IOPS BINS: one host's review of the suite.
host() {
	local d=$1
	mkdir -p "$d/points/4k-random-read-128"
	cp "$tmp/one.suite" "$d/suite.suite"
	cat > "$d/plan.json" <<JSON
{ "blkgenctl_version": "0.1", "date": "2026-12-07T10:00:00Z", "kernel": "6.12.0-test", "host": "$2",
  "device": { "path": "/dev/nvme0n1", "model": "$3", "serial": "S", "firmware": "F", "capacity_bytes": 1000000000 },
  "suite": "$tmp/one.suite", "precondition": "fill", "region": "25%", "point_secs": 2, "quick": true,
  "points": [ 10, 100 ] }
JSON
	echo '{ "method": "fill", "fill": { "iops": 100, "bw_bytes": 1e8, "secs": 3 } }' > "$d/precondition.json"
	point "$d/points/4k-random-read-128/max.json" 0 "$4" 0 "$5" 1000 1000
	point "$d/points/4k-random-read-128/10.json" 10 $(($4 / 10)) $(($4 / 10)) "$5" 1000 1000
	point "$d/points/4k-random-read-128/100.json" 100 "$4" "$4" "$5" 1000 3000
}

# Host a: 90 I/Os at 100 us, 10 at 1 ms a tenth of a second; b: 100 at
# 200 us. Merged, the median is b's 200 us and the p99 a's 1 ms (the
# average of their own p99s would be 600 us).
# Armed for one instant, their first I/Os 7 us and 2 us after it.
off=7000 host "$tmp/a" a "Drive A" 900 "100000:90 1000000:10"
off=2000 host "$tmp/b" b "Drive B" 1000 "200000:100"
if "$ctl" review --merge -O "$tmp/m" "$tmp/a" "$tmp/b" 2> "$tmp/err"; then
	ok "review --merge: $(head -1 "$tmp/err")"
else
	notok "review --merge: $(cat "$tmp/err")"
fi
m=$tmp/m/points/4k-random-read-128
j() { jq -r "$1" "$2"; }
if [ "$(j '[.iops, .ios, .target_iops, .read.iops, .lat_ns.N, .depth, .state] | @tsv' "$m/100.json")" = \
     "$(printf '1900\t19000\t1900\t1900\t200\t256\tdone')" ]; then
	ok "a point's IOPS, I/Os, target, read IOPS, latency count and depth are the hosts' sums"
else
	notok "summed: $(j '[.iops, .ios, .target_iops, .read.iops, .lat_ns.N, .depth, .state] | @tsv' "$m/100.json")"
fi
p50=$(j '.lat_ns.p50' "$m/100.json") p99=$(j '.clat_ns.p99' "$m/100.json")
if [ "$p50" -ge 198000 ] && [ "$p50" -le 202000 ] && [ "$p99" -ge 990000 ] && [ "$p99" -le 1010000 ]; then
	ok "percentiles from the merged bins: p50 $p50 ns (b's 200 us), p99 $p99 ns (a's 1 ms)"
else
	notok "merged percentiles: p50 $p50, p99 $p99 (want 200 us, 1 ms within 1%)"
fi
# halves: a [1000, 3000] over 9000 I/Os, b the same over 10000
if [ "$(j '.lat_halves_ns | map(round) | @tsv' "$m/100.json")" = "$(printf '1000\t3000')" ] &&
   [ "$(j '[.hosts[].host] | @tsv' "$m/100.json")" = "$(printf 'a\tb')" ]; then
	ok "latency halves weighted by I/Os; each host named in the point"
else
	notok "halves/hosts: $(j '.lat_halves_ns, .hosts' "$m/100.json" | tr '\n' ' ')"
fi
if [ "$(j '[.device.path, .device.model, .device.capacity_bytes, (.hosts | length), .host] | @tsv' "$tmp/m/plan.json")" = \
     "$(printf '2 hosts\ta: Drive A; b: Drive B\t2000000000\t2\t')" ] &&
   grep -qF "a: Drive A; b: Drive B" "$tmp/m/summary.md" &&
   grep -q '"complete": true' "$tmp/m/review.json"; then
	ok "the plan names both hosts' drives; the report is made and complete"
else
	notok "merged plan: $(j '.device' "$tmp/m/plan.json" | tr '\n' ' ') $(grep -c 'Drive' "$tmp/m/summary.md")"
fi

if [ "$(j '[.start_at, .started_at_ns, .start_spread_ns] | @tsv' "$m/max.json")" = \
     "$(printf '1000000000\t1000002000\t5000')" ]; then
	ok "a point's one start_at, its earliest first I/O and the hosts' spread (5 us)"
else
	notok "start: $(j '[.start_at, .started_at_ns, .start_spread_ns] | @tsv' "$m/max.json")"
fi

# A failed host's point: the merged one failed, its error named.
point "$tmp/b/points/4k-random-read-128/10.json" 10 100 100 "200000:100" 1000 1000 failed "bio error"
"$ctl" review --merge -O "$tmp/m" "$tmp/a" "$tmp/b" 2> "$tmp/err" || true
if [ "$(j '[.state, .error] | @tsv' "$m/10.json")" = "$(printf 'failed\tb: bio error')" ] &&
   [ "$(j '.incomplete[]' "$tmp/m/review.json")" = "4k-random-read-128 10% (failed)" ]; then
	ok "a host's failed point fails the merged one, named: $(j .error "$m/10.json")"
else
	notok "failed point: $(j '[.state, .error] | @tsv' "$m/10.json") $(j -c .incomplete "$tmp/m/review.json")"
fi

# A point one host lacks is left out, said.
rm "$tmp/b/points/4k-random-read-128/10.json"
"$ctl" review --merge -O "$tmp/m" "$tmp/a" "$tmp/b" 2> "$tmp/err" || true
if [ ! -e "$m/10.json" ] && grep -qF "has no 4k-random-read-128/10.json: left out" "$tmp/err" &&
   grep -q '"complete": false' "$tmp/m/review.json"; then
	ok "a point one host lacks: left out (the merge's of before removed), said, the review not complete"
else
	notok "lacking point: $(cat "$tmp/err")"
fi
point "$tmp/b/points/4k-random-read-128/10.json" 10 100 100 "200000:100" 1000 1000

# Refusals.
sed -i 's/"point_secs": 2/"point_secs": 60/' "$tmp/b/plan.json"
for t in "plans" "bins" "out"; do
	case $t in
	plans) args=("$tmp/a" "$tmp/b") want="are not one review: point_secs 2, 60" out=$tmp/m2 ;;
	bins) sed -i 's/"point_secs": 60/"point_secs": 2/' "$tmp/b/plan.json"
	      sed -i 's/"bins": {[^}]*}/"nobins": 0/g' "$tmp/b/points/4k-random-read-128/max.json"
	      args=("$tmp/a" "$tmp/b") want="no latency bins in a host's point" out=$tmp/m3 ;;
	out) args=("$tmp/a") want="holds a review that is not a merge" out=$tmp/b ;;
	esac
	rc=0
	"$ctl" review --merge -O "$out" "${args[@]}" > /dev/null 2> "$tmp/err" || rc=$?
	if [ $rc != 0 ] && grep -qF -- "$want" "$tmp/err"; then
		ok "refused ($t): exit $rc, $(grep -F -- "$want" "$tmp/err" | head -1)"
	else
		notok "not refused ($t): exit $rc, $(cat "$tmp/err")"
	fi
done
exit $fail
