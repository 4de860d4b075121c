#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the trace readers replay takes its records from: each
# format (blktrace binary in either byte order, merged or per-CPU files,
# QUEUE or ISSUE events; fio iolog v2 and v3; MSR Cambridge, Alibaba and
# Tencent CSV) gives the records in data/trace/*.out (time from the first
# record, op, byte offset, bytes), filters keep one disk, volume, device
# or file, and a malformed trace fails with exit 2 naming file:line (or
# the record); the disks, devices, volumes or files a trace holds are
# listed (with a --filter that keeps nothing: exit 1, saying them); the
# text formats are read gzip-compressed too; 0-byte records are skipped.
# UPDATE=1 rewrites the goldens.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
tr=$data/trace
mk=$here/../lib/mk-blktrace.py

python3 "$mk" "$tmp/bt.le"
python3 "$mk" "$tmp/bt.be" --big-endian
python3 "$mk" "$tmp/pc" --per-cpu
python3 "$mk" "$tmp/bt.cut" --cut
# blktrace -d on one CPU: one per-CPU file, named by its prefix.
python3 "$mk" "$tmp/one" && mv "$tmp/one" "$tmp/one.blktrace.0"

# golden NAME TRACE [OPTIONS...]: the records as trace-stats prints them.
golden() {
	local name=$1 file=$2

	shift 2
	if ! "$ctl" trace-stats "$file" --records 1000 "$@" > "$tmp/got" 2> "$tmp/err"; then
		notok "$name: $(cat "$tmp/err")"
		return
	fi
	grep -E '^[0-9]+ (read|write) ' "$tmp/got" > "$tmp/recs"
	[ "${UPDATE:-0}" = 1 ] && cp "$tmp/recs" "$tr/$name.out"
	if diff -u "$tr/$name.out" "$tmp/recs"; then
		ok "$name: $(wc -l < "$tmp/recs") records as expected"
	else
		notok "$name differs from $name.out"
	fi
}

golden blktrace "$tmp/bt.le"
golden blktrace "$tmp/bt.be"
golden blktrace "$tmp/pc"
golden blktrace "$tmp/pc.blktrace.1"
golden blktrace "$tmp/one"
golden blktrace-issue "$tmp/bt.le" --issue
golden iolog2 "$tr/iolog2.log"
golden iolog2-other "$tr/iolog2.log" --filter /dev/other
golden iolog3 "$tr/iolog3.log"
golden msr "$tr/msr.csv"
golden msr-disk1 "$tr/msr.csv" --filter 1
golden alibaba "$tr/alibaba.csv"
golden alibaba-419 "$tr/alibaba.csv" --filter 419
golden tencent "$tr/tencent.csv"

# The format and the skipped events, in JSON.
if "$ctl" trace-stats "$tmp/bt.be" -o json > "$tmp/j" &&
   python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(not (j["format"] == "blktrace" and j["records"] == 3 and j["skipped"] == 2 and j["writes"] == 1))' "$tmp/j"; then
	ok "trace-stats -o json: format, records, skipped (a flush, a discard)"
else
	notok "trace-stats -o json: $(cat "$tmp/j")"
fi

# bad WANT FILE [OPTIONS...]: exit 2 and WANT on stderr.
bad() {
	local want=$1 file=$2 rc=0

	shift 2
	"$ctl" trace-stats "$file" "$@" > /dev/null 2> "$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err"; then
		ok "refused: $want"
	else
		notok "$file: exit $rc, stderr: $(cat "$tmp/err") (wanted: $want)"
	fi
}

bad "record 4: cut short (7 of 48 bytes)" "$tmp/bt.cut"
bad "a blktrace device is MAJOR:MINOR" "$tmp/bt.le" --filter 7
printf 'fio version 2 iolog\n/dev/x add\n/dev/x read 0\n' > "$tmp/short.log"
bad "short.log:3: expected 'FILE ACTION OFFSET LENGTH' (fio iolog v2), got 3 fields" "$tmp/short.log"
printf 'fio version 3 iolog\n5 /dev/x flip 0 512\n' > "$tmp/act.log"
bad "act.log:2: unknown action 'flip'" "$tmp/act.log"
printf 'fio version 1 iolog\n' > "$tmp/v1.log"
bad "not a trace blkgenctl reads" "$tmp/v1.log"
bad "expected 'fio version 2 iolog' or 'fio version 3 iolog'" "$tmp/v1.log" --format iolog
printf '1,h,0,Read,0,512,1\n2,h,0,Erase,0,512,1\n' > "$tmp/type.csv"
bad "type.csv:2: Type 'Erase': expected Read or Write" "$tmp/type.csv"
printf '1,h,0,Read,0,512,1\n2,h,0,Read,0,512\n' > "$tmp/fields.csv"
bad "fields.csv:2: expected 7 fields Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (MSR Cambridge), got 6" "$tmp/fields.csv"
printf '1,R,0,512,10\n2,R,x,512,20\n' > "$tmp/num.csv"
bad "num.csv:2: offset 'x' is not a number" "$tmp/num.csv"
printf '1538323200,8,8,2,1\n' > "$tmp/iotype.csv"
bad "iotype.csv:1: IOType 2: expected 0 (read) or 1 (write)" "$tmp/iotype.csv" --format tencent
bad "no such file, nor per-CPU files" "$tmp/nothing" --format blktrace
head -c 3000 "$ctl" > "$tmp/junk.bin"
bad "or one of these compressed with gzip): binary data; give --format" "$tmp/junk.bin"

# What a trace holds to, by disk, device, volume or file (reads and writes).
# stats_line NAME WANT TRACE [OPTIONS...]: trace-stats prints the line WANT.
stats_line() {
	local name=$1 want=$2 file=$3

	shift 3
	if "$ctl" trace-stats "$file" "$@" 2> "$tmp/err" | grep -qxF -- "$want"; then
		ok "$name: '$want'"
	else
		notok "$name: no line '$want': $("$ctl" trace-stats "$file" "$@" 2>&1)"
	fi
}
stats_line "msr disks" "disks 1 (3), 0 (1)" "$tr/msr.csv"
stats_line "msr disks, filtered" "disks 1 (3), 0 (1)" "$tr/msr.csv" --filter 1
stats_line "iolog files" "files /dev/nvme0n1 (3), /dev/other (1)" "$tr/iolog2.log"
stats_line "alibaba devices" "devices 419 (3), 7 (1)" "$tr/alibaba.csv"
stats_line "tencent volumes" "volumes 1063 (3), 42 (1)" "$tr/tencent.csv"
stats_line "blktrace devices" "devices 259:0 (3)" "$tmp/bt.le"
stats_line "plural" "$tr/iolog2.log: iolog trace, 4 records: 3 reads (0.1 MB), 1 write (0.0 MB); 1 skipped, 0 out of order" "$tr/iolog2.log"
if "$ctl" trace-stats "$tr/msr.csv" -o json |
	python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["disks"] != {"1": 3, "0": 1})'; then
	ok "trace-stats -o json: disks"
else
	notok "trace-stats -o json: no disks {1: 3, 0: 1}"
fi
rc=0
"$ctl" trace-stats "$tr/msr.csv" --filter 99 > /dev/null 2> "$tmp/err" || rc=$?
if [ $rc = 1 ] && grep -qF "no read or write in the trace for --filter 99 (it holds disks 1 (3), 0 (1))" "$tmp/err"; then
	ok "--filter 99 keeping nothing: exit 1, the disks named"
else
	notok "--filter 99: exit $rc, $(cat "$tmp/err")"
fi

# Compressed as published (.csv.gz), and a 0-byte record skipped.
gzip -c "$tr/msr.csv" > "$tmp/msr.csv.gz"
golden msr "$tmp/msr.csv.gz"
gzip -c "$tr/iolog3.log" > "$tmp/iolog3.gz"
golden iolog3 "$tmp/iolog3.gz"
printf '1,h,0,Read,0,512,1\n2,h,0,Write,4096,0,1\n3,h,0,Read,8192,512,1\n' > "$tmp/zero.csv"
stats_line "a 0-byte record skipped" "$tmp/zero.csv: msr trace, 2 records: 2 reads (0.0 MB), 0 writes (0.0 MB); 1 skipped, 0 out of order" "$tmp/zero.csv"
exit $fail
