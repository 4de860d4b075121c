// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl review: the reviews' method in one command. Precondition the
 * drive (a sequential fill, or SNIA PTS's purge, workload-independent
 * fill and rounds to steady state), then for every workload of a suite a
 * vdbench curve over the test region: the maximum, then each percent of
 * it. Every finished point is saved in DIR at once (written aside and
 * renamed), so --resume continues after Ctrl-C, a crash or a reboot with
 * nothing run twice; the report (review-report.c) is made from DIR's
 * files after each workload and at the end.
 *
 * DIR/plan.json                  the settings (resume takes them)
 * DIR/precondition.json          what was done, the steady-state rounds
 * DIR/points/WL/max.json         the unthrottled (or as-fast-as-possible) run
 * DIR/points/WL/PCT.json         each curve point
 * DIR/points/WL/probe-Nd.json    a VDI workload's trace of N desktops as fast as possible
 * DIR/traces/WL-Nd.csv, .prof    a VDI workload's generated trace of N desktops
 * DIR/review.json, summary.md, index.html
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "coord.h"
#include "pattern.h"
#include "profile.h"
#include "review.h"
#include "run.h"

/*
 * A point's longest: its ten intervals (the knee compares their halves)
 * within configfs's interval_ms, at most an hour.
 */
#define POINT_SECS_MAX	36000

struct review {
	const char *dev;
	const char *dir;
	struct suite suite;
	char suite_arg[4096];
	char precondition[8];	/* fill, pts, none */
	char region[16];	/* percent of the device, "25%" */
	double point_secs;	/* whole milliseconds, 0.1 to POINT_SECS_MAX */
	bool quick;
	bool quiet;
	double pct[64];
	int npts;
	int done, total;	/* points saved (before too), of all */
	int ran;		/* runs of this invocation, for the ETA */
	int failed;		/* runs whose job failed */
	time_t t0;
	double est_run;		/* seconds a run takes, for the ETA */
	unsigned int desktops;	/* the VDI trace's of the workload running */
	bool probing;		/* a VDI trace's run: not a point of the total */
	uint64_t zone_bytes;	/* a zoned device: what its zones hold */
	uint64_t zone_fill;	/* ... and the 128 KiB writes that fill them */
	/*
	 * --coordinator: every run started on every host at once, in step
	 * (each named by its file: "points/sql/max"), and one host's
	 * failure stops them all (Documentation/multihost.rst).
	 */
	struct run_opts co;
};

static const char *review_usage =
	"blkgenctl review --device DEV --allow-write -O DIR [--suite NAME|FILE]\n"
	"                 [--precondition fill|pts|none] [--region PCT] [--point-secs N]\n"
	"                 [--quick] [--resume] [-q]\n"
	"                 [--coordinator HOST:PORT [--host-name NAME] [--lease-secs N]]\n"
	"       blkgenctl review --report -O DIR\n"
	"       blkgenctl review --merge -O OUT DIR...\n"
	"       blkgenctl review --dry-run [--suite NAME|FILE] [--device DEV] [--quick] ...";

static const char *review_help =
	"\n"
	"The reviews' method in one command: precondition DEV, then for every\n"
	"workload of the suite the maximum and a curve of percents of it over\n"
	"the test region; DIR gets review.json, summary.md and index.html.\n"
	"Every point is saved at once: --resume continues where a run stopped.\n"
	"\n"
	"      --device DEV        the drive (all its data is overwritten)\n"
	"      --allow-write       required: the review writes the whole drive\n"
	"  -O, --output-dir DIR    where the points and the report go\n"
	"      --suite NAME|FILE   the suite (default full; installed ones in\n"
	"                          BLKGEN_SUITES)\n"
	"      --precondition M    fill (default: write the drive twice), pts\n"
	"                          (purge, fill, rounds to steady state) or none\n"
	"      --region PCT        the test region, from the start (default 25%)\n"
	"      --point-secs N      each run's measured seconds (default 60, after\n"
	"                          a warmup of a sixth of it; 0.1 to 36000 in whole\n"
	"                          milliseconds, e.g. 0.5)\n"
	"      --quick             short points (2 s), three of them (10,50,100%),\n"
	"                          a single fill: for a test VM\n"
	"      --resume            continue the review in DIR with its settings\n"
	"      --report            only make DIR's report again from its points\n"
	"      --coordinator HOST:PORT  one review on many hosts: every run starts\n"
	"                          on all of them at once when blkgenctl coordinate\n"
	"                          at HOST:PORT says (the fill first, then each\n"
	"                          point in step), steady state on their summed\n"
	"                          IOPS; one host failing stops them all\n"
	"      --host-name NAME    this host's name for the coordinator\n"
	"      --lease-secs N      how long to try a coordinator not listening yet,\n"
	"                          and how long it may be silent (default 10)\n"
	"      --merge DIR...      one review of the hosts' DIRs (-O OUT): each\n"
	"                          point's I/O summed, its latencies merged\n"
	"      --dry-run           print the plan and its duration, run nothing\n"
	"  -q, --quiet             no progress of each run's job (the review's own\n"
	"                          line per run stays)\n"
	"Exit status: 0 done, 1 failed, 2 usage, 3 module not loaded,\n"
	"128+N stopped by signal N (DIR stays consistent: --resume).\n";

/* ---- files --------------------------------------------------------------- */

/* Write @o to @path whole or not at all: aside, synced, renamed. */
int review_save_json(const char *path, json_object *o)
{
	char tmp[4200];
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int fd, ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s) &&
	     write(fd, "\n", 1) == 1 && !fsync(fd);
	if (close(fd) || !ok || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int sync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

/* @from's bytes into @to, whole or not at all (aside, synced, renamed). */
int review_copy_file(const char *from, const char *to)
{
	char tmp[4300], buf[8192];
	FILE *in = fopen(from, "r"), *out;
	size_t n;
	int bad = 0;

	if (!in)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", to);
	out = fopen(tmp, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			bad = 1;
	bad |= ferror(in);
	fclose(in);
	bad |= fflush(out) || fsync(fileno(out));
	bad |= fclose(out);
	if (bad || rename(tmp, to)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void point_path(char *buf, size_t len, const struct review *rv,
		       const char *wl, const char *pt)
{
	snprintf(buf, len, "%s/points/%s/%s.json", rv->dir, wl, pt);
}

/* ---- measuring ------------------------------------------------------------- */

/*
 * A point's latency: its figures, and N, min and the bins as run -o json
 * has them (review --merge adds the hosts' bins: json_lat_add()).
 */
json_object *review_lat_json(const struct blkgen_lat_hist *h)
{
	json_object *l = json_object_new_object();

	json_object_object_add(l, "mean", json_object_new_double(report_mean(h)));
	json_object_object_add(l, "p50", json_object_new_uint64(report_percentile(h, 50)));
	json_object_object_add(l, "p99", json_object_new_uint64(report_percentile(h, 99)));
	json_object_object_add(l, "p99.9", json_object_new_uint64(report_percentile(h, 99.9)));
	json_object_object_add(l, "max", json_object_new_uint64(h->count ? h->max_ns : 0));
	json_object_object_add(l, "min", json_object_new_uint64(h->count ? h->min_ns : 0));
	json_object_object_add(l, "N", json_object_new_uint64(h->count));
	json_object_object_add(l, "bins", print_json_bins(h));
	return l;
}

static void put_rate(json_object *o, uint64_t ios, uint64_t bytes,
		     uint64_t ms)
{
	json_object_object_add(o, "ios", json_object_new_uint64(ios));
	json_object_object_add(o, "iops", json_object_new_double(ms ? ios * 1000.0 / ms : 0));
	json_object_object_add(o, "bw_bytes", json_object_new_double(ms ? bytes * 1000.0 / ms : 0));
}

/*
 * The response time's mean over the first and over the last half of a
 * run's intervals (a middle one, of an odd number, in neither), all
 * workloads and directions: [first, last] in ns, or NULL with fewer than
 * two intervals. Growing from one to the other, the run fell behind its
 * arrivals (review.rst: the knee).
 */
static json_object *halves_json(const struct job_result *r)
{
	double sum[2] = { 0, 0 }, ios[2] = { 0, 0 };
	json_object *a;
	size_t n = SIZE_MAX, k;
	int i, d, h;

	for (i = 0; i < r->nr_wl; i++)
		if (r->wl[i].nr_iv < n)
			n = r->wl[i].nr_iv;
	if (!r->nr_wl || n < 2)
		return NULL;
	for (i = 0; i < r->nr_wl; i++)
		for (k = 0; k < n; k++) {
			if (n % 2 && k == n / 2)
				continue;
			h = k >= n / 2;
			for (d = 0; d < 2; d++) {
				sum[h] += r->wl[i].iv[k].lat_sum_ns[d];
				ios[h] += r->wl[i].iv[k].ios[d];
			}
		}
	a = json_object_new_array();
	for (h = 0; h < 2; h++)
		json_object_array_add(a, json_object_new_double(ios[h] ? sum[h] / ios[h] : 0));
	return a;
}

/*
 * A run's point: its target, the whole and each direction; lat_ns the
 * response time (from the intended start), clat_ns the service time
 * (from submission), as blkgenctl's JSON names them; @depth the I/Os its
 * workloads may have outstanding.
 */
static json_object *point_json(const struct job_result *r, double pct,
			       uint64_t target, unsigned int depth)
{
	struct blkgen_lat_hist *all = malloc(sizeof(*all));
	struct blkgen_lat_hist *dh = malloc(sizeof(*dh));
	struct blkgen_lat_hist *sall = malloc(sizeof(*sall));
	struct blkgen_lat_hist *sdh = malloc(sizeof(*sdh));
	static const char *const names[] = { "read", "write" };
	json_object *pt = json_object_new_object(), *halves;
	uint64_t ios = 0, bytes = 0, lag = 0;
	bool svc = true;
	int i, d;

	if (!all || !dh || !sall || !sdh) {
		free(all);
		free(dh);
		free(sall);
		free(sdh);
		json_object_put(pt);
		return NULL;
	}
	blkgen_hist_reset(all);
	blkgen_hist_reset(sall);
	for (i = 0; i < r->nr_wl; i++) {
		svc = svc && !r->wl[i].dir[0].no_svc && !r->wl[i].dir[1].no_svc;
		if (r->wl[i].max_lag_ns > lag)
			lag = r->wl[i].max_lag_ns;
	}
	json_object_object_add(pt, "target_pct", json_object_new_double(pct));
	json_object_object_add(pt, "target_iops", json_object_new_uint64(target));
	for (d = 0; d < 2; d++) {
		json_object *o = json_object_new_object();
		uint64_t dios = 0, dbytes = 0;

		blkgen_hist_reset(dh);
		blkgen_hist_reset(sdh);
		for (i = 0; i < r->nr_wl; i++) {
			dios += r->wl[i].dir[d].ios;
			dbytes += r->wl[i].dir[d].bytes;
			blkgen_hist_merge(dh, &r->wl[i].dir[d].lat);
			blkgen_hist_merge(sdh, &r->wl[i].dir[d].svc);
		}
		blkgen_hist_merge(all, dh);
		blkgen_hist_merge(sall, sdh);
		ios += dios;
		bytes += dbytes;
		put_rate(o, dios, dbytes, r->elapsed_ms);
		json_object_object_add(o, "lat_ns", review_lat_json(dh));
		if (svc)
			json_object_object_add(o, "clat_ns", review_lat_json(sdh));
		json_object_object_add(pt, names[d], o);
	}
	put_rate(pt, ios, bytes, r->elapsed_ms);
	json_object_object_add(pt, "lat_ns", review_lat_json(all));
	if (svc)
		json_object_object_add(pt, "clat_ns", review_lat_json(sall));
	halves = halves_json(r);
	if (halves)
		json_object_object_add(pt, "lat_halves_ns", halves);
	json_object_object_add(pt, "max_lag_ns", json_object_new_uint64(lag));
	if (depth)
		json_object_object_add(pt, "depth", json_object_new_uint64(depth));
	json_object_object_add(pt, "elapsed_ms", json_object_new_uint64(r->elapsed_ms));
	/* armed (by a coordinator): the instant asked for, and its first I/O's */
	if (r->start_at)
		json_object_object_add(pt, "start_at", json_object_new_uint64(r->start_at));
	if (r->started_at_ns)
		json_object_object_add(pt, "started_at_ns", json_object_new_uint64(r->started_at_ns));
	json_object_object_add(pt, "state", json_object_new_string(r->state));
	json_object_object_add(pt, "error", json_object_new_string(r->error));
	free(all);
	free(dh);
	free(sall);
	free(sdh);
	return pt;
}

/* The I/Os a run of @p may have outstanding: its workloads' depths. */
static unsigned int profile_depth(const struct profile *p)
{
	unsigned int sum = 0;
	const char *v;
	int i;

	for (i = 0; i < p->nr_wl; i++) {
		v = profile_get(&p->wl[i], "depth");
		sum += v ? (unsigned int)strtoul(v, NULL, 0) : 1;
	}
	return sum;
}

/* ---- progress ----------------------------------------------------------------- */

static void say(const struct review *rv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct review *rv, const char *fmt, ...)
{
	double el = difftime(time(NULL), rv->t0), eta;
	va_list ap;

	eta = (rv->total - rv->done) * rv->est_run;
	if (rv->ran)
		eta = (rv->total - rv->done) * el / rv->ran;
	fprintf(stderr, "review [%d/%d, %.0f s, ETA %.0f min] ", rv->done + 1,
		rv->total, el, eta / 60);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- one run ---------------------------------------------------------------- */

static void put_ms(struct profile_section *s, const char *key, double ms)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.0f", ms);
	profile_put(s, key, buf, 0);
}

/*
 * Run @p's job: with a coordinator, as run @step of every host's review
 * (started on all of them at once).
 */
static int review_job(struct review *rv, struct profile *p,
		      struct run_opts *o, const char *step,
		      struct job_result *r)
{
	char job[64];
	int ret;

	snprintf(job, sizeof(job), "review-%d", (int)getpid());
	o->coord = rv->co.coord;
	o->coord_point = rv->co.coord_point;
	o->coord_step = step;
	ret = run_job(p, o, job, r);
	rv->co.coord_point = o->coord_point;
	o->coord = NULL;
	return ret;
}

/*
 * With a coordinator, tell it @value and take what every host said
 * (@a); alone, @a is this host's. 0, or EXIT_FAIL said.
 */
static int review_agree(struct review *rv, const char *about, int64_t value,
			struct coord_agreed *a)
{
	char why[512];

	if (!rv->co.coord) {
		*a = (struct coord_agreed){ value, value, value, 1 };
		return EXIT_OK;
	}
	if (!coord_agree(rv->co.coord, about, value, a, why, sizeof(why)))
		return EXIT_OK;
	fprintf(stderr, "blkgenctl: review: %s\n", why);
	return run_interrupted() ? 128 + run_interrupted() : EXIT_FAIL;
}

/*
 * Run the loaded profile once, save its point at @file; *@iops its
 * achieved IOPS. A failed job is saved too (its state and error say so);
 * a signal is not: that point runs again on --resume.
 */
static int run_point(struct review *rv, struct profile *p,
		     struct run_opts *o, const char *file, double pct,
		     uint64_t target, double *iops)
{
	struct job_result r = { 0 };
	char step[256];
	json_object *pt;
	int ret;

	/* Its file in DIR names the run to the other hosts: points/WL/PCT */
	snprintf(step, sizeof(step), "%.*s", (int)(strlen(file) - strlen(rv->dir) - 6),
		 file + strlen(rv->dir) + 1);
	ret = review_job(rv, p, o, step, &r);
	if (run_interrupted()) {
		result_free(&r);
		return 128 + run_interrupted();
	}
	if (ret && ret != EXIT_FAIL) {
		result_free(&r);
		return ret;
	}
	if (!r.name) {
		/* never started: nothing to save, and nothing to resume */
		return EXIT_FAIL;
	}
	pt = point_json(&r, pct, target, profile_depth(p));
	result_free(&r);
	if (!pt)
		return EXIT_FAIL;
	if (rv->desktops) {
		const char *sp = profile_get(&p->wl[0], "replay_speed");

		json_object_object_add(pt, "desktops",
				       json_object_new_uint64(rv->desktops));
		if (target && sp)
			json_object_object_add(pt, "replay_speed_pct",
					       json_object_new_double(strtod(sp, NULL)));
	}
	*iops = json_object_get_double(json_object_object_get(pt, "iops"));
	if (review_save_json(file, pt)) {
		fprintf(stderr, "blkgenctl: review: cannot write %s: %s\n", file,
			strerror(errno));
		json_object_put(pt);
		return EXIT_FAIL;
	}
	if (ret == EXIT_FAIL) {
		rv->failed++;
		fprintf(stderr, "review: that run failed (saved with its error; --resume runs it again)\n");
	} else if (!rv->probing) {
		rv->done++;
	}
	json_object_put(pt);
	rv->ran++;
	/* Stopped by the coordinator (or its absence): every host's review ends. */
	return o->lease_out ? EXIT_FAIL : EXIT_OK;
}

/*
 * The saved point's IOPS, or -1 if it is not there, or did not finish (a
 * failed or stopped run: --resume runs it again).
 */
static double saved_iops(const char *file)
{
	const char *state;
	json_object *o;
	double v = -1;

	if (access(file, F_OK))
		return -1;
	o = json_object_from_file(file);
	if (!o)
		return -1;
	state = json_object_get_string(json_object_object_get(o, "state"));
	if (state && !strcmp(state, "done"))
		v = json_object_get_double(json_object_object_get(o, "iops"));
	json_object_put(o);
	return v;
}

/* Points of the suite saved in DIR (a resumed review's start). */
static int saved_points(const struct review *rv)
{
	char file[4200], name[32];
	int i, k, n = 0;

	for (i = 0; i < rv->suite.n; i++) {
		point_path(file, sizeof(file), rv, rv->suite.e[i].name, "max");
		n += saved_iops(file) >= 0;
		for (k = 0; k < rv->npts; k++) {
			snprintf(name, sizeof(name), "%g", rv->pct[k]);
			point_path(file, sizeof(file), rv, rv->suite.e[i].name, name);
			n += saved_iops(file) >= 0;
		}
	}
	return n;
}

/* ---- workloads -------------------------------------------------------------- */

static int region_pct(const struct review *rv)
{
	return atoi(rv->region);
}

/*
 * A VDI workload's trace of @desktops desktops (generated once, the same
 * every time: DIR/traces/WL-Nd.csv) and its profile (WL-Nd.prof).
 */
static int vdi_profile(struct review *rv, const struct suite_entry *e,
		       unsigned int desktops, char *prof, size_t len)
{
	char trace[4200], size[32], desk[16], secs[32];
	uint64_t bytes = cfs_dev_bytes(rv->dev) / 100 * region_pct(rv);
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/traces/%s-%ud.csv", rv->dir, e->name,
		 desktops);
	snprintf(prof, len, "%s/traces/%s-%ud.prof", rv->dir, e->name, desktops);
	if (access(trace, F_OK)) {
		char tmp[4300];
		char *argv[] = { "vdi", "--clone", (char *)e->vdi_clone,
				 "--phase", (char *)e->vdi_phase, "--desktops",
				 desk, "--size", size, "--secs", secs, "-O", tmp,
				 NULL };

		snprintf(desk, sizeof(desk), "%u", desktops);
		snprintf(size, sizeof(size), "%llu", (unsigned long long)bytes);
		snprintf(secs, sizeof(secs), "%.10g", rv->point_secs);
		snprintf(tmp, sizeof(tmp), "%s/traces", rv->dir);
		if (mkdirs(tmp))
			return EXIT_FAIL;
		snprintf(tmp, sizeof(tmp), "%s.tmp", trace);
		if (cmd_vdi(13, argv) || sync_file(tmp) || rename(tmp, trace))
			return EXIT_FAIL;
	}
	f = fopen(prof, "w");
	if (!f)
		return EXIT_FAIL;
	fprintf(f, "# %s: a StorageReview-style VDI trace of %u desktops (Documentation/vdi.rst)\n"
		"[job]\nduration_ms = 0\n\n[workload %s]\ntrace = %s\ndepth = 32\n",
		e->title, desktops, e->name, trace);
	return fclose(f) ? EXIT_FAIL : EXIT_OK;
}

/* The most desktops a region holds: 1 MiB each, beside linked clones' replica. */
static unsigned int vdi_most(const struct review *rv)
{
	uint64_t n = cfs_dev_bytes(rv->dev) / 100 * region_pct(rv) / 100 * 92 >> 20;

	return n > VDI_MAX_DESKTOPS ? VDI_MAX_DESKTOPS : (unsigned int)n;
}

/*
 * Load @p from the VDI trace of @n desktops (made in DIR/traces), with ten
 * intervals a point (the knee compares their halves); *@trace_iops its rate.
 */
static int vdi_trace_load(struct review *rv, const struct suite_entry *e,
			  unsigned int n, struct profile *p,
			  struct run_opts *o, double *trace_iops)
{
	char prof[4200];
	int ret;

	ret = vdi_profile(rv, e, n, prof, sizeof(prof));
	if (ret) {
		fprintf(stderr, "blkgenctl: review: %s: cannot make its trace in %s/traces: %s\n",
			e->name, rv->dir, strerror(errno));
		return ret;
	}
	ret = run_load(prof, p, o);
	if (ret)
		return ret;
	put_ms(&p->job, "interval_ms", rv->point_secs * 100.0);
	if (curve_trace_rate(p, trace_iops) || !*trace_iops)
		return EXIT_USAGE;
	return EXIT_OK;
}

/*
 * A VDI workload's maximum: a copy of its last trace's run @from, unless
 * max.json holds a finished run over @desktops already (0: @from failed;
 * a maximum of another trace, from a blkgenctl before the scaling, is
 * replaced, not mixed with these points).
 */
static int copy_point(struct review *rv, const struct suite_entry *e,
		      const char *from, unsigned int desktops)
{
	char to[4200];
	json_object *pt;
	int ret = EXIT_OK;
	bool had;

	point_path(to, sizeof(to), rv, e->name, "max");
	had = saved_iops(to) >= 0;	/* counted by saved_points() */
	if (desktops && had) {
		pt = json_object_from_file(to);
		if (pt && json_object_get_uint64(json_object_object_get(pt, "desktops")) == desktops) {
			json_object_put(pt);
			return EXIT_OK;
		}
		json_object_put(pt);
	}
	pt = json_object_from_file(from);
	if (!pt) {
		fprintf(stderr, "blkgenctl: review: cannot read %s: %s\n", from,
			json_util_get_last_err());
		return EXIT_FAIL;
	}
	if (review_save_json(to, pt)) {
		fprintf(stderr, "blkgenctl: review: cannot write %s: %s\n", to,
			strerror(errno));
		ret = EXIT_FAIL;
	} else {
		rv->done += !!desktops - had;
	}
	json_object_put(pt);
	return ret;
}

/*
 * Load a VDI workload's profile @p: its trace, scaled to the drive, and
 * its maximum. The suite's desktops make a first trace, replayed as fast
 * as possible (DIR/points/WL/probe-Nd.json). A drive that takes a trace
 * k times faster than traced gets one of k times the desktops (as many as
 * the region holds), replayed as fast as possible again, up to
 * VDI_ROUNDS traces: a short trace's run is mostly its start and its
 * drain, so the first k is low. The last trace's run is the maximum
 * (max.json), over about --point-secs (vdi_point() makes each point's
 * trace); at the suite's desktops a fast drive's maximum lasted a
 * fraction of a second, and its points ran up to 100 times faster than
 * traced. *@desktops: the trace's (0: a run failed, the curve waits for
 * --resume); *@trace_iops: its own rate.
 */
#define VDI_ROUNDS	4
#define VDI_NEAR	1.25	/* the maximum within 1.25 x the trace's rate */

static int vdi_load(struct review *rv, const struct suite_entry *e,
		    struct run_opts *o, struct profile *p,
		    unsigned int *desktops, double *trace_iops)
{
	unsigned int n = rv->suite.desktops, most = vdi_most(rv), next;
	struct coord_agreed all;
	char file[4200], name[32], about[128];
	double iops, k = 0;
	int ret, f0, round;

	for (round = 1; ; round++) {
		ret = vdi_trace_load(rv, e, n, p, o, trace_iops);
		if (ret)
			return ret;
		*desktops = n;

		snprintf(name, sizeof(name), "probe-%ud", n);
		point_path(file, sizeof(file), rv, e->name, name);
		iops = saved_iops(file);
		if (iops < 0) {
			say(rv, "%s: maximum: the trace of %u desktops as fast as possible (%d of at most %d)",
			    e->title, n, round, VDI_ROUNDS);
			curve_set_max(p, *trace_iops);
			f0 = rv->failed;
			rv->probing = true;
			ret = run_point(rv, p, o, file, 0, 0, &iops);
			rv->probing = false;
			if (ret)
				return ret;
			if (rv->failed > f0) {
				/* the report shows the maximum failed, with why */
				*desktops = 0;
				return copy_point(rv, e, file, 0);
			}
		}
		k = iops / *trace_iops;
		next = round == VDI_ROUNDS || k <= VDI_NEAR || n >= most ? 0 :
		       ceil(n * k) > most ? most : (unsigned int)ceil(n * k);
		/*
		 * Across hosts, the fewest desktops any of them would take
		 * next (none: every host stops here): their traces stay alike.
		 */
		snprintf(about, sizeof(about), "points/%s/%s", e->name, name);
		ret = review_agree(rv, about, next, &all);
		if (ret)
			return ret;
		if (!all.min)
			break;
		n = all.min;
		profile_free(p);
	}
	if (k > VDI_NEAR)
		fprintf(stderr, "review: %s: the drive takes %u desktops %.2f times faster than traced%s\n",
			e->title, n, k, n >= most ?
			" (the region holds no more, at 1 MiB a desktop)" : "");
	/* That last run is the maximum. */
	return copy_point(rv, e, file, n);
}

/*
 * A VDI point at @pct of the maximum: the storm of that share of the
 * maximum's @desktops (as many as the region holds), in @p, replayed near
 * its own speed, so that every point lasts about --point-secs (one trace
 * replayed slower for the lower points ran 10 times longer at 10%).
 * *@trace_iops: its own rate.
 */
static int vdi_point(struct review *rv, const struct suite_entry *e,
		     struct run_opts *o, struct profile *p,
		     unsigned int desktops, double pct, double *trace_iops)
{
	double want = ceil(desktops * pct / 100 - 0.5);
	unsigned int n = want < 1 ? 1 : want > vdi_most(rv) ?
			 vdi_most(rv) : (unsigned int)want;
	int ret;

	profile_free(p);
	ret = vdi_trace_load(rv, e, n, p, o, trace_iops);
	if (ret)
		return ret;
	rv->desktops = n;
	return EXIT_OK;
}

static int run_entry(struct review *rv, const struct suite_entry *e)
{
	struct run_opts o = { .quiet = rv->quiet, .allow_write = true,
			      .said_overwrite = true, .ops = &print_normal_ops };
	char file[4200], range[32], rate[32], name[32];
	struct profile p = { 0 };
	double max, trace_iops = 0, iops;
	unsigned int desktops = 0;	/* the VDI maximum's */
	uint64_t target;
	int i, ret, f0;

	snprintf(file, sizeof(file), "%s/points/%s", rv->dir, e->name);
	if (mkdirs(file)) {
		fprintf(stderr, "blkgenctl: review: mkdir %s: %s\n", file, strerror(errno));
		return EXIT_FAIL;
	}
	o.devices[o.nr_devices++] = rv->dev;
	for (i = 0; i < e->nr_sets; i++)
		o.sets[o.nr_sets++] = e->sets[i];
	snprintf(range, sizeof(range), "range=0%%-%d%%", region_pct(rv));
	o.sets[o.nr_sets++] = range;
	rv->desktops = 0;
	if (e->vdi_clone[0]) {
		ret = vdi_load(rv, e, &o, &p, &rv->desktops, &trace_iops);
		if (ret)
			goto out;
		desktops = rv->desktops;
		if (!desktops) {
			fprintf(stderr, "review: %s: its trace not scaled, so no maximum and no curve: they wait for --resume\n",
				e->title);
			goto out;
		}
	} else {
		ret = run_load(e->profile, &p, &o);
		if (ret)
			goto out;
		/* Ten intervals a point: the knee compares their halves. */
		put_ms(&p.job, "interval_ms", rv->point_secs * 100.0);
		put_ms(&p.job, "duration_ms", rv->point_secs * 1000.0);
		put_ms(&p.job, "warmup_ms", rv->point_secs * 1000.0 / 6);
	}

	point_path(file, sizeof(file), rv, e->name, "max");
	max = saved_iops(file);
	if (max < 0) {
		say(rv, "%s: maximum (%s)", e->title,
		    trace_iops ? "the trace as fast as possible" : "unthrottled");
		curve_set_max(&p, trace_iops);
		f0 = rv->failed;
		ret = run_point(rv, &p, &o, file, 0, 0, &max);
		if (ret)
			goto out;
		if (rv->failed > f0) {
			fprintf(stderr, "review: %s: no maximum, so no curve: its points wait for --resume\n",
				e->title);
			goto out;
		}
	}
	if (max < 1)
		max = 10000;	/* vdbench's fallback for a run without I/O */
	for (i = 0; i < rv->npts; i++) {
		snprintf(name, sizeof(name), "%g", rv->pct[i]);
		point_path(file, sizeof(file), rv, e->name, name);
		if (saved_iops(file) >= 0)
			continue;
		target = curve_target((uint64_t)(max + 0.5), rv->pct[i]);
		snprintf(rate, sizeof(rate), "%llu", (unsigned long long)target);
		if (desktops) {
			ret = vdi_point(rv, e, &o, &p, desktops, rv->pct[i],
					&trace_iops);
			if (ret)
				goto out;
		}
		curve_set_target(&p, target, trace_iops);
		say(rv, "%s: %g%% of %.0f = %s IOPS%s", e->title, rv->pct[i], max,
		    rate, desktops ? " (a storm of that share of the desktops)" : "");
		ret = run_point(rv, &p, &o, file, rv->pct[i], target, &iops);
		if (ret)
			goto out;
	}
out:
	profile_free(&p);
	return ret;
}

/* ---- preconditioning ------------------------------------------------------------ */

/* Discard the whole device: secure discard, else discard; the method used. */
static const char *purge(const char *dev)
{
	uint64_t range[2] = { 0, cfs_dev_bytes(dev) };
	int fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	const char *how = "none (the device takes neither secure discard nor discard)";

	if (fd < 0)
		return "none (the device could not be opened exclusively)";
	if (!range[1]) {
		close(fd);
		return "none (the device's size could not be read)";
	}
	if (!ioctl(fd, BLKSECDISCARD, range))
		how = "secure discard (BLKSECDISCARD)";
	else if (!ioctl(fd, BLKDISCARD, range))
		how = "discard (BLKDISCARD)";
	close(fd);
	return how;
}

/* A precondition run of a profile; its measured point (or NULL). */
static json_object *pre_run(struct review *rv, const char *prof,
			    const char **sets, int nr, const char *step,
			    int *ret)
{
	struct run_opts o = { .quiet = rv->quiet, .allow_write = true,
			      .said_overwrite = true, .ops = &print_normal_ops };
	struct profile p = { 0 };
	struct job_result r = { 0 };
	json_object *pt = NULL;
	int i;

	o.devices[o.nr_devices++] = rv->dev;
	for (i = 0; i < nr; i++)
		o.sets[o.nr_sets++] = sets[i];
	*ret = run_load(prof, &p, &o);
	if (!*ret) {
		*ret = review_job(rv, &p, &o, step, &r);
		if (!*ret)
			pt = point_json(&r, 0, 0, profile_depth(&p));
		result_free(&r);
	}
	profile_free(&p);
	if (run_interrupted())
		*ret = 128 + run_interrupted();
	if (*ret || !pt) {
		json_object_put(pt);
		if (!*ret)
			*ret = EXIT_FAIL;
		return NULL;
	}
	return pt;
}

static int precondition(struct review *rv)
{
	char file[4200], secs[32], warm[32], range[32], zfill[64];
	const char *fill_sets[] = { rv->quick ? "io_limit=1x" : "io_limit=2x" };
	json_object *pc, *arr, *own = NULL, *pt;
	struct coord_agreed all;
	char step[64];
	double y[32];
	struct steady st = { 0 };
	int ret, n = 0, max_rounds = 25;
	time_t t;

	snprintf(file, sizeof(file), "%s/precondition.json", rv->dir);
	if (!access(file, F_OK))
		return EXIT_OK;		/* done before this --resume */
	pc = json_object_new_object();
	json_object_object_add(pc, "method", json_object_new_string(rv->precondition));
	if (!strcmp(rv->precondition, "none"))
		goto save;
	if (!strcmp(rv->precondition, "pts")) {
		const char *how = purge(rv->dev);

		say(rv, "precondition: purge: %s", how);
		json_object_object_add(pc, "purge", json_object_new_string(how));
	}
	if (rv->suite.zoned) {
		/* Every zone from empty to full once: its capacity in I/Os. */
		ret = cfs_reset_zones(rv->dev);
		if (ret) {
			fprintf(stderr, "blkgenctl: review: cannot reset the zones of %s: %s\n",
				rv->dev, strerror(-ret));
			json_object_put(pc);
			return EXIT_FAIL;
		}
		snprintf(zfill, sizeof(zfill), "io_limit=%llu",
			 (unsigned long long)rv->zone_fill);
		fill_sets[0] = zfill;
		say(rv, "precondition: zoned: every zone reset, then filled once with 128 KiB writes at the write pointers (%.1f MB)",
		    rv->zone_bytes / 1e6);
		json_object_object_add(pc, "zoned_bytes",
				       json_object_new_uint64(rv->zone_bytes));
	} else {
		say(rv, "precondition: sequential fill, 128 KiB writes, %s the device",
		    rv->quick ? "once over" : "twice over");
	}
	t = time(NULL);
	pt = pre_run(rv, "precondition", fill_sets, 1, "precondition/fill", &ret);
	if (ret) {
		json_object_put(pc);
		return ret;
	}
	json_object_object_add(pt, "secs", json_object_new_double(difftime(time(NULL), t)));
	json_object_object_add(pc, "fill", pt);
	if (strcmp(rv->precondition, "pts"))
		goto save;
	/* Workload-dependent rounds: 4 KiB random writes over the region. */
	snprintf(secs, sizeof(secs), "duration_ms=%.0f", rv->point_secs * 1000);
	snprintf(warm, sizeof(warm), "warmup_ms=0");
	snprintf(range, sizeof(range), "range=0%%-%d%%", region_pct(rv));
	arr = json_object_new_array();
	json_object_object_add(pc, "rounds", arr);
	/*
	 * Across hosts, steady state is the array's: each round's IOPS the
	 * hosts' sum (every host decides alike, and the rounds stay in step);
	 * this host's own beside them.
	 */
	if (rv->co.coord) {
		own = json_object_new_array();
		json_object_object_add(pc, "host_rounds", own);
	}
	while (n < max_rounds) {
		const char *sets[] = { secs, warm, range, "depth=32" };
		double iops;

		say(rv, "precondition: steady-state round %d (4 KiB random writes)", n + 1);
		snprintf(step, sizeof(step), "precondition/round-%d", n + 1);
		pt = pre_run(rv, "4k-random-write", sets, 4, step, &ret);
		if (ret) {
			json_object_put(pc);
			return ret;
		}
		iops = json_object_get_double(json_object_object_get(pt, "iops"));
		json_object_put(pt);
		ret = review_agree(rv, step, llround(iops), &all);
		if (ret) {
			json_object_put(pc);
			return ret;
		}
		y[n] = own ? all.sum : iops;
		if (own) {
			json_object_array_add(own, json_object_new_double(iops));
			json_object_object_add(pc, "hosts", json_object_new_int(all.hosts));
			fprintf(stderr, "review: round %d: this host %.0f IOPS, %d hosts %.0f\n",
				n + 1, iops, all.hosts, y[n]);
		}
		json_object_array_add(arr, json_object_new_double(y[n]));
		steady_check(y, ++n, &st);
		if (n >= STEADY_WINDOW)
			fprintf(stderr, "review: round %d: %.0f IOPS; last %d: average %.0f, excursion %.1f%%, slope excursion %.1f%% (limits 20%%, 10%%)\n",
				n, y[n - 1], STEADY_WINDOW, st.avg,
				st.avg ? 100 * st.excursion / st.avg : 0,
				st.avg ? 100 * st.slope_excursion / st.avg : 0);
		else
			fprintf(stderr, "review: round %d: %.0f IOPS\n", n, y[n - 1]);
		if (st.attained)
			break;
	}
	json_object_object_add(pc, "max_rounds", json_object_new_int(max_rounds));
	json_object_object_add(pc, "window", json_object_new_int(STEADY_WINDOW));
	json_object_object_add(pc, "steady_state", json_object_new_boolean(st.attained));
	json_object_object_add(pc, "window_avg", json_object_new_double(st.avg));
	json_object_object_add(pc, "excursion", json_object_new_double(st.excursion));
	json_object_object_add(pc, "slope_excursion", json_object_new_double(st.slope_excursion));
	say(rv, "precondition: steady state %s after %d rounds (window average %.0f IOPS)",
	    st.attained ? "attained" : "NOT attained", n, st.avg);
save:
	ret = review_save_json(file, pc) ? EXIT_FAIL : EXIT_OK;
	if (ret)
		fprintf(stderr, "blkgenctl: review: cannot write %s: %s\n", file, strerror(errno));
	json_object_put(pc);
	return ret;
}

/* ---- the plan ------------------------------------------------------------------ */

static json_object *plan_json(const struct review *rv)
{
	json_object *o = json_object_new_object(), *d = json_object_new_object();
	json_object *pts = json_object_new_array();
	char buf[256], date[64];
	struct utsname u;
	time_t now = time(NULL);
	int i;

	json_object_object_add(o, "blkgenctl_version", json_object_new_string(BLKGENCTL_VERSION));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(o, "date", json_object_new_string(date));
	uname(&u);
	json_object_object_add(o, "kernel", json_object_new_string(u.release));
	/* whose review: the name a coordinator knows it by (review --merge's) */
	json_object_object_add(o, "host", json_object_new_string(rv->co.host_name ?
			       rv->co.host_name : u.nodename));
	json_object_object_add(d, "path", json_object_new_string(rv->dev));
	cfs_device_id(rv->dev, "model", buf, sizeof(buf));
	json_object_object_add(d, "model", json_object_new_string(buf));
	cfs_device_id(rv->dev, "serial", buf, sizeof(buf));
	json_object_object_add(d, "serial", json_object_new_string(buf));
	cfs_device_id(rv->dev, "firmware_rev", buf, sizeof(buf));
	json_object_object_add(d, "firmware", json_object_new_string(buf));
	json_object_object_add(d, "capacity_bytes", json_object_new_uint64(cfs_dev_bytes(rv->dev)));
	json_object_object_add(o, "device", d);
	json_object_object_add(o, "suite", json_object_new_string(rv->suite_arg));
	json_object_object_add(o, "precondition", json_object_new_string(rv->precondition));
	json_object_object_add(o, "region", json_object_new_string(rv->region));
	/* 60, or 0.5: an integer when it is one (plans before 0.5 s points) */
	json_object_object_add(o, "point_secs", rv->point_secs == floor(rv->point_secs) ?
			       json_object_new_int((int)rv->point_secs) :
			       json_object_new_double(rv->point_secs));
	json_object_object_add(o, "quick", json_object_new_boolean(rv->quick));
	for (i = 0; i < rv->npts; i++)
		json_object_array_add(pts, json_object_new_double(rv->pct[i]));
	json_object_object_add(o, "points", pts);
	return o;
}

static bool valid_precondition(const char *m)
{
	return !strcmp(m, "fill") || !strcmp(m, "pts") || !strcmp(m, "none");
}

static const char *plan_str(json_object *o, const char *k)
{
	const char *v = json_object_get_string(json_object_object_get(o, k));

	return v && strlen(v) < 8 + 4000 ? v : "";
}

/*
 * Jobs a killed review left (review-PID, PID gone: SIGKILL, a crash) run
 * on, holding the drive: remove them, and say so.
 */
static void remove_orphans(void)
{
	char **names;
	int i, n, pid, end, ret;

	n = cfs_list(cfs_root(), &names);
	for (i = 0; i < n; i++) {
		end = 0;
		if (sscanf(names[i], "review-%d%n", &pid, &end) != 1 ||
		    names[i][end] || pid <= 0 || pid == getpid() ||
		    !kill(pid, 0) || errno != ESRCH)
			continue;
		ret = cfs_remove_job(names[i]);
		fprintf(stderr, "review: job %s was left by a review that is gone (pid %d): %s\n",
			names[i], pid, ret ? strerror(-ret) : "removed");
	}
	if (n >= 0)
		cfs_free_list(names, n);
}

/* --resume: the plan's settings; the device must be the same. */
static int resume_plan(struct review *rv, const char *file)
{
	json_object *o = json_object_from_file(file), *v;
	char *real_a, *real_b;
	int i, ret = EXIT_OK;

	if (!o) {
		fprintf(stderr, "blkgenctl: review --resume: no review in %s (%s)\n",
			rv->dir, json_util_get_last_err());
		return EXIT_USAGE;
	}
	v = json_object_object_get(json_object_object_get(o, "device"), "path");
	real_a = realpath(rv->dev, NULL);
	real_b = realpath(json_object_get_string(v) ? json_object_get_string(v) : "", NULL);
	if (!real_a || !real_b || strcmp(real_a, real_b)) {
		fprintf(stderr, "blkgenctl: review --resume: %s is a review of %s, not %s\n",
			rv->dir, json_object_get_string(v), rv->dev);
		ret = EXIT_USAGE;
	}
	free(real_a);
	free(real_b);
	/* After a reboot names can move: the same drive, by what it says. */
	{
		json_object *d = json_object_object_get(o, "device");
		static const char *const ids[][2] = { { "model", "model" },
			{ "serial", "serial" }, { "firmware", "firmware_rev" } };
		char now[256];
		unsigned int k;

		for (k = 0; !ret && k < 3; k++) {
			const char *was = json_object_get_string(json_object_object_get(d, ids[k][0]));

			cfs_device_id(rv->dev, ids[k][1], now, sizeof(now));
			if (strcmp(was ? was : "", now)) {
				fprintf(stderr, "blkgenctl: review --resume: %s's %s is '%s', the review's drive had '%s': not the same drive\n",
					rv->dev, ids[k][0], now, was ? was : "");
				ret = EXIT_USAGE;
			}
		}
		if (!ret && (uint64_t)json_object_get_int64(json_object_object_get(d, "capacity_bytes")) !=
		    cfs_dev_bytes(rv->dev)) {
			fprintf(stderr, "blkgenctl: review --resume: %s is not the size of the review's drive\n",
				rv->dev);
			ret = EXIT_USAGE;
		}
	}
	snprintf(rv->suite_arg, sizeof(rv->suite_arg), "%s",
		 plan_str(o, "suite"));
	snprintf(rv->precondition, sizeof(rv->precondition), "%s",
		 plan_str(o, "precondition"));
	snprintf(rv->region, sizeof(rv->region), "%s", plan_str(o, "region"));
	rv->point_secs = round(json_object_get_double(json_object_object_get(o, "point_secs")) * 1000) / 1000;
	rv->quick = json_object_get_boolean(json_object_object_get(o, "quick"));
	v = json_object_object_get(o, "points");
	rv->npts = 0;
	for (i = 0; json_object_is_type(v, json_type_array) &&
		    i < (int)json_object_array_length(v) && i < 64; i++)
		rv->pct[rv->npts++] = json_object_get_double(json_object_array_get_idx(v, i));
	json_object_put(o);
	if (!ret && (!rv->suite_arg[0] || !rv->npts || !(rv->point_secs >= 0.1) ||
		     rv->point_secs > POINT_SECS_MAX || region_pct(rv) < 1 || region_pct(rv) > 100 ||
		     !valid_precondition(rv->precondition))) {
		fprintf(stderr, "blkgenctl: review --resume: %s: not a plan blkgenctl wrote (suite, points, point_secs, region or precondition missing or wrong)\n",
			file);
		ret = EXIT_USAGE;
	}
	return ret;
}

static const char *duration(double secs, char *buf, size_t len)
{
	if (secs < 3600)
		snprintf(buf, len, "%.0f min", ceil(secs / 60));
	else
		snprintf(buf, len, "%.1f h", secs / 3600);
	return buf;
}

/* A profile entry's file and sets: loadable, known keys, sizes that parse. */
static int check_entry(const struct suite *su, const struct suite_entry *e)
{
	const char *dir = profile_dir();
	char path[4096], err[1024];
	struct profile p = { 0 };
	int i, ret = -1;

	if (named_file(path, sizeof(path), e->profile,
		       dir, ".prof") < 0 ||
	    access(path, F_OK)) {
		fprintf(stderr, "blkgenctl: review: %s:%d: workload %s: no profile '%s' (a file, or a name in BLKGEN_PROFILES or the installed profiles)\n",
			su->file, e->line, e->name, e->profile);
		return -1;
	}
	if (profile_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: review: %s:%d: workload %s: %s\n",
			su->file, e->line, e->name, err);
		goto out;
	}
	for (i = 0; i < e->nr_sets; i++)
		if (profile_set(&p, e->sets[i], err, sizeof(err))) {
			fprintf(stderr, "blkgenctl: review: %s:%d: workload %s: set = %s: %s\n",
				su->file, e->line, e->name, e->sets[i], err);
			goto out;
		}
	/* bs, range and distribution were checked as they were read. */
	ret = 0;
out:
	profile_free(&p);
	return ret;
}

/* How long: the runs, and the preconditioning at 2 GB/s (said so). */
static void plan_estimate(const struct review *rv, FILE *out)
{
	double runs = rv->total * rv->est_run, pre = 0;
	uint64_t bytes = rv->dev ? cfs_dev_bytes(rv->dev) : 0;
	int passes = rv->quick ? 1 : 2;
	char buf[32];

	fprintf(out, "review: %d runs: about %s", rv->total,
		duration(runs, buf, sizeof(buf)));
	if (strcmp(rv->precondition, "none")) {
		if (rv->suite.zoned && rv->zone_bytes) {
			pre = rv->zone_bytes / 2e9;
			fprintf(out, ", after a zoned fill of %.1f GB (every zone once; at 2 GB/s: %s)",
				rv->zone_bytes / 1e9,
				duration(pre, buf, sizeof(buf)));
		} else if (rv->suite.zoned) {
			fprintf(out, ", after a zoned fill (every zone reset, then written once)");
		} else if (bytes) {
			pre = passes * bytes / 2e9;
			fprintf(out, ", after a fill of %d x %.1f GB (at 2 GB/s: %s)",
				passes, bytes / 1e9, duration(pre, buf, sizeof(buf)));
		} else {
			fprintf(out, ", after a fill of %d x the drive's capacity", passes);
		}
		if (!strcmp(rv->precondition, "pts"))
			fprintf(out, " and up to 25 steady-state rounds of %.10g s",
				rv->point_secs);
	}
	fprintf(out, "\n");
}

static bool is_block(const char *dev)
{
	struct stat st;

	return !stat(dev, &st) && S_ISBLK(st.st_mode);
}

int cmd_review(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "allow-write", no_argument, NULL, 'W' },
		{ "output-dir", required_argument, NULL, 'O' },
		{ "suite", required_argument, NULL, 's' },
		{ "precondition", required_argument, NULL, 'p' },
		{ "region", required_argument, NULL, 'r' },
		{ "point-secs", required_argument, NULL, 'S' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "resume", no_argument, NULL, 'R' },
		{ "report", no_argument, NULL, 'P' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "coordinator", required_argument, NULL, 'C' },
		{ "host-name", required_argument, NULL, 'H' },
		{ "lease-secs", required_argument, NULL, 'e' },
		{ "merge", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct review rv = { .precondition = "fill", .region = "25%" };
	bool allow = false, resume = false, secs_given = false, report = false;
	bool dry_run = false, merge = false;
	FILE *pf;
	char plan[4200], suite_copy[4200], err[8192], *end;
	const char *suite = "full";
	json_object *pj;
	int c, i, ret, pct, lock = -1;
	double secs;

	run_catch_signals();
	optind = 1;
	while ((c = getopt_long(argc, argv, "O:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			rv.dev = optarg;
			break;
		case 'W':
			allow = true;
			break;
		case 'O':
			rv.dir = optarg;
			break;
		case 's':
			suite = optarg;
			break;
		case 'p':
			if (!valid_precondition(optarg)) {
				fprintf(stderr, "blkgenctl: review: --precondition %s: expected fill, pts or none\n",
					optarg);
				return EXIT_USAGE;
			}
			snprintf(rv.precondition, sizeof(rv.precondition), "%s", optarg);
			break;
		case 'r':
			pct = (int)strtol(optarg, &end, 10);
			if (end == optarg || (*end && strcmp(end, "%")) || pct < 1 || pct > 100) {
				fprintf(stderr, "blkgenctl: review: --region %s: expected a percent of the device, 1%% to 100%%\n",
					optarg);
				return EXIT_USAGE;
			}
			snprintf(rv.region, sizeof(rv.region), "%d%%", pct);
			break;
		case 'S':
			errno = 0;
			secs = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(secs >= 0.1 && secs <= POINT_SECS_MAX) ||
			    fabs(secs * 1000 - round(secs * 1000)) > 1e-6) {
				fprintf(stderr, "blkgenctl: review: --point-secs %s: expected 0.1 to %d seconds, in whole milliseconds\n",
					optarg, POINT_SECS_MAX);
				return EXIT_USAGE;
			}
			rv.point_secs = round(secs * 1000) / 1000;
			secs_given = true;
			break;
		case 'Q':
			rv.quick = true;
			break;
		case 'R':
			resume = true;
			break;
		case 'P':
			report = true;
			break;
		case 'n':
			dry_run = true;
			break;
		case 'q':
			rv.quiet = true;
			break;
		case 'C':
			rv.co.coordinator = optarg;
			break;
		case 'H':
			rv.co.host_name = optarg;
			break;
		case 'e':
			if (parse_lease_opt(c, optarg, &rv.co))
				return EXIT_USAGE;
			break;
		case 'M':
			merge = true;
			break;
		case 'h':
			printf("usage: %s\n%s", review_usage, review_help);
			return EXIT_OK;
		default:
			goto usage;
		}
	}
	if (report && optind == argc && rv.dir)
		return review_report(rv.dir, rv.quiet);
	if (merge) {
		if (!rv.dir || optind == argc)
			goto usage;
		return review_merge(rv.dir, argv + optind, argc - optind, rv.quiet);
	}
	if (check_lease_opts(&rv.co))
		return EXIT_USAGE;
	if (optind != argc || (!dry_run && (!rv.dev || !rv.dir)))
		goto usage;
	if (!dry_run && !allow) {
		fprintf(stderr, "blkgenctl: review writes all of %s (its fill and its write workloads) and destroys its data: add --allow-write\n",
			rv.dev);
		return EXIT_USAGE;
	}
	if (rv.dir)
		snprintf(plan, sizeof(plan), "%s/plan.json", rv.dir);
	if (resume) {
		if (!rv.dir || !rv.dev)
			goto usage;
		ret = resume_plan(&rv, plan);
		if (ret)
			return ret;
		fprintf(stderr, "review: resuming %s with its settings (suite %s, %s, region %s, %.10g s points)\n",
			rv.dir, rv.suite_arg, rv.precondition, rv.region, rv.point_secs);
	} else {
		if (rv.dir && !dry_run && !access(plan, F_OK)) {
			fprintf(stderr, "blkgenctl: review: %s holds a review already: --resume to continue it, or give another -O\n",
				rv.dir);
			return EXIT_USAGE;
		}
		snprintf(rv.suite_arg, sizeof(rv.suite_arg), "%s", suite);
		if (!secs_given)
			rv.point_secs = rv.quick ? 2 : 60;
		rv.npts = curve_points(rv.quick ? "10,50,100" : "10-120,10", rv.pct, 64);
	}
	/* A resumed review takes the suite as it was (its copy in DIR). */
	if (resume)
		snprintf(suite_copy, sizeof(suite_copy), "%s/suite.suite", rv.dir);
	if (suite_load(resume && !access(suite_copy, F_OK) ? suite_copy : rv.suite_arg,
		       &rv.suite, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: review: %s\n", err);
		return EXIT_USAGE;
	}
	if (resume) {
		const char *b = strrchr(rv.suite_arg, '/') ? strrchr(rv.suite_arg, '/') + 1 : rv.suite_arg;

		snprintf(rv.suite.name, sizeof(rv.suite.name), "%.*s", (int)strcspn(b, "."), b);
	}
	if (rv.suite.points[0]) {
		double tmp[64];
		int np = curve_points(rv.suite.points, tmp, 64);

		if (np > 0 && !resume && !rv.quick) {
			memcpy(rv.pct, tmp, sizeof(tmp));
			rv.npts = np;
		}
		if (np <= 0) {
			fprintf(stderr, "blkgenctl: review: %s: points = %s: expected FROM-TO,STEP or P,P,...\n",
				rv.suite.file, rv.suite.points);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	for (i = 0; i < rv.suite.n; i++) {
		const struct suite_entry *e = &rv.suite.e[i];

		/* its profile and sets, before anything is written: not hours later */
		if (e->profile[0] && check_entry(&rv.suite, e)) {
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (rv.quick)
		rv.suite.desktops = rv.suite.desktops < 4 ? rv.suite.desktops : 4;

	/* A device named is checked, on a dry run too. */
	if (rv.dev && !is_block(rv.dev)) {
		fprintf(stderr, "blkgenctl: review: %s is not a block device\n", rv.dev);
		ret = EXIT_USAGE;
		goto out;
	}
	/*
	 * A zoned drive takes writes only at write pointers: the reviews'
	 * fill and random writes do not apply, a zoned suite's do (and its
	 * fill alone: PTS purges and rounds of regular random writes).
	 */
	if (rv.suite.zoned && !strcmp(rv.precondition, "pts")) {
		fprintf(stderr, "blkgenctl: review: suite %s is for zoned drives: --precondition fill or none, not pts (a purge and rounds of random writes anywhere)\n",
			rv.suite.name);
		ret = EXIT_USAGE;
		goto out;
	}
	if (rv.dev) {
		int zoned = cfs_dev_zoned(rv.dev, 128 << 10, &rv.zone_bytes,
					  &rv.zone_fill);

		if (zoned < 0) {
			fprintf(stderr, "blkgenctl: review: cannot report the zones of %s: %s\n",
				rv.dev, strerror(-zoned));
			ret = EXIT_FAIL;
			goto out;
		}
		if (zoned && !rv.suite.zoned) {
			fprintf(stderr, "blkgenctl: review: %s is a zoned device: suite %s is not for one (its fill and random writes assume a drive written anywhere); use --suite zoned (Documentation/zoned.rst)\n",
				rv.dev, rv.suite.name);
			ret = EXIT_USAGE;
			goto out;
		}
		if (!zoned && rv.suite.zoned) {
			fprintf(stderr, "blkgenctl: review: suite %s is for zoned devices; %s is not one\n",
				rv.suite.name, rv.dev);
			ret = EXIT_USAGE;
			goto out;
		}
		if (zoned && !rv.zone_fill) {
			fprintf(stderr, "blkgenctl: review: every zone of %s is read-only or offline\n",
				rv.dev);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	/* The plan, and how long it takes: a dry run's output, else said. */
	pf = dry_run ? stdout : stderr;
	rv.total = rv.suite.n * (1 + rv.npts);
	rv.est_run = rv.point_secs * 7.0 / 6 + 1;
	fprintf(pf, "review: suite %s (%s): %d workloads x (maximum + %d points) of %.10g s; precondition %s, region %s\n",
		rv.suite.name, rv.suite.title[0] ? rv.suite.title : rv.suite.file,
		rv.suite.n, rv.npts, rv.point_secs, rv.precondition, rv.region);
	for (i = 0; i < rv.suite.n; i++)
		fprintf(pf, "review:   %-24s %s\n", rv.suite.e[i].name,
			rv.suite.e[i].title);
	plan_estimate(&rv, pf);
	if (dry_run) {
		ret = EXIT_OK;
		goto out;
	}
	for (i = 0; i < rv.suite.n; i++) {
		uint64_t region = cfs_dev_bytes(rv.dev) / 100 * region_pct(&rv);

		/* the trace's footprint is the region: 1 MiB a desktop at least */
		if (rv.suite.e[i].vdi_clone[0] &&
		    region / 100 * 92 / rv.suite.desktops < (1 << 20)) {
			fprintf(stderr, "blkgenctl: review: %s:%d: workload %s: a region of %llu bytes is too small for %u desktops (at least 1 MiB each)\n",
				rv.suite.file, rv.suite.e[i].line, rv.suite.e[i].name,
				(unsigned long long)region, rv.suite.desktops);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	ret = cfs_need_module();
	if (ret)
		goto out;
	if (mkdirs(rv.dir)) {
		fprintf(stderr, "blkgenctl: review: mkdir %s: %s\n", rv.dir, strerror(errno));
		ret = EXIT_FAIL;
		goto out;
	}
	if (!resume) {
		pj = plan_json(&rv);
		snprintf(suite_copy, sizeof(suite_copy), "%s/suite.suite", rv.dir);
		ret = review_copy_file(rv.suite.file, suite_copy) || review_save_json(plan, pj);
		json_object_put(pj);
		if (ret) {
			fprintf(stderr, "blkgenctl: review: cannot write %s: %s\n", plan, strerror(errno));
			ret = EXIT_FAIL;
			goto out;
		}
	}
	/* One review in DIR at a time: a second (or a resume) waits for none. */
	snprintf(suite_copy, sizeof(suite_copy), "%s/.lock", rv.dir);
	lock = open(suite_copy, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "blkgenctl: review: %s is in use by another review (%s)\n",
			rv.dir, lock < 0 ? strerror(errno) : "locked");
		ret = EXIT_USAGE;
		goto out;
	}
	remove_orphans();
	rv.done = saved_points(&rv);
	if (resume)
		fprintf(stderr, "review: %d of %d points saved before\n", rv.done, rv.total);
	rv.t0 = time(NULL);
	describe(rv.dev, err, sizeof(err));
	fprintf(stderr, "review: will overwrite all of %s (%s); the points go to %s\n",
		rv.dev, err, rv.dir);

	/* Across hosts: each run as the coordinator says, in step. */
	ret = run_coord_open(&rv.co, "review", 0);
	if (!ret && rv.co.coord && coord_require_reviews(rv.co.coord, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: review: %s\n", err);
		ret = EXIT_FAIL;
	}
	if (!ret)
		ret = precondition(&rv);
	for (i = 0; !ret && i < rv.suite.n; i++) {
		ret = run_entry(&rv, &rv.suite.e[i]);
		if (!ret || run_interrupted())
			review_report(rv.dir, true);
	}
	if (run_interrupted()) {
		fprintf(stderr, "review: stopped; %s is consistent: blkgenctl review --device %s --allow-write -O %s --resume continues it\n",
			rv.dir, rv.dev, rv.dir);
		ret = 128 + run_interrupted();
	} else if (!ret) {
		ret = review_report(rv.dir, false);
		if (!ret && rv.failed) {
			fprintf(stderr, "review: %d runs failed (their errors are in review.json); --resume runs them again\n",
				rv.failed);
			ret = EXIT_FAIL;
		}
	}
out:
	if (rv.co.coord)
		ret = run_coord_bye(&rv.co, ret);
	if (lock >= 0)
		close(lock);
	suite_free(&rv.suite);
	return ret;
usage:
	fprintf(stderr, "usage: %s\n", review_usage);
	return EXIT_USAGE;
}
