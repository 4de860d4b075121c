// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen latency histogram: pure C, compiled into the module and into the
 * host tools and tests. See hist.h for the bin rule and error bound.
 */
#include "hist.h"

/**
 * blkgen_hist_reset() - Empty a histogram.
 * @h: histogram
 */
void blkgen_hist_reset(struct blkgen_lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = ~0ULL;
}

/**
 * blkgen_hist_merge() - Add one histogram into another.
 * @dst: histogram receiving the sum
 * @src: histogram added; merging equals recording the union of values
 */
void blkgen_hist_merge(struct blkgen_lat_hist *dst,
		       const struct blkgen_lat_hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	for (i = 0; i < BLKGEN_HIST_BINS; i++)
		dst->bins[i] += src->bins[i];
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (!dst->count || src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
}

/**
 * blkgen_hist_bin_lower() - Smallest value counted in a bin.
 * @bin: bin index
 * Return: the lower bound in nanoseconds.
 */
u64 blkgen_hist_bin_lower(unsigned int bin)
{
	unsigned int e;

	if (bin < BLKGEN_HIST_EXACT)
		return bin;
	e = bin / BLKGEN_HIST_SUB - 1;
	return (u64)(BLKGEN_HIST_SUB + bin % BLKGEN_HIST_SUB) << e;
}

/**
 * blkgen_hist_bin_width() - Number of distinct values a bin counts.
 * @bin: bin index (the last bin also counts every value above it)
 * Return: the width in nanoseconds.
 */
u64 blkgen_hist_bin_width(unsigned int bin)
{
	if (bin < BLKGEN_HIST_EXACT)
		return 1;
	return 1ULL << (bin / BLKGEN_HIST_SUB - 1);
}

/**
 * blkgen_hist_bin_mid() - Representative value of a bin.
 * @bin: bin index
 *
 * The bin's lower bound plus half its width: within 1/128 of every value
 * the bin counts (exact below 128 ns).
 *
 * Return: the midpoint in nanoseconds.
 */
u64 blkgen_hist_bin_mid(unsigned int bin)
{
	return blkgen_hist_bin_lower(bin) + blkgen_hist_bin_width(bin) / 2;
}

/**
 * blkgen_hist_at_rank() - Value of the rank-th smallest recorded latency.
 * @h: histogram
 * @rank: 1-based rank, 1 <= rank <= h->count
 *
 * The first and last ranks are exact (min and max). Others are the
 * midpoint of the bin holding that rank, clamped to [min, max], so the
 * result is within 0.78% of the true order statistic and never outside
 * the recorded range.
 *
 * Return: latency in nanoseconds, 0 for an empty histogram.
 */
u64 blkgen_hist_at_rank(const struct blkgen_lat_hist *h, u64 rank)
{
	u64 seen = 0, v;
	unsigned int i;

	if (!h->count)
		return 0;
	if (rank <= 1)
		return h->min_ns;
	if (rank >= h->count)
		return h->max_ns;
	for (i = 0; i < BLKGEN_HIST_BINS; i++) {
		seen += h->bins[i];
		if (seen >= rank)
			break;
	}
	if (i == BLKGEN_HIST_BINS)	/* bins disagree with count */
		return h->max_ns;
	v = blkgen_hist_bin_mid(i);
	if (v < h->min_ns)
		v = h->min_ns;
	if (v > h->max_ns)
		v = h->max_ns;
	return v;
}
