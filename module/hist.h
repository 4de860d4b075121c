/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen latency histogram (pure C, shared with user space and tests).
 *
 * EXECUTIVE SUMMARY: log-linear buckets in nanoseconds, 64 sub-buckets
 * per power of two. Values below 128 ns have a bin each (exact); above,
 * a bin is 1/64 of its power of two wide, so reporting a bin's midpoint
 * is within 1/128 (0.78%) of any value in it. 2240 bins (17.5 KiB of u64)
 * reach 2^40 ns (18 minutes); larger values land in the last bin while
 * max_ns keeps the truth. The bin rule is fio's clat rule, so bins merge
 * with fio's json+ output.
 *
 *   bin(v) = v                                     if v < 128
 *          = (e + 1) * 64 + ((v >> e) & 63)        else, m = fls64(v) - 1,
 *                                                   e = m - 6
 */
#ifndef _BLKGEN_HIST_H
#define _BLKGEN_HIST_H

#include "pure.h"

#define BLKGEN_HIST_BITS	6
#define BLKGEN_HIST_SUB		64	/* 2^BLKGEN_HIST_BITS */
#define BLKGEN_HIST_BINS	2240
#define BLKGEN_HIST_EXACT	(2 * BLKGEN_HIST_SUB)		/* 128 */

/**
 * struct blkgen_lat_hist - in-memory latency histogram of one recorder
 * @count: values recorded
 * @sum_ns: their sum
 * @min_ns: smallest value, U64_MAX while @count is 0
 * @max_ns: largest value
 * @bins: counts per bin
 *
 * One per worker, workload and direction: recording takes no lock.
 */
struct blkgen_lat_hist {
	u64 count;
	u64 sum_ns;
	u64 min_ns;
	u64 max_ns;
	u64 bins[BLKGEN_HIST_BINS];
};

/**
 * blkgen_hist_bin() - Bin index of a latency.
 * @v: latency in nanoseconds
 * Return: bin in [0, BLKGEN_HIST_BINS).
 */
static inline unsigned int blkgen_hist_bin(u64 v)
{
	unsigned int m, e, bin;

	if (v < BLKGEN_HIST_EXACT)
		return (unsigned int)v;
	m = 63 - __builtin_clzll(v);
	e = m - BLKGEN_HIST_BITS;
	bin = (e + 1) * BLKGEN_HIST_SUB + ((v >> e) & (BLKGEN_HIST_SUB - 1));
	return bin < BLKGEN_HIST_BINS ? bin : BLKGEN_HIST_BINS - 1;
}

/**
 * blkgen_hist_record() - Count one latency.
 * @h: histogram owned by the caller (no locking)
 * @v: latency in nanoseconds
 */
static inline void blkgen_hist_record(struct blkgen_lat_hist *h, u64 v)
{
	h->count++;
	h->sum_ns += v;
	if (v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
	h->bins[blkgen_hist_bin(v)]++;
}

void blkgen_hist_reset(struct blkgen_lat_hist *h);
void blkgen_hist_merge(struct blkgen_lat_hist *dst,
		       const struct blkgen_lat_hist *src);
u64 blkgen_hist_bin_lower(unsigned int bin);
u64 blkgen_hist_bin_width(unsigned int bin);
u64 blkgen_hist_bin_mid(unsigned int bin);
u64 blkgen_hist_at_rank(const struct blkgen_lat_hist *h, u64 rank);

#endif /* _BLKGEN_HIST_H */
