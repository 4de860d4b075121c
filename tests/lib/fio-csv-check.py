#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""fio-csv-check.py FIO.json CSVBASE [REPORT.json]

Check the CSV files fio_jsonplus_clat2csv made of FIO.json (CSVBASE_jobN.csv)
against percentiles: each one is the first CSV row whose cumulative
percentile reaches it, or the recorded min or max (percentiles are clamped
to them). The percentiles are REPORT.json's (a blkgenctl -o json report,
workloads matched to fio jobs by name), else FIO.json's own clat_ns.
Prints each disagreement; exits 1 if there is one, or nothing was checked.
"""
import json
import sys

COLS = {'read': 5, 'write': 14}     # clat_ns cumulative column of each ddir


def main():
    fio = json.load(open(sys.argv[1]))
    report = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    own = {}
    if report:
        for job in report['jobs']:
            for w in job['workloads']:
                own[w['name']] = w
    bad = checked = 0
    for i, job in enumerate(fio['jobs']):
        rows = [l.split(',') for l in
                open('%s_job%d.csv' % (sys.argv[2], i)).read().splitlines()[1:]]
        for ddir, col in COLS.items():
            lat = (own[job['jobname']][ddir]['lat_ns'] if report
                   else job[ddir]['clat_ns'])
            if not lat['N']:
                continue
            pts = [(int(r[0]), float(r[col + 1])) for r in rows if r[col].strip()]
            for k, v in lat['percentile'].items():
                p = float(k) / 100
                want = next(ns for ns, q in pts if q >= p - 1e-12)
                checked += 1
                if v != want and v not in (lat['min'], lat['max']):
                    print('%s %s p%s: percentile %d, CSV %d' %
                          (job['jobname'], ddir, k, v, want))
                    bad += 1
    print('%d percentiles checked, %d disagree' % (checked, bad))
    sys.exit(1 if bad or not checked else 0)


if __name__ == '__main__':
    main()
