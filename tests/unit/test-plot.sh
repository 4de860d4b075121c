#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl plot writes a gnuplot script with the curve's
# points (IOPS, mean and p99 in us), the report's histogram (1/8-octave
# bars summing to 100%, cumulative ending at 100%) or its time series,
# renders PNG and SVG through gnuplot, and refuses JSON that is neither.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

"$ctl" plot "$data/plot-curve.json" --script -O "$tmp/c.png" > "$tmp/c.gp"
# The datablock: target_pct iops mean_us p99_us.
if sed -n '/^\$curve << EOD/,/^EOD/p' "$tmp/c.gp" | grep -v '^#' |
	grep -qx '50 5001.0 25.000 60.000' &&
   grep -q "set terminal pngcairo" "$tmp/c.gp" &&
   grep -q "maximum 10000" "$tmp/c.gp"; then
	ok "curve script holds the points in us"
else
	notok "curve script: $(cat "$tmp/c.gp")"
fi

"$ctl" plot "$data/plot-report.json" --script -t svg > "$tmp/h.gp"
# Bars: 4 I/Os in 3 bars, 25/50/25 %, cumulative to 100.
bars=$(sed -n '/^\$h0 << EOD/,/^EOD/p' "$tmp/h.gp" | grep -v '^[#$E]' |
	awk '{ s += $3; c = $4; n++ } END { printf "%d %.1f %.1f", n, s, c }')
if [ "$bars" = "3 100.0 100.0" ] && grep -q "set terminal svg" "$tmp/h.gp" &&
   grep -q "'w1 read'" "$tmp/h.gp" && ! grep -q "w1 write" "$tmp/h.gp"; then
	ok "histogram script: 3 bars, 100%, read only"
else
	notok "histogram script: bars '$bars'"
fi

"$ctl" plot "$data/plot-report.json" --script -c time > "$tmp/t.gp"
# Time series: end of interval (s), IOPS, mean latency (us).
if sed -n '/^\$t0 << EOD/,/^EOD/p' "$tmp/t.gp" | grep -v '^[#$E]' | tr '\n' ' ' |
	grep -qx '0.500 4.0 15.000 1.000 4.0 30.000 '; then
	ok "time script: one line per interval"
else
	notok "time script: $(cat "$tmp/t.gp")"
fi

if command -v gnuplot > /dev/null; then
	if "$ctl" plot "$data/plot-curve.json" -O "$tmp/c.png" 2> /dev/null &&
	   [ "$(head -c 4 "$tmp/c.png" | od -An -c | tr -d ' ')" = "211PNG" ]; then
		ok "curve rendered as PNG"
	else
		notok "curve PNG"
	fi
	if "$ctl" plot "$data/plot-report.json" -O "$tmp/h.svg" 2> /dev/null &&
	   grep -q "<svg" "$tmp/h.svg"; then
		ok "histogram rendered as SVG"
	else
		notok "histogram SVG"
	fi
else
	echo "ok - # SKIP gnuplot not installed (apt-get install gnuplot-nox)"
fi

rc=0
"$ctl" plot "$data/plot-other.json" --script > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 1 ] && grep -q 'neither a curve' "$tmp/err"; then
	ok "other JSON refused"
else
	notok "other JSON: exit $rc"
fi
rc=0
"$ctl" plot "$data/plot-curve.json" -t gif > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q "expected png or svg" "$tmp/err"; then
	ok "unknown chart type is a usage error"
else
	notok "chart type gif: exit $rc"
fi

# What the chart cannot be: refused before anything is drawn.
rc=0
"$ctl" plot "$data/plot-report.json" -O "$tmp/h.pdf" > "$tmp/out" 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/h.pdf" ] && grep -q "png or svg" "$tmp/err"; then
	ok "-O x.pdf refused, nothing written"
else
	notok "-O x.pdf: exit $rc, $(ls "$tmp")"
fi
rc=0
"$ctl" plot "$data/plot-report.json" -O "$tmp/h.svg" -t png > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q "is not a png file" "$tmp/err"; then
	ok "-O's extension and -t disagreeing is refused"
else
	notok "-O h.svg -t png: exit $rc"
fi
if command -v gnuplot > /dev/null; then
	rc=0
	"$ctl" plot "$data/plot-report.json" -O "$tmp/no/such/dir/h.png" > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	   grep -q "cannot write $tmp/no/such/dir/h.png" "$tmp/err"; then
		ok "an unwritable chart: exit 1, one line, nothing on stdout"
	else
		notok "unwritable chart: exit $rc, $(wc -c < "$tmp/out") bytes on stdout: $(head -c 300 "$tmp/err")"
	fi
fi
# No gnuplot: the hint and exit 1 (not SIGPIPE's 141), nothing on stdout.
mkdir -p "$tmp/emptypath"
rc=0
PATH=$tmp/emptypath "$ctl" plot "$data/plot-report.json" -c time -O "$tmp/t.png" > "$tmp/out" 2> "$tmp/err" || rc=$?
if [ "$rc" = 1 ] && [ ! -s "$tmp/out" ] && grep -q "gnuplot not found: install it (apt-get install gnuplot-nox)" "$tmp/err"; then
	ok "without gnuplot: exit 1 and the install hint"
else
	notok "without gnuplot: exit $rc: $(cat "$tmp/err")"
fi
exit $fail
