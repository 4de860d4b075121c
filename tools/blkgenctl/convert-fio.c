// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl convert - fio job files.
 *
 * Jobs that fio runs together (up to a stonewall) become one run, each
 * job a workload with depth = iodepth x numjobs. Options that only shape
 * fio's reporting or engine are noted and dropped; an option that would
 * change the I/O and that blkgen cannot honour is an error naming it.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"
#include "convert.h"

#define FIO_MAX_JOBS	PROFILE_MAX_WL
#define FIO_MAX_OPTS	64

struct fio_opt {
	char key[48];
	char val[512];
	int line;
};

struct fio_job {
	char name[128];
	int line;
	struct fio_opt opt[FIO_MAX_OPTS];
	int nr;
	bool stonewall;
};

struct fio {
	struct conv *c;
	struct fio_job global;
	struct fio_job job[FIO_MAX_JOBS * 4];
	int nr;
};

/* Options without effect on the I/O blkgen issues. */
static const char *const fio_ignored[] = {
	"name", "description", "group_reporting", "thread", "norandommap",
	"randrepeat", "gtod_reduce", "refill_buffers", "scramble_buffers",
	"invalidate", "lat_percentiles", "clat_percentiles", "slat_percentiles",
	"percentile_list", "new_group", "exitall", "exitall_on_error",
	"log_avg_msec", "log_hist_msec", "write_bw_log", "write_lat_log",
	"write_iops_log", "write_hist_log", "write_iolog", "per_job_logs",
	"disable_lat",
	"disable_clat", "disable_slat", "disable_bw_measurement",
	"cpus_allowed_policy", "iodepth_batch", "iodepth_batch_submit",
	"iodepth_batch_complete", "iodepth_batch_complete_min",
	"iodepth_batch_complete_max", "iodepth_low", "allow_mounted_write",
	"fixedbufs", "registerfiles", "sqthread_poll", "kb_base",
	"unit_base", "stats", "clocksource", "continue_on_error",
	"unified_rw_reporting", NULL };

/* Options the converter maps. */
static const char *const fio_known[] = {
	"filename", "rw", "readwrite", "rwmixread", "rwmixwrite", "bs",
	"blocksize", "bssplit", "iodepth", "numjobs", "runtime", "ramp_time",
	"rate_iops", "rate_process", "offset", "size", "random_distribution",
	"direct", "buffered", "ioengine", "hipri", "sync", "cpus_allowed",
	"randseed", "loops", "percentage_random", "stonewall",
	"wait_for_previous", "fsync", "fdatasync", "verify", "time_based",
	"zonemode", "max_open_zones", "job_max_open_zones",
	"zone_reset_threshold", "zone_reset_frequency", "read_beyond_wp",
	"zonesize", "zonecapacity", "zonerange", "ignore_zone_limits",
	NULL };

static const char *const fio_engines[] = { "libaio", "io_uring", "psync",
	"pvsync", "pvsync2", "sync", "vsync", "posixaio", NULL };


/* The option as the job sees it: its own, else [global]'s. */
static const char *get(const struct fio_job *j, const struct fio *f,
		       const char *key, int *line)
{
	const struct fio_job *src[2] = { j, &f->global };
	int s, i;

	for (s = 0; s < 2; s++)
		for (i = src[s]->nr - 1; i >= 0; i--)
			if (!strcmp(src[s]->opt[i].key, key)) {
				if (line)
					*line = src[s]->opt[i].line;
				return src[s]->opt[i].val;
			}
	if (line)
		*line = j->line;
	return NULL;
}

static bool get_bool(const struct fio_job *j, const struct fio *f,
		     const char *key)
{
	const char *v = get(j, f, key, NULL);

	return v && (!*v || !strcmp(v, "1") || !strcmp(v, "true") ||
		     !strcmp(v, "yes") || !strcmp(v, "on"));
}

static int parse(struct fio *f, char *text)
{
	struct fio_job *cur = NULL;
	char *line = text, *next, bad[64] = "", more[384] = "";
	int lineno = 0, bad_line = 0;
	size_t len;

	for (; line; line = next) {
		char *s, *eq, *key, *val;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		s = str_trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end[1])
				return conv_error(f->c, lineno, "malformed section header '%s'",
						  s);
			*end = 0;
			s = str_trim(s + 1);
			if (!strcmp(s, "global")) {
				cur = &f->global;
				cur->line = lineno;
				continue;
			}
			if (f->nr == (int)(sizeof(f->job) / sizeof(f->job[0])))
				return conv_error(f->c, lineno, "too many jobs");
			cur = &f->job[f->nr++];
			snprintf(cur->name, sizeof(cur->name), "%s", s);
			cur->line = lineno;
			continue;
		}
		if (!strncmp(s, "include ", 8))
			return conv_error(f->c, lineno, "'include' is not supported: convert the included file's jobs in place");
		if (!cur)
			return conv_error(f->c, lineno, "option '%s' outside a section", s);
		if (strchr(s, '$'))
			return conv_error(f->c, lineno, "environment variables ('%s') are not supported: expand them first",
					  s);
		eq = strchr(s, '=');
		if (eq) {
			*eq = 0;
			key = str_trim(s);
			val = str_trim(eq + 1);
		} else {
			key = s;
			val = "";
		}
		if (!strcmp(key, "timeout"))
			key = "runtime";	/* fio's alias */
		if (!strcmp(key, "exec_prerun") || !strcmp(key, "exec_postrun")) {
			conv_note(f->c, NULL, "%s=%s: blkgen runs no commands: run it yourself %s the run",
				  key, val, key[5] == 'p' && key[6] == 'r' ? "before" : "after");
			continue;
		}
		if (conv_in_list(fio_ignored, key)) {
			conv_note(f->c, NULL, "%s%s%s: fio reporting/engine option, no effect on the I/O",
				  key, *val ? "=" : "", val);
			continue;
		}
		if (!conv_in_list(fio_known, key)) {
			/* All of them named at once, the first's line first. */
			if (!bad_line) {
				bad_line = lineno;
				snprintf(bad, sizeof(bad), "%s", key);
			} else {
				len = strlen(more);
				snprintf(more + len, sizeof(more) - len,
					 "%s'%s' (line %d)", len ? ", " : "; also ",
					 key, lineno);
			}
			continue;
		}
		if (cur->nr == FIO_MAX_OPTS)
			return conv_error(f->c, lineno, "too many options in [%s]",
					  cur->name);
		snprintf(cur->opt[cur->nr].key, sizeof(cur->opt[0].key), "%s", key);
		snprintf(cur->opt[cur->nr].val, sizeof(cur->opt[0].val), "%s", val);
		cur->opt[cur->nr++].line = lineno;
		if (!strcmp(key, "stonewall") || !strcmp(key, "wait_for_previous"))
			cur->stonewall = true;
	}
	if (bad_line)
		return conv_error(f->c, bad_line, "fio option '%s' is not supported by blkgen%s",
				  bad, more);
	return 0;
}

/* fio time: plain seconds, or with us/ms/s/m/h/d. */
static int fio_time(struct fio *f, const char *key, const char *v, int line,
		    double *sec)
{
	char *end;
	double d;

	d = strtod(v, &end);
	if (end == v || d < 0)
		goto bad;
	if (!*end || !strcmp(end, "s"))
		*sec = d;
	else if (!strcmp(end, "ms"))
		*sec = d / 1e3;
	else if (!strcmp(end, "us"))
		*sec = d / 1e6;
	else if (!strcmp(end, "m"))
		*sec = d * 60;
	else if (!strcmp(end, "h"))
		*sec = d * 3600;
	else if (!strcmp(end, "d"))
		*sec = d * 86400;
	else
		goto bad;
	return 0;
bad:
	return conv_error(f->c, line, "%s=%s: not a time", key, v);
}

/* "4k,8k" (read,write): only one size for both directions. */
static int one_value(struct fio *f, const char *key, const char *v, int line,
		     char *out, size_t size)
{
	const char *comma = strchr(v, ',');

	if (comma) {
		size_t a = comma - v;

		if ((*(comma + 1) && (strlen(comma + 1) != a ||
				      strncmp(v, comma + 1, a))) ||
		    strchr(comma + 1, ','))
			return conv_error(f->c, line, "%s=%s: a separate value per direction is not supported",
					  key, v);
		snprintf(out, size, "%.*s", (int)a, v);
		return 0;
	}
	snprintf(out, size, "%s", v);
	return 0;
}

/* bssplit=4k/50:8k/:64k/20 (an empty share splits what is left). */
static int bssplit(struct fio *f, const char *v, int line, char *out,
		   size_t size, uint64_t *min_bs)
{
	char buf[512], *item, *save = NULL, s[32];
	uint64_t bytes[64];
	int pct[64], n = 0, sum = 0, empty = 0, i, len = 0;

	if (one_value(f, "bssplit", v, line, buf, sizeof(buf)))
		return -1;
	for (item = strtok_r(buf, ":", &save); item;
	     item = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(item, '/');
		double d = -1;

		if (n == 64)
			return conv_error(f->c, line, "bssplit=%s: too many entries", v);
		if (slash)
			*slash = 0;
		if (conv_size(item, &bytes[n]) ||
		    (slash && slash[1] && (conv_number(slash + 1, &d) || d < 0 ||
					   d != floor(d))))
			return conv_error(f->c, line, "bssplit=%s: '%s' is not SIZE/PERCENT (whole percents)",
					  v, item);
		pct[n] = (int)d;
		if (d < 0)
			empty++;
		else
			sum += pct[n];
		n++;
	}
	if (!n || sum > 100 || (!empty && sum != 100))
		return conv_error(f->c, line, "bssplit=%s: percentages sum to %d, not 100",
				  v, sum);
	/* Empty shares split what is left; the first of them take the rest. */
	if (empty) {
		int left = 100 - sum, each = left / empty, extra = left % empty;

		for (i = 0; i < n; i++)
			if (pct[i] < 0)
				pct[i] = each + (extra-- > 0);
	}
	*min_bs = bytes[0];
	for (i = 0; i < n; i++) {
		if (!pct[i])
			continue;	/* fio allows 0%; blkgen lists only used sizes */
		if (bytes[i] < *min_bs)
			*min_bs = bytes[i];
		conv_size_str(bytes[i], s, sizeof(s));
		len += snprintf(out + len, size - len, "%s%s/%d", len ? ":" : "",
				s, pct[i]);
		if ((size_t)len >= size)
			return conv_error(f->c, line, "bssplit=%s: too long", v);
	}
	return 0;
}

/* offset/size as a percentage ("25%") or bytes. */
static int where(struct fio *f, const char *key, const char *v, int line,
		 bool *pct, double *out)
{
	size_t len = strlen(v);
	uint64_t b;

	if (len && v[len - 1] == '%') {
		char buf[64];

		snprintf(buf, sizeof(buf), "%.*s", (int)len - 1, v);
		if (conv_number(buf, out) || *out < 0 || *out > 100)
			return conv_error(f->c, line, "%s=%s: not a percentage", key, v);
		*pct = true;
		return 0;
	}
	if (conv_size(v, &b))
		return conv_error(f->c, line, "%s=%s: not a size or percentage",
				  key, v);
	*pct = false;
	*out = (double)b;
	return 0;
}

/*
 * offset/size as the workload's range. @frac: the share of the device it
 * covers (percent ranges), or minus its size in bytes (byte ranges), for
 * distributions that depend on the number of blocks.
 */
static int job_range(struct fio *f, const struct fio_job *j,
		     struct conv_sect *s, double *frac)
{
	const char *ov, *sv;
	double off = 0, size = -1;
	bool opct = true, spct = true;
	char a[32], b[32];
	int oline, sline;

	*frac = 1;
	ov = get(j, f, "offset", &oline);
	sv = get(j, f, "size", &sline);
	if (!ov && !sv)
		return 0;
	if (ov && where(f, "offset", ov, oline, &opct, &off))
		return -1;
	if (sv && where(f, "size", sv, sline, &spct, &size))
		return -1;
	if (!sv)
		spct = opct;
	if (ov && sv && opct != spct)
		return conv_error(f->c, sline, "offset=%s with size=%s: give both in percent or both in bytes",
				  ov, sv);
	if (spct) {
		double end = size < 0 ? 100 : off + size;

		if (end > 100)
			end = 100;
		if (off >= end)
			return conv_error(f->c, oline, "offset=%s leaves nothing to do", ov);
		conv_set(s, "range", "%g%%-%g%%", off, end);
		*frac = (end - off) / 100;
		return 0;
	}
	if (size < 0)
		return conv_error(f->c, oline, "offset=%s in bytes needs size= too", ov);
	if (!size)
		return conv_error(f->c, sline, "size=%s: zero", sv);
	conv_size_str((uint64_t)off, a, sizeof(a));
	conv_size_str((uint64_t)(off + size), b, sizeof(b));
	conv_set(s, "range", "%s-%s", a, b);
	*frac = -size;
	return 0;
}

static int distribution(struct fio *f, struct conv_run *r,
			const struct fio_job *j, struct conv_sect *s,
			double frac, uint64_t min_bs)
{
	char buf[512], *colon;
	double param;
	uint64_t dev;
	int line;
	const char *v = get(j, f, "random_distribution", &line);

	if (!v || !strcmp(v, "random"))
		return 0;
	if (!strncmp(v, "zoned:", 6)) {
		conv_set(s, "distribution", "%s", v);
		return 0;
	}
	colon = strchr(v, ':');
	if (!colon || (strncmp(v, "zipf:", 5) && strncmp(v, "pareto:", 7)))
		return conv_error(f->c, line, "random_distribution=%s is not supported (random, zoned, zipf, pareto)",
				  v);
	if (strchr(colon + 1, ':') || strchr(colon + 1, ','))
		return conv_error(f->c, line, "random_distribution=%s: a moved centre is not supported",
				  v);
	if (conv_number(colon + 1, &param))
		return conv_error(f->c, line, "random_distribution=%s: not a number", v);
	if (!strncmp(v, "pareto:", 7)) {
		if (param <= 0 || param >= 1)
			return conv_error(f->c, line, "random_distribution=%s: pareto takes 0 < h < 1",
					  v);
		if (conv_zones(conv_pareto_cdf, &param, buf, sizeof(buf)))
			return conv_error(f->c, line, "random_distribution=%s: no zoned table", v);
	} else {
		struct conv_zipf z;
		double blocks;

		if (param <= 0 || param == 1)
			return conv_error(f->c, line, "random_distribution=%s: zipf takes theta > 0, not 1",
					  v);
		if (frac < 0) {
			blocks = -frac / min_bs;
		} else {
			if (conv_device_size(f->c, conv_get(s, "device"), line,
					     &dev))
				return -1;
			blocks = frac * dev / min_bs;
		}
		if (blocks < 2)
			return conv_error(f->c, line, "random_distribution=%s: the range holds fewer than 2 blocks",
					  v);
		conv_zipf_init(&z, param, floor(blocks));
		if (conv_zones(conv_zipf_cdf, &z, buf, sizeof(buf)))
			return conv_error(f->c, line, "random_distribution=%s: no zoned table", v);
		conv_note(f->c, r, "%s: %.0f blocks of %llu bytes", v, floor(blocks),
			  (unsigned long long)min_bs);
	}
	conv_set(s, "distribution", "%s", buf);
	conv_note(f->c, r, "%s as a zoned table: the same skew, hot blocks together at the start of the range where fio scatters them",
		  v);
	return 0;
}

static void wl_name(const char *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < size; i++)
		out[i] = isalnum((unsigned char)in[i]) || in[i] == '_' ||
			 in[i] == '.' || in[i] == '-' ? in[i] : '-';
	out[i] = 0;
	if (!i)
		snprintf(out, size, "job");
}


/*
 * rate_iops=R[,W[,T]]: fio caps each direction on its own (one value caps
 * both; an empty one leaves that direction unthrottled; trims are not
 * issued). A job that only reads or only writes runs at its direction's
 * cap. A mix runs at both caps, R reads and W writes a second whatever its
 * rwmixread (which holds only below them: fio's null engine ran
 * rwmixread=70 rate_iops=2500 as 2,500 reads and 2,500 writes a second),
 * so blkgen's rate_iops (a total) is R + W and rdpct R / (R + W). A mix
 * with one direction unthrottled has no total: refused.
 */
static int job_rate(struct fio *f, struct conv_run *r,
		    const struct fio_job *j, struct conv_sect *s, const char *v,
		    int line, int rdpct, double numjobs, double *rate)
{
	double cap[2] = { 0, 0 }, exact;
	const char *p = v, *comma;
	char buf[64];
	int i, pct;

	for (i = 0; i < 2; i++) {
		comma = strchr(p, ',');
		snprintf(buf, sizeof(buf), "%.*s",
			 (int)(comma ? (size_t)(comma - p) : strlen(p)), p);
		if (!*buf && i == 0 && !comma)
			return conv_error(f->c, line, "rate_iops=%s: expected I/Os per second", v);
		if (*buf && (conv_number(buf, &cap[i]) || cap[i] <= 0 ||
			     cap[i] != floor(cap[i])))
			return conv_error(f->c, line, "rate_iops=%s: expected I/Os per second (READS[,WRITES])",
					  v);
		if (!comma) {
			if (i == 0)
				cap[1] = cap[0];	/* one value: both */
			break;
		}
		p = comma + 1;
	}
	if (rdpct == 100 || rdpct == 0) {
		*rate = cap[rdpct ? 0 : 1] * numjobs;
		if (!*rate)
			conv_note(f->c, r, "[%s] rate_iops=%s caps only %s, which this job does not do: unthrottled",
				  j->name, v, rdpct ? "writes" : "reads");
		return 0;
	}
	if (!cap[0] && !cap[1])
		return 0;
	if (!cap[0] || !cap[1])
		return conv_error(f->c, line, "rate_iops=%s on a %d/%d mix: fio caps only the %s and runs the %s unthrottled; blkgen's rate is for the whole mix (give both directions a rate)",
				  v, rdpct, 100 - rdpct,
				  cap[0] ? "reads" : "writes",
				  cap[0] ? "writes" : "reads");
	exact = cap[0] * 100 / (cap[0] + cap[1]);
	pct = (int)floor(exact + 0.5);
	if (!pct || pct == 100)
		return conv_error(f->c, line, "rate_iops=%s: one direction is under 0.5%% of the mix",
				  v);
	*rate = (cap[0] + cap[1]) * numjobs;
	conv_set(s, "rdpct", "%d", pct);
	conv_note(f->c, r, "[%s] rate_iops=%s on a %d/%d mix: fio caps each direction and runs %.0f reads and %.0f writes a second (rwmixread holds only below the caps): rate %.0f, rdpct %d%s",
		  j->name, v, rdpct, 100 - rdpct, cap[0] * numjobs,
		  cap[1] * numjobs, *rate, pct,
		  fabs(exact - pct) > 1e-9 ? " (rounded: blkgen takes whole percents)" : "");
	return 0;
}
/* Job-wide options: every job of a group must agree. */
static int same(struct fio *f, const struct fio_job *first,
		const struct fio_job *j, const char *key)
{
	const char *a = get(first, f, key, NULL), *b;
	int line;

	b = get(j, f, key, &line);
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
		return conv_error(f->c, line, "[%s] %s=%s but [%s] %s=%s: jobs that run together share one %s in blkgen",
				  j->name, key, b ? b : "(unset)", first->name,
				  key, a ? a : "(unset)", key);
	return 0;
}

/*
 * fio's periodic zone resets: once the written share of the zones passes
 * zone_reset_threshold (0..1, default 0), a reset per 1 / zone_reset_
 * frequency writes (0..1, default 0: none). blkgen's keys are percents,
 * its threshold 100 meaning none (zoned.rst): both are set, or neither.
 */
static int zone_resets(struct fio *f, struct conv_run *r,
		       const struct fio_job *j, struct conv_sect *s)
{
	const char *tv, *fv;
	double t = 0, fr = 0;
	int tl = 0, fl = 0, tp, fp;

	tv = get(j, f, "zone_reset_threshold", &tl);
	fv = get(j, f, "zone_reset_frequency", &fl);
	if (tv && (conv_number(tv, &t) || t < 0 || t > 1))
		return conv_error(f->c, tl, "zone_reset_threshold=%s: expected 0..1", tv);
	if (fv && (conv_number(fv, &fr) || fr < 0 || fr > 1))
		return conv_error(f->c, fl, "zone_reset_frequency=%s: expected 0..1", fv);
	if (!fr || t >= 1) {
		if (tv || fv)
			conv_note(f->c, r, "[%s] %s: no periodic resets, as fio (a full zone is reset when no other is left)",
				  j->name, !fv ? "no zone_reset_frequency" :
				  !fr ? "zone_reset_frequency=0" :
				  "zone_reset_threshold=1");
		return 0;
	}
	tp = (int)lround(t * 100);
	if (tp > 99)
		tp = 99;
	fp = (int)lround(fr * 100);
	if (fp < 1)
		fp = 1;
	conv_set(s, "zone_reset_threshold", "%d", tp);
	conv_set(s, "zone_reset_frequency", "%d", fp);
	if (fabs(t * 100 - tp) > 1e-9 || fabs(fr * 100 - fp) > 1e-9)
		conv_note(f->c, r, "[%s] zone_reset_threshold=%s, zone_reset_frequency=%s: %d%% and %d%% (blkgen takes whole percents: a threshold below 100, a frequency of at least 1)",
			  j->name, tv ? tv : "0", fv, tp, fp);
	return 0;
}

/*
 * zonemode=zbd: blkgen finds a zoned device itself; the zone options map
 * to the workload's. What has no counterpart is refused or noted.
 */
static int zoned(struct fio *f, struct conv_run *r, const struct fio_job *j,
		 struct conv_sect *s)
{
	static const char *const from_device[] = { "zonesize",
		"zonecapacity", "zonerange", NULL };
	const char *v, *const *k;
	double d;
	int line;

	v = get(j, f, "zonemode", &line);
	if (v && strcmp(v, "none") && strcmp(v, "zbd"))
		return conv_error(f->c, line, "zonemode=%s is not supported (blkgen's zoned workloads are zonemode=zbd's)",
				  v);
	if (!v || strcmp(v, "zbd")) {
		static const char *const zbd_only[] = { "max_open_zones",
			"job_max_open_zones", "zone_reset_threshold",
			"zone_reset_frequency", "read_beyond_wp",
			"ignore_zone_limits", "zonecapacity", "zonerange",
			NULL };

		/* zonesize alone makes fio stride; the others it ignores. */
		if (get(j, f, "zonesize", &line))
			return conv_error(f->c, line, "zonesize without zonemode=zbd (fio's zonemode=strided) is not supported");
		for (k = zbd_only; *k; k++)
			if (get(j, f, *k, &line))
				conv_note(f->c, r, "[%s] %s: ignored without zonemode=zbd, as fio does",
					  j->name, *k);
		return 0;
	}
	conv_note(f->c, r, "[%s] zonemode=zbd: blkgen finds a zoned device itself and writes at its write pointers",
		  j->name);
	for (k = from_device; *k; k++)
		if (get(j, f, *k, &line))
			conv_note(f->c, r, "[%s] %s: not mapped, blkgen takes the zones from the device",
				  j->name, *k);
	if (get(j, f, "job_max_open_zones", &line))
		return conv_error(f->c, line, "job_max_open_zones is not supported (max_open_zones is the workload's, split over its workers)");
	if (get(j, f, "ignore_zone_limits", &line) &&
	    get_bool(j, f, "ignore_zone_limits"))
		return conv_error(f->c, line, "ignore_zone_limits=1 is not supported (blkgen keeps within the device's limits)");
	v = get(j, f, "max_open_zones", &line);
	if (v) {
		if (conv_number(v, &d) || d < 0 || d != floor(d) || d > 1e9)
			return conv_error(f->c, line, "max_open_zones=%s: expected a whole number", v);
		conv_set(s, "max_open_zones", "%.0f", d);
	}
	if (zone_resets(f, r, j, s))
		return -1;
	if (get_bool(j, f, "read_beyond_wp"))
		conv_set(s, "read_beyond_wp", "1");
	return 0;
}

static int build_workload(struct fio *f, struct conv_run *r,
			  const struct fio_job *j, double *rate)
{
	char name[128], buf[512];
	const char *v, *rw;
	struct conv_sect *s;
	double d, frac, numjobs = 1, depth = 1;
	uint64_t min_bs = 4096, b;
	int line, rdpct = 100, seekpct = 100;

	wl_name(j->name, name, sizeof(name));
	s = conv_new_wl(r, name);
	if (!s)
		return conv_error(f->c, j->line, "more than %d jobs run together",
				  PROFILE_MAX_WL);
	s->line = j->line;

	v = get(j, f, "filename", &line);
	if (v && strchr(v, ':'))
		return conv_error(f->c, line, "filename=%s: several files per job are not supported: one job per device",
				  v);
	conv_set(s, "device", "%s", v ? v : "");
	if (!v)
		conv_note(f->c, r, "[%s] has no filename=: give --device DEV to blkgenctl run",
			  j->name);

	rw = get(j, f, "rw", &line);
	if (!rw)
		rw = get(j, f, "readwrite", &line);
	if (!rw)
		rw = "read";
	if (strchr(rw, ':'))
		return conv_error(f->c, line, "rw=%s: an offset modifier is not supported", rw);
	if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
		rdpct = 100;
	else if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
		rdpct = 0;
	else if (!strcmp(rw, "rw") || !strcmp(rw, "readwrite") ||
		 !strcmp(rw, "randrw"))
		rdpct = 50;
	else
		return conv_error(f->c, line, "rw=%s is not supported (read, write, randread, randwrite, rw, randrw)",
				  rw);
	seekpct = strncmp(rw, "rand", 4) ? 0 : 100;
	if (rdpct == 50) {
		v = get(j, f, "rwmixread", &line);
		if (v) {
			if (conv_number(v, &d) || d < 0 || d > 100 || d != floor(d))
				return conv_error(f->c, line, "rwmixread=%s: expected 0..100", v);
			rdpct = (int)d;
		} else if ((v = get(j, f, "rwmixwrite", &line))) {
			if (conv_number(v, &d) || d < 0 || d > 100 || d != floor(d))
				return conv_error(f->c, line, "rwmixwrite=%s: expected 0..100", v);
			rdpct = 100 - (int)d;
		}
	}
	conv_set(s, "rdpct", "%d", rdpct);

	v = get(j, f, "bssplit", &line);
	if (v) {
		if (bssplit(f, v, line, buf, sizeof(buf), &min_bs))
			return -1;
		conv_set(s, "bs", "%s", buf);
	} else {
		v = get(j, f, "bs", &line);
		if (!v)
			v = get(j, f, "blocksize", &line);
		if (v) {
			if (one_value(f, "bs", v, line, buf, sizeof(buf)))
				return -1;
			if (strchr(buf, '-'))
				return conv_error(f->c, line, "bs=%s: a size range (fio's bsrange) is not supported: give bssplit=, e.g. bssplit=4k/50:16k/50",
						  v);
			if (conv_size(buf, &b))
				return conv_error(f->c, line, "bs=%s: not a size", v);
			min_bs = b;
		}
		conv_size_str(min_bs, buf, sizeof(buf));
		conv_set(s, "bs", "%s", buf);
	}
	conv_set_line(s, "bs", line);

	v = get(j, f, "percentage_random", &line);
	if (v) {
		if (one_value(f, "percentage_random", v, line, buf, sizeof(buf)))
			return -1;
		if (conv_number(buf, &d) || d < 0 || d > 100 || d != floor(d))
			return conv_error(f->c, line, "percentage_random=%s: expected 0..100", v);
		if (seekpct)
			seekpct = (int)d;
	}
	conv_set(s, "seekpct", "%d", seekpct);

	if (job_range(f, j, s, &frac) ||
	    distribution(f, r, j, s, frac, min_bs))
		return -1;

	v = get(j, f, "iodepth", &line);
	if (v && (conv_number(v, &depth) || depth < 1 || depth != floor(depth)))
		return conv_error(f->c, line, "iodepth=%s: expected a whole number above 0", v);
	v = get(j, f, "numjobs", &line);
	if (v && (conv_number(v, &numjobs) || numjobs < 1 ||
		  numjobs != floor(numjobs)))
		return conv_error(f->c, line, "numjobs=%s: expected a whole number above 0", v);
	conv_set(s, "depth", "%.0f", depth * numjobs);
	if (numjobs > 1)
		conv_note(f->c, r, "[%s] numjobs=%.0f x iodepth=%.0f: one workload of depth %.0f",
			  j->name, numjobs, depth, depth * numjobs);

	if (get_bool(j, f, "hipri"))
		conv_set(s, "polled", "1");
	if (get_bool(j, f, "sync")) {
		conv_set(s, "fua", "1");
		conv_note(f->c, r, "[%s] sync=1: writes carry FUA", j->name);
	}

	if (zoned(f, r, j, s))
		return -1;

	*rate = 0;
	v = get(j, f, "rate_iops", &line);
	if (v)
		return job_rate(f, r, j, s, v, line, rdpct, numjobs, rate);
	return 0;
}

/* Reject what would change the I/O; note engine choices. */
static int check_job(struct fio *f, const struct fio_job *j)
{
	const char *v;
	int line;

	v = get(j, f, "direct", &line);
	if (v && strcmp(v, "1") && strcmp(v, "true"))
		return conv_error(f->c, line, "direct=%s: buffered I/O is not supported (blkgen's bios bypass the page cache)",
				  v);
	if (!v)
		conv_note(f->c, NULL, "no direct=1: fio would use the page cache; blkgen's I/O always reaches the device");
	if (get_bool(j, f, "buffered"))
		return conv_error(f->c, line, "buffered=1 is not supported (blkgen's bios bypass the page cache)");
	v = get(j, f, "ioengine", &line);
	if (v && !conv_in_list(fio_engines, v))
		return conv_error(f->c, line, "ioengine=%s is not supported (blkgen submits bios itself; block engines: libaio, io_uring, psync, ...)",
				  v);
	if (v)
		conv_note(f->c, NULL, "ioengine=%s: blkgen submits bios from the kernel instead", v);
	v = get(j, f, "loops", &line);
	if (v && (strspn(v, "0123456789") != strlen(v) || !*v || atoi(v) < 1 ||
		  strlen(v) > 6))
		return conv_error(f->c, line, "loops=%s: expected a whole number above 0", v);
	v = get(j, f, "verify", &line);
	if (v && strcmp(v, "0") && strcmp(v, "none"))
		return conv_error(f->c, line, "verify=%s is not supported", v);
	v = get(j, f, "fsync", &line);
	if (v && strcmp(v, "0"))
		return conv_error(f->c, line, "fsync=%s is not supported (use sync=1 for FUA writes)", v);
	v = get(j, f, "fdatasync", &line);
	if (v && strcmp(v, "0"))
		return conv_error(f->c, line, "fdatasync=%s is not supported", v);
	return 0;
}

static int build_group(struct fio *f, int first, int end)
{
	static const char *const shared[] = { "runtime", "ramp_time",
		"rate_process", "cpus_allowed", "randseed", NULL };
	const struct fio_job *j0 = &f->job[first];
	double rates[FIO_MAX_JOBS], total = 0, sec;
	const char *const *k;
	struct conv_run *r;
	char name[128], buf[64];
	const char *v;
	int i, line, with_rate = 0;

	wl_name(j0->name, name, sizeof(name));
	if (conv_find_run(f->c, name))
		return conv_error(f->c, j0->line, "[%s] starts a second run named %s (the first at line %d): rename one",
				  j0->name, name, conv_find_run(f->c, name)->line);
	if (f->c->only && strcmp(f->c->only, name))
		return 0;
	r = conv_new_run(f->c, name);
	if (!r)
		return conv_error(f->c, j0->line, "too many runs");
	r->line = j0->line;
	for (i = first; i < end; i++) {
		for (k = shared; *k; k++)
			if (same(f, j0, &f->job[i], *k))
				return -1;
		if (check_job(f, &f->job[i]) ||
		    build_workload(f, r, &f->job[i], &rates[i - first]))
			return -1;
		with_rate += rates[i - first] > 0;
		total += rates[i - first];
	}

	/*
	 * Without time_based fio stops once each job has done size= (the
	 * range) loops= times, or at runtime= if that comes first: blkgen's
	 * io_limit in passes over the range (one workload: numjobs jobs are
	 * one workload of their summed depth, each doing its passes), with
	 * duration_ms 0 (no runtime) or runtime.
	 */
	v = get(j0, f, "runtime", &line);
	if (v && (fio_time(f, "runtime", v, line, &sec) || !sec))
		return conv_error(f->c, line, "runtime=%s: expected a time above 0", v);
	if (!get_bool(j0, f, "time_based")) {
		const char *lp = get(j0, f, "loops", NULL), *nj;
		double passes = lp ? atof(lp) : 1;

		if (end - first > 1) {
			if (!v)
				return conv_error(f->c, j0->line, "[%s]'s group of %d jobs has no runtime=: fio would stop each once its size= is done, which blkgen's io_limit (passes over one workload's range) cannot say for several (add runtime= and time_based)",
						  j0->name, end - first);
			conv_note(f->c, r, "no time_based: fio may stop a job early once its size= is done; blkgen runs the group for runtime");
		} else {
			nj = get(j0, f, "numjobs", NULL);
			if (nj)
				passes *= atof(nj);
			conv_set(&r->job, "io_limit", "%gx", passes);
			if (v)
				conv_note(f->c, r, "no time_based: fio stops at size= done%s or runtime, whichever comes first: io_limit = %gx (passes over the range) and duration_ms",
					  lp ? " loops= times" : "", passes);
			else
				conv_note(f->c, r, "[%s] has no runtime=: fio stops once size= is done%s: io_limit = %gx (passes over the range), duration_ms = 0",
					  j0->name, lp ? " loops= times" : "", passes);
		}
	} else if (!v) {
		return conv_error(f->c, j0->line, "[%s] has time_based but no runtime=",
				  j0->name);
	}
	if (v)
		conv_ms_str(sec, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "0");
	conv_set(&r->job, "duration_ms", "%s", buf);
	v = get(j0, f, "ramp_time", &line);
	sec = 0;
	if (v && fio_time(f, "ramp_time", v, line, &sec))
		return -1;
	conv_ms_str(sec, buf, sizeof(buf));
	conv_set(&r->job, "warmup_ms", "%s", buf);

	v = get(j0, f, "cpus_allowed", &line);
	if (v)
		conv_set(&r->job, "cpus", "%s", v);
	v = get(j0, f, "randseed", &line);
	if (v)
		conv_set(&r->job, "seed", "%s", v);

	if (with_rate && with_rate != end - first)
		return conv_error(f->c, j0->line, "rate_iops= is set on some jobs of [%s]'s group but not all: blkgen's rate is job-wide",
				  j0->name);
	if (with_rate) {
		int whole[FIO_MAX_JOBS], sum = 0, best, n = end - first;

		conv_set(&r->job, "rate_iops", "%.0f", total);
		v = get(j0, f, "rate_process", &line);
		if (!v || !strcmp(v, "linear"))
			conv_set(&r->job, "arrival", "fixed");
		else if (!strcmp(v, "poisson"))
			conv_set(&r->job, "arrival", "poisson");
		else
			return conv_error(f->c, line, "rate_process=%s is not supported (linear, poisson)", v);
		if (n > 1) {
			double exact[FIO_MAX_JOBS];

			for (i = 0; i < n; i++) {
				exact[i] = rates[i] * 100 / total;
				whole[i] = (int)floor(exact[i]);
				sum += whole[i];
			}
			while (sum < 100) {
				best = 0;
				for (i = 1; i < n; i++)
					if (rates[i] * 100 / total - whole[i] >
					    rates[best] * 100 / total - whole[best])
						best = i;
				whole[best]++;
				rates[best] = whole[best] * total / 100;
				sum++;
			}
			for (i = 0; i < n; i++) {
				if (!whole[i])
					return conv_error(f->c, f->job[first + i].line,
							  "[%s]'s rate is under 1%% of the group's",
							  f->job[first + i].name);
				conv_set(&r->wl[i], "share", "%d", whole[i]);
				if (fabs(exact[i] - whole[i]) > 1e-9)
					conv_note(f->c, r, "[%s] rate_iops is %.2f%% of the group's %.0f: share %d%% (blkgen takes whole percents), %.0f IOPS instead of %.0f",
						  f->job[first + i].name, exact[i],
						  total, whole[i],
						  whole[i] * total / 100,
						  exact[i] * total / 100);
			}
		}
	} else if (get(j0, f, "rate_process", &line)) {
		conv_note(f->c, r, "rate_process without rate_iops: unthrottled");
	}
	return 0;
}

int conv_fio(struct conv *c, char *text)
{
	struct fio *f = calloc(1, sizeof(*f));
	int i, first = 0, ret = -1;

	if (!f)
		return conv_error(c, 0, "out of memory");
	f->c = c;
	c->from = "fio";
	if (parse(f, text))
		goto out;
	if (!f->nr) {
		conv_error(c, 0, "no jobs (only [global], or empty)");
		goto out;
	}
	for (i = 1; i <= f->nr; i++) {
		if (i < f->nr && !f->job[i].stonewall && !f->global.stonewall)
			continue;
		if (build_group(f, first, i))
			goto out;
		first = i;
	}
	ret = 0;
out:
	free(f);
	return ret;
}
