# SPDX-License-Identifier: GPL-2.0
#
# review.json (json-c's pretty layout) to one line per workload:
# NAME<TAB>TITLE<TAB>MAX(0|1)<TAB>POINTS<TAB>PEAK_IOPS<TAB>PEAK_MB/S<TAB>PEAK_MEAN_NS<TAB>PEAK_P99_NS
# <TAB>PEAK_RESP_MEAN_NS<TAB>PEAK_DEPTH<TAB>KNEE_PCT (-1: none)<TAB>MAX_ELAPSED_MS
# <TAB>MAX_SVC_MAX_NS<TAB>DESKTOPS<TAB>SPEED_100<TAB>ELAPSED_100_MS
# (the peak's MEAN and P99 are service times, RESP the response time;
# MAX_SVC_MAX_NS the maximum run's slowest service time; then a VDI
# maximum's desktops and the 100% point's replay speed (percent), -1
# where there are none, and the 100% point's length)
# for the review tests (busybox awk, no JSON tool in the VM).
function flush() {
	if (name != "")
		printf "%s\t%s\t%d\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%g\t%.0f\t%.0f\t%.0f\t%g\t%.0f\n", name, title, max, pts,
			piops, pbw / 1e6, pmean, pp99, presp, pdepth, knee, melapsed, mslow, desk, s100, e100
	name = ""; title = ""; max = 0; pts = 0; inclat = 0
	piops = pbw = pmean = pp99 = presp = pdepth = knee = melapsed = mslow = -1
	desk = s100 = e100 = cur = -1
}
/^    \{/ { flush(); sec = "" }
/^      "name": ?/ { name = $0; sub(/^[^:]*: ?"/, "", name); sub(/",?$/, "", name) }
/^      "title": ?/ { title = $0; sub(/^[^:]*: ?"/, "", title); sub(/",?$/, "", title) }
/^      "max": ?\{/ { max = 1; sec = "max" }
/^      "points": ?/ { sec = "points" }
/^      "peak": ?/ { sec = "peak" }
/^      "knee": ?/ { sec = "knee" }
function val() { v = $0; sub(/^[^:]*: ?/, "", v); sub(/,$/, "", v); return v + 0 }
# a point's keys in any order: the 100% one's kept at its end
sec == "points" && /^        \{/ { cur = psp = pel = -1 }
sec == "points" && /^          "target_pct": ?/ { pts++; cur = val() }
sec == "points" && /^          "replay_speed_pct": ?/ { psp = val() }
sec == "points" && /^          "elapsed_ms": ?/ { pel = val() }
sec == "points" && /^        \}/ && cur == 100 { s100 = psp; e100 = pel }
sec == "max" && /^        "desktops": ?/ { desk = val() }
sec == "max" && /^        "elapsed_ms": ?/ { melapsed = val() }
sec == "max" && /^        "clat_ns": ?\{/ { inclat = 1 }
sec == "max" && /^        \}/ { inclat = 0 }
sec == "max" && inclat && /^          "max": ?/ { mslow = val() }
sec == "peak" && /^        "iops": ?/ { piops = val() }
sec == "peak" && /^        "bw_bytes": ?/ { pbw = val() }
sec == "peak" && /^        "lat_mean_ns": ?/ { pmean = val() }
sec == "peak" && /^        "lat_p99_ns": ?/ { pp99 = val() }
sec == "peak" && /^        "resp_mean_ns": ?/ { presp = val() }
sec == "peak" && /^        "depth": ?/ { pdepth = val() }
sec == "knee" && /^        "target_pct": ?/ { knee = val() }
/^  \]/ { flush(); sec = "" }
END { flush() }
