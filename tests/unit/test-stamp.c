// SPDX-License-Identifier: GPL-2.0
/*
 * Description: CRC-32C against its check value, the stamp round trip,
 * and the classification of reads: each class planted into a buffer of
 * stamped sectors is found and named at the right sector, with the
 * expected and found generations.
 */
#include <string.h>

#include "stamp.h"
#include "unit.h"

#define RUN	0x1234567890abcdefULL
#define BS	8		/* sectors per block (4 KiB) */
#define NB	4		/* blocks per read */
#define NS	(BS * NB)
#define BASE	1000		/* first sector of the read */

static unsigned char buf[NS][BLKGEN_SECTOR] __attribute__((aligned(8)));

static const void *at(void *ctx, unsigned int i)
{
	(void)ctx;
	return buf[i];
}

static struct blkgen_mismatch got[NB];
static unsigned int nr_got;

static void report(void *ctx, const struct blkgen_mismatch *m)
{
	(void)ctx;
	if (nr_got < NB)
		got[nr_got] = *m;
	nr_got++;
}

/* Stamp block @b of the buffer as sector @home's data of generation @g. */
static void stamp_block(unsigned int b, u64 home, u32 g)
{
	unsigned int i;

	for (i = 0; i < BS; i++)
		blkgen_stamp_fill(buf[b * BS + i], RUN, home + i, g);
}

static u32 check(const u8 *ent, bool relax, u32 *checked)
{
	struct blkgen_vio io = {
		.run_id = RUN, .sector = BASE, .nr_sectors = NS,
		.block_sectors = BS, .ent = ent, .relax = relax,
		.sector_at = at,
	};

	nr_got = 0;
	memset(got, 0, sizeof(got));
	return blkgen_verify_read(&io, report, NULL, checked);
}

static void fresh(u8 *ent, u32 g)
{
	unsigned int b;

	for (b = 0; b < NB; b++) {
		stamp_block(b, BASE + b * BS, g);
		ent[b] = g;
	}
}

#define EXPECT_ONE(_cls, _sector, _exp, _found)				\
	do {								\
		CHECK(nr_got == 1, "%s: %u reports", #_cls, nr_got);	\
		CHECK(got[0].cls == (_cls), "%s: class %s", #_cls,	\
		      blkgen_vclass_name(got[0].cls));			\
		CHECK(got[0].sector == (_sector), "%s: sector %llu",	\
		      #_cls, (unsigned long long)got[0].sector);	\
		CHECK(got[0].expected == (_exp) && got[0].found == (_found), \
		      "%s: expected %u found %u", #_cls, got[0].expected, \
		      got[0].found);					\
	} while (0)

int main(void)
{
	u8 ent[NB], old[BLKGEN_SECTOR * BS];
	u32 checked, gen, bad;
	u64 home;

	/* Both ways of computing CRC-32C, checked against each other. */
	{
		static unsigned char r[4099];
		unsigned long long seed = 1;
		u32 sw[64], i, hw = 0;

#ifdef __x86_64__
		hw = __builtin_cpu_supports("sse4.2");
#endif
		for (i = 0; i < sizeof(r); i++)
			r[i] = t_rand(&seed);
		blkgen_crc32c_init(false);
		for (i = 0; i < 64; i++)
			sw[i] = blkgen_crc32c(r + i, sizeof(r) - 2 * i);
		blkgen_crc32c_init(hw);
		for (i = 0; i < 64; i++)
			CHECK(blkgen_crc32c(r + i, sizeof(r) - 2 * i) == sw[i],
			      "crc32c: table and instruction differ at %u", i);
		printf("# crc32c instruction %s\n", hw ? "used" : "not available");
	}
	CHECK(blkgen_crc32c("123456789", 9) == 0xe3069283,
	      "crc32c check value %08x", blkgen_crc32c("123456789", 9));
	CHECK(blkgen_crc32c("", 0) == 0, "crc32c of nothing");
	/* Unaligned start and tail go through the byte loops. */
	CHECK(blkgen_crc32c("x123456789" + 1, 9) == 0xe3069283,
	      "crc32c unaligned");
	blkgen_crc32c_init(false);
	CHECK(blkgen_crc32c("x123456789" + 1, 9) == 0xe3069283,
	      "crc32c unaligned, table");

	/*
	 * A stamp over unchanged data (the module's write pages): its CRC
	 * from the key and four lookups is the sector's CRC, both ways, for
	 * random data, zeros and ones, any generation and sector.
	 */
	{
		static unsigned char sec[BLKGEN_SECTOR] __attribute__((aligned(8)));
		unsigned long long seed = 7;
		u32 i, k, hw = 0, key, bad_crc = 0;

#ifdef __x86_64__
		hw = __builtin_cpu_supports("sse4.2");
#endif
		for (k = 0; k < 2; k++) {
			blkgen_crc32c_init(k ? hw : 0);
			for (i = 0; i < 300; i++) {
				u32 j;

				for (j = 0; j < BLKGEN_SECTOR; j++)
					sec[j] = i == 0 ? 0 : i == 1 ? 0xff :
						 t_rand(&seed);
				key = blkgen_stamp_key(sec);
				blkgen_stamp_head(sec, RUN ^ i, 1000 + i * 977,
						  1 + i % BLKGEN_GEN_MAX, key);
				bad_crc += ((const struct blkgen_stamp *)sec)->crc !=
					   blkgen_crc32c(sec + 8, BLKGEN_SECTOR - 8) ||
					   blkgen_stamp_check(sec, RUN ^ i,
							      1000 + i * 977, &gen,
							      &home) != BLKGEN_S_VALID ||
					   gen != 1 + i % BLKGEN_GEN_MAX;
			}
		}
		CHECK(!bad_crc, "stamp over keyed data: %u of 600 wrong", bad_crc);
	}
	blkgen_crc32c_init(false);

	blkgen_stamp_fill(buf[0], RUN, 77, 5);
	CHECK(blkgen_stamp_check(buf[0], RUN, 77, &gen, &home) ==
	      BLKGEN_S_VALID && gen == 5, "round trip");
	CHECK(blkgen_stamp_check(buf[0], RUN + 1, 77, &gen, &home) ==
	      BLKGEN_S_FOREIGN, "another run's stamp is foreign");
	CHECK(blkgen_stamp_check(buf[0], RUN, 78, &gen, &home) ==
	      BLKGEN_S_MISDIRECTED && home == 77, "misdirected, home");
	blkgen_stamp_fill(buf[1], RUN, 77, 6);
	CHECK(memcmp(buf[0] + 32, buf[1] + 32, 64), "data differs by gen");
	buf[0][300] ^= 1;
	CHECK(blkgen_stamp_check(buf[0], RUN, 77, &gen, &home) ==
	      BLKGEN_S_CORRUPT, "a flipped data bit is corrupt");

	/* Clean. */
	fresh(ent, 3);
	bad = check(ent, false, &checked);
	CHECK(bad == 0 && nr_got == 0 && checked == NB, "clean: %u bad", bad);

	/* Zeros over block 2 (dd if=/dev/zero). */
	fresh(ent, 3);
	memset(buf[2 * BS], 0, BS * BLKGEN_SECTOR);
	CHECK(check(ent, false, &checked) == 1, "zeros");
	EXPECT_ONE(BLKGEN_V_FOREIGN, BASE + 2 * BS, 3, 0);

	/* A bit flipped in block 1's third sector. */
	fresh(ent, 3);
	buf[BS + 2][100] ^= 0x40;
	CHECK(check(ent, false, &checked) == 1, "corrupt");
	EXPECT_ONE(BLKGEN_V_CORRUPT, BASE + BS + 2, 3, 0);

	/* Block 0 copied over block 3: misdirected, found 0's home. */
	fresh(ent, 3);
	memcpy(buf[3 * BS], buf[0], BS * BLKGEN_SECTOR);
	CHECK(check(ent, false, &checked) == 1, "misdirected");
	EXPECT_ONE(BLKGEN_V_MISDIRECTED, BASE + 3 * BS, 3, 3);
	CHECK(got[0].home == BASE, "misdirected home %llu",
	      (unsigned long long)got[0].home);

	/* A single-block read of an older copy: stale. */
	fresh(ent, 3);
	stamp_block(0, BASE, 2);
	{
		struct blkgen_vio io = {
			.run_id = RUN, .sector = BASE, .nr_sectors = BS,
			.block_sectors = BS, .ent = ent, .sector_at = at,
		};

		nr_got = 0;
		CHECK(blkgen_verify_read(&io, report, NULL, &checked) == 1,
		      "stale");
		EXPECT_ONE(BLKGEN_V_STALE, BASE, 3, 2);
	}

	/* The older copy in a read that found current data: torn. */
	CHECK(check(ent, false, &checked) == 1, "torn across blocks");
	EXPECT_ONE(BLKGEN_V_TORN, BASE, 3, 2);

	/* Half a block restored from an older copy: torn, at the half. */
	fresh(ent, 3);
	stamp_block(1, BASE + BS, 2);
	memcpy(old, buf[BS], sizeof(old));
	stamp_block(1, BASE + BS, 3);
	memcpy(buf[BS + 4], old + 4 * BLKGEN_SECTOR, 4 * BLKGEN_SECTOR);
	{
		struct blkgen_vio io = {
			.run_id = RUN, .sector = BASE + BS, .nr_sectors = BS,
			.block_sectors = BS, .ent = ent + 1, .sector_at = at,
			.ctx = NULL,
		};
		/* The read's sector 0 is buffer sector BS. */
		static unsigned char one[BS][BLKGEN_SECTOR];

		memcpy(one, buf[BS], sizeof(one));
		memcpy(buf, one, sizeof(one));
		nr_got = 0;
		CHECK(blkgen_verify_read(&io, report, NULL, &checked) == 1,
		      "torn half");
		EXPECT_ONE(BLKGEN_V_TORN, BASE + BS + 4, 3, 2);
	}

	/* The table expects 2, the device holds 3: phantom. */
	fresh(ent, 3);
	ent[1] = 2;
	CHECK(check(ent, false, &checked) == 1, "phantom");
	EXPECT_ONE(BLKGEN_V_PHANTOM, BASE + BS, 2, 3);

	/* Generations wrap: expected 1, found 30 is older. */
	fresh(ent, 1);
	stamp_block(2, BASE + 2 * BS, BLKGEN_GEN_MAX);
	CHECK(check(ent, false, &checked) == 1, "wrap");
	EXPECT_ONE(BLKGEN_V_TORN, BASE + 2 * BS, 1, BLKGEN_GEN_MAX);

	/* Never written: other data is fine, this run's stamp is not. */
	fresh(ent, 3);
	ent[0] = 0;
	memset(buf[0], 0xa5, BS * BLKGEN_SECTOR);
	CHECK(check(ent, false, &checked) == 0 && nr_got == 0 &&
	      checked == NB - 1, "never written, foreign data: %u", nr_got);
	memcpy(buf[0], buf[BS], BS * BLKGEN_SECTOR);
	CHECK(check(ent, false, &checked) == 1, "victim side");
	EXPECT_ONE(BLKGEN_V_MISDIRECTED, BASE, 0, 3);
	stamp_block(0, BASE, 4);
	CHECK(check(ent, false, &checked) == 1, "unseen write");
	EXPECT_ONE(BLKGEN_V_PHANTOM, BASE, 0, 4);

	/* Unknown after a failed write: not checked. */
	fresh(ent, 3);
	ent[3] = BLKGEN_GEN_UNKNOWN;
	memset(buf[3 * BS], 0, BS * BLKGEN_SECTOR);
	CHECK(check(ent, false, &checked) == 0 && checked == NB - 1,
	      "unknown block");

	/* Relaxed (after a crash): old data of a non-durable block. */
	fresh(ent, 3);
	stamp_block(2, BASE + 2 * BS, 2);
	ent[2] |= 1 << BLKGEN_VT_TAG_SHIFT;
	CHECK(check(ent, true, &checked) == 0, "unflushed is no error");
	EXPECT_ONE(BLKGEN_V_UNFLUSHED, BASE + 2 * BS, 3, 2);
	CHECK(got[0].settle == 2, "unflushed stale: settles at %u",
	      got[0].settle);
	CHECK(check(ent, false, &checked) == 1, "live: still an error");
	ent[2] &= ~BLKGEN_VT_TAG;
	CHECK(check(ent, true, &checked) == 1, "durable block: error");
	/* What an unflushed block settles at: none, or unknown when torn. */
	fresh(ent, 3);
	memset(buf[2 * BS], 0, BS * BLKGEN_SECTOR);
	ent[2] |= 1 << BLKGEN_VT_TAG_SHIFT;
	CHECK(check(ent, true, &checked) == 0 && nr_got == 1 &&
	      got[0].cls == BLKGEN_V_UNFLUSHED && got[0].settle == 0,
	      "unflushed, none: settles at %u", got[0].settle);
	fresh(ent, 3);
	memset(buf[2 * BS + 3], 0, BLKGEN_SECTOR);
	ent[2] |= 1 << BLKGEN_VT_TAG_SHIFT;
	CHECK(check(ent, true, &checked) == 0 && nr_got == 1 &&
	      got[0].cls == BLKGEN_V_UNFLUSHED &&
	      got[0].settle == BLKGEN_GEN_UNKNOWN,
	      "unflushed, part zeros: settles at %u", got[0].settle);
	fresh(ent, 3);
	stamp_block(2, BASE + 2 * BS, 2);
	blkgen_stamp_fill(buf[2 * BS + 5], RUN, BASE + 2 * BS + 5, 1);
	ent[2] |= 1 << BLKGEN_VT_TAG_SHIFT;
	CHECK(check(ent, true, &checked) == 0 && nr_got == 1 &&
	      got[0].cls == BLKGEN_V_UNFLUSHED &&
	      got[0].settle == BLKGEN_GEN_UNKNOWN,
	      "unflushed, two old generations: settles at %u", got[0].settle);
	/* Relaxing never excuses corruption. */
	fresh(ent, 3);
	ent[1] |= 2 << BLKGEN_VT_TAG_SHIFT;
	buf[BS][200] ^= 1;
	CHECK(check(ent, true, &checked) == 1, "corrupt, relaxed");
	EXPECT_ONE(BLKGEN_V_CORRUPT, BASE + BS, 3, 0);

	CHECK(blkgen_gen_next(BLKGEN_GEN_MAX) == 1 && blkgen_gen_next(0) == 1 &&
	      blkgen_gen_next(7) == 8, "gen_next");

	/*
	 * After a failed write of generation x the block holds x or what it
	 * held (x's predecessor, or nothing): the next write's generation is
	 * neither, and a read of either after it is lost finds it stale.
	 */
	for (gen = 1; gen <= BLKGEN_GEN_MAX; gen++) {
		u8 e = blkgen_ent_unknown(gen);
		u32 next = blkgen_ent_next(e), prev = gen - 1;

		CHECK((e & BLKGEN_VT_GEN) == BLKGEN_GEN_UNKNOWN &&
		      !(e & BLKGEN_VT_BUSY), "failed write of %u: entry %#x", gen, e);
		CHECK(next >= 1 && next <= BLKGEN_GEN_MAX && next != gen &&
		      next != prev && (next + BLKGEN_GEN_MAX - gen) % BLKGEN_GEN_MAX <= 8,
		      "failed write of %u: the next write is %u", gen, next);
		/* the failed write landed, the next was lost; or neither */
		for (bad = 0; bad < 2 && (!bad || prev); bad++) {
			fresh(ent, bad ? prev : gen);
			memset(ent, next, sizeof(ent));
			CHECK(check(ent, false, &checked) == NB &&
			      got[0].cls == BLKGEN_V_STALE &&
			      got[0].expected == next &&
			      got[0].found == (bad ? prev : gen),
			      "a lost write of %u over %u: %s", next,
			      bad ? prev : gen, blkgen_vclass_name(got[0].cls));
		}
	}
	CHECK(blkgen_ent_next(blkgen_ent_unknown(0)) == 1, "an unknown never-written block: 1");
	return t_exit("stamp");
}
