#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-install.sh DIR [TEST|GROUP ...]
#
# Install blkgen's tests as a kselftest collection named "blkgen" in DIR
# (make kselftest-install INSTALL_PATH=DIR), for the kernel's own runner:
#
#   DIR/blkgen/GROUP_NNN.sh     one program per test, run by the runner
#   DIR/blkgen/tests/           run_tests, lib/ and the tests with their
#                               expected output
#   DIR/blkgen/bin/blkgenctl    the tool, linked statically
#   DIR/blkgen/profiles, suites what the tool's tests load
#   DIR/blkgen/settings         timeout= for the runner
#   DIR/blkgen/config           the kernel options the tests need
#   DIR/blkgen/kselftest-list.txt  the collection's blkgen:GROUP_NNN.sh
#                               lines, also added to DIR/kselftest-list.txt:
#                               appended to an existing kselftest install's
#                               (earlier blkgen lines replaced), else written
#
# With TEST or GROUP arguments only those are listed and installed. A
# program runs its test through run_tests -k: exit 0 pass, 1 fail, 4 skip
# (not root, no blkgen module, no null_blk, no NVMe, a program missing:
# the reason on a "# SKIP" line), within five sixths of the runner's
# timeout (run_tests then kills a stuck test itself and names what it
# waits on). The module is not part of the collection: install it (make
# dkms-install) on the kernel under test.
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dest=$1
shift

say() { echo "kselftest-install: $*" >&2; }
die() { say "$*"; exit 1; }

# The tests, in run_tests' order; arguments select as run_tests does.
list=$("$top/tests/run_tests" -l "$@") || die "no such test or group: $*"
mapfile -t tests <<< "$list"
[ -n "$list" ] || die "no tests selected"

# The runner's timeout per test (settings; -o overrides it).
ksft_timeout=360

col=$dest/blkgen
mkdir -p "$dest"
rm -rf "$col"
mkdir -p "$col/tests/lib" "$col/bin"

# The tool, static: a farm's root file system need not have json-c. For
# another architecture with CROSS_COMPILE (and SYSROOT, its libraries:
# tools/blkgenctl/Makefile) in the environment, as kselftest's builds take it.
tool=$top/build/kselftest-tool${CROSS_COMPILE:+-${CROSS_COMPILE%-}}
make -s -C "$top/tools/blkgenctl" O="$tool" LDFLAGS=-static > /dev/null
install -m 755 "$tool/blkgenctl" "$col/bin/blkgenctl"
cp -a "$top/tools/profiles" "$col/profiles"
cp -a "$top/tools/suites" "$col/suites"

install -m 755 "$top/tests/run_tests" "$col/tests/run_tests"
cp -a "$top/tests/lib/." "$col/tests/lib/"
for t in "${tests[@]}"; do
	mkdir -p "$col/tests/${t%/*}"
	install -m 755 "$top/tests/$t" "$col/tests/$t"
	[ -f "$top/tests/$t.out" ] && install -m 644 "$top/tests/$t.out" "$col/tests/$t.out"
	name=${t/\//_}.sh
	desc=$(sed -n 's/^DESCRIPTION="\(.*\)"$/\1/p' "$top/tests/$t" | head -n 1)
	cat > "$col/$name" <<EOF
#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blkgen $t: $desc
here=\$(cd "\$(dirname "\$0")" && pwd)
# Five sixths of the runner's timeout (kselftest_timeout, from settings
# or -o), at least 10 s; 0 (none) is none here too.
secs=\$(( \${kselftest_timeout:-$ksft_timeout} * 5 / 6 ))
[ "\${kselftest_timeout:-$ksft_timeout}" = 0 ] || [ "\$secs" -ge 10 ] || secs=10
PATH=\$here/bin:\$PATH exec "\$here/tests/run_tests" -k -t "\$secs" $t
EOF
	chmod 755 "$col/$name"
	echo "blkgen:$name"
done > "$col/list"

echo "timeout=$ksft_timeout" > "$col/settings"
cat > "$col/config" <<'EOF'
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_CONFIGFS_FS=y
CONFIG_BLK_DEV=y
CONFIG_BLK_DEV_NULL_BLK=m
CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION=y
CONFIG_BLK_DEV_NVME=m
CONFIG_BLK_DEV_ZONED=y
CONFIG_BLK_DEV_INTEGRITY=y
CONFIG_BLK_DEV_IO_TRACE=y
CONFIG_FTRACE=y
CONFIG_DEBUG_FS=y
CONFIG_MD=y
CONFIG_BLK_DEV_DM=m
CONFIG_EXT4_FS=y
CONFIG_FAULT_INJECTION=y
CONFIG_FAIL_MAKE_REQUEST=y
CONFIG_FAIL_IO_TIMEOUT=y
CONFIG_FAULT_INJECTION_DEBUG_FS=y
CONFIG_FAULT_INJECTION_CONFIGFS=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_MAGIC_SYSRQ=y
CONFIG_DETECT_HUNG_TASK=y
CONFIG_KUNIT=y
CONFIG_KUNIT_DEBUGFS=y
EOF

# kselftest-list.txt: ours replace any earlier blkgen lines.
list=$dest/kselftest-list.txt
if [ -f "$list" ]; then
	grep -v '^blkgen:' "$list" > "$list.new" || [ $? -eq 1 ] ||
		die "cannot read $list"
	cat "$col/list" >> "$list.new"
	mv "$list.new" "$list"
	say "${#tests[@]} tests added to $list"
else
	cp "$col/list" "$list"
	say "${#tests[@]} tests listed in $list (no kselftest install there: run them with the kernel's run_kselftest.sh copied beside it)"
fi
mv "$col/list" "$col/kselftest-list.txt"
