// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl convert - vdbench parameter files (raw I/O: sd, wd, rd).
 *
 * Each rd becomes a run, and each value of its for-loops (and of an
 * iorate list) another; each wd x sd pair of the run becomes a workload.
 * vdbench semantics kept: sd threads (default 8, overridden by the rd's
 * threads/forthreads) are the outstanding I/Os of the sd, split among
 * its wds by skew; without warmup= the first interval is excluded; an
 * option blkgen cannot honour is an error naming it.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"
#include "convert.h"

#define VD_MAX_DEFS	128
#define VD_MAX_KV	32
#define VD_MAX_LIST	64

struct vd_def {
	char type[32];			/* sd, wd, rd; or the general parameter */
	char name[64];
	int line;
	char key[VD_MAX_KV][32];
	char val[VD_MAX_KV][256];
	int kline[VD_MAX_KV];
	int nr;
};

struct vd {
	struct conv *c;
	struct vd_def def[VD_MAX_DEFS];
	int nr;
	struct vd_def dflt[3];		/* sd=default, wd=default, rd=default */
};

/* Keys each definition takes; anything else is named in an error. */
static const char *const sd_keys[] = { "lun", "threads", "openflags", "size",
	NULL };
static const char *const wd_keys[] = {
	"sd", "xfersize", "rdpct", "seekpct", "range", "skew", "hotband",
	"openflags", NULL };
static const char *const rd_keys[] = {
	"wd", "iorate", "curve", "stopcurve", "elapsed", "warmup", "interval",
	"distribution", "threads", "forthreads", "forxfersize", "forrdpct",
	"forseekpct", "openflags", "rdpct", "xfersize", "seekpct", NULL };

/* General parameters that do not change the I/O blkgen issues. */
static const char *const harmless[] = { "messagescan", "histogram", "report",
	"data_errors", NULL };

/* Keywords that begin a definition. */
static const char *const first_kw[] = { "sd", "wd", "rd", "hd", "fsd", "fwd",
	"rg", NULL };

static const char *vd_get(const struct vd_def *d, const char *key, int *line)
{
	int i;

	for (i = d->nr - 1; i >= 0; i--)
		if (!strcmp(d->key[i], key)) {
			if (line)
				*line = d->kline[i];
			return d->val[i];
		}
	return NULL;
}

/*
 * Split "a,(b,c),d" at top-level commas; @out points into @s, which is
 * modified. Returns the count, or -1 on unbalanced parentheses.
 */
static int split_top(char *s, char **out, int max)
{
	int depth = 0, n = 0;
	char *start = s;

	for (;; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && --depth < 0)
			return -1;
		if ((*s == ',' && !depth) || !*s) {
			bool end = !*s;

			if (n == max)
				return -1;
			*s = 0;
			out[n++] = str_trim(start);
			start = s + 1;
			if (end)
				break;
		}
	}
	return depth ? -1 : n;
}

/* "(a,b,c)" or "a" into items; @buf is a scratch copy. */
static int list_items(const char *v, char *buf, size_t size, char **items)
{
	size_t len = strlen(v);

	if (len >= size)
		return -1;
	if (v[0] == '(' && len >= 2 && v[len - 1] == ')') {
		memcpy(buf, v + 1, len - 2);
		buf[len - 2] = 0;
	} else {
		memcpy(buf, v, len + 1);
	}
	return split_top(buf, items, VD_MAX_LIST);
}

static int add_kv(struct vd *vd, struct vd_def *d, const char *key,
		  const char *val, int line)
{
	if (d->nr == VD_MAX_KV)
		return conv_error(vd->c, line, "too many parameters");
	snprintf(d->key[d->nr], sizeof(d->key[0]), "%s", key);
	snprintf(d->val[d->nr], sizeof(d->val[0]), "%s", val);
	d->kline[d->nr++] = line;
	return 0;
}

static int dflt_index(const char *type)
{
	return !strcmp(type, "sd") ? 0 : !strcmp(type, "wd") ? 1 : 2;
}

/* One statement "sd=NAME,key=value,...". */
static int statement(struct vd *vd, char *text, int line)
{
	char *part[VD_MAX_KV + 1], *eq;
	struct vd_def *d, tmp = { 0 };
	const char *const *keys;
	int n, i;

	n = split_top(text, part, VD_MAX_KV + 1);
	if (n < 0)
		return conv_error(vd->c, line, "unbalanced parentheses or too many parameters");
	eq = strchr(part[0], '=');
	if (!eq)
		return conv_error(vd->c, line, "expected KEYWORD=VALUE, got '%s'",
				  part[0]);
	*eq = 0;
	snprintf(tmp.type, sizeof(tmp.type), "%s", str_trim(part[0]));
	snprintf(tmp.name, sizeof(tmp.name), "%s", str_trim(eq + 1));
	tmp.line = line;
	if (strcmp(tmp.type, "sd") && strcmp(tmp.type, "wd") &&
	    strcmp(tmp.type, "rd")) {
		if (conv_in_list(harmless, tmp.type) && n == 1) {
			conv_note(vd->c, NULL, "%s=%s ignored (%s)", tmp.type,
				  tmp.name, strcmp(tmp.type, "data_errors") ?
				  "vdbench's reporting" :
				  "error handling: blkgen fails a run after 1000 errors in a row");
			return 0;
		}
		if (!strcmp(tmp.type, "hd") || !strcmp(tmp.type, "fsd") ||
		    !strcmp(tmp.type, "fwd") || !strcmp(tmp.type, "rg"))
			return conv_error(vd->c, line, "'%s=' is not supported: blkgen runs raw block I/O on one host (sd, wd, rd)",
					  tmp.type);
		return conv_error(vd->c, line, "parameter '%s=' is not supported by blkgen",
				  tmp.type);
	}
	keys = !strcmp(tmp.type, "sd") ? sd_keys :
	       !strcmp(tmp.type, "wd") ? wd_keys : rd_keys;
	if (!tmp.name[0])
		return conv_error(vd->c, line, "%s= needs a name", tmp.type);

	if (!strcmp(tmp.name, "default")) {
		d = &vd->dflt[dflt_index(tmp.type)];
	} else {
		if (vd->nr == VD_MAX_DEFS)
			return conv_error(vd->c, line, "too many definitions");
		for (i = 0; i < vd->nr; i++)
			if (!strcmp(vd->def[i].type, tmp.type) &&
			    !strcmp(vd->def[i].name, tmp.name))
				return conv_error(vd->c, line, "%s=%s is defined twice (first at line %d)",
						  tmp.type, tmp.name,
						  vd->def[i].line);
		d = &vd->def[vd->nr++];
		*d = vd->dflt[dflt_index(tmp.type)];
		memcpy(d->type, tmp.type, sizeof(d->type));
		memcpy(d->name, tmp.name, sizeof(d->name));
		d->line = line;
	}
	for (i = 1; i < n; i++) {
		char *key = part[i], *val;

		eq = strchr(key, '=');
		if (!eq)
			return conv_error(vd->c, line, "expected KEY=VALUE, got '%s'",
					  key);
		*eq = 0;
		key = str_trim(key);
		val = str_trim(eq + 1);
		if (!conv_in_list(keys, key))
			return conv_error(vd->c, line, "%s parameter '%s=' is not supported by blkgen",
					  tmp.type, key);
		if (add_kv(vd, d, key, val, line))
			return -1;
	}
	return 0;
}

/* The keyword before the first '=' of @s into @buf ("" without one). */
static const char *keyword(const char *s, char *buf, size_t size)
{
	const char *eq = strchr(s, '=');
	size_t len = eq ? (size_t)(eq - s) : 0;

	if (len >= size)
		len = 0;
	memcpy(buf, s, len);
	buf[len] = 0;
	return str_trim(buf);
}

/*
 * Whether line @s begins a statement after @stmt (a statement so far, not
 * ending in a comma; @s does not start with one), as vdbench reads them:
 * a definition keyword (sd=, wd=, rd=, ...) always does; before the first
 * definition every KEY= line is a general parameter of its own
 * (messagescan=no, then histogram=(default,20,40)); after it, any other
 * key continues the definition ("wd=wd1,sd=sd1", then "rdpct=70"), and
 * one it does not take is named in the definition's error.
 */
static bool starts_statement(const char *stmt, const char *s)
{
	char kb[64], tb[64];
	const char *key = keyword(s, kb, sizeof(kb));
	const char *type = keyword(stmt, tb, sizeof(tb));

	if (!*key)
		return false;
	return conv_in_list(first_kw, key) || !conv_in_list(first_kw, type);
}

/* Comments: '*', '#' or '/' first; text after " *" or '#'. */
static void strip_comment(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == '#' || (*p == '*' && p > s && isspace((unsigned char)p[-1]))) {
			*p = 0;
			return;
		}
}

static int parse(struct vd *vd, char *text)
{
	char stmt[4096] = "", *line = text, *next;
	int lineno = 0, sline = 0;

	for (; line; line = next) {
		char *s;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		s = str_trim(line);
		if (!*s || *s == '*' || *s == '#' || *s == '/')
			continue;
		strip_comment(s);
		s = str_trim(s);
		if (!*s)
			continue;
		if (stmt[0] && *s != ',' && stmt[strlen(stmt) - 1] != ',' &&
		    starts_statement(stmt, s)) {
			if (statement(vd, stmt, sline))
				return -1;
			stmt[0] = 0;
		}
		if (!stmt[0])
			sline = lineno;
		if (strlen(stmt) + strlen(s) + 2 >= sizeof(stmt))
			return conv_error(vd->c, lineno, "statement too long");
		if (stmt[0] && *s != ',' && stmt[strlen(stmt) - 1] != ',')
			strcat(stmt, ",");
		strcat(stmt, s);
	}
	if (stmt[0] && statement(vd, stmt, sline))
		return -1;
	return 0;
}

/* Definitions of @type whose name matches @pattern (a vdbench wildcard). */
static int match_defs(struct vd *vd, const char *type, const char *value,
		      int line, struct vd_def **out, int max)
{
	char buf[512], *items[VD_MAX_LIST];
	int n, i, j, nr = 0;

	n = list_items(value, buf, sizeof(buf), items);
	if (n <= 0)
		return conv_error(vd->c, line, "%s=%s: expected a name or a list (a,b)",
				  type, value);
	for (i = 0; i < n; i++) {
		int found = 0;

		for (j = 0; j < vd->nr; j++) {
			struct vd_def *d = &vd->def[j];

			if (strcmp(d->type, type) || fnmatch(items[i], d->name, 0))
				continue;
			if (nr == max)
				return conv_error(vd->c, line, "too many %ss", type);
			out[nr++] = d;
			found++;
		}
		if (!found)
			return conv_error(vd->c, line, "%s=%s: no %s of that name",
					  type, items[i], type);
	}
	return nr;
}

/* A whole percent from a vdbench number; a fraction rounds, with a note. */
static int percent(struct vd *vd, struct conv_run *r, const char *key,
		   const char *v, int line, int *out)
{
	double d;

	if (conv_number(v, &d) || d < 0 || d > 100)
		return conv_error(vd->c, line, "%s=%s: expected a percentage 0..100",
				  key, v);
	*out = (int)lround(d);
	if (*out != d)
		conv_note(vd->c, r, "%s=%s rounded to %d (blkgen takes whole percents)",
			  key, v, *out);
	return 0;
}

/* Seconds, with vdbench's optional s/m/h suffix. */
static int seconds(struct vd *vd, const char *key, const char *v, int line,
		   double *out)
{
	char buf[64], *end;
	double mult = 1;
	size_t len = strlen(v);

	if (!len || len >= sizeof(buf))
		return conv_error(vd->c, line, "%s=%s: expected seconds", key, v);
	memcpy(buf, v, len + 1);
	end = buf + len - 1;
	if (*end == 's' || *end == 'm' || *end == 'h') {
		mult = *end == 'm' ? 60 : *end == 'h' ? 3600 : 1;
		*end = 0;
	}
	if (conv_number(buf, out) || *out < 0)
		return conv_error(vd->c, line, "%s=%s: expected seconds", key, v);
	*out *= mult;
	return 0;
}

/* xfersize=4k or (4k,30,8k,70) into blkgen's bs. */
static int xfersize(struct vd *vd, struct conv_run *r, const char *v,
		    int line, char *out, size_t size)
{
	char buf[512], *it[VD_MAX_LIST], s[32];
	uint64_t bytes;
	double pct[VD_MAX_LIST], sum = 0;
	int n, i, len = 0, whole[VD_MAX_LIST], wsum = 0;

	n = list_items(v, buf, sizeof(buf), it);
	if (n == 1) {
		if (conv_size(it[0], &bytes))
			return conv_error(vd->c, line, "xfersize=%s: not a size", v);
		conv_size_str(bytes, out, size);
		return 0;
	}
	if (n == 3)
		return conv_error(vd->c, line, "xfersize=%s: a random size range (min,max,align) is not supported: give size,percent pairs",
				  v);
	if (n < 2 || n % 2)
		return conv_error(vd->c, line, "xfersize=%s: expected SIZE or (SIZE,PERCENT,...)",
				  v);
	for (i = 0; i < n; i += 2) {
		if (strchr(it[i], '-'))
			return conv_error(vd->c, line, "xfersize=%s: '%s' is a size range: random sizes between two bounds are not supported: give SIZE,PERCENT pairs",
					  v, it[i]);
		if (conv_size(it[i], &bytes) || conv_number(it[i + 1], &pct[i]) ||
		    pct[i] < 0)
			return conv_error(vd->c, line, "xfersize=%s: '%s,%s' is not SIZE,PERCENT",
					  v, it[i], it[i + 1]);
		sum += pct[i];
	}
	if (fabs(sum - 100) > 0.001)
		return conv_error(vd->c, line, "xfersize=%s: percentages sum to %g, not 100",
				  v, sum);
	/* Whole percents by largest remainder, so they still sum to 100. */
	for (i = 0; i < n; i += 2) {
		whole[i] = (int)floor(pct[i] + 1e-9);
		wsum += whole[i];
	}
	while (wsum < 100) {
		int best = -1;

		for (i = 0; i < n; i += 2)
			if (best < 0 || pct[i] - whole[i] > pct[best] - whole[best])
				best = i;
		whole[best]++;
		pct[best] = whole[best];	/* taken: not picked again */
		wsum++;
	}
	for (i = 0; i < n; i += 2) {
		double asked;

		conv_size(it[i], &bytes);
		conv_size_str(bytes, s, sizeof(s));
		conv_number(it[i + 1], &asked);
		if (fabs(asked - whole[i]) > 1e-9)
			conv_note(vd->c, r, "xfersize %s%% of %s rounded to %d%% (blkgen takes whole percents)",
				  it[i + 1], s, whole[i]);
		if (!whole[i])
			return conv_error(vd->c, line, "xfersize=%s: %s%% of %s rounds to 0",
					  v, it[i + 1], it[i]);
		len += snprintf(out + len, size - len, "%s%s/%d",
				i ? ":" : "", s, whole[i]);
		if ((size_t)len >= size)
			return conv_error(vd->c, line, "xfersize=%s: too long", v);
	}
	return 0;
}

/* range=(a,b): percent up to 200 without a unit (vdbench), else bytes. */
static int range_bound(const char *s, bool *pct, double *v)
{
	uint64_t b;

	if (!conv_number(s, v) && *v <= 200) {
		*pct = true;
		return 0;
	}
	if (conv_size(s, &b))
		return -1;
	*pct = false;
	*v = (double)b;
	return 0;
}

static int range(struct vd *vd, const char *key, const char *v, int line,
		 double *lo, double *hi, bool *pct, char *out, size_t size)
{
	char buf[128], *it[VD_MAX_LIST], a[32], b[32];
	bool p2;
	int n;

	n = list_items(v, buf, sizeof(buf), it);
	if (n != 2 || range_bound(it[0], pct, lo) || range_bound(it[1], &p2, hi) ||
	    *pct != p2 || *lo < 0 || *lo >= *hi)
		return conv_error(vd->c, line, "%s=%s: expected (START,END), both percent or both sizes, START < END",
				  key, v);
	if (*pct && *hi > 100)
		return conv_error(vd->c, line, "%s=%s: a range that wraps past the end of the device is not supported",
				  key, v);
	if (*pct) {
		snprintf(out, size, "%g%%-%g%%", *lo, *hi);
		return 0;
	}
	conv_size_str((uint64_t)*lo, a, sizeof(a));
	conv_size_str((uint64_t)*hi, b, sizeof(b));
	snprintf(out, size, "%s-%s", a, b);
	return 0;
}

/*
 * A range within an sd of size= bytes: percents are of the size (made
 * bytes); bytes must lie within it. Nothing to do without size=.
 */
static int of_size(struct vd *vd, const struct vd_def *sd, const char *v,
		   int line, uint64_t sdsize, double *lo, double *hi, bool *pct,
		   char *out, size_t size)
{
	char a[32], b[32];

	if (!sdsize)
		return 0;
	if (*pct) {
		*lo = floor(*lo / 100 * (double)sdsize / 512) * 512;
		*hi = floor(*hi / 100 * (double)sdsize / 512) * 512;
		*pct = false;
	} else if (*hi > (double)sdsize) {
		return conv_error(vd->c, line, "%s: ends past sd=%s's size=",
				  v, sd->name);
	}
	conv_size_str((uint64_t)*lo, a, sizeof(a));
	conv_size_str((uint64_t)*hi, b, sizeof(b));
	snprintf(out, size, "%s-%s", a, b);
	return 0;
}

static int openflags(struct vd *vd, struct conv_run *r, const char *v,
		     int line, bool *fua)
{
	char buf[256], *it[VD_MAX_LIST];
	int n, i;

	n = list_items(v, buf, sizeof(buf), it);
	for (i = 0; i < n; i++) {
		if (!strcmp(it[i], "o_direct") || !strcmp(it[i], "directio"))
			continue;
		if (!strcmp(it[i], "o_sync") || !strcmp(it[i], "o_dsync")) {
			*fua = true;
			conv_note(vd->c, r, "openflags=%s: writes carry FUA (fua = 1)",
				  it[i]);
			continue;
		}
		return conv_error(vd->c, line, "openflags=%s: '%s' is not supported (blkgen I/O is always direct; o_sync/o_dsync become FUA writes)",
				  v, it[i]);
	}
	return n < 0 ? conv_error(vd->c, line, "openflags=%s: malformed", v) : 0;
}

/* Values of a for-loop: "(1-32,d)" doubles, "(100-1000,100)" steps. */
static int expand(struct vd *vd, const char *key, const char *v, int line,
		  bool sizes, char (*out)[32], int max)
{
	char buf[512], *it[VD_MAX_LIST], *dash;
	int n, i, nr = 0;

	n = list_items(v, buf, sizeof(buf), it);
	if (n <= 0)
		return conv_error(vd->c, line, "%s=%s: malformed list", key, v);
	for (i = 0; i < n; i++) {
		uint64_t a, b, step = 0;
		bool dbl;

		dash = strchr(it[i], '-');
		if (!dash || i + 1 >= n) {
			if (nr == max)
				return conv_error(vd->c, line, "%s=%s: too many values",
						  key, v);
			snprintf(out[nr++], 32, "%s", it[i]);
			continue;
		}
		*dash = 0;
		dbl = !strcmp(it[i + 1], "d");
		/* Doubling needs a start above 0; steps start anywhere. */
		if (conv_size(it[i], &a) || conv_size(dash + 1, &b) ||
		    (!dbl && conv_size(it[i + 1], &step)) || (!dbl && !step) ||
		    (dbl && !a) || a > b)
			return conv_error(vd->c, line, "%s=%s: expected (FROM-TO,STEP) or (FROM-TO,d)",
					  key, v);
		for (; a <= b; a = dbl ? a * 2 : a + step) {
			if (nr == max)
				return conv_error(vd->c, line, "%s=%s: too many values",
						  key, v);
			if (sizes)
				conv_size_str(a, out[nr++], 32);
			else
				snprintf(out[nr++], 32, "%llu", (unsigned long long)a);
		}
		i++;
	}
	return nr;
}

/* One for-loop dimension of an rd. */
struct vd_loop {
	const char *key;	/* the parameter it sets: threads, xfersize, ... */
	char val[VD_MAX_LIST][32];
	int n;
};

static int loop_get(const struct vd_loop *l, int nl, const int *idx,
		    const char *key, const char **val)
{
	int i;

	for (i = 0; i < nl; i++)
		if (!strcmp(l[i].key, key)) {
			*val = l[i].val[idx[i]];
			return 1;
		}
	return 0;
}

/* rdpct, xfersize and seekpct: the rd's, else the wd's (vdbench). */
static const char *rd_or_wd(const struct vd_def *rd, const struct vd_def *wd,
			    const char *key, int *line)
{
	const char *v = vd_get(rd, key, line);

	return v ? v : vd_get(wd, key, line);
}

struct vd_pair {
	struct vd_def *wd, *sd;
	double weight;		/* skew, or 0 */
};

static int build_workloads(struct vd *vd, struct conv_run *r,
			   struct vd_def *rd, const struct vd_loop *l, int nl,
			   const int *idx)
{
	struct vd_def *wds[PROFILE_MAX_WL], *sds[PROFILE_MAX_WL];
	struct vd_pair pair[PROFILE_MAX_WL];
	const char *v, *rd_threads;
	int nw, ns, np = 0, i, j, k, line, skewed = 0, unskewed = 0;
	double total_skew = 0, given = 0, wskew[PROFILE_MAX_WL];

	v = vd_get(rd, "wd", &line);
	if (!v)
		return conv_error(vd->c, rd->line, "rd=%s names no wd=", rd->name);
	nw = match_defs(vd, "wd", v, line, wds, PROFILE_MAX_WL);
	if (nw < 0)
		return -1;
	/*
	 * Skews: vdbench gives the wds without skew= what the others leave,
	 * in equal parts; given on none, the wds share by count (no skew).
	 */
	for (i = 0; i < nw; i++) {
		wskew[i] = 0;
		v = vd_get(wds[i], "skew", &line);
		if (v && (conv_number(v, &wskew[i]) || wskew[i] <= 0 ||
			  wskew[i] > 100))
			return conv_error(vd->c, line, "skew=%s: expected a percentage above 0",
					  v);
		given += wskew[i];
		unskewed += !v;
	}
	if (unskewed && unskewed < nw) {
		if (given >= 100 - 0.005)
			return conv_error(vd->c, rd->line, "rd=%s: the wds' skews sum to %g, leaving nothing for the %d without skew=",
					  rd->name, given, unskewed);
		for (i = 0; i < nw; i++)
			if (!vd_get(wds[i], "skew", NULL))
				wskew[i] = (100 - given) / unskewed;
		conv_note(vd->c, r, "rd=%s: the %d wd%s without skew= share the %g%% the others leave, as vdbench does",
			  rd->name, unskewed, unskewed == 1 ? "" : "s", 100 - given);
	}
	for (i = 0; i < nw; i++) {
		v = vd_get(wds[i], "sd", &line);
		if (!v)
			return conv_error(vd->c, wds[i]->line, "wd=%s names no sd=",
					  wds[i]->name);
		ns = match_defs(vd, "sd", v, line, sds, PROFILE_MAX_WL);
		if (ns < 0)
			return -1;
		for (j = 0; j < ns; j++) {
			double skew = wskew[i];

			if (np == PROFILE_MAX_WL)
				return conv_error(vd->c, rd->line, "rd=%s: more than %d wd x sd pairs",
						  rd->name, PROFILE_MAX_WL);
			pair[np].wd = wds[i];
			pair[np].sd = sds[j];
			pair[np].weight = skew / ns;
			skewed += skew > 0;
			total_skew += skew / ns;
			np++;
		}
	}
	if (nw == 1)
		skewed = 0;	/* one wd takes the whole rate: skew is moot */
	if (skewed && fabs(total_skew - 100) > 0.01)
		return conv_error(vd->c, rd->line, "rd=%s: wd skews sum to %g, not 100",
				  rd->name, total_skew);

	rd_threads = vd_get(rd, "threads", NULL);
	loop_get(l, nl, idx, "threads", &rd_threads);
	for (i = 0; i < np; i++) {
		struct vd_def *wd = pair[i].wd, *sd = pair[i].sd;
		struct conv_sect *s;
		char name[128], val[512];
		double threads = 8, w = 0, share_of_sd;
		bool fua = false, pct;
		int on_sd = 0, p;
		double lo, hi;
		uint64_t size, sdsize;

		for (k = 0; k < np; k++)
			if (pair[k].sd == sd) {
				on_sd++;
				w += pair[k].weight;
			}
		for (k = 0, j = 0; k < np; k++)
			j += pair[k].wd == wd;
		if (j == 1)
			snprintf(name, sizeof(name), "%s", wd->name);
		else
			snprintf(name, sizeof(name), "%s-%s", wd->name, sd->name);
		s = conv_new_wl(r, name);
		s->line = wd->line;

		v = vd_get(sd, "lun", &line);
		if (!v)
			return conv_error(vd->c, sd->line, "sd=%s has no lun=", sd->name);
		conv_set(s, "device", "%s", v);

		v = rd_or_wd(rd, wd, "rdpct", &line);
		if (loop_get(l, nl, idx, "rdpct", &v))
			line = rd->line;
		if (v) {
			if (percent(vd, r, "rdpct", v, line, &p))
				return -1;
			conv_set(s, "rdpct", "%d", p);
		}

		v = rd_or_wd(rd, wd, "xfersize", &line);
		if (loop_get(l, nl, idx, "xfersize", &v))
			line = rd->line;
		if (xfersize(vd, r, v ? v : "4k", line, val, sizeof(val)))
			return -1;
		conv_set(s, "bs", "%s", val);
		conv_set_line(s, "bs", v ? line : wd->line);

		v = rd_or_wd(rd, wd, "seekpct", &line);
		if (loop_get(l, nl, idx, "seekpct", &v))
			line = rd->line;
		if (v && (!strcmp(v, "seq") || !strcmp(v, "sequential"))) {
			conv_set(s, "seekpct", "0");
		} else if (v && !strcmp(v, "random")) {
			conv_set(s, "seekpct", "100");
		} else if (v && !strcmp(v, "eof")) {
			/* One sequential pass; the run ends at its end. */
			if (np != 1)
				return conv_error(vd->c, line, "seekpct=eof over %d workloads is not supported: blkgen ends a run at the end of one workload's range (io_limit = 1x)",
						  np);
			conv_set(s, "seekpct", "0");
			conv_set(&r->job, "io_limit", "1x");
			conv_note(vd->c, r, "seekpct=eof: one sequential pass, io_limit = 1x (the run ends at the end of the range, or at elapsed=)");
		} else if (v && !strcmp(v, "seqnz")) {
			return conv_error(vd->c, line, "seekpct=%s is not supported (blkgen's sequential streams wrap at the end of the range)",
					  v);
		} else if (v) {
			if (percent(vd, r, "seekpct", v, line, &p))
				return -1;
			conv_set(s, "seekpct", "%d", p);
		} else {
			conv_set(s, "seekpct", "100");
		}

		/* sd size=: the part of the lun used; wd ranges are of it. */
		sdsize = 0;
		v = vd_get(sd, "size", &line);
		if (v && (conv_size(v, &sdsize) || !sdsize))
			return conv_error(vd->c, line, "sd=%s: size=%s: not a size above 0",
					  sd->name, v);
		if (sdsize) {
			conv_size_str(sdsize, val, sizeof(val));
			conv_set(s, "range", "0-%s", val);
			conv_set_line(s, "range", line);
		}

		v = vd_get(wd, "range", &line);
		if (v) {
			if (vd_get(wd, "hotband", NULL))
				return conv_error(vd->c, line, "wd=%s: range= and hotband= together are not supported",
						  wd->name);
			if (range(vd, "range", v, line, &lo, &hi, &pct, val,
				  sizeof(val)) ||
			    of_size(vd, sd, v, line, sdsize, &lo, &hi, &pct,
				    val, sizeof(val)))
				return -1;
			conv_set(s, "range", "%s", val);
			conv_set_line(s, "range", line);
		}
		v = vd_get(wd, "hotband", &line);
		if (v) {
			double band;

			if (range(vd, "hotband", v, line, &lo, &hi, &pct, val,
				  sizeof(val)) ||
			    of_size(vd, sd, v, line, sdsize, &lo, &hi, &pct,
				    val, sizeof(val)))
				return -1;
			conv_set(s, "range", "%s", val);
			if (pct) {
				if (conv_device_size(vd->c, conv_get(s, "device"),
						     line, &size))
					return -1;
				band = (hi - lo) / 100 * (double)size;
			} else {
				band = hi - lo;
			}
			if (band < 1e6)
				return conv_error(vd->c, line, "hotband=%s: vdbench needs a band of at least 1 MB",
						  v);
			band /= 1e6;
			if (conv_zones(conv_hotband_cdf, &band, val, sizeof(val)))
				return conv_error(vd->c, line, "hotband=%s: no zoned table", v);
			conv_set(s, "distribution", "%s", val);
			conv_note(vd->c, r, "hotband=%s: vdbench's cache curve as a zoned table; vdbench also moves writes 1%% up the band, blkgen does not",
				  v);
		}

		/* Outstanding I/Os: the sd's threads, split among its wds. */
		v = rd_threads ? rd_threads : vd_get(sd, "threads", NULL);
		if (v && (conv_number(v, &threads) || threads < 1 ||
			  threads != floor(threads)))
			return conv_error(vd->c, rd->line, "threads=%s: expected a whole number above 0",
					  v);
		share_of_sd = skewed ? pair[i].weight / w : 1.0 / on_sd;
		p = (int)lround(threads * share_of_sd);
		if (p < 1)
			p = 1;
		if (on_sd > 1)
			conv_note(vd->c, r, "sd=%s's %g threads split among its %d wds by %s",
				  sd->name, threads, on_sd, skewed ? "skew" : "count");
		conv_set(s, "depth", "%d", p);

		fua = false;
		v = vd_get(rd, "openflags", &line);
		if (!v)
			v = vd_get(wd, "openflags", &line);
		if (!v)
			v = vd_get(sd, "openflags", &line);
		if (v && openflags(vd, r, v, line, &fua))
			return -1;
		if (fua)
			conv_set(s, "fua", "1");
	}

	/* Rate shares: skew, whole percents summing to 100. */
	if (skewed) {
		int whole[PROFILE_MAX_WL], sum = 0, best;
		double exact[PROFILE_MAX_WL];

		for (i = 0; i < np; i++) {
			exact[i] = pair[i].weight;
			whole[i] = (int)floor(pair[i].weight);
			sum += whole[i];
		}
		while (sum < 100) {
			best = 0;
			for (i = 1; i < np; i++)
				if (pair[i].weight - whole[i] >
				    pair[best].weight - whole[best])
					best = i;
			whole[best]++;
			sum++;
			pair[best].weight = whole[best];
		}
		for (i = 0; i < np; i++) {
			if (!whole[i])
				return conv_error(vd->c, rd->line, "rd=%s: the skew of %s rounds to 0%%",
						  rd->name, r->wl[i].name);
			conv_set(&r->wl[i], "share", "%d", whole[i]);
			if (fabs(exact[i] - whole[i]) > 1e-9)
				conv_note(vd->c, r, "%s: skew %g%% as share %d%% (blkgen takes whole percents)",
					  r->wl[i].name, exact[i], whole[i]);
		}
	}
	return 0;
}

static int build_job(struct vd *vd, struct conv_run *r, struct vd_def *rd,
		     const struct vd_loop *l, int nl, const int *idx)
{
	double elapsed = 30, warmup = -1, interval, stop;
	char buf[64], cbuf[256];
	const char *v;
	int line = rd->line;

	v = vd_get(rd, "elapsed", &line);
	if (v && seconds(vd, "elapsed", v, line, &elapsed))
		return -1;
	interval = elapsed / 2 < 60 ? elapsed / 2 : 60;
	if (interval < 1)
		interval = 1;
	v = vd_get(rd, "interval", &line);
	if (v && (seconds(vd, "interval", v, line, &interval) || !interval))
		return conv_error(vd->c, line, "interval=%s: expected seconds above 0", v);
	v = vd_get(rd, "warmup", &line);
	if (v && seconds(vd, "warmup", v, line, &warmup))
		return -1;
	if (warmup < 0) {
		/* vdbench leaves the first interval out of the totals. */
		if (elapsed <= interval)
			return conv_error(vd->c, rd->line, "rd=%s: elapsed=%g is not longer than one interval (%g), which vdbench excludes",
					  rd->name, elapsed, interval);
		warmup = interval;
		elapsed -= interval;
		conv_note(vd->c, r, "no warmup=: the first interval (%gs) is the warmup, as vdbench excludes it",
			  interval);
	}
	conv_ms_str(elapsed, buf, sizeof(buf));
	conv_set(&r->job, "duration_ms", "%s", buf);
	conv_ms_str(warmup, buf, sizeof(buf));
	conv_set(&r->job, "warmup_ms", "%s", buf);
	conv_ms_str(interval, buf, sizeof(buf));
	conv_set(&r->job, "interval_ms", "%s", buf);

	v = vd_get(rd, "iorate", &line);
	loop_get(l, nl, idx, "iorate", &v);
	if (!v) {
		return conv_error(vd->c, rd->line, "rd=%s has no iorate= (vdbench requires one)",
				  rd->name);
	} else if (!strcmp(v, "max")) {
		conv_set(&r->job, "rate_iops", "0");
	} else if (!strcmp(v, "curve")) {
		conv_set(&r->job, "rate_iops", "curve");
		v = vd_get(rd, "curve", &line);
		if (v) {
			size_t len = strlen(v);

			if (v[0] == '(' && len >= 2)
				snprintf(cbuf, sizeof(cbuf), "%.*s", (int)len - 2, v + 1);
			else
				snprintf(cbuf, sizeof(cbuf), "%s", v);
			conv_set(&r->job, "curve", "%s", cbuf);
		} else {
			conv_set(&r->job, "curve", "10,50,70,80,90,100");
			conv_note(vd->c, r, "iorate=curve without curve=: vdbench's default points 10,50,70,80,90,100");
		}
		v = vd_get(rd, "stopcurve", &line);
		if (v) {
			if (conv_number(v, &stop) || stop <= 0)
				return conv_error(vd->c, line, "stopcurve=%s: expected milliseconds",
						  v);
			conv_set(&r->job, "curve_stop_ms", "%s", v);
		}
	} else {
		uint64_t n;

		if (conv_size(v, &n) || strpbrk(v, "kKmMgGtT") || !n)
			return conv_error(vd->c, line, "iorate=%s: expected max, curve or I/Os per second",
					  v);
		conv_set(&r->job, "rate_iops", "%llu", (unsigned long long)n);
	}
	if (vd_get(rd, "stopcurve", &line) && strcmp(conv_get(&r->job, "rate_iops"), "curve"))
		return conv_error(vd->c, line, "stopcurve= needs iorate=curve");

	v = vd_get(rd, "distribution", &line);
	if (v) {
		if (!strcmp(v, "exponential"))
			conv_set(&r->job, "arrival", "poisson");
		else if (!strcmp(v, "uniform"))
			conv_set(&r->job, "arrival", "uniform");
		else if (!strcmp(v, "deterministic"))
			conv_set(&r->job, "arrival", "fixed");
		else
			return conv_error(vd->c, line, "distribution=%s is not supported (exponential, uniform, deterministic)",
					  v);
	}
	return 0;
}

static const struct {
	const char *rd_key, *key;
	bool sizes;
} vd_loops[] = {
	{ "iorate", "iorate", false },
	{ "forthreads", "threads", false },
	{ "forxfersize", "xfersize", true },
	{ "forrdpct", "rdpct", false },
	{ "forseekpct", "seekpct", false },
};

/* Where @key is written in @rd: its index, -1 if it comes from rd=default. */
static int key_pos(const struct vd_def *rd, const char *key)
{
	int i;

	for (i = rd->nr - 1; i >= 0; i--)
		if (!strcmp(rd->key[i], key))
			return i;
	return -1;
}

static int build_rd(struct vd *vd, struct vd_def *rd)
{
	struct vd_loop l[5];
	int nl = 0, idx[5] = { 0 }, i, j, line, total = 1, order[5], pos[5];
	const char *v;

	/*
	 * The loops' nesting, as vdbench runs them: the for* parameters in
	 * the order written, the first outermost (rd=default's before the
	 * rd's own); an iorate list innermost. l[0] turns fastest.
	 */
	for (i = 0; i < 5; i++) {
		order[i] = i;
		pos[i] = i ? key_pos(rd, vd_loops[i].rd_key) : VD_MAX_KV;
	}
	for (i = 1; i < 5; i++)
		for (j = i; j > 1 && pos[order[j]] > pos[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (j = 0; j < 5; j++) {
		i = order[j];
		v = vd_get(rd, vd_loops[i].rd_key, &line);
		if (!v || (!strcmp(vd_loops[i].rd_key, "iorate") && v[0] != '('))
			continue;
		l[nl].key = vd_loops[i].key;
		l[nl].n = expand(vd, vd_loops[i].rd_key, v, line,
				 vd_loops[i].sizes, l[nl].val, VD_MAX_LIST);
		if (l[nl].n < 0)
			return -1;
		total *= l[nl].n;
		nl++;
	}
	if (total > CONV_MAX_RUNS)
		return conv_error(vd->c, rd->line, "rd=%s expands to %d runs (at most %d)",
				  rd->name, total, CONV_MAX_RUNS);
	for (;;) {
		char name[128];
		struct conv_run *r;
		int len;

		/* Named outermost loop first, as written (an iorate list last). */
		len = snprintf(name, sizeof(name), "%s", rd->name);
		for (i = nl - 1; i >= 0; i--)
			if (l[i].n > 1)
				len += snprintf(name + len, sizeof(name) - len,
						"-%s%s", l[i].key, l[i].val[idx[i]]);
		r = NULL;
		if (conv_find_run(vd->c, name))
			return conv_error(vd->c, rd->line, "rd=%s makes a run named %s, as the rd at line %d does",
					  rd->name, name,
					  conv_find_run(vd->c, name)->line);
		if (!vd->c->only || !strcmp(vd->c->only, name)) {
			r = conv_new_run(vd->c, name);
			if (!r)
				return conv_error(vd->c, rd->line, "too many runs");
			r->line = rd->line;
		}
		if (r && (build_job(vd, r, rd, l, nl, idx) ||
			  build_workloads(vd, r, rd, l, nl, idx)))
			return -1;
		for (i = 0; i < nl; i++) {
			if (++idx[i] < l[i].n)
				break;
			idx[i] = 0;
		}
		if (i == nl)
			break;
	}
	return 0;
}

int conv_vdbench(struct conv *c, char *text)
{
	struct vd *vd = calloc(1, sizeof(*vd));
	int i, ret = -1, rds = 0;

	if (!vd)
		return conv_error(c, 0, "out of memory");
	vd->c = c;
	c->from = "vdbench";
	for (i = 0; i < 3; i++)
		snprintf(vd->dflt[i].type, sizeof(vd->dflt[i].type), "%s",
			 i == 0 ? "sd" : i == 1 ? "wd" : "rd");
	if (parse(vd, text))
		goto out;
	for (i = 0; i < vd->nr; i++) {
		if (strcmp(vd->def[i].type, "rd"))
			continue;
		rds++;
		if (build_rd(vd, &vd->def[i]))
			goto out;
	}
	if (!rds) {
		conv_error(c, 0, "no run definition (rd=) in the file");
		goto out;
	}
	ret = 0;
out:
	free(vd);
	return ret;
}
