# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the shell tests of blkgenctl (test-*.sh): the tool, the
# fixtures, a scratch directory removed at exit, and TAP-style results.
# shellcheck shell=bash disable=SC2034 # the tests use these
set -u
here=$(cd "$(dirname "$0")" && pwd)
ctl=$here/../../tools/blkgenctl/blkgenctl
data=$here/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

# blkgenctl's commands that take options (the help and completion tests).
commands="run curve replay trace-stats record review compare vdi list status report stop rm verify merge convert plot"

# help_opts CMD: the options CMD's --help names (its usage lines and its
# option lines), one per line, sorted.
help_opts() {
	"$ctl" "$1" --help | awk 'NR == 1, /^$/ { print; next } /^ +-/ { print }' |
		grep -oE -- '(^|[][ ,|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[][ ,|]//' | sort -u
}
