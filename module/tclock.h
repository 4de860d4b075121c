/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen's stamp clock (pure C, shared with the host unit tests).
 *
 * The fast path (a closed loop's, a replay's as fast as possible) stamps
 * each I/O twice. Where the kernel keeps time by the TSC, it reads the
 * TSC itself (a few instructions against ktime_get()'s forty) and turns
 * cycles into nanoseconds by a fixed-point multiplier, as timekeeping
 * does, but from the TSC's calibrated rate (tsc_khz), without NTP's
 * correction: a latency is a difference of cycles times @mult. Absolute
 * times (the deadline, the measured window, interval ends) go through a
 * base, a pair of readings of both clocks taken together; the worker
 * takes it again 100 ms on (at the first I/O stamped past that), so the
 * two clocks (NTP corrects ktime by at most 500 ppm) part by at most
 * 50 us.
 *
 * Without a TSC the clock is ktime itself: @mult and @cmult are 1 << 32,
 * the base is 0, and every conversion is the identity.
 */
#ifndef _BLKGEN_TCLOCK_H
#define _BLKGEN_TCLOCK_H

#include "pure.h"

/**
 * struct blkgen_tclock - cycles to nanoseconds and back
 * @base_ns: ktime ns at @base_c
 * @base_c: a cycle count read with @base_ns
 * @mult: nanoseconds per cycle, times 2^32
 * @cmult: cycles per nanosecond, times 2^32
 */
struct blkgen_tclock {
	u64 base_ns;
	u64 base_c;
	u64 mult;
	u64 cmult;
};

/**
 * blkgen_tclock_init() - A clock of cycles counted at @khz.
 * @tc: the clock
 * @khz: the counter's frequency in kHz, 0 for ktime itself (nanoseconds)
 */
static inline void blkgen_tclock_init(struct blkgen_tclock *tc, u32 khz)
{
	tc->base_ns = 0;
	tc->base_c = 0;
	if (!khz) {
		tc->mult = 1ULL << 32;
		tc->cmult = 1ULL << 32;
		return;
	}
	/* 10^6 ns per ms over cycles per ms; rounded to nearest. */
	tc->mult = ((1000000ULL << 32) + khz / 2) / khz;
	tc->cmult = (((u64)khz << 32) + 500000) / 1000000;
}

/**
 * blkgen_tclock_base() - Pair a cycle count with the ktime read with it.
 * @tc: the clock
 * @ns: ktime ns
 * @c: cycles at @ns
 */
static inline void blkgen_tclock_base(struct blkgen_tclock *tc, u64 ns, u64 c)
{
	tc->base_ns = ns;
	tc->base_c = c;
}

/**
 * blkgen_tclock_lat() - Nanoseconds in @d cycles, a latency.
 * @tc: the clock
 * @d: cycles, fewer than 2^96 / @tc->mult (any u64 count at 1 GHz and
 *	above, centuries at 1 MHz)
 * Return: the nanoseconds, rounded down.
 */
static __always_inline u64 blkgen_tclock_lat(const struct blkgen_tclock *tc,
					     u64 d)
{
	return (u64)(((__uint128_t)d * tc->mult) >> 32);
}

/* Nanoseconds in @d cycles, saturated. */
static inline u64 blkgen_tclock_scale(const struct blkgen_tclock *tc, u64 d)
{
	__uint128_t ns = ((__uint128_t)d * tc->mult) >> 32;

	return ns > ~0ULL ? ~0ULL : (u64)ns;
}

/* Cycles in @d ns, saturated. */
static inline u64 blkgen_tclock_cycles(const struct blkgen_tclock *tc, u64 d)
{
	__uint128_t c = ((__uint128_t)d * tc->cmult) >> 32;

	return c > ~0ULL ? ~0ULL : (u64)c;
}

/**
 * blkgen_tclock_to_ns() - The ktime of a cycle count.
 * @tc: the clock
 * @c: cycles, before or after the base
 * Return: ktime ns (0 and U64_MAX at the ends).
 */
static inline u64 blkgen_tclock_to_ns(const struct blkgen_tclock *tc, u64 c)
{
	u64 d;

	if (c >= tc->base_c) {
		d = blkgen_tclock_scale(tc, c - tc->base_c);
		return d > ~0ULL - tc->base_ns ? ~0ULL : tc->base_ns + d;
	}
	d = blkgen_tclock_scale(tc, tc->base_c - c);
	return d > tc->base_ns ? 0 : tc->base_ns - d;
}

/**
 * blkgen_tclock_from_ns() - The cycle count of a ktime.
 * @tc: the clock
 * @ns: ktime ns; U64_MAX (never) stays U64_MAX
 * Return: cycles (0 and U64_MAX at the ends).
 */
static inline u64 blkgen_tclock_from_ns(const struct blkgen_tclock *tc, u64 ns)
{
	u64 d;

	if (ns == ~0ULL)
		return ~0ULL;
	if (ns >= tc->base_ns) {
		d = blkgen_tclock_cycles(tc, ns - tc->base_ns);
		return d > ~0ULL - tc->base_c ? ~0ULL : tc->base_c + d;
	}
	d = blkgen_tclock_cycles(tc, tc->base_ns - ns);
	return d > tc->base_c ? 0 : tc->base_c - d;
}

#endif /* _BLKGEN_TCLOCK_H */
