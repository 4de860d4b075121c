#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl convert turns vdbench and fio files into the
# profiles in data/convert/*.out (every run, notes included), and every
# malformed or unsupported input in data/convert/bad-* fails with exit 2
# and the message its first line expects. UPDATE=1 rewrites the goldens.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ctl=${BLKGENCTL:-$here/../../tools/blkgenctl/blkgenctl}
data=$here/data/convert
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

for f in "$data"/*.vdb "$data"/*.fio; do
	name=$(basename "$f")
	case $name in bad-*) continue ;; esac
	rm -rf "$tmp/out"
	if ! (cd "$data" && "$ctl" convert "$name" --device-size 100g \
		-O "$tmp/out" -q) 2> "$tmp/err"; then
		echo "not ok - $name: convert failed: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	for p in $(cd "$tmp/out" && ls); do
		echo "=== $p"
		cat "$tmp/out/$p"
	done > "$tmp/got"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/got" "$data/${name%.*}.out"
	fi
	if diff -u "$data/${name%.*}.out" "$tmp/got"; then
		echo "ok - $name converts to ${name%.*}.out"
	else
		echo "not ok - $name differs from ${name%.*}.out"
		fail=1
	fi
done

for f in "$data"/bad-*; do
	name=$(basename "$f")
	want=$(head -n 1 "$f" | sed 's/^[*#;] expect: //')
	rc=0
	(cd "$data" && "$ctl" convert "$name") > "$tmp/out.txt" 2> "$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out.txt" ]; then
		echo "ok - $name: exit 2, \"$want\""
	else
		echo "not ok - $name: exit $rc, stdout $(wc -c < "$tmp/out.txt") bytes, stderr: $(cat "$tmp/err")"
		fail=1
	fi
done

# One run goes to stdout; several need --run or -O.
rc=0
(cd "$data" && "$ctl" convert four-corners.vdb --device-size 100g) \
	> /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q -- "--run NAME" "$tmp/err"; then
	echo "ok - several runs without --run or -O is a usage error"
else
	echo "not ok - several runs: exit $rc: $(cat "$tmp/err")"
	fail=1
fi
if (cd "$data" && "$ctl" convert four-corners.vdb --run rd_mix -q) > "$tmp/one" &&
   grep -q '^rate_iops = curve$' "$tmp/one" && grep -q '^\[workload mix\]$' "$tmp/one"; then
	echo "ok - --run picks one run to stdout"
else
	echo "not ok - --run rd_mix"
	fail=1
fi
# A drive's size as its label gives it: decimals with a unit.
if (cd "$data" && "$ctl" convert groups.fio --device-size 3.84t -q -O "$tmp/dec") &&
   [ -s "$tmp/dec/01-randread.prof" ]; then
	echo "ok - --device-size 3.84t"
else
	echo "not ok - --device-size 3.84t refused"
	fail=1
fi
# -f names the format: the detected one gives the same profile; the other
# reads the file as that format and fails on its first line; an unknown
# one is a usage error.
(cd "$data" && "$ctl" convert -f fio shares.fio --device-size 100g) > "$tmp/f1" 2> /dev/null
(cd "$data" && "$ctl" convert shares.fio --device-size 100g) > "$tmp/f2" 2> /dev/null
rc=0
(cd "$data" && "$ctl" convert --from vdbench shares.fio) > /dev/null 2> "$tmp/f3" || rc=$?
rc2=0
(cd "$data" && "$ctl" convert -f xyz shares.fio) > /dev/null 2> "$tmp/f4" || rc2=$?
if [ -s "$tmp/f1" ] && cmp -s "$tmp/f1" "$tmp/f2" && [ $rc = 2 ] &&
   grep -q '^blkgenctl: shares.fio:1: ' "$tmp/f3" &&
   [ $rc2 = 2 ] && grep -q -- '--from xyz: expected vdbench or fio' "$tmp/f4"; then
	echo "ok - -f fio as detected, --from vdbench reads it as vdbench (line 1 refused), -f xyz exit 2"
else
	echo "not ok - -f: $(cat "$tmp/f3" "$tmp/f4" | head -3) (exit $rc, $rc2)"
	fail=1
fi
exit $fail
