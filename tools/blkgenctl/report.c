// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - statistics of latency histograms: percentiles, mean and
 * standard deviation, on top of the module's pure hist.c.
 */
#include <math.h>

#include "blkgenctl.h"

/* fio's default list, then three more nines. */
const double report_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99, 99.999, 99.9999,
};
const int report_nr_percentiles =
	sizeof(report_percentiles) / sizeof(report_percentiles[0]);

/**
 * report_percentile() - Latency at or below which pct% of I/Os completed.
 * @h: histogram
 * @pct: 0..100
 *
 * The value of rank ceil(pct / 100 * count) (at least 1): within 0.78% of
 * the exact order statistic, never below min nor above max.
 *
 * Return: nanoseconds, 0 for an empty histogram.
 */
uint64_t report_percentile(const struct blkgen_lat_hist *h, double pct)
{
	double r;

	if (!h->count)
		return 0;
	r = ceil(pct / 100.0 * (double)h->count);
	if (r < 1)
		r = 1;
	if (r > (double)h->count)
		r = (double)h->count;
	return blkgen_hist_at_rank(h, (uint64_t)r);
}

double report_mean(const struct blkgen_lat_hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0;
}

/* From the bins' midpoints around the exact mean. */
double report_stddev(const struct blkgen_lat_hist *h)
{
	long double mean = report_mean(h), acc = 0, d;
	unsigned int i;

	if (h->count < 2)
		return 0;
	for (i = 0; i < BLKGEN_HIST_BINS; i++) {
		if (!h->bins[i])
			continue;
		d = (long double)blkgen_hist_bin_mid(i) - mean;
		acc += d * d * h->bins[i];
	}
	return sqrtl(acc / (h->count - 1));
}
