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
