// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the fast path's stamp clock turns cycles into nanoseconds
 * and back: latencies exact to a nanosecond per 2^33 cycles at frequencies
 * from 1 MHz to 10 GHz, absolute times on either side of the base, the
 * ends saturated (a deadline of U64_MAX stays never), and the identity
 * without a cycle counter.
 */
#include "tclock.h"
#include "unit.h"

/* Nanoseconds in @d cycles at @khz, exactly, rounded down. */
static u64 ref_ns(u64 d, u32 khz)
{
	return (u64)((__uint128_t)d * 1000000 / khz);
}

static void test_identity(void)
{
	static const u64 v[] = { 0, 1, 999, 1ULL << 32, 1ULL << 63,
				 ~0ULL - 1, ~0ULL };
	struct blkgen_tclock tc;
	unsigned int i;

	blkgen_tclock_init(&tc, 0);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CHECK(blkgen_tclock_to_ns(&tc, v[i]) == v[i] &&
		      blkgen_tclock_from_ns(&tc, v[i]) == v[i] &&
		      blkgen_tclock_lat(&tc, v[i]) == v[i],
		      "identity: %llu", (unsigned long long)v[i]);
	}
}

static void test_latency(void)
{
	static const u32 khz[] = { 1000, 999983, 1000000, 2399999, 2400000,
				   3000001, 4294967, 10000000 };
	static const u64 d[] = { 0, 1, 7, 1000, 123457, 10000000, 1ULL << 32,
				 1ULL << 40 };
	struct blkgen_tclock tc;
	unsigned int i, j;

	for (i = 0; i < sizeof(khz) / sizeof(khz[0]); i++) {
		blkgen_tclock_init(&tc, khz[i]);
		for (j = 0; j < sizeof(d) / sizeof(d[0]); j++) {
			u64 want = ref_ns(d[j], khz[i]);
			u64 got = blkgen_tclock_lat(&tc, d[j]);
			u64 err = got > want ? got - want : want - got;

			/*
			 * mult is rounded to 2^-33 ns of a cycle's: 1 ns per
			 * 2^33 cycles, and the result rounded down.
			 */
			CHECK(err <= 1 + (d[j] >> 33),
			      "%u kHz, %llu cycles: %llu ns, not %llu",
			      khz[i], (unsigned long long)d[j],
			      (unsigned long long)got,
			      (unsigned long long)want);
		}
	}
}

/* |a - b| */
static u64 dist(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

static void test_absolute(void)
{
	static const u32 khz[] = { 1000, 1000000, 2400000, 3000001,
				   10000000 };
	struct blkgen_tclock tc;
	unsigned int i;
	s64 k;

	for (i = 0; i < sizeof(khz) / sizeof(khz[0]); i++) {
		u64 base_ns = 5000000000000ULL, base_c = 170000000000000000ULL;

		blkgen_tclock_init(&tc, khz[i]);
		blkgen_tclock_base(&tc, base_ns, base_c);
		CHECK(blkgen_tclock_to_ns(&tc, base_c) == base_ns &&
		      blkgen_tclock_from_ns(&tc, base_ns) == base_c,
		      "%u kHz: the base is not itself", khz[i]);
		/* Before and after the base, up to an hour away. */
		for (k = -3600000000000LL; k <= 3600000000000LL;
		     k += 99999999989LL) {
			u64 ns = base_ns + k, d = dist(ns, base_ns), c, dc;
			u64 want_c, back, want_ns;

			/*
			 * Each way against the exact product: cmult and mult
			 * are rounded to half a unit of 2^-32, an error of a
			 * cycle (or ns) per 2^33, and the result rounded.
			 */
			c = blkgen_tclock_from_ns(&tc, ns);
			want_c = (u64)((__uint128_t)d * khz[i] / 1000000);
			want_c = k < 0 ? base_c - want_c : base_c + want_c;
			CHECK(dist(c, want_c) <= 1 + (d >> 33),
			      "%u kHz: %lld ns from the base is %lld cycles, not %lld",
			      khz[i], (long long)k, (long long)(c - base_c),
			      (long long)(want_c - base_c));
			dc = dist(c, base_c);
			back = blkgen_tclock_to_ns(&tc, c);
			want_ns = (u64)((__uint128_t)dc * 1000000 / khz[i]);
			want_ns = c < base_c ? base_ns - want_ns :
					       base_ns + want_ns;
			CHECK(dist(back, want_ns) <= 1 + (dc >> 33),
			      "%u kHz: %lld cycles from the base are %lld ns, not %lld",
			      khz[i], (long long)(c - base_c),
			      (long long)(back - base_ns),
			      (long long)(want_ns - base_ns));
			/* A millisecond is one either side of the base. */
			CHECK(dist(blkgen_tclock_to_ns(&tc, c + khz[i]) -
				   blkgen_tclock_to_ns(&tc, c), 1000000) <= 1,
			      "%u kHz: a millisecond at %lld ns", khz[i],
			      (long long)k);
		}
		/* Never stays never; the ends saturate. */
		CHECK(blkgen_tclock_from_ns(&tc, ~0ULL) == ~0ULL,
		      "%u kHz: U64_MAX ns", khz[i]);
		CHECK(blkgen_tclock_to_ns(&tc, ~0ULL) >= base_ns &&
		      blkgen_tclock_to_ns(&tc, 0) == 0 &&
		      blkgen_tclock_from_ns(&tc, 0) < base_c,
		      "%u kHz: the ends", khz[i]);
	}
}

int main(void)
{
	test_identity();
	test_latency();
	test_absolute();
	return t_exit("tclock");
}
