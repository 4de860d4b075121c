// SPDX-License-Identifier: GPL-2.0
/*
 * Description: the review's SNIA PTS steady-state test (review-steady.c):
 * over the last 5 rounds, max - min within 20% of their average and the
 * least-squares line's rise across the window within 10% of it; fewer
 * than 5 rounds are never steady, earlier rounds do not count, and each
 * bound holds at its edge and fails just past it.
 */
#include <math.h>

#include "review.h"
#include "unit.h"

static bool steady(const double *y, int n, struct steady *st)
{
	return steady_check(y, n, st);
}

int main(void)
{
	static const double flat[] = { 100, 100, 100, 100, 100 };
	/* a falling start (a fresh drive), then level */
	static const double settle[] = { 400, 250, 180, 171, 169, 170.5, 168, 170 };
	/* +5 a round: excursion 20 <= 22, but the line rises 20 > 11 */
	static const double ramp[] = { 100, 105, 110, 115, 120 };
	/* zig-zag of 20 around 110: the slope is small, the range at the edge */
	static const double zig[] = { 100, 120, 100, 120, 100 };
	static const double wide[] = { 100, 125, 100, 125, 100 };
	/* a line rising exactly 10% of the average across the window */
	double edge[5], past[5];
	struct steady st;
	int i;

	CHECK(steady(flat, 5, &st) && st.avg == 100 && st.excursion == 0 &&
	      st.slope_excursion == 0, "flat: not steady");
	CHECK(!steady(flat, 4, &st) && !st.attained, "4 rounds counted as steady");
	CHECK(!steady(settle, 5, &st), "the settling rounds counted as steady (avg %g)", st.avg);
	CHECK(steady(settle, 8, &st) && fabs(st.avg - 169.7) < 1e-9,
	      "settled: steady %d, average %g (want 169.7 over the last 5)", st.attained, st.avg);
	CHECK(!steady(ramp, 5, &st) && fabs(st.excursion - 20) < 1e-9 &&
	      fabs(st.slope_excursion - 20) < 1e-9,
	      "ramp: steady %d, excursion %g, slope excursion %g", st.attained,
	      st.excursion, st.slope_excursion);
	CHECK(steady(zig, 5, &st) && fabs(st.excursion - 20) < 1e-9,
	      "zig-zag within 20%%: steady %d, excursion %g of %g", st.attained,
	      st.excursion, st.avg);
	CHECK(!steady(wide, 5, &st), "zig-zag of 25 around 110 counted as steady");
	/* y = 95 + 2.5 i: average 100, line rises 10.0 across 4 steps */
	for (i = 0; i < 5; i++) {
		edge[i] = 95 + 2.5 * i;
		past[i] = 95 + 2.6 * i;
	}
	CHECK(steady(edge, 5, &st) && fabs(st.slope_excursion - 10) < 1e-9,
	      "slope at 10%%: steady %d, slope excursion %g", st.attained, st.slope_excursion);
	CHECK(!steady(past, 5, &st), "slope past 10%% counted as steady (%g of %g)",
	      st.slope_excursion, st.avg);
	return t_exit("steady-state test");
}
