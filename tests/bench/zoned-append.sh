#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Zone append against regular writes, measured in the test VM: IOPS of
# 4 KiB random writes on a memory-backed zoned null_blk (64 zones of
# 16 MiB, no open limit, max_open_zones 8), one worker, at depth 1, 8 and
# 32, the two write kinds alternating in one boot; on a null_blk that
# completes inline (the CPU cost) and on one that completes each I/O
# after 50 us (a device's latency: what depth buys).
#
#   tests/vm/run.sh --kernel 6.12 --icount --run "bash /blkgen/tests/bench/zoned-append.sh"
#
# Regular writes go one in flight per zone (Documentation/zoned.rst), so
# depth above 8 waits for zones; appends fill the depth. Prints one line
# per run and each depth's append/regular ratio. A benchmark, not a test:
# it asserts nothing.
set -u
. /blkgen/tests/lib/rc
_blkgen_setup >/dev/null || exit 1
SECS=${SECS:-2}
for dev in inline 50us; do
_nullb_remove blkgenza
if [ $dev = inline ]; then
	_nullb_create blkgenza zoned=1 zone_size=16 size=1024 blocksize=4096 \
		memory_backed=1 || exit 1
else
	_nullb_create blkgenza zoned=1 zone_size=16 size=1024 blocksize=4096 \
		memory_backed=1 irqmode=2 completion_nsec=50000 || exit 1
fi
for depth in 1 8 32; do
	declare -A iops=()
	for append in 0 1; do
		blkzone reset /dev/blkgenza || exit 1
		j=za$depth$append
		_blkgen_job $j cpus=0 duration_ms=$((SECS * 1000)) warmup_ms=200 seed=1 || exit 1
		_blkgen_wl $j w device=/dev/blkgenza rdpct=0 bs=4k depth=$depth \
			max_open_zones=8 allow_write=1 zone_append=$append || exit 1
		_blkgen_start $j && _blkgen_wait $j 120 || exit 1
		iops[$append]=$(( $(_blkgen_get $j w/write_ios) * 1000 / $(_blkgen_get $j elapsed_ms) ))
		echo "$dev depth $depth zone_append=$append: ${iops[$append]} IOPS, errors $(_blkgen_get $j w/errors), resets $(_blkgen_get $j w/zone_resets)"
		_blkgen_rm_all
	done
	awk -v a="${iops[1]}" -v r="${iops[0]}" -v d="$depth" -v n=$dev 'BEGIN {
		printf "%s depth %d: append / regular %.3f\n", n, d, a / r }'
done
done
_blkgen_cleanup
_nullb_remove blkgenza
