#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-check.sh KERNEL_RELEASE: `make install DESTDIR=tmp` puts the
# module under lib/modules/REL/extra (built for REL), the tool under
# PREFIX/sbin, the profiles under PREFIX/share/blkgen/profiles, the suites
# and the published comparables under PREFIX/share/blkgen/suites, the docs
# under PREFIX/share/doc/blkgen, the man
# page blkgenctl(8) and the bash completion in place; the installed tool
# finds a profile by name and the completion completes; `make uninstall`
# removes them all; `make install-tool` installs all but the module where
# there are no kernel headers; `make dkms-install` registers, builds and
# installs the module with DKMS and `make dkms-uninstall` removes it (as
# root, when nothing of blkgen is registered yet). Builds in a private
# copy of the tree.
set -u
rel=$1
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() {
	if eval "$2"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		fail=1
	fi
}

mkdir -p "$tmp/src"
(cd "$top" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$tmp/src") ||
	cp -a "$top/." "$tmp/src"
dest=$tmp/root
if ! make -s -C "$tmp/src" install DESTDIR="$dest" KDIR="/lib/modules/$rel/build" \
	> "$tmp/make.log" 2>&1; then
	tail -n 30 "$tmp/make.log"
	echo "not ok - make install"
	exit 1
fi
pre=$dest/usr/local
ko=$dest/lib/modules/$rel/extra/blkgen.ko
check "module installed for $rel" \
	"[ -f '$ko' ] && modinfo -F vermagic '$ko' | grep -q '^$rel '"
check "blkgenctl installed and runs" "'$pre/sbin/blkgenctl' version | grep -q '^blkgenctl '"
check "profiles installed" \
	"[ \$(ls '$pre/share/blkgen/profiles'/*.prof | wc -l) -eq \$(ls '$top/tools/profiles'/*.prof | wc -l) ]"
check "man page blkgenctl(8)" \
	"grep -q '^\\.TH \"BLKGENCTL\" \"\\{0,1\\}8' '$pre/share/man/man8/blkgenctl.8' && grep -q convert '$pre/share/man/man8/blkgenctl.8'"
check "documentation in share/doc/blkgen, the man page pointing there" \
	"[ -f '$pre/share/doc/blkgen/abi.rst' ] && [ -f '$pre/share/doc/blkgen/README' ] && grep -q 'share/doc/blkgen' '$pre/share/man/man8/blkgenctl.8'"
# A named profile is found in the installed directory (then the missing
# module stops the run: exit 3, not a file error).
rc=0
BLKGEN_PROFILES=$pre/share/blkgen/profiles BLKGEN_SYSFS=$tmp/none BLKGEN_CONFIGFS=$tmp/none \
	"$pre/sbin/blkgenctl" run 4k-random-read --device /dev/null > /dev/null 2> "$tmp/err" || rc=$?
check "a profile by name (exit $rc: $(cat "$tmp/err"))" "[ $rc = 3 ]"
check "review suites installed" \
	"[ \$(ls '$pre/share/blkgen/suites'/*.suite | wc -l) -eq \$(ls '$top/tools/suites'/*.suite | wc -l) ]"
# A suite by name, its profiles found in the installed directory.
rc=0
BLKGEN_SUITES=$pre/share/blkgen/suites BLKGEN_PROFILES=$pre/share/blkgen/profiles \
	"$pre/sbin/blkgenctl" review --dry-run --suite full > "$tmp/err" 2>&1 || rc=$?
check "a review suite by name (exit $rc: $(tail -1 "$tmp/err"))" "[ $rc = 0 ] && grep -q 'suite full (' '$tmp/err'"
check "published comparables installed" \
	"[ \$(ls '$pre/share/blkgen/suites/published'/*.json | wc -l) -eq \$(ls '$top/tools/suites/published'/*.json | wc -l) ]"
# compare finds a published set by name in the installed suites.
rc=0
BLKGEN_SUITES=$pre/share/blkgen/suites \
	"$pre/sbin/blkgenctl" compare published:pm1743 published:pblaze5 -O "$tmp/cmp" > /dev/null 2> "$tmp/err" || rc=$?
check "compare of installed published sets (exit $rc: $(tail -1 "$tmp/err"))" \
	"[ $rc = 0 ] && grep -q 'Memblaze PBlaze5 900 (published' '$tmp/cmp/summary.md'"
# shellcheck disable=SC1091
complete_words() {
	(
		source "$pre/share/bash-completion/completions/blkgenctl"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_blkgenctl
		echo "${COMPREPLY[*]}"
	)
}
check "completion: commands" "[ \"\$(complete_words blkgenctl con)\" = convert ]"
check "completion: formats" "[ \"\$(complete_words blkgenctl report -o j)\" = json ]"
make -s -C "$tmp/src" uninstall DESTDIR="$dest" KDIR="/lib/modules/$rel/build" > /dev/null 2>&1
check "make uninstall leaves no file" "[ -z \"\$(find '$dest' -type f)\" ]"
# make clean: kbuild's clean pass reads module/Kbuild without the
# kernel's configuration (a check of it there failed every clean).
check "make clean (kbuild's clean pass too)" \
	"make -s -C '$tmp/src' clean KDIR='/lib/modules/$rel/build' > '$tmp/clean.log' 2>&1 && [ ! -e '$tmp/src/module/blkgen.ko' ]"
# The tool alone, where there are no kernel headers (KDIR names none).
if make -s -C "$tmp/src" install-tool DESTDIR="$dest" KDIR=/nonexistent > "$tmp/make.log" 2>&1; then
	check "make install-tool without kernel headers: the tool, no module" \
		"'$pre/sbin/blkgenctl' version | grep -q '^blkgenctl ' && [ -z \"\$(find '$dest' -name '*.ko')\" ] && [ -f '$pre/share/blkgen/suites/pm1743.suite' ]"
else
	tail -n 20 "$tmp/make.log"
	check "make install-tool without kernel headers" false
fi
make -s -C "$tmp/src" uninstall DESTDIR="$dest" KDIR=/nonexistent > /dev/null 2>&1
check "make uninstall after install-tool leaves no file" "[ -z \"\$(find '$dest' -type f)\" ]"

# dkms.conf as dkms reads it (sourced, kernel_source_dir set): the KUnit
# module listed for a kernel with KUnit, not for one without.
mkdir -p "$tmp/kunit-yes" "$tmp/kunit-no"
echo CONFIG_KUNIT=y > "$tmp/kunit-yes/.config"
echo '# CONFIG_KUNIT is not set' > "$tmp/kunit-no/.config"
# shellcheck disable=SC2016 # expanded by the inner shell
dkms_mods() {
	bash -c 'kernel_source_dir=$1 dkms_tree=/var/lib/dkms; . "$2"; echo "${BUILT_MODULE_NAME[*]}"' \
		sh "$1" "$top/dkms.conf"
}
check "dkms.conf: blkgen and blkgen_test for a kernel with KUnit" '[ "$(dkms_mods "$tmp/kunit-yes")" = "blkgen blkgen_test" ]'
check "dkms.conf: blkgen alone for one without" '[ "$(dkms_mods "$tmp/kunit-no")" = blkgen ]'

# DKMS (system-wide: it has no DESTDIR): the module registered, built for
# REL and installed under updates/dkms, then removed with all it made.
if command -v dkms > /dev/null && [ "$(id -u)" = 0 ] && [ -z "$(dkms status blkgen 2> /dev/null)" ]; then
	dko=/lib/modules/$rel/updates/dkms
	if make -s -C "$tmp/src" dkms-install KVER="$rel" > "$tmp/dkms.log" 2>&1; then
		check "make dkms-install: blkgen built and installed for $rel" \
			"dkms status blkgen -k '$rel' 2> /dev/null | grep -q ': installed' && ls '$dko'/blkgen.ko* > /dev/null 2>&1 && modinfo -F vermagic \$(ls '$dko'/blkgen.ko* | head -1) | grep -q '^$rel '"
	else
		tail -n 20 "$tmp/dkms.log"
		check "make dkms-install" false
	fi
	make -s -C "$tmp/src" dkms-uninstall KVER="$rel" > /dev/null 2>&1
	check "make dkms-uninstall: nothing of blkgen left to DKMS" \
		"[ -z \"\$(dkms status blkgen 2> /dev/null)\" ] && ! ls '$dko'/blkgen.ko* > /dev/null 2>&1 && [ ! -e /usr/src/blkgen-0.1 ]"
else
	echo "ok - # SKIP dkms-install: no dkms, not root, or blkgen already registered"
fi
exit $fail
