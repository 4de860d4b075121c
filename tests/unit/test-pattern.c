// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the per-I/O choice follows the workload: read share, size
 * mix, zoned and uniform offsets (chi-square over 10^6 draws), alignment
 * and bounds, sequential runs for seekpct, determinism per seed, and the
 * resolution of ranges against a device.
 */
#include <math.h>
#include <string.h>

#include "pattern.h"
#include "unit.h"

#define N 1000000

/* Chi-square statistic of observed counts against expected shares. */
static double chi2(const unsigned long *obs, const double *share, int k,
		   unsigned long n)
{
	double x = 0;
	int i;

	for (i = 0; i < k; i++) {
		double e = share[i] * n;

		x += (obs[i] - e) * (obs[i] - e) / e;
	}
	return x;
}

/* Upper 0.1% points of chi-square for k-1 degrees of freedom. */
static double chi2_crit(int df)
{
	/* Wilson-Hilferty approximation, z = 3.09 (p = 0.001). */
	double z = 3.09, h = 2.0 / (9 * df);

	return df * pow(1 - h + z * sqrt(h), 3);
}

static struct blkgen_pattern make(const char *bs, const char *zones,
				  const char *range, u32 rdpct, u32 seekpct,
				  u64 dev, u32 lbs, int *rc)
{
	struct blkgen_pattern p = { .rdpct = rdpct, .seekpct = seekpct };
	struct blkgen_range r;

	CHECK(!blkgen_parse_bs(bs, &p.bs), "bs %s", bs);
	CHECK(!blkgen_parse_zones(zones, &p.zones), "zones %s", zones);
	CHECK(!blkgen_parse_range(range, &r), "range %s", range);
	*rc = blkgen_pattern_resolve(&p, &r, dev, lbs);
	return p;
}

static void test_mix(void)
{
	static const double bs_share[] = { 0.5, 0.3, 0.2 };
	static const double rw_share[] = { 0.7, 0.3 };
	unsigned long sizes[3] = { 0 }, rw[2] = { 0 };
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	int rc, i;

	p = make("4k/50:8k/30:64k/20", "uniform", "0%-100%", 70, 100,
		 1ULL << 30, 512, &rc);
	CHECK(rc == 0, "resolve");
	CHECK(p.align == 4096 && p.max_size == 65536, "align/max");
	blkgen_stream_init(&st, &p, 1, 0, 0, 1);
	for (i = 0; i < N; i++) {
		blkgen_pattern_next(&p, &st, &c);
		rw[c.write]++;
		sizes[c.size == 4096 ? 0 : c.size == 8192 ? 1 : 2]++;
		CHECK(c.size == 4096 || c.size == 8192 || c.size == 65536,
		      "size %u", c.size);
		if (c.offset % 4096 || c.offset + c.size > p.end) {
			CHECK(0, "offset %llu size %u",
			      (unsigned long long)c.offset, c.size);
			break;
		}
	}
	printf("# reads %.3f%%, sizes %.3f/%.3f/%.3f%%\n", rw[0] * 100.0 / N,
	       sizes[0] * 100.0 / N, sizes[1] * 100.0 / N,
	       sizes[2] * 100.0 / N);
	CHECK(chi2(rw, rw_share, 2, N) < chi2_crit(1), "read share");
	CHECK(chi2(sizes, bs_share, 3, N) < chi2_crit(2), "size mix");
}

static void test_uniform(void)
{
	static unsigned long bucket[100];
	static double share[100];
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	int rc, i;

	/* Range 25%-75% of 4 GiB, 4 KiB blocks: 524288 slots. */
	p = make("4k", "uniform", "25%-75%", 100, 100, 4ULL << 30, 4096, &rc);
	CHECK(rc == 0 && p.start == 1ULL << 30 && p.end == 3ULL << 30,
	      "25%%-75%% of 4 GiB is [1 GiB, 3 GiB)");
	blkgen_stream_init(&st, &p, 2, 0, 0, 1);
	for (i = 0; i < 100; i++)
		share[i] = 0.01;
	for (i = 0; i < N; i++) {
		blkgen_pattern_next(&p, &st, &c);
		CHECK(!c.write, "rdpct 100 never writes");
		if (c.offset < p.start || c.offset + 4096 > p.end) {
			CHECK(0, "outside range: %llu",
			      (unsigned long long)c.offset);
			break;
		}
		bucket[(c.offset - p.start) * 100 / (p.end - p.start)]++;
	}
	CHECK(chi2(bucket, share, 100, N) < chi2_crit(99), "uniform offsets");
}

static void test_zoned(void)
{
	static const double share[] = { 0.6, 0.3, 0.1 };
	unsigned long zone[3] = { 0 };
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	int rc, i;

	/* 60% of accesses to the first 10%, 30% to the next 20%. */
	p = make("4k/50:16k/50", "zoned:60/10:30/20:10/70", "0%-100%", 50,
		 100, 1ULL << 30, 512, &rc);
	CHECK(rc == 0, "resolve zoned");
	blkgen_stream_init(&st, &p, 3, 0, 0, 1);
	for (i = 0; i < N; i++) {
		u64 pos;

		blkgen_pattern_next(&p, &st, &c);
		pos = (c.offset - p.start) * 100 / (p.end - p.start);
		zone[pos < 10 ? 0 : pos < 30 ? 1 : 2]++;
		if (c.offset + c.size > p.end || c.offset % 4096) {
			CHECK(0, "offset %llu", (unsigned long long)c.offset);
			break;
		}
	}
	printf("# zones %.3f/%.3f/%.3f%%\n", zone[0] * 100.0 / N,
	       zone[1] * 100.0 / N, zone[2] * 100.0 / N);
	CHECK(chi2(zone, share, 3, N) < chi2_crit(2), "zone shares");
}

/* Zones in hundredths of a percent: 79.5% of accesses to 0.01% of 1 TiB. */
static void test_zoned_fine(void)
{
	static const double share[] = { 0.795, 0.1025, 0.1025 };
	unsigned long zone[3] = { 0 };
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	u64 span, pos;
	int rc, i;

	p = make("4k", "zoned:79.5/0.01:10.25/0.99:10.25/99", "0%-100%", 50,
		 100, 1ULL << 40, 512, &rc);
	CHECK(rc == 0, "resolve fine zoned");
	span = p.end - p.start;
	blkgen_stream_init(&st, &p, 5, 0, 0, 1);
	for (i = 0; i < N; i++) {
		blkgen_pattern_next(&p, &st, &c);
		pos = c.offset - p.start;
		zone[pos < span / 10000 ? 0 : pos < span / 100 ? 1 : 2]++;
	}
	printf("# fine zones %.3f/%.3f/%.3f%%\n", zone[0] * 100.0 / N,
	       zone[1] * 100.0 / N, zone[2] * 100.0 / N);
	CHECK(chi2(zone, share, 3, N) < chi2_crit(2), "fine zone shares");
}

static void test_sequential(void)
{
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	unsigned long seq = 0;
	u64 expect;
	int rc, i;

	/* seekpct 0: back to back, wrapping at the end of the range. */
	p = make("64k", "uniform", "1m-2m", 100, 0, 1ULL << 30, 512, &rc);
	CHECK(rc == 0, "resolve seq");
	blkgen_stream_init(&st, &p, 4, 0, 0, 1);
	expect = p.start;
	for (i = 0; i < 1000; i++) {
		blkgen_pattern_next(&p, &st, &c);
		CHECK(c.offset == expect, "sequential %d: %llu != %llu", i,
		      (unsigned long long)c.offset,
		      (unsigned long long)expect);
		expect = c.offset + c.size >= p.end ? p.start :
			 c.offset + c.size;
	}

	/* seekpct 20: 80% of I/Os continue the previous one. */
	p = make("4k", "uniform", "0%-100%", 100, 20, 1ULL << 34, 512, &rc);
	blkgen_stream_init(&st, &p, 5, 0, 0, 1);
	blkgen_pattern_next(&p, &st, &c);
	for (i = 0; i < N; i++) {
		u64 prev_end = c.offset + c.size;

		blkgen_pattern_next(&p, &st, &c);
		seq += c.offset == prev_end;
	}
	printf("# seekpct 20: %.3f%% sequential\n", seq * 100.0 / N);
	CHECK(fabs(seq / (double)N - 0.8) < 0.003, "seekpct 20 share");
}

/* Workers' sequential streams start at their own part of the range. */
static void test_stream_parts(void)
{
	struct blkgen_stream st;
	struct blkgen_choice c;
	struct blkgen_pattern p;
	u64 span;
	int rc;
	u32 k;

	p = make("64k/50:128k/50", "uniform", "10%-90%", 100, 0, 1ULL << 30,
		 512, &rc);
	CHECK(rc == 0, "resolve parts");
	span = p.end - p.start;
	for (k = 0; k < 3; k++) {
		blkgen_stream_init(&st, &p, 7, k, k, 3);
		blkgen_pattern_next(&p, &st, &c);
		CHECK(c.offset == p.start + (span / 3 * k) / p.align * p.align &&
		      c.offset % p.align == 0,
		      "part %u of 3 starts at %llu", k,
		      (unsigned long long)c.offset);
	}
	blkgen_stream_init(&st, &p, 7, 0, 0, 1);
	blkgen_pattern_next(&p, &st, &c);
	CHECK(c.offset == p.start, "one part starts at the range's start");
}

static void test_determinism(void)
{
	struct blkgen_stream a, b, c2;
	struct blkgen_choice x, y, z;
	struct blkgen_pattern p;
	int rc, i, same = 0;

	p = make("4k/50:8k/50", "uniform", "0%-100%", 50, 100, 1ULL << 30,
		 512, &rc);
	blkgen_stream_init(&a, &p, 99, 1, 0, 1);
	blkgen_stream_init(&b, &p, 99, 1, 0, 1);
	blkgen_stream_init(&c2, &p, 99, 2, 0, 1);
	for (i = 0; i < 10000; i++) {
		blkgen_pattern_next(&p, &a, &x);
		blkgen_pattern_next(&p, &b, &y);
		blkgen_pattern_next(&p, &c2, &z);
		CHECK(!memcmp(&x, &y, sizeof(x)), "same seed differs at %d", i);
		same += x.offset == z.offset;
	}
	CHECK(same < 10, "other stream repeats offsets (%d)", same);
}

static void test_resolve_errors(void)
{
	struct blkgen_pattern p;
	int rc;

	p = make("4k/50:6k/50", "uniform", "0%-100%", 100, 100, 1ULL << 30,
		 4096, &rc);
	CHECK(rc == BLKGEN_PAT_LBS, "6k on a 4k-sector device");
	p = make("4k", "uniform", "0-2g", 100, 100, 1ULL << 30, 512, &rc);
	CHECK(rc == BLKGEN_PAT_BEYOND, "range beyond device");
	p = make("64k", "uniform", "0-32k", 100, 100, 1ULL << 30, 512, &rc);
	CHECK(rc == BLKGEN_PAT_SMALL, "range smaller than the size");
	p = make("4k", "uniform", "0%-0.01%", 100, 100, 1ULL << 20, 512, &rc);
	CHECK(rc == BLKGEN_PAT_SMALL, "tiny percent range");
	p = make("4k", "uniform", "1%-2%", 100, 100, 1000ULL << 20, 512, &rc);
	CHECK(rc == 0 && p.start == 10485760 && p.end == 20971520,
	      "1%%-2%% of 1000 MiB: %llu-%llu", (unsigned long long)p.start,
	      (unsigned long long)p.end);
	/* 0.01% of 64 MiB is 6.7 KB: aligned to 64k the first zone is empty. */
	p = make("64k", "zoned:50/0.01:50/99.99", "0%-100%", 100, 100,
		 64ULL << 20, 512, &rc);
	CHECK(rc == BLKGEN_PAT_ZONE, "zone of zero width: rc %d", rc);
	p = make("4k", "zoned:50/0.01:50/99.99", "0%-100%", 100, 100,
		 64ULL << 20, 512, &rc);
	CHECK(rc == 0, "zone of one 4k block: rc %d", rc);
	(void)p;
}

/*
 * blkgen_div_align() divides by any alignment without a division: check it
 * against the division for every alignment the sizes allow (512 to 1 MiB
 * in steps of 512) at the extremes and at random offsets up to 2^62.
 */
static void test_div_align(void)
{
	unsigned long long seed = 42, bad = 0;
	struct blkgen_pattern p;
	char bs[32];
	u64 a, v, k;
	int rc, i;

	for (a = 512; a <= 1024 * 1024; a += 512) {
		snprintf(bs, sizeof(bs), "%llu", (unsigned long long)a);
		p = make(bs, "uniform", "0%-100%", 100, 100, 1ULL << 40, 512,
			 &rc);
		if (rc) {
			bad++;
			continue;
		}
		for (i = 0; i < 64; i++) {
			switch (i % 4) {
			case 0:		/* just below and at multiples */
				k = t_rand(&seed) % ((1ULL << 62) / a);
				v = k * a - (k ? 1 : 0);
				break;
			case 1:
				k = t_rand(&seed) % ((1ULL << 62) / a);
				v = k * a;
				break;
			case 2:		/* the top of the domain */
				v = (1ULL << 62) - 1 - t_rand(&seed) % a;
				break;
			default:
				v = t_rand(&seed) >> 2;
				break;
			}
			if (blkgen_div_align(&p, v) != v / a)
				bad++;
		}
	}
	CHECK(!bad, "blkgen_div_align wrong in %llu cases", bad);
}

/* A 12k alignment (no power of two): offsets stay aligned and in range. */
static void test_odd_align(void)
{
	struct blkgen_stream st;
	struct blkgen_choice c;
	unsigned long outside = 0, unaligned = 0, top = 0;
	struct blkgen_pattern p;
	int rc, i;

	p = make("12k/50:16k/50", "zoned:50/30:50/70", "1m-1001m", 100, 100,
		 2000ULL << 20, 512, &rc);
	CHECK(rc == 0 && p.align == 12288 && !p.align_shift,
	      "resolve 12k: rc %d", rc);
	blkgen_stream_init(&st, &p, 7, 0, 0, 1);
	for (i = 0; i < 1000000; i++) {
		blkgen_pattern_next(&p, &st, &c);
		if (c.offset < p.start || c.offset + c.size > p.end)
			outside++;
		if ((c.offset - p.start) % p.align)
			unaligned++;
		if (c.offset + c.size > p.end - 16384)
			top++;
	}
	CHECK(!outside && !unaligned && top,
	      "12k: %lu outside, %lu unaligned, %lu near the end", outside,
	      unaligned, top);
}

/*
 * One size and one zone: the count of aligned starts taken at resolve
 * (p.starts) draws exactly the offsets the per-I/O computation draws.
 */
static void test_starts(void)
{
	static const struct {
		const char *bs, *range;
		u64 dev;
	} cases[] = {
		{ "4k", "0%-100%", 1ULL << 30 },
		{ "4k", "1m-1001m", 2000ULL << 20 },
		{ "12k", "0%-100%", (1ULL << 30) + 4096 },
		{ "1m", "0%-25%", 10ULL << 30 },
		{ "4k", "0-8k", 8192 },
	};
	struct blkgen_stream a, b;
	struct blkgen_choice x, y;
	struct blkgen_pattern p, q;
	unsigned int k;
	int rc, i, diff;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		p = make(cases[k].bs, "uniform", cases[k].range, 70, 100,
			 cases[k].dev, 512, &rc);
		CHECK(rc == 0 && p.starts, "%s %s: rc %d, starts %llu",
		      cases[k].bs, cases[k].range, rc,
		      (unsigned long long)p.starts);
		q = p;
		q.starts = 0;
		blkgen_stream_init(&a, &p, 5, k, 0, 1);
		blkgen_stream_init(&b, &q, 5, k, 0, 1);
		for (i = 0, diff = 0; i < 100000; i++) {
			blkgen_pattern_next(&p, &a, &x);
			blkgen_pattern_next(&q, &b, &y);
			diff += x.write != y.write || x.size != y.size ||
				x.offset != y.offset;
		}
		CHECK(!diff, "%s %s: %d of 100000 choices differ", cases[k].bs,
		      cases[k].range, diff);
	}
	p = make("4k/50:8k/50", "uniform", "0%-100%", 100, 100, 1ULL << 30,
		 512, &rc);
	CHECK(rc == 0 && !p.starts, "two sizes: starts %llu",
	      (unsigned long long)p.starts);
	p = make("4k", "zoned:60/10:40/90", "0%-100%", 100, 100, 1ULL << 30,
		 512, &rc);
	CHECK(rc == 0 && !p.starts, "two zones: starts %llu",
	      (unsigned long long)p.starts);
}

/*
 * The worker's fast path draws with blkgen_pattern_fast(): for every
 * pattern blkgen_pattern_is_fast() takes, the same I/O as
 * blkgen_pattern_next() from the same stream; every other is refused.
 */
static void test_fast(void)
{
	static const struct {
		const char *bs, *zones, *range;
		u32 rdpct, seekpct;
		u64 dev;
		bool fast;
	} cases[] = {
		{ "4k", "uniform", "0%-100%", 100, 100, 1ULL << 30, true },
		{ "4k", "uniform", "0%-100%", 70, 100, 1ULL << 30, true },
		{ "4k", "uniform", "0%-100%", 0, 100, 1ULL << 30, true },
		{ "8k", "uniform", "1m-1001m", 50, 100, 2000ULL << 20, true },
		{ "1m", "uniform", "0%-25%", 100, 100, 10ULL << 30, true },
		{ "4k", "uniform", "0-8k", 0, 100, 8192, true },
		{ "12k", "uniform", "0%-100%", 100, 100, 1ULL << 30, false },
		{ "4k/50:8k/50", "uniform", "0%-100%", 100, 100, 1ULL << 30,
		  false },
		{ "4k", "zoned:60/10:40/90", "0%-100%", 100, 100, 1ULL << 30,
		  false },
		{ "4k", "uniform", "0%-100%", 100, 50, 1ULL << 30, false },
		{ "4k", "uniform", "0%-100%", 100, 0, 1ULL << 30, false },
	};
	struct blkgen_stream a, b;
	struct blkgen_choice x;
	struct blkgen_pattern p;
	unsigned int k;
	int rc, i, diff;
	bool wr;
	u64 off;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		p = make(cases[k].bs, cases[k].zones, cases[k].range,
			 cases[k].rdpct, cases[k].seekpct, cases[k].dev, 512,
			 &rc);
		CHECK(rc == 0 && blkgen_pattern_is_fast(&p) == cases[k].fast,
		      "%s %s %s rd %u seek %u: rc %d, fast %d", cases[k].bs,
		      cases[k].zones, cases[k].range, cases[k].rdpct,
		      cases[k].seekpct, rc, blkgen_pattern_is_fast(&p));
		if (!cases[k].fast)
			continue;
		blkgen_stream_init(&a, &p, 7, k, 0, 1);
		blkgen_stream_init(&b, &p, 7, k, 0, 1);
		for (i = 0, diff = 0; i < 100000; i++) {
			blkgen_pattern_next(&p, &a, &x);
			wr = blkgen_pattern_fast(&p, &b, &off);
			diff += x.write != wr || x.size != p.bs.size[0] ||
				x.offset != off;
		}
		CHECK(!diff, "%s %s rd %u: %d of 100000 fast choices differ",
		      cases[k].bs, cases[k].range, cases[k].rdpct, diff);
	}
}

int main(void)
{
	test_mix();
	test_uniform();
	test_zoned();
	test_zoned_fine();
	test_stream_parts();
	test_sequential();
	test_determinism();
	test_resolve_errors();
	test_div_align();
	test_odd_align();
	test_starts();
	test_fast();
	return t_exit("pattern");
}
