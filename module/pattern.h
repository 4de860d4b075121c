/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen I/O patterns (pure C, shared with the host unit tests): the PRNG,
 * the parsers of the compound workload attributes, and the per-I/O choice
 * of direction, size and offset.
 */
#ifndef _BLKGEN_PATTERN_H
#define _BLKGEN_PATTERN_H

#include "pure.h"

#define BLKGEN_MAX_BS		16		/* entries in a bs split */
#define BLKGEN_MAX_ZONES	64		/* entries in a zoned table */
#define BLKGEN_MIN_IO		512
#define BLKGEN_MAX_IO		(1024 * 1024)	/* largest I/O size */
#define BLKGEN_PCT_ONE		100		/* range percent unit: 0.01% */
#define BLKGEN_PCT_ALL		(100 * BLKGEN_PCT_ONE)	/* 100%, in 0.01% */

/* xoshiro256**: fast, 2^256 period, fine for load generation. */
struct blkgen_rng {
	u64 s[4];
};

static inline u64 blkgen_rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline u64 blkgen_rng_next(struct blkgen_rng *r)
{
	u64 *s = r->s;
	u64 result = blkgen_rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = blkgen_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) by multiply-shift (bias below n / 2^64). */
static inline u64 blkgen_rng_below(struct blkgen_rng *r, u64 n)
{
	return (u64)(((__uint128_t)blkgen_rng_next(r) * n) >> 64);
}

void blkgen_rng_seed(struct blkgen_rng *r, u64 seed, u64 stream);

/**
 * struct blkgen_bs - I/O size split ("4k" or "4k/50:8k/30:64k/20")
 * @nr: entries
 * @size: bytes per entry, multiples of 512, at most %BLKGEN_MAX_IO
 * @cum: cumulative percent up to and including the entry (last is 100)
 */
struct blkgen_bs {
	unsigned int nr;
	u32 size[BLKGEN_MAX_BS];
	u32 cum[BLKGEN_MAX_BS];
};

/**
 * struct blkgen_zones - zoned access table ("zoned:60/10:30/20:10/70")
 * @nr: zones, 0 for a uniform distribution
 * @access_cum: cumulative share of accesses, units of 0.01%
 * @size_cum: cumulative share of the range, units of 0.01%, zones in order
 */
struct blkgen_zones {
	unsigned int nr;
	u32 access_cum[BLKGEN_MAX_ZONES];
	u32 size_cum[BLKGEN_MAX_ZONES];
};

/**
 * struct blkgen_range - address range as written ("0%-25%", "1g-2g")
 * @pct: true when @start and @end are in units of 0.01% of the device
 * @start: first byte (or percent unit)
 * @end: end, exclusive
 */
struct blkgen_range {
	bool pct;
	u64 start;
	u64 end;
};

int blkgen_parse_size(const char *s, u64 *out);
int blkgen_parse_bs(const char *s, struct blkgen_bs *bs);
int blkgen_parse_zones(const char *s, struct blkgen_zones *z);
int blkgen_parse_range(const char *s, struct blkgen_range *r);

/**
 * struct blkgen_pattern - a workload's resolved pattern (set at job start)
 * @rdpct: percent of reads
 * @seekpct: percent of I/Os at a new random offset
 * @bs: size split
 * @zones: access distribution over the range
 * @start: first byte of the range
 * @end: end of the range, exclusive
 * @align: offset alignment in bytes (smallest size, >= logical block)
 * @align_shift: log2(@align) when it is a power of two, else 0
 * @align_recip: otherwise ceil(2^64 / (@align / 512)): a multiply-high by
 *	it divides a sector count by @align / 512 exactly (no division per
 *	I/O; see blkgen_div_align())
 * @max_size: largest size in @bs
 * @starts: aligned starts of a random I/O when one size and one zone
 *	make it the same for all (0: computed per I/O)
 * @nz: zones in use (1 for a uniform distribution)
 * @zacc: cumulative access share per zone, units of 0.01%
 * @zoff: first byte of each zone, @zoff[@nz] == @end
 *
 * The caller fills @rdpct, @seekpct, @bs and @zones;
 * blkgen_pattern_resolve() computes the rest.
 */
struct blkgen_pattern {
	u32 rdpct;
	u32 seekpct;
	struct blkgen_bs bs;
	struct blkgen_zones zones;
	u64 start;
	u64 end;
	u32 align;
	u32 align_shift;
	u64 align_recip;
	u32 max_size;
	u64 starts;
	unsigned int nz;
	u32 zacc[BLKGEN_MAX_ZONES];
	u64 zoff[BLKGEN_MAX_ZONES + 1];
};

/* blkgen_pattern_resolve() errors, for the caller's message. */
enum {
	BLKGEN_PAT_OK = 0,
	BLKGEN_PAT_LBS = -1,		/* a size is not a multiple of lbs */
	BLKGEN_PAT_BEYOND = -2,		/* range ends beyond the device */
	BLKGEN_PAT_SMALL = -3,		/* range holds no largest-size I/O */
	BLKGEN_PAT_ZONE = -4,		/* a zone rounds to nothing */
};

/**
 * struct blkgen_stream - per worker state of one workload's pattern
 * @rng: the worker's generator for this workload
 * @next: where the next sequential I/O starts
 */
struct blkgen_stream {
	struct blkgen_rng rng;
	u64 next;
};

/**
 * struct blkgen_choice - what one I/O does
 * @write: true for a write
 * @size: bytes
 * @offset: byte offset on the device
 */
struct blkgen_choice {
	bool write;
	u32 size;
	u64 offset;
};

int blkgen_pattern_resolve(struct blkgen_pattern *p,
			   const struct blkgen_range *r, u64 dev_bytes,
			   u32 lbs);
void blkgen_stream_init(struct blkgen_stream *st,
			const struct blkgen_pattern *p, u64 seed, u64 stream,
			u32 part, u32 parts);
u64 blkgen_part_offset(const struct blkgen_pattern *p, u32 part, u32 parts);
u64 blkgen_div_align(const struct blkgen_pattern *p, u64 bytes);
u64 blkgen_random_offset(const struct blkgen_pattern *p,
			 struct blkgen_stream *st, u32 size);

/**
 * blkgen_pattern_next() - Choose the next I/O of a stream.
 * @p: resolved pattern
 * @st: the worker's stream
 * @c: direction, size and offset of the I/O
 *
 * Context: any; constant time apart from the size and zone scans.
 * Always inline: the worker's fast path keeps @c in registers.
 */
static __always_inline void
blkgen_pattern_next(const struct blkgen_pattern *p, struct blkgen_stream *st,
		    struct blkgen_choice *c)
{
	bool seek;
	u32 size;

	c->write = p->rdpct < 100 &&
		   blkgen_rng_below(&st->rng, 100) >= p->rdpct;

	size = p->bs.size[0];
	if (p->bs.nr > 1) {
		u32 r = (u32)blkgen_rng_below(&st->rng, 100);
		unsigned int i = 0;

		while (r >= p->bs.cum[i])
			i++;
		size = p->bs.size[i];
	}
	c->size = size;

	if (p->seekpct >= 100)
		seek = true;
	else if (!p->seekpct)
		seek = false;
	else
		seek = blkgen_rng_below(&st->rng, 100) < p->seekpct;

	if (seek && p->starts) {
		c->offset = p->start +
			    blkgen_rng_below(&st->rng, p->starts) * p->align;
	} else if (seek) {
		c->offset = blkgen_random_offset(p, st, size);
	} else {
		c->offset = st->next;
		if (c->offset + size > p->end)
			c->offset = p->start;
	}
	st->next = c->offset + size;
}

/**
 * blkgen_pattern_is_fast() - blkgen_pattern_fast() can choose its I/O.
 * @p: resolved pattern
 *
 * One size, every I/O at a random start and the same number of aligned
 * starts for all (one zone), the alignment a power of two.
 */
static inline bool blkgen_pattern_is_fast(const struct blkgen_pattern *p)
{
	return p->bs.nr == 1 && p->seekpct >= 100 && p->starts &&
	       p->align_shift && p->align == 1U << p->align_shift;
}

/**
 * blkgen_pattern_fast() - blkgen_pattern_next() of a fast pattern.
 * @p: resolved pattern, blkgen_pattern_is_fast()
 * @st: the worker's stream
 * @offset: the I/O's byte offset on the device
 *
 * The same draws from @st's generator, so the same I/O, as
 * blkgen_pattern_next(), without its tests for sizes, seeks and zones;
 * the size is @p's one size. @st->next is left alone (no I/O of the
 * pattern is sequential).
 *
 * Return: true for a write.
 */
static __always_inline bool
blkgen_pattern_fast(const struct blkgen_pattern *p, struct blkgen_stream *st,
		    u64 *offset)
{
	bool write = p->rdpct < 100 &&
		     blkgen_rng_below(&st->rng, 100) >= p->rdpct;

	/*
	 * align_shift < 32 here (blkgen_pattern_is_fast()); the mask, which
	 * x86's shift applies anyway, spares a kernel with UBSAN_SHIFT its
	 * check per I/O.
	 */
	*offset = p->start + (blkgen_rng_below(&st->rng, p->starts) <<
			      (p->align_shift & 63));
	return write;
}

#endif /* _BLKGEN_PATTERN_H */
