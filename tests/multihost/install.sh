#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/multihost/install.sh [--results FILE]
#
# The collection's install playbook on a bare Debian guest, as a lab runs
# it on a new host:
#
#   ansible-playbook -i inventory.ini blkgen.multihost.install
#
# The guest: the newest Debian kernel (KERNEL=PAT another whose headers
# the trixie build root holds: newest-kernel.sh's) booted under
# QEMU (TCG, two vCPUs), its root a Debian trixie system on a virtio disk
# with no blkgen on it: the trixie build root (tests/vm/newest-kernel.sh's:
# its compiler, as on a host that builds programs) without DKMS and the
# kernel's headers, with python3, openssh-server and chrony added by apt
# and the kernel's modules, prepared once into the cache (lib.sh's
# bare_root). The playbook installs the rest
# of the build dependencies by apt from Debian's archive (through QEMU's
# user-mode network), unpacks the collection's sources, builds and
# installs the module with DKMS and blkgenctl, and loads the module; the
# test checks each of those on the guest, that blkgenctl drives the
# module (a short read run on null_blk), and that the playbook run a
# second time changes nothing (changed=0). Then an upgrade the host was
# not reloaded for (another blkgen loaded): refused while a job exists,
# the installed module loaded once it is gone.
#
# The guest's disk, once all passed, is run.sh's guests' (installed.img).
#
# Files in build/multihost-install/. --results FILE appends "PASS|FAIL
# name" lines.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/kernel-lib.sh"
# shellcheck source=tests/multihost/lib.sh
. "$top/tests/multihost/lib.sh"
results=
while [ $# -gt 0 ]; do
	case $1 in
	--results) results=$2; shift ;;
	*) echo "usage: $0 [--results FILE]" >&2; exit 2 ;;
	esac
	shift
done
name=multihost-install
out=$top/build/$name
fails=0

say() { echo "$name: $*"; }
pass() { say "ok: $*"; [ -n "$results" ] && echo "PASS $name: $*" >> "$results"; return 0; }
fail() { say "FAIL: $*"; [ -n "$results" ] && echo "FAIL $name: $*" >> "$results"; fails=$((fails + 1)); return 0; }
die() { fail "$*"; exit 1; }

for tool in ansible-playbook ansible-galaxy ssh ssh-keygen mke2fs jq; do
	command -v "$tool" > /dev/null || { echo "$name: $tool not found (tests/install-deps.sh)" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out"
kernel=$("$top/tests/vm/kernels.sh" ${KERNEL:+"$KERNEL"} | tail -n 1)
[ -n "$kernel" ] || { echo "$name: no Debian kernel (tests/install-deps.sh)" >&2; exit 1; }
[ -x "$blkgen_buildroot/usr/bin/apt-get" ] ||
	{ echo "$name: no trixie build root in $blkgen_buildroot (tests/vm/newest-kernel.sh)" >&2; exit 1; }
[ -e "$blkgen_buildroot/usr/src/linux-headers-$kernel/Makefile" ] ||
	{ echo "$name: $kernel has no headers in the trixie build root (tests/vm/newest-kernel.sh)" >&2; exit 1; }

base=$(bare_root "$kernel") || die "no bare Debian root for the guest (above)"

ssh-keygen -q -t ed25519 -N '' -f "$out/key" -C blkgen-multihost-install || exit 1
rm -rf "$out/root"
cp -a "$base" "$out/root" || die "copying the guest's root failed"
install -D -m 600 "$out/key.pub" "$out/root/root/.ssh/authorized_keys"
chmod 700 "$out/root/root/.ssh"
rm -f "$out/root/etc/ssh/ssh_host_"*
chroot "$out/root" ssh-keygen -A > /dev/null || die "making the guest's ssh host keys failed"
mke2fs -q -F -t ext4 -d "$out/root" "$out/root.img" 6G > "$out/mke2fs.log" 2>&1 ||
	{ rm -rf "$out/root"; die "mke2fs failed (${out#"$top"/}/mke2fs.log)"; }
rm -rf "$out/root"

port=$((20000 + $$ % 20000 + 7))
gssh() {
	ssh -p "$port" -i "$out/key" -o BatchMode=yes -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=5 \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 root@127.0.0.1 "$@"
}

# Another blkgen for the upgrade's check (below): the tree's sources,
# one file with a MODULE_INFO line more (a comment would not change its
# srcversion: modpost's checksum leaves comments out), built against the
# kernel's headers.
mkdir -p "$out/variant/module" "$out/variant/uapi/linux"
cp "$top/Kbuild" "$out/variant/"
cp "$top"/module/Kbuild "$top"/module/*.[ch] "$out/variant/module/"
rm -f "$out"/variant/module/*.mod.c
cp "$top"/uapi/linux/*.h "$out/variant/uapi/linux/"
echo 'MODULE_INFO(blkgen_variant, "tests/multihost/install.sh");' >> "$out/variant/module/main.c"
kernel_make "$(kernel_kdir "$kernel")" -s M="$out/variant" modules > "$out/variant.log" 2>&1 &
variant_pid=$!
guest=

say "booting a guest of $kernel, its root a bare Debian system (log: ${out#"$top"/}/guest.log)"
setsid "$top/tests/vm/run.sh" --kernel "$kernel" --cpus 2 --no-zns --tag bare \
	--hostname blkgen-bare --net "$port" --timeout 2700 \
	--module virtio_blk --module ext4 --disk "$out/root.img" \
	--run "bash /blkgen/tests/multihost/bare-guest.sh" > "$out/guest.log" 2>&1 &
guest=$!
# poweroff: the guest powers off (guest_end: run.sh fails one whose
# kernel log is not clean; one that does not is killed). Also on the way
# out of any failure, with the other blkgen's build.
poweroff() {
	local rc=0
	[ -n "$guest" ] || return 0
	gssh 'touch /tmp/blkgen-poweroff' 2> /dev/null
	guest_end "$guest" || rc=1
	guest=
	return $rc
}
cleanup() {
	poweroff
	[ -z "$variant_pid" ] || { pkill -P "$variant_pid"; kill "$variant_pid"; } 2> /dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$SECONDS
until gssh true 2> /dev/null; do
	kill -0 "$guest" 2> /dev/null || die "the guest ended before its ssh answered ($(tail -n 3 "$out/guest.log" | tr '\n' ' '))"
	[ $((SECONDS - start)) -lt 600 ] || die "no ssh on port $port after 600 s"
	sleep 2
done
say "ssh up after $((SECONDS - start)) s"
gssh 'test ! -e /sys/module/blkgen && ! command -v blkgenctl && ! command -v dkms &&
	! test -e /lib/modules/$(uname -r)/build && ! modinfo blkgen' > /dev/null 2>&1 &&
	pass "the guest is bare: no blkgen loaded or installed, no blkgenctl, no DKMS, no kernel headers" ||
	fail "the guest is not bare: $(gssh 'ls -d /sys/module/blkgen /lib/modules/$(uname -r)/build; command -v blkgenctl dkms' 2>&1 | tr '\n' ' ')"

# The collection as a lab installs it (make collection carries the
# sources), run by name from a directory outside the tree.
make -s -C "$top" collection > "$out/collection.log" 2>&1 ||
	die "make collection failed (${out#"$top"/}/collection.log)"
id=$(installed_id "$kernel") || die "no sources in the collection (${out#"$top"/}/collection.log)"
ansible-galaxy collection install -p "$out/collections" "$top"/build/collection/blkgen-multihost-*.tar.gz \
	> "$out/galaxy.log" 2>&1 || die "ansible-galaxy collection install failed (${out#"$top"/}/galaxy.log)"
lab=$out/lab
mkdir -p "$lab"
cat > "$lab/inventory.ini" <<INV
[blkgen]
blkgen-bare ansible_host=127.0.0.1 ansible_port=$port

[blkgen:vars]
ansible_user=root
ansible_ssh_private_key_file=$out/key
ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'
INV
export ANSIBLE_PIPELINING=1 ANSIBLE_LOCAL_TEMP=$out/ansible-tmp ANSIBLE_NOCOLOR=1 \
	ANSIBLE_COLLECTIONS_PATH=$out/collections \
	ANSIBLE_CALLBACKS_ENABLED=ansible.builtin.junit JUNIT_OUTPUT_DIR=$out/junit

# play NAME: blkgen.multihost.install from the lab directory, its output
# in $out/ansible-NAME.log.
play() {
	local t=$SECONDS rc
	(cd "$lab" && ansible-playbook -i inventory.ini blkgen.multihost.install) > "$out/ansible-$1.log" 2>&1
	rc=$?
	say "play $1: exit $rc in $((SECONDS - t)) s"
	return $rc
}
recap() {
	grep -E '^blkgen-bare +: ok=' "$out/ansible-$1.log" | tr -s ' '
}

if play first; then
	pass "blkgen.multihost.install on a bare Debian guest: $(recap first)"
else
	fail "blkgen.multihost.install on a bare Debian guest: $(grep -m 1 -A 3 'fatal:' "$out/ansible-first.log" | tr -s ' ' | tr '\n' ' ') (${out#"$top"/}/ansible-first.log)"
fi
st=$(gssh "dkms status -m blkgen -k $kernel" 2>&1)
case $st in
*installed*) pass "the module built by DKMS in the guest for $kernel: $st" ;;
*) fail "no module installed by DKMS for $kernel: $st" ;;
esac
gssh 'test -d /sys/module/blkgen && test -d /sys/kernel/config/blkgen' &&
	pass "the module loaded (/sys/module/blkgen, configfs's blkgen)" ||
	fail "the module is not loaded after the play"
gssh 'cmp -s /sys/module/blkgen/srcversion <(modinfo -F srcversion blkgen)' &&
	pass "the loaded module is the one DKMS installed (srcversion)" ||
	fail "the loaded module's srcversion is not the installed one's"
# blkgenctl, as the playbook installed it, over the module: a second of
# reads on null_blk.
if gssh 'blkgenctl run 4k-random-read --device /dev/nullb0 --set warmup_ms=0 --set duration_ms=1000 -q -o json' \
	> "$out/run.json" 2> "$out/run.err" &&
   [ "$(jq '.jobs[0].workloads[0].read.ios > 0' "$out/run.json" 2> /dev/null)" = true ]; then
	pass "blkgenctl installed by the playbook runs the module: $(jq -r '.jobs[0].workloads[0].read.ios' "$out/run.json") reads on /dev/nullb0 in 1 s"
else
	fail "blkgenctl run on the guest: $(head -c 300 "$out/run.err" | tr '\n' ' ') (${out#"$top"/}/run.json)"
fi

if play second && recap second | grep -q ' changed=0 .* failed=0 '; then
	pass "the playbook run again changes nothing: $(recap second)"
else
	fail "the playbook run again: $(recap second) (${out#"$top"/}/ansible-second.log)"
fi

# An upgrade found loaded: another blkgen (these sources and a line
# more: another srcversion, built here in the background) loaded in place of
# the installed one, as after an upgrade the host was not reloaded for.
# With a job present the play refuses, naming it, and leaves the module
# loaded; once the job is gone it loads the installed one.
wait "$variant_pid"
vrc=$?
variant_pid=
[ $vrc = 0 ] && [ -s "$out/variant/module/blkgen.ko" ] ||
	die "building another blkgen for $kernel failed (${out#"$top"/}/variant.log)"
gssh 'cat > /tmp/blkgen-variant.ko' < "$out/variant/module/blkgen.ko" &&
	gssh 'rmmod blkgen && insmod /tmp/blkgen-variant.ko && mkdir /sys/kernel/config/blkgen/held' ||
	die "loading the other blkgen with a job in the guest failed"
vsrc=$(gssh 'cat /sys/module/blkgen/srcversion') isrc=$(gssh 'modinfo -F srcversion blkgen')
[ -n "$vsrc" ] && [ "$vsrc" != "$isrc" ] || die "the other blkgen's srcversion ($vsrc) is the installed one's ($isrc)"
if ! play held && grep -q 'blkgen-bare: blkgen was upgraded but not reloaded: jobs exist (held)' "$out/ansible-held.log" &&
   [ "$(gssh 'cat /sys/module/blkgen/srcversion')" = "$vsrc" ] && gssh 'test -d /sys/kernel/config/blkgen/held'; then
	pass "another blkgen loaded with a job (held): the play refused, naming it, the module and job left as they were"
else
	fail "another blkgen loaded with a job: the play did not refuse it as it should (${out#"$top"/}/ansible-held.log)"
fi
gssh 'rmdir /sys/kernel/config/blkgen/held' || fail "removing the job held failed"
if play reload && [ "$(gssh 'cat /sys/module/blkgen/srcversion')" = "$isrc" ] &&
   recap reload | grep -q ' changed=1 .* failed=0 '; then
	pass "the job gone, the play loaded the installed blkgen in place of the other: $(recap reload)"
else
	fail "the job gone, the play did not load the installed blkgen: $(recap reload) (${out#"$top"/}/ansible-reload.log)"
fi

poweroff && pass "the guest powered off with a clean kernel log (blkgen unloaded first)" ||
	fail "the guest: $(grep -E 'FAIL|blkgen-bare: rmmod' "$out/guest.log" | head -n 3 | tr '\n' ' ') (${out#"$top"/}/guest.log)"
# The disk (6 GB sparse, a gigabyte and more written): when all went
# well, the host the playbook prepared, for run.sh's three guests
# (installed.img; installed.id says what it is: lib.sh's installed_id);
# else kept as it is.
if [ $fails = 0 ]; then
	mv "$out/root.img" "$out/installed.img" && echo "$id" > "$out/installed.id"
fi
say "$fails failed, in $SECONDS s"
[ $fails = 0 ]
