// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen data verification, the pure part: CRC-32C (slice-by-8), the
 * stamp every written sector carries, and the classification of a read
 * against the generation table. Pure C (see pure.h).
 */
#include "stamp.h"

#define CRC32C_POLY	0x82f63b78U	/* Castagnoli, reflected */

static u32 crc_tab[8][256];
static bool crc_hw;

/*
 * The CRC register after the rest of a sector past its stamp (zero
 * bytes), as a function of the register before, by bytes: it is linear,
 * so crc_skip[k][b] is that of b << 8k and four lookups give any
 * (blkgen_stamp_head()).
 */
#define STAMP_DATA	(BLKGEN_SECTOR - BLKGEN_STAMP_SIZE)
static u32 crc_skip[4][256];

/*
 * The CPU's CRC-32C instructions, on general registers (no FPU state to
 * save, as crc32c-intel and arm64's crc32 library use them):
 * CRC_WORD(c, p, i) carries the 64-bit register @c over word @i of @p (any
 * alignment), CRC_BYTE(c, b) over the byte @b. x86-64: SSE4.2's crc32q on
 * a memory operand; arm64 (little-endian: crc32cx takes the register's
 * bytes lowest first, the order of memory there): a load and crc32cx.
 */
#if defined(__x86_64__)
#define BLKGEN_CRC_HW
/* Eight bytes at any alignment, as bytes: no alias to another type. */
struct blkgen_word {
	u8 b[8];
};

#define CRC_WORD(c, p, i)						\
	asm("crc32q %1, %0" : "+r" (c)					\
	    : "m" (((const struct blkgen_word *)(p))[i]))
#define CRC_BYTE(c, b)	asm("crc32b %1, %0" : "+r" (c) : "rm" (b))
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
#define BLKGEN_CRC_HW
#define CRC_WORD(c, p, i) do {						\
	u64 __v;							\
									\
	memcpy(&__v, (p) + 8 * (i), 8);					\
	asm(".arch_extension crc\n\tcrc32cx %w0, %w0, %x1"		\
	    : "+r" (c) : "r" (__v));					\
} while (0)
#define CRC_BYTE(c, b)							\
	asm(".arch_extension crc\n\tcrc32cb %w0, %w0, %w1"		\
	    : "+r" (c) : "r" ((u32)(b)))
#endif

#ifdef BLKGEN_CRC_HW
/*
 * Eight words a round, each a crc32q (x86) or a load and a crc32cx
 * (arm64): a stamped sector's 504 bytes in 7 rounds and 7 words, 105
 * instructions on x86 where a word a round took 252.
 */
static u32 crc32c_hw(u32 c32, const u8 *b, size_t len)
{
	u64 c = c32;

	for (; len >= 64; len -= 64, b += 64) {
		CRC_WORD(c, b, 0);
		CRC_WORD(c, b, 1);
		CRC_WORD(c, b, 2);
		CRC_WORD(c, b, 3);
		CRC_WORD(c, b, 4);
		CRC_WORD(c, b, 5);
		CRC_WORD(c, b, 6);
		CRC_WORD(c, b, 7);
	}
	for (; len >= 8; len -= 8, b += 8)
		CRC_WORD(c, b, 0);
	for (; len; len--, b++)
		CRC_BYTE(c, *b);
	return (u32)c;
}
#endif

static u32 crc32c_raw(u32 c, const void *p, size_t len);

/**
 * blkgen_crc32c_init() - Build the CRC-32C tables (once, before use).
 * @hw: the CPU has a CRC-32C instruction: SSE4.2's crc32 (x86-64), the
 *	CRC32 extension's crc32c (arm64, little-endian): use it. It works on
 *	general registers, so the kernel may use it without saving the FPU
 *	state (as crc32c-intel and arm64's crc32 library do).
 *
 * Return: whether the instruction is used: @hw, unless this architecture
 * has none here or it disagrees with the tables on a test buffer.
 */
bool blkgen_crc32c_init(bool hw)
{
	u32 i, j, c, basis[32];
	u8 t[84];

	crc_hw = false;
	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ (c & 1 ? CRC32C_POLY : 0);
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^
					crc_tab[0][crc_tab[j - 1][i] & 0xff];
	for (i = 0; i < 32; i++) {
		c = 1U << i;
		for (j = 0; j < STAMP_DATA; j++)
			c = (c >> 8) ^ crc_tab[0][c & 0xff];
		basis[i] = c;
	}
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 256; j++) {
			u32 b;

			for (c = 0, b = 0; b < 8; b++)
				if (j & 1U << b)
					c ^= basis[8 * i + b];
			crc_skip[i][j] = c;
		}
	}
#ifdef BLKGEN_CRC_HW
	if (!hw)
		return false;
	for (i = 0; i < sizeof(t); i++)
		t[i] = (u8)(i * 37 + 11);
	/* From an odd address, 83 bytes: a round, a word and 3 bytes. */
	c = crc32c_raw(~0U, t + 1, sizeof(t) - 1);
	crc_hw = true;
	if (crc32c_raw(~0U, t + 1, sizeof(t) - 1) != c)
		crc_hw = false;
#else
	(void)hw;
	(void)t;
#endif
	return crc_hw;
}

/*
 * The CRC-32C register @c carried over @len bytes at @p (no initial value
 * or final inversion).
 */
static u32 crc32c_raw(u32 c, const void *p, size_t len)
{
	const u8 *b = p;

#ifdef BLKGEN_CRC_HW
	if (crc_hw)
		return crc32c_hw(c, b, len);
#endif
	for (; len && ((unsigned long)b & 7); len--)
		c = (c >> 8) ^ crc_tab[0][(c ^ *b++) & 0xff];
	for (; len >= 8; len -= 8, b += 8) {
		u32 lo, hi;

		memcpy(&lo, b, 4);
		memcpy(&hi, b + 4, 4);
		lo ^= c;
		c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		    crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		    crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		    crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
	}
	for (; len; len--)
		c = (c >> 8) ^ crc_tab[0][(c ^ *b++) & 0xff];
	return c;
}

/**
 * blkgen_crc32c() - CRC-32C of a buffer (initial ~0, final inversion).
 * @p: data
 * @len: bytes
 * Return: the CRC ("123456789" gives 0xe3069283).
 */
u32 blkgen_crc32c(const void *p, size_t len)
{
	return ~crc32c_raw(~0U, p, len);
}

static const char * const vclass_names[BLKGEN_V_NR] = {
	[BLKGEN_V_OK]		= "ok",
	[BLKGEN_V_FOREIGN]	= "foreign",
	[BLKGEN_V_CORRUPT]	= "corrupt",
	[BLKGEN_V_MISDIRECTED]	= "misdirected",
	[BLKGEN_V_STALE]	= "stale",
	[BLKGEN_V_TORN]		= "torn",
	[BLKGEN_V_PHANTOM]	= "phantom",
	[BLKGEN_V_UNFLUSHED]	= "unflushed",
};

/**
 * blkgen_vclass_name() - The name a class is reported by.
 * @c: class
 * Return: "stale", "torn" and so on.
 */
const char *blkgen_vclass_name(enum blkgen_vclass c)
{
	return c < BLKGEN_V_NR ? vclass_names[c] : "?";
}

/**
 * blkgen_stamp_key() - What a sector's data past the stamp adds to its CRC.
 * @sec: the 512-byte sector (8-byte aligned)
 *
 * The CRC register that data leaves when started from 0. A buffer whose
 * data does not change between writes (a slot's write pages) keys each
 * sector once; blkgen_stamp_head() then stamps it without reading it.
 *
 * Return: the key.
 */
u32 blkgen_stamp_key(const void *sec)
{
	return crc32c_raw(0, (const u8 *)sec + BLKGEN_STAMP_SIZE, STAMP_DATA);
}

/**
 * blkgen_stamp_head() - Write one sector's stamp over unchanged data.
 * @sec: the 512-byte sector (8-byte aligned)
 * @run_id: the table's run id
 * @sector: the sector's number on the device
 * @gen: its new generation
 * @key: blkgen_stamp_key() of the sector's data
 *
 * The CRC covers the stamp's fields and the data: the register after the
 * fields, carried over the data's length (four lookups: crc_skip), XOR
 * the data's own part (@key), as the CRC is linear. About 30 instructions
 * where reading the 480 bytes takes 60 crc32 instructions and more.
 */
void blkgen_stamp_head(void *sec, u64 run_id, u64 sector, u32 gen, u32 key)
{
	struct blkgen_stamp *st = sec;
	u32 c;

	st->magic = BLKGEN_STAMP_MAGIC;
	st->run_id = run_id;
	st->sector = sector;
	st->gen = gen;
	st->reserved = 0;
	c = crc32c_raw(~0U, (u8 *)sec + 8, BLKGEN_STAMP_SIZE - 8);
	c = crc_skip[0][c & 0xff] ^ crc_skip[1][(c >> 8) & 0xff] ^
	    crc_skip[2][(c >> 16) & 0xff] ^ crc_skip[3][c >> 24];
	st->crc = ~(c ^ key);
}

/**
 * blkgen_stamp_fill() - Write one sector's stamp and derived data.
 * @sec: the 512-byte sector (8-byte aligned)
 * @run_id: the table's run id
 * @sector: the sector's number on the device
 * @gen: its new generation
 *
 * The data after the stamp is derived from (@run_id, @sector, @gen):
 * word i is a multiply-xorshift hash of seed + i * φ, incompressible
 * and different for every sector and generation (the tests' sectors; the
 * module stamps its write pages' random data with blkgen_stamp_head()).
 */
void blkgen_stamp_fill(void *sec, u64 run_id, u64 sector, u32 gen)
{
	u64 *w = (u64 *)((u8 *)sec + BLKGEN_STAMP_SIZE);
	u64 x = run_id ^ (sector * 0xd1342543de82ef95ULL) ^ ((u64)gen << 59);
	unsigned int i;

	for (i = 0; i < STAMP_DATA / 8; i++) {
		u64 z = x + (i + 1) * 0x9e3779b97f4a7c15ULL;

		z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
		w[i] = z ^ (z >> 29);
	}
	blkgen_stamp_head(sec, run_id, sector, gen, blkgen_stamp_key(sec));
}

/**
 * blkgen_stamp_check() - What one sector holds.
 * @sec: the sector as read
 * @run_id: the table's run id
 * @sector: the sector's number on the device
 * @gen: set to the stamp's generation (valid or misdirected)
 * @home: set to the stamp's sector (misdirected)
 * Return: the sector's state.
 */
enum blkgen_sstate blkgen_stamp_check(const void *sec, u64 run_id,
				      u64 sector, u32 *gen, u64 *home)
{
	const struct blkgen_stamp *st = sec;

	*gen = 0;
	*home = sector;
	if (st->magic != BLKGEN_STAMP_MAGIC || st->run_id != run_id)
		return BLKGEN_S_FOREIGN;
	if (st->crc != blkgen_crc32c((const u8 *)sec + 8, BLKGEN_SECTOR - 8) ||
	    !st->gen || st->gen > BLKGEN_GEN_MAX)
		return BLKGEN_S_CORRUPT;
	*gen = st->gen;
	if (st->sector != sector) {
		*home = st->sector;
		return BLKGEN_S_MISDIRECTED;
	}
	return BLKGEN_S_VALID;
}

/* Whether @found is older than @expected, generations cycling 1 .. MAX. */
static bool gen_older(u32 found, u32 expected)
{
	u32 d = (expected + BLKGEN_GEN_MAX - found) % BLKGEN_GEN_MAX;

	return d && d < BLKGEN_GEN_MAX / 2;
}

/* The generation a sector's stamp claims, without checking it. */
static u32 stamp_gen(const void *sec, u64 run_id)
{
	const struct blkgen_stamp *st = sec;

	return st->magic == BLKGEN_STAMP_MAGIC && st->run_id == run_id ?
	       st->gen : 0;
}

/* Classify one block of a read; fills @m unless the block is fine. */
static enum blkgen_vclass verify_block(const struct blkgen_vio *io, u32 b,
				       bool io_current,
				       struct blkgen_mismatch *m)
{
	u8 e = READ_ONCE(io->ent[b]);
	u32 exp = e & BLKGEN_VT_GEN, i, first = b * io->block_sectors;
	u32 gen, g0 = 0, cur = 0, older = 0, newer = 0, bad_at = 0, nf = 0;
	u32 bad_gen = 0;
	enum blkgen_vclass bad = BLKGEN_V_OK;
	u64 home, bad_home = 0;
	bool mixed = false;

	for (i = first; i < first + io->block_sectors; i++) {
		u64 sector = io->sector + i;
		enum blkgen_sstate s;

		s = blkgen_stamp_check(io->sector_at(io->ctx, i), io->run_id,
				       sector, &gen, &home);
		if (exp == 0 || exp == BLKGEN_GEN_UNKNOWN) {
			/* Unknown content: only this run's stamps tell. */
			if (s == BLKGEN_S_MISDIRECTED && bad == BLKGEN_V_OK) {
				bad = BLKGEN_V_MISDIRECTED;
				bad_at = i;
				bad_home = home;
				bad_gen = gen;
			} else if (exp == 0 && s == BLKGEN_S_VALID &&
				   bad == BLKGEN_V_OK) {
				bad = BLKGEN_V_PHANTOM;
				bad_at = i;
				bad_gen = gen;
			}
			continue;
		}
		if (s != BLKGEN_S_VALID) {
			if (s == BLKGEN_S_FOREIGN)
				nf++;
			if (bad == BLKGEN_V_OK) {
				bad = s == BLKGEN_S_FOREIGN ? BLKGEN_V_FOREIGN :
				      s == BLKGEN_S_CORRUPT ? BLKGEN_V_CORRUPT :
				      BLKGEN_V_MISDIRECTED;
				bad_at = i;
				bad_home = home;
				bad_gen = gen;
			}
			continue;
		}
		if (!(cur + older + newer))
			g0 = gen;
		else if (gen != g0)
			mixed = true;
		if (gen == exp) {
			cur++;
		} else {
			if (gen_older(gen, exp))
				older++;
			else
				newer++;
			if (older + newer == 1 && bad == BLKGEN_V_OK)
				bad_at = i;
		}
	}

	if (bad == BLKGEN_V_OK) {
		if (!older && !newer)
			return BLKGEN_V_OK;
		if (mixed || (older && io_current))
			bad = BLKGEN_V_TORN;
		else if (older)
			bad = BLKGEN_V_STALE;
		else
			bad = BLKGEN_V_PHANTOM;
		bad_gen = stamp_gen(io->sector_at(io->ctx, bad_at),
				    io->run_id);
	}
	m->settle = BLKGEN_GEN_UNKNOWN;
	if (io->relax && (e & BLKGEN_VT_TAG) &&
	    (bad == BLKGEN_V_STALE || bad == BLKGEN_V_TORN ||
	     bad == BLKGEN_V_FOREIGN)) {
		bad = BLKGEN_V_UNFLUSHED;
		if (nf == io->block_sectors)
			m->settle = 0;
		else if (older == io->block_sectors && !mixed)
			m->settle = g0;
	}
	m->sector = io->sector + bad_at;
	m->home = bad == BLKGEN_V_MISDIRECTED ? bad_home : m->sector;
	m->cls = bad;
	m->expected = exp;
	m->found = bad_gen;
	return bad;
}

/**
 * blkgen_verify_read() - Check a completed read against the table.
 * @io: the read
 * @report: called for each block found wrong (unflushed ones included)
 * @rctx: passed to @report
 * @checked: set to the blocks whose content the table knew
 *
 * Per block, the first sector that is not this run's valid stamp for
 * itself names the class (foreign, corrupt, misdirected). Otherwise the
 * generations decide: all older than the table's is stale; older ones in
 * a read that also found current data, or different generations within
 * the block, are torn; newer is phantom. A block the table never saw
 * written is only wrong if it holds this run's stamp (phantom, or
 * misdirected: the victim side of a write that went astray).
 *
 * Return: the number of blocks found wrong, unflushed ones excluded.
 */
u32 blkgen_verify_read(const struct blkgen_vio *io,
		       void (*report)(void *rctx,
				      const struct blkgen_mismatch *m),
		       void *rctx, u32 *checked)
{
	u32 nb = io->nr_sectors / io->block_sectors, b, i, bad = 0;
	bool io_current = false;
	struct blkgen_mismatch m;

	*checked = 0;
	/* Did the read find any current data? (torn or stale) */
	for (b = 0; b < nb && !io_current; b++) {
		u32 exp = READ_ONCE(io->ent[b]) & BLKGEN_VT_GEN;

		if (exp == 0 || exp == BLKGEN_GEN_UNKNOWN)
			continue;
		for (i = 0; i < io->block_sectors; i++) {
			u32 idx = b * io->block_sectors + i;

			if (stamp_gen(io->sector_at(io->ctx, idx),
				      io->run_id) == exp) {
				io_current = true;
				break;
			}
		}
	}
	for (b = 0; b < nb; b++) {
		u32 exp = READ_ONCE(io->ent[b]) & BLKGEN_VT_GEN;
		enum blkgen_vclass c;

		if (exp && exp != BLKGEN_GEN_UNKNOWN)
			(*checked)++;
		c = verify_block(io, b, io_current, &m);
		if (c == BLKGEN_V_OK)
			continue;
		if (c != BLKGEN_V_UNFLUSHED)
			bad++;
		report(rctx, &m);
	}
	return bad;
}
