#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cost of replay, measured in the test VM: IOPS of a trace of 4 KiB
# random reads replayed as fast as possible at depth 32 against a closed
# loop of the same reads at the same depth, on null_blk, worker on CPU 0,
# alternating in one boot (ABAB):
#
#   tests/vm/run.sh --kernel 6.12 --icount --run "bash /blkgen/tests/bench/replay-cost.sh"
#
# The trace (NREC records) fits the record ring (replay_buf_kb), which
# blkgenctl fills before the start: the replay runs without its feeder,
# whose parsing would run on the other vCPU and, under icount, take its
# turns of virtual time. Prints one line per run and the ratio of the
# means. A benchmark, not a test: it asserts nothing.
set -u
. /blkgen/tests/lib/rc
_blkgen_setup >/dev/null || exit 1
NREC=${NREC:-240000}
d=/tmp/replay-cost
rm -rf $d
mkdir -p $d
# Random 4 KiB offsets in the first GiB (nullb0 is 250 GiB or more).
{ echo "fio version 3 iolog"
  awk -v n="$NREC" 'BEGIN { srand(1); for (i = 0; i < n; i++)
	printf "0 /dev/x read %d 4096\n", int(rand() * 262144) * 4096 }'; } > $d/t.log
# The ring is rounded down to a power of two records: one that holds all.
kb=4
while [ $((kb * 32)) -lt "$NREC" ]; do
	kb=$((kb * 2))
done
cat > $d/replay.prof <<PROF
[job]
duration_ms = 0
cpus = 0

[workload r]
device = /dev/nullb0
trace = $d/t.log
replay = afap
replay_buf_kb = $kb
depth = 32
PROF
declare -A sum=([loop]=0 [afap]=0)
for round in 1 2; do
	for m in loop afap; do
		if [ $m = loop ]; then
			_blkgen_rm_all
			_blkgen_job rc duration_ms=1000 warmup_ms=0 cpus=0 || exit 1
			_blkgen_wl rc w device=/dev/nullb0 bs=4k range=0-1g depth=32 || exit 1
			_blkgen_start rc && _blkgen_wait_quiet rc || exit 1
			ios=$(_blkgen_get rc w/read_ios)
			iops=$((ios * 1000 / $(_blkgen_get rc elapsed_ms)))
		else
			_blkgen_rm_all
			blkgenctl run $d/replay.prof -q -o csv > $d/out 2> $d/err ||
				{ cat $d/err; exit 1; }
			# ios and iops: columns 6 and 8 of the read row.
			ios=$(awk -F, '$3 == "read" { print $6 }' $d/out)
			iops=$(awk -F, '$3 == "read" { printf "%d", $8 }' $d/out)
		fi
		sum[$m]=$((sum[$m] + iops))
		echo "$m round $round: $iops IOPS ($ios reads)"
	done
done
awk -v a="${sum[afap]}" -v l="${sum[loop]}" 'BEGIN {
	printf "replay afap / closed loop: %.3f (%d / %d IOPS, mean of 2)\n", a / l, a / 2, l / 2 }'
rm -rf $d
_blkgen_cleanup
