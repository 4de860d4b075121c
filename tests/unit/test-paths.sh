#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: a bare profile name is looked up among the installed
# profiles (BLKGEN_PROFILES); a misspelt one names the file looked for
# and the nearest installed name, or lists them; directories given with
# a trailing slash are joined without "//".
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

profiles=$here/../../tools/profiles
export BLKGEN_PROFILES=$profiles/

rc=0
"$ctl" run oracel > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -qF "no profile 'oracel': not a file here, nor $profiles/oracel.prof" "$tmp/err" &&
   grep -qx "blkgenctl: did you mean 'oracle'?" "$tmp/err"; then
	ok "a misspelt profile: the file looked for, and the nearest name"
else
	notok "misspelt profile: exit $rc: $(cat "$tmp/err")"
fi
rc=0
"$ctl" run nothing-like-it.prof > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -q "^blkgenctl: installed: 128k-seq-read .* vdi zoned-128k-seq-read zoned-128k-seq-write zoned-4k-random-read zoned-4k-random-write$" "$tmp/err" &&
   grep -qF "nor $profiles/nothing-like-it.prof " "$tmp/err"; then
	ok "an unknown profile: the installed ones listed, in order"
else
	notok "unknown profile: exit $rc: $(cat "$tmp/err")"
fi
# Found among the installed profiles: it then wants a device.
rc=0
"$ctl" run 4k-random-read > /dev/null 2> "$tmp/err" || rc=$?
if [ "$rc" = 2 ] && grep -qF "$profiles/4k-random-read.prof: workload randread names no device" "$tmp/err"; then
	ok "an installed profile by name, its path without //"
else
	notok "installed profile: exit $rc: $(cat "$tmp/err")"
fi

if (cd "$data/convert" && "$ctl" convert groups.fio --device-size 100g -O "$tmp/out/") 2> "$tmp/err" &&
   grep -qx "blkgenctl: wrote $tmp/out/01-randread.prof" "$tmp/err" && ! grep -q "//" "$tmp/err"; then
	ok "convert -O DIR/: files named without //"
else
	notok "convert -O DIR/: $(cat "$tmp/err")"
fi
exit $fail
