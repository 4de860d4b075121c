#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: make kselftest-install writes the blkgen collection (a
# program per test, run_tests and its library, the static tool, profiles,
# settings, config) and its kselftest-list.txt lines, replacing earlier
# blkgen lines of an existing list and keeping the others; the kernel's
# own run_kselftest.sh (from linux-source-6.12) runs the programs: a test
# whose prerequisite is missing is a SKIP with its reason, a planted
# failing test is "not ok", a planted passing one "ok"; the runner's
# timeout (-o) reaches run_tests, which kills the test and its children
# within it. Nothing here touches blkgen's configfs or the kernel log:
# the real tests skip (BLKGEN_KO names no file), BLKGEN_NO_KLOG=1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

sel="configfs/001 ctl"
k=$tmp/k
"$top/tests/kselftest-install.sh" "$k" $sel 2> "$tmp/err" ||
	{ notok "install: $(cat "$tmp/err")"; exit 1; }
col=$k/blkgen
# shellcheck disable=SC2086 # the selection, word by word
want=$("$top/tests/run_tests" -l $sel | sed 's|/|_|; s|^|blkgen:|; s|$|.sh|')
check "kselftest-list.txt lists the selected tests, blkgen:GROUP_NNN.sh" \
	'[ "$(cat "$k/kselftest-list.txt")" = "$want" ]'
bad=
for t in $want; do
	p=$col/${t#blkgen:}
	n=${t#blkgen:}; n=${n%.sh}; n=${n%_*}/${n##*_}
	[ -x "$p" ] && [ -f "$col/tests/$n" ] && [ -f "$col/tests/$n.out" ] || bad="$bad $n"
done
check "a program, the test and its output for each${bad:+ (missing:$bad)}" '[ -z "$bad" ]'
check "settings: timeout=" 'grep -qx "timeout=[0-9]*" "$col/settings"'
check "the collection's own list, for an overlay" \
	'[ "$(cat "$col/kselftest-list.txt")" = "$want" ]'
check "config: CONFIG_CONFIGFS_FS, null_blk, NVMe" \
	'grep -qx CONFIG_CONFIGFS_FS=y "$col/config" && grep -q BLK_DEV_NULL_BLK= "$col/config" && grep -q BLK_DEV_NVME= "$col/config"'
# A farm's guest may have no /dev/fd (devtmpfs without udev's links),
# where bash's process substitution fails: none in any test, their
# library or run_tests.
check "no process substitution in the tests (no /dev/fd on a farm's guest)" \
	'! grep -n "<(" "$top"/tests/*/[0-9][0-9][0-9] "$top/tests/lib/rc" "$top/tests/run_tests"'
check "run_tests and its library" '[ -x "$col/tests/run_tests" ] && [ -f "$col/tests/lib/rc" ]'
check "blkgenctl inside, linked statically" \
	'"$col/bin/blkgenctl" --version > /dev/null && ! ldd "$col/bin/blkgenctl" > /dev/null 2>&1'
check "profiles and suites inside" \
	'ls "$col"/profiles/*.prof > /dev/null && ls "$col"/suites/*.suite > /dev/null'

# An existing kselftest install: its list keeps other collections' lines
# and loses blkgen's earlier ones.
k2=$tmp/k2
mkdir -p "$k2"
printf 'net:foo.sh\nblkgen:gone_001.sh\nsize:get_size\n' > "$k2/kselftest-list.txt"
"$top/tests/kselftest-install.sh" "$k2" configfs/001 2> /dev/null
check "an existing list: other collections kept, old blkgen lines replaced" \
	'[ "$(cat "$k2/kselftest-list.txt")" = "$(printf "net:foo.sh\nsize:get_size\nblkgen:configfs_001.sh")" ]'

# The kernel's runner over the collection.
if ! runner=$("$top/tests/kselftest-runner.sh" 2> "$tmp/err"); then
	notok "the kernel's runner: $(cat "$tmp/err")"
	exit 1
fi
cp -a "$runner/run_kselftest.sh" "$runner/kselftest" "$k/"
# Planted: a test that fails and one that passes, with no prerequisite.
mkdir -p "$col/tests/plant"
printf '#!/bin/bash\nDESCRIPTION="planted"\ntest() { echo %s; }\n' wrong > "$col/tests/plant/001"
printf '#!/bin/bash\nDESCRIPTION="planted"\ntest() { echo %s; }\n' right > "$col/tests/plant/002"
echo right > "$col/tests/plant/001.out"
echo right > "$col/tests/plant/002.out"
# A test that hangs, and what it started with it: a child, and a
# grandchild (the subshell's sleep).
printf '#!/bin/bash\nDESCRIPTION="planted hang"\ntest() { ( sleep 777; true ) & sleep 1000 & sleep 1001; }\n' > "$col/tests/plant/003"
echo never > "$col/tests/plant/003.out"
# A test longer than 10 s, which a runner without a timeout (-o 0) lets
# end.
printf '#!/bin/bash\nDESCRIPTION="planted slow"\ntest() { sleep 12; echo right; }\n' > "$col/tests/plant/006"
echo right > "$col/tests/plant/006.out"
for n in 001 002 003 006; do
	sed "s|configfs/001|plant/$n|" "$col/configfs_001.sh" > "$col/plant_$n.sh"
	chmod 755 "$col/plant_$n.sh"
	echo "blkgen:plant_$n.sh" >> "$k/kselftest-list.txt"
done
(cd "$k" && BLKGEN_NO_KLOG=1 BLKGEN_KO=/nonexistent/blkgen.ko ./run_kselftest.sh -t blkgen:configfs_001.sh \
	-t blkgen:plant_001.sh -t blkgen:plant_002.sh) 2>&1 | cat > "$tmp/ktap"
# (Through a pipe: the runner writes the tests' output through a second
# open of /dev/stdout, which on a file not opened for appending writes
# over the runner's own lines.)
check "runner: a missing prerequisite is a SKIP" \
	'grep -qx "ok 1 selftests: blkgen: configfs_001.sh # SKIP" "$tmp/ktap"'
check "runner: the reason on a # line" \
	'grep -q "^# # SKIP configfs/001: ." "$tmp/ktap"'
check "runner: the planted failure is not ok" \
	'grep -qx "not ok 2 selftests: blkgen: plant_001.sh # exit=1" "$tmp/ktap"'
check "runner: the planted pass is ok" \
	'grep -qx "ok 3 selftests: blkgen: plant_002.sh" "$tmp/ktap"'
# The runner's timeout of 36 s (-o) gives run_tests 30 s: 6 s to kill
# the test and report (on a loaded host, 3 s were not always enough).
(cd "$k" && BLKGEN_NO_KLOG=1 timeout 120 ./run_kselftest.sh -o 36 -t blkgen:plant_003.sh) 2>&1 |
	cat > "$tmp/ktap3"
check "runner: a hung test is killed by run_tests within the runner's timeout, a TIMEOUT" \
	'grep -qx "not ok 1 selftests: blkgen: plant_003.sh # TIMEOUT 36 seconds" "$tmp/ktap3" && grep -q "timed out after 30s" "$tmp/ktap3"'
check "nothing the hung test started is left (its grandchildren too), nor the watchdog" \
	'! pgrep -x -f "sleep (777|100[01]|30)" > /dev/null'
# No limit (-o 0, as timeout=0 in settings): the slow test ends by itself.
(cd "$k" && BLKGEN_NO_KLOG=1 timeout 120 ./run_kselftest.sh -o 0 -t blkgen:plant_006.sh) 2>&1 |
	cat > "$tmp/ktap6"
check "runner: timeout 0 is no limit (a 12 s test passes)" \
	'grep -qx "ok 1 selftests: blkgen: plant_006.sh" "$tmp/ktap6"'

# run_tests itself: the kernel log read after each test (a dmesg that
# prints the file run_tests writes its markers to), and a passing test's
# "# " figures, the last one without a newline.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\ncat "$BLKGEN_KMSG"\n' > "$tmp/bin/dmesg"
chmod 755 "$tmp/bin/dmesg"
echo "WARNING: before any test" > "$tmp/kmsg"
printf '#!/bin/bash\nDESCRIPTION="planted oops"\ntest() { echo right; echo "BUG: planted" >> "$BLKGEN_KMSG"; }\n' > "$col/tests/plant/004"
printf '#!/bin/bash\nDESCRIPTION="planted figures"\ntest() { echo right; echo "# figure 1" >&2; echo other >&2; printf "# figure 2" >&2; }\n' > "$col/tests/plant/005"
echo right > "$col/tests/plant/004.out"
echo right > "$col/tests/plant/005.out"
PATH=$tmp/bin:$PATH BLKGEN_KMSG=$tmp/kmsg "$col/tests/run_tests" plant/004 plant/002 plant/005 > "$tmp/ktap4" 2>&1
check "run_tests: a kernel BUG during a test fails it" \
	'grep -qx "not ok 1 plant/004 # kernel log: BUG: planted" "$tmp/ktap4"'
check "run_tests: the log before a test's marker is not its own" \
	'grep -qx "ok 2 plant/002" "$tmp/ktap4"'
check "run_tests: a passing test's figures are shown" \
	'grep -qx "ok 3 plant/005" "$tmp/ktap4" && [ "$(grep -c "^# figure [12]$" "$tmp/ktap4")" = 2 ] && ! grep -q "^other" "$tmp/ktap4"'

[ $fail = 0 ] || sed "s/^/# /" "$tmp/ktap" "$tmp/ktap3" "$tmp/ktap4" "$tmp/ktap6"
exit $fail
