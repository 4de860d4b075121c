// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - human-readable report, in fio's manner.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "blkgenctl.h"

static const char *const dir_name[] = { "read", "write" };

static double per_sec(uint64_t v, uint64_t ms)
{
	return ms ? (double)v * 1000.0 / (double)ms : 0;
}

/* "1.00", "99.90", "99.9999": two decimals, more when the value has them. */
static int pct_decimals(double p)
{
	int d = 2;

	while (d < 6 && fabs(p * pow(10, d) - round(p * pow(10, d))) > 1e-6)
		d++;
	return d;
}

/* One latency's statistics and percentiles, under @name ("lat", "svc"). */
static void print_lat(const char *name, const struct blkgen_lat_hist *h)
{
	int i;

	printf("    %s (usec): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n",
	       name, h->min_ns / 1e3, h->max_ns / 1e3, report_mean(h) / 1e3,
	       report_stddev(h) / 1e3);
	printf("    %s percentiles (usec):", name);
	for (i = 0; i < report_nr_percentiles; i++) {
		if (i % 4 == 0)
			printf("\n     |");
		printf(" %*.*fth=[%9.2f]%s",
		       pct_decimals(report_percentiles[i]) + 3,
		       pct_decimals(report_percentiles[i]), report_percentiles[i],
		       report_percentile(h, report_percentiles[i]) / 1e3,
		       i + 1 < report_nr_percentiles ? "," : "");
	}
	printf("\n");
}

/*
 * A direction: lat is the response time (from the intended start); the
 * service time (from submission), svc, follows when it differs (open
 * loop, where an arrival may wait for a slot).
 */
static void print_dir(const struct job_result *r, const struct wl_result *w,
		      int d)
{
	const struct dir_result *dr = &w->dir[d];

	printf("  %s %-5s: ios=%" PRIu64 ", iops=%.1f, bw=%.2fMiB/s (%.2fMB/s)\n",
	       w->name, dir_name[d], dr->ios, per_sec(dr->ios, r->elapsed_ms),
	       per_sec(dr->bytes, r->elapsed_ms) / 1048576.0,
	       per_sec(dr->bytes, r->elapsed_ms) / 1e6);
	if (!dr->lat.count)
		return;
	print_lat("lat", &dr->lat);
	if (!dr->no_svc && dr->svc.count &&
	    (dr->svc.sum_ns != dr->lat.sum_ns ||
	     dr->svc.max_ns != dr->lat.max_ns))
		print_lat("svc", &dr->svc);
}

/*
 * A merge's hosts, a line each: times from the earliest first I/O, and
 * the start spread.
 */
static void print_hosts(const struct job_result *r)
{
	uint64_t lo = 0, hi = 0;
	int i;

	for (i = 0; i < r->nr_hosts; i++) {
		uint64_t t = r->hosts[i].started_at_ns;

		if (t && (!lo || t < lo))
			lo = t;
		if (t > hi)
			hi = t;
	}
	printf("hosts: %d, start spread %.3f ms (latest first I/O - earliest)\n",
	       r->nr_hosts, (hi - lo) / 1e6);
	printf("  %-20s %-24s %12s %12s %12s\n", "host", "kernel",
	       "started ms", "ended ms", "IOPS");
	for (i = 0; i < r->nr_hosts; i++) {
		const struct host_result *h = &r->hosts[i];

		printf("  %-20s %-24s %12.3f %12.3f %12.0f\n",
		       h->hostname[0] ? h->hostname : h->file,
		       h->kernel[0] ? h->kernel : "-",
		       h->started_at_ns ? (h->started_at_ns - lo) / 1e6 : 0.0,
		       h->ended_at_ns && lo ? ((double)h->ended_at_ns - lo) / 1e6 : 0.0,
		       per_sec(h->ios, h->elapsed_ms));
	}
}

static void normal_job(const struct job_result *r)
{
	int i, d;

	printf("%s: %s, %.3f s measured%s%s\n", r->name, r->state,
	       r->elapsed_ms / 1e3, r->error[0] ? ", error: " : "", r->error);
	for (i = 0; i < r->nr_wl; i++) {
		const struct wl_result *w = &r->wl[i];

		for (d = 0; d < 2; d++)
			if (w->dir[d].ios || d == 0)
				print_dir(r, w, d);
		if (w->errors)
			printf("  %s errors: %" PRIu64 "\n", w->name, w->errors);
		if (w->late_ios || w->max_lag_ns)
			printf("  %s open loop: %" PRIu64 " late arrivals, max schedule lag %.3f ms\n",
			       w->name, w->late_ios, w->max_lag_ns / 1e6);
		if (w->verify_checked || w->verify_errors || w->verify_unflushed)
			printf("  %s verify: %" PRIu64 " blocks checked, %" PRIu64
			       " mismatches, %" PRIu64 " unflushed\n", w->name,
			       w->verify_checked, w->verify_errors,
			       w->verify_unflushed);
		if (w->flushes)
			printf("  %s flushes: %" PRIu64 "\n", w->name, w->flushes);
		if (wl_zoned(w))
			printf("  %s zones: %" PRIu64 " opened, %" PRIu64
			       " filled, %" PRIu64 " reset, %" PRIu64
			       " appends, %" PRIu64 " reads beyond a write pointer\n",
			       w->name, w->zone[ZC_OPENED],
			       w->zone[ZC_FINISHED], w->zone[ZC_RESETS],
			       w->zone[ZC_APPENDS], w->zone[ZC_BEYOND]);
		print_verify_log(w->name, w->verify_log, "    ");
	}
	if (r->nr_hosts > 1)
		print_hosts(r);
}

/* Each run's report, then one line per run: the summary of them all. */
static void normal_jobs(const struct job_result *r, int n)
{
	int k, i, d;

	for (k = 0; k < n; k++) {
		normal_job(&r[k]);
		printf("\n");
	}
	printf("summary: %d run%s\n", n, n == 1 ? "" : "s");
	printf("  %-24s %-8s %12s %10s %12s\n", "run", "state", "IOPS", "MB/s",
	       "mean lat us");
	for (k = 0; k < n; k++) {
		struct blkgen_lat_hist h;
		uint64_t ios = 0, bytes = 0;

		blkgen_hist_reset(&h);
		for (i = 0; i < r[k].nr_wl; i++)
			for (d = 0; d < 2; d++) {
				ios += r[k].wl[i].dir[d].ios;
				bytes += r[k].wl[i].dir[d].bytes;
				blkgen_hist_merge(&h, &r[k].wl[i].dir[d].lat);
			}
		printf("  %-24s %-8s %12.0f %10.1f %12.1f\n", r[k].name,
		       r[k].state, per_sec(ios, r[k].elapsed_ms),
		       per_sec(bytes, r[k].elapsed_ms) / 1e6,
		       report_mean(&h) / 1e3);
	}
}

const struct print_ops print_normal_ops = {
	.name	= "normal",
	.job	= normal_job,
	.jobs	= normal_jobs,
};
