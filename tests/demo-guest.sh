#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo inside the VM (tests/demo.sh boots it): the reviews' four
# corners (4 KiB random read and write, 128 KiB sequential read and write)
# on the emulated NVMe drive, DEMO_SECS measured seconds each after a
# one-second warmup, each through `blkgenctl run` with its progress and
# report, then one summary line per corner from the JSON reports; then a
# short vdbench curve of 4 KiB random reads (10% to 120% of the maximum),
# its JSON also printed between markers for the host to plot.
set -u
dev=${DEMO_DEV:-/dev/nvme0n1}
secs=${DEMO_SECS:-5}
points=${DEMO_POINTS:-10-120,10}
out=/tmp/demo
mkdir -p "$out"
modprobe blkgen || exit 1

echo
echo "blkgen demo: four corners on $dev ($(cat /sys/block/${dev#/dev/}/device/model 2>/dev/null | sed 's/ *$//'), emulated by QEMU)"
for p in 4k-random-read 4k-random-write 128k-seq-read 128k-seq-write; do
	echo
	echo "### blkgenctl run $p --device $dev --allow-write --set duration_ms=${secs}s --set warmup_ms=1s"
	blkgenctl run "/blkgen/profiles/$p.prof" --device "$dev" --allow-write \
		--set "duration_ms=${secs}s" --set warmup_ms=1s --name "$p" --keep || exit 1
	blkgenctl report "$p" -o json > "$out/$p.json" || exit 1
	blkgenctl rm "$p"
done

echo
echo "blkgen demo: summary (latency from the intended start; QEMU TCG, not hardware)"
printf '%-16s %10s %10s %12s %12s\n' corner IOPS MB/s "mean (us)" "p99 (us)"
for p in 4k-random-read 4k-random-write 128k-seq-read 128k-seq-write; do
	blkgenctl merge "$out/$p.json" -o csv | awk -F, -v p="$p" '
		NR > 1 && $6 > 0 { printf "%-16s %10.0f %10.1f %12.1f %12.1f\n", p, $8, $9, $12, $17 }'
done

echo
echo "### blkgenctl curve 4k-random-read --device $dev --points $points --set duration_ms=2s --set warmup_ms=500ms"
blkgenctl curve /blkgen/profiles/4k-random-read.prof --device "$dev" --points "$points" \
	--set duration_ms=2s --set warmup_ms=500ms -o json > "$out/curve.json" || exit 1
# The table from the JSON (one string, white space dropped; busybox awk).
awk '{ s = s $0 } END {
	gsub(/[ \t]/, "", s)
	if (match(s, /"max_iops":[0-9]+/))
		print "curve: maximum " substr(s, RSTART + 11, RLENGTH - 11) " IOPS"
	n = split(s, pt, "\"target_pct\":")
	for (i = 2; i <= n; i++) {
		t = pt[i] + 0
		match(pt[i], /"iops":[0-9.e+]+/); v = substr(pt[i], RSTART + 7, RLENGTH - 7)
		match(pt[i], /"mean":[0-9.e+]+/); m = substr(pt[i], RSTART + 7, RLENGTH - 7)
		match(pt[i], /"p99":[0-9.e+]+/); q = substr(pt[i], RSTART + 6, RLENGTH - 6)
		printf "%7s%% %12.0f IOPS  mean %10.1f us  p99 %10.1f us\n", t, v, m / 1000, q / 1000
	} }' "$out/curve.json"
echo "BEGIN-CURVE-JSON"
cat "$out/curve.json"
echo "END-CURVE-JSON"
