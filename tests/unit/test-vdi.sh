#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl vdi writes the VDI model of Documentation/vdi.rst:
# each phase's read share, size mix and rate (boot's 188 IOPS a desktop),
# a linked clone's reads mostly on the shared replica and its writes only
# in the desktop's delta, a full clone's I/O only in the desktop's image,
# the same trace for the same seed, records only (as MSR files), a
# trace replay and trace-stats read,
# and a clear error (exit 2) for each bad option.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

size=$((16 << 30))
n=16

# stats FILE: reads% writes, sizes (% of 4k 8k 16k 32k 64k), records.
stats() {
	awk -F, 'NR > 1 && !/^#/ {
		n++; if ($4 == "Read") r++; s[$6]++ }
		END { printf "%d %.1f %.1f %.1f %.1f %.1f %.1f\n", n, 100 * r / n,
			100 * s[4096] / n, 100 * s[8192] / n, 100 * s[16384] / n,
			100 * s[32768] / n, 100 * s[65536] / n }' "$1"
}
# near GOT WANT TOL: |GOT - WANT| <= TOL.
near() { awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(d <= t && -d <= t) }'; }

for clone in full linked; do
	for phase in boot initial-login monday-login; do
		f=$tmp/$clone-$phase.csv
		if ! "$ctl" vdi --clone "$clone" --phase "$phase" --desktops $n -O "$f" 2> "$tmp/err"; then
			notok "$clone $phase: $(cat "$tmp/err")"
			continue
		fi
		read -r recs rd s4 s8 s16 s32 s64 <<< "$(stats "$f")"
		case $phase in
		boot) want_rd=88 sz="40 20 15 15 10" ;;
		initial-login) want_rd=35 sz="50 20 10 10 10" ;;
		monday-login) want_rd=55 sz="50 20 10 10 10" ;;
		esac
		read -r w4 w8 w16 w32 w64 <<< "$sz"
		if near "$rd" $want_rd 2 && near "$s4" "$w4" 2 && near "$s8" "$w8" 2 &&
		   near "$s16" "$w16" 2 && near "$s32" "$w32" 2 && near "$s64" "$w64" 2; then
			ok "$clone $phase: $recs records, $rd% reads, sizes $s4/$s8/$s16/$s32/$s64%"
		else
			notok "$clone $phase: $rd% reads (want $want_rd), sizes $s4/$s8/$s16/$s32/$s64% (want $sz)"
		fi
	done
done

# Boot: 16 desktops of 188 IOPS each over a boot of 30 s (half the phase).
read -r recs _ <<< "$(stats "$tmp/full-boot.csv")"
per=$(awk -v r="$recs" -v n=$n 'BEGIN { printf "%.1f", r / n / 30 }')
if near "$per" 188 10; then
	ok "boot: $per IOPS a desktop during its boot (188 from the Windows 7 boot figure)"
else
	notok "boot: $per IOPS a desktop during its boot, want 188"
fi

# Full clone: desktop D's I/O stays in [D, D + 1) x size / n.
ext=$((size / n / 4096 * 4096))
bad=$(awk -F, -v e=$ext 'NR > 1 && !/^#/ {
	lo = $3 * e; if ($5 < lo || $5 + $6 > lo + e) b++ } END { print b + 0 }' "$tmp/full-boot.csv")
if [ "$bad" = 0 ]; then
	ok "full clone: every I/O inside its desktop's image"
else
	notok "full clone: $bad I/Os outside their desktop's image"
fi

# Linked clone: the replica is the first 8%; writes only in the deltas.
rep=$((size / 100 * 8 / 4096 * 4096))
ext=$(((size - rep) / n / 4096 * 4096))
for phase in boot monday-login; do
	read -r wrep rrep rdelta bad <<< "$(awk -F, -v r=$rep -v e=$ext 'NR > 1 && !/^#/ {
		lo = r + $3 * e
		if ($5 + $6 <= r) { if ($4 == "Write") w++; else rr++ }
		else if ($5 >= lo && $5 + $6 <= lo + e) { if ($4 == "Read") rd++ }
		else b++
	} END { print w + 0, rr + 0, rd + 0, b + 0 }' "$tmp/linked-$phase.csv")"
	share=$(awk -v a="$rrep" -v b="$rdelta" 'BEGIN { printf "%.1f", 100 * a / (a + b) }')
	want=$([ $phase = boot ] && echo 90 || echo 60)
	if [ "$wrep" = 0 ] && [ "$bad" = 0 ] && near "$share" "$want" 3; then
		ok "linked clone $phase: no writes to the replica, $share% of reads on it, the rest in the desktop's delta"
	else
		notok "linked clone $phase: $wrep writes to the replica, $bad I/Os astray, $share% of reads on it (want $want)"
	fi
done

# Bursts: a login's busiest second well above its mean.
if "$ctl" trace-stats "$tmp/linked-initial-login.csv" -o json > "$tmp/ts.json" &&
   b=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["burstiness"])' "$tmp/ts.json" 2>&1) &&
   near "$b" 1.5 0.4; then
	ok "initial login: burstiness $b (a login storm)"
else
	notok "initial login: trace-stats burstiness '${b:-}', want 1.1 to 1.9"
fi

# Records only, as the MSR Cambridge files are (no header, no comment).
if head -n 1 "$tmp/full-boot.csv" | grep -qE '^[0-9]+,blkgen-vdi,[0-9]+,(Read|Write),[0-9]+,[0-9]+,0$' &&
   ! grep -q '^#\|^Timestamp' "$tmp/full-boot.csv"; then
	ok "records only, as an MSR Cambridge file"
else
	notok "not records only: $(head -n 2 "$tmp/full-boot.csv")"
fi

# The same seed, the same bytes; another seed, another trace.
"$ctl" vdi --clone full --phase boot --desktops $n -O "$tmp/again.csv" 2> /dev/null
"$ctl" vdi --clone full --phase boot --desktops $n --seed 2 -O "$tmp/seed2.csv" 2> /dev/null
if cmp -s "$tmp/again.csv" "$tmp/full-boot.csv" && ! cmp -s "$tmp/seed2.csv" "$tmp/full-boot.csv"; then
	ok "the same seed gives the same trace, another seed another"
else
	notok "traces do not follow the seed"
fi

# --size and --secs: the footprint and the length.
"$ctl" vdi --clone linked --phase boot --desktops 4 --size 1g --secs 10 -O - > "$tmp/small.csv" 2> /dev/null
read -r maxend last <<< "$(awk -F, 'NR > 1 && !/^#/ { e = $5 + $6; if (e > m) m = e; t = $1 }
	END { print m, t }' "$tmp/small.csv")"
if [ "$maxend" -le $((1 << 30)) ] && [ "$maxend" -gt $((900 << 20)) ] &&
   [ "$last" -lt 100000000 ] && [ "$last" -ge 95000000 ]; then
	ok "--size 1g --secs 10: footprint $maxend bytes, last record at $last x 100 ns"
else
	notok "--size 1g --secs 10: footprint $maxend, last record at $last x 100 ns"
fi
# A fraction of a second (a review's --point-secs 0.5): its records within it.
"$ctl" vdi --clone linked --phase boot --desktops 4 --size 1g --secs 0.5 -O - > "$tmp/half.csv" 2> /dev/null
last=$(awk -F, 'NR > 1 && !/^#/ { t = $1 } END { print t + 0 }' "$tmp/half.csv")
if [ "$last" -lt 5000000 ] && [ "$last" -ge 2500000 ]; then
	ok "--secs 0.5: last record at $last x 100 ns"
else
	notok "--secs 0.5: last record at $last x 100 ns"
fi

# Bad options: exit 2 and a line naming what is wrong.
usage_error "expected full or linked" vdi --clone half --phase boot --desktops 2 -O "$tmp/x"
usage_error "expected boot, initial-login" vdi --clone full --phase lunch --desktops 2 -O "$tmp/x"
usage_error "expected 1 to 100000" vdi --clone full --phase boot --desktops 0 -O "$tmp/x"
usage_error "too small for 4096 desktops" vdi --clone full --phase boot --desktops 4096 --size 1g -O "$tmp/x"
usage_error "expected a size" vdi --clone full --phase boot --desktops 2 --size 12q -O "$tmp/x"
usage_error "usage:" vdi --clone full --phase boot -O "$tmp/x"
usage_error "expected 0.1 to 86400" vdi --clone full --phase boot --desktops 2 --secs 0 -O "$tmp/x"
usage_error "expected 0.1 to 86400" vdi --clone full --phase boot --desktops 2 --secs 0.05 -O "$tmp/x"
[ -e "$tmp/x" ] && notok "a refused vdi left $tmp/x" || ok "a refused vdi writes no file"

exit $fail
