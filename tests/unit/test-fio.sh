#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl and fio's tools read each other's JSON. -o fio
# writes fio's json+ layout, which fio_jsonplus_clat2csv (Debian's fio)
# converts and validates, its CSV's percentiles agreeing with the report's;
# a real fio json+ run (null engine) is read by merge, whose percentiles
# agree with fio's own, and by plot; fio's plain json (no bins) is refused
# with the hint.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

# Debian's python3 (with python3-six), not another one first on PATH.
py=/usr/bin/python3
clat2csv=/usr/bin/fio_jsonplus_clat2csv
if ! command -v fio > /dev/null || [ ! -x $clat2csv ] || ! $py -c 'import six' 2> /dev/null; then
	echo "not ok - fio, fio_jsonplus_clat2csv or python3-six missing (tests/install-deps.sh installs them)"
	exit 1
fi

# check_csv JSON CSV: the CSV's percentiles are the JSON's
# (tests/lib/fio-csv-check.py).
check_csv() {
	$py "$here/../lib/fio-csv-check.py" "$1" "${2%_job0.csv}" > /dev/null
}

# A blkgen report, as fio's json+.
if SOURCE_DATE_EPOCH=1700000000 TZ=UTC "$ctl" merge "$data/plot-report.json" -o fio > "$tmp/b.json" &&
   grep -q '"fio version":"blkgenctl-' "$tmp/b.json" &&
   grep -q '"time":"Tue Nov 14 22:13:20 2023"' "$tmp/b.json"; then
	ok "-o fio: fio's header, SOURCE_DATE_EPOCH honoured"
else
	notok "-o fio: $(head -5 "$tmp/b.json")"
fi
if (cd "$tmp" && $py $clat2csv b.json b.csv > /dev/null && $py $clat2csv b.json b.csv --validate > /dev/null) &&
   check_csv "$tmp/b.json" "$tmp/b_job0.csv"; then
	ok "fio_jsonplus_clat2csv reads and validates -o fio; percentiles agree"
else
	notok "fio_jsonplus_clat2csv on -o fio"
fi

# fio's own json+ (its null engine: nothing touches a disk).
fio --output="$tmp/fio.json" --output-format=json+ --ioengine=null \
	--time_based --runtime=1s --size=1G --name=fj --rw=randrw > /dev/null 2>&1 ||
	notok "fio run"
if "$ctl" merge "$tmp/fio.json" -o json > "$tmp/m.json" 2> "$tmp/err"; then
	# Every percentile of merge's within 1% of fio's own (or min or max).
	if $py - "$tmp/fio.json" "$tmp/m.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))['jobs'][0]
m = json.load(open(sys.argv[2]))['jobs'][0]['workloads'][0]
bad = 0
for ddir in ('read', 'write'):
    fc, ml = f[ddir]['clat_ns'], m[ddir]['lat_ns']
    if ml['N'] != fc['N'] or m[ddir]['ios'] != f[ddir]['total_ios']:
        print(ddir, 'counts differ'); bad += 1
    for k, v in fc['percentile'].items():
        if k not in ml['percentile']:
            continue
        o = ml['percentile'][k]
        if abs(o - v) > 0.01 * v and o not in (ml['min'], ml['max']):
            print('%s p%s: fio %d, blkgenctl %d' % (ddir, k, v, o)); bad += 1
sys.exit(bad != 0)
PY
	then
		ok "merge reads fio's json+: counts and percentiles agree with fio's"
	else
		notok "merge of fio's json+ disagrees with fio"
	fi
else
	notok "merge of fio's json+: $(cat "$tmp/err")"
fi
# fio's zonemode=zbd puts zone_resets on the job: merge keeps them.
$py - "$tmp/fio.json" > "$tmp/fz.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r['jobs'][0]['zone_resets'] = 5
json.dump(r, sys.stdout)
PY
if "$ctl" merge "$tmp/fz.json" -o json > "$tmp/mz.json" 2> "$tmp/err" &&
   [ "$(jq '.jobs[0].workloads[0].zone_resets' "$tmp/mz.json")" = 5 ] &&
   "$ctl" merge "$tmp/fz.json" "$tmp/fz.json" -o fio 2> "$tmp/err" |
	jq -e '.jobs[0].zone_resets == 10' > /dev/null; then
	ok "merge reads fio's job-level zone_resets (zonemode=zbd), and sums them"
else
	notok "fio zone_resets: $(jq -c '.jobs[0].workloads[0]' "$tmp/mz.json" | head -c 300) $(cat "$tmp/err")"
fi
# Its latency is fio's clat (from submission), not blkgen's response time.
if "$ctl" plot "$tmp/fio.json" --script > "$tmp/p.gp" 2> "$tmp/err" &&
   grep -q "'fj read'" "$tmp/p.gp" &&
   grep -qF "set xlabel 'latency (us), fio's completion latency (clat: from submission)'" "$tmp/p.gp"; then
	ok "plot reads fio's json+, its axis saying fio's clat"
else
	notok "plot of fio's json+: $(cat "$tmp/err") $(grep xlabel "$tmp/p.gp")"
fi
if "$ctl" plot "$tmp/b.json" --script 2> "$tmp/err" | grep -qF "set xlabel 'latency (us), from the intended arrival'"; then
	ok "plot of blkgenctl's -o fio: blkgen's response time"
else
	notok "plot of blkgenctl's -o fio: $(cat "$tmp/err")"
fi
fio --output="$tmp/plain.json" --output-format=json --ioengine=null \
	--time_based --runtime=200ms --size=1G --name=fj --rw=read > /dev/null 2>&1
if ! "$ctl" merge "$tmp/plain.json" > /dev/null 2> "$tmp/err" &&
   grep -q "no latency bins: run fio with --output-format=json+" "$tmp/err"; then
	ok "fio's plain json refused with the hint"
else
	notok "plain json: $(cat "$tmp/err")"
fi
# group_reporting: job_runtime sums the threads; the directions' runtime
# is the run's, and the IOPS merge reports are fio's.
fio --output="$tmp/gr.json" --output-format=json+ --ioengine=null \
	--time_based --runtime=1s --size=1G --name=gr --rw=randread \
	--numjobs=2 --group_reporting --rate_iops=1000 > /dev/null 2>&1 ||
	notok "fio group_reporting run"
if "$ctl" merge "$tmp/gr.json" -o json > "$tmp/gm.json" 2> "$tmp/err" &&
   $py - "$tmp/gr.json" "$tmp/gm.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))['jobs'][0]['read']['iops']
m = json.load(open(sys.argv[2]))['jobs'][0]['workloads'][0]['read']['iops']
print('# fio %.1f IOPS, merge %.1f' % (f, m))
sys.exit(abs(m - f) > 0.02 * f)
PY
then
	ok "group_reporting: merge's IOPS are fio's"
else
	notok "group_reporting IOPS: $(cat "$tmp/err")"
fi

# -o fio keeps blkgen's own counters, and merge reads them back; a run
# merged with --force is not error 0 to fio's tools.
python3 - "$data/plot-report.json" > "$tmp/counted.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = r['jobs'][0]['workloads'][0]
w.update(errors=3, late_ios=7, max_lag_ns=12345, flushes=2)
print(json.dumps(r))
PY
if "$ctl" merge "$tmp/counted.json" -o fio > "$tmp/cf.json" &&
   "$ctl" merge "$tmp/cf.json" -o json > "$tmp/cb.json" &&
   python3 - "$tmp/cb.json" << 'PY'
import json, sys
w = json.load(open(sys.argv[1]))['jobs'][0]['workloads'][0]
got = (w['errors'], w['late_ios'], w['max_lag_ns'], w['flushes'])
print('# back from -o fio: errors, late_ios, max_lag_ns, flushes', got)
sys.exit(got != (3, 7, 12345, 2))
PY
then
	ok "-o fio and back: errors, late_ios, max_lag_ns and flushes kept"
else
	notok "-o fio and back lost blkgen's counters"
fi
python3 - "$data/plot-report.json" > "$tmp/failed.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r['jobs'][0]['state'] = 'failed'
r['jobs'][0]['error'] = 'I/O error (EIO)'
print(json.dumps(r))
PY
if "$ctl" merge "$tmp/failed.json" --force -o fio > "$tmp/ff.json" 2> /dev/null &&
   python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["jobs"][0]["error"] == 0)' "$tmp/ff.json"; then
	ok "-o fio of a forced merge: fio's error is not 0"
else
	notok "-o fio of a forced merge says error 0"
fi

# A curve is many runs: -o fio is refused there, before anything runs.
rc=0
"$ctl" curve /nonexistent.prof -o fio > /dev/null 2> "$tmp/err" || rc=$?
if [ $rc = 2 ] && grep -q -- "-o fio is a run's layout" "$tmp/err"; then
	ok "curve -o fio refused"
else
	notok "curve -o fio: exit $rc: $(cat "$tmp/err")"
fi
exit $fail
