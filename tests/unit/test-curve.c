// SPDX-License-Identifier: GPL-2.0
/*
 * Description: vdbench's curve: the points of a FROM-TO,STEP or P,P,...
 * list, each point's target by vdbench's rounding (up to 10 IOPS, up to
 * 100 above 1000), and what a point sets in the profile: the job's
 * rate_iops, or over a trace the replay speed that runs the trace's own
 * rate at the target (clamped to replay_speed's 0.01-1000000%).
 */
#include <string.h>

#include "blkgenctl.h"
#include "profile.h"
#include "run.h"
#include "unit.h"

static void load(struct profile *p, const char *text)
{
	char err[256] = "";

	memset(p, 0, sizeof(*p));
	CHECK(!profile_parse("t.prof", text, p, err, sizeof(err)), "parse: %s", err);
}

static const char *get(const struct profile_section *s, const char *key)
{
	const char *v = profile_get(s, key);

	return v ? v : "(none)";
}

int main(void)
{
	struct profile p;
	double pts[64], sp;
	int n;

	n = curve_points("10-120,10", pts, 64);
	CHECK(n == 12 && pts[0] == 10 && pts[11] == 120, "10-120,10: %d points", n);
	n = curve_points(NULL, pts, 64);
	CHECK(n == 12, "the default is vdbench's 10-120,10: %d points", n);
	n = curve_points("10,50,100", pts, 64);
	CHECK(n == 3 && pts[1] == 50, "10,50,100: %d points", n);
	n = curve_points("5-25,2.5", pts, 64);
	CHECK(n == 9 && pts[8] == 25, "5-25,2.5 reaches 25: %d points", n);
	CHECK(curve_points("10-5,1", pts, 64) < 0, "a falling range is refused");
	CHECK(curve_points("10,-5", pts, 64) < 0, "a negative percent is refused");
	CHECK(curve_points("10,x", pts, 64) < 0, "a word is refused");
	CHECK(curve_points("1-1000,1", pts, 64) == 64, "at most the room given");

	/* vdbench's rounding: up to 10, up to 100 above 1000. */
	CHECK(curve_target(45024, 10) == 4600, "10%% of 45024: %llu",
	      (unsigned long long)curve_target(45024, 10));
	CHECK(curve_target(45024, 100) == 45100, "100%% of 45024: %llu",
	      (unsigned long long)curve_target(45024, 100));
	CHECK(curve_target(5432, 10) == 550, "10%% of 5432: %llu",
	      (unsigned long long)curve_target(5432, 10));
	CHECK(curve_target(10000, 10) == 1000, "10%% of 10000 stays 1000: %llu",
	      (unsigned long long)curve_target(10000, 10));
	CHECK(curve_target(10010, 10) == 1100, "10%% of 10010 (1001): %llu",
	      (unsigned long long)curve_target(10010, 10));

	/* A point of a workload: the job's rate_iops. */
	load(&p, "[job]\nrate_iops = 0\n[workload w]\ndevice = /dev/x\n");
	sp = curve_set_target(&p, 4600, 0);
	CHECK(sp == 0 && !strcmp(get(&p.job, "rate_iops"), "4600"),
	      "rate_iops %s, speed %g", get(&p.job, "rate_iops"), sp);
	CHECK(!profile_get(&p.wl[0], "replay"), "no replay set without a trace");
	curve_set_max(&p, 0);
	CHECK(!strcmp(get(&p.job, "rate_iops"), "0"), "the maximum run is unthrottled: %s",
	      get(&p.job, "rate_iops"));
	profile_free(&p);

	/* Over a trace of 1000 IOPS: the speed that runs it at the target. */
	load(&p, "[job]\n[workload vdi]\ndevice = /dev/x\n");
	curve_set_max(&p, 1000);
	CHECK(!strcmp(get(&p.wl[0], "replay"), "afap"), "maximum: replay %s",
	      get(&p.wl[0], "replay"));
	sp = curve_set_target(&p, 5500, 1000);
	CHECK(sp == 550 && !strcmp(get(&p.wl[0], "replay"), "timed") &&
	      !strcmp(get(&p.wl[0], "replay_speed"), "550.00"),
	      "5500 IOPS of a 1000 IOPS trace: replay %s at %s (%g)",
	      get(&p.wl[0], "replay"), get(&p.wl[0], "replay_speed"), sp);
	CHECK(!profile_get(&p.job, "rate_iops") || !strcmp(get(&p.job, "rate_iops"), "0"),
	      "a trace's point sets no rate_iops: %s", get(&p.job, "rate_iops"));
	/* 150 times the trace's own rate: above the old 10000% cap */
	sp = curve_set_target(&p, 150000, 1000);
	CHECK(sp == 15000 && !strcmp(get(&p.wl[0], "replay_speed"), "15000.00"),
	      "150000 IOPS of a 1000 IOPS trace: %s", get(&p.wl[0], "replay_speed"));
	sp = curve_set_target(&p, 20000000, 1);
	CHECK(sp == 1000000 && !strcmp(get(&p.wl[0], "replay_speed"), "1000000.00"),
	      "clamped at 1000000%%: %s", get(&p.wl[0], "replay_speed"));
	sp = curve_set_target(&p, 0, 1000000000);
	CHECK(sp == 0.01 && !strcmp(get(&p.wl[0], "replay_speed"), "0.01"),
	      "clamped at 0.01%%: %s", get(&p.wl[0], "replay_speed"));
	profile_free(&p);
	/* Armed for start_at: a slot of warmup + duration + 5 s, whole seconds. */
	{
		char why[256] = "";

		load(&p, "[job]\nduration_ms = 3000\nwarmup_ms = 500\n[workload w]\ndevice = /dev/null\n");
		CHECK(curve_slot_ms(&p, why, sizeof(why)) == 9000, "3.5 s + 5 s: %llu ms",
		      (unsigned long long)curve_slot_ms(&p, why, sizeof(why)));
		profile_free(&p);
		load(&p, "[job]\nduration_ms = 60000\n[workload w]\ndevice = /dev/null\n");
		CHECK(curve_slot_ms(&p, why, sizeof(why)) == 65000, "60 s + 5 s");
		profile_free(&p);
		load(&p, "[job]\nio_limit = 1000\n[workload w]\ndevice = /dev/null\n");
		CHECK(!curve_slot_ms(&p, why, sizeof(why)) && strstr(why, "duration_ms"),
		      "no duration: refused (%s)", why);
		profile_free(&p);
		load(&p, "[job]\nduration_ms = 1000\n[workload w]\ntrace = t.blktrace\ndevice = /dev/null\n");
		CHECK(!curve_slot_ms(&p, why, sizeof(why)) && strstr(why, "trace"),
		      "a trace: refused (%s)", why);
		profile_free(&p);
	}
	return t_exit("test-curve");
}
