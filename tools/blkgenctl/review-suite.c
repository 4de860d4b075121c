// SPDX-License-Identifier: GPL-2.0
/*
 * Review suites: a small INI file, a [suite] section (title, points,
 * desktops) and one [workload NAME] per workload of the review, each
 * naming a profile (and overrides, as run --set) or a VDI trace:
 *
 *	[workload 4k-random-read]
 *	title = 4K random read
 *	profile = 4k-random-read
 *	set = depth=128
 *
 *	[workload vdi-fc-boot]
 *	title = VDI full clone boot
 *	vdi = full boot
 *
 * A bare name is found in BLKGEN_SUITES (or the installed suites) as
 * NAME.suite. Errors name file:line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkgenctl.h"
#include "profile.h"
#include "review.h"


static int bad(char *err, size_t len, const char *file, int line,
	       const char *what, const char *arg)
{
	snprintf(err, len, "%s:%d: %s%s%s%s", file, line, what,
		 arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return -1;
}

static bool valid_name(const char *s)
{
	if (!*s || strlen(s) >= 64 || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

static int entry_key(struct suite_entry *e, const char *k, const char *v,
		     const char *file, int line, char *err, size_t len)
{
	if (!strcmp(k, "title")) {
		snprintf(e->title, sizeof(e->title), "%s", v);
	} else if (!strcmp(k, "profile")) {
		snprintf(e->profile, sizeof(e->profile), "%s", v);
	} else if (!strcmp(k, "set")) {
		if (!strchr(v, '='))
			return bad(err, len, file, line,
				   "set: expected [WL.]KEY=VALUE, got", v);
		if (e->nr_sets == SUITE_MAX_SETS)
			return bad(err, len, file, line, "too many set lines", NULL);
		e->sets[e->nr_sets] = strdup(v);
		if (!e->sets[e->nr_sets++])
			return bad(err, len, file, line, "out of memory", NULL);
	} else if (!strcmp(k, "vdi")) {
		if (sscanf(v, "%15s %31s", e->vdi_clone, e->vdi_phase) != 2 ||
		    (strcmp(e->vdi_clone, "full") && strcmp(e->vdi_clone, "linked")) ||
		    (strcmp(e->vdi_phase, "boot") && strcmp(e->vdi_phase, "initial-login") &&
		     strcmp(e->vdi_phase, "monday-login")))
			return bad(err, len, file, line,
				   "vdi: expected full|linked boot|initial-login|monday-login, got", v);
	} else if (!strcmp(k, "unit")) {
		if (strcmp(v, "iops") && strcmp(v, "mbps"))
			return bad(err, len, file, line,
				   "unit: expected iops or mbps, got", v);
		e->mbps = !strcmp(v, "mbps");
	} else if (!strcmp(k, "note")) {
		snprintf(e->note, sizeof(e->note), "%s", v);
	} else {
		return bad(err, len, file, line,
			   "unknown key (title, profile, set, vdi, unit, note):", k);
	}
	return 0;
}

static int suite_key(struct suite *s, const char *k, const char *v,
		     int line, char *err, size_t len)
{
	char *end;

	if (!strcmp(k, "title")) {
		snprintf(s->title, sizeof(s->title), "%s", v);
	} else if (!strcmp(k, "points")) {
		snprintf(s->points, sizeof(s->points), "%s", v);
	} else if (!strcmp(k, "desktops")) {
		unsigned long d = strtoul(v, &end, 10);

		s->desktops = d > 100000 ? 0 : (unsigned int)d;
		if (*end || end == v || !s->desktops)
			return bad(err, len, s->file, line,
				   "desktops: expected 1 to 100000, got", v);
	} else if (!strcmp(k, "zoned")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return bad(err, len, s->file, line,
				   "zoned: expected 0 or 1, got", v);
		s->zoned = !strcmp(v, "1");
	} else {
		return bad(err, len, s->file, line,
			   "unknown key (title, points, desktops, zoned):", k);
	}
	return 0;
}

static int parse(struct suite *s, FILE *f, char *err, size_t len)
{
	struct suite_entry *e = NULL;
	bool in_suite = false;
	char buf[1024], *l, *k, *v, *eq;
	int line = 0, i;

	while (fgets(buf, sizeof(buf), f)) {
		line++;
		l = str_trim(buf);
		if (!*l || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			char name[128];

			in_suite = false;
			e = NULL;
			if (!strcmp(l, "[suite]")) {
				in_suite = true;
				continue;
			}
			if (sscanf(l, "[workload %127[^]]", name) != 1 ||
			    strcmp(l + strlen(l) - 1, "]") ||
			    strlen(name) + 11 != strlen(l))
				return bad(err, len, s->file, line,
					   "expected [suite] or [workload NAME], got", l);
			if (!valid_name(name))
				return bad(err, len, s->file, line,
					   "a workload's name takes a-z, 0-9, '-', '_' and '.' (at most 63):", name);
			for (i = 0; i < s->n; i++)
				if (!strcmp(s->e[i].name, name)) {
					snprintf(err, len, "%s:%d: workload '%s' again (first at line %d)",
						 s->file, line, name, s->e[i].line);
					return -1;
				}
			if (s->n == SUITE_MAX)
				return bad(err, len, s->file, line,
					   "too many workloads (64 at most)", NULL);
			e = &s->e[s->n++];
			snprintf(e->name, sizeof(e->name), "%.63s", name);	/* valid_name(): at most 63 */
			e->line = line;
			continue;
		}
		eq = strchr(l, '=');
		if (!eq)
			return bad(err, len, s->file, line, "expected KEY = VALUE, got", l);
		*eq = 0;
		k = str_trim(l);
		v = str_trim(eq + 1);
		if (in_suite) {
			if (suite_key(s, k, v, line, err, len))
				return -1;
		} else if (e) {
			if (entry_key(e, k, v, s->file, line, err, len))
				return -1;
		} else {
			return bad(err, len, s->file, line,
				   "a key before [suite] or [workload NAME]:", k);
		}
	}
	for (i = 0; i < s->n; i++) {
		e = &s->e[i];
		if (!e->profile[0] == !e->vdi_clone[0]) {
			snprintf(err, len, "%s:%d: workload %s: give a profile or a vdi trace (one of them)",
				 s->file, e->line, e->name);
			return -1;
		}
		/* The name, whole (a title is longer): not snprintf(), whose
		 * source and destination gcc's -Wrestrict takes for one. */
		_Static_assert(sizeof(e->title) >= sizeof(e->name), "a title holds a name");
		if (!e->title[0])
			memcpy(e->title, e->name, sizeof(e->name));
	}
	if (!s->n) {
		snprintf(err, len, "%s: no [workload NAME] in the suite", s->file);
		return -1;
	}
	return 0;
}

int suite_load(const char *arg, struct suite *s, char *err, size_t len)
{
	const char *base;
	FILE *f;
	int ret;

	memset(s, 0, sizeof(*s));
	/* A file here, or a path; else a name (a directory is not a suite). */
	if (named_file(s->file, sizeof(s->file), arg, suite_dir(), ".suite") < 0) {
		snprintf(err, len, "%s: name too long", arg);
		return -1;
	}
	f = fopen(s->file, "r");
	if (!f) {
		snprintf(err, len, "suite '%s': %s: %s%s", arg, s->file,
			 strerror(errno), strchr(arg, '/') ? "" :
			 " (the installed suites are in BLKGEN_SUITES or " BLKGEN_SUITE_DIR ")");
		return -1;
	}
	base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;
	snprintf(s->name, sizeof(s->name), "%.*s", (int)strcspn(base, "."), base);
	s->desktops = 16;
	ret = parse(s, f, err, len);
	fclose(f);
	if (ret)
		suite_free(s);
	return ret;
}

void suite_free(struct suite *s)
{
	int i, j;

	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->e[i].nr_sets; j++) {
			free(s->e[i].sets[j]);
			s->e[i].sets[j] = NULL;
		}
}
