#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-boots.sh PLANNED REPORTED [DEBUG_FAILED]
#
# make check's account of its boots: every boot of the queue (PLANNED,
# one spec a line) must have reported (REPORTED: the specs whose boot
# ended, as each lane wrote them), or the run fails naming each lost one
# (a lane that died with a boot taken lost its tests without a FAIL of
# theirs). With DEBUG_FAILED 1 the debug kernel did not build and its
# boots were dropped (its build's FAIL says so).
set -u

planned=$1
reported=$2
debug_failed=${3:-0}
lost=0 n=0

while read -r spec; do
	[ -n "$spec" ] || continue
	[ "$debug_failed" = 1 ] && [[ $spec == debug* ]] && continue
	n=$((n + 1))
	if ! grep -qxF -- "$spec" "$reported" 2> /dev/null; then
		echo "the boot \"$spec\" was queued and never reported (its lane died with it?)"
		lost=$((lost + 1))
	fi
done < "$planned"
if [ "$n" -eq 0 ]; then
	echo "no boot was queued ($planned)"
	exit 1
fi
[ "$lost" -eq 0 ] || exit 1
echo "$n boots queued, each reported"
