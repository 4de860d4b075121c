#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-tree.sh DIR [TEST|GROUP ...]
#
# Write blkgen's kselftest collection in the kselftest tree's own form,
# DIR/blkgen, a directory to copy into a kernel tree as
# tools/testing/selftests/blkgen (then `make -C tools/testing/selftests
# TARGETS=blkgen install`, as any collection) or to build where it is
# (`make -C DIR/blkgen install INSTALL_PATH=...`: without ../lib.mk its
# Makefile does what lib.mk would for it):
#
#   Makefile          TEST_PROGS (a program per test), TEST_FILES (the
#                     tests, profiles, suites), TEST_GEN_FILES (bin/: the
#                     tool, linked statically, for CROSS_COMPILE's
#                     architecture), TEST_GEN_MODS_DIR (modules/: blkgen.ko
#                     and, where the kernel has KUnit, blkgen_test.ko,
#                     built against KDIR, default the running kernel's)
#   GROUP_NNN.sh      one program per test: run_tests -k within five
#                     sixths of the runner's timeout (0: none); the
#                     collection's modules when the kernel has no blkgen
#                     of its own and they are built for it; the links of
#                     /dev the runner writes through (tests/lib/ksft-env)
#   tests/            run_tests, lib/ and the tests with their output
#   profiles, suites  what the tool's tests load
#   src/              the module's and the tool's sources
#   settings, config  the runner's timeout; the kernel options
#
# With TEST or GROUP arguments only those are written.
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dest=$1
shift

say() { echo "kselftest-tree: $*" >&2; }
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
mkdir -p "$col/tests/lib" "$col/src/module" "$col/src/uapi/linux" \
	 "$col/src/tools/blkgenctl" "$col/modules"

cp -a "$top/tools/profiles" "$col/profiles"
cp -a "$top/tools/suites" "$col/suites"
install -m 755 "$top/tests/run_tests" "$col/tests/run_tests"
cp -a "$top/tests/lib/." "$col/tests/lib/"
# The sources with their times (-p): a tool built from them before (its
# OUTPUT, outside the tree) is not built again for each new tree.
cp -p "$top/Kbuild" "$col/src/"
cp -p "$top"/module/Kbuild "$top"/module/*.[ch] "$col/src/module/"
rm -f "$col"/src/module/*.mod.c
cp -p "$top"/uapi/linux/*.h "$col/src/uapi/linux/"
cp -p "$top"/tools/blkgenctl/Makefile "$top"/tools/blkgenctl/*.[ch] "$col/src/tools/blkgenctl/"

progs=()
for t in "${tests[@]}"; do
	mkdir -p "$col/tests/${t%/*}"
	install -m 755 "$top/tests/$t" "$col/tests/$t"
	[ -f "$top/tests/$t.out" ] && install -m 644 "$top/tests/$t.out" "$col/tests/$t.out"
	name=${t/\//_}.sh
	progs+=("$name")
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
# The links of /dev the runner needs, where the guest lacks them; the
# collection's modules (TEST_GEN_MODS_DIR) where the kernel has no blkgen
# of its own and they were built for it.
. "\$here/tests/lib/ksft-env"
PATH=\$here/bin:\$PATH exec "\$here/tests/run_tests" -k -t "\$secs" $t
EOF
	chmod 755 "$col/$name"
done

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

cat > "$col/modules/Makefile" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
#
# blkgen.ko (and blkgen_test.ko where the kernel has KUnit) for the kernel
# whose build tree is KDIR, from ../src; the collection's TEST_GEN_MODS_DIR.
KDIR ?= /lib/modules/$(shell uname -r)/build
SRC := $(realpath $(dir $(abspath $(lastword $(MAKEFILE_LIST))))/../src)
MODS := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))

modules:
ifneq ("$(wildcard $(KDIR)/Makefile)", "")
	$(MAKE) -C $(KDIR) M=$(SRC) modules
	cp $(SRC)/module/*.ko $(MODS)
else
	@echo "blkgen: no kernel build tree at $(KDIR): pass KDIR=, or TEST_GEN_MODS_DIR= to leave the modules out" >&2; exit 1
endif

clean:
ifneq ("$(wildcard $(KDIR)/Makefile)", "")
	$(MAKE) -C $(KDIR) M=$(SRC) clean
endif
	rm -f $(MODS)*.ko

.PHONY: modules clean
EOF

{
	cat <<'EOF'
# SPDX-License-Identifier: GPL-2.0
#
# blkgen's kselftest collection (written by blkgen's
# tests/kselftest-tree.sh). In a kernel tree as
# tools/testing/selftests/blkgen:
#   make -C tools/testing/selftests TARGETS=blkgen install [KDIR=...]
# Where it is (no ../lib.mk): make install INSTALL_PATH=DIR [KDIR=...]
# CROSS_COMPILE builds the tool for another architecture (and SYSROOT,
# its libraries: src/tools/blkgenctl/Makefile); KDIR names the kernel the
# modules are built for; TEST_GEN_MODS_DIR= leaves them out.
EOF
	printf 'TEST_PROGS :='
	printf ' \\\n\t%s' "${progs[@]}"
	printf '\n'
	cat <<'EOF'
TEST_FILES := tests profiles suites
TEST_GEN_FILES := bin
TEST_GEN_MODS_DIR := modules

here := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))

ifneq ($(wildcard $(here)../lib.mk),)
include $(here)../lib.mk
else
# Out of a kernel tree: what lib.mk does for this collection.
OUTPUT ?= $(CURDIR)
COLLECTION ?= blkgen
TEST_GEN_FILES := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_FILES))

all: $(TEST_GEN_FILES) $(if $(TEST_GEN_MODS_DIR),gen_mods_dir)

gen_mods_dir:
	$(MAKE) -C $(TEST_GEN_MODS_DIR)

install: all
	@if [ -z "$(INSTALL_PATH)" ]; then echo "blkgen: set INSTALL_PATH to use install" >&2; exit 1; fi
	mkdir -p $(INSTALL_PATH)
	cp -a $(addprefix $(here),$(TEST_PROGS) $(TEST_FILES) config settings) $(TEST_GEN_FILES) $(INSTALL_PATH)/
	$(if $(TEST_GEN_MODS_DIR),mkdir -p $(INSTALL_PATH)/$(notdir $(TEST_GEN_MODS_DIR)) && cp $(TEST_GEN_MODS_DIR)/*.ko $(INSTALL_PATH)/$(notdir $(TEST_GEN_MODS_DIR))/)

emit_tests:
	@for t in $(TEST_PROGS); do echo "$(COLLECTION):$$t"; done

clean:
	$(if $(TEST_GEN_MODS_DIR),$(MAKE) -C $(TEST_GEN_MODS_DIR) clean)
	rm -rf $(TEST_GEN_FILES) $(OUTPUT)/tool-build

.PHONY: all gen_mods_dir install emit_tests clean
endif

# The tool, static (a farm's root file system need not have json-c), for
# CROSS_COMPILE's architecture.
$(OUTPUT)/bin: $(wildcard $(here)src/tools/blkgenctl/*.[ch] $(here)src/tools/blkgenctl/Makefile $(here)src/module/*.[ch] $(here)src/uapi/linux/*.h)
	$(MAKE) -C $(here)src/tools/blkgenctl O=$(OUTPUT)/tool-build LDFLAGS=-static
	mkdir -p $@
	cp $(OUTPUT)/tool-build/blkgenctl $@/
	touch $@
EOF
} > "$col/Makefile"
say "${#tests[@]} tests in $col"
