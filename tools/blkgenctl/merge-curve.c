// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - merge of curves (blkgenctl curve -o json) of several hosts,
 * armed for one start_at (curve --start-at: every host runs point k at
 * the same instant; or curve --coordinator: every host's point k started
 * at the one instant the coordinator gave it): point by point, the targets and achieved rates
 * summed and the latency histograms summed bin by bin (exact), a row per
 * host and each point's start spread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "blkgenctl.h"

#define MERGE_CURVE_MAX_POINTS 64

struct merged_point {
	double pct;
	uint64_t target;
	double iops, bw;
	struct blkgen_lat_hist h;
	uint64_t start_at;	/* the instant it was armed for (0: none) */
	const char *at_file;	/* the first file that said it */
	uint64_t other_at;	/* another file's other instant (0: none) */
	const char *other_file;
	uint64_t first, last;	/* the hosts' earliest and latest first I/O */
	char state[32];
};

static const char *str_of(json_object *o, const char *key)
{
	const char *s = json_object_get_string(json_member(o, key));

	return s ? s : "";
}

/*
 * What keeps @b's curve (of @fb) from merging with @a's (of @fa), in
 * @why; 0 when they line up: as many points, the same percents, one
 * start_at and slot (each point's own instant is checked over all the
 * files as they are added: curve_add).
 */
static int curve_refusal(json_object *a, const char *fa, json_object *b,
			 const char *fb, char *why, size_t len)
{
	json_object *pa = json_member(a, "points"), *pb = json_member(b, "points");
	size_t k, n;

	if (!pb || !json_object_is_type(pb, json_type_array)) {
		snprintf(why, len, "%s is not a curve (blkgenctl curve -o json): a curve and a report do not merge",
			 fb);
		return -1;
	}
	n = json_object_array_length(pa);
	if (json_object_array_length(pb) != n) {
		snprintf(why, len, "their curves have other points: %s %zu, %s %zu",
			 fa, n, fb, json_object_array_length(pb));
		return -1;
	}
	for (k = 0; k < n; k++) {
		double x = json_object_get_double(json_member(json_object_array_get_idx(pa, k), "target_pct"));
		double y = json_object_get_double(json_member(json_object_array_get_idx(pb, k), "target_pct"));

		if (x != y) {
			snprintf(why, len, "their curves have other points: point %zu is %g%% in %s, %g%% in %s",
				 k + 1, x, fa, y, fb);
			return -1;
		}
	}
	if (json_object_get_uint64(json_member(a, "start_at")) !=
	    json_object_get_uint64(json_member(b, "start_at")) ||
	    json_object_get_uint64(json_member(a, "slot_ms")) !=
	    json_object_get_uint64(json_member(b, "slot_ms"))) {
		snprintf(why, len, "their points ran at other times: %s start_at %" PRIu64 " slot %" PRIu64 " ms, %s start_at %" PRIu64 " slot %" PRIu64 " ms (curve --start-at with one TIME for all, or --coordinator with one coordinator)",
			 fa, json_object_get_uint64(json_member(a, "start_at")),
			 json_object_get_uint64(json_member(a, "slot_ms")),
			 fb, json_object_get_uint64(json_member(b, "start_at")),
			 json_object_get_uint64(json_member(b, "slot_ms")));
		return -1;
	}
	if (!json_object_get_uint64(json_member(a, "start_at"))) {
		snprintf(why, len, "%s and %s were not armed for one start_at: their points ran at other times (curve --start-at or --coordinator)",
			 fa, fb);
		return -1;
	}
	return 0;
}

/* Add @root's curve (of @file) into @pts. */
static int curve_add(json_object *root, const char *file,
		     struct merged_point *pts, size_t n)
{
	json_object *arr = json_member(root, "points");
	size_t k;

	for (k = 0; k < n; k++) {
		json_object *p = json_object_array_get_idx(arr, k);
		struct merged_point *m = &pts[k];
		uint64_t s = json_object_get_uint64(json_member(p, "started_at_ns"));
		uint64_t at;
		const char *st = str_of(p, "state");

		m->pct = json_object_get_double(json_member(p, "target_pct"));
		m->target += json_object_get_uint64(json_member(p, "target_iops"));
		m->iops += json_object_get_double(json_member(p, "iops"));
		m->bw += json_object_get_double(json_member(p, "bw_bytes"));
		if (json_lat_add(json_member(p, "lat_ns"), &m->h)) {
			fprintf(stderr, "blkgenctl: %s: point %zu has no latency bins (a curve of an older blkgenctl)\n",
				file, k + 1);
			return -EINVAL;
		}
		at = json_object_get_uint64(json_member(p, "start_at"));
		if (at && !m->start_at) {
			m->start_at = at;
			m->at_file = file;
		} else if (at && at != m->start_at && !m->other_at) {
			m->other_at = at;
			m->other_file = file;
		}
		if (s && (!m->first || s < m->first))
			m->first = s;
		if (s > m->last)
			m->last = s;
		if (!m->state[0] || !strcmp(m->state, "done"))
			snprintf(m->state, sizeof(m->state), "%s", st);
	}
	return 0;
}

static void print_points_json(json_object **roots, char *const *files, int nr,
			      const struct merged_point *pts, size_t n,
			      uint64_t max)
{
	json_object *root = json_object_new_object();
	json_object *hosts = json_object_new_array();
	json_object *arr = json_object_new_array();
	size_t k;
	int i;

	json_object_object_add(root, "blkgenctl_version",
			       json_object_new_string(BLKGENCTL_VERSION));
	for (i = 0; i < nr; i++) {
		json_object *h = json_object_new_object();

		json_object_object_add(h, "file", json_object_new_string(files[i]));
		json_object_object_add(h, "hostname",
				       json_object_new_string(str_of(roots[i], "hostname")));
		json_object_object_add(h, "kernel",
				       json_object_new_string(str_of(roots[i], "kernel")));
		json_object_object_add(h, "max_iops",
				       json_object_new_uint64(json_object_get_uint64(json_member(roots[i], "max_iops"))));
		json_object_array_add(hosts, h);
	}
	json_object_object_add(root, "hosts", hosts);
	json_object_object_add(root, "max_iops", json_object_new_uint64(max));
	json_object_object_add(root, "start_at",
			       json_object_new_uint64(json_object_get_uint64(json_member(roots[0], "start_at"))));
	json_object_object_add(root, "slot_ms",
			       json_object_new_uint64(json_object_get_uint64(json_member(roots[0], "slot_ms"))));
	for (k = 0; k < n; k++) {
		const struct merged_point *m = &pts[k];
		json_object *pt = json_object_new_object();
		json_object *lat = print_json_lat(&m->h);

		json_object_object_add(lat, "p99",
				       json_object_new_double(report_percentile(&m->h, 99)));
		json_object_object_add(pt, "target_pct", json_object_new_double(m->pct));
		json_object_object_add(pt, "target_iops", json_object_new_uint64(m->target));
		json_object_object_add(pt, "iops", json_object_new_double(m->iops));
		json_object_object_add(pt, "bw_bytes", json_object_new_double(m->bw));
		json_object_object_add(pt, "lat_ns", lat);
		json_object_object_add(pt, "state", json_object_new_string(m->state));
		/* (Not when the hosts' instants differ: --force.) */
		if (m->start_at && !m->other_at)
			json_object_object_add(pt, "start_at", json_object_new_uint64(m->start_at));
		json_object_object_add(pt, "started_at_ns", json_object_new_uint64(m->first));
		json_object_object_add(pt, "start_spread_ns",
				       json_object_new_uint64(m->last - m->first));
		json_object_array_add(arr, pt);
	}
	json_object_object_add(root, "points", arr);
	print_json_doc(root);
}

static void print_points(const char *fmt, json_object **roots, int nr,
			 const struct merged_point *pts, size_t n, uint64_t max)
{
	size_t k;
	int i;

	if (!strcmp(fmt, "csv")) {
		printf("point,target_pct,target_iops,iops,mb_per_s,lat_mean_us,lat_p99_us,lat_max_us,state,start_spread_us\n");
		for (k = 0; k < n; k++)
			printf("%zu,%g,%" PRIu64 ",%.1f,%.3f,%.2f,%.2f,%.2f,%s,%.1f\n",
			       k, pts[k].pct, pts[k].target, pts[k].iops,
			       pts[k].bw / 1e6, report_mean(&pts[k].h) / 1e3,
			       report_percentile(&pts[k].h, 99) / 1e3,
			       pts[k].h.max_ns / 1e3, pts[k].state,
			       (pts[k].last - pts[k].first) / 1e3);
		return;
	}
	printf("curve of %d hosts: maximum %" PRIu64 " IOPS (", nr, max);
	for (i = 0; i < nr; i++)
		printf("%s%s %" PRIu64, i ? ", " : "", str_of(roots[i], "hostname"),
		       json_object_get_uint64(json_member(roots[i], "max_iops")));
	printf(")\n%8s %12s %12s %10s %12s %12s %12s %12s\n", "target",
	       "target IOPS", "IOPS", "MB/s", "mean (us)", "p99 (us)",
	       "max (us)", "spread (us)");
	for (k = 0; k < n; k++)
		printf("%7g%% %12" PRIu64 " %12.1f %10.2f %12.2f %12.2f %12.2f %12.1f%s\n",
		       pts[k].pct, pts[k].target, pts[k].iops, pts[k].bw / 1e6,
		       report_mean(&pts[k].h) / 1e3,
		       report_percentile(&pts[k].h, 99) / 1e3,
		       pts[k].h.max_ns / 1e3, (pts[k].last - pts[k].first) / 1e3,
		       strcmp(pts[k].state, "done") ? "  (not done)" : "");
}

int merge_curves(char *const *files, int nr, json_object *first,
		 const char *fmt, bool force)
{
	json_object **roots = calloc(nr, sizeof(*roots));
	struct merged_point *pts = NULL;
	uint64_t max = 0;
	int i, ret = EXIT_FAIL;
	char why[512];
	size_t n, k;

	if (strcmp(fmt, "json") && strcmp(fmt, "normal") && strcmp(fmt, "csv")) {
		fprintf(stderr, "blkgenctl: merge of curves: -o json, normal or csv, not %s\n",
			fmt);
		json_object_put(first);
		free(roots);
		return EXIT_USAGE;
	}
	if (!roots) {
		json_object_put(first);
		return EXIT_FAIL;
	}
	roots[0] = first;
	if (!json_object_is_type(json_member(first, "points"), json_type_array)) {
		fprintf(stderr, "blkgenctl: %s: its \"points\" is not a list: not a curve of blkgenctl's\n",
			files[0]);
		goto out;
	}
	n = json_object_array_length(json_member(first, "points"));
	if (n > MERGE_CURVE_MAX_POINTS) {
		fprintf(stderr, "blkgenctl: %s: more than %d curve points\n",
			files[0], MERGE_CURVE_MAX_POINTS);
		goto out;
	}
	for (i = 1; i < nr; i++) {
		roots[i] = json_load(files[i]);
		if (!roots[i])
			goto out;
		if (curve_refusal(roots[0], files[0], roots[i], files[i], why,
				  sizeof(why))) {
			if (!force || !json_member(roots[i], "points") ||
			    json_object_array_length(json_member(roots[i], "points")) != n) {
				fprintf(stderr, "blkgenctl: not merged: %s%s\n", why,
					force ? "" : " (--force merges curves of one shape run at other times)");
				goto out;
			}
			fprintf(stderr, "blkgenctl: merged anyway (--force): %s\n", why);
		}
	}
	pts = calloc(n ? n : 1, sizeof(*pts));
	if (!pts)
		goto out;
	for (i = 0; i < nr; i++) {
		if (curve_add(roots[i], files[i], pts, n))
			goto out;
		max += json_object_get_uint64(json_member(roots[i], "max_iops"));
	}
	/* Each point started at one instant on every host that says one. */
	for (k = 0; k < n; k++) {
		if (!pts[k].other_at)
			continue;
		fprintf(stderr, "blkgenctl: %s: their points ran at other times: point %zu at start_at %" PRIu64 " in %s, %" PRIu64 " in %s%s\n",
			force ? "merged anyway (--force)" : "not merged", k + 1,
			pts[k].start_at, pts[k].at_file, pts[k].other_at,
			pts[k].other_file,
			force ? "" : " (--force merges curves of one shape run at other times)");
		if (!force)
			goto out;
	}
	if (!strcmp(fmt, "json"))
		print_points_json(roots, files, nr, pts, n, max);
	else
		print_points(fmt, roots, nr, pts, n, max);
	ret = EXIT_OK;
out:
	for (i = 0; i < nr; i++)
		if (roots[i])
			json_object_put(roots[i]);
	free(roots);
	free(pts);
	return ret;
}
