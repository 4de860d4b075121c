#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build blkgen_bare.ko for the newest (or KERNEL=) kernel and
# run tests/bench/guest.sh in one VM boot. A benchmark: it prints figures
# and never fails for speed. Environment: KERNEL, BENCH_SECS, BENCH_ROUNDS;
# ICOUNT=1 boots in QEMU's icount mode, where a guest nanosecond is one
# instruction: the figures become instructions per I/O and repeat from
# boot to boot whatever the host's load (one round of 2 s is enough).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
icount=()
if [ "${ICOUNT:-0}" = 1 ]; then
	icount=(--icount)
	: "${BENCH_SECS:=2}" "${BENCH_ROUNDS:=1}"
fi
mapfile -t rels < <("$top/tests/vm/kernels.sh" ${KERNEL:+"$KERNEL"})
[ ${#rels[@]} -gt 0 ] || { echo "bench: no kernel matches '${KERNEL:-}'" >&2; exit 1; }
rel=${rels[-1]}
# shellcheck source=tests/vm/kernel-lib.sh
. "$top/tests/vm/kernel-lib.sh"
bare=$("$top/tests/bench/build-bare.sh" "$(kernel_kdir "$rel")" "$top/build/bench/$rel")
# fio's t/io_uring, if it can be fetched and built (cached after once).
tio=()
if t=$("$top/tests/bench/t-io-uring.sh"); then
	tio=(--file "$t:/blkgen/tests/bench/t_io_uring")
else
	echo "bench: running without fio's t/io_uring" >&2
fi
"$top/tests/vm/run.sh" --kernel "$rel" "${icount[@]}" "${tio[@]}" --timeout 1800 \
	--nullb-args "nr_devices=1 irqmode=0 submit_queues=2" \
	--file "$bare:/blkgen/tests/bench/blkgen_bare.ko" \
	--run "BENCH_SECS=${BENCH_SECS:-10} BENCH_ROUNDS=${BENCH_ROUNDS:-2} /blkgen/tests/bench/guest.sh"
