#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ansible-sanity.sh: the Ansible collection as make collection
# builds it, installed by ansible-galaxy into build/ansible-sanity/ and
# checked there by ansible-test sanity (Debian's ansible-core): the
# tests that run offline. Those that install their own Python packages
# with pip first are left out, each named below (this machine's CI has no
# network for pip); ansible-lint (make check's static step) covers YAML.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/ansible-sanity
# Tests that need pip (a virtualenv of their own requirements).
offline_skip="pylint runtime-metadata validate-modules yamllint import changelog ansible-doc pep8"

command -v ansible-test > /dev/null || { echo "ansible-sanity: ansible-test not found (ansible-core)" >&2; exit 1; }
rm -rf "$out"
make -s -C "$top" collection > /dev/null
ANSIBLE_COLLECTIONS_PATH=$out ansible-galaxy collection install -p "$out" "$top"/build/collection/blkgen-multihost-*.tar.gz > /dev/null
cd "$out/ansible_collections/blkgen/multihost"
# ansible-test lists a collection's files by git (without a repository
# it finds none, and passes having tested nothing).
git init -q . && git add -A
args=()
for t in $offline_skip; do
	args+=(--skip-test "$t")
done
py=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if ! ansible-test sanity --python "$py" "${args[@]}" > "$out/sanity.log" 2>&1; then
	grep -v '^WARNING: .*locale' "$out/sanity.log"
	exit 1
fi
grep -v -e '^WARNING: .*locale' -e '^WARNING: Reviewing previous' "$out/sanity.log" | grep '^WARNING' && exit 1
# pep8's and pylint's want pip too: Debian's pycodestyle (ansible-test's
# line length) and pyflakes over the plugins instead.
pycodestyle --max-line-length 160 plugins || exit 1
pyflakes3 plugins || exit 1
# ansible-doc's sanity test wants pip; ansible-doc itself does not: each
# plugin's documentation read as a user reads it.
for p in module:blkgen.multihost.coordinate role:blkgen.multihost.run role:blkgen.multihost.install; do
	ANSIBLE_COLLECTIONS_PATH=$out ansible-doc -t "${p%%:*}" "${p#*:}" > "$out/doc.txt" 2>&1 &&
		! grep -q '^\[WARNING\]\|ERROR' "$out/doc.txt" ||
		{ echo "ansible-sanity: ansible-doc -t ${p%%:*} ${p#*:}:"; cat "$out/doc.txt"; exit 1; }
done
n=$(grep -c '^Running sanity test' "$out/sanity.log")
echo "ansible-sanity: $n tests passed (left out, needing pip: $offline_skip), ansible-doc of the module and roles"
