#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of fio's t/io_uring, building it first if needed: the
# fastest user-space submitter fio's author keeps (polled I/O, registered
# buffers and files, batched submission and completion). It is not in
# Debian's fio package, so it is built from the fio source package of the
# installed version, fetched with apt-get through a private deb-src list
# (the system's apt configuration is left alone), and cached in
# ${BLKGEN_CACHE:-/var/cache/blkgen}/t-io_uring/VERSION/. Progress goes to
# stderr; exit 1 (with the reason) if it cannot be had.
set -eu -o pipefail

say() { echo "t-io-uring: $*" >&2; }

ver=$(dpkg-query -W -f='${Version}' fio 2>/dev/null) || { say "fio is not installed"; exit 1; }
base=${BLKGEN_CACHE:-/var/cache/blkgen}/t-io_uring/$ver
if [ -x "$base/io_uring" ]; then
	echo "$base/io_uring"
	exit 0
fi
. /etc/os-release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
cat > "$work/src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $VERSION_CODENAME
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt=(apt-get -q -o "Dir::Etc::SourceList=$work/src.sources" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
say "fetching the source of fio $ver (deb-src $VERSION_CODENAME)"
"${apt[@]}" update > "$work/apt.log" 2>&1 || { tail -n 5 "$work/apt.log" >&2; say "apt-get update failed"; exit 1; }
(cd "$work/src" && "${apt[@]}" source --download-only "fio=$ver") >> "$work/apt.log" 2>&1 ||
	{ tail -n 5 "$work/apt.log" >&2; say "apt-get source fio=$ver failed"; exit 1; }
orig=
for f in "$work"/src/fio_*.orig.tar.gz "$work"/src/fio_*.orig.tar.xz; do
	[ -f "$f" ] && orig=$f && break
done
[ -n "$orig" ] || { say "no fio_*.orig.tar.* downloaded"; exit 1; }
mkdir -p "$work/fio"
tar -xf "$orig" -C "$work/fio" --strip-components=1
say "building t/io_uring"
(cd "$work/fio" && ./configure --disable-native > "$work/build.log" 2>&1 &&
	make -j"$(nproc)" t/io_uring >> "$work/build.log" 2>&1) ||
	{ tail -n 20 "$work/build.log" >&2; say "build failed"; exit 1; }
mkdir -p "$base"
cp "$work/fio/t/io_uring" "$base/io_uring.tmp"
mv "$base/io_uring.tmp" "$base/io_uring"
echo "$base/io_uring"
