#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [options]
#
# Boot each installed Debian kernel under QEMU (TCG; no KVM needed) with
# null_blk and an emulated NVMe drive, run the in-VM test suites and
# collect their KTAP results. A kernel BUG/WARNING/Oops/lockdep/hung-task
# message anywhere in the guest log, or a guest that does not finish in
# time, fails that kernel's run even when every test passed.
#
#   --kernel PAT     kernels whose release is PAT or starts with PAT. or
#                    PAT- (e.g. 6.1, 6.12, 7.3), of the generic flavour
#                    unless PAT names another (6.12-rt, rt); repeatable;
#                    default: every generic one (tests/vm/kernels.sh:
#                    Debian's installed kernels and the newest of
#                    trixie-backports, unpacked by newest-kernel.sh)
#   --arch arm64     boot Debian's newest bookworm arm64 kernel instead
#                    (tests/vm/arch-kernel.sh: unpacked with its headers
#                    and an arm64 guest userland) under
#                    qemu-system-aarch64 (TCG, virt machine, Neoverse N1
#                    CPU), the module and blkgenctl cross-built for it;
#                    the boot is named by its release (…-arm64)
#   --debug-kernel   boot the debug kernel too (without --kernel: only it),
#                    built or taken from its cache by debug-kernel.sh
#                    (KASAN, lockdep, kmemleak; drivers built in; named
#                    debug-6.12); its timeouts are 3 times longer
#   --icount         deterministic time: QEMU's icount mode (one guest
#                    instruction is one virtual ns; the host's load and
#                    timer jitter vanish); boots are named NAME-icount
#                    and without --tests run the timing tests (those
#                    whose requires() calls _have_icount); 6.1 gets one
#                    vCPU (it hangs bringing up a second under icount)
#   --shell          boot one kernel with an interactive shell instead
#   --tests "T ..."  tests or groups to run (default: all but the timing
#                    ones; also all but the tool tests, a SCOPE=tool
#                    line: blkgenctl over the module's interface, run
#                    once, on the newest Debian kernel; on an older
#                    generic Debian kernel than the newest also all but
#                    the SCOPE=newest ones, whose paths no version
#                    changes; an rt kernel runs them)
#   --tool-tests     run the tool tests too (make check asks the newest
#                    Debian kernel's boot)
#   --kselftest      run the boot's tests as a kselftest collection with
#                    the kernel's own runner (run_kselftest.sh -c blkgen
#                    from linux-source-6.12; make kselftest-install's
#                    tree; blkgen.ko where DKMS installs it); the boot is
#                    named NAME-kselftest
#   --minimal        with --kselftest: a guest of busybox, bash, the
#                    kselftest tree and the blkgen and null_blk modules
#                    alone (no fio, blktrace, dmsetup, NVMe drive or
#                    /blkgen tree): the collection must carry what it
#                    needs and skip, with the reason, what it lacks;
#                    the boot is named NAME-kselftest-minimal
#   --part N/M       run part N of M of the boot's tests (every Mth from
#                    the Nth, in name order; make check runs two parts
#                    of the debug kernel's boot side by side); the boot
#                    is named NAME-pN
#   --tag T          name the boot NAME-T (its files in build/vm/NAME-T:
#                    boots of one kernel side by side, e.g. the demos)
#   --results FILE   append "PASS|FAIL|SKIP name" lines to FILE
#   --timeout SEC    wall-clock limit per boot (default 1200; debug 3600)
#   --cpus N         vCPUs (default 2; 1 for 6.1 with --icount)
#   --mem MB         guest memory (default 2048)
#   --nvme-args A    nvme module parameters (default "poll_queues=1")
#   --bare-dev       no /dev/fd, /dev/stdin, /dev/stdout or /dev/stderr
#                    links in the guest (devtmpfs alone, as a farm's
#                    busybox guest may have it)
#   --no-zns         no zoned namespace on the NVMe drive (the demos and
#                    the multihost guests: their drive is nvme0n1)
#   --nullb-args A   null_blk module parameters
#                    (default "nr_devices=1 submit_queues=2")
#   --module M       load another kernel module in the guest (repeatable)
#   --file SRC:DEST  copy a host file into the guest (repeatable)
#   --exe SRC[:DEST] copy a host executable and its libraries into the
#                    guest (repeatable; a python3.X brings its standard
#                    library)
#   --disk IMG       a raw image as a virtio disk (/dev/vda; the
#                    modules virtio_blk and its filesystem's by --module)
#   --disk-snapshot IMG
#                    as --disk, the guest's writes kept in a temporary
#                    file and dropped (QEMU's snapshot=on): IMG is left
#                    as it was, and several guests may share it
#   --net PORT       a virtio NIC on QEMU's user-mode network, the guest
#                    at 10.0.2.15 (the host 10.0.2.2), its port 22 on the
#                    host's 127.0.0.1:PORT
#   --hostname NAME  the guest's host name (default blkgen-vm)
#   --append ARGS    extra kernel command line
#   --run CMD        run CMD in the guest instead of the suites and show
#                    its output (used by make bench)
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
# shellcheck source=tests/vm/kernel-lib.sh
. "$vm/kernel-lib.sh"

patterns=()
arch=amd64
mode='test'
results=
debug=0
icount=0
tool=0
ksft=0
minimal=0
part=
tag=
timeout_s=
cpus=
mem=2048
append=
export VM_TESTS='' VM_MODULES='' VM_FILES='' VM_CMD='' VM_EXES='' VM_NET=0 VM_HOSTNAME=blkgen-vm
net_port=
disk=
disk_opts=
export VM_NVME_ARGS="poll_queues=1"
export VM_NULLB_ARGS="nr_devices=1 submit_queues=2"

usage() {
	sed -n '4,/^set -u$/{/^set -u$/!p}' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) patterns+=("$2"); shift ;;
	--arch)
		case $2 in amd64|arm64) arch=$2 ;;
		*) echo "run.sh: --arch amd64 or arm64, not '$2'" >&2; exit 2 ;;
		esac
		shift ;;
	--debug-kernel) debug=1 ;;
	--icount) icount=1 ;;
	--tool-tests) tool=1 ;;
	--kselftest) ksft=1 ;;
	--minimal) minimal=1 ;;
	--no-zns) VM_ZNS=0 ;;
	--bare-dev) export VM_BARE_DEV=1 ;;
	--part)
		part=$2
		[[ $part =~ ^[1-9][0-9]*/[1-9][0-9]*$ ]] && [ "${part%/*}" -le "${part#*/}" ] ||
			{ echo "run.sh: --part N/M with 1 <= N <= M, not '$part'" >&2; exit 2; }
		shift ;;
	--tag) tag=$2; shift ;;
	--shell) mode=shell ;;
	--tests) VM_TESTS=$2; shift ;;
	--results) results=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--mem) mem=$2; shift ;;
	--nvme-args) VM_NVME_ARGS=$2; shift ;;
	--nullb-args) VM_NULLB_ARGS=$2; shift ;;
	--module) VM_MODULES="$VM_MODULES $2"; shift ;;
	--file) VM_FILES="$VM_FILES $2"; shift ;;
	--exe) VM_EXES="$VM_EXES $2"; shift ;;
	--net)
		[[ $2 =~ ^[1-9][0-9]*$ ]] && [ "$2" -lt 65536 ] ||
			{ echo "run.sh: --net PORT, a TCP port, not '$2'" >&2; exit 2; }
		net_port=$2 VM_NET=1 VM_MODULES="$VM_MODULES virtio_net"; shift ;;
	--hostname) VM_HOSTNAME=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--run) mode='cmd'; VM_CMD=$2; shift ;;
	--disk) disk=$2; shift ;;
	--disk-snapshot) disk=$2 disk_opts=,snapshot=on; shift ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown option $1" >&2; usage ;;
	esac
	shift
done
if [ "$minimal" = 1 ] && { [ "$ksft" = 0 ] || [ "$mode" != test ]; }; then
	echo "run.sh: --minimal goes with --kselftest, and without --shell or --run" >&2
	exit 2
fi
if [ "$arch" != amd64 ] && { [ "$debug" = 1 ] || [ ${#patterns[@]} -gt 0 ]; }; then
	echo "run.sh: --arch $arch boots its newest kernel: no --kernel or --debug-kernel" >&2
	exit 2
fi
export VM_MODE=$mode
export VM_MINIMAL=$minimal
export VM_ZNS=${VM_ZNS:-1}

record() {
	[ -n "$results" ] && echo "$1 $2" >> "$results"
	return 0
}

# fail_detail LOG "N NAME": what the runner printed on the console
# before "not ok N NAME" (since the result before it; its diff first,
# then the test's output): the first 25 lines but the description, each
# as "    | LINE"; check.sh's summary shows them under the FAIL line.
fail_detail() {
	local t=${2#* }
	awk -v want="not ok $2" -v desc="# ${t%% *}: " '
		/^(not )?ok [0-9]+ / {
			if (index($0, want) == 1) {
				for (i = 0; i < n && i < 25; i++)
					print "    | " buf[i]
				exit
			}
			n = 0; next
		}
		index($0, desc) == 1 { n = 0; next }
		/^# / && !/^# time: / { buf[n++] = substr($0, 3) }' "$1"
}

# Each boot: its name (the release, or debug-X.Y), the kernel release,
# image and build tree, and for the debug kernel (drivers built in) their
# parameters on the kernel command line.
names=() rels=() images=() kdirs=() modroots=() builtin=()
status=0
if [ "$arch" != amd64 ]; then
	if ! rel=$("$vm/arch-kernel.sh" "$arch"); then
		echo "run.sh: no $arch kernel (tests/vm/arch-kernel.sh failed)" >&2
		record FAIL "$arch: vm (no kernel)"
		exit 1
	fi
	names+=("$rel") rels+=("$rel") images+=("$(arch_image "$arch" "$rel")")
	kdirs+=("$(arch_kdir "$arch" "$rel")") modroots+=("$(arch_modroot "$arch" "$rel")") builtin+=(0)
elif [ ${#patterns[@]} -gt 0 ] || [ "$debug" = 0 ]; then
	mapfile -t found < <("$vm/kernels.sh" "${patterns[@]}")
	if [ ${#found[@]} -eq 0 ]; then
		echo "run.sh: no bootable kernel with headers matches '${patterns[*]:-}'" \
		     "(install linux-image-amd64 and linux-headers-amd64)" >&2
		record FAIL "vm: no kernel matching '${patterns[*]:-}'"
		exit 1
	fi
	for rel in "${found[@]}"; do
		names+=("$rel") rels+=("$rel") images+=("$(kernel_image "$rel")")
		kdirs+=("$(kernel_kdir "$rel")") modroots+=("$(kernel_modroot "$rel")") builtin+=(0)
	done
fi
if [ "$debug" = 1 ]; then
	# The last line of debug-kernel.sh's output: KERNEL=... KDIR=...
	line=$("$vm/debug-kernel.sh") && line=$(echo "$line" | tail -n 1)
	if [ $? -eq 0 ] && [[ $line == KERNEL=*\ KDIR=* ]]; then
		kdir=${line#* KDIR=}
		image=${line%% KDIR=*}
		rel=$(cat "$kdir/include/config/kernel.release")
		names+=("debug-$(echo "$rel" | cut -d . -f 1-2)") rels+=("$rel")
		images+=("${image#KERNEL=}") kdirs+=("$kdir") modroots+=(/) builtin+=(1)
	else
		echo "run.sh: debug kernel build failed" >&2
		record FAIL "debug: vm (debug kernel build)"
		status=1
	fi
fi
[ ${#names[@]} -gt 0 ] || exit 1
if [ "$mode" = shell ]; then
	names=("${names[-1]}") rels=("${rels[-1]}") images=("${images[-1]}")
	kdirs=("${kdirs[-1]}") modroots=("${modroots[-1]}") builtin=("${builtin[-1]}")
fi

# expected_skip NAME TEST REASON: TEST may skip for REASON on the boot
# NAME (tests/vm/expected-skips: "NAME-PATTERN TEST-PATTERN REASON-PATTERN
# # why" lines, shell patterns). Any other skip fails the run: a suite
# that skips is not a suite that passed.
expected_skip() {
	local pat tpat rpat
	[ -r "$vm/expected-skips" ] || return 1
	while read -r pat tpat rpat _; do
		case $pat in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254 # the list holds patterns
		case $1 in $pat) ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case $2 in $tpat) ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case $3 in $rpat) return 0 ;; esac
	done < "$vm/expected-skips"
	return 1
}

# builtin_params MODULE "k=v ...": the parameters on the kernel command line.
builtin_params() {
	local kv
	for kv in $2; do
		printf ' %s.%s' "$1" "$kv"
	done
}

# Made each time (make does nothing when it is up to date): a tool
# changed since its last build must not be tested as it was. For another
# architecture, cross-built against its guest's userland, as the
# collection's static one is.
make -s -C "$top/tools/blkgenctl" || exit 1
export VM_SYSROOT='' VM_BLKGENCTL='' VM_KTAP_DEV=/dev/ttyS1
if [ "$arch" != amd64 ]; then
	VM_SYSROOT=$(arch_sysroot "$arch")
	xprefix=$(kernel_cross "${kdirs[0]}" | sed -n 's/^CROSS_COMPILE=//p')
	make -s -C "$top/tools/blkgenctl" O="$top/build/$arch/blkgenctl" \
		CROSS_COMPILE="$xprefix" SYSROOT="$VM_SYSROOT" > /dev/null || exit 1
	VM_BLKGENCTL=$top/build/$arch/blkgenctl/blkgenctl
	# The virtio console (the virt machine has one serial port).
	VM_KTAP_DEV=/dev/hvc0
	export CROSS_COMPILE=$xprefix SYSROOT=$VM_SYSROOT
fi

test_timeout=${VM_TEST_TIMEOUT:-300}
user_tests=$VM_TESTS
user_files=$VM_FILES
# The timing tests (their requires() calls _have_icount) measure time and
# need QEMU's icount mode, where guest time is an instruction count: they
# are what an --icount boot runs, and what the other boots leave out.
timing_tests=$(cd "$top/tests" && grep -l '_have_icount' */[0-9][0-9][0-9] | tr '\n' ' ')
# The tool tests (a SCOPE=tool line) check blkgenctl over the module's
# interface, which no kernel version changes: they run once, where
# --tool-tests asks for them (make check: the newest Debian kernel's boot;
# the module's paths they take are the kernel tests', which the debug
# kernel runs, at a third of the debug kernel's time).
tool_tests=$(cd "$top/tests" && grep -l '^SCOPE=tool$' */[0-9][0-9][0-9] | tr '\n' ' ')
other_tests=$(cd "$top/tests" && for t in */[0-9][0-9][0-9]; do
	case " $timing_tests " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac
done)
kernel_tests=$(for t in $other_tests; do
	case " $tool_tests " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac
done)
# The tests whose paths no kernel version changes (a SCOPE=newest line:
# configfs parsing, results files, verification, replay's logic) run on
# the newest Debian kernel, the rt kernels (locks that sleep, threaded
# interrupts: every path is another there) and the debug kernel; an older
# generic Debian kernel's boot leaves them out (its version's paths,
# device open and claims, polling, faults and hotplug, are the other
# tests').
newest_rel=$("$vm/kernels.sh" | tail -n 1)
newest_tests=$(cd "$top/tests" && grep -l '^SCOPE=newest$' */[0-9][0-9][0-9] | tr '\n' ' ')
older_tests=$(for t in $kernel_tests; do
	case " $newest_tests " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac
done)
for i in "${!names[@]}"; do
	name=${names[$i]} rel=${rels[$i]}
	[ "$icount" = 1 ] && name=$name-icount
	[ -n "$part" ] && name=$name-p${part%/*}
	[ "$ksft" = 1 ] && name=$name-kselftest
	[ "$minimal" = 1 ] && name=$name-minimal
	[ -n "$tag" ] && name=$name-$tag
	out=$top/build/vm/$name
	mkdir -p "$out"
	log=$out/console.log
	cmdline="console=ttyS0 rdinit=/init panic=-1 oops=panic tsc=reliable loglevel=5"
	[ "$arch" = arm64 ] && cmdline="console=ttyAMA0 rdinit=/init panic=-1 oops=panic loglevel=5"
	boot_timeout=${timeout_s:-1200}
	smp=${cpus:-2}
	# 6.1 never brings up a second vCPU under icount's one TCG thread.
	if [ "$icount" = 1 ] && [ -z "$cpus" ]; then
		case $rel in 6.1.*) smp=1 ;; esac
	fi
	export VM_TEST_TIMEOUT=$test_timeout VM_KDIR='' VM_MODROOT=${modroots[$i]}
	if [ "$icount" != 1 ]; then
		# The tests' tracepoint on from boot (tracing itself off, init),
		# never turned on or off by a test: with a TCG thread per vCPU,
		# a kernel patching its text for a tracepoint raced the other
		# vCPU's translated code: 6.1's test process stuck 500 s in the
		# kernel as run/010 and zoned/007 turned it on (3 of some dozens
		# of boots), 6.12's "Oops: int3" in __schedule in run/006. At
		# boot one CPU runs. The icount boots (one TCG thread, never
		# seen there; their figures without the tracepoint's cost) turn
		# it on and off per test (tests/lib/rc: _biotrace_job).
		cmdline+=" trace_event=block:block_bio_queue"
	fi
	if [ "$icount" = 1 ]; then
		VM_TESTS=${user_tests:-$timing_tests}
		# Marks the boot for _have_icount (init's environment).
		cmdline+=" blkgen_vm_icount=1"
	elif [ "$tool" = 1 ]; then
		VM_TESTS=${user_tests:-$other_tests}
	elif [ "${builtin[$i]}" = 1 ]; then
		VM_TESTS=${user_tests:-$kernel_tests}
	elif [ "$rel" != "$newest_rel" ] && [ "$(kernel_flavour "$rel")" != rt ]; then
		VM_TESTS=${user_tests:-$older_tests}
	else
		VM_TESTS=${user_tests:-$kernel_tests}
	fi
	if [ -n "$part" ]; then
		VM_TESTS=$(echo "$VM_TESTS" | tr ' ' '\n' | grep . |
			awk -v n="${part%/*}" -v m="${part#*/}" '(NR - 1) % m == n - 1' | tr '\n' ' ')
	fi
	if [ "${builtin[$i]}" = 1 ]; then
		# KASAN, lockdep and kmemleak under TCG: 3 times longer.
		boot_timeout=${timeout_s:-3600}
		VM_TEST_TIMEOUT=$((test_timeout * 3))
		VM_KDIR=${kdirs[$i]}
		cmdline+="$(builtin_params null_blk "$VM_NULLB_ARGS")$(builtin_params nvme "$VM_NVME_ARGS")"
		# page_owner: pages counted per allocating call chain, for
		# faults/004, in the boot that runs it: it records a stack
		# trace for every page allocated (five fork-heavy tests took
		# 142 s with it, 116 s without).
		case " $VM_TESTS " in
		*" faults/004 "*|*" faults "*|*" faults/ "*) cmdline+=" page_owner=on" ;;
		esac
		# No ACPI in it (tests/vm/debug-kernel.config): its CPUs come
		# from the BIOS's MP table, which lists one CPU a package.
		smp="$smp,sockets=$smp,cores=1,threads=1"
	fi

	# One build of the module per kernel (build/kernels/RELEASE, the
	# debug kernel's by its build's key), whatever the boot: its test,
	# icount, kselftest and demo boots, and make check's module builds,
	# share it (build-module.sh builds there one at a time).
	modkey=${rels[$i]}
	[ "${builtin[$i]}" = 1 ] && modkey=debug-$(basename "$(dirname "${kdirs[$i]}")")
	if ! ko=$("$vm/build-module.sh" "${kdirs[$i]}" "$top/build/kernels/$modkey" "$out/module"); then
		echo "run.sh: $name: module build failed" >&2
		record FAIL "$name: vm"
		status=1
		continue
	fi
	# The bare submit/reap loop, the yardstick of bench/001, in icount boots.
	VM_FILES=$user_files
	if [ "$icount" = 1 ]; then
		if bare=$("$top/tests/bench/build-bare.sh" "${kdirs[$i]}" "$top/build/bench/$name"); then
			VM_FILES="$VM_FILES $bare:/blkgen/tests/bench/blkgen_bare.ko"
		fi
	fi
	# The kselftest install: the kernel's runner and the collection of
	# this boot's tests.
	VM_KSELFTEST=
	if [ "$ksft" = 1 ]; then
		rm -rf "$out/kselftest"
		# shellcheck disable=SC2086 # the tests, word by word
		if ! runner=$("$top/tests/kselftest-runner.sh") ||
		   ! cp -a "$runner" "$out/kselftest" ||
		   ! "$top/tests/kselftest-install.sh" "$out/kselftest" $VM_TESTS; then
			echo "run.sh: $name: kselftest install failed" >&2
			record FAIL "$name: vm"
			status=1
			continue
		fi
		VM_KSELFTEST=$out/kselftest
	fi
	export VM_KSELFTEST
	if ! "$vm/mkinitramfs.sh" "$rel" "$ko" "$out/root" "$out/initrd.cpio"; then
		echo "run.sh: $name: initramfs build failed" >&2
		record FAIL "$name: vm"
		status=1
		continue
	fi
	rm -f "$out/nvme.img" "$out/zns.img"
	truncate -s 1G "$out/nvme.img"
	truncate -s 64M "$out/zns.img"

	accel=(-accel tcg)
	# icount needs one TCG thread for all vCPUs; sleep=off lets an idle
	# guest's clock jump to its next timer, align=off never waits for
	# the host's clock: virtual time is the instruction count alone.
	[ "$icount" = 1 ] && accel=(-accel 'tcg,thread=single' -icount 'shift=0,sleep=off,align=off')
	qemu=(qemu-system-x86_64 -machine q35 "${accel[@]}" -cpu max)
	# arm64: the virt machine (PCIe, so the same NVMe drive), a Neoverse
	# N1 (Graviton 2, Ampere Altra: ARMv8.2, no pointer authentication
	# for TCG to emulate), the KTAP results on a virtio console.
	# shellcheck disable=SC2054 # QEMU's options hold commas
	[ "$arch" = arm64 ] &&
		qemu=(qemu-system-aarch64 -machine virt "${accel[@]}" -cpu neoverse-n1
		      -device virtio-serial-pci -chardev "file,id=ktap,path=$out/ktap.txt"
		      -device virtconsole,chardev=ktap)
	qemu+=(-smp "$smp" -m "$mem" -no-reboot
	      -kernel "${images[$i]}" -initrd "$out/initrd.cpio"
	      -append "$cmdline $append")
	if [ "$minimal" = 0 ]; then
		# Namespace 1 the drive tests write to, 2 (unless --no-zns) a
		# zoned one (ZNS): 16 zones of 4 MiB holding 3 MiB, 4 open and
		# active at most. 6.7+ scans namespaces in parallel: which is
		# nvme0n1 varies; tests find them by nsid (tests/lib/rc).
		qemu+=(-drive "file=$out/nvme.img,if=none,id=nvm,format=raw"
		       -device "nvme,id=nvme0,serial=blkgen0001,max_ioqpairs=4"
		       -device "nvme-ns,drive=nvm,bus=nvme0,nsid=1")
		[ "$VM_ZNS" = 0 ] ||
			qemu+=(-drive "file=$out/zns.img,if=none,id=zns,format=raw"
			       -device "nvme-ns,drive=zns,bus=nvme0,nsid=2,zoned=on,zoned.zone_size=4M,zoned.zone_capacity=3M,zoned.max_open=4,zoned.max_active=4")
	fi
	if [ -n "$disk" ]; then
		qemu+=(-drive "file=$disk,if=virtio,format=raw$disk_opts")
	fi
	if [ -n "$net_port" ]; then
		qemu+=(-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$net_port-:22"
		       -device "virtio-net-pci,netdev=n0")
	fi

	if [ "$mode" = shell ]; then
		exec "${qemu[@]}" -nographic
	fi

	echo "== $name: booting (log: ${log#"$top"/})"
	start=$(date +%s)
	if [ "$mode" = cmd ]; then
		timeout -k 10 "$boot_timeout" "${qemu[@]}" -display none -monitor none \
			-serial stdio < /dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" |
			grep --line-buffered -vE '^\[ *[0-9.]+\] ' | sed -u "s/^/[$name] /"
		grep -q '^blkgen-vm: command exited 0' "$log" || status=1
		# A kernel BUG/WARNING during the command fails it too.
		if "$vm/scan-log.sh" "$log" >&2; then
			echo "run.sh: $name: kernel problems in the log (${log#"$top"/})" >&2
			status=1
		fi
		continue
	fi
	# The KTAP results travel on a serial port of their own (the guest's
	# ttyS1), where kernel messages cannot break into them.
	ktap=$out/ktap.txt
	ktap_port=(-serial "file:$ktap")
	[ "$arch" = arm64 ] && ktap_port=()
	rm -f "$log.first"
	for attempt in 1 2; do
		rm -f "$ktap"
		rm -rf "$out/artifacts"
		timeout -k 10 "$boot_timeout" "${qemu[@]}" -display none -monitor none \
			-serial stdio "${ktap_port[@]}" < /dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" |
			grep --line-buffered -E '^(not )?ok [0-9]|^# |^blkgen-vm:|^\[ *[0-9.]+\] .*(BUG:|WARNING:|Oops|panic)' |
			sed -u "s/^/[$name] /"
		qrc=${PIPESTATUS[0]}
		# The kernel died before /init's first line, so before anything
		# of blkgen's ran: the emulator's fault (once, a double fault
		# with a garbled EFLAGS in the initramfs's unpacking, 6.12
		# under icount, beside a kernel build). Booted once more, said
		# here, the first log kept.
		if [ "$attempt" = 1 ] && ! grep -q '^blkgen-vm:' "$log" &&
		   grep -qE '^\[ *[0-9.]+\] .*(Oops|Kernel panic)' "$log"; then
			cp "$log" "$log.first"
			echo "[$name] the kernel died before /init ran: $(grep -m1 -E 'Oops|Kernel panic' "$log" | sed 's/^\[ *[0-9.]*\] //'); booting again (first log: ${log#"$top"/}.first)"
			continue
		fi
		break
	done
	touch "$ktap"
	sed -i 's/\r$//' "$ktap"
	# The kernel's runner reports "ok N selftests: blkgen: GROUP_NNN.sh",
	# the test's own KTAP nested under it, one "# " deeper: its results
	# become run_tests' (a skip with the reason its test gave), its
	# diagnostics one level up. The runner's own output is kept.
	if [ "$ksft" = 1 ]; then
		mv "$ktap" "$out/ktap-runner.txt"
		awk '
		/^# # SKIP [^ ]+: / { r = $0; sub(/^# # SKIP [^ ]+: /, "", r); t = $4; sub(/:$/, "", t); reason[t] = r; next }
		/^(not )?ok [0-9]+ selftests: blkgen: / {
			not = ($1 == "not"); n = not ? $3 : $2; f = not ? $6 : $5
			t = f; sub(/\.sh$/, "", t)
			if (match(t, /_[0-9][0-9][0-9]$/)) t = substr(t, 1, RSTART - 1) "/" substr(t, RSTART + 1)
			d = $0; if (!sub(/^[^#]*# /, "", d)) d = ""
			if (not) print "not ok " n " " t " # run_kselftest.sh: " d
			else if (d ~ /^SKIP/) print "ok " n " " t " # SKIP " reason[t]
			else print "ok " n " " t
			next
		}
		/^1\.\.[0-9]+$/ || /^# artifact/ || /^#\| / { print; next }
		/^# Bail out!/ { print substr($0, 3); next }
		/^# # Totals:/ { next }
		/^# # / { print substr($0, 3); next }
		' "$out/ktap-runner.txt" > "$ktap"
	fi
	# Each test's time (run_tests' "# time: TEST N s" lines), slowest
	# first, in times.txt beside the log; the boot's time, the tests' sum
	# and the slowest five on the console.
	sed -n 's/^# time: \([^ ]*\) \([0-9.]*\) s$/\2 \1/p' "$ktap" | sort -rn > "$out/times.txt"
	echo "== $name: finished in $(( $(date +%s) - start )) s;" \
		"tests $(awk '{ s += $1 } END { printf "%.0f", s }' "$out/times.txt") s;" \
		"slowest: $(head -n 5 "$out/times.txt" | awk '{ printf "%s%s %.0f s", (NR > 1 ? ", " : ""), $2, $1 }')"
	# Files the tests left for the host (tests/vm/init, BLKGEN_ARTIFACTS).
	mkdir -p "$out/artifacts"
	awk -v dir="$out/artifacts" '
		/^# artifact: [A-Za-z0-9._-]+$/ { f = dir "/" $3; printf "" > f; next }
		/^# artifact end$/ { if (f) close(f); f = ""; next }
		f && /^#\| / { print substr($0, 4) > f }' "$ktap"

	# Per-test results from the KTAP lines; a skip must be expected.
	skips=
	while read -r line; do
		t=$(echo "$line" | awk '{ print ($1 == "not") ? $4 : $3 }')
		case $line in
		"not ok "*)
			record FAIL "$name: $t"
			# What the runner printed of it (its diff), for a log
			# that keeps only the summary (CI's).
			[ -n "$results" ] && fail_detail "$log" "${line#not ok }" >> "$results"
			status=1 ;;
		"ok "*"# SKIP"*)
			if expected_skip "$name" "$t" "${line#*# SKIP }"; then
				record SKIP "$name: $t"
			else
				record FAIL "$name: $t (skipped: ${line#*# SKIP })"
				skips="$skips $t"
				status=1
			fi ;;
		"ok "*) record PASS "$name: $t" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ ' "$ktap")

	# The run as a whole: finished, every planned test reported, run_tests
	# content with it, and the kernel stayed quiet.
	why=
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$ktap" | head -n 1)
	nres=$(grep -cE '^(not )?ok [0-9]+ ' "$ktap")
	trc=$(sed -n 's/^blkgen-vm: run_tests exited \([0-9]*\)$/\1/p' "$log" | tail -n 1)
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		why="guest timed out after ${boot_timeout}s"
	elif [ -z "$trc" ]; then
		why="guest did not finish the tests (qemu exit $qrc)"
	elif [ "$nres" -eq 0 ]; then
		why="no test ran"
	elif [ "$nres" != "${plan:-none}" ]; then
		why="$nres results for a plan of ${plan:-none} tests"
	elif [ "$trc" != 0 ] && ! grep -q '^not ok ' "$ktap"; then
		why="run_tests exited $trc without a failed test"
	fi
	if grep -q '^Bail out!' "$ktap"; then
		why="${why:+$why; }$(grep -m1 '^Bail out!' "$ktap")"
	fi
	if [ -n "$skips" ]; then
		why="${why:+$why; }unexpected skips:$skips"
	fi
	if bad=$("$vm/scan-log.sh" "$log"); then
		why="${why:+$why; }kernel log: $(echo "$bad" | head -n 1)"
	fi
	# The debug kernel's kmemleak scanned after the tests (tests/vm/init).
	if [ "${builtin[$i]}" = 1 ] && [ -n "$trc" ] &&
	   ! grep -q '^blkgen-vm: kmemleak: scanned: ' "$log"; then
		why="${why:+$why; }kmemleak did not scan: $(grep -m1 '^blkgen-vm: kmemleak' "$log" || echo 'no kmemleak')"
	fi
	if [ -n "$why" ]; then
		echo "[$name] not ok: $why"
		record FAIL "$name: vm boot, run and power-off with a clean kernel log"
		status=1
	else
		record PASS "$name: vm boot, run and power-off with a clean kernel log"
	fi
done
exit $status
