#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: every blkgenctl command answers --help with its usage on
# stdout and exit 0 (without needing the module), and an unknown option
# with exit 2; `blkgenctl help` lists every command.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
export BLKGEN_SYSFS=/nonexistent BLKGEN_CONFIGFS=/nonexistent

for c in $commands; do
	rc=0
	out=$("$ctl" "$c" --help 2> /dev/null) || rc=$?
	if [ "$rc" = 0 ] && [[ $out == "usage: blkgenctl $c"* ]]; then
		echo "ok - $c --help"
	else
		echo "not ok - $c --help: exit $rc: $out"
		fail=1
	fi
	rc=0
	"$ctl" "$c" --no-such-option > /dev/null 2>&1 || rc=$?
	if [ "$rc" = 2 ]; then
		echo "ok - $c --no-such-option: exit 2"
	else
		echo "not ok - $c --no-such-option: exit $rc"
		fail=1
	fi
	if "$ctl" help | grep -qE "^  $c( |$)"; then
		echo "ok - help lists $c"
	else
		echo "not ok - help does not list $c"
		fail=1
	fi
done

# help CMD is CMD --help; -V is --version.
for c in run merge verify; do
	if [ "$("$ctl" help $c)" = "$("$ctl" $c --help)" ]; then
		echo "ok - help $c"
	else
		echo "not ok - help $c differs from $c --help"
		fail=1
	fi
done
if [ "$("$ctl" -V)" = "$("$ctl" --version)" ] && "$ctl" -V | grep -q '^blkgenctl [0-9]'; then
	echo "ok - -V"
else
	echo "not ok - -V: $("$ctl" -V 2>&1)"
	fail=1
fi
# run and curve --help say what each option does.
undescribed=0
for c in run curve; do
	for opt in $("$ctl" $c --help | sed -n '1,/^$/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		if ! "$ctl" $c --help | sed '1,/^$/d' | grep -q -- "$opt"; then
			echo "not ok - $c --help does not describe $opt"
			undescribed=1 fail=1
		fi
	done
done
[ $undescribed = 0 ] && echo "ok - run and curve --help describe their options"

# The top-level help names only options its commands take.
while read -r c args; do
	for opt in $(echo "$args" | grep -oE -- '--[a-z][a-z-]*'); do
		if "$ctl" "$c" "$opt" 2>&1 | grep -q "unrecognized option"; then
			echo "not ok - help shows $c $opt, which $c does not take"
			fail=1
		fi
	done
done < <("$ctl" help | sed -n 's/^  \([a-z][a-z]*\) /\1 /p')
echo "ok - help's options exist"
# The man page documents every option each command's --help names: an
# entry of its OPTIONS section (a ``-x`` header line and its indented
# text, one line each in $tmp/entries) names both ``CMD`` and ``OPT``.
awk '/^OPTIONS$/ { on = 1; next } on && /^[A-Z][A-Z ]+$/ { on = 0 }
	on && /^``/ { if (e != "") print e; e = $0; next }
	on && /^   / && e != "" { e = e " " $0 }
	END { if (e != "") print e }' "$here/../../Documentation/blkgenctl.rst" > "$tmp/entries"
undocumented=0
for c in $commands; do
	for opt in $(help_opts "$c"); do
		if ! grep -F -- "\`\`$c\`\`" "$tmp/entries" | grep -qF -- "\`\`$opt\`\`"; then
			echo "not ok - blkgenctl.rst's OPTIONS has no entry naming both $c and $opt"
			undocumented=1 fail=1
		fi
	done
done
[ "$undocumented" = 0 ] && echo "ok - blkgenctl.rst documents every option of every command"
exit $fail
