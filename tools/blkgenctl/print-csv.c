// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - CSV report: one row per workload and direction, columns in
 * the spirit of vdbench's flatfile. The lat_ and p columns are the
 * response time (from the intended start); the svc_ columns, at the end,
 * the service time (from submission), empty for a result without them.
 * -o csv-intervals: the time series instead, a row per interval,
 * workload and direction (vdbench's flatfile has one per interval).
 */
#include <inttypes.h>
#include <stdio.h>

#include "blkgenctl.h"

static void csv_svc(const struct dir_result *dr)
{
	const struct blkgen_lat_hist *h = &dr->svc;

	if (dr->no_svc) {
		printf(",,,,,,,,");
		return;
	}
	printf("%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f",
	       (h->count ? h->min_ns : 0) / 1e3,
	       report_mean(h) / 1e3, report_stddev(h) / 1e3, h->max_ns / 1e3,
	       report_percentile(h, 50) / 1e3, report_percentile(h, 90) / 1e3,
	       report_percentile(h, 99) / 1e3,
	       report_percentile(h, 99.9) / 1e3,
	       report_percentile(h, 99.99) / 1e3);
}

static void csv_header(void)
{
	printf("job,workload,direction,state,elapsed_s,ios,bytes,iops,mb_per_s,"
	       "bytes_per_io,lat_min_us,lat_mean_us,lat_stddev_us,lat_max_us,"
	       "p50_us,p90_us,p99_us,p99.9_us,p99.99_us,errors,verify_errors,"
	       "svc_min_us,svc_mean_us,svc_stddev_us,svc_max_us,svc_p50_us,"
	       "svc_p90_us,svc_p99_us,svc_p99.9_us,svc_p99.99_us,"
	       "zones_opened,zones_finished,zone_resets,zone_appends\n");
}

static void csv_rows(const struct job_result *r)
{
	static const char *const dir_name[] = { "read", "write" };
	double secs = r->elapsed_ms / 1e3;
	int i, d;

	for (i = 0; i < r->nr_wl; i++) {
		const struct wl_result *w = &r->wl[i];

		for (d = 0; d < 2; d++) {
			const struct dir_result *dr = &w->dir[d];
			const struct blkgen_lat_hist *h = &dr->lat;

			printf("%s,%s,%s,%s,%.3f,%" PRIu64 ",%" PRIu64
			       ",%.1f,%.3f,%.0f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%" PRIu64
			       ",%" PRIu64 ",",
			       r->name, w->name, dir_name[d], r->state, secs,
			       dr->ios, dr->bytes,
			       secs > 0 ? dr->ios / secs : 0,
			       secs > 0 ? dr->bytes / secs / 1e6 : 0,
			       dr->ios ? (double)dr->bytes / dr->ios : 0,
			       (h->count ? h->min_ns : 0) / 1e3,
			       report_mean(h) / 1e3, report_stddev(h) / 1e3,
			       h->max_ns / 1e3,
			       report_percentile(h, 50) / 1e3,
			       report_percentile(h, 90) / 1e3,
			       report_percentile(h, 99) / 1e3,
			       report_percentile(h, 99.9) / 1e3,
			       report_percentile(h, 99.99) / 1e3,
			       d ? 0 : w->errors, d ? 0 : w->verify_errors);
			csv_svc(dr);
			/* Zone events are the writes': on the write row. */
			printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			       d ? w->zone[ZC_OPENED] : 0,
			       d ? w->zone[ZC_FINISHED] : 0,
			       d ? w->zone[ZC_RESETS] : 0,
			       d ? w->zone[ZC_APPENDS] : 0);
		}
	}
}

/* One header, then each run's rows in order. */
static void csv_all(void (*header)(void),
		    void (*rows)(const struct job_result *r),
		    const struct job_result *r, int n)
{
	int k;

	header();
	for (k = 0; k < n; k++)
		rows(&r[k]);
}

static void csv_job(const struct job_result *r)
{
	csv_all(csv_header, csv_rows, r, 1);
}

static void csv_jobs(const struct job_result *r, int n)
{
	csv_all(csv_header, csv_rows, r, n);
}

static void csv_iv_header(void)
{
	printf("job,workload,direction,interval,start_ms,length_ms,start_s,ios,"
	       "bytes,iops,mb_per_s,lat_mean_us,lat_max_us,errors\n");
}

/*
 * One row per interval and direction. start_s: the interval's start by
 * CLOCK_REALTIME, for a run armed for start_at (the series counts from
 * it), else empty.
 */
static void csv_iv_rows(const struct job_result *r)
{
	static const char *const dir_name[] = { "read", "write" };
	char start[32];
	size_t k;
	int i, d;

	for (i = 0; i < r->nr_wl; i++) {
		const struct wl_result *w = &r->wl[i];

		for (k = 0; k < w->nr_iv; k++) {
			const struct blkgen_interval *iv = &w->iv[k];
			double secs = iv->length_ms / 1e3;

			start[0] = '\0';
			if (r->start_at)
				snprintf(start, sizeof(start), "%.3f",
					 r->start_at / 1e9 + iv->start_ms / 1e3);
			for (d = 0; d < 2; d++)
				printf("%s,%s,%s,%zu,%" PRIu64 ",%u,%s,%" PRIu64 ",%" PRIu64
				       ",%.1f,%.3f,%.2f,%.2f,%" PRIu64 "\n",
				       r->name, w->name, dir_name[d], k + 1,
				       (uint64_t)iv->start_ms, (unsigned int)iv->length_ms,
				       start, (uint64_t)iv->ios[d], (uint64_t)iv->bytes[d],
				       secs > 0 ? iv->ios[d] / secs : 0,
				       secs > 0 ? iv->bytes[d] / secs / 1e6 : 0,
				       iv->ios[d] ? (double)iv->lat_sum_ns[d] / iv->ios[d] / 1e3 : 0,
				       iv->lat_max_ns[d] / 1e3,
				       d ? (uint64_t)0 : (uint64_t)iv->errors);
		}
	}
}

static void csv_iv_job(const struct job_result *r)
{
	csv_all(csv_iv_header, csv_iv_rows, r, 1);
}

static void csv_iv_jobs(const struct job_result *r, int n)
{
	csv_all(csv_iv_header, csv_iv_rows, r, n);
}

const struct print_ops print_csv_iv_ops = {
	.name	= "csv-intervals",
	.job	= csv_iv_job,
	.jobs	= csv_iv_jobs,
};

const struct print_ops print_csv_ops = {
	.name	= "csv",
	.job	= csv_job,
	.jobs	= csv_jobs,
};
