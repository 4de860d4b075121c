// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - vdbench's curve: its points, each point's target, and the
 * profile settings of the maximum run and of a point (rate_iops, or over a
 * trace the replay speed). Pure: the unit tests build it (test-curve).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "profile.h"
#include "replay-map.h"
#include "run.h"

/* "10-120,10" (from-to,step) or "10,50,70,80,90,100"; percent values. */
int curve_points(const char *s, double *pts, int max)
{
	double a, b, step;
	char *end;
	int n = 0;

	if (!s || !*s)
		s = "10-120,10";
	if (sscanf(s, "%lf-%lf,%lf", &a, &b, &step) == 3) {
		if (a <= 0 || b < a || step <= 0)
			return -1;
		for (; a <= b + 1e-9 && n < max; a += step)
			pts[n++] = a;
		return n;
	}
	while (*s && n < max) {
		pts[n] = strtod(s, &end);
		if (end == s || pts[n] <= 0)
			return -1;
		n++;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/* vdbench's rule: max * p / 100, rounded up to 100 above 1000, else to 10. */
uint64_t curve_target(uint64_t max, double pct)
{
	uint64_t t = (uint64_t)((double)max * pct / 100.0);
	uint64_t unit = t > 1000 ? 100 : 10;

	return (t + unit - 1) / unit * unit;
}

/* The curve's maximum run: unthrottled, or the trace as fast as possible. */
void curve_set_max(struct profile *p, double trace_iops)
{
	profile_put(&p->job, "rate_iops", "0", 0);
	if (trace_iops)
		profile_put(&p->wl[0], "replay", "afap", 0);
}

/*
 * Set a curve point's target: the job's rate_iops, or over a trace (its
 * own rate @trace_iops) the replay speed that runs it at @target. Returns
 * that speed in percent (0 without a trace).
 */
double curve_set_target(struct profile *p, uint64_t target, double trace_iops)
{
	char buf[32];
	double sp;

	if (!trace_iops) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)target);
		profile_put(&p->job, "rate_iops", buf, 0);
		return 0;
	}
	sp = target / trace_iops * 100;
	sp = sp < 0.01 ? 0.01 : sp > BLKGEN_SPEED_MAX / 100.0 ?
		BLKGEN_SPEED_MAX / 100.0 : sp;
	snprintf(buf, sizeof(buf), "%.2f", sp);
	profile_put(&p->wl[0], "replay", "timed", 0);
	profile_put(&p->wl[0], "replay_speed", buf, 0);
	return sp;
}

/*
 * A curve armed for start_at (--start-at): the maximum run at start_at,
 * point k at start_at + k slots, so that every host running the same
 * curve with the same time runs each point at the same instants. A slot
 * is the job's warmup and duration and CURVE_SLOT_GAP_MS for tearing one
 * run down and arming the next, rounded up to whole seconds. @p's
 * duration_ms must be set (a run ended by io_limit has no length) and it
 * must not replay a trace (its points' lengths differ). Returns the slot
 * in ms, or 0 with @why set.
 */
uint64_t curve_slot_ms(const struct profile *p, char *why, size_t len)
{
	const char *d = profile_get(&p->job, "duration_ms");
	const char *w = profile_get(&p->job, "warmup_ms");
	unsigned long long dur, warm = 0;
	char *end;
	int i;

	for (i = 0; i < p->nr_wl; i++)
		if (profile_get(&p->wl[i], "trace")) {
			snprintf(why, len, "a curve over a trace has points of other lengths: it starts at once");
			return 0;
		}
	dur = d ? strtoull(d, &end, 10) : 0;
	if (!d || end == d || *end || !dur) {
		snprintf(why, len, "the curve's runs need a duration_ms (not 0) to be armed one after another");
		return 0;
	}
	if (w) {
		warm = strtoull(w, &end, 10);
		if (end == w || *end) {
			snprintf(why, len, "warmup_ms '%s' is not a number of ms", w);
			return 0;
		}
	}
	return (warm + dur + CURVE_SLOT_GAP_MS + 999) / 1000 * 1000;
}

/*
 * How long a run of @p lasts (warmup_ms + duration_ms; without
 * duration_ms, the module's 10 s), for --dry-run's "planned_ms" line: 0
 * when nothing bounds it in time (duration_ms 0, a run ended by
 * io_limit; a trace replayed to its end).
 */
uint64_t run_planned_ms(const struct profile *p)
{
	const char *d = profile_get(&p->job, "duration_ms");
	const char *w = profile_get(&p->job, "warmup_ms");
	unsigned long long dur = 10000, warm = 0;
	char *end;
	int i;

	for (i = 0; i < p->nr_wl; i++)
		if (profile_get(&p->wl[i], "trace"))
			return 0;
	if (d) {
		dur = strtoull(d, &end, 10);
		if (end == d || *end || !dur)
			return 0;
	}
	if (w) {
		warm = strtoull(w, &end, 10);
		if (end == w || *end)
			return 0;
	}
	return warm + dur;
}

/* A curve of @points over @p: the maximum and every point, a slot each (--start-at's). */
uint64_t curve_planned_ms(const struct profile *p, const char *points)
{
	double pct[64];
	char why[256];
	int n = curve_points(points, pct, 64);

	return n > 0 ? (n + 1) * curve_slot_ms(p, why, sizeof(why)) : 0;
}

/* --dry-run's last line: "# planned_ms = N", or why it is not known. */
void print_planned(FILE *f, uint64_t ms)
{
	if (ms)
		fprintf(f, "\n# planned_ms = %llu\n", (unsigned long long)ms);
	else
		fprintf(f, "\n# planned_ms = unknown (no duration_ms, or a trace: it ends with its I/O)\n");
}
