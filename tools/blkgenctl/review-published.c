// SPDX-License-Identifier: GPL-2.0
/*
 * Published comparables: compare's "published:NAME" argument. NAME.json
 * in the suites' published/ directory (BLKGEN_SUITES, else the installed
 * suites) holds a review's figures as printed, drive by drive and
 * workload by workload, each naming its review and section
 * (Documentation/review.rst). Each drive becomes one review object of
 * the shape compare reads from a review.json: a workload per figure, its
 * peak (IOPS, bytes/s, average latency; no p99: the reviews print none)
 * and one point, the peak. A workload the review did not print is not
 * there, so compare lists it as not shared. published_note and
 * published_sources write what these figures are and where each comes
 * from into compare's summary.md and index.html.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "review.h"

static json_object *get(json_object *o, const char *k)
{
	return o ? json_object_object_get(o, k) : NULL;
}

static const char *str(json_object *o, const char *k)
{
	const char *s = json_object_get_string(get(o, k));

	return s ? s : "";
}

static size_t alen(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* A figure's { value, unit } times the unit's scale; -1 for a bad unit. */
static double scaled(json_object *q, const char *const *units, const double *scale)
{
	const char *u = str(q, "unit");
	double v = json_object_get_double(get(q, "value"));
	int i;

	for (i = 0; units[i]; i++)
		if (!strcmp(u, units[i]))
			return v > 0 ? v * scale[i] : -1;
	return -1;
}

static const char *const rate_units[] = { "IOPS", "K IOPS", "M IOPS", NULL };
static const double rate_scale[] = { 1, 1e3, 1e6 };
/* vdbench's MB is 2^20 bytes: 43,653 IOPS of 64 KiB is printed 2.72 GB/s */
static const char *const bw_units[] = { "MB/s", "GB/s", NULL };
static const double bw_scale[] = { 1048576.0, 1048576.0 * 1000 };
static const char *const lat_units[] = { "us", "ms", NULL };
static const double lat_scale[] = { 1e3, 1e6 };

/* One workload of a published drive, as review.json has it. */
static json_object *published_wl(json_object *f, char *err, size_t len)
{
	json_object *w, *pk, *pt, *lat, *src;
	json_object *l = get(f, "lat_mean_read") ? get(f, "lat_mean_read") : get(f, "lat_mean");
	double iops = get(f, "iops") ? scaled(get(f, "iops"), rate_units, rate_scale) : 0;
	double bw = get(f, "mbps") ? scaled(get(f, "mbps"), bw_units, bw_scale) : 0;
	double mean = scaled(l, lat_units, lat_scale);
	double p99 = get(f, "lat_p99") ? scaled(get(f, "lat_p99"), lat_units, lat_scale) : 0;
	int bs = json_object_get_int(get(f, "bs"));

	if (!*str(f, "workload") || !*str(f, "section") || iops < 0 || bw < 0 ||
	    mean < 0 || p99 < 0 || (!iops && !bw)) {
		snprintf(err, len, "figure '%s': needs a workload, a section, IOPS or MB/s and a latency in their units",
			 str(f, "workload"));
		return NULL;
	}
	/* Closed loop at one block size: IOPS x size is the exact rate. */
	if (iops && bs > 0)
		bw = iops * bs;
	if (!iops && bs > 0)
		iops = bw / bs;
	w = json_object_new_object();
	json_object_object_add(w, "name", json_object_new_string(str(f, "workload")));
	json_object_object_add(w, "title", json_object_new_string(str(f, "title")));
	json_object_object_add(w, "unit", json_object_new_string(get(f, "mbps") ? "mbps" : "iops"));
	pk = json_object_new_object();
	json_object_object_add(pk, "iops", json_object_new_double(iops));
	json_object_object_add(pk, "bw_bytes", json_object_new_double(bw));
	json_object_object_add(pk, "lat_mean_ns", json_object_new_double(mean));
	json_object_object_add(pk, "lat_p99_ns", json_object_new_double(p99));
	json_object_object_add(pk, "published", json_object_new_boolean(1));
	/* What it kept outstanding, by Little's law: IOPS x mean latency. */
	json_object_object_add(pk, "depth_implied", json_object_new_double(iops * mean / 1e9));
	if (get(f, "threads"))
		json_object_object_add(pk, "threads", json_object_new_int(json_object_get_int(get(f, "threads"))));
	json_object_object_add(w, "peak", pk);
	pt = json_object_new_object();
	lat = json_object_new_object();
	json_object_object_add(lat, "mean", json_object_new_double(mean));
	json_object_object_add(lat, "p99", json_object_new_double(p99));
	json_object_object_add(pt, "target_pct", json_object_new_double(100));
	json_object_object_add(pt, "iops", json_object_new_double(iops));
	json_object_object_add(pt, "bw_bytes", json_object_new_double(bw));
	json_object_object_add(pt, "lat_ns", lat);
	json_object_object_add(pt, "state", json_object_new_string("done"));
	json_object_object_add(w, "points", json_object_new_array());
	json_object_array_add(get(w, "points"), pt);
	/* the figure as printed, with its section and notes */
	src = NULL;
	json_object_deep_copy(f, &src, NULL);
	json_object_object_add(w, "published", src);
	return w;
}

int published_reviews(const char *arg, json_object **out, int max, char *err, size_t len)
{
	char dir[4096], file[4200];
	json_object *root, *drives, *rv;
	const char *name = arg + strlen(PUBLISHED_PREFIX);
	size_t i, k;
	int n = 0;

	if (!*name) {
		snprintf(err, len, "%s: give a published set's name, e.g. published:pm1743", arg);
		return -1;
	}
	if (path_join(dir, sizeof(dir), suite_dir(), "published", "") < 0 ||
	    named_file(file, sizeof(file), name, dir, ".json") < 0) {
		snprintf(err, len, "%s: name too long", arg);
		return -1;
	}
	errno = 0;
	root = json_object_from_file(file);
	if (!root) {
		snprintf(err, len, "%s: no published review %s (%s; the shipped ones are pblaze5, pm1735 and pm1743, in BLKGEN_SUITES/published or " BLKGEN_SUITE_DIR "/published)",
			 arg, file, errno ? strerror(errno) : "not JSON");
		return -1;
	}
	drives = get(root, "drives");
	if (strcmp(str(root, "format"), "blkgen-published-1") || !json_object_is_type(drives, json_type_array) ||
	    !*str(get(root, "review"), "title") || !*str(get(root, "review"), "site")) {
		snprintf(err, len, "%s: %s is not a published review (format blkgen-published-1, review title and site, drives)",
			 arg, file);
		goto fail;
	}
	for (i = 0; i < json_object_array_length(drives); i++) {
		json_object *d = json_object_array_get_idx(drives, i), *figs = get(d, "figures");
		json_object *wls, *dev, *rev = get(root, "review");
		char label[512];

		if (n >= max) {
			snprintf(err, len, "%s: too many drives to compare", arg);
			goto fail;
		}
		snprintf(label, sizeof(label), "%s (published, %s %s)", str(d, "model"),
			 str(rev, "site"), str(rev, "date"));
		rv = json_object_new_object();
		wls = json_object_new_array();
		for (k = 0; k < (json_object_is_type(figs, json_type_array) ? json_object_array_length(figs) : 0); k++) {
			char why[256];
			json_object *w = published_wl(json_object_array_get_idx(figs, k), why, sizeof(why));

			if (!w) {
				snprintf(err, len, "%s: %s: %s: %s", arg, file, str(d, "model"), why);
				json_object_put(wls);
				json_object_put(rv);
				goto fail;
			}
			json_object_array_add(wls, w);
		}
		dev = json_object_new_object();
		json_object_object_add(dev, "model", json_object_new_string(str(d, "model")));
		json_object_object_add(dev, "variant", json_object_new_string(str(d, "variant")));
		json_object_object_add(rv, "label", json_object_new_string(label));
		json_object_object_add(rv, "suite", json_object_new_string(arg));
		json_object_object_add(rv, "device", dev);
		json_object_object_add(rv, "published", json_object_get(rev));
		json_object_object_add(rv, "method", json_object_new_string(str(root, "method")));
		if (get(root, "reading"))
			json_object_object_add(rv, "reading", json_object_get(get(root, "reading")));
		if (get(d, "applications"))
			json_object_object_add(rv, "applications", json_object_get(get(d, "applications")));
		json_object_object_add(rv, "workloads", wls);
		out[n++] = rv;
	}
	if (!n) {
		snprintf(err, len, "%s: %s has no drive", arg, file);
		goto fail;
	}
	json_object_put(root);
	return n;
fail:
	while (n > 0)
		json_object_put(out[--n]);
	json_object_put(root);
	return -1;
}

/* What a published figure is, said once above the tables. */
void published_note(FILE *md, FILE *html, json_object **rv, int n)
{
	static const char note[] =
		"Drives labelled \"published\" are a review's figures as printed, not runs of blkgen: "
		"each is the review's peak of a vdbench curve (0-120% iorate) at the workload's printed "
		"thread count, with the latency it printed; the reviews do not say which run of the "
		"curve the peak is, nor whether that latency is a service or a response time. "
		"blkgen's figures beside them are its maximum run's: closed loop, mean service latency "
		"(submission to completion). "
		"These reviews print no p99 (n/a), and their MB/s are vdbench's (2^20 bytes), shown "
		"here in the table's MB/s (10^6 bytes) from IOPS x block size. "
		"Where each figure comes from is listed under Published sources.";

	fprintf(md, "\n%s\n", note);
	fprintf(html, "<p class=\"note\">");
	html_text(html, note);
	fprintf(html, "</p>\n");
}

/* Each published figure's review and section, and its notes. */
void published_sources(FILE *md, FILE *html, json_object **rv, int n)
{
	static const char *const notes[] = {
		"erratum", "exceeds_threads", "also_printed", "conclusion_misfiled", NULL
	};
	int i, m;
	size_t k;

	fprintf(md, "\n## Published sources\n");
	fprintf(html, "<h2>Published sources</h2>\n");
	for (i = 0; i < n; i++) {
		json_object *r = get(rv[i], "published"), *wls = get(rv[i], "workloads");
		char head[1024];

		if (!r)
			continue;
		snprintf(head, sizeof(head), "%s: \"%s\", %s, %s. %s.", str(rv[i], "label"),
			 str(r, "title"), str(r, "site"), str(r, "date"), str(rv[i], "method"));
		fprintf(md, "\n%s\n\n", head);
		fprintf(html, "<p>");
		html_text(html, head);
		fprintf(html, "</p>\n<ul>\n");
		for (k = 0; k < alen(wls); k++) {
			json_object *f = get(json_object_array_get_idx(wls, k), "published");
			char line[2048];
			size_t len;

			len = (size_t)snprintf(line, sizeof(line), "%s: %s", str(f, "workload"), str(f, "section"));
			if (get(f, "threads") && len < sizeof(line))
				len += (size_t)snprintf(line + len, sizeof(line) - len, "; %d threads",
						json_object_get_int(get(f, "threads")));
			if (json_object_get_boolean(get(f, "approx")) && len < sizeof(line))
				len += (size_t)snprintf(line + len, sizeof(line) - len, "; approximate as printed");
			if (get(f, "after_peak") && len < sizeof(line))
				len += (size_t)snprintf(line + len, sizeof(line) - len, "; after its peak: %s %s",
							str(get(f, "after_peak"), "value"),
							str(get(f, "after_peak"), "unit"));
			for (m = 0; notes[m]; m++)
				if (get(f, notes[m]) && len < sizeof(line))
					len += (size_t)snprintf(line + len, sizeof(line) - len, "; %s",
							str(f, notes[m]));
			/* the review's own sentences, as printed */
			for (m = 0; m < (int)alen(get(f, "quote")) && len < sizeof(line); m++)
				len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s",
							m ? " " : ": \"",
							json_object_get_string(json_object_array_get_idx(get(f, "quote"), m)));
			if (alen(get(f, "quote")) && len < sizeof(line))
				len += (size_t)snprintf(line + len, sizeof(line) - len, "\"");
			fprintf(md, "- %s\n", line);
			fprintf(html, "<li>");
			html_text(html, line);
			fprintf(html, "</li>\n");
		}
		/* application benchmarks: the review's, not blkgen workloads */
		wls = get(rv[i], "applications");
		for (k = 0; k < alen(wls); k++) {
			static const char *const qs[][2] = {
				{ "tps", "" }, { "time", "" }, { "lat_mean", " average" }, { "lat_p99", " p99" },
			};
			json_object *f = json_object_array_get_idx(wls, k);
			char line[2048];
			size_t len, q;
			bool first = true;

			len = (size_t)snprintf(line, sizeof(line), "not compared (an application benchmark): %s: %s",
					       str(f, "title"), str(f, "section"));
			for (q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
				if (!get(f, qs[q][0]) || len >= sizeof(line))
					continue;
				len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %s%s",
						first ? ";" : ",", str(get(f, qs[q][0]), "value"),
						str(get(f, qs[q][0]), "unit"), qs[q][1]);
				first = false;
			}
			if (get(f, "erratum") && len < sizeof(line))
				snprintf(line + len, sizeof(line) - len, "; %s", str(f, "erratum"));
			fprintf(md, "- %s\n", line);
			fprintf(html, "<li>");
			html_text(html, line);
			fprintf(html, "</li>\n");
		}
		fprintf(html, "</ul>\n");
		if (get(rv[i], "reading")) {
			fprintf(md, "\n%s\n", str(rv[i], "reading"));
			fprintf(html, "<p class=\"note\">");
			html_text(html, str(rv[i], "reading"));
			fprintf(html, "</p>\n");
		}
	}
}
