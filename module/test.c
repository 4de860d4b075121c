// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen_test.ko: KUnit cases for blkgen's pure cores (latency histogram,
 * offset pattern and alignment division, arrival schedules, trace
 * mapping, verification stamps), run in the kernel under test. Built only
 * for a kernel with CONFIG_KUNIT; loading it runs every suite, and the
 * results are KTAP in the kernel log and in debugfs's kunit/SUITE/results.
 *
 * The host's unit tests (tests/unit/test-*.c) cover the same cores with
 * statistics this module leaves out (floating point is not for the
 * kernel): here each check is exact or an integer bound.
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/module.h>

#include "compat.h"
#include "hist.h"
#include "pattern.h"
#include "rate.h"
#include "replay-map.h"
#include "stamp.h"

/* splitmix64: the cases' own generator, independent of blkgen's PRNG. */
static u64 t_rand(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ---- histogram --------------------------------------------------------- */

/*
 * Every value's bin holds it, and a bin is at most 1/64 of its lower
 * bound wide: its midpoint is within 1/128 (0.8%) of any value in it.
 */
static void hist_bins_test(struct kunit *test)
{
	u64 seed = 1, v, lo, w;
	unsigned int b, i, bad = 0;

	for (v = 0; v < BLKGEN_HIST_EXACT; v++) {
		b = blkgen_hist_bin(v);
		if (blkgen_hist_bin_lower(b) != v ||
		    blkgen_hist_bin_width(b) != 1)
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "values below %d not exact",
			    BLKGEN_HIST_EXACT);
	/* Below 2^40 ns (18 minutes), where the last bin ends. */
	for (i = 0; i < 200000; i++) {
		v = t_rand(&seed) >> (24 + i % 33);
		if (v < BLKGEN_HIST_EXACT)
			continue;
		b = blkgen_hist_bin(v);
		lo = blkgen_hist_bin_lower(b);
		w = blkgen_hist_bin_width(b);
		if (v < lo || v >= lo + w || w * 64 > lo) {
			kunit_err(test, "value %llu: bin %u [%llu, +%llu)",
				  v, b, lo, w);
			bad++;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, blkgen_hist_bin(~0ULL), BLKGEN_HIST_BINS - 1);
}

/* Two histograms merged are the histogram of all their values. */
static void hist_merge_test(struct kunit *test)
{
	struct blkgen_lat_hist *a, *b, *all;
	u64 seed = 2, v;
	int i;

	a = kunit_kmalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kmalloc(test, sizeof(*b), GFP_KERNEL);
	all = kunit_kmalloc(test, sizeof(*all), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, all);
	blkgen_hist_reset(a);
	blkgen_hist_reset(b);
	blkgen_hist_reset(all);
	for (i = 0; i < 100000; i++) {
		v = t_rand(&seed) >> (30 + i % 30);
		blkgen_hist_record(i % 3 ? a : b, v);
		blkgen_hist_record(all, v);
	}
	blkgen_hist_merge(a, b);
	KUNIT_EXPECT_EQ(test, a->count, all->count);
	KUNIT_EXPECT_EQ(test, a->sum_ns, all->sum_ns);
	KUNIT_EXPECT_EQ(test, a->min_ns, all->min_ns);
	KUNIT_EXPECT_EQ(test, a->max_ns, all->max_ns);
	KUNIT_EXPECT_EQ(test, memcmp(a->bins, all->bins, sizeof(a->bins)), 0);
	/* An empty one changes nothing. */
	blkgen_hist_reset(b);
	blkgen_hist_merge(all, b);
	KUNIT_EXPECT_EQ(test, memcmp(a, all, sizeof(*a)), 0);
}

/* Percentiles: the bin's midpoint, within 1% of the true rank's value. */
static void hist_rank_test(struct kunit *test)
{
	struct blkgen_lat_hist *h;
	u64 v, got, want;
	int pct;

	h = kunit_kmalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	blkgen_hist_reset(h);
	KUNIT_EXPECT_EQ(test, blkgen_hist_at_rank(h, 1), 0);
	for (v = 1000; v <= 1000000; v++)
		blkgen_hist_record(h, v);
	KUNIT_EXPECT_EQ(test, blkgen_hist_at_rank(h, 1), 1000);
	KUNIT_EXPECT_EQ(test, blkgen_hist_at_rank(h, h->count), 1000000);
	for (pct = 1; pct < 100; pct++) {
		want = 999 + h->count * pct / 100;
		got = blkgen_hist_at_rank(h, h->count * pct / 100);
		KUNIT_EXPECT_LE_MSG(test, abs_diff(got, want) * 100, want,
				    "p%d: %llu, the value %llu",
				    pct, got, want);
	}
}

/* ---- pattern ----------------------------------------------------------- */

static int make(struct blkgen_pattern *p, const char *bs, const char *zones,
		const char *range, u32 rdpct, u32 seekpct, u64 dev, u32 lbs)
{
	struct blkgen_range r;

	memset(p, 0, sizeof(*p));
	p->rdpct = rdpct;
	p->seekpct = seekpct;
	if (blkgen_parse_bs(bs, &p->bs) ||
	    blkgen_parse_zones(zones, &p->zones) ||
	    blkgen_parse_range(range, &r))
		return 1;
	return blkgen_pattern_resolve(p, &r, dev, lbs);
}

/* Offsets in the range and aligned, sizes of the mix, the read share. */
static void pattern_bounds_test(struct kunit *test)
{
	struct blkgen_pattern *p;
	struct blkgen_stream st;
	struct blkgen_choice c;
	unsigned int i, reads = 0, big = 0, bad = 0;

	p = kunit_kmalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, make(p, "4k/75:64k/25", "uniform", "10%-90%", 70,
				   100, 1ULL << 30, 512), 0);
	blkgen_stream_init(&st, p, 3, 0, 0, 1);
	for (i = 0; i < 100000; i++) {
		blkgen_pattern_next(p, &st, &c);
		if (c.offset < p->start || c.offset + c.size > p->end ||
		    c.offset % p->align || (c.size != 4096 && c.size != 65536))
			bad++;
		reads += !c.write;
		big += c.size == 65536;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	/* Binomial, n = 10^5: a standard deviation of 0.15% at 70%. */
	KUNIT_EXPECT_TRUE_MSG(test, reads >= 68500 && reads <= 71500,
			      "reads %u of 100000 for 70%%", reads);
	KUNIT_EXPECT_TRUE_MSG(test, big >= 23500 && big <= 26500,
			      "64k %u of 100000 for 25%%", big);
}

/* seekpct 0: back to back, wrapping at the end of the range. */
static void pattern_sequential_test(struct kunit *test)
{
	struct blkgen_pattern *p;
	struct blkgen_stream st;
	struct blkgen_choice c;
	u64 expect;
	int i;

	p = kunit_kmalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, make(p, "64k", "uniform", "1m-2m", 100, 0,
				   1ULL << 30, 512), 0);
	blkgen_stream_init(&st, p, 4, 0, 0, 1);
	expect = p->start;
	for (i = 0; i < 1000; i++) {
		blkgen_pattern_next(p, &st, &c);
		KUNIT_ASSERT_EQ_MSG(test, c.offset, expect, "I/O %d", i);
		expect = c.offset + c.size;
		if (expect >= p->end)
			expect = p->start;
	}
}

/* The same seed and stream, the same I/Os; another stream, others. */
static void pattern_determinism_test(struct kunit *test)
{
	struct blkgen_stream a, b, o;
	struct blkgen_choice x, y, z;
	struct blkgen_pattern *p;
	int i, same = 0;

	p = kunit_kmalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, make(p, "4k/50:8k/50", "uniform", "0%-100%", 50,
				   100, 1ULL << 30, 512), 0);
	blkgen_stream_init(&a, p, 99, 1, 0, 1);
	blkgen_stream_init(&b, p, 99, 1, 0, 1);
	blkgen_stream_init(&o, p, 99, 2, 0, 1);
	for (i = 0; i < 10000; i++) {
		blkgen_pattern_next(p, &a, &x);
		blkgen_pattern_next(p, &b, &y);
		blkgen_pattern_next(p, &o, &z);
		KUNIT_ASSERT_TRUE_MSG(test, x.write == y.write &&
				      x.size == y.size &&
				      x.offset == y.offset,
				      "I/O %d differs", i);
		same += x.offset == z.offset;
	}
	KUNIT_EXPECT_LT(test, same, 10);
}

/* A range the device or the sizes cannot hold is refused, and why. */
static void pattern_resolve_test(struct kunit *test)
{
	struct blkgen_pattern *p;

	p = kunit_kmalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, make(p, "4k/50:6k/50", "uniform", "0%-100%", 100,
				   100, 1ULL << 30, 4096), BLKGEN_PAT_LBS);
	KUNIT_EXPECT_EQ(test, make(p, "4k", "uniform", "0-2g", 100, 100,
				   1ULL << 30, 512), BLKGEN_PAT_BEYOND);
	KUNIT_EXPECT_EQ(test, make(p, "64k", "uniform", "0-32k", 100, 100,
				   1ULL << 30, 512), BLKGEN_PAT_SMALL);
	KUNIT_EXPECT_EQ(test, make(p, "64k", "zoned:50/0.01:50/99.99",
				   "0%-100%", 100, 100, 64ULL << 20, 512),
			BLKGEN_PAT_ZONE);
	KUNIT_ASSERT_EQ(test, make(p, "4k", "uniform", "1%-2%", 100, 100,
				   1000ULL << 20, 512), 0);
	KUNIT_EXPECT_EQ(test, p->start, 10485760);
	KUNIT_EXPECT_EQ(test, p->end, 20971520);
}

/*
 * blkgen_div_align() divides by the alignment without a division: against
 * the division, for every alignment of 512 to 1 MiB in steps of 512, at
 * and just below multiples, at the top of the domain (2^62) and at random.
 */
static void pattern_div_align_test(struct kunit *test)
{
	struct blkgen_pattern *p;
	u64 seed = 42, a, v, k, bad = 0;
	char bs[24];
	int i;

	p = kunit_kmalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (a = 512; a <= 1024 * 1024; a += 512) {
		snprintf(bs, sizeof(bs), "%llu", a);
		KUNIT_ASSERT_EQ_MSG(test, make(p, bs, "uniform", "0%-100%",
					       100, 100, 1ULL << 40, 512),
				    0, "bs %s", bs);
		for (i = 0; i < 16; i++) {
			k = t_rand(&seed) % ((1ULL << 62) / a);
			switch (i % 4) {
			case 0:
				v = k * a - (k ? 1 : 0);
				break;
			case 1:
				v = k * a;
				break;
			case 2:
				v = (1ULL << 62) - 1 - t_rand(&seed) % a;
				break;
			default:
				v = t_rand(&seed) >> 2;
				break;
			}
			if (blkgen_div_align(p, v) != div64_u64(v, a)) {
				kunit_err(test, "%llu / %llu: %llu", v, a,
					  blkgen_div_align(p, v));
				bad++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/* ---- arrivals ---------------------------------------------------------- */

/* A fixed schedule keeps its rate exactly; workers' phases interleave. */
static void rate_fixed_test(struct kunit *test)
{
	struct blkgen_arrivals a, b;
	u64 t0 = 1000000;
	int i;

	/* 1e6/3 a second: 3000 ns apart, no drift over 10^6 gaps. */
	KUNIT_ASSERT_EQ(test, blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED,
						   1000000, 3, t0, 1, 0, 0, 1),
			0);
	for (i = 0; i < 1000000; i++)
		blkgen_arrivals_advance(&a);
	KUNIT_EXPECT_EQ(test, a.next_ns - t0, 3000ULL * 1000001);
	/* 7 IOPS over 3 workers: 3/7 s a worker, exact on average. */
	KUNIT_ASSERT_EQ(test, blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED,
						   7, 3, 0, 1, 0, 0, 1), 0);
	for (i = 0; i < 700; i++)
		blkgen_arrivals_advance(&a);
	KUNIT_EXPECT_LE(test, abs_diff(a.next_ns, 701ULL * 3000000000ULL / 7),
			1);
	/* Two workers at 500 a second each, phases 0 and 1 of 2: 1 ms apart. */
	KUNIT_ASSERT_EQ(test, blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED,
						   1000, 2, 0, 1, 0, 0, 2), 0);
	KUNIT_ASSERT_EQ(test, blkgen_arrivals_init(&b, BLKGEN_PROC_FIXED,
						   1000, 2, 0, 1, 1, 1, 2), 0);
	for (i = 0; i < 100; i++) {
		KUNIT_ASSERT_EQ_MSG(test, b.next_ns - a.next_ns, 1000000,
				    "gap %d", i);
		blkgen_arrivals_advance(&a);
		blkgen_arrivals_advance(&b);
	}
}

/* Poisson and uniform gaps: their mean within 1% over 10^5 gaps. */
static void rate_mean_test(struct kunit *test)
{
	static const enum blkgen_process procs[] = {
		BLKGEN_PROC_POISSON, BLKGEN_PROC_UNIFORM,
	};
	struct blkgen_arrivals a;
	u64 t0 = 1000000, first, span;
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(procs); k++) {
		/* 50000 a second: 20000 ns a gap. */
		KUNIT_ASSERT_EQ(test, blkgen_arrivals_init(&a, procs[k], 50000,
							   1, t0, 3, 0, 0, 1),
				0);
		first = a.next_ns;
		for (i = 0; i < 100000; i++)
			blkgen_arrivals_advance(&a);
		span = a.next_ns - first;
		/* Exponential: a standard deviation of the mean of 0.32%. */
		KUNIT_EXPECT_LE_MSG(test,
				    abs_diff(span, 20000ULL * 100000) * 100,
				    20000ULL * 100000, "process %d: %llu ns",
				    procs[k], span);
	}
}

/* ---- trace mapping ------------------------------------------------------ */

/* A record lands in the range, aligned, its changes flagged: a row each. */
struct replay_map_row {
	u64 off;
	u32 len, op;
	u64 want_off;
	u32 want_len;
	unsigned int flags;
};

static const struct replay_map_row replay_map_rows[] = {
	{ 0, 4096, BLKGEN_TRACE_READ, 1 << 20, 4096, 0 },
	{ (8 << 20) - 4096, 4096, BLKGEN_TRACE_WRITE,
	  (9 << 20) - 4096, 4096, 0 },
	{ 8192, 512, BLKGEN_TRACE_READ, (1 << 20) + 8192, 4096, 0 },
	{ 4096 + 512, 4096, BLKGEN_TRACE_READ, (1 << 20) + 4096, 4096,
	  BLKGEN_MAP_REMAPPED },
	{ (8 << 20) + 12288, 4096, BLKGEN_TRACE_READ,
	  (1 << 20) + 12288, 4096, BLKGEN_MAP_REMAPPED },
	{ (8 << 20) - 4096, 8192, BLKGEN_TRACE_READ,
	  (9 << 20) - 8192, 8192, BLKGEN_MAP_REMAPPED },
	{ 0, 1 << 20, BLKGEN_TRACE_READ,
	  1 << 20, 64 << 10, BLKGEN_MAP_CLIPPED },
};

static void replay_map_desc(const struct replay_map_row *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "row %s %llu+%u",
		 t->op == BLKGEN_TRACE_WRITE ? "write" : "read",
		 t->off, t->len);
}

KUNIT_ARRAY_PARAM(replay_map, replay_map_rows, replay_map_desc);

static void replay_map_test(struct kunit *test)
{
	static const struct blkgen_pattern p = {
		.start = 1 << 20, .end = 9 << 20, .max_size = 64 << 10
	};
	const struct replay_map_row *t = test->param_value;
	struct blkgen_trace_rec r = {
		.offset = t->off, .len = t->len, .op = t->op
	};
	struct blkgen_choice c;
	unsigned int f;

	f = blkgen_replay_map(&p, 4096, &r, &c);
	KUNIT_EXPECT_EQ(test, f, t->flags);
	KUNIT_EXPECT_EQ(test, c.size, t->want_len);
	KUNIT_EXPECT_EQ(test, c.offset, t->want_off);
	KUNIT_EXPECT_EQ(test, c.write, t->op == BLKGEN_TRACE_WRITE);
}

/* Due times scale with the speed, with no overflow on the way. */
static void replay_due_test(struct kunit *test)
{
	const u32 one = BLKGEN_SPEED_ONE;
	const u64 days30 = 2592000000000000ULL;

	KUNIT_EXPECT_EQ(test, blkgen_replay_due(1000, 5000, one), 6000);
	KUNIT_EXPECT_EQ(test, blkgen_replay_due(1000, 5000, 2 * one), 3500);
	KUNIT_EXPECT_EQ(test, blkgen_replay_due(0, 1000000, 1000), 10000000);
	/* 10000 times: a second of trace in 100 us. */
	KUNIT_EXPECT_EQ(test, blkgen_replay_due(5, 1000000000,
						BLKGEN_SPEED_MAX), 100005);
	KUNIT_EXPECT_EQ(test, blkgen_replay_due(10, ~0ULL, 1), ~0ULL);
	/* 30 days of trace at 0.01%. */
	KUNIT_EXPECT_EQ(test, blkgen_replay_due(0, days30 / 10000, 1), days30);
}

/* replay_speed: 0.01% to 1000000%, two decimals at most: a row each. */
struct replay_speed_row {
	const char *s;
	int rc;
	u32 v;
};

static const struct replay_speed_row replay_speed_rows[] = {
	{ "100", 0, 10000 }, { "12.5", 0, 1250 },
	{ "250.25%", 0, 25025 },
	{ "0.01", 0, 1 }, { "1000000", 0, 100000000 },
	{ "0", -1 }, { "1000000.01", -1 }, { "", -1 }, { "1.", -1 },
	{ ".5", -1 }, { "1.234", -1 }, { "-1", -1 }, { "50x", -1 },
};

static void replay_speed_desc(const struct replay_speed_row *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "row '%s'", t->s);
}

KUNIT_ARRAY_PARAM(replay_speed, replay_speed_rows, replay_speed_desc);

static void replay_speed_test(struct kunit *test)
{
	const struct replay_speed_row *t = test->param_value;
	u32 v = 7;
	int rc;

	rc = blkgen_parse_speed(t->s, &v);
	KUNIT_EXPECT_EQ(test, rc, t->rc);
	KUNIT_EXPECT_EQ(test, v, rc ? 7 : t->v);
}

/* ---- verification stamps ----------------------------------------------- */

/* CRC-32C: its check value, by the tables. */
static void stamp_crc_test(struct kunit *test)
{
	blkgen_crc32c_init(false);
	KUNIT_EXPECT_EQ(test, blkgen_crc32c("123456789", 9), 0xe3069283);
	KUNIT_EXPECT_EQ(test, blkgen_crc32c("x123456789" + 1, 9), 0xe3069283);
}

/*
 * The CPU's instruction against the tables, at every alignment and length
 * class (a skip of its own where there is none: a skip would hide an
 * earlier failure of the case).
 */
static void stamp_crc_hw_test(struct kunit *test)
{
	u8 *r;
	u32 sw[16], i;
	u64 seed = 1;

	if (!blkgen_crc32c_hw())
		kunit_skip(test, "no CRC-32C instruction: the tables alone");
	r = kunit_kmalloc(test, 4099, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < 4099; i++)
		r[i] = t_rand(&seed);
	blkgen_crc32c_init(false);
	for (i = 0; i < ARRAY_SIZE(sw); i++)
		sw[i] = blkgen_crc32c(r + i, 4099 - 2 * i);
	KUNIT_ASSERT_TRUE(test, blkgen_crc32c_init(true));
	KUNIT_EXPECT_EQ(test, blkgen_crc32c("123456789", 9), 0xe3069283);
	for (i = 0; i < ARRAY_SIZE(sw); i++)
		KUNIT_EXPECT_EQ_MSG(test, blkgen_crc32c(r + i, 4099 - 2 * i),
				    sw[i], "offset %u", i);
	blkgen_crc32c_init(false);
}

/*
 * A stamp reads back as its run's, sector's and generation's; each way of
 * being wrong is told apart.
 */
static void stamp_check_test(struct kunit *test)
{
	const u64 run = 0x1234abcd5678ULL;
	u8 *a, *b;
	u64 home = 0;
	u32 gen = 0;

	a = kunit_kzalloc(test, BLKGEN_SECTOR, GFP_KERNEL);
	b = kunit_kzalloc(test, BLKGEN_SECTOR, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	blkgen_crc32c_init(false);
	KUNIT_EXPECT_EQ(test, blkgen_stamp_check(a, run, 77, &gen, &home),
			BLKGEN_S_FOREIGN);
	blkgen_stamp_fill(a, run, 77, 5);
	KUNIT_EXPECT_EQ(test, blkgen_stamp_check(a, run, 77, &gen, &home),
			BLKGEN_S_VALID);
	KUNIT_EXPECT_EQ(test, gen, 5);
	KUNIT_EXPECT_EQ(test, blkgen_stamp_check(a, run + 1, 77, &gen, &home),
			BLKGEN_S_FOREIGN);
	KUNIT_EXPECT_EQ(test, blkgen_stamp_check(a, run, 78, &gen, &home),
			BLKGEN_S_MISDIRECTED);
	KUNIT_EXPECT_EQ(test, home, 77);
	blkgen_stamp_fill(b, run, 77, 6);
	KUNIT_EXPECT_NE(test, memcmp(a + 32, b + 32, 64), 0);
	a[300] ^= 1;
	KUNIT_EXPECT_EQ(test, blkgen_stamp_check(a, run, 77, &gen, &home),
			BLKGEN_S_CORRUPT);
}

static struct kunit_case blkgen_hist_cases[] = {
	KUNIT_CASE(hist_bins_test),
	KUNIT_CASE(hist_merge_test),
	KUNIT_CASE(hist_rank_test),
	{}
};

static struct kunit_case blkgen_pattern_cases[] = {
	KUNIT_CASE(pattern_bounds_test),
	KUNIT_CASE(pattern_sequential_test),
	KUNIT_CASE(pattern_determinism_test),
	KUNIT_CASE(pattern_resolve_test),
	KUNIT_CASE(pattern_div_align_test),
	{}
};

static struct kunit_case blkgen_rate_cases[] = {
	KUNIT_CASE(rate_fixed_test),
	KUNIT_CASE(rate_mean_test),
	{}
};

static struct kunit_case blkgen_replay_cases[] = {
	KUNIT_CASE_PARAM(replay_map_test, replay_map_gen_params),
	KUNIT_CASE(replay_due_test),
	KUNIT_CASE_PARAM(replay_speed_test, replay_speed_gen_params),
	{}
};

static struct kunit_case blkgen_stamp_cases[] = {
	KUNIT_CASE(stamp_crc_test),
	KUNIT_CASE(stamp_crc_hw_test),
	KUNIT_CASE(stamp_check_test),
	{}
};

static struct kunit_suite blkgen_hist_suite = {
	.name = "blkgen_hist",
	.test_cases = blkgen_hist_cases,
};

static struct kunit_suite blkgen_pattern_suite = {
	.name = "blkgen_pattern",
	.test_cases = blkgen_pattern_cases,
};

static struct kunit_suite blkgen_rate_suite = {
	.name = "blkgen_rate",
	.test_cases = blkgen_rate_cases,
};

static struct kunit_suite blkgen_replay_suite = {
	.name = "blkgen_replay",
	.test_cases = blkgen_replay_cases,
};

static struct kunit_suite blkgen_stamp_suite = {
	.name = "blkgen_stamp",
	.test_cases = blkgen_stamp_cases,
};

kunit_test_suites(&blkgen_hist_suite, &blkgen_pattern_suite,
		  &blkgen_rate_suite, &blkgen_replay_suite,
		  &blkgen_stamp_suite);

MODULE_DESCRIPTION("KUnit cases for blkgen's pure cores");
MODULE_LICENSE("GPL");
