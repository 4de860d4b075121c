#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cost of finding a zone to write on a device of many zones, measured
# in the test VM: 64 KiB writes, 8 in flight, to a zoned null_blk of 65536
# zones of 1 MiB (no open limit, max_open_zones 8) whose first three
# quarters are full and last quarter empty, as a drive filled and then
# partly reset. Each zone takes 16 writes, then its worker opens another:
# drawn at random, nearly always in the full part, so a search that walks
# the zones from there walks ~24,000 of them (under the workload's lock)
# before it meets an empty one. Beside it, the same device all empty
# (where any search meets an empty zone at once): the ratio is what the
# full zones cost.
#
#   tests/vm/run.sh --kernel 6.12 --icount --run "bash /blkgen/tests/bench/zone-search.sh"
#
# (--icount: the figures are instruction counts and repeat across boots,
# so two builds of the module compare boot against boot.) A benchmark,
# not a test: it asserts nothing.
set -u
. /blkgen/tests/lib/rc
_blkgen_setup >/dev/null || exit 1
MS=${MS:-1000}
zones=65536
declare -A iops=()
_nullb_remove blkgenzs
_nullb_create blkgenzs zoned=1 zone_size=1 size=$zones blocksize=4096 || exit 1
for full in 0 3/4; do
	blkzone reset /dev/blkgenzs || exit 1
	if [ $full != 0 ]; then
		blkzone finish /dev/blkgenzs || exit 1
		blkzone reset -o $((zones * 3 / 4 * 2048)) -c $((zones / 4)) /dev/blkgenzs || exit 1
	fi
	j=zs${full%/*}
	_blkgen_job $j cpus=0 duration_ms=$MS seed=1 || exit 1
	_blkgen_wl $j w device=/dev/blkgenzs rdpct=0 bs=64k depth=8 \
		max_open_zones=8 allow_write=1 || exit 1
	_blkgen_start $j && _blkgen_wait $j 300 || exit 1
	iops[$full]=$(( $(_blkgen_get $j w/write_ios) * 1000 / $(_blkgen_get $j elapsed_ms) ))
	echo "$zones zones, $full full: ${iops[$full]} IOPS, $(_blkgen_get $j w/zones_opened) zones opened, $(_blkgen_get $j w/zone_resets) resets, errors $(_blkgen_get $j w/errors)"
	_blkgen_rm_all
done
awk -v a="${iops[3/4]}" -v b="${iops[0]}" 'BEGIN {
	printf "3/4 full / empty: %.3f\n", a / b }'
_blkgen_cleanup
_nullb_remove blkgenzs
