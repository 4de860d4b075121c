// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the parsers of the compound workload attributes (sizes,
 * bs splits, zoned tables, ranges) accept what the contract allows and
 * reject everything else, leaving the old value on a rejected write.
 */
#include "pattern.h"
#include "unit.h"

static void test_size(void)
{
	static const struct { const char *s; int rc; u64 v; } t[] = {
		{ "0", 0, 0 }, { "4096", 0, 4096 }, { "4k", 0, 4096 },
		{ "4K", 0, 4096 }, { "1m", 0, 1 << 20 }, { "2g", 0, 2ULL << 30 },
		{ "1t", 0, 1ULL << 40 }, { "", -1, 0 }, { "k", -1, 0 },
		{ "4kb", -1, 0 }, { "4 k", -1, 0 }, { "-1", -1, 0 },
		{ "18446744073709551615", 0, ~0ULL },
		{ "18446744073709551616", -1, 0 }, { "17179869184g", -1, 0 },
		/* A drive's "3.84t", "1.5g": decimals with a unit, rounded down */
		{ "3.84t", 0, 4222124650659ULL }, { "1.5g", 0, 3ULL << 29 },
		{ "0.5k", 0, 512 }, { "4.000001k", 0, 4096 },
		{ "1.5", -1, 0 }, { "1.k", -1, 0 }, { ".5k", -1, 0 },
		{ "1.0000001k", -1, 0 }, { "16777215.999999t", 0,
		  (16777215ULL << 40) + 1099510528264ULL },
		{ "16777216.0t", -1, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		u64 v = 12345;
		int rc = blkgen_parse_size(t[i].s, &v);

		CHECK(rc == t[i].rc, "size '%s': rc %d", t[i].s, rc);
		if (!rc && !t[i].rc)
			CHECK(v == t[i].v, "size '%s' = %llu", t[i].s,
			      (unsigned long long)v);
	}
}

static void test_bs(void)
{
	static const struct { const char *s; int rc; unsigned int nr; } t[] = {
		{ "4k", 0, 1 }, { "512", 0, 1 }, { "1m", 0, 1 },
		{ "4k/50:8k/30:64k/20", 0, 3 }, { "8k/90:32k/10", 0, 2 },
		{ "4k/100", 0, 1 },
		{ "1000", -1 }, { "256", -1 }, { "2m", -1 }, { "0", -1 },
		{ "4k/50:8k/40", -1 }, { "4k/50:8k/60", -1 },
		{ "4k/0:8k/100", -1 }, { "4k/50:", -1 }, { "4k/50:8k", -1 },
		{ "4k/", -1 }, { "4k:8k", -1 }, { "", -1 }, { "4k/101", -1 },
		{ "4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:4k/6:"
		  "4k/6:4k/6:4k/6:4k/6:4k/6:4k/4", -1 },	/* 17 entries */
		{ "4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:4k/7:"
		  "4k/7:4k/7:4k/7:4k/2", 0, 15 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blkgen_bs bs = { .nr = 99 };
		int rc = blkgen_parse_bs(t[i].s, &bs);

		CHECK(rc == t[i].rc, "bs '%s': rc %d", t[i].s, rc);
		if (!t[i].rc)
			CHECK(bs.nr == t[i].nr && bs.cum[bs.nr - 1] == 100,
			      "bs '%s': nr %u", t[i].s, bs.nr);
		else
			CHECK(bs.nr == 99, "bs '%s' changed on error", t[i].s);
	}
}

static void test_zones(void)
{
	static const struct { const char *s; int rc; unsigned int nr; } t[] = {
		{ "uniform", 0, 0 }, { "zoned:100/100", 0, 1 },
		{ "zoned:60/10:30/20:8/30:2/40", 0, 4 },
		{ "zoned:0/50:100/50", 0, 2 },
		{ "zoned:60/10:30/20", -1 }, { "zoned:50/0:50/100", -1 },
		{ "zoned:", -1 }, { "zoned", -1 }, { "zipf:1.2", -1 },
		{ "uniformx", -1 }, { "zoned:50/50:50/50:", -1 },
		{ "zoned:50/50;50/50", -1 },
		{ "zoned:79.5/0.01:20.5/99.99", 0, 2 },
		{ "zoned:33.33/33.33:33.33/33.33:33.34/33.34", 0, 3 },
		{ "zoned:50.125/50:49.875/50", -1 }, { "zoned:50/0.00:50/100", -1 },
		{ "zoned:50./50:50/50", -1 }, { "zoned:100.01/100", -1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blkgen_zones z = { .nr = 99 };
		int rc = blkgen_parse_zones(t[i].s, &z);

		CHECK(rc == t[i].rc, "zones '%s': rc %d", t[i].s, rc);
		if (!t[i].rc)
			CHECK(z.nr == t[i].nr, "zones '%s': nr %u", t[i].s, z.nr);
		else
			CHECK(z.nr == 99, "zones '%s' changed on error", t[i].s);
	}
}

static void test_range(void)
{
	static const struct {
		const char *s; int rc; bool pct; u64 a, b;
	} t[] = {
		{ "0%-25%", 0, true, 0, 2500 },
		{ "0%-100%", 0, true, 0, 10000 },
		{ "12.5%-50.25%", 0, true, 1250, 5025 },
		{ "1g-2g", 0, false, 1ULL << 30, 2ULL << 30 },
		{ "0-4096", 0, false, 0, 4096 },
		{ "25%-0%", -1 }, { "2g-1g", -1 }, { "1g-1g", -1 },
		{ "0%-101%", -1 }, { "0%-1g", -1 }, { "0-", -1 },
		{ "-4k", -1 }, { "0%", -1 }, { "1.%-2%", -1 },
		{ "0%-25%x", -1 }, { "", -1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blkgen_range r = { .start = 7 };
		int rc = blkgen_parse_range(t[i].s, &r);

		CHECK(rc == t[i].rc, "range '%s': rc %d", t[i].s, rc);
		if (!rc && !t[i].rc)
			CHECK(r.pct == t[i].pct && r.start == t[i].a &&
			      r.end == t[i].b, "range '%s' = %d %llu %llu",
			      t[i].s, r.pct, (unsigned long long)r.start,
			      (unsigned long long)r.end);
		if (t[i].rc)
			CHECK(r.start == 7, "range '%s' changed on error",
			      t[i].s);
	}
}

int main(void)
{
	test_size();
	test_bs();
	test_zones();
	test_range();
	return t_exit("parse");
}
