#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: bash completion offers each command exactly the options
# its --help names, block devices (and directories) only after
# --device, output formats the command writes, and completes file names
# as file names (compopt -o filenames: directories get their slash).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/completion/blkgenctl
. "$here/../../tools/completion/blkgenctl"
export BLKGEN_CONFIGFS=$tmp/none BLKGEN_PROFILES=$tmp/none

# compopt works only inside readline's completion: record the calls.
compopt() { echo "$*" >> "$tmp/compopt"; }

# comp WORD...: what completing the last word offers, one per line, sorted.
comp() {
	: > "$tmp/compopt"
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_blkgenctl
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort
}

# Every command also takes --help.
want_opts() {
	{ help_opts "$1"; echo --help; } | sort -u
}

for c in $commands; do
	got=$(comp blkgenctl "$c" -)
	want=$(want_opts "$c")
	if [ "$got" = "$want" ]; then
		ok "$c: the options its --help names"
	else
		notok "$c: offered and --help differ: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	fi
done

mkdir -p "$tmp/d/sub"
: > "$tmp/d/file"
got=$(comp blkgenctl run x.prof --device "$tmp/d/")
if [ "$got" = "$tmp/d/sub" ] && grep -qx -- "-o filenames" "$tmp/compopt"; then
	ok "--device: directories, not regular files, as file names"
else
	notok "--device offered: $got"
fi
blk=$(find /dev -maxdepth 1 -type b -print -quit 2> /dev/null)
if [ -n "$blk" ]; then
	if comp blkgenctl run x.prof --device "$blk" | grep -qx -- "$blk" &&
	   ! comp blkgenctl run x.prof --device /dev/ | grep -qx /dev/null; then
		ok "--device: $blk offered, /dev/null not"
	else
		notok "--device: $blk not offered, or /dev/null offered"
	fi
else
	echo "ok - # SKIP no block device in /dev here"
fi

: > "$tmp/d/r.json"
got=$(comp blkgenctl merge "$tmp/d/")
if [ "$got" = "$(printf '%s\n' "$tmp/d/r.json" "$tmp/d/sub")" ] &&
   grep -qx -- "-o filenames" "$tmp/compopt"; then
	ok "merge: JSON files and directories, as file names"
else
	notok "merge offered: $got"
fi
if [ "$(comp blkgenctl status -o '')" = "$(printf '%s\n' json normal)" ] &&
   [ "$(comp blkgenctl curve -o '')" = "$(printf '%s\n' csv json normal)" ]; then
	ok "-o: the formats each command writes"
else
	notok "-o: status $(comp blkgenctl status -o '' | tr '\n' ' '), curve $(comp blkgenctl curve -o '' | tr '\n' ' ')"
fi
if [ "$(comp blkgenctl help pl)" = plot ]; then
	ok "help COMMAND completes commands"
else
	notok "help pl: $(comp blkgenctl help pl)"
fi
exit $fail
