#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh RELEASE BLKGEN_KO STAGING_DIR OUTPUT.cpio
#
# Build the test VM's initramfs for kernel RELEASE: busybox, bash, fio,
# blktrace/blkparse and blkgenctl with their shared libraries; the kernel's
# own modules (configfs, null_blk, nvme and what they depend on,
# decompressed) plus blkgen.ko under extra/, indexed by depmod so that
# modprobe works in the guest; the test suites under /blkgen/tests; and
# /init with /etc/blkgen-vm.conf.
#
# Environment: VM_MODE (test|shell), VM_TESTS, VM_NULLB_ARGS, VM_NVME_ARGS,
# VM_MODULES (extra kernel modules), VM_FILES ("SRC:DEST ..." extra files),
# VM_TEST_TIMEOUT, VM_KDIR: the build tree of a kernel that has everything
# built in and no /lib/modules/RELEASE (the debug kernel): each wanted
# module must be listed in its modules.builtin, which is installed so that
# modprobe of a built-in driver succeeds; blkgen.ko is the only module;
# VM_MODROOT: the directory whose lib/modules/RELEASE holds the kernel's
# modules (default /; a kernel unpacked by tests/vm/newest-kernel.sh has
# its own); VM_SYSROOT: a guest of another architecture (arm64): the
# executables and their libraries come from this tree
# (tests/vm/arch-kernel.sh's), found by their ELF headers, not ldd;
# VM_BLKGENCTL: the blkgenctl to install (default the tree's).
set -eu

rel=$1
ko=$2
root=$3
out=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
modroot=${VM_MODROOT:-/}
moddir=/lib/modules/$rel

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,blkgen}

sysroot=${VM_SYSROOT:-}

# sysroot_lib NAME: the path (in the sysroot) of the library NAME, in
# the RUNPATHs seen so far (librados's: .../ceph) or the usual places.
runpaths=
sysroot_lib() {
	local d
	# shellcheck disable=SC2086 # a list of directories
	for d in $runpaths /lib/*-linux-gnu /usr/lib/*-linux-gnu /lib /usr/lib; do
		if [ -e "$sysroot$d/$1" ]; then echo "$d/$1"; return 0; fi
	done
	return 1
}

# have_exe PATH: PATH is an executable here, or in the sysroot (where
# /usr/bin/X may be /bin/X: packages before the /usr merge).
have_exe() {
	[ -z "$sysroot" ] && { [ -x "$1" ]; return; }
	[ -x "$sysroot$1" ] || [ -x "$sysroot${1#/usr}" ]
}

# needed FILE: the libraries FILE needs (DT_NEEDED) into $needed_libs;
# its RUNPATH or RPATH joins the places sysroot_lib looks in.
needed_libs=
needed() {
	local d dyn
	dyn=$(readelf -d "$1" 2>/dev/null)
	for d in $(echo "$dyn" | sed -n 's/.*(\(RUN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p' | tr ':' ' '); do
		case " $runpaths " in *" $d "*) ;; *) runpaths="$runpaths $d" ;; esac
	done
	needed_libs=$(echo "$dyn" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | tr '\n' ' ')
}

# copy_foreign SRC DEST: an executable of the sysroot's architecture
# (SRC a path in the sysroot, else a file here) and its libraries, by
# their ELF headers (the interpreter, DT_NEEDED), recursively.
copy_foreign() {
	local src=$1 dest=$2 f lib interp todo seen=' ' path
	f=$sysroot$src
	[ -e "$f" ] || f=$sysroot${src#/usr}
	[ -e "$f" ] || f=$src	# one of this tree's builds
	[ -e "$f" ] || { echo "mkinitramfs: $src: not in $sysroot" >&2; exit 1; }
	install -D -m 755 "$(readlink -f "$f")" "$root$dest"
	interp=$(readelf -l "$f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
		install -D -m 755 "$(readlink -f "$sysroot$interp")" "$root$interp"
	fi
	needed "$f"
	todo=$needed_libs
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # a list of names
		set -- $todo
		lib=$1
		shift
		todo=$*
		case $seen in *" $lib "*) continue ;; esac
		seen="$seen$lib "
		path=$(sysroot_lib "$lib") ||
			{ echo "mkinitramfs: $src needs $lib, which $sysroot lacks" >&2; exit 1; }
		[ -e "$root$path" ] || install -D -m 755 "$(readlink -f "$sysroot$path")" "$root$path"
		needed "$sysroot$path"
		todo="$todo $needed_libs"
	done
}

# copy_exe SRC [DEST]: an executable and every shared library it needs.
copy_exe() {
	local src=$1 dest=${2:-$1} lib
	if [ -n "$sysroot" ]; then
		copy_foreign "$src" "$dest"
		return
	fi
	install -D -m 755 "$src" "$root$dest"
	if ldd "$src" 2>/dev/null | grep -q 'not found'; then
		echo "mkinitramfs: $src needs libraries this machine lacks: $(ldd "$src" | grep 'not found' | tr -s '\t\n' '  ')" >&2
		exit 1
	fi
	ldd "$src" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		[ -e "$root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$root$lib"
	done
}

copy_exe /bin/busybox /bin/busybox
copy_exe /usr/bin/bash /usr/bin/bash
ln -s ../usr/bin/bash "$root/bin/bash"
# VM_MINIMAL=1 (run.sh --minimal): busybox and bash alone, the modules
# configfs and null_blk, and the kselftest tree.
minimal=${VM_MINIMAL:-0}
if [ "$minimal" = 0 ]; then
	for exe in /usr/bin/fio /usr/sbin/blktrace /usr/bin/blkparse /usr/sbin/dmsetup /usr/bin/chrt \
		   /usr/sbin/blkzone /usr/bin/jq; do
		if have_exe "$exe"; then copy_exe "$exe"; fi
	done
	copy_exe "${VM_BLKGENCTL:-$top/tools/blkgenctl/blkgenctl}" /usr/sbin/blkgenctl
fi
# run.sh --exe: more executables; a Python interpreter with its standard
# library (no tests, no build files, no caches: 15 MB) and python3.
for spec in ${VM_EXES:-}; do
	exe=${spec%%:*} dest=${spec#*:}
	[ -x "$exe" ] || { echo "mkinitramfs: $exe is not an executable" >&2; exit 1; }
	copy_exe "$exe" "$dest"
	case ${exe##*/} in
	python3.[0-9]*)
		lib=/usr/lib/${exe##*/}
		mkdir -p "$root$lib"
		# With Debian's compiled modules (__pycache__, 12 MB): Python
		# in a TCG guest compiling the modules it imports took the
		# multihost test's four first Ansible tasks, side by side, a
		# minute.
		tar -C "$lib" --exclude='./test' \
			--exclude='./config-*' --exclude='./idlelib' --exclude='./tkinter' \
			--exclude='./lib2to3' --exclude='./ensurepip' --exclude='./pydoc_data' \
			--exclude='./site-packages' --exclude='./dist-packages' -cf - . |
			tar -C "$root$lib" -xf -
		[ -f "$root$lib/os.py" ] || { echo "mkinitramfs: $lib was not copied" >&2; exit 1; }
		for so in "$lib"/lib-dynload/*.so; do copy_exe "$so"; done
		ln -sf "${dest##*/}" "$root${dest%/*}/python3"
		;;
	esac
done

want="configfs null_blk nvme dm_mod ext4 ${VM_MODULES:-}"
[ "$minimal" = 1 ] && want="configfs null_blk ${VM_MODULES:-}"
# ext4's checksums through the crypto API up to 6.13 (crc32c_generic);
# 6.14 made crc32c a library that ext4 depends on.
if [ "$minimal" = 0 ] &&
   modprobe -d "$modroot" -S "$rel" --show-depends crc32c_generic > /dev/null 2>&1; then
	want="$want crc32c_generic"
fi
mkdir -p "$root$moddir"
if [ -n "${VM_KDIR:-}" ]; then
	# Everything built in: check it, and index it for the guest's modprobe.
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		if [ -e "$VM_KDIR/$f" ]; then cp "$VM_KDIR/$f" "$root$moddir/"; fi
	done
	for m in $want; do
		tr - _ < "$VM_KDIR/modules.builtin" | grep -q "/${m//-/_}\.ko\$" || {
			echo "mkinitramfs: $rel has no built-in $m (add it to tests/vm/debug-kernel.config)" >&2
			exit 1
		}
	done
	want=
fi

# Kernel modules: each wanted module and its dependencies, decompressed.
deps=
for m in $want; do
	d=$(modprobe -d "$modroot" -S "$rel" --show-depends "$m" 2>/dev/null) || {
		echo "mkinitramfs: $rel has no module $m" >&2
		exit 1
	}
	deps="$deps$d
"
done
echo "$deps" | awk '$1 == "insmod" { print $2 }' | sort -u |
while read -r path; do
	path=/${path#"${modroot%/}"/}
	dest=$root${path%.xz}
	dest=${dest%.zst}
	mkdir -p "$(dirname "$dest")"
	src=${modroot%/}$path
	case $path in
	*.xz) xz -dc "$src" > "$dest" ;;
	*.zst) zstd -qdc "$src" > "$dest" ;;
	*) cp "$src" "$dest" ;;
	esac
done
# As DKMS installs it on Debian for the kselftest boot, else as make
# install does.
if [ -n "${VM_KSELFTEST:-}" ]; then
	install -D -m 644 "$ko" "$root$moddir/updates/dkms/blkgen.ko"
else
	install -D -m 644 "$ko" "$root$moddir/extra/blkgen.ko"
fi
# The KUnit cases, built beside blkgen.ko for a kernel with KUnit.
if [ -e "$(dirname "$ko")/blkgen_test.ko" ]; then
	install -D -m 644 "$(dirname "$ko")/blkgen_test.ko" "$root$moddir/extra/blkgen_test.ko"
fi
if [ -z "${VM_KDIR:-}" ]; then
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -e "${modroot%/}$moddir/$f" ] && cp "${modroot%/}$moddir/$f" "$root$moddir/"
	done
fi
depmod -b "$root" "$rel"

# Test suites and configuration.
if [ "$minimal" = 0 ]; then
	cp -a "$top/tests" "$root/blkgen/tests"
	rm -rf "$root/blkgen/tests/unit" "$root/blkgen/tests/vm"
	cp -a "$top/tools/profiles" "$root/blkgen/profiles"
	cp -a "$top/tools/suites" "$root/blkgen/suites"
else
	rmdir "$root/blkgen"
fi
# A kselftest install (the kernel's runner and blkgen's collection).
if [ -n "${VM_KSELFTEST:-}" ]; then
	cp -a "$VM_KSELFTEST" "$root/kselftest"
fi
for spec in ${VM_FILES:-}; do
	install -D "${spec%%:*}" "$root${spec#*:}"
done

printf 'root:x:0:0:root:/root:/bin/bash\n' > "$root/etc/passwd"
printf 'root:x:0:\n' > "$root/etc/group"
cat > "$root/etc/blkgen-vm.conf" <<CONF
VM_MODE='${VM_MODE:-test}'
VM_TESTS='${VM_TESTS:-}'
VM_NULLB_ARGS='${VM_NULLB_ARGS:-}'
VM_NVME_ARGS='${VM_NVME_ARGS:-}'
VM_MODULES='${VM_MODULES:-}'
VM_TEST_TIMEOUT='${VM_TEST_TIMEOUT:-300}'
VM_CMD='${VM_CMD:-}'
VM_NET='${VM_NET:-0}'
VM_HOSTNAME='${VM_HOSTNAME:-blkgen-vm}'
VM_KSELFTEST='${VM_KSELFTEST:+1}'
VM_MINIMAL='$minimal'
VM_ZNS='${VM_ZNS:-1}'
VM_KTAP_DEV='${VM_KTAP_DEV:-/dev/ttyS1}'
VM_BARE_DEV='${VM_BARE_DEV:-0}'
CONF
install -m 755 "$top/tests/vm/init" "$root/init"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$out"
