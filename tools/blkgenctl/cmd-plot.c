// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl plot - charts through gnuplot (Debian gnuplot-nox).
 *
 * A curve result (blkgenctl curve -o json) becomes a latency-vs-IOPS
 * chart; a report (blkgenctl run/report/merge -o json) becomes a latency
 * histogram with its cumulative distribution, or with --chart time its
 * time series (IOPS and mean latency per interval, e.g. to see a drive
 * reach steady state while preconditioning). The data go inline in the
 * script (gnuplot datablocks), so --script output is self-contained and
 * can be edited and replayed with "gnuplot FILE".
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>

#include <json-c/json.h>

#include "blkgenctl.h"

#define PLOT_PER_OCTAVE	8	/* bars per octave, of equal log width */
#define PLOT_BARS	(64 * PLOT_PER_OCTAVE)	/* up to 2^64 ns */
#define PLOT_LABEL_GAP	0.04	/* curve labels closer than this share one */

struct plot_opts {
	const char *in;
	const char *out;
	const char *type;	/* png or svg */
	const char *title;
	const char *chart;	/* hist or time, for reports */
	bool script;
	bool logy;
	bool to_stdout;		/* -O - or /dev/stdout: gnuplot's stdout */
};

static const char *plot_usage =
	"blkgenctl plot FILE.json|- [-O OUT.png|OUT.svg|-] [-t png|svg] [-c hist|time]\n"
	"                           [--title TEXT] [--logy] [--script]";

static void plot_help(void)
{
	printf("usage: %s\n\n"
	       "Chart a JSON result with gnuplot. A curve (blkgenctl curve -o json)\n"
	       "gives latency (mean and p99) against achieved IOPS; a report (run,\n"
	       "report or merge with -o json, or fio's json+) gives each workload's\n"
	       "latency histogram (bars of 1/8 octave, equal on the log axis) and\n"
	       "cumulative distribution, or with -c time its IOPS and mean latency per\n"
	       "interval. FILE - reads standard input.\n\n"
	       "  -O, --output FILE   chart file (default: FILE with .png or .svg;\n"
	       "                      - for standard output)\n"
	       "  -t, --type TYPE     png or svg (default: from -O, else png)\n"
	       "  -c, --chart CHART   for a report: hist (default) or time\n"
	       "      --title TEXT    chart title (default: the input's name)\n"
	       "      --logy          logarithmic y axis (latency; for a histogram, its\n"
	       "                      shares, to see the tail)\n"
	       "      --script        print the gnuplot script instead of running it\n",
	       plot_usage);
}

/* gnuplot string literal: single quotes, a quote doubled. */
static void put_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static void put_terminal(FILE *f, const struct plot_opts *o)
{
	if (!strcmp(o->type, "svg"))
		fprintf(f, "set terminal svg size 960,600 dynamic enhanced font 'sans,12'\n");
	else
		fprintf(f, "set terminal pngcairo size 1200,750 enhanced font 'sans,11'\n");
	if (o->to_stdout) {
		fprintf(f, "set output");	/* gnuplot's stdout */
	} else {
		fprintf(f, "set output ");
		put_str(f, o->out);
	}
	fprintf(f, "\nset title noenhanced\nset key noenhanced\nset title ");
	put_str(f, o->title ? o->title : strcmp(o->in, "-") ? o->in : "standard input");
	fprintf(f, "\nset grid\nset key top left\n");
}

static bool is_array(json_object *o)
{
	return o && json_object_is_type(o, json_type_array);
}

#define PLOT_MAX_POINTS	256

struct curve_pt {
	double pct, x, y, p99;	/* target %, IOPS, mean and p99 (us) */
};

/* A point's place on the chart, each axis 0..1 (y as drawn: log or not). */
static void chart_xy(const struct curve_pt *p, double xmax, double ymin,
		     double ymax, bool logy, double *x, double *y)
{
	*x = xmax > 0 ? p->x / xmax : 0;
	if (logy)
		*y = ymax > ymin && p->y > 0 ?
		     log(p->y / ymin) / log(ymax / ymin) : 0;
	else
		*y = ymax > 0 ? p->y / ymax : 0;
}

/*
 * The target percentages as labels on the mean line. Points past
 * saturation reach about the same IOPS and latency, and their labels
 * would print over each other: a point within PLOT_LABEL_GAP of the chart
 * (both axes) from the first of a run of such points joins its label,
 * which then names the run ("100-120%").
 */
static void put_curve_labels(FILE *f, const struct curve_pt *pt, size_t n,
			     bool logy)
{
	double xmax = 0, ymin = 0, ymax = 0, x0 = 0, y0 = 0, x = 0, y = 0;
	size_t i, first = 0;

	for (i = 0; i < n; i++) {
		xmax = fmax(xmax, pt[i].x);
		ymax = fmax(ymax, fmax(pt[i].y, pt[i].p99));
		if (pt[i].y > 0 && (!ymin || pt[i].y < ymin))
			ymin = pt[i].y;
	}
	fprintf(f, "$labels << EOD\n# iops mean_us label\n");
	for (i = 0; i <= n; i++) {
		if (i < n) {
			chart_xy(&pt[i], xmax, ymin, ymax, logy, &x, &y);
			if (i && fabs(x - x0) < PLOT_LABEL_GAP &&
			    fabs(y - y0) < PLOT_LABEL_GAP)
				continue;
		}
		if (i) {
			fprintf(f, "%.1f %.3f \"%g", pt[first].x, pt[first].y,
				pt[first].pct);
			if (i - 1 > first)
				fprintf(f, "-%g", pt[i - 1].pct);
			fprintf(f, "%%\"\n");
		}
		first = i;
		x0 = x;
		y0 = y;
	}
	fprintf(f, "EOD\n");
}

/*
 * Append to @buf (@len bytes) at @off; the new offset, which may pass
 * @len once the text is cut (nothing is written past the buffer).
 */
static size_t __attribute__((format(printf, 4, 5)))
appendf(char *buf, size_t len, size_t off, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (off >= len)
		return off;
	va_start(ap, fmt);
	r = vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	return r > 0 ? off + r : off;
}

/* ", start_at 2026-12-06 08:45:10.51 UTC" for @at (ns; nothing for 0). */
static void put_start_at(char *buf, size_t len, uint64_t at)
{
	time_t t = at / 1000000000ULL;
	struct tm tm;
	char when[64];

	if (!at)
		return;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, ", start_at %s.%02u UTC", when,
		 (unsigned int)(at % 1000000000ULL / 10000000ULL));
}

/*
 * A merged curve's default title: its hosts and the instant its maximum
 * was armed for, e.g. "curve of 3 hosts (a, b, c), start_at 2026-12-07
 * 06:50:44.93 UTC".
 */
static void curve_title(json_object *root, char *buf, size_t len)
{
	json_object *hosts = json_member(root, "hosts");
	size_t i, nh = json_object_array_length(hosts);
	size_t off;

	/* Names of 40 characters at most: the start always fits. */
	off = appendf(buf, len, 0, "curve of %zu hosts (", nh);
	for (i = 0; i < nh && i < 4; i++)
		off = appendf(buf, len, off, "%s%.40s", i ? ", " : "",
			      json_object_get_string(json_member(json_object_array_get_idx(hosts, i),
								 "hostname")) ?: "?");
	off = appendf(buf, len, off, "%s)", nh > 4 ? ", ..." : "");
	if (off < len)
		put_start_at(buf + off, len - off, json_object_get_uint64(json_member(root, "start_at")));
}

/* Latency against achieved IOPS, one point per curve point. */
static int script_curve(FILE *f, const struct plot_opts *o,
			json_object *root)
{
	json_object *pts = json_member(root, "points");
	struct curve_pt pt[PLOT_MAX_POINTS];
	struct plot_opts t = *o;
	char title[512];
	size_t i, n;

	if (!is_array(pts) || !json_object_array_length(pts)) {
		fprintf(stderr, "blkgenctl: %s: the curve has no points\n", o->in);
		return -EINVAL;
	}
	n = json_object_array_length(pts);
	if (n > PLOT_MAX_POINTS) {
		fprintf(stderr, "blkgenctl: %s: more than %d curve points\n",
			o->in, PLOT_MAX_POINTS);
		return -EINVAL;
	}
	fprintf(f, "$curve << EOD\n# target_pct iops mean_us p99_us\n");
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		json_object *lat = json_member(p, "lat_ns");

		if (!lat) {
			fprintf(stderr, "blkgenctl: %s: point %zu has no lat_ns\n",
				o->in, i);
			return -EINVAL;
		}
		pt[i].pct = json_object_get_double(json_member(p, "target_pct"));
		pt[i].x = json_object_get_double(json_member(p, "iops"));
		pt[i].y = json_object_get_double(json_member(lat, "mean")) / 1e3;
		pt[i].p99 = json_object_get_double(json_member(lat, "p99")) / 1e3;
		fprintf(f, "%g %.1f %.3f %.3f\n", pt[i].pct, pt[i].x, pt[i].y,
			pt[i].p99);
	}
	fprintf(f, "EOD\n");
	put_curve_labels(f, pt, n, o->logy);
	/* A merge of hosts' curves: titled by its hosts and start. */
	if (is_array(json_member(root, "hosts")) && !o->title) {
		curve_title(root, title, sizeof(title));
		t.title = title;
	}
	put_terminal(f, &t);
	fprintf(f, "set xlabel 'achieved IOPS (maximum %llu)'\n",
		(unsigned long long)json_object_get_uint64(json_member(root, "max_iops")));
	fprintf(f, "set ylabel 'latency (us), from the intended arrival'\n");
	fprintf(f, "set xrange [0:*]\n");
	if (o->logy)
		fprintf(f, "set logscale y\nset format y '%%g'\n");
	else
		fprintf(f, "set yrange [0:*]\n");
	fprintf(f, "plot $curve using 2:3 with linespoints lw 2 pt 7 title 'mean', \\\n"
		   "     $curve using 2:4 with linespoints lw 2 pt 5 title 'p99', \\\n"
		   "     $labels using 1:2:3 with labels offset 0,1 font ',9' notitle\n");
	return 0;
}

static uint64_t bin_lo(unsigned int b)
{
	if (b < 128)
		return b;
	return (uint64_t)(64 + b % 64) << (b / 64 - 1);
}

/* Lower edge of bar @k: 2^(k / PLOT_PER_OCTAVE) ns. */
static double bar_lo(int k)
{
	return exp2((double)k / PLOT_PER_OCTAVE);
}

static int bar_of(double ns)
{
	int k = (int)floor(log2(ns) * PLOT_PER_OCTAVE);

	/* log2 may round across an edge: settle on the bar holding ns. */
	if (k > 0 && bar_lo(k) > ns)
		k--;
	else if (k + 1 < PLOT_BARS && bar_lo(k + 1) <= ns)
		k++;
	return k < 0 ? 0 : k >= PLOT_BARS ? PLOT_BARS - 1 : k;
}

/*
 * The histogram as bars of equal width on the log axis (1/8 octave:
 * density per log interval). The module's bins are 1/64 octave, linear
 * within it (1 ns under 128 ns): each bin's I/Os are spread evenly over
 * its span, the first and last spans cut at min and max, and each bar
 * takes the part of every span it covers. Linear eighths of an octave
 * instead would narrow across the octave on the log axis and jump 2x at
 * every power of two.
 */
static void hist_bars(const struct blkgen_lat_hist *h, double *bar)
{
	unsigned int b;

	memset(bar, 0, PLOT_BARS * sizeof(*bar));
	for (b = 0; b < BLKGEN_HIST_BINS; b++) {
		double lo, hi;
		int k;

		if (!h->bins[b])
			continue;
		lo = bin_lo(b);
		hi = b + 1 < BLKGEN_HIST_BINS ? bin_lo(b + 1) : h->max_ns + 1.0;
		if (h->min_ns > lo && h->min_ns < hi)
			lo = h->min_ns;
		if (h->max_ns + 1.0 > lo && h->max_ns + 1.0 < hi)
			hi = h->max_ns + 1.0;
		if (lo < 1)
			lo = 1;		/* 0 ns: counted in the first bar */
		if (hi <= lo) {
			bar[bar_of(lo)] += h->bins[b];
			continue;
		}
		for (k = bar_of(lo); k < PLOT_BARS && bar_lo(k) < hi; k++) {
			double a = fmax(lo, bar_lo(k)), z = fmin(hi, bar_lo(k + 1));

			if (z > a)
				bar[k] += h->bins[b] * (z - a) / (hi - lo);
		}
	}
}

/*
 * One datablock per workload and direction: each non-empty bar as its
 * bounds in us, its share and the cumulative share. *@least: the
 * smallest share drawn (for a log y axis).
 */
static void put_hist(FILE *f, int idx, const struct blkgen_lat_hist *h,
		     double *least)
{
	double bar[PLOT_BARS], cum = 0, pct;
	int k;

	hist_bars(h, bar);
	fprintf(f, "$h%d << EOD\n# lo_us hi_us pct cum_pct\n", idx);
	for (k = 0; k < PLOT_BARS; k++) {
		if (bar[k] <= 0)	/* no bin overlaps it */
			continue;
		cum += bar[k];
		pct = 100.0 * bar[k] / h->count;
		if (!*least || pct < *least)
			*least = pct;
		fprintf(f, "%.6g %.6g %.6g %.4f\n", bar_lo(k) / 1e3,
			bar_lo(k + 1) / 1e3, pct, 100.0 * cum / h->count);
	}
	fprintf(f, "EOD\n");
}

/* fio's own json+ (its clat bins), not blkgenctl's -o fio (a "blkgen" object). */
static bool fio_own(json_object *root)
{
	json_object *jobs = json_member(root, "jobs");

	return json_member(root, "fio version") && is_array(jobs) &&
	       json_object_array_length(jobs) &&
	       !json_member(json_object_array_get_idx(jobs, 0), "blkgen");
}

static int script_hist(FILE *f, const struct plot_opts *o, json_object *root)
{
	static const char *const dir_name[] = { "read", "write" };
	struct job_result r = { 0 };
	char names[64][160];
	double least = 0;
	int i, d, n = 0, ret;

	r.name = strdup(o->in);
	ret = result_add_json(o->in, root, &r);
	if (ret)
		goto out;
	for (i = 0; i < r.nr_wl; i++)
		for (d = 0; d < 2; d++) {
			if (!r.wl[i].dir[d].lat.count || n == 64)
				continue;
			put_hist(f, n, &r.wl[i].dir[d].lat, &least);
			snprintf(names[n++], sizeof(names[0]), "%s %s",
				 r.wl[i].name, dir_name[d]);
		}
	if (!n) {
		fprintf(stderr, "blkgenctl: %s: no I/O recorded: nothing to plot\n",
			o->in);
		ret = -EINVAL;
		goto out;
	}
	put_terminal(f, o);
	fprintf(f, "set logscale x\nset format x '%%g'\n"
		   "set xlabel 'latency (us), %s'\n",
		   fio_own(root) ? "fio's completion latency (clat: from submission)" :
		   "from the intended arrival");
	fprintf(f, "set ylabel '%% of the I/Os in each 1/8 octave (bars of equal log width)%s'\n"
		   "set y2label 'cumulative %%'\nset y2range [0:100]\n"
		   "set y2tics 10\nset ytics nomirror\n"
		   "set style fill transparent solid 0.35 border\n",
		   o->logy ? ", log scale" : "");
	/* Bars rise from the axis: on a log axis, from under the least. */
	if (o->logy)
		fprintf(f, "set logscale y\nset format y '%%g'\nbase = %g\nset yrange [base:*]\n",
			least / 2);
	else
		fprintf(f, "base = 0\nset yrange [0:*]\n");
	fprintf(f, "plot \\\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "  $h%d using (sqrt($1*$2)):3:1:2:(base):3 with boxxyerror lc %d title ",
			i, i + 1);
		put_str(f, names[i]);
		fprintf(f, ", \\\n  $h%d using 2:4 axes x1y2 with lines lw 2 dt 2 lc %d title ",
			i, i + 1);
		put_str(f, "");
		fprintf(f, "%s\n", i + 1 < n ? ", \\" : "");
	}
out:
	result_free(&r);
	return ret;
}

/*
 * A merge's hosts with their own series (merge -o json's "hosts"), two
 * or more: each host's IOPS beside the total, so that a straggler shows.
 * Returns how many were written as $host0... (their names in @names).
 */
static int put_host_series(FILE *f, json_object *root, char names[][160], int max)
{
	json_object *hosts = json_member(root, "hosts");
	size_t i, k, nh = is_array(hosts) ? json_object_array_length(hosts) : 0;
	int n = 0;

	if (nh < 2)
		return 0;
	for (i = 0; i < nh && n < max; i++) {
		json_object *h = json_object_array_get_idx(hosts, i);
		json_object *iv = json_member(h, "intervals");
		size_t niv = is_array(iv) ? json_object_array_length(iv) : 0;

		if (!niv)
			continue;
		fprintf(f, "$host%d << EOD\n# end_s iops\n", n);
		for (k = 0; k < niv; k++) {
			json_object *x = json_object_array_get_idx(iv, k);

			fprintf(f, "%.3f %.1f\n",
				(json_object_get_uint64(json_member(x, "start_ms")) +
				 json_object_get_uint64(json_member(x, "length_ms"))) / 1e3,
				json_object_get_double(json_member(x, "iops")));
		}
		fprintf(f, "EOD\n");
		snprintf(names[n], 160, "%s IOPS",
			 json_object_get_string(json_member(h, "hostname")) ?: "a host");
		n++;
	}
	return n;
}

/*
 * The hosts' series summed (every workload and direction), written as
 * $all: the total the host lines add up to, when the report's own totals
 * are per workload and direction. False if the hosts have no series.
 */
static bool put_all_series(FILE *f, json_object *root)
{
	json_object *hosts = json_member(root, "hosts");
	size_t i, k, nh = is_array(hosts) ? json_object_array_length(hosts) : 0;
	size_t niv = 0;

	for (i = 0; i < nh; i++) {
		json_object *iv = json_member(json_object_array_get_idx(hosts, i), "intervals");

		if (is_array(iv) && json_object_array_length(iv) > niv)
			niv = json_object_array_length(iv);
	}
	if (!niv)
		return false;
	fprintf(f, "$all << EOD\n# end_s iops\n");
	for (k = 0; k < niv; k++) {
		double iops = 0, end = 0;

		for (i = 0; i < nh; i++) {
			json_object *iv = json_member(json_object_array_get_idx(hosts, i), "intervals");
			json_object *x;

			if (!is_array(iv) || k >= json_object_array_length(iv))
				continue;
			x = json_object_array_get_idx(iv, k);
			iops += json_object_get_double(json_member(x, "iops"));
			end = (json_object_get_uint64(json_member(x, "start_ms")) +
			       json_object_get_uint64(json_member(x, "length_ms"))) / 1e3;
		}
		fprintf(f, "%.3f %.1f\n", end, iops);
	}
	fprintf(f, "EOD\n");
	return true;
}

/*
 * A merge's default title: its workloads, its hosts and the instant they
 * were armed for, e.g. "randread on 2 hosts (h1, h2), start_at
 * 2026-12-06 08:45:10.51 UTC".
 */
static void merge_title(json_object *root, char names[][160], int n, char *buf, size_t len)
{
	json_object *hosts = json_member(root, "hosts");
	json_object *jobs = json_member(root, "jobs");
	json_object *wls = is_array(jobs) && json_object_array_length(jobs) ?
			   json_member(json_object_array_get_idx(jobs, 0), "workloads") : NULL;
	size_t i, nh = json_object_array_length(hosts);
	uint64_t at = is_array(jobs) && json_object_array_length(jobs) ?
		      json_object_get_uint64(json_member(json_object_array_get_idx(jobs, 0),
							 "start_at")) : 0;
	size_t off = 0;

	buf[0] = 0;
	/* Names of 40 characters at most: the start always fits. */
	for (i = 0; is_array(wls) && i < json_object_array_length(wls) && i < 4; i++)
		off = appendf(buf, len, off, "%s%.40s", i ? ", " : "",
			      json_object_get_string(json_member(json_object_array_get_idx(wls, i),
								 "name")) ?: "?");
	off = appendf(buf, len, off, "%son %zu hosts (", off ? " " : "", nh);
	for (i = 0; i < (size_t)n && i < 4; i++)
		off = appendf(buf, len, off, "%s%.*s", i ? ", " : "",
			      (int)(strlen(names[i]) - strlen(" IOPS") < 40 ?
				    strlen(names[i]) - strlen(" IOPS") : 40), names[i]);
	off = appendf(buf, len, off, "%s)", nh > 4 ? ", ..." : "");
	if (off < len)
		put_start_at(buf + off, len - off, at);
}

/*
 * IOPS (left axis) and mean latency (right) per interval; for a merge
 * of hosts each with its series, every host's IOPS beside the totals.
 */
static int script_time(FILE *f, const struct plot_opts *o, json_object *root)
{
	static const char *const dir_name[] = { "read", "write" };
	json_object *jobs = json_member(root, "jobs"), *wls;
	char names[64][160], hosts[64][160], title[512], line[200];
	struct plot_opts t = *o;
	size_t j, w, i;
	int d, n = 0, nh;
	bool all;

	for (j = 0; is_array(jobs) && j < json_object_array_length(jobs); j++) {
		wls = json_member(json_object_array_get_idx(jobs, j), "workloads");
		for (w = 0; is_array(wls) && w < json_object_array_length(wls); w++) {
			json_object *wl = json_object_array_get_idx(wls, w);
			json_object *iv = json_member(wl, "intervals");
			size_t niv = is_array(iv) ? json_object_array_length(iv) : 0;

			for (d = 0; d < 2 && n < 64; d++) {
				uint64_t ios = 0;

				for (i = 0; i < niv; i++)
					ios += json_object_get_uint64(json_member(json_member(json_object_array_get_idx(iv, i),
										      dir_name[d]), "ios"));
				if (!ios)
					continue;
				fprintf(f, "$t%d << EOD\n# end_s iops lat_mean_us\n", n);
				for (i = 0; i < niv; i++) {
					json_object *x = json_object_array_get_idx(iv, i);
					json_object *dir = json_member(x, dir_name[d]);

					fprintf(f, "%.3f %.1f %.3f\n",
						(json_object_get_uint64(json_member(x, "start_ms")) +
						 json_object_get_uint64(json_member(x, "length_ms"))) / 1e3,
						json_object_get_double(json_member(dir, "iops")),
						json_object_get_double(json_member(dir, "lat_mean_ns")) / 1e3);
				}
				fprintf(f, "EOD\n");
				snprintf(names[n++], sizeof(names[0]), "%s %s",
					 json_object_get_string(json_member(wl, "name")),
					 dir_name[d]);
			}
		}
	}
	if (!n) {
		fprintf(stderr, "blkgenctl: %s: no intervals with I/O: nothing to plot\n",
			o->in);
		return -EINVAL;
	}
	nh = put_host_series(f, root, hosts, 64);
	/* Several totals (workloads, directions): their sum beside the hosts'. */
	all = nh && n > 1 && put_all_series(f, root);
	if (nh && !o->title) {
		merge_title(root, hosts, nh, title, sizeof(title));
		t.title = title;
	}
	put_terminal(f, &t);
	fprintf(f, "set xlabel 'time (s, measured)'\nset ylabel 'IOPS per interval'\n"
		   "set yrange [0:*]\nset y2label 'mean latency (us)'\n"
		   "set y2tics\nset ytics nomirror\n");
	fprintf(f, o->logy ? "set logscale y2\n" : "set y2range [0:*]\n");
	fprintf(f, "plot \\\n");
	for (i = 0; i < (size_t)n; i++) {
		fprintf(f, "  $t%zu using 1:2 with linespoints lw 2 pt 7 ps 0.5 lc %zu title ",
			i, i + 1);
		snprintf(line, sizeof(line), "%.159s IOPS%s", names[i], nh ? ", all hosts" : "");
		put_str(f, line);
		fprintf(f, ", \\\n  $t%zu using 1:3 axes x1y2 with lines dt 2 lc %zu title ",
			i, i + 1);
		snprintf(line, sizeof(line), "%.159s mean latency%s (right axis)", names[i],
			 nh ? ", all hosts" : "");
		put_str(f, line);
		fprintf(f, "%s\n", i + 1 < (size_t)n || nh ? ", \\" : "");
	}
	if (all)
		fprintf(f, "  $all using 1:2 with lines lw 3 lc rgb 'black' title 'IOPS, all workloads and hosts', \\\n");
	/* Each host thin, in colours after the totals'. */
	for (i = 0; i < (size_t)nh; i++) {
		fprintf(f, "  $host%zu using 1:2 with lines lw 1 lc %zu title ",
			i, n + i + 1);
		put_str(f, hosts[i]);
		fprintf(f, "%s\n", i + 1 < (size_t)nh ? ", \\" : "");
	}
	return 0;
}

static int parse_plot_opts(int argc, char **argv, struct plot_opts *o,
			   char *outbuf, size_t outlen)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'O' },
		{ "type", required_argument, NULL, 't' },
		{ "title", required_argument, NULL, 'T' },
		{ "chart", required_argument, NULL, 'c' },
		{ "logy", no_argument, NULL, 'l' },
		{ "script", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *dot;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "O:t:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'O':
			o->out = optarg;
			break;
		case 't':
			o->type = optarg;
			break;
		case 'T':
			o->title = optarg;
			break;
		case 'c':
			o->chart = optarg;
			break;
		case 'l':
			o->logy = true;
			break;
		case 's':
			o->script = true;
			break;
		case 'h':
			plot_help();
			return EXIT_OK + 100;
		default:
			fprintf(stderr, "usage: %s\n", plot_usage);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s\n", plot_usage);
		return EXIT_USAGE;
	}
	o->in = argv[optind];
	if (o->out && (!strcmp(o->out, "-") || !strcmp(o->out, "/dev/stdout") ||
		       !strcmp(o->out, "/dev/fd/1"))) {
		if (!o->script && isatty(STDOUT_FILENO) &&
		    (!o->type || strcmp(o->type, "svg"))) {
			fprintf(stderr, "blkgenctl: -O %s: not writing a PNG to a terminal (redirect it, or -t svg)\n",
				o->out);
			return EXIT_USAGE;
		}
		o->to_stdout = true;
	}
	/* -O's extension, if it has one, is the chart's type. */
	dot = o->out && !o->to_stdout ? strrchr(o->out, '.') : NULL;
	if (dot && strchr(dot, '/'))
		dot = NULL;
	if (dot && strcmp(dot, ".png") && strcmp(dot, ".svg")) {
		fprintf(stderr, "blkgenctl: -O %s: charts are drawn as png or svg (name it .png or .svg)\n",
			o->out);
		return EXIT_USAGE;
	}
	if (dot && o->type && strcmp(dot + 1, o->type)) {
		fprintf(stderr, "blkgenctl: -O %s is not a %s file\n", o->out,
			o->type);
		return EXIT_USAGE;
	}
	if (!o->type)
		o->type = dot && !strcmp(dot, ".svg") ? "svg" : "png";
	if (!o->chart)
		o->chart = "hist";
	if (strcmp(o->chart, "hist") && strcmp(o->chart, "time")) {
		fprintf(stderr, "blkgenctl: chart '%s': expected hist or time\n",
			o->chart);
		return EXIT_USAGE;
	}
	if (strcmp(o->type, "png") && strcmp(o->type, "svg")) {
		fprintf(stderr, "blkgenctl: chart type '%s': expected png or svg\n",
			o->type);
		return EXIT_USAGE;
	}
	if (!o->out && !strcmp(o->in, "-")) {
		fprintf(stderr, "blkgenctl: reading standard input: name the chart with -O FILE (or -O - for standard output)\n");
		return EXIT_USAGE;
	}
	if (!o->out) {
		dot = strrchr(o->in, '.');
		if (!dot || strchr(dot, '/'))
			dot = o->in + strlen(o->in);
		snprintf(outbuf, outlen, "%.*s.%s", (int)(dot - o->in), o->in,
			 o->type);
		o->out = outbuf;
	}
	return EXIT_OK;
}

/*
 * Whether the chart file can be written, found before gnuplot runs (it
 * would otherwise draw the chart on its stdout). A file this made is
 * removed again.
 */
static int check_output(const char *out)
{
	bool existed = !access(out, F_OK);
	FILE *f = fopen(out, "ab");

	if (!f) {
		fprintf(stderr, "blkgenctl: cannot write %s: %s\n", out,
			strerror(errno));
		return -1;
	}
	fclose(f);
	if (!existed)
		remove(out);
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_opts o = { 0 };
	json_object *root;
	char outbuf[4096];
	FILE *f;
	int ret, st;

	ret = parse_plot_opts(argc, argv, &o, outbuf, sizeof(outbuf));
	if (ret)
		return ret == EXIT_OK + 100 ? EXIT_OK : ret;

	root = json_load(o.in);
	if (!root)
		return EXIT_FAIL;
	if (json_member(root, "workloads") && !json_member(root, "jobs")) {
		fprintf(stderr, "blkgenctl: %s: a review: its charts are in its index.html (blkgenctl review --report -O DIR draws them); plot takes a curve (curve -o json) or a report (-o json, fio json+)\n",
			o.in);
		json_object_put(root);
		return EXIT_FAIL;
	}
	if (!json_member(root, "points") && !json_member(root, "jobs")) {
		fprintf(stderr, "blkgenctl: %s: neither a curve (\"points\") nor a report (\"jobs\")\n",
			o.in);
		json_object_put(root);
		return EXIT_FAIL;
	}
	if (o.script) {
		f = stdout;
	} else {
		if (!in_path("gnuplot")) {
			fprintf(stderr, "blkgenctl: gnuplot not found: install it (apt-get install gnuplot-nox), or print the script with --script\n");
			json_object_put(root);
			return EXIT_FAIL;
		}
		if (!o.to_stdout && check_output(o.out)) {
			json_object_put(root);
			return EXIT_FAIL;
		}
		/* gnuplot exiting early must not kill us: pclose() tells. */
		signal(SIGPIPE, SIG_IGN);
		/* Its stdout is the chart's place only with -O -. */
		fflush(stdout);
		f = popen(o.to_stdout ? "exec gnuplot" :
			  "exec gnuplot > /dev/null", "w");
		if (!f) {
			fprintf(stderr, "blkgenctl: cannot run gnuplot: %s\n",
				strerror(errno));
			json_object_put(root);
			return EXIT_FAIL;
		}
	}
	fprintf(f, "# blkgenctl %s plot of %s\n", BLKGENCTL_VERSION, o.in);
	if (json_member(root, "points"))
		ret = script_curve(f, &o, root);
	else if (!strcmp(o.chart, "time"))
		ret = script_time(f, &o, root);
	else
		ret = script_hist(f, &o, root);
	json_object_put(root);
	if (o.script)
		return ret ? EXIT_FAIL : EXIT_OK;

	st = pclose(f);
	if (ret)	/* found before "set output": gnuplot wrote nothing */
		return EXIT_FAIL;
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			fprintf(stderr, "blkgenctl: gnuplot not found: install it (apt-get install gnuplot-nox)\n");
		else
			fprintf(stderr, "blkgenctl: gnuplot failed writing %s\n",
				o.out);
		if (!o.to_stdout)
			remove(o.out);	/* no half-drawn chart left behind */
		return EXIT_FAIL;
	}
	if (!o.to_stdout)
		fprintf(stderr, "blkgenctl: wrote %s\n", o.out);
	return EXIT_OK;
}
