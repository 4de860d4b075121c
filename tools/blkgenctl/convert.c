// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl convert - helpers shared by the vdbench and fio converters:
 * runs and sections, sizes, device sizes, distributions as zoned tables,
 * and writing a run as a checked profile.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"
#include "convert.h"
#include "pattern.h"

int conv_error(struct conv *c, int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(c->err, sizeof(c->err), "%s:%d: %s", c->file, line, msg);
	else
		snprintf(c->err, sizeof(c->err), "%s: %s", c->file, msg);
	return -1;
}

/* A note goes into the profile as a comment and to stderr. */
void conv_note(struct conv *c, struct conv_run *r, const char *fmt, ...)
{
	char (*note)[256] = r ? r->note : c->note;
	int *nr = r ? &r->nr_notes : &c->nr_notes;
	va_list ap;
	int i;

	if (*nr == CONV_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(note[*nr], sizeof(note[0]), fmt, ap);
	va_end(ap);
	for (i = 0; i < *nr; i++)
		if (!strcmp(note[i], note[*nr]))
			return;
	(*nr)++;
}

int conv_set(struct conv_sect *s, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key))
			break;
	if (i == CONV_MAX_KV)
		return -1;
	if (i == s->nr) {
		snprintf(s->key[i], sizeof(s->key[0]), "%s", key);
		s->nr++;
	}
	va_start(ap, fmt);
	vsnprintf(s->val[i], sizeof(s->val[0]), fmt, ap);
	va_end(ap);
	return 0;
}

/* The input line @key's value came from (for the checks' errors). */
void conv_set_line(struct conv_sect *s, const char *key, int line)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key))
			s->kline[i] = line;
}

static int conv_get_line(const struct conv_sect *s, const char *key)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key) && s->kline[i])
			return s->kline[i];
	return s->line;
}

/* A run of that name made already, or NULL. */
const struct conv_run *conv_find_run(const struct conv *c, const char *name)
{
	int i;

	for (i = 0; i < c->nr_runs; i++)
		if (!strcmp(c->run[i].name, name))
			return &c->run[i];
	return NULL;
}

const char *conv_get(const struct conv_sect *s, const char *key)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key))
			return s->val[i];
	return NULL;
}

struct conv_run *conv_new_run(struct conv *c, const char *name)
{
	struct conv_run *r;

	if (c->nr_runs == CONV_MAX_RUNS)
		return NULL;
	r = realloc(c->run, (c->nr_runs + 1) * sizeof(*r));
	if (!r)
		return NULL;
	c->run = r;
	r = &c->run[c->nr_runs++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	return r;
}

struct conv_sect *conv_new_wl(struct conv_run *r, const char *name)
{
	struct conv_sect *s;

	if (r->nr_wl == PROFILE_MAX_WL)
		return NULL;
	s = &r->wl[r->nr_wl++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

/*
 * A size as both tools write it: "4096", "4k", "4K", "4KiB", "1m", "2g",
 * "1t" (binary units, as vdbench and fio's default kb_base=1024); the
 * number itself is read by the module's parser.
 */
int conv_size(const char *s, uint64_t *out)
{
	char buf[64];
	size_t len = strlen(s);
	u64 v;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len + 1);
	if (len > 2 && (!strcmp(buf + len - 2, "iB") || !strcmp(buf + len - 2, "ib")))
		buf[len -= 2] = 0;
	if (len > 1 && (buf[len - 1] == 'b' || buf[len - 1] == 'B'))
		buf[--len] = 0;
	if (blkgen_parse_size(buf, &v))
		return -1;
	*out = v;
	return 0;
}

/* The shortest exact form: 4096 -> "4k", 1536 -> "1536". */
void conv_size_str(uint64_t v, char *buf, size_t size)
{
	static const char units[] = "kmgt";
	int i = -1;

	while (v && !(v % 1024) && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, size, "%llu", (unsigned long long)v);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)v, units[i]);
}

bool conv_in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Seconds as a profile time: "30s", or "1500ms" when not whole. */
void conv_ms_str(double sec, char *buf, size_t size)
{
	long long ms = llround(sec * 1000);

	if (ms % 1000)
		snprintf(buf, size, "%lldms", ms);
	else
		snprintf(buf, size, "%llds", ms / 1000);
}

int conv_number(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* --device-size, else the size of the named device or file here. */
int conv_device_size(struct conv *c, const char *dev, int line,
		     uint64_t *size)
{
	*size = c->device_size ? c->device_size : cfs_dev_bytes(dev);
	if (*size)
		return 0;
	return conv_error(c, line,
			  "the distribution depends on the device's size and %s%s%s cannot be read here: pass --device-size SIZE",
			  dev && *dev ? "'" : "", dev && *dev ? dev : "no device is named",
			  dev && *dev ? "'" : "");
}

#define CONV_ZONES	20	/* zones in a converted table (the module takes 64) */
#define CONV_CELLS	106	/* 0.01% .. 0.5% at the start, then 1% steps */
#define CONV_ONE	100	/* 1% in the table's units of 0.01% */

/* Upper edge of cell i, in 0.01% of the range. */
static int cell_edge(int i)
{
	static const int fine[] = { 1, 2, 5, 10, 20, 50 };

	return i < 6 ? fine[i] : (i - 5) * CONV_ONE;
}

/* Mass misplaced if zones [i, j] became one zone of uniform density. */
static double merge_cost(const double *m, const int *sz, int i, int j)
{
	double mass = 0, cost = 0;
	int k, size = 0;

	for (k = i; k <= j; k++) {
		mass += m[k];
		size += sz[k];
	}
	for (k = i; k <= j; k++)
		cost += fabs(m[k] - mass * sz[k] / size);
	return cost;
}

/* 7950 -> "79.5", 1 -> "0.01", 100 -> "1" */
static int put_hundredths(char *buf, size_t size, int v)
{
	if (!(v % 100))
		return snprintf(buf, size, "%d", v / 100);
	if (!(v % 10))
		return snprintf(buf, size, "%d.%d", v / 100, v % 100 / 10);
	return snprintf(buf, size, "%d.%02d", v / 100, v % 100);
}

/*
 * A zoned table from a CDF: the share of each cell of the range (cells of
 * 0.01% to 0.5% at its start, where skewed distributions put most of
 * their weight, then 1%), neighbours merged where that misplaces the
 * least access until CONV_ZONES are left and none has under 0.1% of the
 * accesses, then shares in hundredths of a percent by largest remainder.
 * "uniform" when one zone is left.
 */
int conv_zones(conv_cdf_fn cdf, const void *arg, char *buf, size_t size)
{
	double m[CONV_CELLS], prev = 0, rem[CONV_CELLS];
	int sz[CONV_CELLS], acc[CONV_CELLS], n = CONV_CELLS, i, k, sum = 0;
	int total = 100 * CONV_ONE;
	size_t len;

	for (i = 0; i < CONV_CELLS; i++) {
		int edge = cell_edge(i);
		double f = edge == total ? 1.0 : cdf((double)edge / total, arg);

		if (f < prev)
			f = prev;
		m[i] = (f > 1 ? 1 : f) - prev;
		prev += m[i];
		sz[i] = edge - (i ? cell_edge(i - 1) : 0);
	}
	for (;;) {
		double best = -1, c;
		int at = -1;

		if (n > CONV_ZONES) {
			for (i = 0; i + 1 < n; i++) {
				c = merge_cost(m, sz, i, i + 1);
				if (best < 0 || c < best) {
					best = c;
					at = i;
				}
			}
		} else {
			for (i = 0; i < n && at < 0; i++)
				if (n > 1 && m[i] < 0.001)
					at = i == n - 1 || (i > 0 &&
					     merge_cost(m, sz, i - 1, i) <
					     merge_cost(m, sz, i, i + 1)) ? i - 1 : i;
		}
		if (at < 0)
			break;
		m[at] += m[at + 1];
		sz[at] += sz[at + 1];
		for (i = at + 1; i + 1 < n; i++) {
			m[i] = m[i + 1];
			sz[i] = sz[i + 1];
		}
		n--;
	}
	for (i = 0; i < n; i++) {
		acc[i] = (int)floor(m[i] * total);
		if (!acc[i] && m[i] > 1e-9)
			acc[i] = 1;
		rem[i] = m[i] * total - acc[i];
		sum += acc[i];
	}
	while (sum != total) {
		k = -1;
		for (i = 0; i < n; i++) {
			if (sum > total && acc[i] <= 1)
				continue;
			if (k < 0 || (sum < total ? rem[i] > rem[k] : rem[i] < rem[k]))
				k = i;
		}
		if (k < 0)
			return -1;
		acc[k] += sum < total ? 1 : -1;
		rem[k] += sum < total ? -1 : 1;
		sum += sum < total ? 1 : -1;
	}
	if (n == 1)
		return snprintf(buf, size, "uniform") >= (int)size ? -1 : 0;
	len = snprintf(buf, size, "zoned");
	for (i = 0; i < n && len < size; i++) {
		len += snprintf(buf + len, size - len, ":");
		if (len < size)
			len += put_hundredths(buf + len, size - len, acc[i]);
		if (len < size)
			len += snprintf(buf + len, size - len, "/");
		if (len < size)
			len += put_hundredths(buf + len, size - len, sz[i]);
	}
	return len < size ? 0 : -1;
}

/* H(m, theta) = sum of k^-theta for k = 1..m: exact to 10^4, then the
 * midpoint integral (relative error far below the percent rounding). */
static double harmonic(double m, double theta)
{
	double h = 0, k, top = m < 10000 ? m : 10000;

	for (k = 1; k <= top; k++)
		h += pow(k, -theta);
	if (m <= 10000)
		return h;
	if (fabs(theta - 1.0) < 1e-12)
		return h + log((m + 0.5) / (top + 0.5));
	return h + (pow(m + 0.5, 1 - theta) - pow(top + 0.5, 1 - theta)) /
		   (1 - theta);
}

void conv_zipf_init(struct conv_zipf *z, double theta, double n)
{
	z->theta = theta;
	z->n = n;
	z->h_n = harmonic(n, theta);
}

/* fio's zipf: item k drawn with probability k^-theta / H(n). */
double conv_zipf_cdf(double x, const void *arg)
{
	const struct conv_zipf *z = arg;

	return harmonic(floor(x * z->n), z->theta) / z->h_n;
}

/* fio's pareto: item (n - 1) * u^p with p = log(h) / log(1 - h). */
double conv_pareto_cdf(double x, const void *arg)
{
	double h = *(const double *)arg;

	return pow(x, log(1 - h) / log(h));
}

/*
 * vdbench's hotband (Vdb/HotBand.java): an offset in decimal MB drawn
 * from a piecewise-linear curve of cache sizes, then taken modulo the
 * band. Segment i holds pb[i + 1] - pb[i] of the accesses, uniform over
 * slope[i] MB per unit of probability from mb[i].
 */
static const double hb_mb[] = {
	0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
	65536, 131072, 262144, 524288, 1048576, 2097152, 4194304, 8388608,
	16777216, 33554432, 67108864, 134217728, 268435456, 536870912,
	1073741824.0, 10737418240.0 };
static const double hb_pb[] = {
	0, 0.087217, 0.10101, 0.132206, 0.159946, 0.201713, 0.262602, 0.32645,
	0.366902, 0.386175, 0.436941, 0.482631, 0.523752, 0.56076, 0.594068,
	0.624045, 0.651024, 0.675305, 0.697159, 0.716827, 0.734528, 0.750459,
	0.764797, 0.777701, 0.789314, 0.799767, 0.809174, 0.81764, 1 };
static const double hb_slope[] = {
	183.4511752, 1159.945628, 1025.778015, 2307.172362, 3064.644852,
	4204.331611, 8019.055699, 25313.90019, 106263.1067, 80683.52498,
	179296.7222, 398437.1604, 885415.912, 1967590.916, 4372424.257,
	9716498.348, 21592218.55, 47982707.89, 106628239.8, 236951643.9,
	526559208.7, 1170131575.0, 2600292389.0, 5778427530.0, 12840950067.0,
	28535444594.0, 63412099098.0, 1313220630.0 };

/* Length of [0, t) that lands in [0, w) modulo s. */
static double folded(double t, double s, double w)
{
	double wraps = floor(t / s), rest = t - wraps * s;

	return wraps * w + (rest < w ? rest : w);
}

double conv_hotband_cdf(double x, const void *arg)
{
	double band = *(const double *)arg, w = x * band, f = 0;
	unsigned int i;

	for (i = 0; i + 1 < sizeof(hb_pb) / sizeof(hb_pb[0]); i++) {
		double m = hb_pb[i + 1] - hb_pb[i], len = m * hb_slope[i];
		double a = hb_mb[i];

		if (len <= 0)
			continue;
		f += m * (folded(a + len, band, w) - folded(a, band, w)) / len;
	}
	return f;
}

static int check_value(struct conv *c, const struct conv_run *r,
		       const struct conv_sect *s)
{
	struct blkgen_zones z;
	struct blkgen_range rg;
	struct blkgen_bs bs;
	const char *v;

	v = conv_get(s, "bs");
	if (v && blkgen_parse_bs(v, &bs))
		return conv_error(c, conv_get_line(s, "bs"), "[workload %s]: bs = %s is not valid for blkgen (sizes are multiples of 512 from 512 to 1 MiB, or SIZE/PCT:... of at most 16 summing to 100) (run %s)",
				  s->name, v, r->name);
	v = conv_get(s, "distribution");
	if (v && blkgen_parse_zones(v, &z))
		return conv_error(c, conv_get_line(s, "distribution"), "[workload %s]: distribution = %s is not valid for blkgen (run %s)",
				  s->name, v, r->name);
	v = conv_get(s, "range");
	if (v && blkgen_parse_range(v, &rg))
		return conv_error(c, conv_get_line(s, "range"), "[workload %s]: range = %s is not valid for blkgen (run %s)",
				  s->name, v, r->name);
	return 0;
}

static void write_sect(FILE *f, const struct conv_sect *s)
{
	int i;

	if (s->name[0])
		fprintf(f, "\n[workload %s]\n", s->name);
	else
		fprintf(f, "[job]\n");
	for (i = 0; i < s->nr; i++)
		fprintf(f, "%s = %s\n", s->key[i], s->val[i]);
}

/*
 * @r as profile text (to free), or NULL with the reason in c->err. The
 * text is parsed back as a profile and the workload values through the
 * module's own parsers, so a converted file always loads.
 */
/*
 * blkgen splits a workload's depth over the job's workers, each streaming
 * its own part of the range, where a fio job or a vdbench sd at any depth
 * is one stream. A run of sequential workloads only gets one CPU (one
 * worker: one stream, as precondition.prof); a sequential workload beside
 * random ones keeps the CPUs, said in a note.
 */
void conv_streams(struct conv *c, struct conv_run *r)
{
	const char *v;
	int i, seq = 0;

	for (i = 0; i < r->nr_wl; i++) {
		v = conv_get(&r->wl[i], "seekpct");
		seq += v && !strcmp(v, "0");
	}
	if (!seq)
		return;
	if (seq == r->nr_wl && !conv_get(&r->job, "cpus")) {
		conv_set(&r->job, "cpus", "0");
		conv_note(c, r, "sequential: cpus = 0, one worker, so that each workload is one stream as in %s (blkgen splits a workload over its workers, each streaming its own part of the range)",
			  c->from);
		return;
	}
	for (i = 0; i < r->nr_wl; i++) {
		v = conv_get(&r->wl[i], "seekpct");
		if (v && !strcmp(v, "0"))
			conv_note(c, r, "[%s] sequential: one stream per worker of the job (each its own part of the range), where %s has one",
				  r->wl[i].name, c->from);
	}
}

char *conv_text(struct conv *c, const struct conv_run *r)
{
	struct profile p;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *m;
	int i, ret;

	for (i = 0; i < r->nr_wl; i++)
		if (check_value(c, r, &r->wl[i]))
			return NULL;
	m = open_memstream(&text, &len);
	if (!m) {
		conv_error(c, 0, "out of memory");
		return NULL;
	}
	fprintf(m, "# Converted by blkgenctl %s from %s file %s, run %s.\n",
		BLKGENCTL_VERSION, c->from, c->file, r->name);
	for (i = 0; i < c->nr_notes; i++)
		fprintf(m, "# note: %s\n", c->note[i]);
	for (i = 0; i < r->nr_notes; i++)
		fprintf(m, "# note: %s\n", r->note[i]);
	write_sect(m, &r->job);
	for (i = 0; i < r->nr_wl; i++)
		write_sect(m, &r->wl[i]);
	fclose(m);

	memset(&p, 0, sizeof(p));
	ret = profile_parse(r->name, text, &p, err, sizeof(err));
	profile_free(&p);
	if (ret) {
		conv_error(c, r->line, "run %s: the converted profile does not load: %s",
			   r->name, err);
		free(text);
		return NULL;
	}
	return text;
}
