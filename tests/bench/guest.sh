#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bench, run inside the VM (tests/bench/run.sh boots it): 4 KiB random
# reads on null_blk (irqmode=0) from CPU 0, SECS seconds each, best of
# ROUNDS. blkgen at depth 1 and 32; fio io_uring (fixed buffers,
# registered files, batched submission), fio's t/io_uring when run.sh could
# build it, and fio libaio at the same depths; the bare in-kernel loop (blkgen_bare.ko); blkgen with two workers; blkgen
# at depth 32 with latency recording off (module parameter latency=0);
# then blkgen on the emulated NVMe drive at depth 1 with interrupts and
# polled (nvme.poll_queues), IOPS and mean latency.
# Prints "bench: NAME IOPS" lines, then the ratios.
set -u
dev=${BENCH_DEV:-/dev/nullb0}
secs=${BENCH_SECS:-10}
rounds=${BENCH_ROUNDS:-2}
here=$(cd "$(dirname "$0")" && pwd)
cfs=/sys/kernel/config/blkgen
declare -A best

record() {
	local name=$1 iops=$2
	echo "bench: round $3 $name $iops"
	if [ -z "${best[$name]:-}" ] || [ "$iops" -gt "${best[$name]}" ]; then
		best[$name]=$iops
	fi
}

# blkgen_iops CPUS DEPTH [DEVICE [POLLED]]: IOPS; the mean latency in
# ns goes to $work/mean.
blkgen_iops() {
	local cpus=$1 depth=$2 reads sum
	mkdir $cfs/b
	echo "$cpus" > $cfs/b/cpus
	echo 1000 > $cfs/b/warmup_ms
	echo $((secs * 1000)) > $cfs/b/duration_ms
	mkdir $cfs/b/workloads/w
	echo "${3:-$dev}" > $cfs/b/workloads/w/device
	echo "$depth" > $cfs/b/workloads/w/depth
	echo "${4:-0}" > $cfs/b/workloads/w/polled
	echo start > $cfs/b/state
	while [ "$(cat $cfs/b/state)" = running ]; do sleep 0.2; done
	reads=$(cat /sys/kernel/blkgen/b/w/read_ios)
	sum=$(od -An -t u8 -j 24 -N 8 /sys/kernel/blkgen/b/w/read_lat_hist | tr -d ' ')
	echo $((sum / (reads > 0 ? reads : 1))) > "$work/mean"
	rmdir $cfs/b/workloads/w $cfs/b
	echo $((reads / secs))
}

fio_iops() {
	local engine=$1 depth=$2 extra=()
	[ "$engine" = io_uring ] && extra=(--fixedbufs=1 --registerfiles=1)
	fio --name=bench --filename="$dev" --direct=1 --rw=randread --bs=4k \
		--ioengine="$engine" "${extra[@]}" --iodepth="$depth" \
		--iodepth_batch_submit="$depth" --iodepth_batch_complete_min=1 \
		--cpus_allowed=0 --ramp_time=1 --runtime="$secs" --time_based \
		--norandommap --randrepeat=0 --output-format=json 2>/dev/null |
		awk -F: '/"iops"/ { gsub(/[ ,]/, "", $2); printf "%d\n", $2; exit }'
}

# t_io_uring_iops DEPTH: fio's t/io_uring (built from fio's source by
# tests/bench/t-io-uring.sh): registered buffers and files, submission and
# completion batched by DEPTH, interrupt-driven like the others, on CPU 0;
# the mean of its per-second IOPS lines after the first.
t_io_uring_iops() {
	taskset -c 0 "$here/t_io_uring" -d"$1" -s"$1" -c"$1" -b4096 -p0 -B1 -F1 \
		-n1 -O1 -R1 -r $((secs + 1)) "$dev" 2>/dev/null |
		awk '/^IOPS=/ { v = $1; sub(/^IOPS=/, "", v); sub(/,$/, "", v)
			m = 1; if (v ~ /K$/) m = 1000; if (v ~ /M$/) m = 1000000
			sub(/[KM]$/, "", v); if (n++) { s += v * m; k++ } }
		     END { if (k) printf "%d\n", s / k; else print 0 }'
}

bare_iops() {
	insmod "$here/blkgen_bare.ko" dev="$dev" depth="$1" seconds="$secs" cpu=0 || return 1
	rmmod blkgen_bare
	dmesg | sed -n 's/.*blkgen_bare: .* \([0-9]*\) IOPS$/\1/p' | tail -n 1
}

work=$(mktemp -d)
nvme=${BENCH_NVME:-/dev/nvme0n1}
declare -A mean
modprobe blkgen || exit 1
for r in $(seq "$rounds"); do
	if [ -b "$nvme" ] && [ "$(cat "/sys/block/${nvme#/dev/}/queue/io_poll")" = 1 ]; then
		for p in 0 1; do
			record "nvme-qd1-polled$p" "$(blkgen_iops 0 1 "$nvme" $p)" "$r"
			mean[nvme-qd1-polled$p]="${mean[nvme-qd1-polled$p]:-} $(cat "$work/mean")"
		done
	fi
	for d in 1 32; do
		record "blkgen-qd$d" "$(blkgen_iops 0 $d)" "$r"
		record "io_uring-qd$d" "$(fio_iops io_uring $d)" "$r"
		record "libaio-qd$d" "$(fio_iops libaio $d)" "$r"
		record "bare-qd$d" "$(bare_iops $d)" "$r"
		if [ -x "$here/t_io_uring" ]; then
			record "t-io_uring-qd$d" "$(t_io_uring_iops $d)" "$r"
		fi
	done
	record "blkgen-2workers-qd64" "$(blkgen_iops 0-1 64)" "$r"
	echo 0 > /sys/module/blkgen/parameters/latency
	record "blkgen-qd32-nolat" "$(blkgen_iops 0 32)" "$r"
	echo 1 > /sys/module/blkgen/parameters/latency
done

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'
}
echo "bench: best of $rounds rounds, ${secs}s each, 4k random reads on $dev, CPU 0"
# Under icount (the kernel command line says so) a guest ns is one
# instruction: the cost of an I/O on the submitting CPU, in instructions.
per_io=
grep -qw 'blkgen_vm_icount=1' /proc/cmdline && per_io=instructions
for name in blkgen-qd1 blkgen-qd32 blkgen-qd32-nolat io_uring-qd1 io_uring-qd32 t-io_uring-qd1 t-io_uring-qd32 libaio-qd1 libaio-qd32 bare-qd1 bare-qd32 blkgen-2workers-qd64; do
	[ -n "${best[$name]:-}" ] || continue
	if [ -n "$per_io" ] && [ "${best[$name]:-0}" -gt 0 ] && [ "$name" != blkgen-2workers-qd64 ]; then
		printf 'bench: %-22s %10s IOPS %8s instructions per I/O\n' "$name" "${best[$name]}" \
			"$((1000000000 / best[$name]))"
	else
		printf 'bench: %-22s %10s IOPS\n' "$name" "${best[$name]}"
	fi
done
for d in 1 32; do
	echo "bench: qd$d blkgen/io_uring $(ratio "${best[blkgen-qd$d]}" "${best[io_uring-qd$d]}")" \
	     " blkgen/t-io_uring $(ratio "${best[blkgen-qd$d]}" "${best[t-io_uring-qd$d]:-0}")" \
	     " blkgen/libaio $(ratio "${best[blkgen-qd$d]}" "${best[libaio-qd$d]}")" \
	     " blkgen/bare $(ratio "${best[blkgen-qd$d]}" "${best[bare-qd$d]}")"
done
echo "bench: two workers / one (qd32 each) $(ratio "${best[blkgen-2workers-qd64]}" "${best[blkgen-qd32]}")"
echo "bench: latency recording on / off (qd32) $(ratio "${best[blkgen-qd32]}" "${best[blkgen-qd32-nolat]}")"
if [ -n "${best[nvme-qd1-polled1]:-}" ]; then
	for p in 0 1; do
		printf 'bench: %-22s %10s IOPS, mean latency per round (ns):%s\n' \
			"nvme-qd1-polled$p" "${best[nvme-qd1-polled$p]}" "${mean[nvme-qd1-polled$p]}"
	done
	echo "bench: NVMe qd1 polled / interrupt $(ratio "${best[nvme-qd1-polled1]}" "${best[nvme-qd1-polled0]}")"
fi
rm -rf "$work"
