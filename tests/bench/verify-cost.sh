#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cost of verify=1, measured in the test VM: IOPS of the same random
# 4 KiB read/write workload on a memory-backed null_blk with verify off and
# on, alternating in one boot (ABAB), one worker at depth 16.
#
#   tests/vm/run.sh --kernel 6.12 --icount --run "bash /blkgen/tests/bench/verify-cost.sh"
#
# (--icount: guest time is an instruction count, so the ratio is that of
# the instructions verify adds and repeats across boots.)
#
# Prints one line per run and the on/off ratio of the means. A benchmark,
# not a test: it asserts nothing.
set -u
. /blkgen/tests/lib/rc
_blkgen_setup >/dev/null || exit 1
_nullb_remove blkgenvc
_nullb_create blkgenvc memory_backed=1 size=256 || exit 1
SECS=${SECS:-3}
declare -A sum=([0]=0 [1]=0)
for round in 1 2; do
	for v in 0 1; do
		j=vc$round$v
		_blkgen_job $j cpus=0 duration_ms=$((SECS * 1000)) warmup_ms=300 seed=1 || exit 1
		_blkgen_wl $j w device=/dev/blkgenvc rdpct=50 bs=4k range=0-64m \
			depth=16 allow_write=1 verify=$v || exit 1
		# Fill first so that reads are checked from the start.
		_blkgen_start $j && _blkgen_wait $j 120 || exit 1
		_blkgen_start $j && _blkgen_wait $j 120 || exit 1
		ios=$(( $(_blkgen_get $j w/read_ios) + $(_blkgen_get $j w/write_ios) ))
		iops=$((ios * 1000 / $(_blkgen_get $j elapsed_ms)))
		sum[$v]=$((sum[$v] + iops))
		echo "verify=$v round $round: $iops IOPS, $(_blkgen_get $j w/verify_checked) blocks checked, $(_blkgen_get $j w/verify_errors) mismatches"
	done
done
awk -v off="${sum[0]}" -v on="${sum[1]}" 'BEGIN {
	printf "verify on / off: %.3f (%d / %d IOPS, mean of 2)\n", on / off, on / 2, off / 2 }'
_blkgen_cleanup
_nullb_remove blkgenvc
