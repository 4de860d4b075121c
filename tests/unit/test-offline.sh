#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: what blkgenctl can check without the module it checks
# first: a value the module would refuse (bs, depth, range, distribution,
# a curve's points, replay's --depth, --afap with --speed) is a usage
# error (exit 2) naming the rule, not "module not loaded" (exit 3); an
# unknown --set key gets the nearest one; convert's --run names the runs
# a file holds, and -O makes its directory's parents; a replay of an
# iolog holding several files' I/O says so; run and curve --dry-run print
# the profile as it would run.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

printf '[job]\nduration_ms = 1s\n\n[workload w]\ndevice = /dev/nullb0\n' > "$tmp/p.prof"
printf '[job]\nduration_ms = 1s\nrate_iops = curve\ncurve = zz\n\n[workload w]\ndevice = /dev/nullb0\n' > "$tmp/c.prof"
: > "$tmp/empty.trace"

usage_error "unknown key 'rdpc' (did you mean 'rdpct'?)" run "$tmp/p.prof" --set rdpc=50
usage_error "unknown key 'duraton_ms' (did you mean 'duration_ms'?)" run "$tmp/p.prof" --set duraton_ms=5s
usage_error "--set bs=3000: not a size (multiples of 512 from 512 to 1 MiB" run "$tmp/p.prof" --set bs=3000
usage_error "--set depth=0: not a depth 1..65536" run "$tmp/p.prof" --set depth=0
usage_error "--set range=5-1: not a range START-END" run "$tmp/p.prof" --set range=5-1
usage_error "--set distribution=zoned:50/50: not a distribution" run "$tmp/p.prof" --set distribution=zoned:50/50
usage_error "--points abc: expected FROM-TO,STEP or P,P,..." curve "$tmp/p.prof" --points abc
usage_error "curve = zz: expected FROM-TO,STEP or P,P,..." run "$tmp/c.prof"
usage_error "--depth 0: I/Os in flight, 1 to 65536" replay "$tmp/empty.trace" --device /dev/nullb0 --depth 0
usage_error "--speed 200 with --afap: an afap replay ignores times" replay "$tmp/empty.trace" --device /dev/nullb0 --afap --speed 200
usage_error "no run named 'nosuch'; it holds rd_rr-threads1 rd_rr-threads2" \
	convert "$data/convert/four-corners.vdb" --run nosuch --device-size 1g

# An iolog holding two files' I/O, replayed onto one device: said (before
# the module is needed); an MSR trace's disks are not (a VDI trace's
# desktops share the device by design).
rc=0
"$ctl" replay "$data/trace/iolog2.log" --device /dev/nullb0 --reads-only > /dev/null 2> "$tmp/err" || rc=$?
if [ $rc != 0 ] && grep -qF "the trace holds I/O to files /dev/nvme0n1 (3), /dev/other (1): all of it goes to /dev/nullb0" "$tmp/err"; then
	ok "replay of an iolog of two files says so"
else
	notok "replay of an iolog of two files: exit $rc, $(cat "$tmp/err")"
fi
"$ctl" replay "$data/trace/msr.csv" --device /dev/nullb0 --reads-only > /dev/null 2> "$tmp/err"
if ! grep -q "the trace holds I/O to" "$tmp/err"; then
	ok "replay of an MSR trace of two disks: no note"
else
	notok "replay of an MSR trace: $(cat "$tmp/err")"
fi

if "$ctl" convert "$data/convert/four-corners.vdb" -O "$tmp/new/sub" --device-size 1g -q &&
	[ -f "$tmp/new/sub/06-rd_mix.prof" ]; then
	ok "convert -O makes the directory's parents"
else
	notok "convert -O $tmp/new/sub: no rd_mix.prof"
fi

# --dry-run: the profile as it would run, the options applied, no module.
if "$ctl" run "$tmp/p.prof" --dry-run --device /dev/nullb1 --set bs=8k > "$tmp/dry" 2> "$tmp/err" &&
   [ "$(tr '\n' '|' < "$tmp/dry")" = "[job]|duration_ms = 1000||[workload w]|device = /dev/nullb1|bs = 8k||# planned_ms = 1000|" ]; then
	ok "run --dry-run prints the profile as it would run"
else
	notok "run --dry-run: $(cat "$tmp/dry" "$tmp/err")"
fi
usage_error "--set bs=3000: not a size" run "$tmp/p.prof" --dry-run --set bs=3000
# Several profiles: each checked first (the second's error stops all).
if "$ctl" run "$tmp/p.prof" "$tmp/p.prof" --dry-run > "$tmp/dry" 2> "$tmp/err" &&
   [ "$(grep -c '^\[job\]' "$tmp/dry")" = 2 ] && [ "$(grep -c "^# $tmp/p.prof" "$tmp/dry")" = 2 ]; then
	ok "run A B --dry-run: both checked and printed"
else
	notok "run A B --dry-run: $(cat "$tmp/dry" "$tmp/err")"
fi
printf '[job]\nduration_ms = 1s\n\n[workload w]\ndevice = /dev/nullb0\nbs = 3000\n' > "$tmp/bad.prof"
usage_error "bs = 3000: not a size" run "$tmp/p.prof" "$tmp/bad.prof"
usage_error "-o fio reports one run" run "$tmp/p.prof" "$tmp/p.prof" -o fio
# The planned length (what Ansible's async limit follows): warmup and
# duration, summed over profiles; a curve's maximum and points a slot
# each (warmup + duration + 5 s, whole seconds); unknown without a
# duration.
printf '[job]\nduration_ms = 2s\nwarmup_ms = 500\n\n[workload w]\ndevice = /dev/nullb0\n' > "$tmp/pl.prof"
printf '[job]\nduration_ms = 0\nio_limit = 100\n\n[workload w]\ndevice = /dev/nullb0\n' > "$tmp/nodur.prof"
planned() { "$ctl" "$@" --dry-run 2> /dev/null | sed -n 's/^# planned_ms = //p'; }
if [ "$(planned run "$tmp/pl.prof")" = 2500 ] &&
   [ "$(planned run "$tmp/pl.prof" "$tmp/p.prof")" = 3500 ] &&
   [ "$(planned curve "$tmp/pl.prof" --points 10,50,90)" = 32000 ] &&
   [ "$(planned run "$tmp/pl.prof" "$tmp/nodur.prof")" = "unknown (no duration_ms, or a trace: it ends with its I/O)" ]; then
	ok "--dry-run's planned_ms: a run's warmup and duration, summed; a curve's slots; unknown without a duration"
else
	notok "--dry-run's planned_ms: $(planned run "$tmp/pl.prof"), $(planned run "$tmp/pl.prof" "$tmp/p.prof"), $(planned curve "$tmp/pl.prof" --points 10,50,90), $(planned run "$tmp/pl.prof" "$tmp/nodur.prof")"
fi
# Without duration_ms the module runs its 10 s default.
printf '[workload w]\ndevice = /dev/nullb0\n' > "$tmp/dflt.prof"
if [ "$(planned run "$tmp/dflt.prof")" = 10000 ]; then
	ok "--dry-run's planned_ms without duration_ms: the module's 10 s"
else
	notok "planned_ms without duration_ms: $(planned run "$tmp/dflt.prof")"
fi
# --lease: its file exists before the run (the controller makes it);
# --lease-secs alone has no lease to time.
usage_error "--lease $tmp/nolease: No such file or directory" run "$tmp/p.prof" --lease "$tmp/nolease" --dry-run
usage_error "--lease-secs: give the lease with --lease FILE" run "$tmp/p.prof" --lease-secs 5 --dry-run
usage_error "--lease-secs 0: expected whole seconds from 1 to 86400" curve "$tmp/p.prof" --lease "$tmp/p.prof" --lease-secs 0
usage_error "--lease-secs: give the lease with --lease FILE" replay "$tmp/p.prof" --device /dev/null --lease-secs 5
# A curve's curve_stop_ms is checked by its dry run too.
printf '[job]\nduration_ms = 1s\ncurve_stop_ms = abc\n\n[workload w]\ndevice = /dev/nullb0\n' > "$tmp/cs.prof"
usage_error "curve_stop_ms = abc: expected milliseconds above 0" curve "$tmp/cs.prof" --dry-run
if "$ctl" curve "$tmp/p.prof" --dry-run --points 10,50 > /dev/null 2>&1; then
	ok "curve --dry-run: exit 0 without the module"
else
	notok "curve --dry-run failed"
fi

if "$ctl" run --help | grep -q -- "--name JOB .*(default: run-PID)"; then
	ok "run --help: --name defaults to run-PID, as the code names the job"
else
	notok "run --help: --name's default is not run-PID"
fi

exit $fail
