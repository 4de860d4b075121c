#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: make check accounts for every boot it queued
# (tests/check-boots.sh): all reported passes; a boot a dead lane took
# fails the run, named; the debug kernel's boots are excused only when
# its build failed; an empty plan is no pass.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

boots=$here/../check-boots.sh
printf '%s\n' "debug 1/2" "tcg 7.3.4+deb13-amd64" "debug 2/2" arm64 \
	"tcg 6.1.0-57-amd64" demos > "$tmp/planned"

# expect WANT_RC NAME REPORTED... [-- DEBUG_FAILED]: the account of
# REPORTED (one spec an argument) against the plan.
expect() {
	local want=$1 name=$2 rc=0 dbg=0
	shift 2
	: > "$tmp/reported"
	while [ $# -gt 0 ]; do
		[ "$1" = -- ] && { dbg=$2; break; }
		echo "$1" >> "$tmp/reported"
		shift
	done
	"$boots" "$tmp/planned" "$tmp/reported" "$dbg" > "$tmp/out" || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$name: exit $rc, $(tail -1 "$tmp/out")"
	else
		notok "$name: exit $rc, want $want: $(cat "$tmp/out")"
	fi
}

expect 0 "all reported, in another order" demos arm64 "debug 2/2" \
	"tcg 6.1.0-57-amd64" "debug 1/2" "tcg 7.3.4+deb13-amd64"
expect 1 "arm64 lost" demos "debug 2/2" "tcg 6.1.0-57-amd64" "debug 1/2" \
	"tcg 7.3.4+deb13-amd64"
grep -qF 'the boot "arm64" was queued and never reported' "$tmp/out" &&
	ok "the lost boot named" || notok "the lost boot not named: $(cat "$tmp/out")"
expect 1 "a debug boot lost, its kernel built" demos arm64 "debug 2/2" \
	"tcg 6.1.0-57-amd64" "tcg 7.3.4+deb13-amd64"
expect 0 "the debug boots dropped, its build failed" demos arm64 \
	"tcg 6.1.0-57-amd64" "tcg 7.3.4+deb13-amd64" -- 1
expect 1 "a prefix is not the boot (tcg 7.3.4 for tcg 7.3.4+deb13-amd64)" \
	demos arm64 "debug 1/2" "debug 2/2" "tcg 6.1.0-57-amd64" "tcg 7.3.4"
: > "$tmp/planned"
expect 1 "nothing planned"
exit $fail
