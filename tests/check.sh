#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh — blkgen's one test command (`make check`).
#
# Tiers, in order: install missing Debian packages (as root), build the
# tool, host unit tests under sanitizers, static checks (sparse,
# checkpatch --strict, shellcheck), the module built for every installed
# Debian kernel, then each kernel booted under QEMU running the in-VM
# suites (then booted again in QEMU's icount mode for the timing tests),
# the demo, and last the debug kernel (tests/vm/debug-kernel.sh: KASAN,
# lockdep, kmemleak; cached after its first build) booted the same two
# ways. Ends with "N passed, N failed, N skipped" and exits non-zero
# if anything failed.
#
# Environment: KERNELS="6.1 6.12" limits the kernels (default: all
# installed); VM=0 skips the VM tiers (quick host-only run);
# DEBUG_KERNEL=0 skips the debug kernel.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build
results=$top/build/check-results.txt
: > "$results"
read -r -a kpat <<< "${KERNELS:-}"
start=$(date +%s)

say() { printf '\n=== %s\n' "$*"; }

# step NAME CMD...: run CMD, record PASS/FAIL NAME, show the tail on failure.
step() {
	local name=$1 log
	shift
	log=$top/build/step.log
	if "$@" > "$log" 2>&1; then
		echo "PASS $name" | tee -a "$results"
	else
		echo "FAIL $name" | tee -a "$results"
		tail -n 40 "$log" | sed 's/^/    /'
	fi
}

say "dependencies"
if ! tests/install-deps.sh; then
	echo "FAIL dependencies" | tee -a "$results"
	echo "0 passed, 1 failed"
	exit 1
fi

say "build"
step "build: blkgenctl" make -s -C tools/blkgenctl

say "host unit tests (ASan, UBSan)"
fails_before=$(grep -c '^FAIL' "$results")
make -s -C tests/unit check 2>&1 | tee -a "$results"
rc=${PIPESTATUS[0]}
# A test that does not build records nothing: its make failing still fails.
if [ "$rc" -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
	echo "FAIL unit: make -C tests/unit check exited $rc" | tee -a "$results"
fi

say "static checks"
mapfile -t kernels < <(tests/vm/kernels.sh "${kpat[@]}")
newest=${kernels[-1]:-}
sparse_check() {
	local out
	out=$(tests/vm/build-module.sh "/lib/modules/$1/build" \
		"$top/build/sparse/$1" 2>&1 >/dev/null; \
		make -s -C "/lib/modules/$1/build" M="$top/build/sparse/$1" C=2 modules 2>&1) || {
		echo "$out"; return 1; }
	echo "$out"
	! echo "$out" | grep -E 'warning:|error:'
}
if [ -n "$newest" ]; then
	step "static: sparse (module, $newest)" sparse_check "$newest"
fi
kfiles=()
for f in module/*.[ch] uapi/linux/*.h; do
	case $f in *.mod.c) ;; *) kfiles+=("$f") ;; esac
done
step "static: checkpatch --strict (module, uapi)" tests/checkpatch.sh "${kfiles[@]}"
step "static: shellcheck (tests, scripts)" \
	shellcheck -S warning -x -s bash tests/run_tests tests/lib/rc tests/*.sh \
	tests/vm/*.sh tests/vm/init tests/unit/*.sh tests/bench/*.sh .ci/run \
	tests/*/[0-9][0-9][0-9]

say "module builds"
if [ ${#kernels[@]} -eq 0 ]; then
	echo "FAIL build: no kernel matches '${KERNELS:-}'" | tee -a "$results"
fi
for rel in "${kernels[@]}"; do
	step "build: blkgen.ko for $rel" tests/vm/build-module.sh \
		"/lib/modules/$rel/build" "$top/build/kernels/$rel"
done

if [ -n "$newest" ]; then
	step "install: make install, uninstall (DESTDIR, $newest)" \
		tests/install-check.sh "$newest"
fi

if [ "${VM:-1}" != 0 ]; then
	say "VM tier (QEMU TCG)"
	vmargs=()
	for rel in "${kernels[@]}"; do
		vmargs+=(--kernel "$rel")
	done
	if [ ${#kernels[@]} -gt 0 ]; then
		fails_before=$(grep -c '^FAIL' "$results")
		tests/vm/run.sh "${vmargs[@]}" --results "$results"
		rc=$?
		# A runner that broke without recording why still fails the run.
		if [ $rc -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
			echo "FAIL vm: tests/vm/run.sh exited $rc" | tee -a "$results"
		fi
		# The timing tests, in QEMU's icount mode (guest time is an
		# instruction count: the host's load does not move them).
		fails_before=$(grep -c '^FAIL' "$results")
		tests/vm/run.sh --icount "${vmargs[@]}" --results "$results"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
			echo "FAIL vm: tests/vm/run.sh --icount exited $rc" | tee -a "$results"
		fi
	fi
	# fio's own tool on the VM's blkgenctl run -o fio (ctl/007's files).
	if [ ${#kernels[@]} -gt 0 ]; then
		step "fio tools: fio_jsonplus_clat2csv on the VM's run -o fio" \
			tests/fio-vm-check.sh "$top/build/vm"
	fi
	# A real review's report (review/001's, the VM has no gnuplot) drawn
	# here and opened in headless Chromium.
	if [ ${#kernels[@]} -gt 0 ]; then
		step "review: the VM's review drawn and opened in Chromium" \
			tests/review-vm-check.sh "$top/build/vm"
	fi
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
	if [ -n "$newest" ]; then
		step "demo: make demo (short)" demo_check
	fi
	# make demo-review: the pm1743 suite's review in the VM, drawn here.
	demo_review_check() {
		local log=$top/build/demo-review-check.log
		if KERNEL=$newest tests/demo-review.sh > "$log" 2>&1 &&
		   [ "$(grep -c '<section class="workload"' build/demo-review/index.html)" -eq 9 ] &&
		   [ "$(grep -c '<svg' build/demo-review/index.html)" -eq 9 ] &&
		   grep -q '^| 4K random read (128) | [0-9,]* |' build/demo-review/summary.md &&
		   grep -q '^| [12] | Samsung PM1743 (published, StorageReview 2023) | 1,250,000 |' build/demo-review/vs-published/summary.md; then
			return 0
		fi
		tail -n 40 "$log"
		return 1
	}
	if [ -n "$newest" ]; then
		step "demo: make demo-review (pm1743, --quick)" demo_review_check
	fi
fi

if [ "${VM:-1}" != 0 ] && [ "${DEBUG_KERNEL:-1}" != 0 ]; then
	say "debug kernel tier (KASAN, lockdep, kmemleak; QEMU TCG)"
	step "build: debug kernel" tests/vm/debug-kernel.sh
	if grep -qx 'PASS build: debug kernel' "$results"; then
		fails_before=$(grep -c '^FAIL' "$results")
		tests/vm/run.sh --debug-kernel --results "$results"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
			echo "FAIL vm: tests/vm/run.sh --debug-kernel exited $rc" | tee -a "$results"
		fi
		fails_before=$(grep -c '^FAIL' "$results")
		tests/vm/run.sh --debug-kernel --icount --results "$results"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(grep -c '^FAIL' "$results")" -eq "$fails_before" ]; then
			echo "FAIL vm: tests/vm/run.sh --debug-kernel --icount exited $rc" | tee -a "$results"
		fi
	fi
fi

say "summary ($(( $(date +%s) - start )) s)"
grep -E '^(FAIL)' "$results"
pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
skip=$(grep -c '^SKIP' "$results")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
