/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * blkgen user ABI: binary records read from /sys/kernel/blkgen/JOB/WL/.
 *
 * All records are little-endian, naturally aligned and have no implicit
 * padding, so the same bytes can be copied between hosts and merged.
 */
#ifndef _UAPI_LINUX_BLKGEN_H
#define _UAPI_LINUX_BLKGEN_H

#include <linux/types.h>

/* Histogram: log-linear, 2^SUB_BITS sub-buckets per power of two. */
#define BLKGEN_HIST_MAGIC	0x484b4c42	/* "BLKH" little-endian */
#define BLKGEN_HIST_VERSION	1
#define BLKGEN_HIST_SUB_BITS	6
#define BLKGEN_HIST_NR_BINS	2240

/**
 * struct blkgen_hist - latency histogram as read from WL/{read,write}_lat_hist
 * @magic: %BLKGEN_HIST_MAGIC
 * @version: %BLKGEN_HIST_VERSION
 * @sub_bits: log2 of the sub-buckets per power of two (%BLKGEN_HIST_SUB_BITS)
 * @nr_bins: number of entries in @bins (%BLKGEN_HIST_NR_BINS)
 * @reserved: zero
 * @count: I/Os recorded; equals the sum of @bins
 * @sum_ns: sum of all recorded latencies in nanoseconds
 * @min_ns: smallest recorded latency, 0 when @count is 0
 * @max_ns: largest recorded latency
 * @bins: per-bin counts; see Documentation/design.rst for the bin rule
 */
struct blkgen_hist {
	__u32 magic;
	__u16 version;
	__u16 sub_bits;
	__u32 nr_bins;
	__u32 reserved;
	__u64 count;
	__u64 sum_ns;
	__u64 min_ns;
	__u64 max_ns;
	__u64 bins[];
};

/**
 * struct blkgen_interval - one time-series record of WL/intervals
 * @start_ms: start of the interval, ms after the measured window began
 * @length_ms: its length (interval_ms, less for the last one of a run)
 * @reserved: zero
 * @ios: I/Os completed without error in it, [0] reads, [1] writes
 * @bytes: their bytes
 * @lat_sum_ns: sum of their latencies
 * @lat_max_ns: largest latency
 * @errors: I/Os completed with an error
 *
 * An I/O belongs to the interval in which it completed (completions after
 * the end of the measured window count in its last interval). The file
 * holds one record per finished interval, oldest first, at most the
 * module's max_intervals most recent ones; records are sized
 * sizeof(struct blkgen_interval) (88 bytes in version 1).
 */
struct blkgen_interval {
	__u64 start_ms;
	__u32 length_ms;
	__u32 reserved;
	__u64 ios[2];
	__u64 bytes[2];
	__u64 lat_sum_ns[2];
	__u64 lat_max_ns[2];
	__u64 errors;
};

/*
 * Data verification (workload attribute verify=1). Every 512-byte sector
 * a verifying workload writes starts with this stamp; the rest of the
 * sector is random data, covered by the stamp's CRC, so a reader needs
 * nothing but the generation table to check it.
 */
#define BLKGEN_STAMP_MAGIC	0x5647424b	/* "KBGV" little-endian */
#define BLKGEN_STAMP_SIZE	32
#define BLKGEN_GEN_MAX		30	/* generations cycle 1 .. 30 */

/**
 * struct blkgen_stamp - the head of every sector written with verify=1
 * @magic: %BLKGEN_STAMP_MAGIC
 * @crc: CRC-32C (Castagnoli) of bytes 8 .. 511 of the sector
 * @run_id: the generation table's identity (random, set when it is made)
 * @sector: the sector's own number, in 512-byte units from the device start
 * @gen: its generation, 1 .. %BLKGEN_GEN_MAX
 * @reserved: zero
 */
struct blkgen_stamp {
	__u32 magic;
	__u32 crc;
	__u64 run_id;
	__u64 sector;
	__u32 gen;
	__u32 reserved;
};

/*
 * WL/verify_table: this header, then one byte per block of the range
 * (bits 0-4 the generation: 0 never written, 1 .. 30, 31 unknown after a
 * failed write; bits 5-6 the flush epoch, 0 once a completed flush covers
 * the block's last write, or for an unknown block where its next generation
 * starts: 1 + 8 x bits 5-6; bit 7 unused in the file).
 */
#define BLKGEN_VTABLE_MAGIC	0x5447424b	/* "KBGT" little-endian */
#define BLKGEN_VTABLE_VERSION	1

/**
 * struct blkgen_vtable_hdr - head of a saved generation table
 * @magic: %BLKGEN_VTABLE_MAGIC
 * @version: %BLKGEN_VTABLE_VERSION
 * @reserved: zero
 * @block: bytes per table entry (the workload's smallest I/O size)
 * @reserved2: zero
 * @run_id: the stamps' run id
 * @start: byte offset of the first block on the device
 * @nr: blocks (entries following the header)
 * @dev_bytes: size of the device the table was made on
 */
struct blkgen_vtable_hdr {
	__u32 magic;
	__u16 version;
	__u16 reserved;
	__u32 block;
	__u32 reserved2;
	__u64 run_id;
	__u64 start;
	__u64 nr;
	__u64 dev_bytes;
};

/*
 * Trace replay (workload attribute replay=timed|afap). The tool streams
 * records into WL/trace while the run goes on, in native byte order,
 * whole records per write (32 bytes: a page holds 128); a record with
 * op %BLKGEN_TRACE_END ends the trace.
 */
#define BLKGEN_TRACE_READ	0
#define BLKGEN_TRACE_WRITE	1
#define BLKGEN_TRACE_END	2

/**
 * struct blkgen_trace_rec - one I/O of a trace
 * @t_ns: its time from the start of the trace (nanoseconds); the worker
 *	issues it at run start + @t_ns * 100 / replay_speed (percent)
 * @offset: byte offset on the traced device (mapped into the range)
 * @len: bytes (rounded up to the logical block size, clipped to bs)
 * @op: %BLKGEN_TRACE_READ, %BLKGEN_TRACE_WRITE or %BLKGEN_TRACE_END
 * @reserved: zero
 */
struct blkgen_trace_rec {
	__u64 t_ns;
	__u64 offset;
	__u32 len;
	__u32 op;
	__u64 reserved;
};

#endif /* _UAPI_LINUX_BLKGEN_H */
