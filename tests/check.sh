#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh — blkgen's one test command (`make check`).
#
# Tiers, in order: install missing Debian packages (as root), Debian's
# newest kernel from trixie-backports (tests/vm/newest-kernel.sh) and
# bookworm's arm64 kernel with armhf headers (tests/vm/arch-kernel.sh),
# in the background, build the tool, host unit tests under sanitizers,
# static checks (sparse, checkpatch --strict, shellcheck, ansible-lint),
# the module built for every kernel of the matrix (6.1, 6.12, 6.12 rt,
# the newest; tests/vm/kernels.sh) and for arm64, its 32-bit build
# refused; then the boots under QEMU, run by two
# lanes side by side from one queue, longest first: each kernel running
# its kernel tests (the newest through the kernel's kselftest runner,
# with the tool tests, SCOPE=tool, which run there only), 6.1 and the
# newest again in QEMU's icount mode for the timing tests, the arm64
# kernel (kselftest, in a guest of devtmpfs alone), the demos, the
# DKMS check, the install playbook on a bare Debian guest
# (tests/multihost/install.sh), and the debug kernel (tests/vm/debug-kernel.sh: KASAN,
# lockdep, kmemleak) in two boots of half its kernel tests each; after
# both lanes, alone, three guests
# of the newest kernel run by the Ansible playbook
# (tests/multihost/run.sh). The debug kernel is built (nice 19, unless
# cached) in the background from the moment the packages it needs are
# there, while the others are installed and the host tiers run; lane 1
# starts once the tool is built and takes boots once that build is done
# (both in build/check-lane1.log, shown when it ends); lane 2 is this
# shell once the host tiers are done. The debug kernel's boots wait for
# its build, the others for the host tiers. Last, the host checks of
# the files the VMs left. Each tier's time is printed as it ends and in
# the summary; each boot's tests' times are in build/vm/NAME/times.txt.
# Ends with "N passed, N failed, N skipped" and exits non-zero if
# anything failed.
#
# Environment: KERNELS="6.1 6.12-rt" limits the kernels (default: every
# generic one and the rt ones); VM=0 skips the VM tiers (quick host-only
# run);
# DEBUG_KERNEL=0 skips the debug kernel.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"
mkdir -p build
results=$top/build/check-results.txt
: > "$results"
read -r -a kpat <<< "${KERNELS:-}"
start=$(date +%s)

say() { printf '\n=== %s\n' "$*"; }

# tier NAME: a new tier begins; the one before it ends. Each tier's time
# is printed as it ends and again in the summary (build/check-times.txt).
times=$top/build/check-times.txt
: > "$times"
tier_name='' tier_start=''
tier() {
	local now
	now=$(date +%s)
	if [ -n "$tier_name" ]; then
		printf '%6d s  %s\n' $((now - tier_start)) "$tier_name" >> "$times"
		echo "--- $tier_name: $((now - tier_start)) s"
	fi
	tier_name=$1 tier_start=$now
	[ -n "$1" ] && say "$1"
	return 0
}

# vm_tier WHAT RUN.SH-ARGS...: boot under tests/vm/run.sh, its results
# appended; a runner that broke without recording why still fails.
vm_tier() {
	local what=$1 before rc
	shift
	before=$(grep -c '^FAIL' "$results")
	tests/vm/run.sh "$@" --results "$results"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$before" ]; then
		echo "FAIL vm: tests/vm/run.sh $what exited $rc" | tee -a "$results"
	fi
}

# step NAME CMD...: run CMD, record PASS/FAIL NAME, show the tail on failure.
step() {
	local name=$1 log
	shift
	log=$top/build/step${lane:-}.log
	if "$@" > "$log" 2>&1; then
		echo "PASS $name" | tee -a "$results"
	else
		echo "FAIL $name" | tee -a "$results"
		tail -n 40 "$log" | sed 's/^/    /'
	fi
}

# ready SPEC: a boot of the queue may start now: the debug kernel's when
# it is built, the others when the host tiers are done (the module
# builds, the demos and the multihost guests share build/kernels/RELEASE
# with them).
ready() {
	case $1 in
	debug*) [ -e "$top/build/check-debug.ready" ] ;;
	*) [ -e "$top/build/check-host.done" ] ;;
	esac
}

# claim: take the first boot of the queue that may start now and print
# it. Returns 1 when the queue is empty and whole (the kernels' boots are
# added once they are known), 2 when what is left must wait.
claim() {
	local spec rest=() got='' whole=0
	exec 9> "$queue.lock"
	flock 9
	while read -r spec; do
		if [ -e "$top/build/check-debug.failed" ] && [[ $spec == debug* ]]; then
			continue	# no debug kernel: its boots are gone
		fi
		if [ -z "$got" ] && ready "$spec"; then
			got=$spec
		else
			rest+=("$spec")
		fi
	done < "$queue"
	if [ ${#rest[@]} -gt 0 ]; then printf '%s\n' "${rest[@]}"; fi > "$queue"
	# Whole or not, seen under the lock (lane 0 adds the rest under it).
	[ -e "$queue.whole" ] && whole=1
	exec 9>&-
	[ -n "$got" ] && { echo "$got"; return 0; }
	[ ${#rest[@]} -eq 0 ] && [ "$whole" = 1 ] && return 1
	return 2
}

# boot SPEC: one boot of the queue, a tier of its own. The kernels'
# names (kernels, newest, arm64) are lane 0's, in build/check-vars.sh
# once known (lane 1 starts before).
boot() {
	local rel
	if [ -s "$top/build/check-vars.sh" ]; then
		# shellcheck source=/dev/null
		. "$top/build/check-vars.sh"
	fi
	case $1 in
	"debug "*)
		tier "debug kernel tier, part ${1#debug } (KASAN, lockdep, kmemleak; QEMU TCG)"
		vm_tier "--debug-kernel --part ${1#debug }" --debug-kernel --part "${1#debug }" ;;
	debug-icount)
		tier "debug kernel tier, icount (timing tests)"
		vm_tier "--debug-kernel --icount" --debug-kernel --icount ;;
	"tcg "*)
		rel=${1#tcg }
		tier "VM tier: $rel (QEMU TCG)"
		# The tool tests run once, on the newest Debian kernel, which
		# runs its tests as a kselftest collection with the kernel's
		# own runner (the proof that a test farm can:
		# Documentation/testing.rst).
		if [ "$rel" = "$newest" ]; then
			vm_tier "--kernel $rel --kselftest --tool-tests" --kernel "$rel" --kselftest --tool-tests
		else
			vm_tier "--kernel $rel" --kernel "$rel"
		fi ;;
	"icount "*)
		# The timing tests, in QEMU's icount mode (guest time is an
		# instruction count: the host's load does not move them).
		rel=${1#icount }
		tier "VM tier: $rel, icount (timing tests)"
		vm_tier "--kernel $rel --icount" --kernel "$rel" --icount ;;
	"minimal "*)
		# The collection in a guest of busybox and bash alone (issue
		# 25): what it needs travels inside it, what it lacks is a
		# skip with the reason. A test of each kind.
		rel=${1#minimal }
		tier "VM tier: $rel, kselftest in a minimal guest"
		vm_tier "--kernel $rel --kselftest --minimal" --kernel "$rel" --kselftest --minimal \
			--tests "$minimal_tests" ;;
	arm64)
		# As a farm's guest: devtmpfs alone, no /dev/fd or /dev/std*
		# links (the collection makes what the runner needs).
		tier "VM tier: $arm64 (QEMU TCG, aarch64; kselftest, a bare /dev)"
		vm_tier "--arch arm64 --kselftest --bare-dev" --arch arm64 --kselftest --bare-dev ;;
	arm64-icount)
		tier "VM tier: $arm64, icount ($arm64_icount_tests)"
		vm_tier "--arch arm64 --icount" --arch arm64 --icount --tests "$arm64_icount_tests" ;;
	multihost)
		tier "multihost: three VMs started at one instant by blkgen.multihost.run (alone)"
		multihost_check ;;
	install)
		tier "multihost install: blkgen.multihost.install on a bare Debian guest"
		install_check ;;
	dkms)
		tier "DKMS across a kernel upgrade (trixie build root)"
		if [ -s build/newest-kernel.prev ]; then
			step "dkms: make dkms-install, then the newest kernel's headers: built for it" \
				tests/dkms-check.sh "$(cat build/newest-kernel.rel)" "$(cat build/newest-kernel.prev)"
		else
			echo "SKIP dkms: no kernel before the newest in trixie-backports (build/newest-kernel.log)" | tee -a "$results"
		fi ;;
	demos)
		tier "demos"
		step "demo: make demo (short)" demo_check
		step "demo: make demo-review (pm1743, --quick)" demo_review_check ;;
	esac
}

# lane2: boots from the queue until it is empty.
lane2() {
	local spec rc
	while :; do
		spec=$(claim)
		rc=$?
		case $rc in
		0) boot "$spec"
		   # Its end, for the account of every queued boot.
		   echo "$spec" >> "$top/build/check-booted.txt" ;;
		1) break ;;
		*) sleep 5 ;;	# the debug kernel's build, the host tiers, or the kernels
		esac
	done
}

# debug_build: the debug kernel's build, in the background from the
# start (its results and times are lane 1's, in files of their own,
# joined to the others' at the end).
debug_build() {
	results=$top/build/check-results-lane1.txt
	times=$top/build/check-times-lane1.txt
	tier_name=''
	tier "debug kernel build (nice 19)"
	if nice -n 19 tests/vm/debug-kernel.sh > build/debug-kernel.log 2>&1; then
		echo "PASS build: debug kernel" | tee -a "$results"
		tail -n 1 build/debug-kernel.log
		touch build/check-debug.ready
	else
		echo "FAIL build: debug kernel" | tee -a "$results"
		tail -n 40 build/debug-kernel.log | sed 's/^/    /'
		touch build/check-debug.failed
	fi
	tier ""
}

# lane1: boots from the queue once the debug kernel's build is done (the
# build has this lane's CPU until then).
lane1() {
	results=$top/build/check-results-lane1.txt
	times=$top/build/check-times-lane1.txt
	tier_name=''
	while [ "$debug" = 1 ] && [ ! -e build/check-debug.ready ] &&
	      [ ! -e build/check-debug.failed ]; do
		sleep 5
	done
	lane2
	tier ""
}

# tests/multihost/run.sh: its checks' results, and a failure of its own
# that recorded none still fails.
multihost_check() {
	local before
	before=$(grep -c '^FAIL' "$results")
	if ! KERNEL=$newest tests/multihost/run.sh --no-install --results "$results" > build/multihost.log 2>&1; then
		tail -n 30 build/multihost.log | sed 's/^/    /'
		if [ "$(grep -c '^FAIL' "$results")" -eq "$before" ]; then
			echo "FAIL multihost: tests/multihost/run.sh failed (build/multihost.log)" | tee -a "$results"
		fi
	fi
	grep -E '^multihost: (ok|FAIL|SKIP|blkgen-.: the witness)' build/multihost.log
}

# tests/multihost/install.sh, as multihost_check runs run.sh.
install_check() {
	local before
	before=$(grep -c '^FAIL' "$results")
	if ! KERNEL=$newest tests/multihost/install.sh --results "$results" > build/multihost-install.log 2>&1; then
		tail -n 30 build/multihost-install.log | sed 's/^/    /'
		if [ "$(grep -c '^FAIL' "$results")" -eq "$before" ]; then
			echo "FAIL multihost-install: tests/multihost/install.sh failed (build/multihost-install.log)" | tee -a "$results"
		fi
	fi
	grep -E '^multihost-install: (ok|FAIL)' build/multihost-install.log
}

# The README's first command, shortened: corners of 1 s, a 2-point curve.
demo_check() {
	local log=$top/build/demo-check.log
	if DEMO_SECS=1 DEMO_POINTS=50,100 KERNEL=$newest tests/demo.sh > "$log" 2>&1 &&
	   grep -q 'blkgen demo: summary' "$log" &&
	   [ "$(grep -cE '\] (4k-random|128k-seq)-(read|write) +[0-9]+ ' "$log")" -eq 4 ] &&
	   [ -s build/demo/curve.png ]; then
		return 0
	fi
	tail -n 40 "$log"
	return 1
}

# make demo-review: the pm1743 suite's review in the VM (0.5 s points:
# 65 s against 115 at 1 s, its 21 workloads), drawn here, and
# compared with the review's published figures: all 21 paired (none "not
# shared"), each with its outstanding I/Os by IOPS x latency.
demo_review_check() {
	local log=$top/build/demo-review-check.log
	if DEMO_POINT_SECS=0.5 KERNEL=$newest tests/demo-review.sh > "$log" 2>&1 &&
	   [ "$(grep -c '<section class="workload"' build/demo-review/index.html)" -eq 21 ] &&
	   [ "$(grep -c '<svg' build/demo-review/index.html)" -eq 21 ] &&
	   grep -q '^| 4K random read (128) | [0-9,]* |' build/demo-review/summary.md &&
	   grep -q "^| Workload | Peak IOPS | .* | Reviews' reading: highest point that kept up | its average latency |" build/demo-review/summary.md &&
	   grep -q '^| [12] | Samsung PM1743 (published, StorageReview 2023) | 1,250,000 | .* | 269 (IOPS x latency; 128 printed) | the review'"'"'s peak, as printed |$' build/demo-review/vs-published/summary.md &&
	   [ "$(grep -c '^| [12] | Samsung PM1743 (published, StorageReview 2023) | .* (IOPS x latency[;)]' build/demo-review/vs-published/summary.md)" -eq 21 ] &&
	   ! grep -q '^## Not shared' build/demo-review/vs-published/summary.md; then
		return 0
	fi
	tail -n 40 "$log"
	return 1
}

# deps [SET]: install-deps.sh, or the run ends here.
deps() {
	if ! tests/install-deps.sh "$@"; then
		echo "FAIL dependencies" | tee -a "$results"
		echo "0 passed, 1 failed"
		exit 1
	fi
}

debug=0
[ "${DEBUG_KERNEL:-1}" != 0 ] && [ "${VM:-1}" != 0 ] && debug=1
rm -f build/check-host.done build/check-debug.ready build/check-debug.failed
: > build/check-results-lane1.txt
: > build/check-times-lane1.txt
: > build/check-lane1.log
build_pid=
if [ $debug = 1 ]; then
	tier "dependencies: the debug kernel's"
	deps debug-kernel
	# Its build, the longest step, from now: beside the other packages'
	# install (the network's time more than the CPU's) and the host
	# tiers. Stopped with check.sh (its own session).
	setsid bash -c "$(declare -f); $(declare -p top); debug_build" \
		>> build/check-lane1.log 2>&1 &
	build_pid=$!
	trap 'pkill -s "$build_pid"' EXIT
	trap 'exit 130' INT TERM
fi
tier "dependencies"
deps
# Debian's newest kernel (trixie-backports' newest, tests/vm/newest-kernel.sh:
# unpacked, with a trixie build root for its gcc-14; about 90 s when not
# cached), in the background until the boots' queue is made.
# The release before it too, and its headers' packages (the DKMS check's
# upgrade), so that the run looks Debian up once.
newest_pid=
rm -f build/newest-kernel.rel build/newest-kernel.prev
newest_kernel() {
	local rel prev
	rel=$(timeout 900 tests/vm/newest-kernel.sh) || return 1
	echo "$rel" > build/newest-kernel.rel
	if prev=$(timeout 300 tests/vm/newest-kernel.sh --previous) &&
	   timeout 300 tests/vm/newest-kernel.sh --headers-debs "$prev" > /dev/null; then
		echo "$prev" > build/newest-kernel.prev
	fi
}
# Debian's arm64 kernel with an arm64 guest userland, and a 32-bit (armhf)
# kernel's headers (tests/vm/arch-kernel.sh: apt of its own, nothing
# installed here; about a minute when not cached), beside it.
arch_pid=
rm -f build/arm64-kernel.rel build/armhf-kernel.rel
arch_kernels() {
	timeout 900 tests/vm/arch-kernel.sh arm64 > build/arm64-kernel.rel || rm -f build/arm64-kernel.rel
	timeout 600 tests/vm/arch-kernel.sh --headers armhf > build/armhf-kernel.rel || rm -f build/armhf-kernel.rel
	[ -s build/arm64-kernel.rel ] && [ -s build/armhf-kernel.rel ]
}
if [ "$(id -u)" -eq 0 ]; then
	newest_kernel > build/newest-kernel.log 2>&1 &
	newest_pid=$!
	arch_kernels > build/arch-kernel.log 2>&1 &
	arch_pid=$!
else
	echo "SKIP newest kernel: not root (tests/vm/newest-kernel.sh needs apt-get and chroot)" | tee -a "$results"
	echo "SKIP arm64 and armhf kernels: not root (tests/vm/arch-kernel.sh needs apt-get)" | tee -a "$results"
fi

tier "build"
step "build: blkgenctl" make -s -C tools/blkgenctl

# The boots' queue and lane 1 start now, once the tool is built (each
# boot makes it again: make would run twice in one directory): the debug
# kernel's boots, which wait for its build and for nothing of lane 0's,
# beside the host unit tests, which take one CPU of two (they waited for
# the unit tests until stop 47: 211 s of a CPU unused); the other boots
# join the queue once the kernels are known (below). No boot's files
# from an earlier run (the host checks read them).
queue=$top/build/check-queue
# The minimal guest's tests: two that pass on null_blk and configfs, one
# with the collection's own blkgenctl, and one that lacks each of
# blktrace, device-mapper, the NVMe drive and KUnit.
minimal_tests="configfs/005 run/001 ctl/001 run/005 faults/001 safety/003 module/004"
# The arm64 kernel's timing tests (tests/vm/run.sh --arch arm64 --icount
# --tests "..." by hand; the queue's arm64-icount entry): the fast path's
# cost against the bare loop with the generic timer's counter,
# verification's with the CRC32 instructions (bench/001, bench/002), the
# counter's latencies against ktime's (results/002) and start_at's first
# I/O (sync/002).
arm64_icount_tests="bench/001 bench/002 results/002 sync/002"
lane1_pid=
if [ "${VM:-1}" != 0 ]; then
	rm -rf build/vm
	rm -f "$queue.whole" build/check-vars.sh build/check-queue.planned
	: > build/check-booted.txt
	{
		[ $debug = 1 ] && echo "debug 1/2"
		[ $debug = 1 ] && echo "debug 2/2"
	} > "$queue"
	setsid bash -c "$(declare -f); $(declare -p top debug queue minimal_tests arm64_icount_tests); lane=1; lane1" \
		>> build/check-lane1.log 2>&1 &
	lane1_pid=$!
	echo "lane 1 (the debug kernel's build, then boots): build/check-lane1.log"
	# Stopped with check.sh: their own sessions, make's jobs, QEMU and all
	# (timeout(1) puts QEMU in a process group of its own, which a kill of
	# the lane's group missed; an unfinished build is never taken for a
	# finished one).
	trap 'pkill -s "$lane1_pid"; [ -z "$build_pid" ] || pkill -s "$build_pid"' EXIT
	trap 'exit 130' INT TERM
fi

tier "host unit tests (ASan, UBSan)"
fails_before=$(grep -c '^FAIL' "$results")
make -s -C tests/unit check 2>&1 | tee -a "$results"
rc=${PIPESTATUS[0]}
# A test that does not build records nothing: its make failing still fails.
if [ "$rc" -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
	echo "FAIL unit: make -C tests/unit check exited $rc" | tee -a "$results"
fi

if [ -n "$newest_pid" ]; then
	if wait "$newest_pid"; then
		echo "PASS newest kernel: $(cat build/newest-kernel.rel) from trixie-backports, unpacked, with its build root" | tee -a "$results"
	else
		echo "FAIL newest kernel: tests/vm/newest-kernel.sh (build/newest-kernel.log)" | tee -a "$results"
		tail -n 20 build/newest-kernel.log | sed 's/^/    /'
	fi
fi
arm64=
if [ -n "$arch_pid" ]; then
	if wait "$arch_pid"; then
		arm64=$(cat build/arm64-kernel.rel)
		echo "PASS arm64 kernel: $arm64 and an arm64 guest userland; armhf headers: $(cat build/armhf-kernel.rel)" | tee -a "$results"
	else
		echo "FAIL arm64 and armhf kernels: tests/vm/arch-kernel.sh (build/arch-kernel.log)" | tee -a "$results"
		tail -n 20 build/arch-kernel.log | sed 's/^/    /'
		arm64=$(cat build/arm64-kernel.rel 2>/dev/null)
	fi
fi
# The kernels: each generic one (Debian's installed 6.1 and 6.12, the
# newest of trixie-backports) and, unless KERNELS chooses, the rt ones;
# the newest is the newest generic one. The module's host-side checks
# (sparse, kernel-doc, make install) take the newest installed on this
# machine, whose build is the host's own compiler's.
mapfile -t kernels < <({ tests/vm/kernels.sh "${kpat[@]}"
	[ ${#kpat[@]} -eq 0 ] && tests/vm/kernels.sh rt; } | sort -V)
newest=$(tests/vm/kernels.sh "${kpat[@]}" | tail -n 1)
newest_host=
for rel in "${kernels[@]}"; do
	kernel_unpacked "$rel" || [ -n "$(kernel_flavour "$rel")" ] || newest_host=$rel
done
echo "kernels: ${kernels[*]:-none} (newest: ${newest:-none})"

# The rest of the boots' queue, now that the kernels are known, longest
# first (measured times in Documentation/testing.rst: CI's run of stop 46
# had the newest kernel's 849 s boot and the arm64 one's 415 s late in
# the queue, and one lane waiting on the other for 37 s at the end): the
# debug kernel's first part, the newest kernel's whole suite (the tool
# tests and kselftest besides), the debug kernel's second part, arm64,
# then the other kernels (the rt flavour first, its boot the longest of
# them). The debug kernel's parts are there already (above); those lane 1
# has taken stay taken.
if [ "${VM:-1}" != 0 ]; then
	{
		[ $debug = 1 ] && echo "debug 1/2"
		[ -n "$newest" ] && echo "tcg $newest"
		[ $debug = 1 ] && echo "debug 2/2"
		# The install playbook on a bare Debian guest of the newest
		# kernel, 534 s alone, 690 beside a boot; longer than
		# arm64's, so before it (tests/multihost/install.sh: its root made
		# from the trixie build root, where that kernel's headers are).
		[ -s build/newest-kernel.rel ] && [ "$(cat build/newest-kernel.rel)" = "$newest" ] && echo "install"
		[ -n "$arm64" ] && echo "arm64"
		for rel in "${kernels[@]}"; do
			[ "$rel" != "$newest" ] && [ "$(kernel_flavour "$rel")" = rt ] && echo "tcg $rel"
		done
		for rel in "${kernels[@]}"; do
			[ "$rel" != "$newest" ] && [ "$(kernel_flavour "$rel")" != rt ] && echo "tcg $rel"
		done
		# Not the debug kernel's icount boot (make check's time: 338 s
		# of a lane; its timing assertions are figures there, and the
		# paths the timing tests take run under its checkers in its
		# other boots' rate, replay and start_at tests);
		# tests/vm/run.sh --debug-kernel --icount runs it by hand.
		# The timing tests on the floor and the newest kernel: 6.12's
		# compat paths are 6.1's (hrtimer_init(), ktime_get_snapshot()),
		# 7.x's the others. Not the rt kernel's: its whole suite runs in
		# its TCG boot, its timing under icount is left out for make
		# check's time.
		for rel in "${kernels[@]}"; do
			[ "$(kernel_flavour "$rel")" = rt ] && continue
			[ "$rel" = "${kernels[0]}" ] || [ "$rel" = "$newest" ] || continue
			echo "icount $rel"
		done
		# Debian's arm64 kernel (above): its kselftest collection
		# through the kernel's runner (Documentation/testing.rst says
		# which tests). Its icount boot (the counter's and the CRC's
		# costs and latencies: arm64_icount_tests) by hand, for make
		# check's time (197 s of a lane).
		[ -n "$newest" ] && echo "demos"
		[ -n "$newest" ] && echo "minimal $newest"
		# DKMS across a kernel upgrade in the build root's overlay.
		[ -s build/newest-kernel.rel ] && [ "$(cat build/newest-kernel.rel)" = "$newest" ] && echo "dkms"
	} > "$queue.all"
	declare -p kernels newest arm64 |
		sed 's/^declare -- /declare -g /; t; s/^declare -\([a-zA-Z]*\) /declare -g\1 /' > build/check-vars.sh.tmp &&
		mv build/check-vars.sh.tmp build/check-vars.sh
	# One change under the queue's lock: what lane 1 has not taken of
	# the debug kernel's, and the rest; then the queue is whole.
	(
		flock 9
		grep -vxF -f <(grep '^debug' "$queue.all" | grep -vxF -f "$queue") "$queue.all" > "$queue.new"
		mv "$queue.new" "$queue"
		touch "$queue.whole"
		mv "$queue.all" build/check-queue.planned
	) 9> "$queue.lock"
fi

tier "static checks"
sparse_check() {
	local out
	out=$(tests/vm/build-module.sh "/lib/modules/$1/build" \
		"$top/build/sparse/$1" 2>&1 >/dev/null; \
		make -s -C "/lib/modules/$1/build" M="$top/build/sparse/$1" C=2 modules 2>&1) || {
		echo "$out"; return 1; }
	echo "$out"
	! echo "$out" | grep -E 'warning:|error:'
}
if [ -n "$newest_host" ]; then
	step "static: sparse (module, $newest_host)" sparse_check "$newest_host"
fi
kfiles=()
for f in module/*.[ch] uapi/linux/*.h; do
	case $f in *.mod.c) ;; *) kfiles+=("$f") ;; esac
done
step "static: checkpatch --strict (module, uapi)" tests/checkpatch.sh "${kfiles[@]}"
if [ -n "$newest_host" ]; then
	# kernel-doc comments that name every parameter, as the kernel's own
	step "static: kernel-doc (module, uapi)" \
		"/lib/modules/$newest_host/build/scripts/kernel-doc" -Werror -none "${kfiles[@]}"
fi
step "static: shellcheck (tests, scripts)" \
	shellcheck -S warning -x -s bash tests/run_tests tests/lib/rc tests/*.sh \
	tests/vm/*.sh tests/vm/init tests/unit/*.sh tests/bench/*.sh .ci/run \
	tests/multihost/*.sh tests/*/[0-9][0-9][0-9]
# The Ansible collection, by Debian's ansible-lint (its production profile).
ansible_lint() { (cd ansible && ansible-lint --nocolor); }
step "static: ansible-lint (ansible/)" ansible_lint
# The collection as built and installed, by ansible-test sanity (its
# offline tests).
step "static: ansible-test sanity (the collection, installed)" tests/ansible-sanity.sh

tier "module builds"
# build_check REL: blkgen.ko for REL with its own compiler, and not a
# warning (the module's Kbuild has -Werror; the linker's and modpost's
# warnings are not errors).
build_check() {
	build_check_dir "$(kernel_kdir "$1")" "$top/build/kernels/$1"
}
# build_check_dir KDIR OUT: the same for a build tree KDIR. From clean:
# a build with nothing to do prints no warning (the boots of this kernel,
# run by hand before, share OUT).
build_check_dir() {
	local out
	rm -rf "$2"
	out=$(tests/vm/build-module.sh "$1" "$2" 2>&1 >/dev/null) || {
		echo "$out"; return 1; }
	echo "$out"
	! echo "$out" | grep -iE 'warning'
}
if [ ${#kernels[@]} -eq 0 ]; then
	echo "FAIL build: no kernel matches '${KERNELS:-}'" | tee -a "$results"
fi
for rel in "${kernels[@]}"; do
	step "build: blkgen.ko for $rel (no warning)" build_check "$rel"
done
if [ -n "$arm64" ]; then
	step "build: blkgen.ko for $arm64 (aarch64-linux-gnu-gcc, no warning)" \
		build_check_dir "$(arch_kdir arm64 "$arm64")" "$top/build/kernels/$arm64"
fi
# 32-bit: refused by name (module/Kbuild), not a compile error.
refused_32bit() {
	local out
	if out=$(tests/vm/build-module.sh "$1" "$top/build/kernels/32bit" 2>&1); then
		echo "$out"; echo "a 32-bit kernel's build succeeded"; return 1
	fi
	echo "$out"
	echo "$out" | grep -q 'is a 32-bit kernel .*blkgen builds for 64-bit kernels only'
}
if [ -s build/armhf-kernel.rel ]; then
	rel=$(cat build/armhf-kernel.rel)
	step "build: $rel (32-bit) refused by name" refused_32bit "$(arch_kdir armhf "$rel")"
fi

if [ -n "$newest_host" ]; then
	step "install: make install, uninstall (DESTDIR, $newest_host)" \
		tests/install-check.sh "$newest_host"
	# The collection in the kselftest tree's form, copied into
	# linux-source-6.12 and installed by its own make.
	step "kselftest: tools/testing/selftests/blkgen in linux-source-6.12, make TARGETS=blkgen install ($newest_host)" \
		tests/kselftest-tree-check.sh "$newest_host"
fi

if [ "${VM:-1}" != 0 ]; then
	touch build/check-host.done
	lane=2 lane2
	tier "waiting for lane 1"
	wait "$lane1_pid"
	lane1_rc=$?
	trap - EXIT
	sed 's/^/[lane 1] /' build/check-lane1.log
	cat build/check-results-lane1.txt >> "$results"
	sed 's/  /  lane 1: /' build/check-times-lane1.txt >> "$times"
	[ "$lane1_rc" = 0 ] || echo "FAIL lane 1: exited $lane1_rc" | tee -a "$results"
	step "check: every queued boot reported (lane 1's and lane 2's)" \
		tests/check-boots.sh build/check-queue.planned build/check-booted.txt \
		"$([ -e build/check-debug.failed ] && echo 1 || echo 0)"
	# Alone: it checks each guest's first I/O within 100 ms of start_at,
	# and a guest's clock runs on while the host has its vCPU off a core
	# (beside other boots: 5.8 ms, once 67 ms). Its guests are the
	# install test's host (skipped, saying so, when that failed).
	[ -n "$newest" ] && boot multihost
fi

if [ "${VM:-1}" != 0 ] && [ ${#kernels[@]} -gt 0 ]; then
	tier "host checks of the VMs' files"
	# fio's own tool on the VM's blkgenctl run -o fio (ctl/007's files).
	step "fio tools: fio_jsonplus_clat2csv on the VM's run -o fio" \
		tests/fio-vm-check.sh "$top/build/vm"
	# A real review's report (review/001's, the VM has no gnuplot) drawn
	# here and opened in headless Chromium.
	step "review: the VM's review drawn and opened in Chromium" \
		tests/review-vm-check.sh "$top/build/vm"
fi
tier ""

say "summary ($(( $(date +%s) - start )) s)"
cat "$times"
grep -E '^(FAIL|    \| )' "$results"
pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
skip=$(grep -c '^SKIP' "$results")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
