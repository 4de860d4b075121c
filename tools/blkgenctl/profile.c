// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - profile parser. Errors name file:line, the key and the
 * value; an unknown key gets the nearest valid one. Values are converted
 * to what configfs takes: times to milliseconds ("30s", "500ms", "2m",
 * "1h"), percents without their '%'; sizes, ranges and lists unchanged
 * (the module parses those).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"
#include "pattern.h"
#include "profile.h"

enum kind { K_MS, K_UINT, K_PCT, K_BOOL, K_TEXT };

struct key {
	const char *name;
	enum kind kind;
};

static const struct key job_keys[] = {
	{ "cpus", K_TEXT }, { "duration_ms", K_MS }, { "warmup_ms", K_MS },
	{ "interval_ms", K_MS }, { "rate_iops", K_UINT },
	{ "arrival", K_TEXT }, { "io_limit", K_UINT }, { "seed", K_UINT },
	{ "verify_fatal", K_BOOL },
	{ "curve", K_TEXT }, { "curve_stop_ms", K_TEXT },
	{ }
};

static const struct key wl_keys[] = {
	{ "device", K_TEXT }, { "rdpct", K_PCT }, { "bs", K_TEXT },
	{ "seekpct", K_PCT }, { "range", K_TEXT },
	{ "distribution", K_TEXT }, { "depth", K_UINT }, { "share", K_PCT },
	{ "allow_write", K_BOOL }, { "polled", K_BOOL }, { "fua", K_BOOL },
	{ "verify", K_BOOL }, { "flush_ms", K_MS },
	{ "replay", K_TEXT }, { "replay_speed", K_TEXT },
	{ "replay_buf_kb", K_UINT },
	{ "max_open_zones", K_UINT }, { "zone_reset_threshold", K_PCT },
	{ "zone_reset_frequency", K_PCT }, { "zone_append", K_BOOL },
	{ "read_beyond_wp", K_BOOL },
	/* blkgenctl's: the trace a replaying workload takes its I/O from */
	{ "trace", K_TEXT }, { "trace_format", K_TEXT },
	{ "trace_filter", K_TEXT }, { "trace_issue", K_BOOL },
	{ "trace_reads_only", K_BOOL },
	{ }
};

/* Levenshtein distance; 99 when either string is 64 bytes or longer. */
int profile_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j, d[64][64];

	if (la >= 64 || lb >= 64)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

static const struct key *find_key(const struct key *keys, const char *name,
				  const char **nearest)
{
	int best = 99, i, d;

	*nearest = NULL;
	for (i = 0; keys[i].name; i++) {
		if (!strcmp(keys[i].name, name))
			return &keys[i];
		d = profile_distance(keys[i].name, name);
		if (d < best) {
			best = d;
			*nearest = keys[i].name;
		}
	}
	if (best > 3)
		*nearest = NULL;
	return NULL;
}

/* "30s", "500ms", "2m", "1h", "250" (ms) into milliseconds. */
static int parse_ms(const char *v, unsigned long long *ms)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || x < 0)
		return -1;
	if (!*end || !strcmp(end, "ms"))
		;
	else if (!strcmp(end, "s"))
		x *= 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		x *= 60000;
	else if (!strcmp(end, "h"))
		x *= 3600000;
	else
		return -1;
	if (x != (unsigned long long)x)
		return -1;
	*ms = (unsigned long long)x;
	return 0;
}

static int parse_uint(const char *v, unsigned long long *n)
{
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	*n = strtoull(v, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "2x", "0.5x": passes over a workload's range (io_limit). */
static bool is_passes(const char *v)
{
	char *end;
	double d = strtod(v, &end);

	return end != v && d > 0 && !strcmp(end, "x");
}

/* Convert a value of a known key; NULL and a reason if it is malformed. */
/*
 * What the module would refuse, checked here with its own parsers (the
 * device-dependent rules wait for the start): a profile or --set is
 * wrong before any module is needed.
 */
static bool text_bad(const char *key, const char *v, const char **why)
{
	struct blkgen_zones z;
	struct blkgen_range r;
	struct blkgen_bs bs;

	if (!strcmp(key, "bs") && blkgen_parse_bs(v, &bs))
		*why = "not a size (multiples of 512 from 512 to 1 MiB, e.g. 4k) nor a split of at most 16 (SIZE/PCT:SIZE/PCT... summing to 100)";
	else if (!strcmp(key, "range") && blkgen_parse_range(v, &r))
		*why = "not a range START-END (percents, e.g. 0%-25%, or bytes, e.g. 1g-2g)";
	else if (!strcmp(key, "distribution") && blkgen_parse_zones(v, &z))
		*why = "not a distribution (uniform, or zoned:ACCESS/SIZE:... with both columns summing to 100)";
	else
		return false;
	return true;
}

static char *convert(const struct key *k, const char *v, const char **why)
{
	unsigned long long n;
	char buf[64];
	size_t len;

	switch (k->kind) {
	case K_MS:
		if (parse_ms(v, &n)) {
			*why = "not a time (e.g. 500ms, 30s, 2m, 1h)";
			return NULL;
		}
		break;
	case K_UINT:
		if (!strcmp(k->name, "rate_iops") && !strcmp(v, "curve"))
			return strdup(v);	/* a sweep: see curve.c */
		if (!strcmp(k->name, "io_limit") && is_passes(v))
			return strdup(v);	/* passes over the range: cmd-run.c */
		if (parse_uint(v, &n)) {
			*why = strcmp(k->name, "io_limit") ?
			       "not a non-negative integer" :
			       "not a count of I/Os, nor passes over the range (e.g. 2x)";
			return NULL;
		}
		break;
	case K_PCT:
		snprintf(buf, sizeof(buf), "%s", v);
		len = strlen(buf);
		if (len && buf[len - 1] == '%')
			buf[len - 1] = 0;
		if (parse_uint(buf, &n) || n > 100) {
			*why = "not a percentage 0..100";
			return NULL;
		}
		break;
	case K_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true"))
			return strdup("1");
		if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false"))
			return strdup("0");
		*why = "not a boolean (0/1, yes/no, true/false)";
		return NULL;
	default:
		if (text_bad(k->name, v, why))
			return NULL;
		return strdup(v);
	}
	if (!strcmp(k->name, "depth") && (n < 1 || n > 65536)) {
		*why = "not a depth 1..65536";	/* the module's BLKGEN_MAX_DEPTH */
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%llu", n);
	return strdup(buf);
}

const char *profile_get(const struct profile_section *s, const char *key)
{
	int i;

	for (i = s->nr - 1; i >= 0; i--)
		if (!strcmp(s->kv[i].key, key))
			return s->kv[i].value;
	return NULL;
}

/* Add or replace key = value (already converted). */
int profile_put(struct profile_section *s, const char *key,
		const char *value, int line)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->kv[i].key, key)) {
			free(s->kv[i].value);
			s->kv[i].value = strdup(value);
			s->kv[i].line = line;
			return 0;
		}
	if (s->nr == PROFILE_MAX_KV)
		return -1;
	s->kv[s->nr].key = strdup(key);
	s->kv[s->nr].value = strdup(value);
	s->kv[s->nr].line = line;
	s->nr++;
	return 0;
}

/* Strip white space at both ends, in place. */
char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Remove key from a section (an empty value leaves it unset). */
static void profile_del(struct profile_section *s, const char *key)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->kv[i].key, key)) {
			free(s->kv[i].key);
			free(s->kv[i].value);
			s->kv[i] = s->kv[--s->nr];
			return;
		}
}

static int set_kv(struct profile_section *s, const char *file, int line,
		  const char *key, const char *value, char *err, int errlen)
{
	const struct key *k, *keys = s->name ? wl_keys : job_keys;
	const char *nearest, *why = NULL;
	char *conv;

	k = find_key(keys, key, &nearest);
	if (!k) {
		char where[64];

		/* FILE:LINE: unknown key 'K', or "--set [WL.]K: unknown key 'K'" */
		if (line)
			snprintf(where, sizeof(where), ":%d", line);
		else
			snprintf(where, sizeof(where), "%.60s", key);
		snprintf(err, errlen, "%s%s: unknown key '%s' in [%s%s%s]%s%s%s",
			 file, where, key, s->name ? "workload " : "job",
			 s->name ? s->name : "", "",
			 nearest ? " (did you mean '" : "",
			 nearest ? nearest : "", nearest ? "'?)" : "");
		return -1;
	}
	if (!*value) {
		profile_del(s, key);
		return 0;
	}
	conv = convert(k, value, &why);
	if (!conv) {
		if (line)
			snprintf(err, errlen, "%s:%d: %s = %s: %s", file, line,
				 key, value, why);
		else	/* from the command line: "--set [WL.]" */
			snprintf(err, errlen, "%s%s=%s: %s", file, key, value,
				 why);
		return -1;
	}
	profile_put(s, key, conv, line);
	free(conv);
	return 0;
}

/**
 * profile_parse() - Parse a profile's text.
 * @file: name for messages
 * @text: the contents
 * @p: result (zeroed by the caller); release with profile_free()
 * @err: message on failure
 * @errlen: its size
 * Return: 0 or -1.
 */
int profile_parse(const char *file, const char *text, struct profile *p,
		  char *err, int errlen)
{
	char *copy = strdup(text), *line, *next, *s, *eq;
	struct profile_section *cur = NULL;
	int n = 0, ret = -1, i;

	p->file = strdup(file);
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		n++;
		s = str_trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']'), *name;

			if (!end || end[1]) {
				snprintf(err, errlen, "%s:%d: malformed section '%s'",
					 file, n, s);
				goto out;
			}
			*end = 0;
			name = str_trim(s + 1);
			if (!strcmp(name, "job")) {
				cur = &p->job;
				continue;
			}
			if (strncmp(name, "workload", 8) ||
			    !isspace((unsigned char)name[8])) {
				snprintf(err, errlen,
					 "%s:%d: unknown section [%s] (sections: [job], [workload NAME])",
					 file, n, name);
				goto out;
			}
			name = str_trim(name + 8);
			if (!*name || strchr(name, '/') || strchr(name, ' ')) {
				snprintf(err, errlen, "%s:%d: bad workload name '%s'",
					 file, n, name);
				goto out;
			}
			for (i = 0; i < p->nr_wl; i++)
				if (!strcmp(p->wl[i].name, name)) {
					snprintf(err, errlen,
						 "%s:%d: workload '%s' defined twice",
						 file, n, name);
					goto out;
				}
			if (p->nr_wl == PROFILE_MAX_WL) {
				snprintf(err, errlen, "%s:%d: more than %d workloads",
					 file, n, PROFILE_MAX_WL);
				goto out;
			}
			cur = &p->wl[p->nr_wl++];
			cur->name = strdup(name);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected key = value, got '%s'",
				 file, n, s);
			goto out;
		}
		*eq = 0;
		/* A comment after a value: '#' or ';' after white space. */
		for (i = 1; eq[i]; i++)
			if ((eq[i] == '#' || eq[i] == ';') &&
			    isspace((unsigned char)eq[i - 1])) {
				eq[i] = 0;
				break;
			}
		if (!cur) {
			snprintf(err, errlen,
				 "%s:%d: '%s' outside a section ([job] or [workload NAME])",
				 file, n, str_trim(s));
			goto out;
		}
		if (set_kv(cur, file, n, str_trim(s), str_trim(eq + 1), err, errlen))
			goto out;
	}
	if (!p->nr_wl) {
		snprintf(err, errlen, "%s: no [workload NAME] section", file);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

/**
 * profile_load() - Read and parse a profile file.
 * @file: path
 * @p: result (zeroed by the caller)
 * @err: message on failure
 * @errlen: its size
 * Return: 0 or -1.
 */
int profile_load(const char *file, struct profile *p, char *err, int errlen)
{
	size_t size;
	char *text;
	int ret;

	text = cfs_read_file(file, &size);
	if (!text) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	text = realloc(text, size + 1);
	text[size] = 0;
	ret = profile_parse(file, text, p, err, errlen);
	free(text);
	return ret;
}

/**
 * profile_set() - Apply a --set override: KEY=VALUE (job, or every
 *                 workload for a workload key) or WL.KEY=VALUE.
 * @p: profile
 * @assignment: the argument
 * @err: message on failure
 * @errlen: its size
 * Return: 0 or -1.
 */
int profile_set(struct profile *p, const char *assignment, char *err,
		int errlen)
{
	char *a = strdup(assignment), *eq = strchr(a, '='), *key, *dot;
	const char *nearest, *job_near;
	char label[300];
	int i, ret = -1;

	if (!eq) {
		snprintf(err, errlen, "--set %s: expected KEY=VALUE", assignment);
		goto out;
	}
	*eq = 0;
	key = a;
	dot = strchr(key, '.');
	if (dot) {
		*dot = 0;
		for (i = 0; i < p->nr_wl; i++)
			if (!strcmp(p->wl[i].name, key))
				break;
		if (i == p->nr_wl) {
			snprintf(err, errlen, "--set: no workload '%s'", key);
			goto out;
		}
		snprintf(label, sizeof(label), "--set %s.", key);
		ret = set_kv(&p->wl[i], label, 0, dot + 1, eq + 1, err, errlen);
		goto out;
	}
	if (find_key(job_keys, key, &job_near)) {
		ret = set_kv(&p->job, "--set ", 0, key, eq + 1, err, errlen);
		goto out;
	}
	if (!find_key(wl_keys, key, &nearest)) {
		/* The nearer of the job's and the workloads' keys. */
		if (job_near && (!nearest || profile_distance(job_near, key) <
					     profile_distance(nearest, key)))
			nearest = job_near;
		snprintf(err, errlen, "--set: unknown key '%s'%s%s%s", key,
			 nearest ? " (did you mean '" : "",
			 nearest ? nearest : "", nearest ? "'?)" : "");
		goto out;
	}
	for (i = 0; i < p->nr_wl; i++)
		if (set_kv(&p->wl[i], "--set ", 0, key, eq + 1, err, errlen))
			goto out;
	ret = 0;
out:
	free(a);
	return ret;
}

/* @p as a profile file: what a run writes to the module, in order. */
void profile_print(const struct profile *p, FILE *f)
{
	const struct profile_section *s;
	int i, k;

	for (i = -1; i < p->nr_wl; i++) {
		s = i < 0 ? &p->job : &p->wl[i];
		if (i < 0)
			fprintf(f, "[job]\n");
		else
			fprintf(f, "\n[workload %s]\n", s->name);
		for (k = 0; k < s->nr; k++)
			fprintf(f, "%s = %s\n", s->kv[k].key, s->kv[k].value);
	}
}

static void free_section(struct profile_section *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->name);
}

void profile_free(struct profile *p)
{
	int i;

	free_section(&p->job);
	for (i = 0; i < p->nr_wl; i++)
		free_section(&p->wl[i]);
	free(p->file);
	memset(p, 0, sizeof(*p));
}
