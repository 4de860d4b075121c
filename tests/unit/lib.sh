# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the shell tests of blkgenctl (test-*.sh): the tool, the
# fixtures, a scratch directory removed at exit, and TAP-style results.
# shellcheck shell=bash disable=SC2034 # the tests use these
set -u
here=$(cd "$(dirname "$0")" && pwd)
ctl=${BLKGENCTL:-$here/../../tools/blkgenctl/blkgenctl}
data=$here/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

# blkgenctl's commands that take options (the help and completion tests).
commands="run curve replay coordinate trace-stats record review compare vdi list status report stop rm verify merge convert plot"

# help_opts CMD: the options CMD's --help names (its usage lines and its
# option lines), one per line, sorted.
help_opts() {
	"$ctl" "$1" --help | awk 'NR == 1, /^$/ { print; next } /^ +-/ { print }' |
		grep -oE -- '(^|[][ ,|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[][ ,|]//' | sort -u
}

# usage_error WANT COMMAND ARGS...: blkgenctl COMMAND ARGS exits 2 with
# WANT (a fixed string) on stderr.
usage_error() {
	local want=$1 rc=0

	shift
	"$ctl" "$@" > /dev/null 2> "$tmp/err" || rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" "$tmp/err"; then
		ok "$*: exit 2, $(head -1 "$tmp/err")"
	else
		notok "$*: exit $rc, '$(cat "$tmp/err")', want 2 and '$want'"
	fi
}
