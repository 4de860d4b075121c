// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - JSON report with fio's names where they exist (see
 * Documentation/blkgenctl.rst for the schema). The bins make results
 * mergeable: the key is the bin's midpoint in ns, as in fio's json+.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <json-c/json.h>

#include "blkgenctl.h"

static double per_sec(uint64_t v, uint64_t ms)
{
	return ms ? (double)v * 1000.0 / (double)ms : 0;
}

/* A histogram's bins, each one's middle in ns: count (json_lat_add() reads them). */
json_object *print_json_bins(const struct blkgen_lat_hist *h)
{
	json_object *bins = json_object_new_object();
	char key[32];
	unsigned int i;

	for (i = 0; i < BLKGEN_HIST_BINS; i++) {
		if (!h->bins[i])
			continue;
		snprintf(key, sizeof(key), "%llu",
			 (unsigned long long)blkgen_hist_bin_mid(i));
		json_object_object_add(bins, key,
				       json_object_new_uint64(h->bins[i]));
	}
	return bins;
}

/* lat_ns: statistics, percentiles and bins (also print-fio.c's). */
json_object *print_json_lat(const struct blkgen_lat_hist *h)
{
	json_object *lat = json_object_new_object();
	json_object *pct = json_object_new_object();
	char key[32];
	int p;

	json_object_object_add(lat, "min",
			       json_object_new_uint64(h->count ? h->min_ns : 0));
	json_object_object_add(lat, "max", json_object_new_uint64(h->max_ns));
	json_object_object_add(lat, "mean",
			       json_object_new_double(report_mean(h)));
	json_object_object_add(lat, "stddev",
			       json_object_new_double(report_stddev(h)));
	json_object_object_add(lat, "N", json_object_new_uint64(h->count));
	for (p = 0; p < report_nr_percentiles && h->count; p++) {
		snprintf(key, sizeof(key), "%f", report_percentiles[p]);
		json_object_object_add(pct, key,
				       json_object_new_uint64(report_percentile(h,
							report_percentiles[p])));
	}
	json_object_object_add(lat, "percentile", pct);
	json_object_object_add(lat, "bins", print_json_bins(h));
	return lat;
}

static json_object *json_dir(const struct job_result *r,
			     const struct dir_result *dr)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ios", json_object_new_uint64(dr->ios));
	json_object_object_add(o, "bytes", json_object_new_uint64(dr->bytes));
	json_object_object_add(o, "iops",
			       json_object_new_double(per_sec(dr->ios,
							      r->elapsed_ms)));
	json_object_object_add(o, "bw_bytes",
			       json_object_new_double(per_sec(dr->bytes,
							      r->elapsed_ms)));
	/* lat_ns: response time; clat_ns: service time, as fio names it. */
	json_object_object_add(o, "lat_ns", print_json_lat(&dr->lat));
	if (!dr->no_svc)
		json_object_object_add(o, "clat_ns", print_json_lat(&dr->svc));
	return o;
}

static json_object *json_intervals(const struct wl_result *w)
{
	static const char *const dir_name[] = { "read", "write" };
	json_object *a = json_object_new_array();
	size_t i;
	int d;

	for (i = 0; i < w->nr_iv; i++) {
		const struct blkgen_interval *iv = &w->iv[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "start_ms",
				       json_object_new_uint64(iv->start_ms));
		json_object_object_add(o, "length_ms",
				       json_object_new_uint64(iv->length_ms));
		for (d = 0; d < 2; d++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "ios",
					       json_object_new_uint64(iv->ios[d]));
			json_object_object_add(x, "bytes",
					       json_object_new_uint64(iv->bytes[d]));
			json_object_object_add(x, "iops",
					       json_object_new_double(per_sec(iv->ios[d],
									      iv->length_ms)));
			json_object_object_add(x, "lat_mean_ns",
					       json_object_new_double(iv->ios[d] ?
						(double)iv->lat_sum_ns[d] / iv->ios[d] : 0));
			json_object_object_add(x, "lat_max_ns",
					       json_object_new_uint64(iv->lat_max_ns[d]));
			json_object_object_add(o, dir_name[d], x);
		}
		json_object_object_add(o, "errors",
				       json_object_new_uint64(iv->errors));
		json_object_array_add(a, o);
	}
	return a;
}

/* verify=1 results: counts and the mismatch log (also print-fio.c's). */
json_object *print_json_verify(const struct wl_result *w)
{
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();
	const char *p = w->verify_log, *e;
	struct vlog_line l;
	char line[256];

	json_object_object_add(o, "checked",
			       json_object_new_uint64(w->verify_checked));
	json_object_object_add(o, "errors",
			       json_object_new_uint64(w->verify_errors));
	json_object_object_add(o, "unflushed",
			       json_object_new_uint64(w->verify_unflushed));
	for (; p && *p; p = *e ? e + 1 : e) {
		json_object *m;

		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
		if (vlog_parse(line, &l))
			continue;
		m = json_object_new_object();
		json_object_object_add(m, "offset",
				       json_object_new_uint64(l.offset));
		json_object_object_add(m, "class",
				       json_object_new_string(l.cls));
		json_object_object_add(m, "expected",
				       json_object_new_uint64(l.expected));
		json_object_object_add(m, "found",
				       json_object_new_uint64(l.found));
		if (l.from != l.offset)
			json_object_object_add(m, "from",
					       json_object_new_uint64(l.from));
		json_object_array_add(a, m);
	}
	json_object_object_add(o, "log", a);
	return o;
}

/* Print a whole JSON document, pretty, and free it. */
void print_json_doc(struct json_object *root)
{
	printf("%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* A run's CLOCK_REALTIME times: asked for, first I/O, end (abi.rst). */
static void json_times(json_object *o, uint64_t start_at, uint64_t started,
		       uint64_t ended)
{
	json_object_object_add(o, "start_at", json_object_new_uint64(start_at));
	json_object_object_add(o, "started_at_ns", json_object_new_uint64(started));
	json_object_object_add(o, "ended_at_ns", json_object_new_uint64(ended));
}

/* A workload's device: its path and identity, as the review records them. */
static json_object *json_device(const char *dev)
{
	static const char *const ids[][2] = {
		{ "model", "model" }, { "serial", "serial" },
		{ "firmware", "firmware_rev" },
	};
	json_object *d = json_object_new_object();
	char buf[256];
	size_t k;

	json_object_object_add(d, "path", json_object_new_string(dev));
	for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		cfs_device_id(dev, ids[k][1], buf, sizeof(buf));
		json_object_object_add(d, ids[k][0], json_object_new_string(buf));
	}
	return d;
}

/* A zoned workload's counters (fio's "zone_resets" among them). */
void json_zone(struct json_object *o, const struct wl_result *w)
{
	int i;

	if (!wl_zoned(w))
		return;
	for (i = 0; i < ZC_NR; i++)
		json_object_object_add(o, zone_names[i],
				       json_object_new_uint64(w->zone[i]));
}

static json_object *json_one(const struct job_result *r)
{
	json_object *job = json_object_new_object();
	json_object *wls = json_object_new_array();
	int i;

	json_object_object_add(job, "jobname", json_object_new_string(r->name));
	json_object_object_add(job, "state", json_object_new_string(r->state));
	json_object_object_add(job, "error", json_object_new_string(r->error));
	json_object_object_add(job, "elapsed_ms",
			       json_object_new_uint64(r->elapsed_ms));
	json_times(job, r->start_at, r->started_at_ns, r->ended_at_ns);
	for (i = 0; i < r->nr_wl; i++) {
		const struct wl_result *w = &r->wl[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(w->name));
		json_object_object_add(o, "device", json_device(w->device));
		json_object_object_add(o, "read", json_dir(r, &w->dir[0]));
		json_object_object_add(o, "write", json_dir(r, &w->dir[1]));
		json_object_object_add(o, "errors",
				       json_object_new_uint64(w->errors));
		json_object_object_add(o, "late_ios",
				       json_object_new_uint64(w->late_ios));
		json_object_object_add(o, "max_lag_ns",
				       json_object_new_uint64(w->max_lag_ns));
		json_object_object_add(o, "verify", print_json_verify(w));
		json_object_object_add(o, "flushes",
				       json_object_new_uint64(w->flushes));
		json_zone(o, w);
		if (w->clock[0])
			json_object_object_add(o, "clock",
					       json_object_new_string(w->clock));
		json_object_object_add(o, "intervals", json_intervals(w));
		json_object_array_add(wls, o);
	}
	json_object_object_add(job, "workloads", wls);
	return job;
}

/* Which host ran it: its name and kernel (as fio's "hostname"). */
void json_identity(json_object *root)
{
	struct utsname u;

	if (uname(&u))
		return;
	json_object_object_add(root, "hostname",
			       json_object_new_string(u.nodename));
	json_object_object_add(root, "kernel",
			       json_object_new_string(u.release));
}

/*
 * A merged host's own series (all its workloads, both directions), so
 * that a chart of the merge draws each host beside the total.
 */
static json_object *json_host_series(const struct host_result *h)
{
	json_object *a = json_object_new_array();
	int k;

	for (k = 0; k < h->nr_iv; k++) {
		const struct host_interval *hi = &h->iv[k];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "start_ms", json_object_new_uint64(hi->start_ms));
		json_object_object_add(o, "length_ms", json_object_new_uint64(hi->length_ms));
		json_object_object_add(o, "ios", json_object_new_uint64(hi->ios));
		json_object_object_add(o, "iops",
				       json_object_new_double(per_sec(hi->ios, hi->length_ms)));
		json_object_object_add(o, "lat_mean_ns",
				       json_object_new_double(hi->ios ? hi->lat_ns_sum / hi->ios : 0));
		json_object_array_add(a, o);
	}
	return a;
}

/*
 * A merge's hosts: a row each, the start spread (latest first I/O -
 * earliest) and the stragglers (the first and the last host done).
 */
static void json_hosts(json_object *root, const struct job_result *r)
{
	json_object *a = json_object_new_array();
	const struct host_result *first = NULL, *last = NULL;
	uint64_t lo = 0, hi = 0;
	int i;

	for (i = 0; i < r->nr_hosts; i++) {
		const struct host_result *h = &r->hosts[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "file", json_object_new_string(h->file));
		json_object_object_add(o, "hostname",
				       json_object_new_string(h->hostname));
		json_object_object_add(o, "kernel", json_object_new_string(h->kernel));
		json_times(o, h->start_at, h->started_at_ns, h->ended_at_ns);
		json_object_object_add(o, "elapsed_ms",
				       json_object_new_uint64(h->elapsed_ms));
		json_object_object_add(o, "ios", json_object_new_uint64(h->ios));
		json_object_object_add(o, "iops",
				       json_object_new_double(per_sec(h->ios,
								      h->elapsed_ms)));
		if (h->nr_iv)
			json_object_object_add(o, "intervals", json_host_series(h));
		json_object_array_add(a, o);
		if (h->started_at_ns) {
			if (!lo || h->started_at_ns < lo)
				lo = h->started_at_ns;
			if (h->started_at_ns > hi)
				hi = h->started_at_ns;
		}
		if (h->ended_at_ns) {
			if (!first || h->ended_at_ns < first->ended_at_ns)
				first = h;
			if (!last || h->ended_at_ns > last->ended_at_ns)
				last = h;
		}
	}
	json_object_object_add(root, "hosts", a);
	json_object_object_add(root, "start_spread_ns",
			       json_object_new_uint64(hi - lo));
	if (first) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "first", json_object_new_string(first->hostname[0] ?
					       first->hostname : first->file));
		json_object_object_add(o, "first_ended_at_ns",
				       json_object_new_uint64(first->ended_at_ns));
		json_object_object_add(o, "last", json_object_new_string(last->hostname[0] ?
					       last->hostname : last->file));
		json_object_object_add(o, "last_ended_at_ns",
				       json_object_new_uint64(last->ended_at_ns));
		json_object_object_add(root, "done", o);
	}
}

/* One document, its "jobs" each run's, in order (one for a run). */
static void json_jobs(const struct job_result *r, int n)
{
	json_object *root = json_object_new_object();
	json_object *jobs = json_object_new_array();
	int k;

	json_object_object_add(root, "blkgenctl_version",
			       json_object_new_string(BLKGENCTL_VERSION));
	/* A merge's identities are its hosts'. */
	if (r[0].nr_hosts)
		json_hosts(root, &r[0]);
	else
		json_identity(root);
	for (k = 0; k < n; k++)
		json_object_array_add(jobs, json_one(&r[k]));
	json_object_object_add(root, "jobs", jobs);
	print_json_doc(root);
}

static void json_job(const struct job_result *r)
{
	json_jobs(r, 1);
}

const struct print_ops print_json_ops = {
	.name	= "json",
	.job	= json_job,
	.jobs	= json_jobs,
};
