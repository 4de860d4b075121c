/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen data verification, the pure part (shared with the host unit
 * tests): CRC-32C, the per-sector stamp, the generation table's entries
 * and the classification of what a read found.
 */
#ifndef _BLKGEN_STAMP_H
#define _BLKGEN_STAMP_H

#include "pure.h"
#include "../uapi/linux/blkgen.h"

#define BLKGEN_SECTOR		512

/*
 * A table entry: bits 0-4 the generation (0 never written, 1 ..
 * BLKGEN_GEN_MAX, BLKGEN_GEN_UNKNOWN after a failed write), bits 5-6 the
 * flush epoch of its last commit (0: a completed flush covers it; for an
 * unknown block, where its next generation starts instead:
 * blkgen_ent_unknown()), bit 7 set while an I/O holds the block.
 */
#define BLKGEN_VT_GEN		0x1f
#define BLKGEN_VT_TAG		0x60
#define BLKGEN_VT_TAG_SHIFT	5
#define BLKGEN_VT_BUSY		0x80
#define BLKGEN_GEN_UNKNOWN	31

static inline u32 blkgen_gen_next(u32 gen)
{
	return gen >= BLKGEN_GEN_MAX || gen == 0 ? 1 : gen + 1;
}

/*
 * The entry of a block whose content is unknown (a failed write of
 * generation @newest, or a torn block a power cut left): its next write
 * takes the first of 1, 9, 17 and 25 after @newest, kept in bits 5-6, so
 * that nothing the block may hold (@newest and older) reads as that
 * write's, and a lost one reads stale. Restarting at 1 let a failed write
 * of 1 that landed pass for a later write of 1 that was lost.
 */
static inline u8 blkgen_ent_unknown(u32 newest)
{
	u32 h = newest ? ((newest - 1) / 8 + 1) & 3 : 0;

	return BLKGEN_GEN_UNKNOWN | h << BLKGEN_VT_TAG_SHIFT;
}

/* The generation the next write of a block with entry @ent carries. */
static inline u32 blkgen_ent_next(u8 ent)
{
	u32 gen = ent & BLKGEN_VT_GEN;

	if (gen == BLKGEN_GEN_UNKNOWN)
		return 1 + 8 * ((ent & BLKGEN_VT_TAG) >> BLKGEN_VT_TAG_SHIFT);
	return blkgen_gen_next(gen);
}

/* What a read found, per block; OK is no mismatch. */
enum blkgen_vclass {
	BLKGEN_V_OK,
	BLKGEN_V_FOREIGN,	/* no stamp of this run: unwritten or other */
	BLKGEN_V_CORRUPT,	/* stamp of this run, CRC mismatch */
	BLKGEN_V_MISDIRECTED,	/* a valid stamp of another sector */
	BLKGEN_V_STALE,		/* an older generation: a lost or stale write */
	BLKGEN_V_TORN,		/* generations mixed within one read */
	BLKGEN_V_PHANTOM,	/* newer than the table: a write it never saw */
	BLKGEN_V_UNFLUSHED,	/* old data no completed flush required new */
	BLKGEN_V_NR,
};

const char *blkgen_vclass_name(enum blkgen_vclass c);

/* One sector's stamp, as checked. */
enum blkgen_sstate {
	BLKGEN_S_VALID,		/* this run's, its own sector, CRC good */
	BLKGEN_S_FOREIGN,
	BLKGEN_S_CORRUPT,
	BLKGEN_S_MISDIRECTED,
};

bool blkgen_crc32c_init(bool hw);
u32 blkgen_crc32c(const void *p, size_t len);
u32 blkgen_stamp_key(const void *sec);
void blkgen_stamp_head(void *sec, u64 run_id, u64 sector, u32 gen, u32 key);
void blkgen_stamp_fill(void *sec, u64 run_id, u64 sector, u32 gen);
enum blkgen_sstate blkgen_stamp_check(const void *sec, u64 run_id,
				      u64 sector, u32 *gen, u64 *home);

/**
 * struct blkgen_mismatch - one block a read found wrong
 * @sector: the block's first mismatching sector (512-byte units)
 * @home: for a misdirected block, the sector its data was written for
 * @cls: the class
 * @expected: the table's generation
 * @found: the generation found (0 when the stamp is not this run's)
 * @settle: for an unflushed block, the generation it now holds for good:
 *	that of every sector when they agree, 0 when none holds a stamp of
 *	this run, else BLKGEN_GEN_UNKNOWN (the table takes it)
 */
struct blkgen_mismatch {
	u64 sector;
	u64 home;
	enum blkgen_vclass cls;
	u32 expected;
	u32 found;
	u32 settle;
};

/**
 * struct blkgen_vio - a completed read to check
 * @run_id: the table's run id
 * @sector: first sector of the read
 * @nr_sectors: its sectors
 * @block_sectors: sectors per table block (the read covers whole blocks)
 * @ent: the table entries of the read's blocks (busy bit ignored)
 * @relax: a non-durable block (flush epoch not 0) may hold older data:
 *	report it as unflushed, not as an error (the after-crash pass)
 * @sector_at: the address of the read's @i-th sector
 * @ctx: passed to @sector_at
 */
struct blkgen_vio {
	u64 run_id;
	u64 sector;
	u32 nr_sectors;
	u32 block_sectors;
	const u8 *ent;
	bool relax;
	const void *(*sector_at)(void *ctx, u32 i);
	void *ctx;
};

u32 blkgen_verify_read(const struct blkgen_vio *io,
		       void (*report)(void *rctx,
				      const struct blkgen_mismatch *m),
		       void *rctx, u32 *checked);

#endif /* _BLKGEN_STAMP_H */
