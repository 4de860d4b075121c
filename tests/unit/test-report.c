// SPDX-License-Identifier: GPL-2.0
/*
 * Description: blkgenctl report reads a job's sysfs files (a fabricated
 * tree under BLKGEN_SYSFS) and prints the same numbers in every format:
 * counts, rates, percentiles within 0.8% of the exact ones, bins that sum
 * to the count; every column of the CSV rows equals the JSON report's
 * value (service times, errors and verify errors included); bad histogram
 * files and unknown jobs fail cleanly.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hist.h"
#include <linux/blkgen.h>
#include "unit.h"

/* The tool: the sanitizer build make check runs, else the plain one. */
#define TOOL (getenv("BLKGENCTL") ? getenv("BLKGENCTL") : "../../tools/blkgenctl/blkgenctl")

static char root[256];

static void put(const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(T_FAIL);
	}
	fclose(f);
}

static void put_text(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

static void put_hist(const char *rel, const struct blkgen_lat_hist *h,
		     uint32_t magic)
{
	size_t size = sizeof(struct blkgen_hist) + BLKGEN_HIST_BINS * 8;
	struct blkgen_hist *u = calloc(1, size);

	u->magic = magic;
	u->version = BLKGEN_HIST_VERSION;
	u->sub_bits = BLKGEN_HIST_SUB_BITS;
	u->nr_bins = BLKGEN_HIST_NR_BINS;
	u->count = h->count;
	u->sum_ns = h->sum_ns;
	u->min_ns = h->count ? h->min_ns : 0;
	u->max_ns = h->max_ns;
	memcpy(u->bins, h->bins, BLKGEN_HIST_BINS * 8);
	put(rel, u, size);
	free(u);
}

/* Run the tool; its stdout in a malloc'ed string, exit status in *rc. */
static char *run(const char *args, int *rc)
{
	char cmd[1024], *out = calloc(1, 1 << 20);
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "BLKGEN_SYSFS=%s %s %s 2>%s/stderr", root,
		 TOOL, args, root);
	p = popen(cmd, "r");
	n = fread(out, 1, (1 << 20) - 1, p);
	out[n] = 0;
	*rc = WEXITSTATUS(pclose(p));
	return out;
}

static json_object *get(json_object *o, const char *path)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o;
	     tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, atoi(tok));
		else if (!json_object_object_get_ex(o, tok, &o))
			o = NULL;
	}
	return o;
}

/* A JSON number (a latency in ns) as the CSV prints it: us, 2 decimals. */
static double us(json_object *o)
{
	return json_object_get_double(o) / 1e3;
}

static double pctl(json_object *lat, const char *key)
{
	json_object *p = get(lat, "percentile"), *v;

	return json_object_object_get_ex(p, key, &v) ? json_object_get_double(v) / 1e3 : 0;
}

/* The 9 CSV columns of a latency: min, mean, stddev, max, 5 percentiles. */
static void lat_cols(json_object *lat, double *want)
{
	static const char *const pk[] = { "50.000000", "90.000000", "99.000000",
					  "99.900000", "99.990000" };
	int k;

	want[0] = us(get(lat, "min"));
	want[1] = us(get(lat, "mean"));
	want[2] = us(get(lat, "stddev"));
	want[3] = us(get(lat, "max"));
	for (k = 0; k < 5; k++)
		want[4 + k] = pctl(lat, pk[k]);
}

/*
 * Every column of both CSV rows against the JSON report of the same job:
 * a column printing another's value, or 0, is caught whichever it is.
 */
static void csv_rows(const char *csv, json_object *w)
{
	static const char *const dirs[] = { "read", "write" };
	char line[2048], *f[40], *save, *t;
	const char *p;
	int d, n, c;

	for (d = 0; d < 2; d++) {
		json_object *dj = get(w, dirs[d]), *lat, *svc;
		double want[40];

		snprintf(line, sizeof(line), "\nj1,w1,%s,", dirs[d]);
		p = strstr(csv, line);
		CHECK(p, "no %s row", dirs[d]);
		if (!p)
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
		for (n = 0, t = strtok_r(line, ",", &save); t && n < 40;
		     t = strtok_r(NULL, ",", &save))
			f[n++] = t;
		CHECK(n == 34, "%s row: %d columns, want 34", dirs[d], n);
		if (n != 34)
			continue;
		lat = get(dj, "lat_ns");
		svc = get(dj, "clat_ns");
		want[5] = json_object_get_double(get(dj, "ios"));
		want[6] = json_object_get_double(get(dj, "bytes"));
		want[7] = json_object_get_double(get(dj, "iops"));
		want[8] = json_object_get_double(get(dj, "bw_bytes")) / 1e6;
		want[9] = want[5] ? want[6] / want[5] : 0;
		lat_cols(lat, want + 10);
		want[19] = d ? 0 : json_object_get_double(get(w, "errors"));
		want[20] = d ? 0 : json_object_get_double(get(w, "verify.errors"));
		lat_cols(svc, want + 21);
		for (c = 5; c < 30; c++)
			CHECK(fabs(atof(f[c]) - want[c]) <= 0.005 + 1e-9 * fabs(want[c]) ||
			      (c == 8 && fabs(atof(f[c]) - want[c]) <= 0.0005),
			      "%s row, column %d: %s, the JSON's %.3f", dirs[d], c + 1,
			      f[c], want[c]);
	}
	/* The fixture's distinct values: a column printing 0 is wrong. */
	CHECK(strstr(csv, ",3,5,0.50,"), "read row's errors, verify_errors and svc_min:\n%s", csv);
}

int main(void)
{
	static struct blkgen_lat_hist rd, wr, sv;
	struct blkgen_interval iv[4] = { 0 };
	json_object *js, *bins;
	char *out, *csv, rel[512];
	uint64_t i, bsum = 0;
	int rc, k;

	snprintf(root, sizeof(root), "/tmp/blkgen-report.%d", getpid());
	mkdir(root, 0755);
	snprintf(rel, sizeof(rel), "%s/j1", root);
	mkdir(rel, 0755);
	snprintf(rel, sizeof(rel), "%s/j1/w1", root);
	mkdir(rel, 0755);

	/* Reads: 1..100000 us uniform; writes: none. 2 s measured. */
	blkgen_hist_reset(&rd);
	blkgen_hist_reset(&wr);
	for (i = 1; i <= 100000; i++)
		blkgen_hist_record(&rd, i * 1000);
	put_text("j1/state", "done\n");
	put_text("j1/error", "\n");
	put_text("j1/elapsed_ms", "2000\n");
	put_text("j1/w1/read_ios", "100000\n");
	put_text("j1/w1/write_ios", "0\n");
	put_text("j1/w1/read_bytes", "409600000\n");
	put_text("j1/w1/write_bytes", "0\n");
	put_text("j1/w1/errors", "3\n");
	put_text("j1/w1/late_ios", "7\n");
	put_text("j1/w1/max_lag_ns", "2500000\n");
	put_hist("j1/w1/read_lat_hist", &rd, BLKGEN_HIST_MAGIC);
	put_hist("j1/w1/write_lat_hist", &wr, BLKGEN_HIST_MAGIC);
	/* Service times: each read half its response time. */
	blkgen_hist_reset(&sv);
	for (i = 1; i <= 100000; i++)
		blkgen_hist_record(&sv, i * 500);
	put_hist("j1/w1/read_svc_hist", &sv, BLKGEN_HIST_MAGIC);
	put_hist("j1/w1/write_svc_hist", &wr, BLKGEN_HIST_MAGIC);
	put_text("j1/w1/verify_errors", "5\n");
	for (k = 0; k < 4; k++) {
		iv[k].start_ms = k * 500;
		iv[k].length_ms = 500;
		iv[k].ios[0] = 25000;
	}
	put("j1/w1/intervals", iv, sizeof(iv));

	/* CSV: exact figures. */
	out = run("report j1 -o csv", &rc);
	CHECK(rc == 0, "csv exit %d", rc);
	CHECK(strstr(out, "\nj1,w1,read,done,2.000,100000,409600000,50000.0,204.800,4096,1.00,"),
	      "csv read row:\n%s", out);
	CHECK(strstr(out, "\nj1,w1,write,done,2.000,0,0,0.0,0.000,0,0.00,"),
	      "csv write row:\n%s", out);
	csv = out;

	/* JSON: names, percentiles near exact, bins summing to N. */
	out = run("report j1 -o json", &rc);
	CHECK(rc == 0, "json exit %d", rc);
	js = json_tokener_parse(out);
	CHECK(js, "json does not parse:\n%.300s", out);
	if (js) {
		json_object *w = get(js, "jobs.0.workloads.0"), *pct, *v;
		double p50 = 0, p999 = 0;

		/* Percentile keys hold dots: look them up directly. */
		pct = get(w, "read.lat_ns.percentile");
		if (json_object_object_get_ex(pct, "50.000000", &v))
			p50 = json_object_get_double(v);
		if (json_object_object_get_ex(pct, "99.900000", &v))
			p999 = json_object_get_double(v);

		CHECK(json_object_get_uint64(get(w, "read.ios")) == 100000, "ios");
		CHECK(json_object_get_double(get(w, "read.iops")) == 50000, "iops");
		CHECK(json_object_get_double(get(w, "read.bw_bytes")) == 204800000, "bw");
		CHECK(json_object_get_uint64(get(w, "read.lat_ns.min")) == 1000, "min");
		CHECK(json_object_get_uint64(get(w, "read.lat_ns.max")) == 100000000, "max");
		CHECK(fabs(json_object_get_double(get(w, "read.lat_ns.mean")) - 50000500) < 1,
		      "mean");
		CHECK(fabs(p50 - 50000000) / 50000000 < 0.008, "p50 %f", p50);
		CHECK(fabs(p999 - 99900000) / 99900000 < 0.008, "p99.9 %f", p999);
		CHECK(json_object_get_uint64(get(w, "errors")) == 3, "errors");
		CHECK(json_object_get_uint64(get(w, "late_ios")) == 7, "late_ios");
		CHECK(json_object_get_uint64(get(w, "max_lag_ns")) == 2500000, "max_lag_ns");
		CHECK(json_object_array_length(get(w, "intervals")) == 4, "intervals");
		CHECK(json_object_get_double(get(w, "intervals.2.read.iops")) == 50000,
		      "interval iops");
		bins = get(w, "read.lat_ns.bins");
		json_object_object_foreach(bins, key, val) {
			bsum += json_object_get_uint64(val);
			(void)key;
		}
		CHECK(bsum == 100000, "bins sum %llu", (unsigned long long)bsum);
		CHECK(json_object_get_uint64(get(w, "write.lat_ns.N")) == 0, "no writes");
		csv_rows(csv, w);
		json_object_put(js);
	}
	free(out);

	/* merge: two copies add up exactly; a non-report fails. */
	{
		char cmd[2048];
		json_object *m, *w;

		snprintf(cmd, sizeof(cmd), "BLKGEN_SYSFS=%s %s report j1 -o json > %s/a.json && cp %s/a.json %s/b.json",
			 root, TOOL, root, root, root);
		CHECK(system(cmd) == 0, "report to files");
		snprintf(cmd, sizeof(cmd), "merge %s/a.json %s/b.json", root, root);
		out = run(cmd, &rc);
		CHECK(rc == 0, "merge exit %d", rc);
		m = json_tokener_parse(out);
		w = get(m, "jobs.0.workloads.0");
		CHECK(json_object_get_uint64(get(w, "read.ios")) == 200000, "merged ios");
		CHECK(json_object_get_double(get(w, "read.iops")) == 100000, "merged iops");
		CHECK(json_object_get_uint64(get(w, "read.lat_ns.N")) == 200000, "merged N");
		CHECK(json_object_get_uint64(get(w, "read.lat_ns.min")) == 1000, "merged min");
		CHECK(json_object_get_uint64(get(w, "read.lat_ns.max")) == 100000000, "merged max");
		CHECK(fabs(json_object_get_double(get(w, "read.lat_ns.mean")) - 50000500) < 1,
		      "merged mean");
		CHECK(json_object_get_uint64(get(w, "errors")) == 6, "merged errors");
		CHECK(json_object_get_uint64(get(w, "late_ios")) == 14, "merged late");
		CHECK(json_object_get_uint64(get(w, "max_lag_ns")) == 2500000, "merged lag");
		json_object_put(m);
		free(out);
		snprintf(cmd, sizeof(cmd), "merge %s/j1/state", root);
		out = run(cmd, &rc);
		CHECK(rc == 1, "merge of a non-report: exit %d", rc);
		free(out);
	}

	/* Normal: the headline line. */
	out = run("report j1", &rc);
	CHECK(rc == 0 && strstr(out, "j1: done, 2.000 s measured\n"), "normal:\n%s", out);
	CHECK(strstr(out, "  w1 read : ios=100000, iops=50000.0, bw=195.31MiB/s (204.80MB/s)\n"),
	      "normal read line:\n%s", out);
	CHECK(strstr(out, "  w1 open loop: 7 late arrivals, max schedule lag 2.500 ms\n"),
	      "normal open-loop line:\n%s", out);
	free(out);

	/* Failures: unknown job, bad format, corrupt histogram. */
	out = run("report nope", &rc);
	CHECK(rc == 1, "unknown job exit %d", rc);
	free(out);
	out = run("report j1 -o xml", &rc);
	CHECK(rc == 2, "bad format exit %d", rc);
	free(out);
	put_hist("j1/w1/read_lat_hist", &rd, 0x12345678);
	out = run("report j1", &rc);
	CHECK(rc == 1 && !*out, "corrupt histogram: exit %d, output %.100s", rc, out);
	free(out);

	snprintf(rel, sizeof(rel), "rm -rf %s", root);
	CHECK(system(rel) == 0, "cleanup");
	free(csv);
	return t_exit("report");
}
