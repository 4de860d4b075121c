// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - fio's json+ layout (-o fio), so that fio's own tools
 * (fio_jsonplus_clat2csv) and the scripts and dashboards written for fio
 * read blkgen's results: one fio job per workload, its read, write and
 * trim sections with fio's names and units, latencies with percentiles
 * and bins. Documentation/blkgenctl.rst lists which fields approximate
 * fio's meaning; blkgen's own results are in each job's "blkgen" object.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "blkgenctl.h"

static json_object *jd(double v)
{
	return json_object_new_double(v);
}

static json_object *ju(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* fio's statistics of a latency with no samples (as its slat_ns). */
static json_object *fio_lat_none(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "min", ju(0));
	json_object_object_add(o, "max", ju(0));
	json_object_object_add(o, "mean", jd(0));
	json_object_object_add(o, "stddev", jd(0));
	json_object_object_add(o, "N", ju(0));
	return o;
}

/* min, max, mean, dev and samples of per-interval rates, fio's names. */
static void fio_rate_stats(json_object *o, const char *pfx, const char *dev,
			   const double *v, size_t n, bool integral)
{
	double min = 0, max = 0, sum = 0, sq = 0, mean = 0, sd = 0;
	char key[32];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!i || v[i] < min)
			min = v[i];
		if (!i || v[i] > max)
			max = v[i];
		sum += v[i];
	}
	if (n)
		mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	if (n > 1)
		sd = sqrt(sq / (double)(n - 1));
	snprintf(key, sizeof(key), "%s_min", pfx);
	json_object_object_add(o, key, integral ? ju((uint64_t)min) : jd(min));
	snprintf(key, sizeof(key), "%s_max", pfx);
	json_object_object_add(o, key, integral ? ju((uint64_t)max) : jd(max));
	snprintf(key, sizeof(key), "%s_mean", pfx);
	json_object_object_add(o, key, jd(mean));
	snprintf(key, sizeof(key), "%s_%s", pfx, dev);
	json_object_object_add(o, key, jd(sd));
	snprintf(key, sizeof(key), "%s_samples", pfx);
	json_object_object_add(o, key, ju(n));
}

static json_object *fio_dir(const struct job_result *r,
			    const struct wl_result *w, int d)
{
	const struct dir_result *dr = d < 2 ? &w->dir[d] : NULL;
	uint64_t ios = dr ? dr->ios : 0, bytes = dr ? dr->bytes : 0;
	double secs = (double)r->elapsed_ms / 1000.0;
	double bw = secs > 0 ? (double)bytes / secs : 0;
	json_object *o = json_object_new_object();
	double *iops = NULL, *kbs = NULL;
	size_t i, n = 0;

	json_object_object_add(o, "io_bytes", ju(bytes));
	json_object_object_add(o, "io_kbytes", ju(bytes / 1024));
	json_object_object_add(o, "bw_bytes", ju((uint64_t)llround(bw)));
	json_object_object_add(o, "bw", ju((uint64_t)llround(bw / 1024)));
	json_object_object_add(o, "iops", jd(secs > 0 ? (double)ios / secs : 0));
	json_object_object_add(o, "runtime", ju(r->elapsed_ms));
	json_object_object_add(o, "total_ios", ju(ios));
	json_object_object_add(o, "short_ios", ju(0));
	json_object_object_add(o, "drop_ios", ju(0));
	json_object_object_add(o, "slat_ns", fio_lat_none());
	/*
	 * clat_ns: the service time, from submission to completion, as
	 * fio's; lat_ns: the response time, from the intended start (the
	 * arrival, open loop) to the completion. Closed loop they are the
	 * same. A result without service times (of an older blkgen, which
	 * measured the response time alone) has it in clat_ns too, as that
	 * blkgen wrote, so that the tools reading fio's default (clat)
	 * percentiles find them.
	 */
	if (dr && dr->lat.count) {
		json_object_object_add(o, "clat_ns",
				       print_json_lat(dr->no_svc ? &dr->lat :
						      &dr->svc));
		json_object_object_add(o, "lat_ns", print_json_lat(&dr->lat));
	} else {
		json_object_object_add(o, "clat_ns", fio_lat_none());
		json_object_object_add(o, "lat_ns", fio_lat_none());
	}
	/* fio's bandwidth and IOPS logs, from blkgen's intervals. */
	if (dr && w->nr_iv) {
		iops = calloc(w->nr_iv, sizeof(*iops));
		kbs = calloc(w->nr_iv, sizeof(*kbs));
	}
	for (i = 0; iops && kbs && i < w->nr_iv; i++) {
		const struct blkgen_interval *iv = &w->iv[i];

		if (!iv->length_ms)
			continue;
		iops[n] = (double)iv->ios[d] * 1000.0 / (double)iv->length_ms;
		kbs[n++] = (double)iv->bytes[d] * 1000.0 / 1024.0 /
			   (double)iv->length_ms;
	}
	fio_rate_stats(o, "bw", "dev", kbs, n, true);
	json_object_object_add(o, "bw_agg", jd(n ? 100.0 : 0));
	fio_rate_stats(o, "iops", "stddev", iops, n, false);
	free(iops);
	free(kbs);
	return o;
}

/* fio's "time": ctime()'s layout, without its newline. */
static void fio_time(json_object *root)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct timespec ts;
	char buf[64];
	struct tm tm;
	time_t t;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* Reproducible output (the reproducible-builds convention). */
	if (sde && *sde) {
		ts.tv_sec = (time_t)strtoll(sde, NULL, 10);
		ts.tv_nsec = 0;
	}
	t = ts.tv_sec;
	if (sde && *sde)
		gmtime_r(&t, &tm);	/* the same text in every time zone */
	else
		localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm);
	json_object_object_add(root, "timestamp", ju((uint64_t)t));
	json_object_object_add(root, "timestamp_ms",
			       ju((uint64_t)t * 1000 + ts.tv_nsec / 1000000));
	json_object_object_add(root, "time", json_object_new_string(buf));
}

static json_object *fio_job(const struct job_result *r,
			    const struct wl_result *w)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	json_object *job = json_object_new_object();
	json_object *opts = json_object_new_object();
	json_object *own = json_object_new_object();
	json_object *sync = json_object_new_object();
	/* fio's error is an errno: a failed run, or one merged with --force. */
	bool failed = !strcmp(r->state, "failed") || r->error[0];
	int d;

	json_object_object_add(job, "jobname", json_object_new_string(w->name));
	json_object_object_add(job, "groupid", ju(0));
	json_object_object_add(job, "error", ju(failed ? EIO : 0));
	json_object_object_add(job, "eta", ju(0));
	json_object_object_add(job, "elapsed", ju((r->elapsed_ms + 999) / 1000));
	json_object_object_add(opts, "name", json_object_new_string(w->name));
	json_object_object_add(opts, "blkgen_job",
			       json_object_new_string(r->name ? r->name : ""));
	json_object_object_add(job, "job options", opts);
	for (d = 0; d < 3; d++)
		json_object_object_add(job, dirs[d], fio_dir(r, w, d));
	json_object_object_add(sync, "total_ios", ju(0));
	json_object_object_add(sync, "lat_ns", fio_lat_none());
	json_object_object_add(job, "sync", sync);
	json_object_object_add(job, "job_runtime", ju(r->elapsed_ms));

	json_object_object_add(own, "job",
			       json_object_new_string(r->name ? r->name : ""));
	json_object_object_add(own, "state", json_object_new_string(r->state));
	json_object_object_add(own, "error", json_object_new_string(r->error));
	json_object_object_add(own, "errors", ju(w->errors));
	json_object_object_add(own, "late_ios", ju(w->late_ios));
	json_object_object_add(own, "max_lag_ns", ju(w->max_lag_ns));
	json_object_object_add(own, "verify", print_json_verify(w));
	json_object_object_add(own, "flushes", ju(w->flushes));
	json_zone(own, w);
	if (wl_zoned(w))	/* where fio's zonemode=zbd puts it */
		json_object_object_add(job, "zone_resets",
				       ju(w->zone[ZC_RESETS]));
	json_object_object_add(job, "blkgen", own);
	return job;
}

static void fio_print(const struct job_result *r)
{
	json_object *root = json_object_new_object();
	json_object *jobs = json_object_new_array();
	int i;

	json_object_object_add(root, "fio version",
			       json_object_new_string("blkgenctl-" BLKGENCTL_VERSION));
	fio_time(root);
	json_object_object_add(root, "global options", json_object_new_object());
	for (i = 0; i < r->nr_wl; i++)
		json_object_array_add(jobs, fio_job(r, &r->wl[i]));
	json_object_object_add(root, "jobs", jobs);
	print_json_doc(root);
}

const struct print_ops print_fio_ops = {
	.name	= "fio",
	.job	= fio_print,
};
