// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the latency histogram's bin rule matches the contract
 * (fio's clat rule, 2240 bins), bin bounds invert it, order statistics are
 * within 0.8% of exact sorted samples for several distributions, stay
 * within [min, max], and merging equals recording the union.
 */
#include <math.h>
#include <string.h>

#include "hist.h"
#include "unit.h"

static struct blkgen_lat_hist h, a, b, u;

static int cmp_u64(const void *x, const void *y)
{
	unsigned long long p = *(const u64 *)x, q = *(const u64 *)y;

	return p < q ? -1 : p > q;
}

/* The contract's rule, written independently of hist.h. */
static unsigned int ref_bin(u64 v)
{
	int m;

	if (v < 128)
		return v;
	for (m = 63; !(v >> m); m--)
		;
	if (m >= 40)
		return 2239;
	return (m - 6 + 1) * 64 + ((v >> (m - 6)) & 63);
}

static void test_bins(void)
{
	static const u64 fixed[] = { 0, 1, 2, 127, 128, 129, 130, 255, 256,
		1000, 4095, 4096, 1ULL << 39, (1ULL << 40) - 1, 1ULL << 40,
		(1ULL << 40) + 12345, ~0ULL };
	unsigned long long s = 1;
	unsigned int i, bin;
	int p;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		CHECK(blkgen_hist_bin(fixed[i]) == ref_bin(fixed[i]),
		      "bin(%llu) = %u, want %u", (unsigned long long)fixed[i],
		      blkgen_hist_bin(fixed[i]), ref_bin(fixed[i]));
	CHECK(blkgen_hist_bin(1ULL << 39) == 2176, "2^39 starts group 2176");
	CHECK(blkgen_hist_bin(1ULL << 40) == 2239, "2^40 in the last bin");

	/* Around every power of two and at random. */
	for (p = 0; p < 64; p++) {
		u64 v = 1ULL << p;

		CHECK(blkgen_hist_bin(v) == ref_bin(v), "bin(2^%d)", p);
		CHECK(blkgen_hist_bin(v - 1) == ref_bin(v - 1), "bin(2^%d-1)", p);
		CHECK(blkgen_hist_bin(v + 1) == ref_bin(v + 1), "bin(2^%d+1)", p);
	}
	for (i = 0; i < 1000000; i++) {
		u64 v = t_rand(&s) >> (t_rand(&s) % 64);

		CHECK(blkgen_hist_bin(v) == ref_bin(v), "bin(%llu)",
		      (unsigned long long)v);
	}

	/* Bounds invert the rule: lower and lower+width-1 map to the bin. */
	for (bin = 0; bin < BLKGEN_HIST_BINS; bin++) {
		u64 lo = blkgen_hist_bin_lower(bin);
		u64 w = blkgen_hist_bin_width(bin);

		CHECK(blkgen_hist_bin(lo) == bin, "lower(%u)", bin);
		CHECK(blkgen_hist_bin(lo + w - 1) == bin, "upper(%u)", bin);
		if (bin + 1 < BLKGEN_HIST_BINS)
			CHECK(blkgen_hist_bin_lower(bin + 1) == lo + w,
			      "bins %u and %u are contiguous", bin, bin + 1);
		/* Half a bin is within 1/128 of its lower bound. */
		CHECK(w / 2 * 128 <= lo || lo < 128, "width(%u)", bin);
	}
}

/* Record n samples, compare every percentile with the sorted truth. */
static void check_accuracy(const char *name, u64 *v, size_t n)
{
	static const double pct[] = { 0, 1, 5, 10, 25, 50, 75, 90, 95, 99,
		99.5, 99.9, 99.99, 99.999, 99.9999, 100 };
	double worst = 0;
	size_t i;

	blkgen_hist_reset(&h);
	for (i = 0; i < n; i++)
		blkgen_hist_record(&h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);

	CHECK(h.count == n, "%s: count", name);
	CHECK(h.min_ns == v[0] && h.max_ns == v[n - 1], "%s: min/max", name);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		u64 rank = (u64)ceil(pct[i] / 100 * n);
		u64 got, want;
		double err;

		if (rank < 1)
			rank = 1;
		got = blkgen_hist_at_rank(&h, rank);
		want = v[rank - 1];
		err = want ? fabs((double)got - want) / want : (double)got;
		if (err > worst)
			worst = err;
		/* Values from 2^40 on share the last bin: only min/max exact. */
		if (want < (1ULL << 40))
			CHECK(err < 0.008, "%s: p%g = %llu, exact %llu (%.4f%%)",
			      name, pct[i], (unsigned long long)got,
			      (unsigned long long)want, err * 100);
		CHECK(got >= h.min_ns && got <= h.max_ns, "%s: p%g in range",
		      name, pct[i]);
	}
	printf("# %s: %zu samples, worst relative error %.4f%%\n", name, n,
	       worst * 100);
}

static void test_accuracy(void)
{
	size_t n = 1000000, i;
	u64 *v = malloc(n * sizeof(*v));
	unsigned long long s = 42;

	for (i = 0; i < n; i++)		/* uniform 0..10 ms */
		v[i] = t_rand(&s) % 10000000;
	check_accuracy("uniform", v, n);

	for (i = 0; i < n; i++) {	/* lognormal around 80 us */
		double z = sqrt(-2 * log(1 - t_unit(&s))) *
			   cos(2 * M_PI * t_unit(&s));
		v[i] = (u64)exp(log(80000) + 0.6 * z);
	}
	check_accuracy("lognormal", v, n);

	for (i = 0; i < n; i++)		/* Pareto tail, alpha 1.1, from 5 us */
		v[i] = (u64)fmin(5000 / pow(1 - t_unit(&s), 1 / 1.1), 1e15);
	check_accuracy("pareto", v, n);

	for (i = 0; i < n; i++)		/* tiny values: exact region */
		v[i] = t_rand(&s) % 200;
	check_accuracy("small", v, n);

	v[0] = 0;			/* one value */
	check_accuracy("single-zero", v, 1);
	v[0] = 1ULL << 40;
	v[1] = 3ULL << 41;
	v[2] = 7;
	check_accuracy("huge", v, 3);
	free(v);

	blkgen_hist_reset(&h);
	CHECK(blkgen_hist_at_rank(&h, 1) == 0, "empty histogram");
}

static void test_merge(void)
{
	unsigned long long s = 7;
	unsigned int i;

	blkgen_hist_reset(&a);
	blkgen_hist_reset(&b);
	blkgen_hist_reset(&u);
	for (i = 0; i < 100000; i++) {
		u64 v = t_rand(&s) >> (t_rand(&s) % 50);

		blkgen_hist_record(i % 3 ? &a : &b, v);
		blkgen_hist_record(&u, v);
	}
	h = a;
	blkgen_hist_merge(&h, &b);
	CHECK(!memcmp(&h, &u, sizeof(h)), "merge(a, b) == record(a u b)");

	/* Merging into and from an empty histogram. */
	blkgen_hist_reset(&h);
	blkgen_hist_merge(&h, &u);
	CHECK(!memcmp(&h, &u, sizeof(h)), "merge into empty");
	blkgen_hist_reset(&b);
	blkgen_hist_merge(&h, &b);
	CHECK(!memcmp(&h, &u, sizeof(h)), "merge of empty");
}

int main(void)
{
	test_bins();
	test_accuracy();
	test_merge();
	return t_exit("hist");
}
