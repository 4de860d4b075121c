// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - read one job's results from /sys/kernel/blkgen/JOB.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkgenctl.h"

/**
 * hist_from_uapi() - Check and convert a struct blkgen_hist file image.
 * @buf: the bytes of WL/{read,write}_lat_hist
 * @size: their number
 * @h: the histogram
 * Return: 0, or -EINVAL if the image is not a version 1 histogram.
 * count is taken as the sum of the bins (equal to the header's once the
 * run is over).
 */
int hist_from_uapi(const void *buf, size_t size, struct blkgen_lat_hist *h)
{
	const struct blkgen_hist *u = buf;
	uint64_t sum = 0;
	unsigned int i;

	if (size < sizeof(*u) || le32toh(u->magic) != BLKGEN_HIST_MAGIC ||
	    le16toh(u->version) != BLKGEN_HIST_VERSION ||
	    le16toh(u->sub_bits) != BLKGEN_HIST_SUB_BITS ||
	    le32toh(u->nr_bins) != BLKGEN_HIST_NR_BINS ||
	    size != sizeof(*u) + BLKGEN_HIST_NR_BINS * sizeof(__u64))
		return -EINVAL;
	blkgen_hist_reset(h);
	for (i = 0; i < BLKGEN_HIST_NR_BINS; i++) {
		h->bins[i] = le64toh(u->bins[i]);
		sum += h->bins[i];
	}
	/*
	 * sysfs hands the file out in page-sized reads, each from a fresh
	 * merge: during a run the header and the bins may come from slightly
	 * different moments. The bins are the histogram; count follows them.
	 */
	h->count = sum;
	h->sum_ns = le64toh(u->sum_ns);
	h->min_ns = h->count ? le64toh(u->min_ns) : ~0ULL;
	h->max_ns = le64toh(u->max_ns);
	return 0;
}

static int load_hist(const char *dir, const char *file,
		     struct blkgen_lat_hist *h)
{
	char path[4096];
	size_t size;
	void *buf;
	int ret;

	if (cfs_path(path, sizeof(path), dir, file))
		return -ENAMETOOLONG;
	buf = cfs_read_file(path, &size);
	if (!buf)
		return -errno;
	ret = hist_from_uapi(buf, size, h);
	free(buf);
	if (ret)
		fprintf(stderr, "blkgenctl: %s: not a blkgen histogram\n", path);
	return ret;
}

const char *const zone_names[ZC_NR] = {
	"zones_opened", "zones_finished", "zone_resets", "zone_appends",
	"zone_reads_beyond_wp",
};

/* WL/intervals of workload directory @dir into @w (host order). */
static int load_intervals(const char *dir, struct wl_result *w)
{
	char path[4096];
	size_t size, i;

	if (cfs_path(path, sizeof(path), dir, "intervals"))
		return -ENAMETOOLONG;
	w->iv = cfs_read_file(path, &size);
	if (!w->iv)
		return -errno;
	w->nr_iv = size / sizeof(*w->iv);
	for (i = 0; i < w->nr_iv; i++) {	/* the file is little-endian */
		struct blkgen_interval *iv = &w->iv[i];
		int d;

		iv->start_ms = le64toh(iv->start_ms);
		iv->length_ms = le32toh(iv->length_ms);
		for (d = 0; d < 2; d++) {
			iv->ios[d] = le64toh(iv->ios[d]);
			iv->bytes[d] = le64toh(iv->bytes[d]);
			iv->lat_sum_ns[d] = le64toh(iv->lat_sum_ns[d]);
			iv->lat_max_ns[d] = le64toh(iv->lat_max_ns[d]);
		}
		iv->errors = le64toh(iv->errors);
	}
	return 0;
}

/*
 * A zoned workload's results: on a zoned device (or, from a file, with
 * zone counters), or any zone counter set.
 */
bool wl_zoned(const struct wl_result *w)
{
	int i;

	if (w->zoned)
		return true;
	for (i = 0; i < ZC_NR; i++)
		if (w->zone[i])
			return true;
	return false;
}

static int load_u64(const char *dir, const char *file, uint64_t *v)
{
	char path[4096];

	if (cfs_path(path, sizeof(path), dir, file))
		return -ENAMETOOLONG;
	return cfs_read_u64(path, v);
}

static int load_wl(const char *jobdir, struct wl_result *w)
{
	char dir[4096], path[4096];
	size_t size, i;
	int ret;

	if (cfs_path(dir, sizeof(dir), jobdir, w->name))
		return -ENAMETOOLONG;
	ret = load_u64(dir, "read_ios", &w->dir[0].ios) ?:
	      load_u64(dir, "write_ios", &w->dir[1].ios) ?:
	      load_u64(dir, "read_bytes", &w->dir[0].bytes) ?:
	      load_u64(dir, "write_bytes", &w->dir[1].bytes) ?:
	      load_u64(dir, "errors", &w->errors) ?:
	      load_u64(dir, "late_ios", &w->late_ios) ?:
	      load_u64(dir, "max_lag_ns", &w->max_lag_ns) ?:
	      load_hist(dir, "read_lat_hist", &w->dir[0].lat) ?:
	      load_hist(dir, "write_lat_hist", &w->dir[1].lat);
	if (ret)
		return ret;
	/* Service times; absent from modules before them. */
	for (i = 0; i < 2; i++) {
		if (cfs_path(path, sizeof(path), dir,
			     i ? "write_svc_hist" : "read_svc_hist") ||
		    access(path, R_OK) ||
		    load_hist(dir, i ? "write_svc_hist" : "read_svc_hist",
			      &w->dir[i].svc)) {
			blkgen_hist_reset(&w->dir[i].svc);
			w->dir[i].no_svc = true;
		}
	}
	/* Verification results; absent from modules before verify. */
	load_u64(dir, "verify_checked", &w->verify_checked);
	load_u64(dir, "verify_errors", &w->verify_errors);
	load_u64(dir, "verify_unflushed", &w->verify_unflushed);
	load_u64(dir, "flushes", &w->flushes);
	/* Zone counters; absent from modules before zoned workloads. */
	for (i = 0; i < ZC_NR; i++)
		load_u64(dir, zone_names[i], &w->zone[i]);
	/* The clock its I/Os were stamped with; absent from older modules. */
	if (!cfs_path(path, sizeof(path), dir, "clock"))
		cfs_read_text(path, w->clock, sizeof(w->clock));
	if (!cfs_path(path, sizeof(path), dir, "verify_log")) {
		w->verify_log = cfs_read_file(path, &size);
		if (w->verify_log && !w->verify_log[0]) {
			free(w->verify_log);
			w->verify_log = NULL;
		}
	}
	return load_intervals(dir, w);
}

/* The job's workloads (sysfs directory @dir) into @r, by name: their number or -errno. */
static int list_workloads(const char *dir, struct job_result *r)
{
	char **names;
	int i, n;

	n = cfs_list(dir, &names);
	if (n < 0)
		return n;
	r->wl = calloc(n ? n : 1, sizeof(*r->wl));
	if (!r->wl) {
		cfs_free_list(names, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		r->wl[i].name = names[i];
		names[i] = NULL;
	}
	r->nr_wl = n;
	cfs_free_list(names, n);
	return n;
}

/**
 * result_load() - Read a job's state and every workload's results.
 * @job: job name
 * @r: filled; release with result_free()
 * Return: 0 or -errno (-ENOENT: no such job).
 */
int result_load(const char *job, struct job_result *r)
{
	char dir[4096], cdir[4096] = "", path[4096], *dev;
	int i, n, ret;

	memset(r, 0, sizeof(*r));
	r->name = strdup(job);
	if (strchr(job, '/') || cfs_path(dir, sizeof(dir), sfs_root(), job) ||
	    cfs_path(path, sizeof(path), dir, "state"))
		return -ENOENT;
	ret = cfs_read_text(path, r->state, sizeof(r->state));
	if (ret)
		return ret;
	cfs_path(path, sizeof(path), dir, "error");
	ret = cfs_read_text(path, r->error, sizeof(r->error)) ?:
	      load_u64(dir, "elapsed_ms", &r->elapsed_ms);
	if (ret)
		return ret;
	/* A synchronized start's times (absent in an older module: 0). */
	load_u64(dir, "started_at_ns", &r->started_at_ns);
	load_u64(dir, "ended_at_ns", &r->ended_at_ns);
	if (cfs_path(cdir, sizeof(cdir), cfs_root(), job))
		cdir[0] = 0;
	else if (!cfs_path(path, sizeof(path), cdir, "start_at"))
		cfs_read_u64(path, &r->start_at);
	n = list_workloads(dir, r);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		ret = load_wl(dir, &r->wl[i]);
		if (ret)
			return ret;
		/* The device, for the report's identity (configfs). */
		if (cdir[0] && asprintf(&dev, "%s/workloads/%s/device", cdir,
					r->wl[i].name) > 0) {
			cfs_read_text(dev, r->wl[i].device,
				      sizeof(r->wl[i].device));
			free(dev);
			r->wl[i].zoned = cfs_dev_is_zoned(r->wl[i].device);
		}
	}
	return 0;
}

/**
 * result_load_intervals() - Read each workload's time series alone (the
 * intervals finished so far, during a run): cheap enough for each second.
 * @job: job name
 * @r: its workloads' names and series; release with result_free()
 * Return: 0 or -errno.
 */
int result_load_intervals(const char *job, struct job_result *r)
{
	char dir[4096], wdir[4096];
	int i, n, ret = 0;

	memset(r, 0, sizeof(*r));
	if (strchr(job, '/') || cfs_path(dir, sizeof(dir), sfs_root(), job))
		return -ENOENT;
	n = list_workloads(dir, r);
	if (n < 0)
		return n;
	for (i = 0; i < n && !ret; i++)
		ret = cfs_path(wdir, sizeof(wdir), dir, r->wl[i].name) ?:
		      load_intervals(wdir, &r->wl[i]);
	return ret;
}

void result_free(struct job_result *r)
{
	int i;

	for (i = 0; i < r->nr_wl; i++) {
		free(r->wl[i].name);
		free(r->wl[i].iv);
		free(r->wl[i].verify_log);
	}
	free(r->wl);
	free(r->name);
	for (i = 0; i < r->nr_hosts; i++) {
		free(r->hosts[i].file);
		free(r->hosts[i].iv);
	}
	free(r->hosts);
	memset(r, 0, sizeof(*r));
}
