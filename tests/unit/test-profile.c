// SPDX-License-Identifier: GPL-2.0
/*
 * Description: profiles parse into configfs values (times to ms, percents
 * without '%'), and malformed ones fail with file:line, the key, the value
 * and, for an unknown key, the nearest valid one; --set overrides.
 */
#include <glob.h>
#include <string.h>

#include "blkgenctl.h"
#include "profile.h"
#include "unit.h"

static void expect_ok(const char *text, const char *sec, const char *key,
		      const char *want)
{
	struct profile p = { 0 };
	char err[512] = "";
	const char *got;
	int i;

	if (profile_parse("t.prof", text, &p, err, sizeof(err))) {
		CHECK(0, "parse failed: %s", err);
		goto out;
	}
	if (!strcmp(sec, "job")) {
		got = profile_get(&p.job, key);
	} else {
		for (i = 0; i < p.nr_wl && strcmp(p.wl[i].name, sec); i++)
			;
		got = i < p.nr_wl ? profile_get(&p.wl[i], key) : NULL;
	}
	CHECK(got && !strcmp(got, want), "[%s] %s = '%s', want '%s'", sec, key,
	      got ? got : "(none)", want);
out:
	profile_free(&p);
}

static void expect_err(const char *text, const char *want)
{
	struct profile p = { 0 };
	char err[512] = "";

	CHECK(profile_parse("t.prof", text, &p, err, sizeof(err)) &&
	      strstr(err, want), "error '%s', want '%s'", err, want);
	profile_free(&p);
}

/* A value with no text leaves the key unset: nothing to look up. */
static void expect_unset(const char *text, const char *sec, const char *key)
{
	struct profile p = { 0 };
	char err[512] = "";
	int i;

	if (profile_parse("t.prof", text, &p, err, sizeof(err))) {
		CHECK(0, "parse failed: %s", err);
		goto out;
	}
	for (i = 0; i < p.nr_wl && strcmp(p.wl[i].name, sec); i++)
		;
	CHECK(i < p.nr_wl && !profile_get(&p.wl[i], key), "[%s] %s is set",
	      sec, key);
out:
	profile_free(&p);
}

/*
 * Every profile example in Documentation/ (an indented literal block after
 * a line ending in '::' that holds a [job] or [workload] section) parses as
 * printed.
 */
static int doc_examples(void)
{
	char line[1024], block[16384], err[512];
	int n = 0, inblock = 0, start = 0, lineno;
	glob_t g;
	size_t i;

	if (glob("../../Documentation/*.rst", 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		size_t len = 0;

		if (!f)
			continue;
		lineno = 0;
		for (;;) {
			char *got = fgets(line, sizeof(line), f);
			int blank = got && line[strspn(line, " \t\n")] == 0;
			int indented = got && !strncmp(line, "    ", 4);

			lineno += got != NULL;
			if (inblock && (!got || (!blank && !indented))) {
				block[len] = 0;
				if (strstr(block, "[workload")) {
					struct profile q = { 0 };
					char name[600];

					snprintf(name, sizeof(name), "%s:%d",
						 g.gl_pathv[i], start);
					CHECK(!profile_parse(name, block, &q, err,
							     sizeof(err)),
					      "example: %s", err);
					profile_free(&q);
					n++;
				}
				inblock = 0;
			}
			if (!got)
				break;
			if (inblock) {
				const char *t = blank ? "\n" : line + 4;

				if (len + strlen(t) < sizeof(block)) {
					strcpy(block + len, t);
					len += strlen(t);
				}
			} else if (strstr(line, "::\n")) {
				inblock = 1;
				start = lineno + 1;
				len = 0;
			}
		}
		fclose(f);
	}
	globfree(&g);
	return n;
}

int main(void)
{
	const char *base = "# comment\n[job]\nduration_ms = 30s\nwarmup_ms=500ms\n"
			   "interval_ms = 2m\n\n[workload w1]\nrdpct = 70%\nbs = 4k/50:8k/50\n"
			   "allow_write = yes\ndepth=32\n; another\n[workload w2]\nrange = 0%-25%\n";
	struct profile p = { 0 };
	char err[512];

	expect_ok(base, "job", "duration_ms", "30000");
	expect_ok(base, "job", "warmup_ms", "500");
	expect_ok(base, "job", "interval_ms", "120000");
	expect_ok(base, "w1", "rdpct", "70");
	expect_ok(base, "w1", "bs", "4k/50:8k/50");
	expect_ok(base, "w1", "allow_write", "1");
	expect_ok(base, "w1", "depth", "32");
	expect_ok(base, "w2", "range", "0%-25%");
	expect_ok("[job]\nduration_ms = 1.5s\n[workload a]\n", "job",
		  "duration_ms", "1500");
	expect_ok("[workload a]\nseekpct=0\n", "a", "seekpct", "0");
	expect_ok("[job]\nrate_iops = curve\ncurve = 10-120,10\n[workload a]\n",
		  "job", "rate_iops", "curve");
	expect_ok("[job]\nrate_iops = curve\ncurve = 10-120,10\n[workload a]\n",
		  "job", "curve", "10-120,10");
	expect_err("[job]\nrate_iops = lots\n[workload a]\n",
		   "rate_iops = lots: not a non-negative integer");

	expect_err("[job]\nduraton_ms = 5s\n[workload a]\n",
		   "t.prof:2: unknown key 'duraton_ms' in [job] (did you mean 'duration_ms'?)");
	expect_err("[workload a]\nrdcpt = 5\n", "(did you mean 'rdpct'?)");
	expect_err("[workload a]\nrdpct = 150\n", "t.prof:2: rdpct = 150: not a percentage");
	expect_err("[job]\n\n\nwarmup_ms = soon\n[workload a]\n",
		   "t.prof:4: warmup_ms = soon: not a time");
	expect_err("[workload a]\ndepth = -3\n", "t.prof:2: depth = -3: not a non-negative integer");
	expect_err("[workload a]\nfua = maybe\n", "fua = maybe: not a boolean");
	expect_err("rdpct = 5\n[workload a]\n", "t.prof:1: 'rdpct' outside a section");
	expect_err("[jobs]\n", "t.prof:1: unknown section [jobs]");
	expect_err("[workload a]\n[workload a]\n", "t.prof:2: workload 'a' defined twice");
	expect_err("[workload a]\njust words\n", "t.prof:2: expected key = value");
	expect_err("[job]\nduration_ms = 1s\n", "no [workload NAME] section");
	expect_err("[workload]\n", "unknown section [workload]");

	/* --set: job key, workload key for all, WL.key for one. */
	CHECK(!profile_parse("t.prof", base, &p, err, sizeof(err)), "%s", err);
	CHECK(!profile_set(&p, "duration_ms=10s", err, sizeof(err)), "%s", err);
	CHECK(!strcmp(profile_get(&p.job, "duration_ms"), "10000"), "set job");
	CHECK(!profile_set(&p, "depth=4", err, sizeof(err)), "%s", err);
	CHECK(!strcmp(profile_get(&p.wl[0], "depth"), "4") &&
	      !strcmp(profile_get(&p.wl[1], "depth"), "4"), "set all");
	CHECK(!profile_set(&p, "w2.rdpct=0", err, sizeof(err)), "%s", err);
	CHECK(!strcmp(profile_get(&p.wl[1], "rdpct"), "0") &&
	      !strcmp(profile_get(&p.wl[0], "rdpct"), "70"), "set one");
	CHECK(profile_set(&p, "w9.rdpct=0", err, sizeof(err)) &&
	      strstr(err, "no workload 'w9'"), "%s", err);
	CHECK(profile_set(&p, "bogus=1", err, sizeof(err)) &&
	      strstr(err, "unknown key 'bogus'"), "%s", err);
	profile_free(&p);

	/* Comments after values; an empty value is unset. */
	expect_ok("[job]\nduration_ms = 60s   # a minute\n[workload a]\n",
		  "job", "duration_ms", "60000");
	expect_ok("[workload a]\nrdpct = 70%\t; mostly reads\n", "a",
		  "rdpct", "70");
	expect_ok("[workload a]\ndevice = /dev/disk/by-id/nvme-x#1\n", "a",
		  "device", "/dev/disk/by-id/nvme-x#1");
	expect_unset("[workload a]\ndevice =\n", "a", "device");
	expect_unset("[workload a]\ndevice = /dev/sdb\ndevice = \n", "a",
		     "device");
	expect_unset("[workload a]\ndevice =   # none\n", "a", "device");

	/* The documentation's examples parse as printed. */
	CHECK(doc_examples() >= 1, "no profile example found in Documentation/");

	/* Every shipped profile parses. */
	{
		glob_t g;
		size_t i;

		CHECK(!glob("../../tools/profiles/*.prof", 0, NULL, &g) &&
		      g.gl_pathc >= 5, "shipped profiles not found");
		for (i = 0; i < g.gl_pathc; i++) {
			struct profile q = { 0 };

			CHECK(!profile_load(g.gl_pathv[i], &q, err, sizeof(err)),
			      "%s", err);
			profile_free(&q);
		}
		globfree(&g);
	}
	return t_exit("profile");
}
