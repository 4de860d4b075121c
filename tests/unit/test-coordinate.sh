#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: blkgenctl coordinate on this host, its hosts played by this
# script over TCP (bash's /dev/tcp), one JSON line each way: every host
# gets one start instant, and only once all are ready; each live line is
# the hosts' sum (I/Os, IOPS, mean latency from the latency sums), a
# straggler named; one host failing, a host gone or silent, a host that
# never comes, a name taken twice, a host running another command, and
# an interrupt each stop every host with the reason and the coordinator's
# exit status; reviews' named runs and agreed figures, and reviews out of
# step stopped; bad options are refused.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

port=$((20000 + $$ % 20000))
# The hosts' connections (conn sets them).
a='' b='' c='' w='' v6=''
# A write to a coordinator that has closed fails; it does not kill us.
trap "" PIPE

# start ARGS...: a coordinator on the loopback (pid in cpid), listening.
start() {
	"$ctl" coordinate --listen 127.0.0.1:$port "$@" < /dev/null > "$tmp/log" 2>&1 &
	cpid=$!
	for _ in $(seq 100); do
		grep -q '^coordinate: listening' "$tmp/log" && return 0
		sleep 0.05
	done
	notok "the coordinator did not listen: $(cat "$tmp/log")"
	return 1
}

# conn VAR: a connection to it, its fd in VAR.
conn() {
	local fd
	exec {fd}<> /dev/tcp/127.0.0.1/$port
	printf -v "$1" '%s' "$fd"
}

# say FD LINE (to a coordinator that may have closed: no error)
say() {
	{ printf '%s\n' "$2" >&"$1"; } 2> /dev/null || true
}

# hear FD PATTERN: the next line (pings and the welcome skipped) that matches, within 5 s, into $line.
hear() {
	local end=$((SECONDS + 5))
	line=
	while [ $SECONDS -lt $end ]; do
		IFS= read -r -t 1 -u "$1" line || continue
		case $line in
		*'"ping"'*) continue ;;
		esac
		grep -q -- "$2" <<< "$line" && return 0
		# (the answer to the hello, where not asked for)
		case $line in
		*'"welcome"'*) continue ;;
		esac
		notok "expected $2, heard $line"
		return 1
	done
	notok "heard nothing like $2 within 5 s"
	return 1
}

# finish WANT: the coordinator's exit status is WANT.
finish() {
	local rc=0
	wait "$cpid" || rc=$?
	[ "$rc" = "$1" ] || { notok "coordinator exit $rc, not $1: $(cat "$tmp/log")"; return 1; }
}

# Two hosts: one instant for both, given once both are ready; each live
# line the sum.
start --hosts 2 --lead-ms 200 --wait-secs 10 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"run","points":1}'
say "$b" '{"hello":"b","command":"run","points":1}'
say "$a" '{"ready":0}'
sleep 0.5
if grep -q '^coordinate: run 0' "$tmp/log"; then
	notok "started with one host of two ready"
else
	ok "no start before every host is ready"
fi
say "$b" '{"ready":0}'
hear "$a" '"start":0' && sa=$(grep -o '"at_ns":[0-9]*' <<< "$line")
hear "$b" '"start":0' && sb=$(grep -o '"at_ns":[0-9]*' <<< "$line")
if [ -n "${sa:-}" ] && [ "$sa" = "${sb:-}" ] &&
   grep -q "^coordinate: run 0 on 2 hosts at .* (start_at ${sa#*:})\$" "$tmp/log"; then
	ok "both hosts given one instant ($sa), the one it printed"
else
	notok "instants: a $sa, b $sb: $(cat "$tmp/log")"
fi
say "$a" '{"iv":0,"point":0,"start_ms":0,"ms":1000,"ios":100,"bytes":409600,"lat_ns":10000000,"errors":0}'
say "$b" '{"iv":0,"point":0,"start_ms":0,"ms":1000,"ios":300,"bytes":1228800,"lat_ns":50000000,"errors":2}'
# b's interval 2 there, a's not: printed without a, named, once 2 s
# (two intervals, at least 2 s) have passed without it; not before.
say "$b" '{"iv":1,"point":0,"start_ms":1000,"ms":1000,"ios":300,"bytes":1228800,"lat_ns":30000000,"errors":0}'
sleep 1
if grep -q 'interval 2:' "$tmp/log"; then
	notok "interval 2 printed 1 s after b sent it, a not yet"
else
	ok "interval 2 not printed 1 s after b sent it, a not yet"
fi
# Printed 2 s after the coordinator read b's line: waited for up to 10 s
# (a busy machine delays its reading; 0.5 s of slack failed in CI).
for _ in $(seq 200); do
	grep -q 'interval 2:' "$tmp/log" && break
	sleep 0.05
done
want='live: run 0 interval 1: 2/2 hosts  ios 400  IOPS 400  MB/s 1.6  mean 150.0 us  errors 2'
grep -qxF "$want" "$tmp/log" && ok "interval 1: the hosts' sum ($want)" ||
	notok "interval 1: not '$want': $(grep 'interval 1' "$tmp/log")"
want='live: run 0 interval 2: 1/2 hosts  ios 300  IOPS 300  MB/s 1.2  mean 100.0 us  (not yet: a)'
grep -qxF "$want" "$tmp/log" && ok "a straggler named ($want)" ||
	notok "interval 2: not '$want': $(grep 'interval 2' "$tmp/log")"
say "$a" '{"end":0,"rc":0,"error":""}'
say "$b" '{"end":0,"rc":0,"error":""}'
say "$a" '{"bye":0}'
say "$b" '{"bye":0}'
finish 0 && grep -q '^coordinate: every host ended cleanly$' "$tmp/log" &&
	ok "every host ended cleanly: exit 0"
exec {a}>&- {b}>&-

# One host failing: the other told why, exit 1.
start --hosts 2 --lead-ms 200 --wait-secs 10 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"curve","points":3}'
say "$b" '{"hello":"b","command":"curve","points":3}'
say "$a" '{"ready":0}'
say "$b" '{"ready":0}'
hear "$a" '"start":0'
hear "$b" '"start":0'
say "$b" '{"end":0,"rc":1,"error":"w: /dev/nvme0n1: I/O error"}'
hear "$a" '"stop":"b failed (run 0, exit 1: w: /dev/nvme0n1: I/O error)"' &&
	ok "b failing: a told to stop, with b's reason"
say "$a" '{"end":0,"rc":1,"error":"stopped"}'
say "$a" '{"bye":1}'
say "$b" '{"bye":1}'
finish 1 && grep -q '^coordinate: stopped: b failed (run 0, exit 1: w: /dev/nvme0n1: I/O error)$' "$tmp/log" &&
	ok "the coordinator exits 1 naming b's failure"
exec {a}>&- {b}>&-

# stop_case NAME ARGS -- SETUP: a stop for a reason, heard by host a.
# A host gone (its connection closed before its bye).
start --hosts 2 --lead-ms 200 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"run","points":1}'
say "$b" '{"hello":"b","command":"run","points":1}'
exec {b}>&-
hear "$a" '"stop":"b closed its connection before its command ended"' &&
	ok "a host gone: the others stopped"
say "$a" '{"bye":1}'
finish 1
exec {a}>&-

# A host silent for --silent-secs.
start --hosts 2 --lead-ms 200 --silent-secs 1 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"run","points":1}'
say "$b" '{"hello":"b","command":"run","points":1}'
(for _ in 1 2 3 4; do say "$a" '{"ping":1}'; sleep 0.5; done)
hear "$a" '"stop":"b said nothing for 1 s"' && ok "a silent host: the others stopped"
say "$a" '{"bye":1}'
finish 1
exec {a}>&- {b}>&-

# A host that never comes.
start --hosts 3 --wait-secs 1 || exit 1
conn a
say "$a" '{"hello":"a","command":"run","points":1}'
say "$a" '{"ready":0}'
hear "$a" '"stop":"1 of 3 hosts connected and 1 ready within 1 s (--wait-secs)"' &&
	ok "a host missing: the others stopped before any start"
finish 1
exec {a}>&-

# One name twice; another command.
start --hosts 3 || exit 1
conn a
conn b
conn c
say "$a" '{"hello":"a","command":"run","points":1}'
say "$b" '{"hello":"a","command":"run","points":1}'
hear "$a" '"stop":"a has the name of another host (--host-name)"' &&
	ok "a name taken twice: every host stopped"
say "$a" '{"bye":1}'
say "$b" '{"bye":1}'
say "$c" '{"hello":"c","command":"run","points":1}'
say "$c" '{"bye":1}'
finish 1
exec {a}>&- {b}>&- {c}>&-
start --hosts 2 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"run","points":1}'
say "$b" '{"hello":"b","command":"curve","points":11}'
hear "$a" '"stop":"b runs curve with 11 runs where the others run run with 1"' &&
	ok "a host running another command: every host stopped"
say "$a" '{"bye":1}'
say "$b" '{"bye":1}'
finish 1
exec {a}>&- {b}>&-

# Reviews: runs as they go, each named (its step); the hosts' figures
# agreed (sum, least, most, to each host); out of step, every host stopped.
start --hosts 2 --lead-ms 200 || exit 1
conn a
conn b
say "$a" '{"hello":"a","command":"review","points":0}'
say "$b" '{"hello":"b","command":"review","points":0}'
hear "$a" '"welcome":.*"features":\["steps","votes"\]' &&
	ok "a host's hello answered with what the coordinator takes (steps, votes)"
hear "$b" '"welcome"'
say "$a" '{"ready":0,"step":"precondition/round-1"}'
say "$b" '{"ready":0,"step":"precondition/round-1"}'
hear "$a" '"start":0'
hear "$b" '"start":0'
grep -q '^coordinate: a connected (review, its runs as it goes)$' "$tmp/log" &&
   grep -q '^coordinate: run 0 (precondition/round-1) on 2 hosts at ' "$tmp/log" &&
	ok "a review's run started on both, named: $(grep '^coordinate: run 0' "$tmp/log")" ||
	notok "review run 0: $(cat "$tmp/log")"
say "$a" '{"end":0,"rc":0,"error":""}'
say "$b" '{"end":0,"rc":0,"error":""}'
say "$a" '{"vote":0,"value":700,"step":"precondition/round-1"}'
sleep 0.3
grep -q 'figures 0' "$tmp/log" && notok "figures agreed with one host's of two"
say "$b" '{"vote":0,"value":300,"step":"precondition/round-1"}'
want='"agreed":0,"sum":1000,"min":300,"max":700,"hosts":2'
hear "$a" "$want" && hear "$b" "$want" &&
	ok "figures agreed once both gave theirs, to each: $want"
say "$a" '{"ready":1,"step":"precondition/round-2"}'
say "$b" '{"ready":1,"step":"points/sql/max"}'
want='"stop":"the hosts are out of step at run 1: a precondition/round-2; b points/sql/max; they need the same suite, settings and saved points"'
hear "$a" "$want" && ok "reviews out of step: every host stopped, each one's step named"
grep -q '^coordinate: run 1' "$tmp/log" && notok "run 1 started out of step"
say "$a" '{"bye":1}'
say "$b" '{"bye":1}'
finish 1
exec {a}>&- {b}>&-

# review_case WHAT A_LINE B_LINE WANT: after run 0, host a says A_LINE
# and b B_LINE: both stopped with WANT (neither could go on).
review_case() {
	start --hosts 2 --lead-ms 200 || return 1
	conn a
	conn b
	say "$a" '{"hello":"a","command":"review","points":0}'
	say "$b" '{"hello":"b","command":"review","points":0}'
	say "$a" '{"ready":0,"step":"points/w/max"}'
	say "$b" '{"ready":0,"step":"points/w/max"}'
	hear "$a" '"start":0'
	hear "$b" '"start":0'
	say "$a" '{"end":0,"rc":0,"error":""}'
	say "$b" '{"end":0,"rc":0,"error":""}'
	say "$a" "$2"
	say "$b" "$3"
	hear "$a" "$4" && ok "reviews out of step ($1): both stopped, each named"
	grep -q '^coordinate: \(run 1\|figures 0\)' "$tmp/log" && notok "$1: went on: $(cat "$tmp/log")"
	say "$a" '{"bye":1}'
	say "$b" '{"bye":1}'
	finish 1
	exec {a}>&- {b}>&-
}
review_case "one in a vote, the other ready for a run" \
	'{"vote":0,"value":5,"step":"points/v/probe-4d"}' '{"ready":1,"step":"points/v/probe-14d"}' \
	'"stop":"the hosts are out of step at run 1: a figures of points/v/probe-4d; b points/v/probe-14d; they need'
review_case "votes about different things" \
	'{"vote":0,"value":5,"step":"precondition/round-6"}' '{"vote":0,"value":5,"step":"points/v/probe-4d"}' \
	'"stop":"the hosts are out of step at figures 0: a figures of precondition/round-6; b figures of points/v/probe-4d;'
review_case "one ended, the other in a vote" \
	'{"vote":0,"value":5,"step":"precondition/round-6"}' '{"bye":0}' \
	'"stop":"the hosts are out of step at figures 0: a figures of precondition/round-6; b ended;'

# Interrupted: every host told, exit 130.
start --hosts 1 --lead-ms 200 || exit 1
conn a
say "$a" '{"hello":"a","command":"run","points":1}'
say "$a" '{"ready":0}'
hear "$a" '"start":0'
kill -INT "$cpid"
hear "$a" '"stop":"the coordinator was interrupted"' && ok "interrupted: the host told"
say "$a" '{"bye":130}'
finish 130 && ok "interrupted: exit 130"
exec {a}>&-

# --while-stdin: its standard input ended, every host stopped. (Its
# FIFO opened for writing after the coordinator started: it does not
# hold the writing end itself.)
mkfifo "$tmp/fifo"
"$ctl" coordinate --listen 127.0.0.1:$port --hosts 2 --while-stdin < "$tmp/fifo" > "$tmp/log" 2>&1 &
cpid=$!
exec {w}> "$tmp/fifo"
for _ in $(seq 100); do
	grep -q '^coordinate: listening' "$tmp/log" && break
	sleep 0.05
done
conn a
say "$a" '{"hello":"a","command":"run","points":1}'
sleep 0.3
grep -q 'stop' "$tmp/log" && notok "stopped while its standard input is open"
exec {w}>&-
hear "$a" '"stop":"the coordinator'"'"'s controller is gone (its standard input ended)"' &&
	ok "--while-stdin: its standard input ended, the host told to stop"
say "$a" '{"bye":1}'
finish 1 && ok "--while-stdin: exit 1"
exec {a}>&-

# A connection that never says hello (a port scan, a health check)
# takes no host's place and stops nothing; the default listen takes
# IPv4 and IPv6 (when this machine has an IPv6 loopback).
"$ctl" coordinate --listen $port --hosts 1 --lead-ms 200 < /dev/null > "$tmp/log" 2>&1 &
cpid=$!
for _ in $(seq 100); do
	grep -q '^coordinate: listening' "$tmp/log" && break
	sleep 0.05
done
exec {c}<> /dev/tcp/127.0.0.1/$port
exec {c}>&-
sleep 0.3
if [ -e /proc/net/if_inet6 ] && grep -q ' lo$' /proc/net/if_inet6; then
	v6=" (over IPv6)"
	exec {a}<> /dev/tcp/::1/$port || { notok "the default listen refused an IPv6 connection"; exit 1; }
else
	v6=""
	conn a
fi
say "$a" '{"hello":"a","command":"run","points":1}'
say "$a" '{"ready":0}'
hear "$a" '"start":0' && ok "a connection without hello dropped, the host$v6 started"
say "$a" '{"end":0,"rc":0,"error":""}'
say "$a" '{"bye":0}'
finish 0 && ok "and ended cleanly: exit 0"
exec {a}>&-

# Terminated: 128 + 15.
start --hosts 1 || exit 1
kill -TERM "$cpid"
finish 143 && ok "terminated: exit 143"

# Bad options.
for bad in "--hosts 0" "--hosts 2 --listen nowhere:x" "--hosts 2 --lead-ms 5" "--listen 1" \
	   "--hosts 2 --start-at 1" "--hosts 2 extra"; do
	rc=0
	# shellcheck disable=SC2086
	"$ctl" coordinate $bad > /dev/null 2> "$tmp/err" || rc=$?
	[ $rc = 2 ] && [ -s "$tmp/err" ] && ok "coordinate $bad: exit 2, said why" ||
		notok "coordinate $bad: exit $rc: $(cat "$tmp/err")"
done
start --hosts 1 || exit 1
rc=0
"$ctl" coordinate --hosts 1 --listen 127.0.0.1:$port > /dev/null 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q "127.0.0.1:$port.*Address already in use" "$tmp/err" &&
	ok "a port in use: exit 1, said" || notok "a port in use: exit $rc: $(cat "$tmp/err")"
kill -INT "$cpid"
finish 130
exit $fail
