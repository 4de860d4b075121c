// SPDX-License-Identifier: GPL-2.0
/*
 * Trace replay, the pure part: mapping a record into the range, its due
 * time at a speed, and parsing the speed. No kernel API, so the host unit
 * tests compile it unchanged.
 */
#include "replay-map.h"

/**
 * blkgen_replay_map() - The I/O a trace record makes in a workload's range.
 * @p: the workload's resolved pattern (range, largest size)
 * @lbs: the device's logical block size, a power of two dividing the
 *	range's bounds and @p->max_size
 * @rec: the record (not %BLKGEN_TRACE_END)
 * @c: the I/O: direction, byte offset on the device, size
 *
 * The size is rounded up to @lbs (0 becomes one block) and clipped to the
 * largest size in bs; an offset that is not a multiple of @lbs or whose
 * I/O would not fit in the range is taken modulo the range, aligned down,
 * and moved back from the end if the I/O still runs past it. Offsets are
 * relative to the start of the range.
 *
 * Return: %BLKGEN_MAP_REMAPPED and %BLKGEN_MAP_CLIPPED as they apply.
 */
unsigned int blkgen_replay_map(const struct blkgen_pattern *p, u32 lbs,
			       const struct blkgen_trace_rec *rec,
			       struct blkgen_choice *c)
{
	u64 span = p->end - p->start, off = rec->offset, len = rec->len;
	u64 mask = ~(u64)(lbs - 1);
	unsigned int flags = 0;

	len = len ? (len + lbs - 1) & mask : lbs;
	if (len > p->max_size) {
		len = p->max_size;
		flags |= BLKGEN_MAP_CLIPPED;
	}
	if ((off & (lbs - 1)) || off >= span || len > span - off) {
		flags |= BLKGEN_MAP_REMAPPED;
		off = (off % span) & mask;
		if (len > span - off)
			off = (span - len) & mask;
	}
	c->write = rec->op == BLKGEN_TRACE_WRITE;
	c->offset = p->start + off;
	c->size = (u32)len;
	return flags;
}

/**
 * blkgen_replay_due() - When a record is due.
 * @t0: the run's start (ns)
 * @t_ns: the record's time in the trace
 * @speed: replay_speed, units of 0.01% (%BLKGEN_SPEED_ONE: as traced)
 * Return: @t0 + @t_ns * 100% / speed, U64_MAX if beyond.
 */
u64 blkgen_replay_due(u64 t0, u64 t_ns, u32 speed)
{
	u64 q, r, t;

	/* As traced, the common case: no division per record. */
	if (speed == BLKGEN_SPEED_ONE)
		return t_ns >= ~0ULL - t0 ? ~0ULL : t0 + t_ns;
	/* t_ns * ONE / speed without 128 bits: the remainder's part apart. */
	q = t_ns / speed;
	r = t_ns % speed;
	if (q > (~0ULL - BLKGEN_SPEED_ONE) / BLKGEN_SPEED_ONE)
		return ~0ULL;
	t = q * BLKGEN_SPEED_ONE + r * BLKGEN_SPEED_ONE / speed;
	if (t >= ~0ULL - t0)
		return ~0ULL;
	return t0 + t;
}

/**
 * blkgen_parse_speed() - Parse replay_speed: a percent ("100", "12.5",
 *	"250.25%"), up to two decimals, from 0.01% to 1000000%.
 * @s: NUL-terminated string
 * @speed: result in units of 0.01%, unchanged on error
 * Return: 0 or -1.
 */
int blkgen_parse_speed(const char *s, u32 *speed)
{
	u64 v = 0;
	int digits = -1, n = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		if (++n > 7)
			return -1;
		v = v * 10 + (u64)(*s - '0');
	}
	if (!n)
		return -1;
	if (*s == '.') {
		for (s++, digits = 0; *s >= '0' && *s <= '9'; s++) {
			if (++digits > 2)
				return -1;
			v = v * 10 + (u64)(*s - '0');
		}
		if (!digits)
			return -1;
	}
	if (*s == '%')
		s++;
	if (*s)
		return -1;
	for (digits = digits < 0 ? 0 : digits; digits < 2; digits++)
		v *= 10;
	if (!v || v > BLKGEN_SPEED_MAX)
		return -1;
	*speed = (u32)v;
	return 0;
}
