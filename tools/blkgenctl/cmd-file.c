// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - commands on result files: merge, and loading a JSON
 * report back into a struct job_result (merge and plot).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"

/* @o's member @key, NULL if @o is NULL or has none (a JSON path step). */
json_object *json_member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* Add a latency object (N, min, max, mean and bins) into @h. */
int json_lat_add(json_object *lat, struct blkgen_lat_hist *h)
{
	json_object *bins = json_member(lat, "bins");
	uint64_t n, min, max;
	double mean;

	if (!lat || !bins || !json_object_is_type(bins, json_type_object))
		return -EINVAL;
	n = json_object_get_uint64(json_member(lat, "N"));
	if (!n)
		return 0;
	min = json_object_get_uint64(json_member(lat, "min"));
	max = json_object_get_uint64(json_member(lat, "max"));
	mean = json_object_get_double(json_member(lat, "mean"));
	if (!h->count || min < h->min_ns)
		h->min_ns = min;
	if (max > h->max_ns)
		h->max_ns = max;
	h->sum_ns += (uint64_t)llround(mean * n);
	json_object_object_foreach(bins, key, val) {
		uint64_t c = json_object_get_uint64(val);

		h->bins[blkgen_hist_bin(strtoull(key, NULL, 10))] += c;
		h->count += c;
	}
	return 0;
}

/*
 * Add service times (clat_ns) into @d. A direction with I/O and without
 * them (a report of an older blkgen, fio's plain json) leaves the merge
 * without service times.
 */
static int merge_svc(json_object *clat, struct dir_result *d, uint64_t ios)
{
	if (!json_member(clat, "bins")) {
		if (ios)
			d->no_svc = true;
		return 0;
	}
	return json_lat_add(clat, &d->svc);
}

/* Add one direction of a report's workload into @d. */
static int merge_dir(json_object *dir, struct dir_result *d)
{
	if (!dir)
		return -EINVAL;
	d->ios += json_object_get_uint64(json_member(dir, "ios"));
	d->bytes += json_object_get_uint64(json_member(dir, "bytes"));
	return json_lat_add(json_member(dir, "lat_ns"), &d->lat) ?:
	       merge_svc(json_member(dir, "clat_ns"), d,
			 json_object_get_uint64(json_member(dir, "ios")));
}

/*
 * The latency of one direction of a job of fio's json+ (fio's own, or
 * blkgenctl -o fio): total latency (lat_ns) where it has bins (fio's
 * lat_percentiles=1), else completion latency (clat_ns, fio's default).
 */
static json_object *fio_lat(json_object *dir)
{
	json_object *lat = json_member(dir, "lat_ns");

	return json_member(lat, "bins") ? lat : json_member(dir, "clat_ns");
}

/* Add one fio direction into @d: without I/O it has no bins; with I/O and
 * none it is plain json, not json+ (-ENODATA). */
static int merge_fio_dir(json_object *dir, struct dir_result *d)
{
	json_object *lat = fio_lat(dir);
	uint64_t ios;

	if (!dir)
		return -EINVAL;
	ios = json_object_get_uint64(json_member(dir, "total_ios"));
	d->ios += ios;
	d->bytes += json_object_get_uint64(json_member(dir, "io_bytes"));
	if (!json_member(lat, "bins"))
		return ios ? -ENODATA : 0;
	/* fio's clat is from submission to completion: service time. */
	return json_lat_add(lat, &d->lat) ?:
	       merge_svc(json_member(dir, "clat_ns"), d, ios);
}

static struct wl_result *find_wl(struct job_result *r, const char *name)
{
	struct wl_result *w;
	int i;

	for (i = 0; i < r->nr_wl; i++)
		if (!strcmp(r->wl[i].name, name))
			return &r->wl[i];
	w = realloc(r->wl, (r->nr_wl + 1) * sizeof(*r->wl));
	if (!w)
		return NULL;
	r->wl = w;
	w = &r->wl[r->nr_wl++];
	memset(w, 0, sizeof(*w));
	w->name = strdup(name);
	blkgen_hist_reset(&w->dir[0].lat);
	blkgen_hist_reset(&w->dir[1].lat);
	blkgen_hist_reset(&w->dir[0].svc);
	blkgen_hist_reset(&w->dir[1].svc);
	return w;
}

/*
 * The counters blkgen keeps beside the latency (a report's workload, or
 * the "blkgen" object of -o fio's jobs) added into @w.
 */
static void add_counters(json_object *o, struct wl_result *w)
{
	json_object *v = json_member(o, "verify");
	int i;
	uint64_t lag = json_object_get_uint64(json_member(o, "max_lag_ns"));
	const char *clock = json_object_get_string(json_member(o, "clock"));

	w->errors += json_object_get_uint64(json_member(o, "errors"));
	w->late_ios += json_object_get_uint64(json_member(o, "late_ios"));
	w->flushes += json_object_get_uint64(json_member(o, "flushes"));
	for (i = 0; i < ZC_NR; i++) {
		json_object *z = json_member(o, zone_names[i]);

		w->zone[i] += json_object_get_uint64(z);
		w->zoned |= z != NULL;
	}
	if (v) {
		w->verify_checked += json_object_get_uint64(json_member(v, "checked"));
		w->verify_errors += json_object_get_uint64(json_member(v, "errors"));
		w->verify_unflushed += json_object_get_uint64(json_member(v, "unflushed"));
	}
	if (lag > w->max_lag_ns)
		w->max_lag_ns = lag;
	/* The clock: one name if all agree, else "mixed". */
	if (clock && !w->clock[0])
		snprintf(w->clock, sizeof(w->clock), "%s", clock);
	else if (clock && strcmp(w->clock, clock))
		snprintf(w->clock, sizeof(w->clock), "mixed");
}

/* A job of fio's json+ output: one workload named after the job. */
static int load_fio_job(const char *file, json_object *job,
			struct job_result *r)
{
	static const char *const dirs[] = { "read", "write" };
	const char *name = json_object_get_string(json_member(job, "jobname"));
	static const char *const all[] = { "read", "write", "trim" };
	uint64_t ms = 0, t;
	struct wl_result *w;
	int d, ret;

	/*
	 * The directions' runtime: with group_reporting, job_runtime is the
	 * sum over the group's threads.
	 */
	for (d = 0; d < 3; d++) {
		t = json_object_get_uint64(json_member(json_member(job, all[d]),
						       "runtime"));
		if (t > ms)
			ms = t;
	}
	if (!ms)
		ms = json_object_get_uint64(json_member(job, "job_runtime"));

	if (!name) {
		fprintf(stderr, "blkgenctl: %s: a fio job without a jobname\n",
			file);
		return -EINVAL;
	}
	if (ms > r->elapsed_ms)
		r->elapsed_ms = ms;
	w = find_wl(r, name);
	if (!w)
		return -ENOMEM;
	for (d = 0; d < 2; d++) {
		ret = merge_fio_dir(json_member(job, dirs[d]), &w->dir[d]);
		if (ret == -ENODATA) {
			fprintf(stderr, "blkgenctl: %s: fio job %s has no latency bins: run fio with --output-format=json+\n",
				file, name);
			return ret;
		}
		if (ret) {
			fprintf(stderr, "blkgenctl: %s: malformed fio job %s\n",
				file, name);
			return ret;
		}
	}
	/* blkgenctl -o fio keeps its own counters beside fio's layout. */
	if (json_member(job, "blkgen"))
		add_counters(json_member(job, "blkgen"), w);
	/* fio's error is an errno; blkgen counts I/O errors. */
	else if (json_object_get_uint64(json_member(job, "error")))
		w->errors++;
	/* fio's zonemode=zbd: the job's resets, where fio puts them. */
	if (!json_member(job, "blkgen") && json_member(job, "zone_resets")) {
		w->zone[ZC_RESETS] += json_object_get_uint64(json_member(job,
							     "zone_resets"));
		w->zoned = true;
	}
	return 0;
}

/*
 * A workload's time series added interval by interval (the same index:
 * the caller checks that the runs' intervals line up). The latency sum
 * comes back from the mean (to the ns per I/O).
 */
static int merge_iv(json_object *arr, struct wl_result *w)
{
	static const char *const dirs[] = { "read", "write" };
	size_t k, n;
	int d;

	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return -EINVAL;
	n = json_object_array_length(arr);
	if (n > w->nr_iv) {
		struct blkgen_interval *iv = realloc(w->iv, n * sizeof(*iv));

		if (!iv)
			return -ENOMEM;
		memset(iv + w->nr_iv, 0, (n - w->nr_iv) * sizeof(*iv));
		w->iv = iv;
		w->nr_iv = n;
	}
	for (k = 0; k < n; k++) {
		json_object *o = json_object_array_get_idx(arr, k);
		struct blkgen_interval *iv = &w->iv[k];
		uint32_t len;

		iv->start_ms = json_object_get_uint64(json_member(o, "start_ms"));
		len = json_object_get_uint64(json_member(o, "length_ms"));
		if (len > iv->length_ms)
			iv->length_ms = len;
		iv->errors += json_object_get_uint64(json_member(o, "errors"));
		for (d = 0; d < 2; d++) {
			json_object *x = json_member(o, dirs[d]);
			uint64_t ios = json_object_get_uint64(json_member(x, "ios"));
			uint64_t max = json_object_get_uint64(json_member(x, "lat_max_ns"));

			iv->ios[d] += ios;
			iv->bytes[d] += json_object_get_uint64(json_member(x, "bytes"));
			iv->lat_sum_ns[d] += llround(json_object_get_double(json_member(x,
							"lat_mean_ns")) * (double)ios);
			if (max > iv->lat_max_ns[d])
				iv->lat_max_ns[d] = max;
		}
	}
	return 0;
}

/* Add the report @root (read from @file) into @r. */
int result_add_json(const char *file, json_object *root,
			   struct job_result *r)
{
	json_object *jobs, *job, *wls;
	size_t i, j;
	int ret = -EINVAL;

	jobs = json_member(root, "jobs");
	if (!jobs || !json_object_is_type(jobs, json_type_array)) {
		fprintf(stderr, "blkgenctl: %s: not a blkgenctl report (no \"jobs\")\n",
			file);
		goto out;
	}
	for (i = 0; i < json_object_array_length(jobs); i++) {
		uint64_t ms;

		job = json_object_array_get_idx(jobs, i);
		if (json_member(root, "fio version") &&
		    !json_member(job, "workloads")) {
			if (load_fio_job(file, job, r))
				goto out;
			continue;
		}
		wls = json_member(job, "workloads");
		ms = json_object_get_uint64(json_member(job, "elapsed_ms"));
		if (ms > r->elapsed_ms)
			r->elapsed_ms = ms;
		if (!wls || !json_object_is_type(wls, json_type_array))
			goto bad;
		for (j = 0; j < json_object_array_length(wls); j++) {
			json_object *o = json_object_array_get_idx(wls, j);
			const char *name = json_object_get_string(json_member(o, "name"));
			struct wl_result *w;

			if (!name)
				goto bad;
			w = find_wl(r, name);
			if (!w)
				goto out;
			if (merge_dir(json_member(o, "read"), &w->dir[0]) ||
			    merge_dir(json_member(o, "write"), &w->dir[1]) ||
			    merge_iv(json_member(o, "intervals"), w))
				goto bad;
			add_counters(o, w);
		}
	}
	ret = 0;
	goto out;
bad:
	fprintf(stderr, "blkgenctl: %s: malformed blkgenctl report\n", file);
out:
	return ret;
}

/* Parse @file ("-": standard input), or say why not (NULL). */
json_object *json_load(const char *file)
{
	json_object *root = strcmp(file, "-") ? json_object_from_file(file) :
			    json_object_from_fd(STDIN_FILENO);

	if (!root)
		fprintf(stderr, "blkgenctl: %s: not JSON (%s)\n", file,
			json_util_get_last_err());
	return root;
}

int result_load_json(const char *file, struct job_result *r)
{
	json_object *root = json_load(file);
	int ret;

	if (!root)
		return -EINVAL;
	ret = result_add_json(file, root, r);
	json_object_put(root);
	return ret;
}

/* The I/Os a latency object's bins hold; *n its N. */
static uint64_t bins_sum(json_object *lat, uint64_t *n)
{
	json_object *bins = json_member(lat, "bins");
	uint64_t sum = 0;

	*n = json_object_get_uint64(json_member(lat, "N"));
	if (!bins || !json_object_is_type(bins, json_type_object))
		return 0;
	json_object_object_foreach(bins, key, val) {
		(void)key;
		sum += json_object_get_uint64(val);
	}
	return sum;
}

/*
 * What makes the report @root unfit to merge, in @why: a failed run (or one with an
 * error), or a histogram that does not hold the I/Os it claims. 0 if
 * nothing; a malformed report is left to result_add_json().
 */
static int merge_refusal(json_object *root, char *why, size_t len)
{
	static const char *const dirs[] = { "read", "write" };
	bool fio = json_member(root, "fio version") != NULL;
	json_object *jobs, *job;
	size_t i, j;
	int d, bad = 0;

	jobs = json_member(root, "jobs");
	if (!json_object_is_type(jobs, json_type_array))
		return 0;	/* result_add_json() says what is wrong */
	for (i = 0; !bad && i < json_object_array_length(jobs); i++) {
		const char *name, *state, *err;
		json_object *wls;
		bool stopped;

		job = json_object_array_get_idx(jobs, i);
		name = json_object_get_string(json_member(job, "jobname"));
		state = json_object_get_string(json_member(job, "state"));
		err = json_object_get_string(json_member(job, "error"));
		wls = json_member(job, "workloads");
		if (wls && !json_object_is_type(wls, json_type_array))
			return 0;
		if (fio && !wls) {
			if (json_object_get_uint64(json_member(job, "error"))) {
				snprintf(why, len, "fio job %s ended with error %s",
					 name ? name : "?", err);
				bad = 1;
			}
			for (d = 0; !bad && d < 2; d++) {
				json_object *lat = fio_lat(json_member(job, dirs[d]));
				uint64_t n, sum = bins_sum(lat, &n);

				if (sum != n && json_member(lat, "bins")) {
					snprintf(why, len, "fio job %s %s: its bins hold %llu I/Os, N says %llu",
						 name ? name : "?", dirs[d],
						 (unsigned long long)sum,
						 (unsigned long long)n);
					bad = 1;
				}
			}
			continue;
		}
		/*
		 * A run stopped before its end (from outside, or by a
		 * coordinator) covers less time than the others, error or
		 * not. An error that begins with the state ("stopped: ...")
		 * says it once.
		 */
		stopped = state && !strcmp(state, "stopped");
		if (!err)
			err = "";
		if (stopped && !*err) {
			snprintf(why, len, "job %s stopped before its end",
				 name ? name : "?");
			bad = 1;
		} else if (state && *state && !strncmp(err, state, strlen(state)) &&
			   err[strlen(state)] == ':') {
			snprintf(why, len, "job %s %s", name ? name : "?", err);
			bad = 1;
		} else if ((state && !strcmp(state, "failed")) || stopped || *err) {
			snprintf(why, len, "job %s %s%s%s", name ? name : "?",
				 state ? state : "", *err ? ": " : "", err);
			bad = 1;
		}
		for (j = 0; !bad && wls && j < json_object_array_length(wls); j++) {
			json_object *w = json_object_array_get_idx(wls, j);
			const char *wn = json_object_get_string(json_member(w, "name"));

			for (d = 0; !bad && d < 2; d++) {
				json_object *dir = json_member(w, dirs[d]);
				uint64_t n, ios = json_object_get_uint64(json_member(dir, "ios"));
				uint64_t sum = bins_sum(json_member(dir, "lat_ns"), &n);

				/*
				 * No bins at all: latency=0, nothing recorded.
				 * A running job's ios and bins are read apart.
				 */
				if (sum != n || (sum && sum != ios &&
						 !(state && !strcmp(state, "running")))) {
					snprintf(why, len, "%s %s: its bins hold %llu I/Os, N says %llu, ios %llu",
						 wn ? wn : "?", dirs[d],
						 (unsigned long long)sum,
						 (unsigned long long)n,
						 (unsigned long long)ios);
					bad = 1;
				}
			}
		}
	}
	return bad;
}

/*
 * merge FILE...: combine JSON reports of runs over the same interval
 * (several hosts, or several jobs): workloads of the same name add up,
 * histograms are summed bin by bin and the statistics recomputed, rates
 * add (total I/Os over the longest elapsed time). Time series are not
 * merged.
 */
static const char *jstr(json_object *o, const char *key)
{
	const char *v = json_object_get_string(json_member(o, key));

	return v ? v : "";
}

/* The host of report @root (@file): its identity, times and I/Os. */
/* Add a workload's intervals (@iv) to its host's series, interval by interval. */
static int host_series(struct host_result *h, json_object *iv)
{
	static const char *const dirs[] = { "read", "write" };
	size_t k, n = json_object_is_type(iv, json_type_array) ?
		      json_object_array_length(iv) : 0;
	int d;

	if (n > (size_t)h->nr_iv) {
		struct host_interval *a = realloc(h->iv, n * sizeof(*a));

		if (!a)
			return -ENOMEM;
		memset(a + h->nr_iv, 0, (n - h->nr_iv) * sizeof(*a));
		h->iv = a;
		h->nr_iv = n;
	}
	for (k = 0; k < n; k++) {
		json_object *x = json_object_array_get_idx(iv, k);
		struct host_interval *hi = &h->iv[k];

		hi->start_ms = json_object_get_uint64(json_member(x, "start_ms"));
		hi->length_ms = json_object_get_uint64(json_member(x, "length_ms"));
		for (d = 0; d < 2; d++) {
			json_object *dir = json_member(x, dirs[d]);
			uint64_t ios = json_object_get_uint64(json_member(dir, "ios"));

			hi->ios += ios;
			hi->lat_ns_sum += ios * json_object_get_double(json_member(dir,
								"lat_mean_ns"));
		}
	}
	return 0;
}

static int host_row(const char *file, json_object *root, struct job_result *r)
{
	static const char *const dirs[] = { "read", "write" };
	struct host_result *h = realloc(r->hosts, (r->nr_hosts + 1) * sizeof(*h));
	json_object *jobs = json_member(root, "jobs");
	size_t i, j;
	int d;

	if (!h)
		return -ENOMEM;
	r->hosts = h;
	h = &h[r->nr_hosts++];
	memset(h, 0, sizeof(*h));
	h->file = strdup(file);
	snprintf(h->hostname, sizeof(h->hostname), "%s", jstr(root, "hostname"));
	snprintf(h->kernel, sizeof(h->kernel), "%s", jstr(root, "kernel"));
	for (i = 0; jobs && i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		json_object *wls = json_member(job, "workloads");
		uint64_t v;

		v = json_object_get_uint64(json_member(job, "start_at"));
		if (!i)
			h->start_at = v;
		v = json_object_get_uint64(json_member(job, "started_at_ns"));
		if (v && (!h->started_at_ns || v < h->started_at_ns))
			h->started_at_ns = v;
		v = json_object_get_uint64(json_member(job, "ended_at_ns"));
		if (v > h->ended_at_ns)
			h->ended_at_ns = v;
		v = json_object_get_uint64(json_member(job, "elapsed_ms"));
		if (v > h->elapsed_ms)
			h->elapsed_ms = v;
		for (j = 0; wls && j < json_object_array_length(wls); j++) {
			json_object *w = json_object_array_get_idx(wls, j);
			json_object *iv = json_member(w, "intervals");

			for (d = 0; d < 2; d++)
				h->ios += json_object_get_uint64(json_member(json_member(w,
								dirs[d]), "ios"));
			if (!h->interval_ms && iv && json_object_array_length(iv))
				h->interval_ms = json_object_get_uint64(json_member(
					json_object_array_get_idx(iv, 0), "length_ms"));
			if (iv && host_series(h, iv))
				return -ENOMEM;
		}
		/* fio's json+: its own counts. */
		for (d = 0; !wls && d < 2; d++)
			h->ios += json_object_get_uint64(json_member(json_member(job,
							dirs[d]), "total_ios"));
	}
	return 0;
}

/*
 * Whether the hosts' time series line up, interval by interval: every
 * report armed for one start_at (blkgenctl run --start-at) with one
 * interval, and every host started within an interval of it (a host
 * whose start_at had passed when it was armed started at once and
 * counts its intervals from then: its interval k is not the others').
 * 1: they do; 0: no report has a start_at (histograms merge, time series
 * do not); -1: they do not, @why says how.
 */
static int series_aligned(const struct job_result *r, char *why, size_t len)
{
	const struct host_result *a = &r->hosts[0];
	int i, armed = 0;

	for (i = 0; i < r->nr_hosts; i++)
		armed += !!r->hosts[i].start_at;
	if (r->nr_hosts == 1)
		return 1;
	if (!armed)
		return 0;
	for (i = 0; i < r->nr_hosts; i++) {
		const struct host_result *b = &r->hosts[i];
		uint64_t ival_ns = b->interval_ms * 1000000ULL;

		if (b->start_at && b->started_at_ns && ival_ns &&
		    b->started_at_ns >= b->start_at + ival_ns) {
			snprintf(why, len, "%s (%s) started %.3f ms after start_at, an interval (%llu ms) or more: its intervals count from its own start",
				 b->hostname[0] ? b->hostname : "a host", b->file,
				 (b->started_at_ns - b->start_at) / 1e6,
				 (unsigned long long)b->interval_ms);
			return -1;
		}
	}
	for (i = 1; i < r->nr_hosts; i++) {
		const struct host_result *b = &r->hosts[i];

		if (b->start_at != a->start_at) {
			snprintf(why, len, "their start times differ: %s start_at %llu, %s start_at %llu",
				 a->file, (unsigned long long)a->start_at,
				 b->file, (unsigned long long)b->start_at);
			return -1;
		}
		if (b->interval_ms && a->interval_ms &&
		    b->interval_ms != a->interval_ms) {
			snprintf(why, len, "their intervals differ: %s %llu ms, %s %llu ms",
				 a->file, (unsigned long long)a->interval_ms,
				 b->file, (unsigned long long)b->interval_ms);
			return -1;
		}
	}
	return 1;
}

/* The merged run's first I/O and last end: the earliest and the latest host's. */
static void merged_times(struct job_result *r)
{
	int i;

	for (i = 0; i < r->nr_hosts; i++) {
		const struct host_result *h = &r->hosts[i];

		if (h->started_at_ns &&
		    (!r->started_at_ns || h->started_at_ns < r->started_at_ns))
			r->started_at_ns = h->started_at_ns;
		if (h->ended_at_ns > r->ended_at_ns)
			r->ended_at_ns = h->ended_at_ns;
	}
}

/* Drop the time series (they do not line up), the hosts' own too. */
static void drop_series(struct job_result *r)
{
	int i;

	for (i = 0; i < r->nr_wl; i++) {
		free(r->wl[i].iv);
		r->wl[i].iv = NULL;
		r->wl[i].nr_iv = 0;
	}
	for (i = 0; i < r->nr_hosts; i++) {
		free(r->hosts[i].iv);
		r->hosts[i].iv = NULL;
		r->hosts[i].nr_iv = 0;
	}
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output-format", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *usage = "blkgenctl merge FILE.json... [-o normal|json|csv|csv-intervals|fio] [--force]\n"
		"\n"
		"Combine JSON reports (blkgenctl -o json or -o fio, or fio's json+)\n"
		"of runs over the same interval: workloads of the same name add up,\n"
		"histograms summed bin by bin. Curves (curve -o json) of hosts armed\n"
		"for one --start-at, or of one --coordinator, merge point by point\n"
		"(-o json, normal or csv).\n"
		"  -o, --output-format FMT  json (default), normal, csv or fio\n"
		"      --force             merge failed runs, bins that do not hold\n"
		"                          their I/Os, or a file given twice";
	const struct print_ops *ops = &print_json_ops;
	struct job_result r = { 0 };
	int c, i, j, ret = EXIT_OK;
	bool force = false;
	char why[512];

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			force = true;
			break;
		case 'o':
			ops = print_ops_arg(optarg);
			if (!ops)
				return EXIT_USAGE;
			break;
		case 'h':
			printf("usage: %s\n", usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: %s\n", usage);
		return EXIT_USAGE;
	}
	r.name = strdup("merged");
	snprintf(r.state, sizeof(r.state), "merged");
	for (i = optind; i < argc; i++) {
		struct stat a, b;
		json_object *root;

		why[0] = 0;
		for (j = optind; j < i; j++)
			if (!stat(argv[i], &a) && !stat(argv[j], &b) &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				snprintf(why, sizeof(why), "the same file as %s",
					 argv[j]);
		/* Read once: FILE may be a pipe (<(ssh host cat r.json)). */
		root = json_load(argv[i]);
		if (!root) {
			ret = EXIT_FAIL;
			goto out;
		}
		/* Curves (curve -o json) merge point by point. */
		if (i == optind && json_member(root, "points")) {
			ret = merge_curves(argv + optind, argc - optind, root,
					   ops->name, force);
			goto out;
		}
		if (!why[0])
			merge_refusal(root, why, sizeof(why));
		if (why[0] && !force) {
			json_object_put(root);
			fprintf(stderr, "blkgenctl: %s: not merged: %s (--force merges it anyway)\n",
				argv[i], why);
			ret = EXIT_FAIL;
			goto out;
		}
		if (why[0]) {
			fprintf(stderr, "blkgenctl: %s: merged anyway (--force): %s\n",
				argv[i], why);
			/* The output says so too, in its error. */
			if (!r.error[0])
				snprintf(r.error, sizeof(r.error),
					 "merged with --force: %.96s: %.128s", argv[i], why);
		}
		ret = result_add_json(argv[i], root, &r) ||
		      host_row(argv[i], root, &r) ? EXIT_FAIL : EXIT_OK;
		json_object_put(root);
		if (ret)
			goto out;
	}
	why[0] = 0;
	switch (series_aligned(&r, why, sizeof(why))) {
	case -1:
		if (!force) {
			fprintf(stderr, "blkgenctl: not merged: %s (--force merges them without their time series)\n",
				why);
			ret = EXIT_FAIL;
			goto out;
		}
		fprintf(stderr, "blkgenctl: merged anyway (--force), without time series: %s\n",
			why);
		if (!r.error[0])
			snprintf(r.error, sizeof(r.error),
				 "merged with --force: %.230s", why);
		drop_series(&r);
		break;
	case 0:
		drop_series(&r);
		break;
	default:
		/* One start_at for all: the merged run's, its series counts from it. */
		r.start_at = r.hosts[0].start_at;
		break;
	}
	merged_times(&r);
	ops->job(&r);
out:
	result_free(&r);
	return ret;
}
