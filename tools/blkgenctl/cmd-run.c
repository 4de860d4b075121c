// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl run PROFILE: build a job from a profile in configfs, run it
 * with live progress on stderr, print the report on stdout, remove the
 * job. Everything is validated before anything is created, and whatever
 * was created is removed again on any failure, Ctrl-C or SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blkgenctl.h"
#include "profile.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

struct run_opts {
	const char *devices[PROFILE_MAX_WL];
	int nr_devices;
	const char *sets[64];
	int nr_sets;
	bool allow_write;
	bool quiet;
	bool keep;
	const char *name;
	const struct print_ops *ops;
};

static const char *run_usage =
	"blkgenctl run PROFILE [--device DEV]... [--set [WL.]KEY=VALUE]...\n"
	"                      [--allow-write] [-o normal|json|csv] [-q] [--name JOB] [--keep]";

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
static void describe(const char *dev, char *buf, size_t size)
{
	const char *base = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	char path[512], model[128] = "";
	uint64_t sectors = 0;

	snprintf(path, sizeof(path), "/sys/class/block/%s/size", base);
	cfs_read_u64(path, &sectors);
	snprintf(path, sizeof(path), "/sys/class/block/%s/device/model", base);
	cfs_read_text(path, model, sizeof(model));
	snprintf(buf, size, "%.1f GB%s%s", sectors * 512.0 / 1e9,
		 model[0] ? ", " : "", model);
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

		if (!profile_get(w, "device")) {
			if (!o->nr_devices) {
				fprintf(stderr, "blkgenctl: %s: workload %s names no device: use --device DEV\n",
					p->file, w->name);
				return EXIT_USAGE;
			}
			profile_put(w, "device", o->devices[i % o->nr_devices], 0);
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
	for (i = 0; writers && i < p->nr_wl; i++) {
		const char *rd = profile_get(&p->wl[i], "rdpct");
		const char *dev = profile_get(&p->wl[i], "device");

		if (rd && strcmp(rd, "100")) {
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

/* One progress line: elapsed/total, then per workload IOPS, MB/s, mean, p99. */
static void progress(const struct job_result *now, struct job_result *prev,
		     uint64_t duration_ms, bool tty)
{
	uint64_t dt = now->elapsed_ms - prev->elapsed_ms;
	int i, d;

	if (!dt)
		return;
	fprintf(stderr, "%s[%7.1fs", tty ? "\r" : "", now->elapsed_ms / 1e3);
	if (duration_ms)
		fprintf(stderr, "/%.1fs", duration_ms / 1e3);
	fprintf(stderr, "]");
	for (i = 0; i < now->nr_wl && i < prev->nr_wl; i++) {
		struct blkgen_lat_hist *h = malloc(sizeof(*h));
		uint64_t ios = 0, bytes = 0;
		unsigned int b;

		blkgen_hist_reset(h);
		for (d = 0; d < 2; d++) {
			const struct dir_result *a = &now->wl[i].dir[d];
			const struct dir_result *z = &prev->wl[i].dir[d];

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

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "set", required_argument, NULL, 's' },
		{ "allow-write", no_argument, NULL, 'W' },
		{ "output-format", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "name", required_argument, NULL, 'n' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct run_opts o = { .ops = &print_normal_ops };
	struct job_result prev = { 0 }, cur;
	struct profile p = { 0 };
	struct created c = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[512], job[256], path[4096], state[32];
	uint64_t duration = 0;
	unsigned int tick;
	int ch, ret, rc = EXIT_OK;
	bool tty = isatty(2);
	const char *v;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:s:Wo:qn:kh", opts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (o.nr_devices < PROFILE_MAX_WL)
				o.devices[o.nr_devices++] = optarg;
			break;
		case 's':
			if (o.nr_sets < 64)
				o.sets[o.nr_sets++] = optarg;
			break;
		case 'W':
			o.allow_write = true;
			break;
		case 'o':
			o.ops = print_ops_for(optarg);
			if (!o.ops) {
				fprintf(stderr, "blkgenctl: unknown output format '%s' (normal, json, csv)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'n':
			o.name = optarg;
			break;
		case 'k':
			o.keep = true;
			break;
		case 'h':
			printf("usage: %s\n", run_usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", run_usage);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s\n", run_usage);
		return EXIT_USAGE;
	}
	if (profile_load(argv[optind], &p, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		profile_free(&p);
		return EXIT_USAGE;
	}
	ret = prepare(&p, &o);
	if (ret)
		goto out_free;
	if (!cfs_module_loaded()) {
		fprintf(stderr, "blkgenctl: %s\n", cfs_missing_hint());
		ret = EXIT_NOMOD;
		goto out_free;
	}
	if (o.name)
		snprintf(job, sizeof(job), "%s", o.name);
	else
		snprintf(job, sizeof(job), "run-%d", (int)getpid());

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = create(&p, job, &c);
	if (ret || interrupted)
		goto out_cleanup;

	v = profile_get(&p.job, "duration_ms");
	duration = v ? strtoull(v, NULL, 10) : 10000;
	path3(path, sizeof(path), cfs_root(), job, "state");
	ret = cfs_write(path, "start");
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
	result_load(job, &prev);
	for (tick = 0;; tick++) {
		sleep_ms(100);
		if (interrupted) {
			fprintf(stderr, "%sblkgenctl: %s, stopping %s\n",
				tty && !o.quiet ? "\n" : "",
				interrupted == SIGINT ? "interrupted" : "terminated",
				job);
			cfs_write(path, "stop");
			rc = 128 + interrupted;
			break;
		}
		if (cfs_read_text(path, state, sizeof(state)) ||
		    strcmp(state, "running"))
			break;
		if (o.quiet || tick % 10 != 9)
			continue;
		if (result_load(job, &cur) == 0) {
			progress(&cur, &prev, duration, tty);
			result_free(&prev);
			prev = cur;
		} else {
			result_free(&cur);
		}
	}
	if (tty && !o.quiet)
		fprintf(stderr, "\n");
	ret = result_load(job, &cur);
	if (ret) {
		fprintf(stderr, "blkgenctl: %s: cannot read results: %s\n", job,
			strerror(-ret));
		ret = EXIT_FAIL;
	} else {
		o.ops->job(&cur);
		if (!strcmp(cur.state, "failed")) {
			fprintf(stderr, "blkgenctl: %s failed: %s\n", job, cur.error);
			ret = EXIT_FAIL;
		}
	}
	result_free(&cur);
	if (rc)
		ret = rc;
out_cleanup:
	result_free(&prev);
	if (!o.keep || ret)
		cleanup(&c);
out_free:
	profile_free(&p);
	return ret;
}
