// SPDX-License-Identifier: GPL-2.0
/*
 * Description: a trace record lands in the workload's range (kept where
 * it fits and is aligned; else taken modulo the range, aligned down and
 * moved back from the end; sizes rounded up to the logical block and
 * clipped to the largest bs, each change flagged); its due time scales
 * with replay_speed; the speed parser takes 0.01% to 1000000%.
 */
#include "replay-map.h"
#include "unit.h"

static void test_map(void)
{
	struct blkgen_pattern p = { .start = 1 << 20, .end = 9 << 20,
				    .max_size = 64 << 10 };
	static const struct {
		u64 off; u32 len; u32 op;
		u64 want_off; u32 want_len; unsigned int flags;
	} t[] = {
		/* inside, aligned: as traced, shifted by the range start */
		{ 0, 4096, BLKGEN_TRACE_READ, 1 << 20, 4096, 0 },
		{ (8 << 20) - 4096, 4096, BLKGEN_TRACE_WRITE, (9 << 20) - 4096, 4096, 0 },
		/* a 512-byte record on a 4 KiB device: one block */
		{ 8192, 512, BLKGEN_TRACE_READ, (1 << 20) + 8192, 4096, 0 },
		{ 8192, 0, BLKGEN_TRACE_READ, (1 << 20) + 8192, 4096, 0 },
		/* unaligned: aligned down, flagged */
		{ 4096 + 512, 4096, BLKGEN_TRACE_READ, (1 << 20) + 4096, 4096, BLKGEN_MAP_REMAPPED },
		/* past the range: modulo */
		{ (8 << 20) + 12288, 4096, BLKGEN_TRACE_READ, (1 << 20) + 12288, 4096, BLKGEN_MAP_REMAPPED },
		/* running past the end: moved back */
		{ (8 << 20) - 4096, 8192, BLKGEN_TRACE_READ, (9 << 20) - 8192, 8192, BLKGEN_MAP_REMAPPED },
		/* too large: clipped to 64 KiB */
		{ 0, 1 << 20, BLKGEN_TRACE_READ, 1 << 20, 64 << 10, BLKGEN_MAP_CLIPPED },
		/* both, from a huge offset */
		{ ~0ULL - 100, 1 << 20, BLKGEN_TRACE_WRITE, 0, 64 << 10,
		  BLKGEN_MAP_CLIPPED | BLKGEN_MAP_REMAPPED },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blkgen_trace_rec r = { .offset = t[i].off,
					      .len = t[i].len, .op = t[i].op };
		struct blkgen_choice c;
		unsigned int f = blkgen_replay_map(&p, 4096, &r, &c);

		CHECK(f == t[i].flags, "map %u: flags %u", i, f);
		CHECK(c.size == t[i].want_len, "map %u: size %u", i, c.size);
		CHECK(c.write == (t[i].op == BLKGEN_TRACE_WRITE), "map %u: dir", i);
		CHECK(c.offset >= p.start && c.offset + c.size <= p.end &&
		      !(c.offset % 4096), "map %u: %llu not in the range", i,
		      (unsigned long long)c.offset);
		if (t[i].want_off)
			CHECK(c.offset == t[i].want_off, "map %u: offset %llu", i,
			      (unsigned long long)c.offset);
	}
}

static void test_due(void)
{
	CHECK(blkgen_replay_due(1000, 5000, BLKGEN_SPEED_ONE) == 6000, "1x");
	CHECK(blkgen_replay_due(1000, 5000, 2 * BLKGEN_SPEED_ONE) == 3500, "2x");
	CHECK(blkgen_replay_due(0, 1000000, 1000) == 10000000, "10%%");
	CHECK(blkgen_replay_due(0, 3, 3 * BLKGEN_SPEED_ONE) == 1, "3x");
	/* 10000x: a second of trace in 100 us */
	CHECK(blkgen_replay_due(5, 1000000000, BLKGEN_SPEED_MAX) == 100005,
	      "10000x");
	CHECK(blkgen_replay_due(10, ~0ULL, 1) == ~0ULL, "beyond u64");
	CHECK(blkgen_replay_due(10, ~0ULL - 10, BLKGEN_SPEED_ONE) == ~0ULL,
	      "1x: beyond u64");
	CHECK(blkgen_replay_due(10, ~0ULL - 11, BLKGEN_SPEED_ONE) ==
	      ~0ULL - 1, "1x: the last time");
	/* 30 days of trace at 0.01%: 259e15 ns, no overflow on the way */
	CHECK(blkgen_replay_due(0, 2592000000000000ULL / 10000, 1) ==
	      2592000000000000ULL, "30 days");
}

static void test_speed(void)
{
	static const struct { const char *s; int rc; u32 v; } t[] = {
		{ "100", 0, 10000 }, { "12.5", 0, 1250 }, { "250.25%", 0, 25025 },
		{ "0.01", 0, 1 }, { "10000", 0, 1000000 }, { "1", 0, 100 },
		{ "1000000", 0, 100000000 }, { "15000.5", 0, 1500050 },
		{ "0", -1 }, { "0.00", -1 }, { "1000000.01", -1 }, { "", -1 },
		{ "1.", -1 }, { ".5", -1 }, { "1.234", -1 }, { "-1", -1 },
		{ "12345678", -1 }, { "50x", -1 }, { "%", -1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		u32 v = 7;
		int rc = blkgen_parse_speed(t[i].s, &v);

		CHECK(rc == t[i].rc, "speed '%s': rc %d", t[i].s, rc);
		CHECK(rc ? v == 7 : v == t[i].v, "speed '%s' = %u", t[i].s, v);
	}
}

int main(void)
{
	test_map();
	test_due();
	test_speed();
	return t_exit("test-replay");
}
