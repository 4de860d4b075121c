// SPDX-License-Identifier: GPL-2.0
/*
 * SNIA PTS steady state: the last STEADY_WINDOW rounds' values are steady
 * when their max - min (the data excursion) is within 20% of their
 * average and the least-squares line through them rises or falls across
 * the window (the slope excursion) by at most 10% of it.
 */
#include <math.h>

#include "review.h"

bool steady_check(const double *y, int n, struct steady *st)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, lo, hi, b, d;
	int i, w = STEADY_WINDOW;

	st->attained = false;
	st->avg = st->excursion = st->slope_excursion = 0;
	if (n < w)
		return false;
	y += n - w;
	lo = hi = y[0];
	for (i = 0; i < w; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	st->avg = sy / w;
	d = w * sxx - sx * sx;
	b = (w * sxy - sx * sy) / d;
	st->excursion = hi - lo;
	st->slope_excursion = fabs(b) * (w - 1);
	st->attained = st->avg > 0 && st->excursion <= 0.2 * st->avg &&
		       st->slope_excursion <= 0.1 * st->avg;
	return st->attained;
}
