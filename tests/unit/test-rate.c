// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the integer exponential sampler has mean 1 within 0.1%,
 * coefficient of variation 1 within 2% and passes a chi-square
 * goodness-of-fit test; schedules keep their mean rate exactly (fixed),
 * have the right spread (uniform, Poisson) and phase-offset fixed workers
 * interleave evenly.
 */
#include <math.h>

#include "rate.h"
#include "unit.h"

#define N 10000000

static void test_exponential(void)
{
	static unsigned long bins[50];
	struct blkgen_rng rng;
	double sum = 0, sq = 0, mean, cv, chi = 0, e = N / 50.0;
	int i, b;

	blkgen_rng_seed(&rng, 12345, 0);
	for (i = 0; i < N; i++) {
		double x = blkgen_exp_q32(&rng) / 4294967296.0;

		sum += x;
		sq += x * x;
		/* equiprobable bins: F(x) = 1 - exp(-x) */
		b = (int)((1 - exp(-x)) * 50);
		bins[b < 50 ? b : 49]++;
	}
	mean = sum / N;
	cv = sqrt(sq / N - mean * mean) / mean;
	for (b = 0; b < 50; b++)
		chi += (bins[b] - e) * (bins[b] - e) / e;
	printf("# exponential: mean %.5f, cv %.5f, chi2(49) %.1f\n", mean, cv, chi);
	CHECK(fabs(mean - 1) < 0.001, "mean %f", mean);
	CHECK(fabs(cv - 1) < 0.02, "cv %f", cv);
	CHECK(chi < 85.4, "chi-square %f (49 df, p = 0.001: 85.4)", chi);
}

/* Mean and CV of n gaps of a schedule, in ns. */
static void gaps(struct blkgen_arrivals *a, int n, double *mean, double *cv)
{
	double sum = 0, sq = 0, prev = a->next_ns + a->next_frac / 65536.0;
	int i;

	for (i = 0; i < n; i++) {
		double t, g;

		blkgen_arrivals_advance(a);
		t = a->next_ns + a->next_frac / 65536.0;
		g = t - prev;
		prev = t;
		sum += g;
		sq += g * g;
	}
	*mean = sum / n;
	*cv = sqrt(sq / n - *mean * *mean) / *mean;
}

static void test_schedules(void)
{
	struct blkgen_arrivals a, b;
	double mean, cv;
	u64 t0 = 1000000, ta, tb, prev;
	int i, uneven = 0;

	/* Fixed, 1e6/3 per second: exactly 3000 ns apart, no drift. */
	CHECK(!blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED, 1000000, 3, t0, 1, 0,
				    0, 1), "init fixed");
	for (i = 0; i < 1000000; i++)
		blkgen_arrivals_advance(&a);
	/* After the first arrival (t0 + 3000), a million more gaps. */
	CHECK(a.next_ns - t0 == 3000ULL * 1000001, "fixed drifted: %llu",
	      (unsigned long long)(a.next_ns - t0));

	/* 7 IOPS split over 3 workers: 3/7 s per worker, exact on average. */
	CHECK(!blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED, 7, 3, 0, 1, 0, 0, 1),
	      "init 7/3");
	for (i = 0; i < 700; i++)
		blkgen_arrivals_advance(&a);
	CHECK(llabs((long long)a.next_ns - 701LL * 3000000000 / 7) <= 1,
	      "7/3: %llu", (unsigned long long)a.next_ns);

	CHECK(!blkgen_arrivals_init(&a, BLKGEN_PROC_UNIFORM, 50000, 1, t0, 2, 0,
				    0, 1), "init uniform");
	gaps(&a, N, &mean, &cv);
	printf("# uniform: mean gap %.3f ns (want 20000), cv %.4f (want 0.577)\n",
	       mean, cv);
	CHECK(fabs(mean / 20000 - 1) < 0.001, "uniform mean %f", mean);
	CHECK(fabs(cv - 1 / sqrt(3)) < 0.02, "uniform cv %f", cv);

	CHECK(!blkgen_arrivals_init(&a, BLKGEN_PROC_POISSON, 50000, 1, t0, 3, 0,
				    0, 1), "init poisson");
	gaps(&a, N, &mean, &cv);
	printf("# poisson: mean gap %.3f ns (want 20000), cv %.4f (want 1)\n",
	       mean, cv);
	CHECK(fabs(mean / 20000 - 1) < 0.001, "poisson mean %f", mean);
	CHECK(fabs(cv - 1) < 0.02, "poisson cv %f", cv);

	/* Two fixed workers at half the rate each, phases 0 and 1 of 2. */
	blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED, 1000, 2, 0, 1, 0, 0, 2);
	blkgen_arrivals_init(&b, BLKGEN_PROC_FIXED, 1000, 2, 0, 1, 1, 1, 2);
	prev = 0;
	for (i = 0; i < 1000; i++) {
		ta = a.next_ns;
		tb = b.next_ns;
		if (ta - prev != 1000000 || tb - ta != 1000000)
			uneven++;
		prev = tb;
		blkgen_arrivals_advance(&a);
		blkgen_arrivals_advance(&b);
	}
	CHECK(uneven <= 1, "phased workers uneven %d times", uneven);

	CHECK(blkgen_arrivals_init(&a, BLKGEN_PROC_FIXED, 0, 1, 0, 1, 0, 0, 1),
	      "rate 0 accepted");
}

int main(void)
{
	test_exponential();
	test_schedules();
	return t_exit("rate");
}
