// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen I/O patterns: PRNG seeding, attribute parsers and the per-I/O
 * choice. Pure C (see pure.h): no allocation, no libc, no kernel calls.
 */
#include "pattern.h"

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * blkgen_rng_seed() - Seed a generator for one stream of a run.
 * @r: generator
 * @seed: the job's seed
 * @stream: distinguishes workers and workloads within a run
 */
void blkgen_rng_seed(struct blkgen_rng *r, u64 seed, u64 stream)
{
	u64 x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

/* Digits into *v; 0 or -1 (none, or overflow). Advances *p. */
static int parse_uint(const char **p, u64 *v)
{
	const char *s = *p;
	u64 n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > (~0ULL - (u64)(*s - '0')) / 10)
			return -1;
		n = n * 10 + (u64)(*s - '0');
	}
	*p = s;
	*v = n;
	return 0;
}

/*
 * A size with an optional binary suffix k, m, g or t, and with a suffix
 * up to 6 decimals ("3.84t": whole bytes, rounded down). Advances *p.
 */
static int parse_size_at(const char **p, u64 *out)
{
	unsigned int shift = 0, digits = 0;
	u64 v, frac = 0, scale = 1;

	if (parse_uint(p, &v))
		return -1;
	if (**p == '.') {
		for ((*p)++; **p >= '0' && **p <= '9'; (*p)++) {
			if (++digits > 6)
				return -1;
			frac = frac * 10 + (u64)(**p - '0');
			scale *= 10;
		}
		if (!digits)
			return -1;
	}
	switch (**p) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	}
	if (digits && !shift)
		return -1;	/* a fraction of a byte */
	if (shift) {
		(*p)++;
		if (v > (~0ULL >> shift))
			return -1;
		v <<= shift;
		/* frac < 10^6 < 2^20: frac << 40 fits. */
		frac = (frac << shift) / scale;
		if (v > ~0ULL - frac)
			return -1;
		v += frac;
	}
	*out = v;
	return 0;
}

/**
 * blkgen_parse_size() - Parse "4096", "4k", "1m", "2g", "1t", "3.84t" (binary
 * units; up to 6 decimals with a unit, rounded down to whole bytes).
 * @s: NUL-terminated string, nothing after the number and suffix
 * @out: bytes
 * Return: 0, or -1 if @s does not parse or overflows.
 */
int blkgen_parse_size(const char *s, u64 *out)
{
	if (parse_size_at(&s, out) || *s)
		return -1;
	return 0;
}

static bool io_size_ok(u64 v)
{
	return v >= BLKGEN_MIN_IO && v <= BLKGEN_MAX_IO && !(v % 512);
}

/**
 * blkgen_parse_bs() - Parse a size or a size split.
 * @s: "4k", or "SIZE/PCT:SIZE/PCT..." with percents summing to 100
 * @bs: result, unchanged on error
 *
 * Sizes must be multiples of 512 between 512 and 1 MiB; at most
 * %BLKGEN_MAX_BS entries; each percent at least 1.
 *
 * Return: 0 or -1.
 */
int blkgen_parse_bs(const char *s, struct blkgen_bs *bs)
{
	struct blkgen_bs t = { 0 };
	u64 size, pct, sum = 0;

	if (parse_size_at(&s, &size) || !io_size_ok(size))
		return -1;
	if (!*s) {
		t.nr = 1;
		t.size[0] = (u32)size;
		t.cum[0] = 100;
		*bs = t;
		return 0;
	}
	for (;;) {
		if (*s++ != '/' || parse_uint(&s, &pct) || !pct || pct > 100)
			return -1;
		sum += pct;
		if (t.nr == BLKGEN_MAX_BS || sum > 100)
			return -1;
		t.size[t.nr] = (u32)size;
		t.cum[t.nr] = (u32)sum;
		t.nr++;
		if (!*s)
			break;
		if (*s++ != ':' || parse_size_at(&s, &size) ||
		    !io_size_ok(size))
			return -1;
	}
	if (sum != 100)
		return -1;
	*bs = t;
	return 0;
}

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* "12", "12.5" or "12.25" (at most 100): units of 0.01. */
static int parse_hundredths(const char **p, u64 *out)
{
	u64 whole, frac = 0;
	int digits = 0;

	if (parse_uint(p, &whole) || whole > 100)
		return -1;
	if (**p == '.') {
		(*p)++;
		while (**p >= '0' && **p <= '9' && digits < 2) {
			frac = frac * 10 + (u64)(**p - '0');
			(*p)++;
			digits++;
		}
		if (!digits)
			return -1;
		if (digits == 1)
			frac *= 10;
	}
	*out = whole * BLKGEN_PCT_ONE + frac;
	return *out > BLKGEN_PCT_ALL ? -1 : 0;
}

/**
 * blkgen_parse_zones() - Parse an access distribution.
 * @s: "uniform", or "zoned:ACCESS/SIZE:ACCESS/SIZE..." (fio's zoned
 *     semantics: percent of accesses / percent of the range, zones laid
 *     out from the start of the range; both columns sum to 100). Percents
 *     take up to two decimals ("79.5/0.01"), so skewed tables can put
 *     most accesses in a small part of a large device.
 * @z: result (nr 0 for uniform), unchanged on error
 * Return: 0 or -1.
 */
int blkgen_parse_zones(const char *s, struct blkgen_zones *z)
{
	static const char prefix[] = "zoned:";
	struct blkgen_zones t = { 0 };
	u64 acc, size, asum = 0, ssum = 0;
	unsigned int i;

	if (str_eq(s, "uniform")) {
		*z = t;
		return 0;
	}
	for (i = 0; prefix[i]; i++)
		if (s[i] != prefix[i])
			return -1;
	s += i;
	for (;;) {
		if (parse_hundredths(&s, &acc) || *s++ != '/' ||
		    parse_hundredths(&s, &size) || !size)
			return -1;
		asum += acc;
		ssum += size;
		if (t.nr == BLKGEN_MAX_ZONES || asum > BLKGEN_PCT_ALL ||
		    ssum > BLKGEN_PCT_ALL)
			return -1;
		t.access_cum[t.nr] = (u32)asum;
		t.size_cum[t.nr] = (u32)ssum;
		t.nr++;
		if (!*s)
			break;
		if (*s++ != ':')
			return -1;
	}
	if (asum != BLKGEN_PCT_ALL || ssum != BLKGEN_PCT_ALL)
		return -1;
	*z = t;
	return 0;
}

/* "12", "12.5" or "12.25" followed by '%': units of 0.01%. */
static int parse_pct_at(const char **p, u64 *out)
{
	if (parse_hundredths(p, out) || **p != '%')
		return -1;
	(*p)++;
	return 0;
}

static int parse_bound(const char **p, u64 *v, bool *pct)
{
	const char *s = *p;

	/* Percent if a '%' ends this bound. */
	while ((*s >= '0' && *s <= '9') || *s == '.')
		s++;
	*pct = *s == '%';
	return *pct ? parse_pct_at(p, v) : parse_size_at(p, v);
}

/**
 * blkgen_parse_range() - Parse "START-END" in percent or bytes.
 * @s: "0%-25%", "12.5%-50%" (up to two decimals), or "1g-2g", "0-4096"
 * @r: result, unchanged on error
 *
 * Both bounds use the same unit and START < END; percents are at most
 * 100%. Whether a byte range fits the device is checked at job start.
 *
 * Return: 0 or -1.
 */
int blkgen_parse_range(const char *s, struct blkgen_range *r)
{
	struct blkgen_range t;
	bool pct2;

	if (parse_bound(&s, &t.start, &t.pct) || *s++ != '-' ||
	    parse_bound(&s, &t.end, &pct2) || *s || pct2 != t.pct ||
	    t.start >= t.end)
		return -1;
	*r = t;
	return 0;
}

static u64 align_down(u64 v, u64 a)
{
	return v - v % a;
}

static u64 align_up(u64 v, u64 a)
{
	return align_down(v + a - 1, a);
}

/**
 * blkgen_pattern_resolve() - Fix a pattern to a device.
 * @p: pattern with rdpct, seekpct, bs and zones set
 * @r: the workload's range (percent or bytes)
 * @dev_bytes: device size in bytes
 * @lbs: the device's logical block size
 *
 * Computes the byte range (start rounded up, end rounded down to the
 * alignment, which is the smallest size in the split), the zone bounds
 * and the largest size.
 *
 * Return: %BLKGEN_PAT_OK or a negative %BLKGEN_PAT_* reason.
 */
int blkgen_pattern_resolve(struct blkgen_pattern *p,
			   const struct blkgen_range *r, u64 dev_bytes,
			   u32 lbs)
{
	u64 start, end, span, prev = 0;
	unsigned int i;

	p->align = ~0U;
	p->max_size = 0;
	p->starts = 0;
	for (i = 0; i < p->bs.nr; i++) {
		if (p->bs.size[i] % lbs)
			return BLKGEN_PAT_LBS;
		if (p->bs.size[i] < p->align)
			p->align = p->bs.size[i];
		if (p->bs.size[i] > p->max_size)
			p->max_size = p->bs.size[i];
	}
	if (r->pct) {
		start = dev_bytes / 10000 * r->start +
			dev_bytes % 10000 * r->start / 10000;
		end = dev_bytes / 10000 * r->end +
		      dev_bytes % 10000 * r->end / 10000;
	} else {
		start = r->start;
		end = r->end;
		if (end > dev_bytes)
			return BLKGEN_PAT_BEYOND;
	}
	p->align_shift = 0;
	p->align_recip = 0;
	if (!(p->align & (p->align - 1)))
		p->align_shift = __builtin_ctz(p->align);
	else	/* align / 512 is 3 or more and no power of two */
		p->align_recip = ~0ULL / (p->align >> 9) + 1;
	start = align_up(start, p->align);
	end = align_down(end, p->align);
	if (end <= start || end - start < p->max_size)
		return BLKGEN_PAT_SMALL;
	p->start = start;
	p->end = end;

	span = end - start;
	if (!p->zones.nr) {
		p->nz = 1;
		p->zacc[0] = BLKGEN_PCT_ALL;
		p->zoff[0] = start;
	} else {
		p->nz = p->zones.nr;
		for (i = 0; i < p->nz; i++) {
			u64 at = span / BLKGEN_PCT_ALL * prev +
				 span % BLKGEN_PCT_ALL * prev / BLKGEN_PCT_ALL;

			p->zacc[i] = p->zones.access_cum[i];
			p->zoff[i] = start + align_down(at, p->align);
			prev = p->zones.size_cum[i];
		}
	}
	p->zoff[p->nz] = end;
	/* A zone of no aligned offset would send its accesses elsewhere. */
	for (i = 0; i < p->nz; i++)
		if (p->zoff[i + 1] <= p->zoff[i])
			return BLKGEN_PAT_ZONE;
	/*
	 * One size and one zone: random_offset()'s count of aligned starts
	 * is the same for every I/O (end - size >= start, checked above).
	 */
	if (p->bs.nr == 1 && p->nz == 1)
		p->starts = blkgen_div_align(p, end - p->max_size - start) + 1;
	return BLKGEN_PAT_OK;
}

/**
 * blkgen_stream_init() - Start a worker's stream of one workload.
 * @st: stream
 * @p: resolved pattern
 * @seed: the job's seed
 * @stream: unique per worker and workload within the job
 * @part: this worker's place among the workload's @parts workers
 * @parts: workers that issue the workload (at least 1)
 *
 * Sequential I/O starts at @part / @parts of the range, so that the
 * workers' sequential streams go through disjoint stretches of it (as
 * fio's offset_increment) rather than repeat each other's offsets.
 */
void blkgen_stream_init(struct blkgen_stream *st,
			const struct blkgen_pattern *p, u64 seed, u64 stream,
			u32 part, u32 parts)
{
	blkgen_rng_seed(&st->rng, seed, stream);
	st->next = p->start + blkgen_part_offset(p, part, parts);
}

/**
 * blkgen_part_offset() - Where the @part-th of @parts stretches begins.
 * @p: resolved pattern
 * @part: 0 .. @parts (@parts gives the range's length, rounded down)
 * @parts: stretches (at least 1)
 * Return: aligned byte offset from the start of the range.
 */
u64 blkgen_part_offset(const struct blkgen_pattern *p, u32 part, u32 parts)
{
	u64 step = parts > 1 ? (p->end - p->start) / parts : 0;

	return align_down(step * part, p->align);
}

/**
 * blkgen_div_align() - @bytes / @p->align, without a division.
 * @p: resolved pattern
 * @bytes: a byte count below 2^62
 *
 * A power-of-two alignment shifts. Otherwise, with a = align / 512 and
 * m = ceil(2^64 / a) = 2^64 / a + e (0 < e < 1), the sector count
 * n = bytes / 512 < 2^53 gives n * m / 2^64 = n / a + n * e / 2^64, where
 * the error n * e / 2^64 < 2^-11 <= 1 / a (a <= 2048 as sizes are at most
 * 1 MiB) is smaller than what the fraction of n / a lacks to the next
 * integer: the floor is exact. floor(bytes / align) = floor(n / a).
 *
 * Return: the quotient, rounded down.
 */
u64 blkgen_div_align(const struct blkgen_pattern *p, u64 bytes)
{
	if (p->align_shift)
		return bytes >> p->align_shift;
	return (u64)(((__uint128_t)(bytes >> 9) * p->align_recip) >> 64);
}

/**
 * blkgen_random_offset() - A random aligned offset in a zone chosen by
 *	access share.
 * @p: resolved pattern
 * @st: the worker's stream
 * @size: bytes of the I/O
 *
 * Return: its byte offset on the device.
 */
u64 blkgen_random_offset(const struct blkgen_pattern *p,
			 struct blkgen_stream *st, u32 size)
{
	u64 lo, hi, last = p->end - size;
	unsigned int z = 0;

	if (p->nz > 1) {
		u32 r = (u32)blkgen_rng_below(&st->rng, BLKGEN_PCT_ALL);

		while (z < p->nz - 1 && r >= p->zacc[z])
			z++;
	}
	lo = p->zoff[z];
	hi = p->zoff[z + 1] - 1;	/* last start inside the zone */
	if (hi > last)
		hi = last;
	if (hi < lo)			/* zone too close to the end for size */
		return align_down(last, p->align);
	/* Aligned starts in [lo, hi]. */
	return lo + blkgen_rng_below(&st->rng,
				     blkgen_div_align(p, hi - lo) + 1) *
		    p->align;
}

