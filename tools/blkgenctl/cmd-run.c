// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl run PROFILE: build a job from a profile in configfs, run it
 * with live progress on stderr, print the report on stdout, remove the
 * job. Everything is validated before anything is created, and whatever
 * was created is removed again on any failure, Ctrl-C or SIGTERM.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"
#include "pattern.h"
#include "profile.h"
#include "replay-map.h"
#include "replay.h"
#include "coord.h"
#include "run.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

int run_interrupted(void)
{
	return interrupted;
}

/* Ctrl-C, kill and a lost terminal stop the job cleanly (run_interrupted). */
void run_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static const char *run_usage =
	"blkgenctl run PROFILE... [--device DEV]... [--set [WL.]KEY=VALUE]...\n"
	"                      [--allow-write] [-o normal|json|csv|csv-intervals|fio] [-q] [--name JOB] [--keep]\n"
	"                      [--dry-run] [--start-at TIME] [--lease FILE [--lease-secs N]]\n"
	"                      [--coordinator HOST:PORT [--host-name NAME]]";

/* --help of run and curve: what each option does. */
static const char *run_help =
	"\n"
	"Create the job and workloads of PROFILE (a file, or a name in the\n"
	"profiles directory), run it with a progress line each second, report\n"
	"it and remove it. Several PROFILEs run one after another (each\n"
	"checked first; stopping at one that fails), in one report with a\n"
	"summary line each (normal, json, csv).\n"
	"\n"
	"      --device DEV        every workload's device, in order (round-robin\n"
	"                          when fewer than workloads); it replaces the\n"
	"                          profile's, said on stderr\n"
	"      --set [WL.]KEY=VALUE  override a job key, or a workload's (all\n"
	"                          workloads without WL.)\n"
	"      --allow-write       let workloads that write do so (allow_write=1)\n"
	"  -o, --output-format FMT  normal (default), json, csv or fio\n"
	"  -q, --quiet             no progress lines\n"
	"      --name JOB          the job's name (default: run-PID)\n"
	"      --keep              leave the job when done (report, verify later)\n"
	"      --dry-run           check PROFILE with the options as far as can be\n"
	"                          without the module, print it as it would run,\n"
	"                          run nothing\n"
	"      --start-at TIME     the run's first I/O at TIME by this host's clock:\n"
	"                          epoch seconds (decimals allowed), ISO 8601\n"
	"                          (2026-12-04T10:00:00.5Z; no zone: local time) or\n"
	"                          +SECONDS from now; the job waits armed until then\n"
	"                          (one PROFILE)\n"
	"      --lease FILE        stop the run when FILE goes unrenewed (its\n"
	"                          mtime) for --lease-secs, counted from the start:\n"
	"                          an orchestrator that touches it is gone\n"
	"      --lease-secs N      seconds (default 30; with --coordinator, how long\n"
	"                          it may be silent, default 10)\n"
	"      --coordinator HOST:PORT  start each run when blkgenctl coordinate\n"
	"                          there says (with every other host's), send it\n"
	"                          each interval's totals, stop when it says so or\n"
	"                          is gone (not with --start-at)\n"
	"      --host-name NAME    this host's name for the coordinator (default:\n"
	"                          its host name)\n"
	"Exit status: 0 done, 1 failed or stopped from outside, 2 usage,\n"
	"3 module not loaded, 128+N stopped by signal N.\n";

static const char *curve_help =
	"\n"
	"vdbench's curve: one unthrottled run finds the maximum IOPS, then one\n"
	"open-loop run per point at that percent of it.\n"
	"\n"
	"      --points LIST       percents: FROM-TO,STEP or P,P,... (default:\n"
	"                          the profile's curve key, else 10-120,10)\n"
	"      --stop-latency-ms MS  end the sweep after the first point whose\n"
	"                          mean latency is above MS (vdbench's stopcurve)\n"
	"      --device DEV, --set [WL.]KEY=VALUE, --allow-write, -q, --quiet,\n"
	"      --dry-run, --lease FILE, --lease-secs N, --coordinator HOST:PORT,\n"
	"      --host-name NAME    as for run (with a coordinator, each point starts\n"
	"                          on every host once all are ready for it)\n"
	"      --start-at TIME     the maximum run at TIME (as for run), point k\n"
	"                          k slots later: a slot is warmup_ms + duration_ms\n"
	"                          + 5 s, in whole seconds (hosts given one TIME\n"
	"                          run each point together)\n"
	"  -o, --output-format FMT  normal (default), json or csv: one line or\n"
	"                          object per point\n";

/* A created job, remembered for the cleanup. */
struct created {
	char job[256];
	char wl[PROFILE_MAX_WL][256];
	int nr_wl;
	bool job_made;
};

static void path3(char *buf, size_t size, const char *a, const char *b,
		  const char *c)
{
	snprintf(buf, size, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
}

static void cleanup(struct created *c)
{
	char path[4096];
	int i;

	for (i = c->nr_wl - 1; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s/workloads/%s", cfs_root(),
			 c->job, c->wl[i]);
		if (rmdir(path))
			fprintf(stderr, "blkgenctl: rmdir %s: %s\n", path,
				strerror(errno));
	}
	if (c->job_made) {
		path3(path, sizeof(path), cfs_root(), c->job, NULL);
		if (rmdir(path))
			fprintf(stderr, "blkgenctl: rmdir %s: %s\n", path,
				strerror(errno));
	}
	c->nr_wl = 0;
	c->job_made = false;
}

static int write_section(const char *dir, const struct profile *p,
			 const struct profile_section *s)
{
	char path[4096];
	int i, ret;

	for (i = 0; i < s->nr; i++) {
		/* blkgenctl's keys, not configfs's */
		if (!strcmp(s->kv[i].key, "curve") ||
		    !strcmp(s->kv[i].key, "curve_stop_ms") ||
		    !strncmp(s->kv[i].key, "trace", 5))
			continue;
		path3(path, sizeof(path), dir, s->kv[i].key, NULL);
		ret = cfs_write(path, s->kv[i].value);
		if (ret) {
			char where[512] = "";

			if (s->kv[i].line)
				snprintf(where, sizeof(where), "%s:%d: ", p->file,
					 s->kv[i].line);
			fprintf(stderr, "blkgenctl: %s%s%s%s%s = %s: %s\n", where,
				s->name ? "workload " : "job",
				s->name ? s->name : "", ": ", s->kv[i].key,
				s->kv[i].value, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Size and model of a block device, for the overwrite warning. */
void describe(const char *dev, char *buf, size_t size)
{
	char model[128];

	cfs_device_id(dev, "model", model, sizeof(model));
	snprintf(buf, size, "%.1f GB%s%s", cfs_dev_bytes(dev) / 1e9,
		 model[0] ? ", " : "", model);
}

/*
 * io_limit = Nx: N passes over the workload's range, in I/Os of its mean
 * size (preconditioning: "write the drive twice"). One workload only.
 */
static int resolve_passes(struct profile *p)
{
	const char *v = profile_get(&p->job, "io_limit"), *dev, *bs, *rg;
	struct blkgen_range range = { .pct = true, .start = 0,
				      .end = BLKGEN_PCT_ALL };
	struct blkgen_bs split;
	double passes, mean = 0, span;
	uint64_t size, ios;
	char buf[32], asked[32];
	unsigned int i;

	if (!v || v[strlen(v) - 1] != 'x')
		return EXIT_OK;
	passes = strtod(v, NULL);
	snprintf(asked, sizeof(asked), "%s", v);	/* v goes with the put */
	v = asked;
	if (p->nr_wl != 1) {
		fprintf(stderr, "blkgenctl: %s: io_limit = %s (passes over the range) needs exactly one workload\n",
			p->file, v);
		return EXIT_USAGE;
	}
	dev = profile_get(&p->wl[0], "device");
	bs = profile_get(&p->wl[0], "bs");
	rg = profile_get(&p->wl[0], "range");
	size = cfs_dev_bytes(dev);
	if (!size) {
		fprintf(stderr, "blkgenctl: io_limit = %s: cannot read the size of %s\n",
			v, dev);
		return EXIT_FAIL;
	}
	if (blkgen_parse_bs(bs ? bs : "4k", &split) ||
	    (rg && *rg && blkgen_parse_range(rg, &range))) {
		fprintf(stderr, "blkgenctl: io_limit = %s: workload %s: bad bs or range\n",
			v, p->wl[0].name);
		return EXIT_USAGE;
	}
	for (i = 0; i < split.nr; i++)
		mean += split.size[i] * (double)(split.cum[i] - (i ? split.cum[i - 1] : 0)) / 100;
	if (range.pct)
		span = (double)size * (range.end - range.start) / BLKGEN_PCT_ALL;
	else
		span = (double)(range.end < size ? range.end : size) -
		       (double)range.start;
	if (span < mean) {
		fprintf(stderr, "blkgenctl: io_limit = %s: the range of %s is smaller than one I/O\n",
			v, dev);
		return EXIT_USAGE;
	}
	ios = (uint64_t)(passes * span / mean + 0.5);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)ios);
	profile_put(&p->job, "io_limit", buf, 0);
	fprintf(stderr, "blkgenctl: io_limit = %s: %g pass%s over %.1f MB of %s in %.0f-byte I/Os: %s I/Os\n",
		v, passes, passes == 1 ? "" : "es", span / 1e6, dev, mean, buf);
	return EXIT_OK;
}

/*
 * A workload with a trace replays it: the trace is read once here (its
 * errors, with file:line, before anything runs), bs becomes its largest
 * I/O (the slots' buffers), and writes need --allow-write (or
 * trace_reads_only).
 */
static int prepare_trace(struct profile *p, struct profile_section *w,
			 struct run_opts *o)
{
	const char *file = profile_get(w, "trace"), *ro;
	struct trace_opts to;
	struct trace_stats st;
	char err[1024], buf[64];
	uint64_t bs;

	if (replay_trace_opts(w, &to, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s: workload %s: %s\n", p->file,
			w->name, err);
		return EXIT_USAGE;
	}
	ro = profile_get(w, "trace_reads_only");
	if (replay_scan(file, &to, ro && !strcmp(ro, "1"), &st, err,
			sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		return EXIT_USAGE;
	}
	if (!profile_get(w, "replay"))
		profile_put(w, "replay", "timed", 0);
	/* The trace's end ends the run, not the module's default 10 s. */
	if (!profile_get(&p->job, "duration_ms"))
		profile_put(&p->job, "duration_ms", "0", 0);
	if (!profile_get(w, "bs")) {
		bs = (st.max_len + 4095) / 4096 * 4096;
		if (bs < 4096)
			bs = 4096;
		if (bs > BLKGEN_MAX_IO)
			bs = BLKGEN_MAX_IO;
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bs);
		profile_put(w, "bs", buf, 0);
	}
	if (st.writes) {
		if (!o->allow_write) {
			fprintf(stderr, "blkgenctl: %s holds %llu write%s: replaying %s destroys the data of %s; add --allow-write (or replay its reads only)\n",
				file, (unsigned long long)st.writes,
				st.writes == 1 ? "" : "s",
				st.writes == 1 ? "it" : "them",
				profile_get(w, "device"));
			return EXIT_USAGE;
		}
		profile_put(w, "allow_write", "1", 0);
	}
	/*
	 * Several files' (iolog) or devices' (blktrace) I/O onto one device
	 * is rarely meant: said. Not for the CSVs, whose disks may be meant
	 * to share one (a VDI trace's desktops, laid out side by side).
	 */
	if (st.nr_sources > 1 && !profile_get(w, "trace_filter") &&
	    (!strcmp(st.format, "iolog") || !strcmp(st.format, "blktrace")))
		fprintf(stderr, "blkgenctl: %s: the trace holds I/O to %s: all of it goes to %s (--filter ID keeps one)\n",
			file, st.sources, profile_get(w, "device"));
	if (!o->quiet)
		fprintf(stderr, "blkgenctl: %s: %s trace, %llu records (%llu reads, %llu writes; %llu skipped), %.3f s, largest I/O %u bytes%s\n",
			file, st.format, (unsigned long long)st.records,
			(unsigned long long)st.reads,
			(unsigned long long)st.writes,
			(unsigned long long)st.skipped, st.last_ns / 1e9,
			st.max_len,
			st.max_len > BLKGEN_MAX_IO ? " (larger ones clipped to 1 MiB)" : "");
	return EXIT_OK;
}

static int prepare(struct profile *p, struct run_opts *o)
{
	char err[512], desc[256];
	int i, writers = 0;

	for (i = 0; i < o->nr_sets; i++)
		if (profile_set(p, o->sets[i], err, sizeof(err))) {
			fprintf(stderr, "blkgenctl: %s\n", err);
			return EXIT_USAGE;
		}
	for (i = 0; i < p->nr_wl; i++) {
		struct profile_section *w = &p->wl[i];
		const char *rd = profile_get(w, "rdpct");

		const char *dev = profile_get(w, "device");

		/* The command line names the devices: it wins, and says so. */
		if (o->nr_devices) {
			const char *want = o->devices[i % o->nr_devices];

			if (dev && strcmp(dev, want))
				fprintf(stderr, "blkgenctl: workload %s: --device %s replaces the profile's device %s\n",
					w->name, want, dev);
			profile_put(w, "device", want, 0);
		} else if (!dev) {
			fprintf(stderr, "blkgenctl: %s: workload %s names no device: use --device DEV\n",
				p->file, w->name);
			return EXIT_USAGE;
		}
		if (profile_get(w, "trace")) {
			int ret = prepare_trace(p, w, o);

			if (ret)
				return ret;
			if (profile_get(w, "allow_write"))
				writers++;
			continue;
		}
		if (rd && strcmp(rd, "100")) {
			writers++;
			if (!o->allow_write) {
				fprintf(stderr, "blkgenctl: workload %s writes to %s (rdpct %s): this destroys its data; add --allow-write\n",
					w->name, profile_get(w, "device"), rd);
				return EXIT_USAGE;
			}
			profile_put(w, "allow_write", "1", 0);
		}
	}
	i = resolve_passes(p);
	if (i)
		return i;
	for (i = 0; writers && !o->said_overwrite && i < p->nr_wl; i++) {
		const char *rd = profile_get(&p->wl[i], "rdpct");
		const char *dev = profile_get(&p->wl[i], "device");

		if ((rd && strcmp(rd, "100") && !profile_get(&p->wl[i], "trace")) ||
		    (profile_get(&p->wl[i], "trace") &&
		     profile_get(&p->wl[i], "allow_write"))) {
			describe(dev, desc, sizeof(desc));
			fprintf(stderr, "blkgenctl: will overwrite %s (%s), workload %s\n",
				dev, desc, p->wl[i].name);
		}
	}
	return EXIT_OK;
}

static int create(const struct profile *p, const char *job,
		  struct created *c)
{
	char dir[4096];
	int i, ret;

	snprintf(c->job, sizeof(c->job), "%s", job);
	path3(dir, sizeof(dir), cfs_root(), job, NULL);
	if (mkdir(dir, 0755)) {
		fprintf(stderr, "blkgenctl: mkdir %s: %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	c->job_made = true;
	ret = write_section(dir, p, &p->job);
	if (ret)
		return EXIT_USAGE;
	for (i = 0; i < p->nr_wl; i++) {
		path3(dir, sizeof(dir), cfs_root(), job, "workloads");
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s",
			 p->wl[i].name);
		if (mkdir(dir, 0755)) {
			fprintf(stderr, "blkgenctl: mkdir %s: %s\n", dir,
				strerror(errno));
			return EXIT_FAIL;
		}
		snprintf(c->wl[c->nr_wl++], sizeof(c->wl[0]), "%s",
			 p->wl[i].name);
		if (write_section(dir, p, &p->wl[i]))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* CLOCK_REALTIME now, in ns. */
static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* --start-at TIME: an instant ahead, within the module's day. */
static int parse_start_at(const char *arg, struct run_opts *o)
{
	uint64_t now = real_ns();

	if (when_parse(arg, now, &o->start_at)) {
		fprintf(stderr, "blkgenctl: --start-at %s: not a time (epoch seconds, an ISO 8601 time or +SECONDS)\n",
			arg);
		return -1;
	}
	if (o->start_at <= now) {
		fprintf(stderr, "blkgenctl: --start-at %s: %.3f s in the past\n",
			arg, (now - o->start_at) / 1e9);
		return -1;
	}
	if (o->start_at - now > 24ULL * 3600 * 1000000000ULL) {
		fprintf(stderr, "blkgenctl: --start-at %s: more than a day ahead\n",
			arg);
		return -1;
	}
	return 0;
}

/* One progress line: elapsed/total, then per workload IOPS, MB/s, mean, p99. */
static void progress(const struct job_result *now, struct job_result *prev,
		     uint64_t duration_ms, uint64_t io_limit, bool tty)
{
	uint64_t dt = now->elapsed_ms - prev->elapsed_ms;
	int i, d;

	if (!dt)
		return;
	fprintf(stderr, "%s[%7.1fs", tty ? "\r" : "", now->elapsed_ms / 1e3);
	if (duration_ms)
		fprintf(stderr, "/%.1fs", duration_ms / 1e3);
	if (io_limit) {
		uint64_t done = 0;

		for (i = 0; i < now->nr_wl; i++)
			for (d = 0; d < 2; d++)
				done += now->wl[i].dir[d].ios;
		fprintf(stderr, " %.1f%% of %llu I/Os", 100.0 * done / io_limit,
			(unsigned long long)io_limit);
	}
	fprintf(stderr, "]");
	for (i = 0; i < now->nr_wl; i++) {
		static const struct dir_result zero;
		struct blkgen_lat_hist *h = malloc(sizeof(*h));
		uint64_t ios = 0, bytes = 0;
		unsigned int b;

		blkgen_hist_reset(h);
		for (d = 0; d < 2; d++) {
			const struct dir_result *a = &now->wl[i].dir[d];
			/* The first line: since the start, when all was 0. */
			const struct dir_result *z = i < prev->nr_wl ?
				&prev->wl[i].dir[d] : &zero;

			ios += a->ios - z->ios;
			bytes += a->bytes - z->bytes;
			for (b = 0; b < BLKGEN_HIST_BINS; b++) {
				h->bins[b] += a->lat.bins[b] - z->lat.bins[b];
				h->count += a->lat.bins[b] - z->lat.bins[b];
			}
			h->sum_ns += a->lat.sum_ns - z->lat.sum_ns;
			if (a->lat.max_ns > h->max_ns)
				h->max_ns = a->lat.max_ns;
		}
		h->min_ns = 0;
		fprintf(stderr, " %s: %.0f IOPS %.1f MB/s lat %.1f/%.1f us",
			now->wl[i].name, ios * 1000.0 / dt,
			bytes * 1000.0 / dt / 1e6, report_mean(h) / 1e3,
			report_percentile(h, 99) / 1e3);
		free(h);
	}
	fprintf(stderr, "%s", tty ? "   " : "\n");
}

/*
 * Open loop: say so when a workload fell behind its schedule by more than
 * 1% of the measured time (at least 10 ms): the target was not sustained,
 * and its latencies include the wait.
 */
static void warn_behind(const struct job_result *r)
{
	uint64_t bound = r->elapsed_ms * 10000;	/* 1% in ns */
	int i;

	if (bound < 10000000)
		bound = 10000000;
	for (i = 0; i < r->nr_wl; i++)
		if (r->wl[i].max_lag_ns > bound)
			fprintf(stderr, "blkgenctl: %s: fell behind its schedule by up to %.1f ms (%llu arrivals waited for a slot); their latency includes the wait\n",
				r->wl[i].name, r->wl[i].max_lag_ns / 1e6,
				(unsigned long long)r->wl[i].late_ios);
}

/*
 * Replaying workloads: a feeder each, which fills the record ring before
 * the start (waited for here) and keeps it filled during the run.
 */
static int start_feeders(const struct profile *p, const char *job,
			 struct feeder **f)
{
	char path[4096], err[1024];
	struct trace_opts to;
	const char *ro;
	int i;

	for (i = 0; i < p->nr_wl; i++) {
		const struct profile_section *w = &p->wl[i];

		if (!profile_get(w, "trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s/trace", sfs_root(), job,
			 w->name);
		ro = profile_get(w, "trace_reads_only");
		if (replay_trace_opts(w, &to, err, sizeof(err)))
			goto fail;
		f[i] = feeder_start(profile_get(w, "trace"), &to,
				    ro && !strcmp(ro, "1"), path, err,
				    sizeof(err));
		if (!f[i])
			goto fail;
		feeder_wait_prefill(f[i]);
	}
	return EXIT_OK;
fail:
	fprintf(stderr, "blkgenctl: workload %s: %s\n", p->wl[i].name, err);
	return EXIT_FAIL;
}

/* The feeders' ends: an error of theirs fails the run (1). */
static int join_feeders(const struct profile *p, struct feeder **f,
			const struct run_opts *o)
{
	char err[1024];
	uint64_t fed;
	int i, bad = 0;

	for (i = 0; i < p->nr_wl; i++) {
		if (!f[i])
			continue;
		if (feeder_join(f[i], &fed, err, sizeof(err))) {
			fprintf(stderr, "blkgenctl: workload %s: %s\n",
				p->wl[i].name, err);
			bad = 1;
		} else if (err[0] && !o->quiet) {
			/* duration_ms, a stop: the trace was not all replayed */
			fprintf(stderr, "blkgenctl: note: workload %s: %s\n",
				p->wl[i].name, err);
		}
		f[i] = NULL;
	}
	return bad;
}

int parse_lease_opt(int ch, const char *arg, struct run_opts *o)
{
	char *end;
	unsigned long v;

	if (ch == 'l') {
		if (!*arg) {
			fprintf(stderr, "blkgenctl: --lease: name a file\n");
			return -1;
		}
		o->lease = arg;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 86400) {
		fprintf(stderr, "blkgenctl: --lease-secs %s: expected whole seconds from 1 to 86400\n",
			arg);
		return -1;
	}
	o->lease_secs = v;
	return 0;
}

int check_lease_opts(const struct run_opts *o)
{
	if (o->lease_secs && !o->lease && !o->coordinator) {
		fprintf(stderr, "blkgenctl: --lease-secs: give the lease with --lease FILE (or --coordinator)\n");
		return -1;
	}
	if (o->host_name && !o->coordinator) {
		fprintf(stderr, "blkgenctl: --host-name: it names this host to a coordinator: give --coordinator HOST:PORT\n");
		return -1;
	}
	if (o->coordinator && o->start_at) {
		fprintf(stderr, "blkgenctl: --start-at with --coordinator: the coordinator gives every run's start (blkgenctl coordinate --start-at)\n");
		return -1;
	}
	if (o->lease && access(o->lease, F_OK)) {
		fprintf(stderr, "blkgenctl: --lease %s: %s (its controller makes it before the run, then renews it)\n",
			o->lease, strerror(errno));
		return -1;
	}
	return 0;
}

int run_coord_open(struct run_opts *o, const char *command, int points)
{
	char host[256];

	if (!o->coordinator || o->coord)
		return 0;
	if (!o->host_name) {
		if (gethostname(host, sizeof(host)))
			snprintf(host, sizeof(host), "pid-%d", (int)getpid());
		host[sizeof(host) - 1] = 0;
	}
	o->coord = coord_connect(o->coordinator, o->host_name ? o->host_name : host,
				 command, points, o->lease_secs);
	if (o->coord)
		return 0;
	return run_interrupted() ? 128 + run_interrupted() : EXIT_FAIL;
}

int run_coord_bye(struct run_opts *o, int ret)
{
	coord_bye(o->coord, ret);
	o->coord = NULL;
	return ret;
}

/*
 * --lease FILE: whoever started the run (an orchestrator's controller)
 * renews FILE while it is there, as vdbench's heartbeat; a lease not
 * renewed for lease_secs means it is gone, and the run stops. Counted
 * from FILE's last change, and not before the run's start (an armed job
 * waits for start_at unrenewed) nor before this command began. True,
 * with @why, once it has run out.
 */
static bool lease_expired(const struct run_opts *o, char *why, size_t len)
{
	uint64_t secs = o->lease_secs ? o->lease_secs : RUN_LEASE_SECS;
	uint64_t began = o->lease_began, now = real_ns();
	uint64_t from = o->start_at > began ? o->start_at : began;
	struct stat st;

	/* A time before 1970 is no renewal; one ahead of ours is now. */
	if (!stat(o->lease, &st) && st.st_mtim.tv_sec >= 0) {
		uint64_t m = st.st_mtim.tv_sec * 1000000000ULL + st.st_mtim.tv_nsec;

		if (m > now)
			m = now;
		if (m > from)
			from = m;
	}
	if (now < from + secs * 1000000000ULL)
		return false;
	snprintf(why, len, "the lease %s was not renewed for %llu s: its controller is gone",
		 o->lease, (unsigned long long)((now - from) / 1000000000ULL));
	return true;
}

/*
 * Create the job, run it with progress, load its results into @res (if
 * not NULL, else print them) and remove it. Returns an exit status.
 */
int run_job(struct profile *p, struct run_opts *o, const char *job,
		    struct job_result *res)
{
	struct feeder *feeders[PROFILE_MAX_WL] = { 0 };
	struct job_result prev = { 0 }, cur = { 0 };
	struct created c = { 0 };
	char path[4096], state[32] = "";
	uint64_t duration, io_limit;
	unsigned int tick, armed_said = 0;
	int ret, rc = EXIT_OK, i;
	bool tty = isatty(2), partial = false;
	char lease_why[512] = "", end_why[512] = "";
	bool end_said = false;
	int point = o->coord_point++;
	const char *v;

	/* One lease for the whole command (a curve's points, several profiles). */
	if (!o->lease_began)
		o->lease_began = real_ns();
	ret = create(p, job, &c);
	if (ret || interrupted)
		goto out_cleanup;
	ret = start_feeders(p, job, feeders);
	if (ret)
		goto out_cleanup;

	v = profile_get(&p->job, "duration_ms");
	duration = v ? strtoull(v, NULL, 10) : 10000;
	v = profile_get(&p->job, "io_limit");
	io_limit = v ? strtoull(v, NULL, 10) : 0;
	/* Made: the coordinator starts it with every other host's. */
	if (o->coord && coord_wait_start(o->coord, point, o->coord_step,
					 &o->start_at, lease_why, sizeof(lease_why))) {
		fprintf(stderr, "blkgenctl: %s: not started: %s\n", job, lease_why);
		o->lease_out = true;
		ret = interrupted ? 128 + interrupted : EXIT_FAIL;
		goto out_cleanup;
	}
	if (o->start_at) {
		char at[32];

		snprintf(at, sizeof(at), "%llu",
			 (unsigned long long)o->start_at);
		path3(path, sizeof(path), cfs_root(), job, "start_at");
		ret = cfs_write(path, at);
		if (ret) {
			fprintf(stderr, "blkgenctl: %s: start_at %s refused: %s%s\n",
				job, at, strerror(-ret),
				ret == -EINVAL ? " (passed already, or more than a day ahead)" :
				ret == -ENOENT ? " (a module without start_at)" : "");
			ret = EXIT_FAIL;
			goto out_cleanup;
		}
	}
	path3(path, sizeof(path), cfs_root(), job, "state");
	ret = cfs_write(path, "start");
	for (i = 0; i < p->nr_wl; i++)
		if (feeders[i])
			feeder_go(feeders[i], !ret);
	if (ret) {
		char e[256] = "";
		char epath[4096];

		path3(epath, sizeof(epath), sfs_root(), job, "error");
		cfs_read_text(epath, e, sizeof(e));
		fprintf(stderr, "blkgenctl: %s: start failed: %s\n", job,
			e[0] ? e : strerror(-ret));
		ret = EXIT_FAIL;
		goto out_cleanup;
	}
	/*
	 * No results read at the start: the run's counts are 0 then (the
	 * first progress line counts from them), and a read of every
	 * workload's files is work beside the run's first I/Os that a
	 * timed replay's start should not have to share a machine with.
	 */
	for (tick = 0;; tick++) {
		/* With a coordinator, woken by what it says. */
		if (o->coord)
			coord_wait(o->coord, 100);
		else
			sleep_ms(100);
		if (interrupted) {
			fprintf(stderr, "%sblkgenctl: %s, stopping %s\n",
				tty && !o->quiet ? "\n" : "",
				interrupted == SIGINT ? "interrupted" :
				interrupted == SIGHUP ? "hung up" : "terminated",
				job);
			cfs_write(path, "stop");
			rc = 128 + interrupted;
			break;
		}
		if (cfs_read_text(path, state, sizeof(state)))
			break;
		/*
		 * Its coordinator's word (each tick) or its lease (each
		 * second), looked at while it waits or runs: a run done is
		 * left done.
		 */
		if ((!strcmp(state, "armed") || !strcmp(state, "running")) &&
		    ((o->coord && coord_check(o->coord, lease_why, sizeof(lease_why))) ||
		     (o->lease && tick % 10 == 0 &&
		      lease_expired(o, lease_why, sizeof(lease_why))))) {
			fprintf(stderr, "%sblkgenctl: %s: %s; stopping it\n",
				tty && !o->quiet ? "\n" : "", job, lease_why);
			cfs_write(path, "stop");
			o->lease_out = true;
			rc = EXIT_FAIL;
			partial = true;	/* --keep keeps its results */
			break;
		}
		if (!strcmp(state, "armed")) {
			int64_t left = (int64_t)(o->start_at - real_ns());

			/* At once, then each second. */
			if (!o->quiet && (tick % 10 == 9 || !armed_said++))
				fprintf(stderr, "%s[armed: starting in %.1f s]%s",
					tty ? "\r" : "", left > 0 ? left / 1e9 : 0.0,
					tty ? "" : "\n");
			continue;
		}
		if (strcmp(state, "running"))
			break;
		/* Each second, the intervals finished: the hosts' live totals. */
		if (o->coord && tick % 10 == 9)
			coord_intervals(o->coord, point, job, NULL);
		if (o->quiet || tick % 10 != 9)
			continue;
		if (result_load(job, &cur) == 0) {
			progress(&cur, &prev, duration, io_limit, tty);
			result_free(&prev);
			prev = cur;
		} else {
			result_free(&cur);
		}
		memset(&cur, 0, sizeof(cur));
	}
	if (tty && !o->quiet)
		fprintf(stderr, "\n");
	/*
	 * Failed, or stopped from outside: said to the coordinator at once
	 * (the others stop), before the results are read.
	 */
	if (o->coord && !rc && (!strcmp(state, "failed") || !strcmp(state, "stopped"))) {
		char e[256] = "", epath[4096];

		path3(epath, sizeof(epath), sfs_root(), job, "error");
		cfs_read_text(epath, e, sizeof(e));
		coord_end(o->coord, point, EXIT_FAIL, !strcmp(state, "failed") ? e :
			  "its job was stopped from outside this command");
		end_said = true;
	}
	if (join_feeders(p, feeders, o))
		rc = EXIT_FAIL;
	ret = result_load(job, &cur);
	if (ret) {
		fprintf(stderr, "blkgenctl: %s: cannot read results: %s\n", job,
			strerror(-ret));
		ret = EXIT_FAIL;
		result_free(&cur);
	} else {
		if (!strcmp(cur.state, "failed")) {
			fprintf(stderr, "blkgenctl: %s failed: %s\n", job, cur.error);
			ret = EXIT_FAIL;
		}
		/* Not by this command (its signals set rc): a partial run. */
		if (!strcmp(cur.state, "stopped") && !rc) {
			fprintf(stderr, "blkgenctl: %s was stopped from outside this command (its state set to stop): the results cover %.1f s of the run\n",
				job, cur.elapsed_ms / 1e3);
			snprintf(end_why, sizeof(end_why),
				 "its job was stopped from outside this command");
			ret = EXIT_FAIL;
			partial = true;	/* --keep keeps its results */
		}
		/* The report says why it stopped short. */
		if (lease_why[0] && !cur.error[0])
			snprintf(cur.error, sizeof(cur.error), "stopped: %.240s", lease_why);
		if (!end_why[0])
			snprintf(end_why, sizeof(end_why), "%s", cur.error);
		/* Its end said before the report is printed: others wait on it. */
		if (o->coord) {
			coord_intervals(o->coord, point, job, &cur);
			if (!end_said)
				coord_end(o->coord, point, rc ? rc : ret,
					  lease_why[0] ? lease_why : end_why);
			end_said = true;
		}
		if (!o->quiet)
			warn_behind(&cur);
		if (res) {
			*res = cur;
		} else {
			o->ops->job(&cur);
			result_free(&cur);
		}
	}
	if (rc)
		ret = rc;
out_cleanup:
	if (o->coord && !end_said)
		coord_end(o->coord, point, ret ? ret : interrupted ? 128 + interrupted : 0,
			  lease_why[0] ? lease_why : end_why);
	join_feeders(p, feeders, o);
	result_free(&prev);
	if (!o->keep || (ret && !partial))
		cleanup(&c);
	return ret;
}

/* Options shared by run and curve; returns optind, or -1 on a usage error. */
static int parse_run_opts(int argc, char **argv, struct run_opts *o,
			  const char *usage, const char **points,
			  double *stop_ms)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "set", required_argument, NULL, 's' },
		{ "allow-write", no_argument, NULL, 'W' },
		{ "output-format", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "name", required_argument, NULL, 'n' },
		{ "keep", no_argument, NULL, 'k' },
		{ "points", required_argument, NULL, 'P' },
		{ "stop-latency-ms", required_argument, NULL, 'L' },
		{ "dry-run", no_argument, NULL, 'y' },
		{ "start-at", required_argument, NULL, 'T' },
		{ "lease", required_argument, NULL, 'l' },
		{ "lease-secs", required_argument, NULL, 'e' },
		{ "coordinator", required_argument, NULL, 'C' },
		{ "host-name", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:s:Wo:qn:kh", opts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (o->nr_devices < PROFILE_MAX_WL)
				o->devices[o->nr_devices++] = optarg;
			break;
		case 's':
			if (o->nr_sets < 64)
				o->sets[o->nr_sets++] = optarg;
			break;
		case 'W':
			o->allow_write = true;
			break;
		case 'o':
			o->ops = print_ops_arg(optarg);
			if (!o->ops)
				return -1;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'n':
			o->name = optarg;
			break;
		case 'k':
			o->keep = true;
			break;
		case 'y':
			o->dry_run = true;
			break;
		case 'T':
			if (parse_start_at(optarg, o))
				goto bad;
			break;
		case 'l':
		case 'e':
			if (parse_lease_opt(ch, optarg, o))
				return -1;
			break;
		case 'C':
			o->coordinator = optarg;
			break;
		case 'H':
			o->host_name = optarg;
			break;
		case 'P':
			if (!points)
				goto bad;
			*points = optarg;
			break;
		case 'L':
			if (!stop_ms)
				goto bad;
			*stop_ms = atof(optarg);
			break;
		case 'h':
			printf("usage: %s\n%s", usage,
			       points ? curve_help : run_help);
			exit(EXIT_OK);
		default:
			goto bad;
		}
	}
	/* run takes several profiles (run one after another), curve one */
	if (argc - optind < 1 || (points && argc - optind != 1))
		goto bad;
	if (o->start_at && argc - optind != 1) {
		fprintf(stderr, "blkgenctl: --start-at starts one profile\n");
		goto bad;
	}
	if (check_lease_opts(o))
		return -1;
	return optind;
bad:
	fprintf(stderr, "usage: %s\n", usage);
	return -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * No profile @name here nor in @dir: say where it was looked for, and the
 * installed profile nearest in spelling (or those there are).
 */
static void no_profile(const char *name, const char *dir, const char *path)
{
	char want[256], best[256] = "", names[64][64];
	int d, best_d = 99;
	int i, n = 0;
	struct dirent *e;
	size_t len;
	DIR *dh;

	snprintf(want, sizeof(want), "%s", name);
	len = strlen(want);
	if (len > 5 && !strcmp(want + len - 5, ".prof"))
		want[len - 5] = 0;
	fprintf(stderr, "blkgenctl: no profile '%s': not a file here, nor %s (the %s profiles%s)\n",
		name, path,
		strcmp(dir, BLKGEN_PROFILE_DIR) ? "shipped" : "installed",
		getenv("BLKGEN_PROFILES") && *getenv("BLKGEN_PROFILES") ?
		", from BLKGEN_PROFILES" : "");
	dh = opendir(dir);
	if (!dh) {
		fprintf(stderr, "blkgenctl: %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((e = readdir(dh))) {
		char stem[256];

		len = strlen(e->d_name);
		if (len <= 5 || len - 5 >= sizeof(stem) ||
		    strcmp(e->d_name + len - 5, ".prof"))
			continue;
		memcpy(stem, e->d_name, len - 5);
		stem[len - 5] = 0;
		d = profile_distance(want, stem);
		if (d < best_d || (d == best_d && strcmp(stem, best) < 0)) {
			best_d = d;
			snprintf(best, sizeof(best), "%s", stem);
		}
		if (n < 64 && strlen(stem) < sizeof(names[0]))
			strcpy(names[n++], stem);
	}
	closedir(dh);
	len = strlen(want);
	/* profile_distance() gives up at 64 bytes: 99, never near */
	if (best[0] && best_d < 99 && best_d <= (int)(len / 3 > 2 ? len / 3 : 2)) {
		fprintf(stderr, "blkgenctl: did you mean '%s'?\n", best);
		return;
	}
	if (!n)
		return;
	qsort(names, n, sizeof(names[0]), cmp_name);
	fprintf(stderr, "blkgenctl: installed:");
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, "%s\n", n == 64 ? " ..." : "");
}

/* The module there (else said: EXIT_NOMOD), then our signals caught. */
static int run_ready(void)
{
	int ret = cfs_need_module();

	if (!ret)
		run_catch_signals();
	return ret;
}

/* Load, override and check a profile; set up signals. */
int run_load(const char *file, struct profile *p,
			struct run_opts *o)
{
	char err[512], path[4096];
	double pct[64];
	const char *dir = profile_dir();
	int ret;

	/* A bare name is an installed profile: NAME or NAME.prof. */
	ret = named_file(path, sizeof(path), file, dir, ".prof");
	if (ret < 0) {
		fprintf(stderr, "blkgenctl: %s: name too long\n", file);
		return EXIT_USAGE;
	}
	if (!ret && access(path, F_OK)) {
		no_profile(file, dir, path);
		return EXIT_USAGE;
	}
	file = path;
	if (profile_load(file, p, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		return EXIT_USAGE;
	}
	ret = prepare(p, o);
	if (ret)
		return ret;
	/* A sweep's points are the profile's too: checked before the module. */
	if (profile_get(&p->job, "curve") &&
	    curve_points(profile_get(&p->job, "curve"), pct, 64) <= 0) {
		fprintf(stderr, "blkgenctl: %s: curve = %s: expected FROM-TO,STEP or P,P,... (percent)\n",
			p->file, profile_get(&p->job, "curve"));
		return EXIT_USAGE;
	}
	/* Checked as far as it can be without the module: what would run. */
	if (o->dry_run) {
		profile_print(p, stdout);
		return EXIT_OK;
	}
	if (o->load_only)
		return EXIT_OK;
	return run_ready();
}

static int curve_sweep(struct profile *p, struct run_opts *o,
		       const char *points, double stop_ms);

/* The profile's curve_stop_ms (vdbench's stopcurve): 0 if unset, -1 if bad. */
static double profile_stop_ms(const struct profile *p)
{
	const char *v = profile_get(&p->job, "curve_stop_ms");
	char *end;
	double ms;

	if (!v)
		return 0;
	ms = strtod(v, &end);
	if (end == v || (*end && strcmp(end, "ms")) || ms <= 0) {
		fprintf(stderr, "blkgenctl: %s: curve_stop_ms = %s: expected milliseconds above 0 (e.g. 5 or 2.5ms)\n",
			p->file, v);
		return -1;
	}
	return ms;
}

/*
 * run PROFILE PROFILE...: each loaded and checked before any runs, then
 * run one after another (jobs NAME-1, NAME-2 ...), stopping at the first
 * that does not end done; one report of those that ran, and a summary
 * line each. A converted multi-rd file runs so: run DIR/[0-9]*.prof.
 */
static int run_many(char **files, int n, struct run_opts *o)
{
	struct profile *p = calloc(n, sizeof(*p));
	struct job_result *res = calloc(n, sizeof(*res));
	const char *rate;
	char job[300];
	int k, ran = 0, ret = EXIT_OK;

	if (!p || !res) {
		fprintf(stderr, "blkgenctl: out of memory\n");
		ret = EXIT_FAIL;
		goto out;
	}
	if (!o->ops->jobs) {
		fprintf(stderr, "blkgenctl: run: -o %s reports one run: give one PROFILE (or normal, json, csv)\n",
			o->ops->name);
		ret = EXIT_USAGE;
		goto out;
	}
	o->load_only = true;	/* every profile checked before the module */
	for (k = 0; k < n && !ret; k++) {
		if (o->dry_run)
			printf("%s# %s\n", k ? "\n" : "", files[k]);
		ret = run_load(files[k], &p[k], o);
		rate = profile_get(&p[k].job, "rate_iops");
		if (!ret && rate && !strcmp(rate, "curve")) {
			fprintf(stderr, "blkgenctl: %s: a curve (rate_iops = curve) runs alone: blkgenctl curve %s\n",
				files[k], files[k]);
			ret = EXIT_USAGE;
		}
	}
	o->load_only = false;
	if (!ret && o->dry_run) {
		uint64_t ms = 0, one;

		for (k = 0; k < n; k++) {
			one = run_planned_ms(&p[k]);
			if (!one) {
				ms = 0;
				break;
			}
			ms += one;
		}
		print_planned(stdout, ms);
	}
	if (ret || o->dry_run)
		goto out;
	ret = run_ready() ?: run_coord_open(o, "run", n);
	if (ret)
		goto out;
	for (k = 0; k < n; k++) {
		if (o->name)
			snprintf(job, sizeof(job), "%s-%d", o->name, k + 1);
		else
			snprintf(job, sizeof(job), "run-%d-%d", (int)getpid(), k + 1);
		if (!o->quiet)
			fprintf(stderr, "blkgenctl: run %d of %d: %s as %s\n", k + 1,
				n, files[k], job);
		ret = run_job(&p[k], o, job, &res[k]);
		if (res[k].name)
			ran = k + 1;
		if (ret || run_interrupted()) {
			if (k + 1 < n)
				fprintf(stderr, "blkgenctl: run: stopped after %s; %d of %d profiles not run\n",
					files[k], n - k - 1, n);
			break;
		}
	}
	run_coord_bye(o, ret);
	if (ran)
		o->ops->jobs(res, ran);
out:
	for (k = 0; p && res && k < n; k++) {
		profile_free(&p[k]);
		result_free(&res[k]);
	}
	free(p);
	free(res);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .ops = &print_normal_ops };
	struct profile p = { 0 };
	const char *rate;
	char job[256];
	int i, ret;

	i = parse_run_opts(argc, argv, &o, run_usage, NULL, NULL);
	if (i < 0)
		return EXIT_USAGE;
	if (argc - i > 1)
		return run_many(argv + i, argc - i, &o);
	ret = run_load(argv[i], &p, &o);
	rate = profile_get(&p.job, "rate_iops");
	if (!ret && o.dry_run)
		print_planned(stdout, rate && !strcmp(rate, "curve") ?
			      curve_planned_ms(&p, profile_get(&p.job, "curve")) :
			      run_planned_ms(&p));
	if (ret || o.dry_run)
		goto out;
	if (rate && !strcmp(rate, "curve")) {
		double stop_ms = profile_stop_ms(&p);

		ret = stop_ms < 0 ? EXIT_USAGE :
		      curve_sweep(&p, &o, profile_get(&p.job, "curve"), stop_ms);
		goto out;
	}
	if (o.name)
		snprintf(job, sizeof(job), "%s", o.name);
	else
		snprintf(job, sizeof(job), "run-%d", (int)getpid());
	ret = run_coord_open(&o, "run", 1);
	if (!ret)
		ret = run_coord_bye(&o, run_job(&p, &o, job, NULL));
out:
	profile_free(&p);
	return ret;
}

static const char *curve_usage =
	"blkgenctl curve PROFILE [--points 10-120,10] [--stop-latency-ms MS]\n"
	"                        [--device DEV]... [--set [WL.]KEY=VALUE]... [--allow-write]\n"
	"                        [-o normal|json|csv] [-q] [--dry-run] [--start-at TIME]\n"
	"                        [--lease FILE [--lease-secs N]]";

int cmd_curve(int argc, char **argv)
{
	struct run_opts o = { .ops = &print_normal_ops };
	const char *points = NULL;
	struct profile p = { 0 };
	double stop_ms = 0, pct[64];
	int i, ret;

	i = parse_run_opts(argc, argv, &o, curve_usage, &points, &stop_ms);
	if (i < 0)
		return EXIT_USAGE;
	if (o.ops == &print_fio_ops) {
		fprintf(stderr, "blkgenctl: curve: -o fio is a run's layout: run each point, or report it (normal, json, csv)\n");
		return EXIT_USAGE;
	}
	if (points && curve_points(points, pct, 64) <= 0) {
		fprintf(stderr, "blkgenctl: --points %s: expected FROM-TO,STEP or P,P,... (percent)\n",
			points);
		return EXIT_USAGE;
	}
	ret = run_load(argv[i], &p, &o);
	if (!ret && o.dry_run && !stop_ms && profile_stop_ms(&p) < 0)
		ret = EXIT_USAGE;
	if (!ret && o.dry_run) {
		print_planned(stdout, curve_planned_ms(&p, points ? points :
					profile_get(&p.job, "curve")));
		profile_free(&p);
		return EXIT_OK;
	}
	if (!ret && !stop_ms) {
		stop_ms = profile_stop_ms(&p);
		if (stop_ms < 0)
			ret = EXIT_USAGE;
	}
	if (!ret)
		ret = curve_sweep(&p, &o, points ? points :
				  profile_get(&p.job, "curve"), stop_ms);
	profile_free(&p);
	return ret;
}

struct curve_point {
	double pct;
	uint64_t target;
	double iops, bw;
	double mean, p99;
	uint64_t max;
	uint64_t started_at_ns;	/* CLOCK_REALTIME of its first I/O */
	uint64_t start_at;	/* the instant it was armed for (0: none) */
	char state[32];
};

/* Merge a job's workloads and directions into one point. */
static void curve_measure(const struct job_result *r, struct curve_point *pt,
			  struct blkgen_lat_hist *h)
{
	uint64_t ios = 0, bytes = 0;
	int i, d;

	blkgen_hist_reset(h);
	for (i = 0; i < r->nr_wl; i++)
		for (d = 0; d < 2; d++) {
			ios += r->wl[i].dir[d].ios;
			bytes += r->wl[i].dir[d].bytes;
			blkgen_hist_merge(h, &r->wl[i].dir[d].lat);
		}
	pt->iops = r->elapsed_ms ? ios * 1000.0 / r->elapsed_ms : 0;
	pt->bw = r->elapsed_ms ? bytes * 1000.0 / r->elapsed_ms : 0;
	pt->mean = report_mean(h);
	pt->p99 = report_percentile(h, 99);
	pt->max = h->count ? h->max_ns : 0;
	pt->started_at_ns = r->started_at_ns;
	pt->start_at = r->start_at;
	snprintf(pt->state, sizeof(pt->state), "%s", r->state);
}

/*
 * @hs: each point's latency histogram (-o json: its bins, so that the
 * curves of several hosts merge exactly). @at: the instant the maximum
 * was armed for (--start-at, or the coordinator's; 0: not armed);
 * @slot_ms: the points' slot (--start-at; 0 with the coordinator, whose
 * points start once every host is ready).
 */
static void curve_print(const struct run_opts *o, uint64_t max,
			const struct curve_point *pts,
			const struct blkgen_lat_hist *hs, int n, uint64_t at,
			uint64_t slot_ms)
{
	int i;

	if (o->ops == &print_csv_ops) {
		printf("point,target_pct,target_iops,iops,mb_per_s,lat_mean_us,lat_p99_us,lat_max_us,state\n");
		for (i = 0; i < n; i++)
			printf("%d,%g,%llu,%.1f,%.3f,%.2f,%.2f,%.2f,%s\n", i,
			       pts[i].pct, (unsigned long long)pts[i].target,
			       pts[i].iops, pts[i].bw / 1e6, pts[i].mean / 1e3,
			       pts[i].p99 / 1e3, pts[i].max / 1e3, pts[i].state);
		return;
	}
	if (o->ops == &print_json_ops) {
		json_object *root = json_object_new_object();
		json_object *arr = json_object_new_array();

		json_object_object_add(root, "blkgenctl_version",
				       json_object_new_string(BLKGENCTL_VERSION));
		json_identity(root);
		json_object_object_add(root, "max_iops",
				       json_object_new_uint64(max));
		if (at) {
			json_object_object_add(root, "start_at",
					       json_object_new_uint64(at));
			json_object_object_add(root, "slot_ms",
					       json_object_new_uint64(slot_ms));
		}
		for (i = 0; i < n; i++) {
			json_object *pt = json_object_new_object();
			json_object *lat = print_json_lat(&hs[i]);

			json_object_object_add(pt, "target_pct",
					       json_object_new_double(pts[i].pct));
			json_object_object_add(pt, "target_iops",
					       json_object_new_uint64(pts[i].target));
			json_object_object_add(pt, "iops",
					       json_object_new_double(pts[i].iops));
			json_object_object_add(pt, "bw_bytes",
					       json_object_new_double(pts[i].bw));
			json_object_object_add(lat, "p99",
					       json_object_new_double(pts[i].p99));
			json_object_object_add(pt, "lat_ns", lat);
			json_object_object_add(pt, "state",
					       json_object_new_string(pts[i].state));
			if (pts[i].start_at)
				json_object_object_add(pt, "start_at",
						       json_object_new_uint64(pts[i].start_at));
			if (pts[i].started_at_ns)
				json_object_object_add(pt, "started_at_ns",
						       json_object_new_uint64(pts[i].started_at_ns));
			json_object_array_add(arr, pt);
		}
		json_object_object_add(root, "points", arr);
		print_json_doc(root);
		return;
	}
	printf("curve: unthrottled maximum %llu IOPS\n", (unsigned long long)max);
	printf("%8s %12s %12s %10s %12s %12s %12s\n", "target", "target IOPS",
	       "IOPS", "MB/s", "mean (us)", "p99 (us)", "max (us)");
	for (i = 0; i < n; i++)
		printf("%7g%% %12llu %12.1f %10.2f %12.2f %12.2f %12.2f%s\n",
		       pts[i].pct, (unsigned long long)pts[i].target,
		       pts[i].iops, pts[i].bw / 1e6, pts[i].mean / 1e3,
		       pts[i].p99 / 1e3, pts[i].max / 1e3,
		       strcmp(pts[i].state, "done") ? "  (not done)" : "");
}

/*
 * vdbench's curve: one unthrottled run finds the maximum (warmup
 * excluded), then one open-loop run per point at the target rate, each
 * with the profile's warmup. Stops early once mean latency exceeds
 * stop_ms (if set) or on a signal.
 */
/*
 * A curve over a trace (vdbench's method for the VDI traces): the maximum
 * is the trace replayed as fast as possible, and each point replays it in
 * its time scaled to that percent of the maximum. *@iops: the trace's own
 * rate (records over its duration), 0 for a profile without a trace.
 */
int curve_trace_rate(struct profile *p, double *iops)
{
	struct profile_section *w = &p->wl[0];
	struct trace_stats st;
	struct trace_opts to;
	char err[1024];
	const char *ro;
	int i;

	*iops = 0;
	for (i = 0; i < p->nr_wl; i++)
		if (profile_get(&p->wl[i], "trace") && p->nr_wl != 1) {
			fprintf(stderr, "blkgenctl: %s: a curve over a trace takes one workload, the trace's\n",
				p->file);
			return -1;
		}
	if (!profile_get(w, "trace"))
		return 0;
	ro = profile_get(w, "trace_reads_only");
	if (replay_trace_opts(w, &to, err, sizeof(err)) ||
	    replay_scan(profile_get(w, "trace"), &to, ro && !strcmp(ro, "1"),
			&st, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		return -1;
	}
	if (!st.last_ns) {
		fprintf(stderr, "blkgenctl: %s: all its records are at one time: a curve needs a trace that spans time\n",
			profile_get(w, "trace"));
		return -1;
	}
	*iops = st.records / (st.last_ns / 1e9);
	fprintf(stderr, "curve: the trace runs at %.1f IOPS in its own time\n",
		*iops);
	return 0;
}

static int curve_sweep(struct profile *p, struct run_opts *o,
		       const char *points, double stop_ms)
{
	struct blkgen_lat_hist *h = calloc(65, sizeof(*h));	/* the maximum's, then each point's */
	struct curve_point pts[64], mx;
	struct job_result r;
	double pct[64];
	char job[256], rate[32];
	double trace_iops = 0, sp;
	uint64_t max, at = o->start_at, slot = 0;
	int n, i, done = 0, ret;
	bool overran = false;
	char why[256];

	if (!h) {
		fprintf(stderr, "blkgenctl: curve: out of memory\n");
		return EXIT_FAIL;
	}
	n = curve_points(points, pct, 64);
	if (n <= 0) {
		fprintf(stderr, "blkgenctl: curve points '%s': expected FROM-TO,STEP or P,P,... (percent)\n",
			points);
		free(h);
		return EXIT_USAGE;
	}
	snprintf(job, sizeof(job), "%s", o->name ? o->name : "curve");
	if (!o->name)
		snprintf(job, sizeof(job), "curve-%d", (int)getpid());

	if (curve_trace_rate(p, &trace_iops)) {
		free(h);
		return EXIT_USAGE;
	}
	fprintf(stderr, "curve: maximum run (%s), then %d points\n",
		trace_iops ? "the trace as fast as possible" : "unthrottled", n);
	if (at) {
		slot = curve_slot_ms(p, why, sizeof(why));
		if (!slot) {
			fprintf(stderr, "blkgenctl: curve --start-at: %s\n", why);
			free(h);
			return EXIT_USAGE;
		}
		fprintf(stderr, "curve: armed: the maximum at start_at, point k at start_at + k x %llu s\n",
			(unsigned long long)slot / 1000);
	}
	curve_set_max(p, trace_iops);
	/* The maximum and every point, each started by the coordinator. */
	ret = run_coord_open(o, "curve", n + 1);
	if (ret) {
		free(h);
		return ret;
	}
	memset(&r, 0, sizeof(r));
	ret = run_job(p, o, job, &r);
	if (ret) {
		free(h);
		return run_coord_bye(o, ret);
	}
	curve_measure(&r, &mx, h);
	result_free(&r);
	max = (uint64_t)(mx.iops + 0.5);
	if (!max) {
		fprintf(stderr, "curve: the maximum run did no I/O; using 10000 IOPS as vdbench does\n");
		max = 10000;
	}
	fprintf(stderr, "curve: maximum %llu IOPS (mean %.1f us)\n",
		(unsigned long long)max, mx.mean / 1e3);

	for (i = 0; i < n && !interrupted && !o->lease_out; i++) {
		pts[i].pct = pct[i];
		pts[i].target = curve_target(max, pct[i]);
		snprintf(rate, sizeof(rate), "%llu",
			 (unsigned long long)pts[i].target);
		sp = curve_set_target(p, pts[i].target, trace_iops);
		if (trace_iops)
			fprintf(stderr, "curve: point %d/%d: %g%% = %s IOPS (the trace at %.2f%% of its speed)\n",
				i + 1, n, pct[i], rate, sp);
		else
			fprintf(stderr, "curve: point %d/%d: %g%% = %s IOPS\n",
				i + 1, n, pct[i], rate);
		if (at) {
			o->start_at = at + (i + 1) * slot * 1000000ULL;
			if (o->start_at < real_ns() + 100000000ULL) {
				fprintf(stderr, "blkgenctl: curve: point %d's start (start_at + %d x %llu s) has passed: the run before it overran its slot\n",
					i + 1, i + 1, (unsigned long long)slot / 1000);
				overran = true;
				break;
			}
		}
		memset(&r, 0, sizeof(r));
		ret = run_job(p, o, job, &r);
		if (ret && ret != EXIT_FAIL) {
			result_free(&r);
			break;
		}
		curve_measure(&r, &pts[i], &h[i + 1]);
		result_free(&r);
		done++;
		if (stop_ms > 0 && pts[i].mean / 1e6 > stop_ms) {
			fprintf(stderr, "curve: mean latency %.2f ms above %.2f ms: stopping\n",
				pts[i].mean / 1e6, stop_ms);
			break;
		}
	}
	/* Armed for --start-at, or by the coordinator: the maximum's instant. */
	curve_print(o, max, pts, h + 1, done, at ? at : mx.start_at, slot);
	free(h);
	return run_coord_bye(o, interrupted ? 128 + interrupted :
			     overran || o->lease_out || (ret && ret != EXIT_FAIL) ?
			     EXIT_FAIL : EXIT_OK);
}

static const char *replay_usage =
	"blkgenctl replay TRACE --device DEV [--speed PCT] [--afap] [--depth N]\n"
	"                       [--allow-write] [--reads-only] [--format FMT] [--filter ID]\n"
	"                       [--issue] [-o normal|json|csv|csv-intervals|fio] [-q] [--name JOB] [--keep]\n"
	"                       [--start-at TIME] [--lease FILE [--lease-secs N]]";

static void replay_help(void)
{
	printf("usage: %s\n\n"
	       "Replay TRACE on DEV from the kernel: each record is issued at its time\n"
	       "in the trace (scaled by --speed) and its latency measured from then;\n"
	       "records are streamed into the module while the run goes on. Offsets map\n"
	       "into the device (modulo its size, aligned to its logical block).\n"
	       "Formats, told apart by content: blktrace binary (blkparse -d, or\n"
	       "blktrace -d's per-CPU files by their prefix), fio iolog v2/v3, MSR\n"
	       "Cambridge, Alibaba and Tencent CBS CSV.\n\n"
	       "      --device DEV        the device to replay on\n"
	       "      --speed PCT         percent of the trace's speed (default 100;\n"
	       "                          200: twice as fast)\n"
	       "      --afap              as fast as possible at --depth, ignoring times\n"
	       "      --depth N           I/Os in flight at most (default 32)\n"
	       "      --allow-write       replay the trace's writes (destroys data)\n"
	       "      --reads-only        replay only its reads\n"
	       "      --format FMT        blktrace, iolog, msr, alibaba or tencent\n"
	       "                          (default: detected)\n"
	       "      --filter ID         the disk (MSR), device (Alibaba), volume\n"
	       "                          (Tencent), file (iolog) or MAJ:MIN (blktrace)\n"
	       "      --issue             blktrace: ISSUE events, not QUEUE\n"
	       "  -o, --output-format FMT  normal (default), json, csv or fio\n"
	       "  -q, --quiet             no progress lines\n"
	       "      --name JOB          the job's name (default: replay-PID)\n"
	       "      --keep              leave the job when done\n"
	       "      --start-at TIME     the trace's start at TIME (as for run)\n"
	       "      --lease FILE, --lease-secs N, --coordinator HOST:PORT,\n"
	       "      --host-name NAME    as for run\n"
	       "Exit status: 0 done, 1 failed, 2 usage, 3 module not loaded.\n",
	       replay_usage);
}

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "speed", required_argument, NULL, 'S' },
		{ "afap", no_argument, NULL, 'A' },
		{ "depth", required_argument, NULL, 'D' },
		{ "allow-write", no_argument, NULL, 'W' },
		{ "reads-only", no_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'F' },
		{ "filter", required_argument, NULL, 'f' },
		{ "issue", no_argument, NULL, 'I' },
		{ "output-format", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "name", required_argument, NULL, 'n' },
		{ "keep", no_argument, NULL, 'k' },
		{ "start-at", required_argument, NULL, 'T' },
		{ "lease", required_argument, NULL, 'l' },
		{ "lease-secs", required_argument, NULL, 'e' },
		{ "coordinator", required_argument, NULL, 'C' },
		{ "host-name", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct run_opts o = { .ops = &print_normal_ops };
	const char *speed = "100", *depth = "32", *format = NULL;
	const char *filter = NULL, *dev = NULL;
	bool afap = false, reads_only = false, issue = false;
	struct profile p = { 0 };
	char *text = NULL, err[1024], job[256];
	enum trace_format tf;
	size_t len = 0;
	FILE *m;
	u32 sp;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'S':
			speed = optarg;
			break;
		case 'A':
			afap = true;
			break;
		case 'D':
			depth = optarg;
			break;
		case 'W':
			o.allow_write = true;
			break;
		case 'R':
			reads_only = true;
			break;
		case 'F':
			format = optarg;
			break;
		case 'f':
			filter = optarg;
			break;
		case 'I':
			issue = true;
			break;
		case 'o':
			o.ops = print_ops_arg(optarg);
			if (!o.ops)
				return EXIT_USAGE;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'n':
			o.name = optarg;
			break;
		case 'T':
			if (parse_start_at(optarg, &o))
				return EXIT_USAGE;
			break;
		case 'l':
		case 'e':
			if (parse_lease_opt(c, optarg, &o))
				return EXIT_USAGE;
			break;
		case 'C':
			o.coordinator = optarg;
			break;
		case 'H':
			o.host_name = optarg;
			break;
		case 'k':
			o.keep = true;
			break;
		case 'h':
			replay_help();
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", replay_usage);
			return EXIT_USAGE;
		}
	}
	if (check_lease_opts(&o))
		return EXIT_USAGE;
	if (optind != argc - 1 || !dev) {
		fprintf(stderr, "%s\nusage: %s\n", optind != argc - 1 ?
			"blkgenctl: replay takes one TRACE" :
			"blkgenctl: replay needs --device DEV", replay_usage);
		return EXIT_USAGE;
	}
	if (blkgen_parse_speed(speed, &sp)) {
		fprintf(stderr, "blkgenctl: --speed %s: a percent from 0.01 to 1000000 (100: as traced)\n",
			speed);
		return EXIT_USAGE;
	}
	if (strspn(depth, "0123456789") != strlen(depth) || !*depth ||
	    strlen(depth) > 5 || atoi(depth) < 1 || atoi(depth) > 65536) {
		fprintf(stderr, "blkgenctl: --depth %s: I/Os in flight, 1 to 65536\n",
			depth);
		return EXIT_USAGE;
	}
	if (afap && strcmp(speed, "100")) {
		fprintf(stderr, "blkgenctl: --speed %s with --afap: an afap replay ignores times; give one or the other\n",
			speed);
		return EXIT_USAGE;
	}
	if (format && trace_parse_format(format, &tf)) {
		fprintf(stderr, "blkgenctl: --format %s: expected blktrace, iolog, msr, alibaba or tencent\n",
			format);
		return EXIT_USAGE;
	}
	m = open_memstream(&text, &len);
	if (!m)
		return EXIT_FAIL;
	fprintf(m, "[job]\nduration_ms = 0\nwarmup_ms = 0\ninterval_ms = 1s\n\n"
		   "[workload replay]\ndevice = %s\ntrace = %s\nreplay = %s\n"
		   "replay_speed = %s\ndepth = %s\n", dev, argv[optind],
		afap ? "afap" : "timed", speed, depth);
	if (format)
		fprintf(m, "trace_format = %s\n", format);
	if (filter)
		fprintf(m, "trace_filter = %s\n", filter);
	if (issue)
		fprintf(m, "trace_issue = 1\n");
	if (reads_only)
		fprintf(m, "trace_reads_only = 1\n");
	fclose(m);
	ret = profile_parse("replay", text, &p, err, sizeof(err));
	free(text);
	if (ret) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		return EXIT_USAGE;
	}
	ret = prepare(&p, &o);
	if (!ret)
		ret = run_ready();
	if (ret)
		goto out;
	if (o.name)
		snprintf(job, sizeof(job), "%s", o.name);
	else
		snprintf(job, sizeof(job), "replay-%d", (int)getpid());
	ret = run_coord_open(&o, "replay", 1);
	if (!ret)
		ret = run_coord_bye(&o, run_job(&p, &o, job, NULL));
out:
	profile_free(&p);
	return ret;
}
