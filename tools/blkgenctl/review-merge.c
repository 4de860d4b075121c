// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl review --merge -O OUT DIR...: one review of the reviews many
 * hosts ran together (review --coordinator, each into its own DIR) on one
 * array. Each point is the hosts' sum (I/Os, IOPS, bandwidth, targets),
 * its latencies the hosts' histograms merged (the bins each point keeps),
 * so a percentile is the array's, not an average of the hosts'. OUT gets
 * plan.json, suite.suite, precondition.json and points/ as a review's DIR
 * has them, then the report made from them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "review.h"

static const char *sget(json_object *o, const char *k)
{
	const char *s = json_object_get_string(json_member(o, k));

	return s ? s : "";
}

/* The hosts' plans: the same review (suite, points, settings), or why not. */
static int plans_agree(json_object **plan, char **dirs, int n, char *why,
		       size_t len)
{
	static const char *const same[] = { "suite", "precondition", "region",
					     "point_secs", "points", "quick" };
	unsigned int k;
	int i;

	for (i = 1; i < n; i++)
		for (k = 0; k < sizeof(same) / sizeof(same[0]); k++) {
			const char *a = json_object_to_json_string(json_member(plan[0], same[k]));
			const char *b = json_object_to_json_string(json_member(plan[i], same[k]));

			if (strcmp(a, b)) {
				snprintf(why, len, "%s and %s are not one review: %s %s, %s",
					 dirs[0], dirs[i], same[k], a, b);
				return -1;
			}
		}
	return 0;
}

static const char *host_of(json_object *plan, const char *dir)
{
	return *sget(plan, "host") ? sget(plan, "host") : dir;
}

/* The merged plan: the first's, its device the hosts' devices. */
static json_object *merged_plan(json_object **plan, char **dirs, int n)
{
	json_object *o = NULL, *d = json_object_new_object();
	json_object *hosts = json_object_new_array();
	char model[1024] = "", *p = model, path[64];
	uint64_t bytes = 0;
	int i;

	json_object_deep_copy(plan[0], &o, NULL);
	json_object_object_del(o, "host");	/* every host's in "hosts" */
	for (i = 0; i < n; i++) {
		json_object *dev = json_member(plan[i], "device"), *h = json_object_new_object();

		json_object_object_add(h, "host", json_object_new_string(host_of(plan[i], dirs[i])));
		json_object_object_add(h, "dir", json_object_new_string(dirs[i]));
		json_object_object_add(h, "device", json_object_get(dev));
		json_object_object_add(h, "kernel", json_object_new_string(sget(plan[i], "kernel")));
		json_object_array_add(hosts, h);
		bytes += json_object_get_uint64(json_member(dev, "capacity_bytes"));
		if (p < model + sizeof(model) - 1) {
			snprintf(p, model + sizeof(model) - p, "%s%s: %s", i ? "; " : "",
				 host_of(plan[i], dirs[i]),
				 *sget(dev, "model") ? sget(dev, "model") : sget(dev, "path"));
			p += strlen(p);
		}
	}
	snprintf(path, sizeof(path), "%d hosts", n);
	json_object_object_add(d, "path", json_object_new_string(path));
	json_object_object_add(d, "model", json_object_new_string(model));
	json_object_object_add(d, "serial", json_object_new_string(""));
	json_object_object_add(d, "firmware", json_object_new_string(""));
	json_object_object_add(d, "capacity_bytes", json_object_new_uint64(bytes));
	json_object_object_add(o, "device", d);
	json_object_object_add(o, "hosts", hosts);
	return o;
}

static uint64_t uget(json_object *o, const char *k)
{
	return json_object_get_uint64(json_member(o, k));
}

static double dbl(json_object *o, const char *k)
{
	return json_object_get_double(json_member(o, k));
}

/*
 * The hosts' latency objects @k of direction @dir ("" the whole) merged:
 * a new object, NULL when one host has none (every host has lat_ns; a
 * run without service times has no clat_ns), or -1 in *@bad when one has
 * no bins (a point of a blkgenctl before they were kept).
 */
static json_object *merge_lat(json_object **pt, int n, const char *dir,
			      const char *k, int *bad)
{
	struct blkgen_lat_hist *h = malloc(sizeof(*h));
	json_object *o;
	int i;

	if (!h)
		return NULL;
	blkgen_hist_reset(h);
	for (i = 0; i < n; i++) {
		json_object *lat = json_member(*dir ? json_member(pt[i], dir) : pt[i], k);

		if (!lat) {
			free(h);
			return NULL;
		}
		if (json_lat_add(lat, h)) {
			*bad = -1;
			free(h);
			return NULL;
		}
	}
	o = review_lat_json(h);
	free(h);
	return o;
}

static void add_rates(json_object *dst, json_object **pt, int n, const char *dir)
{
	uint64_t ios = 0;
	double iops = 0, bw = 0;
	int i;

	for (i = 0; i < n; i++) {
		json_object *o = *dir ? json_member(pt[i], dir) : pt[i];

		ios += uget(o, "ios");
		iops += dbl(o, "iops");
		bw += dbl(o, "bw_bytes");
	}
	json_object_object_add(dst, "ios", json_object_new_uint64(ios));
	json_object_object_add(dst, "iops", json_object_new_double(iops));
	json_object_object_add(dst, "bw_bytes", json_object_new_double(bw));
}

/* The hosts' points @pt (one each) as one; NULL with why in @why. */
static json_object *merge_point(json_object **pt, json_object **plan,
				char **dirs, int n, char *why, size_t len)
{
	static const char *const names[] = { "read", "write" };
	json_object *o = json_object_new_object(), *hosts = json_object_new_array();
	json_object *lat, *slat;
	double half[2] = { 0, 0 }, hios[2] = { 0, 0 };
	uint64_t target = 0, lag = 0, ms = 0, depth = 0, desktops = 0;
	uint64_t at = uget(pt[0], "start_at"), first = UINT64_MAX, last = 0;
	char error[1024] = "";
	const char *state = "done";
	bool halves = true;
	int i, d, bad = 0;

	for (i = 0; i < n; i++) {
		json_object *hv = json_member(pt[i], "lat_halves_ns"), *h = json_object_new_object();
		uint64_t ios = uget(pt[i], "ios");

		target += uget(pt[i], "target_iops");
		lag = uget(pt[i], "max_lag_ns") > lag ? uget(pt[i], "max_lag_ns") : lag;
		ms = uget(pt[i], "elapsed_ms") > ms ? uget(pt[i], "elapsed_ms") : ms;
		depth += uget(pt[i], "depth");
		desktops += uget(pt[i], "desktops");
		if (uget(pt[i], "start_at") != at)
			at = 0;
		if (uget(pt[i], "started_at_ns")) {
			first = uget(pt[i], "started_at_ns") < first ? uget(pt[i], "started_at_ns") : first;
			last = uget(pt[i], "started_at_ns") > last ? uget(pt[i], "started_at_ns") : last;
		} else {
			last = UINT64_MAX;	/* a host's first I/O unknown */
		}
		if (hv && json_object_array_length(hv) == 2) {
			for (d = 0; d < 2; d++) {
				half[d] += json_object_get_double(json_object_array_get_idx(hv, d)) * ios;
				hios[d] += ios;
			}
		} else {
			halves = false;
		}
		if (strcmp(sget(pt[i], "state"), "done") && !strcmp(state, "done"))
			state = sget(pt[i], "state");
		if (*sget(pt[i], "error")) {
			size_t l = strlen(error);

			snprintf(error + l, sizeof(error) - l, "%s%s: %s", l ? "; " : "",
				 host_of(plan[i], dirs[i]), sget(pt[i], "error"));
		}
		json_object_object_add(h, "host", json_object_new_string(host_of(plan[i], dirs[i])));
		json_object_object_add(h, "iops", json_object_new_double(dbl(pt[i], "iops")));
		json_object_object_add(h, "lat_mean_ns",
				       json_object_new_double(dbl(json_member(pt[i], "lat_ns"), "mean")));
		json_object_object_add(h, "state", json_object_new_string(sget(pt[i], "state")));
		if (uget(pt[i], "started_at_ns"))
			json_object_object_add(h, "started_at_ns",
					       json_object_new_uint64(uget(pt[i], "started_at_ns")));
		json_object_array_add(hosts, h);
	}
	json_object_object_add(o, "target_pct", json_object_new_double(dbl(pt[0], "target_pct")));
	json_object_object_add(o, "target_iops", json_object_new_uint64(target));
	for (d = 0; d < 2; d++) {
		json_object *dir = json_object_new_object();

		add_rates(dir, pt, n, names[d]);
		lat = merge_lat(pt, n, names[d], "lat_ns", &bad);
		slat = merge_lat(pt, n, names[d], "clat_ns", &bad);
		if (lat)
			json_object_object_add(dir, "lat_ns", lat);
		if (slat)
			json_object_object_add(dir, "clat_ns", slat);
		json_object_object_add(o, names[d], dir);
	}
	add_rates(o, pt, n, "");
	lat = merge_lat(pt, n, "", "lat_ns", &bad);
	slat = merge_lat(pt, n, "", "clat_ns", &bad);
	if (bad || !lat) {
		snprintf(why, len, "no latency bins in a host's point (a review of a blkgenctl before they were kept): run it again");
		json_object_put(lat);
		json_object_put(slat);
		json_object_put(hosts);
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "lat_ns", lat);
	if (slat)
		json_object_object_add(o, "clat_ns", slat);
	if (halves && hios[0]) {
		json_object *a = json_object_new_array();

		for (d = 0; d < 2; d++)
			json_object_array_add(a, json_object_new_double(half[d] / hios[d]));
		json_object_object_add(o, "lat_halves_ns", a);
	}
	json_object_object_add(o, "max_lag_ns", json_object_new_uint64(lag));
	if (depth)
		json_object_object_add(o, "depth", json_object_new_uint64(depth));
	if (desktops)
		json_object_object_add(o, "desktops", json_object_new_uint64(desktops));
	if (json_member(pt[0], "replay_speed_pct"))
		json_object_object_add(o, "replay_speed_pct",
				       json_object_get(json_member(pt[0], "replay_speed_pct")));
	json_object_object_add(o, "elapsed_ms", json_object_new_uint64(ms));
	/*
	 * One instant for every host (a coordinator's), and how far apart
	 * their first I/Os came: the lockstep's witness.
	 */
	if (at)
		json_object_object_add(o, "start_at", json_object_new_uint64(at));
	if (last != UINT64_MAX && first != UINT64_MAX) {
		json_object_object_add(o, "started_at_ns", json_object_new_uint64(first));
		json_object_object_add(o, "start_spread_ns", json_object_new_uint64(last - first));
	}
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "error", json_object_new_string(error));
	json_object_object_add(o, "hosts", hosts);
	return o;
}

/* A merge made again: OUT's points of @wl from before, gone. */
static void clear_points(const char *out, const char *wl)
{
	char file[4400];
	struct dirent *e;
	DIR *dp;

	snprintf(file, sizeof(file), "%s/points/%s", out, wl);
	dp = opendir(file);
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".json"))
			continue;
		snprintf(file, sizeof(file), "%s/points/%s/%s", out, wl, e->d_name);
		unlink(file);
	}
	closedir(dp);
}

/* DIR's points of workload @wl merged into OUT's; 0, or EXIT_FAIL said. */
static int merge_workload(const char *out, const char *wl, json_object **plan,
			  char **dirs, int n)
{
	char file[4400], why[512];
	json_object *pt[256], *m;
	struct dirent *e;
	int i, ret = EXIT_OK;
	DIR *dp;

	clear_points(out, wl);
	snprintf(file, sizeof(file), "%s/points/%s", dirs[0], wl);
	dp = opendir(file);
	if (!dp)
		return EXIT_OK;	/* not run yet: the report says so */
	snprintf(file, sizeof(file), "%s/points/%s", out, wl);
	if (mkdirs(file)) {
		fprintf(stderr, "blkgenctl: review --merge: mkdir %s: %s\n", file, strerror(errno));
		closedir(dp);
		return EXIT_FAIL;
	}
	while (!ret && (e = readdir(dp))) {
		size_t l = strlen(e->d_name);
		int got = 0;

		if (l < 6 || strcmp(e->d_name + l - 5, ".json"))
			continue;
		for (i = 0; i < n; i++) {
			snprintf(file, sizeof(file), "%s/points/%s/%s", dirs[i], wl, e->d_name);
			pt[i] = json_object_from_file(file);
			if (!pt[i])
				break;
			got++;
		}
		if (got < n) {
			/* one host has not got it: the merged review has not either */
			if (access(file, F_OK))
				fprintf(stderr, "review --merge: %s has no %s/%s: left out\n",
					dirs[i], wl, e->d_name);
			else
				fprintf(stderr, "review --merge: %s: cannot read it (%s): left out\n",
					file, json_util_get_last_err());
		} else {
			m = merge_point(pt, plan, dirs, n, why, sizeof(why));
			snprintf(file, sizeof(file), "%s/points/%s/%s", out, wl, e->d_name);
			if (!m) {
				fprintf(stderr, "blkgenctl: review --merge: %s/points/%s/%s: %s\n",
					dirs[0], wl, e->d_name, why);
				ret = EXIT_FAIL;
			} else if (review_save_json(file, m)) {
				fprintf(stderr, "blkgenctl: review --merge: cannot write %s: %s\n",
					file, strerror(errno));
				ret = EXIT_FAIL;
			}
			json_object_put(m);
		}
		for (i = 0; i < got; i++)
			json_object_put(pt[i]);
	}
	closedir(dp);
	return ret;
}

/* The preconditioning: the first host's, and each host's beside it. */
static json_object *merged_precondition(json_object **plan, char **dirs, int n)
{
	json_object *o = NULL, *first, *hosts = json_object_new_array();
	char file[4200];
	int i;

	for (i = 0; i < n; i++) {
		json_object *h = json_object_new_object();

		snprintf(file, sizeof(file), "%s/precondition.json", dirs[i]);
		json_object_object_add(h, "host", json_object_new_string(host_of(plan[i], dirs[i])));
		json_object_object_add(h, "precondition", json_object_from_file(file));
		json_object_array_add(hosts, h);
	}
	first = json_member(json_object_array_get_idx(hosts, 0), "precondition");
	if (!first) {
		json_object_put(hosts);
		return NULL;
	}
	json_object_deep_copy(first, &o, NULL);
	json_object_object_add(o, "hosts", hosts);
	return o;
}

int review_merge(const char *out, char **dirs, int n, bool quiet)
{
	json_object *plan[256] = { 0 }, *o;
	char file[4200], why[1024], from[4200];
	struct suite s;
	int i, ret = EXIT_FAIL;

	if (n > 256) {
		fprintf(stderr, "blkgenctl: review --merge: at most 256 hosts' reviews\n");
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/plan.json", dirs[i]);
		plan[i] = json_object_from_file(file);
		if (!plan[i]) {
			fprintf(stderr, "blkgenctl: review --merge: %s: no review there (%s)\n",
				dirs[i], json_util_get_last_err());
			goto out;
		}
		if (!strcmp(dirs[i], out)) {
			fprintf(stderr, "blkgenctl: review --merge: -O %s is one of the reviews merged: give another\n",
				out);
			goto out;
		}
	}
	if (plans_agree(plan, dirs, n, why, sizeof(why))) {
		fprintf(stderr, "blkgenctl: review --merge: %s\n", why);
		goto out;
	}
	/* OUT: new, or a merge made before (made again) */
	snprintf(file, sizeof(file), "%s/plan.json", out);
	o = access(file, F_OK) ? NULL : json_object_from_file(file);
	if (!access(file, F_OK) && !json_member(o, "hosts")) {
		fprintf(stderr, "blkgenctl: review --merge: %s holds a review that is not a merge: give another -O\n",
			out);
		json_object_put(o);
		goto out;
	}
	json_object_put(o);
	snprintf(from, sizeof(from), "%s/suite.suite", dirs[0]);
	if (suite_load(!access(from, F_OK) ? from : sget(plan[0], "suite"), &s, why,
		       sizeof(why))) {
		fprintf(stderr, "blkgenctl: review --merge: %s\n", why);
		goto out;
	}
	if (mkdirs(out)) {
		fprintf(stderr, "blkgenctl: review --merge: mkdir %s: %s\n", out, strerror(errno));
		goto out_suite;
	}
	snprintf(file, sizeof(file), "%s/suite.suite", out);
	if (review_copy_file(s.file, file)) {
		fprintf(stderr, "blkgenctl: review --merge: cannot write %s: %s\n", file, strerror(errno));
		goto out_suite;
	}
	o = merged_precondition(plan, dirs, n);
	snprintf(file, sizeof(file), "%s/precondition.json", out);
	unlink(file);	/* a merge's of before */
	if (o && review_save_json(file, o)) {
		fprintf(stderr, "blkgenctl: review --merge: cannot write %s: %s\n", file, strerror(errno));
		json_object_put(o);
		goto out_suite;
	}
	json_object_put(o);
	for (i = 0; i < s.n; i++)
		if (merge_workload(out, s.e[i].name, plan, dirs, n))
			goto out_suite;
	o = merged_plan(plan, dirs, n);
	snprintf(file, sizeof(file), "%s/plan.json", out);
	if (review_save_json(file, o)) {
		fprintf(stderr, "blkgenctl: review --merge: cannot write %s: %s\n", file, strerror(errno));
		json_object_put(o);
		goto out_suite;
	}
	json_object_put(o);
	if (!quiet)
		fprintf(stderr, "review --merge: %d hosts' reviews in %s\n", n, out);
	ret = review_report(out, quiet);
out_suite:
	suite_free(&s);
out:
	for (i = 0; i < n; i++)
		json_object_put(plan[i]);
	return ret;
}
