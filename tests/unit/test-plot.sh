#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl plot writes a gnuplot script with the curve's
# points (IOPS, mean and p99 in us) and labels that do not overprint, the
# report's histogram (bars of 1/8 octave, equal on the log axis, summing
# to 100%, cumulative ending at 100%; --logy) or its time series, reads
# standard input, renders PNG and SVG through gnuplot (to standard output
# with -O -), and refuses JSON that is neither.
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

# A histogram of equal density per log interval (each 1/64-octave bin of
# the module holding I/Os in proportion to its width over its latency,
# 8 to 128 us) draws bars of equal height and equal width on the log
# axis: linear eighths of each octave fell 1.8x across it and jumped 2x.
awk 'BEGIN {
	printf "{ \"jobs\": [ { \"jobname\": \"j\", \"state\": \"done\", \"error\": \"\", \"elapsed_ms\": 1000, \"workloads\": [ { \"name\": \"w\", \"read\": { \"ios\": IOS, \"bytes\": 0, \"lat_ns\": { \"min\": 8192, \"max\": 131071, \"N\": IOS, \"bins\": {"
	n = 0; sep = ""
	for (o = 8192; o < 131072; o *= 2)
		for (j = 0; j < 64; j++) {
			lo = o + j * o / 64; c = int(1e7 * (o / 64) / lo + 0.5)
			printf "%s \"%d\": %d", sep, lo, c; sep = ","; n += c
		}
	printf " } } }, \"write\": { \"ios\": 0, \"bytes\": 0, \"lat_ns\": { \"N\": 0, \"bins\": {} } } } ] } ] }\n"
	print n > "/dev/stderr"
}' > "$tmp/flat.tmpl" 2> "$tmp/flat.n"
sed "s/IOS/$(cat "$tmp/flat.n")/g" "$tmp/flat.tmpl" > "$tmp/flat.json"
"$ctl" plot "$tmp/flat.json" --script -O "$tmp/f.png" > "$tmp/f.gp"
flat=$(sed -n '/^\$h0 << EOD/,/^EOD/p' "$tmp/f.gp" | grep -v '^[#$E]' |
	awk '{ n++; r = $2 / $1; if (!rmin || r < rmin) rmin = r; if (r > rmax) rmax = r
	       if (!hmin || $3 < hmin) hmin = $3; if ($3 > hmax) hmax = $3 }
	     END { printf "%d %.4f %.4f %.3f", n, rmin, rmax, hmax / hmin }')
# 4 octaves of 8 bars; widths 2^(1/8) = 1.0905; heights within 1%.
if [ "${flat% *}" = "32 1.0905 1.0905" ] && awk -v q="${flat##* }" 'BEGIN { exit !(q < 1.01) }' &&
   grep -q "ylabel '% of the I/Os in each 1/8 octave (bars of equal log width)'" "$tmp/f.gp"; then
	ok "histogram bars: equal log widths, a flat density drawn flat ($flat)"
else
	notok "histogram bars: count, width ratios, height ratio: $flat"
fi
# --logy: the shares on a log axis, bars from under the least.
"$ctl" plot "$data/plot-report.json" --script --logy > "$tmp/hl.gp"
if grep -qx "set logscale y" "$tmp/hl.gp" && grep -qx "base = 12.5" "$tmp/hl.gp" &&
   grep -q "ylabel .*, log scale'" "$tmp/hl.gp"; then
	ok "histogram --logy: log shares, bars from half the least"
else
	notok "histogram --logy: $(grep -e logscale -e base "$tmp/hl.gp")"
fi

# Past saturation the points crowd: one label for them, not three.
"$ctl" plot "$data/plot-saturated.json" --script > "$tmp/s.gp"
labels=$(sed -n '/^\$labels << EOD/,/^EOD/p' "$tmp/s.gp" | grep -v '^[#$E]' |
	awk '{ print $3 }' | tr '\n' ' ')
if [ "$labels" = '"10%" "50%" "100-120%" ' ]; then
	ok "curve labels: 100-120% as one"
else
	notok "curve labels: '$labels'"
fi

# --title replaces the chart's title (the file's name by default).
if "$ctl" plot "$data/plot-report.json" --script --title "Drive A: 4K random read" \
	-O "$tmp/t.svg" > "$tmp/t.gp" && grep -q "set title 'Drive A: 4K random read'" "$tmp/t.gp" &&
   ! grep -q "set title '.*plot-report.json'" "$tmp/t.gp"; then
	ok "--title sets the title"
else
	notok "--title: $(grep 'set title' "$tmp/t.gp")"
fi

# The input from standard input; the chart to standard output.
if "$ctl" plot - --script -O "$tmp/x.svg" < "$data/plot-report.json" > "$tmp/in.gp" &&
   grep -q "'w1 read'" "$tmp/in.gp" && grep -q "set title 'standard input'" "$tmp/in.gp"; then
	ok "plot - reads standard input"
else
	notok "plot -: $(head -c 300 "$tmp/in.gp")"
fi
rc=0
"$ctl" plot - < "$data/plot-report.json" > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q "name the chart with -O" "$tmp/err"; then
	ok "plot - without -O: a usage error"
else
	notok "plot - without -O: exit $rc"
fi

if command -v gnuplot > /dev/null; then
	for o in - /dev/stdout; do
		rm -f ./-
		if "$ctl" plot "$data/plot-report.json" -t svg -O "$o" > "$tmp/so.svg" 2> "$tmp/err" &&
		   grep -q "<svg" "$tmp/so.svg" && [ ! -e ./- ]; then
			ok "-O $o: the chart on standard output"
		else
			notok "-O $o: $(wc -c < "$tmp/so.svg") bytes: $(cat "$tmp/err")"
		fi
	done
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
# A review's review.json: said, not "point 0 has no lat_ns".
printf '{ "suite": "x", "points": [ 10, 50 ], "workloads": [ ] }\n' > "$tmp/review.json"
rc=0
"$ctl" plot "$tmp/review.json" --script > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 1 ] && grep -q "a review: its charts are in its index.html" "$tmp/err"; then
	ok "plot of a review.json: exit 1, where its charts are"
else
	notok "plot of a review.json: exit $rc, $(cat "$tmp/err")"
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
