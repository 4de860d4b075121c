// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl replay: the statistics pass over a trace (its errors, with
 * file:line, found before anything runs), and the feeder thread: it fills
 * the workload's record ring before the run starts, then keeps it filled
 * while the run goes on (the module waits for it), and ends the trace
 * with an end record.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <json-c/json.h>

#include "../../uapi/linux/blkgen.h"
#include "blkgenctl.h"
#include "replay.h"

#define FEED_BATCH	128	/* records per write: one page */

int replay_trace_opts(const struct profile_section *w,
		      struct trace_opts *o, char *err, size_t len)
{
	const char *v = profile_get(w, "trace_format");

	memset(o, 0, sizeof(*o));
	if (v && trace_parse_format(v, &o->format)) {
		snprintf(err, len, "trace_format = %s: expected auto, blktrace, iolog, msr, alibaba or tencent",
			 v);
		return -1;
	}
	o->filter = profile_get(w, "trace_filter");
	v = profile_get(w, "trace_issue");
	o->issue = v && !strcmp(v, "1");
	return 0;
}

int replay_scan(const char *file, const struct trace_opts *o,
		bool reads_only, struct trace_stats *st, char *err, size_t len)
{
	struct trace *t = trace_open(file, o, err, len);
	struct trace_rec r;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!t)
		return -1;
	snprintf(st->format, sizeof(st->format), "%s", trace_format_name(t));
	while ((ret = trace_next(t, &r)) == 1) {
		if (r.op == BLKGEN_TRACE_WRITE && reads_only) {
			st->skipped++;
			continue;
		}
		st->records++;
		if (r.op == BLKGEN_TRACE_WRITE) {
			st->writes++;
			st->write_bytes += r.len;
		} else {
			st->reads++;
			st->read_bytes += r.len;
		}
		if (r.len > st->max_len)
			st->max_len = r.len;
		if (r.offset + r.len > st->max_end)
			st->max_end = r.offset + r.len;
		st->last_ns = r.t_ns;
	}
	if (ret < 0)
		snprintf(err, len, "%s", trace_error(t));
	st->skipped += trace_skipped(t);
	st->reordered = trace_reordered(t);
	trace_sources_text(t, st->sources, sizeof(st->sources));
	{
		const char *id[2];
		uint64_t n[2];
		bool more;

		st->nr_sources = trace_sources(t, id, n, 2, &more);
	}
	trace_close(t);
	if (!ret && !st->records) {
		if (o->filter)
			snprintf(err, len, "%s: no read or write in the trace for --filter %s (it holds %s)",
				 file, o->filter, st->sources);
		else
			snprintf(err, len, "%s: no read or write in the trace", file);
		return -1;
	}
	return ret;
}

struct feeder {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool prefilled;		/* the ring is full, or the trace all in it */
	bool go, started;	/* the run started (or will not) */
	struct trace *t;
	bool reads_only;
	int fd;
	uint64_t fed;
	int error;		/* errno of the first failure */
	char err[768];
};

static void feeder_signal(struct feeder *f)
{
	pthread_mutex_lock(&f->lock);
	f->prefilled = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* Wait for the run to start; false if it will not. */
static bool feeder_await_start(struct feeder *f)
{
	bool started;

	feeder_signal(f);
	pthread_mutex_lock(&f->lock);
	while (!f->go)
		pthread_cond_wait(&f->cond, &f->lock);
	started = f->started;
	pthread_mutex_unlock(&f->lock);
	return started;
}

/*
 * Write @n records at @buf, whole: before the run, a full ring (ENOSPC,
 * or a short count) means wait for the start; a run that ended (EPIPE)
 * takes no more. 0, or -1 with f->error set (EPIPE: the run is over).
 */
static int feed(struct feeder *f, const struct blkgen_trace_rec *buf, size_t n,
		bool *waited)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(f->fd, buf + done, (n - done) * sizeof(*buf));

		if (w > 0) {
			done += (size_t)w / sizeof(*buf);
			f->fed += (size_t)w / sizeof(*buf);
			if (done < n && !*waited) {
				*waited = true;
				if (!feeder_await_start(f))
					return f->error = ECANCELED, -1;
			}
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == ENOSPC && !*waited) {
			*waited = true;
			if (!feeder_await_start(f))
				return f->error = ECANCELED, -1;
			continue;
		}
		f->error = w < 0 ? errno : EIO;
		if (f->error != EPIPE)
			snprintf(f->err, sizeof(f->err), "writing the trace: %s",
				 strerror(f->error));
		return -1;
	}
	return 0;
}

static void *feeder_fn(void *arg)
{
	struct feeder *f = arg;
	struct blkgen_trace_rec buf[FEED_BATCH];
	struct trace_rec r;
	bool waited = false;
	size_t n = 0;
	int ret;

	while ((ret = trace_next(f->t, &r)) == 1) {
		if (r.op == BLKGEN_TRACE_WRITE && f->reads_only)
			continue;
		buf[n++] = (struct blkgen_trace_rec){ .t_ns = r.t_ns,
			.offset = r.offset, .len = r.len, .op = r.op };
		if (n == FEED_BATCH) {
			if (feed(f, buf, n, &waited))
				goto out;
			n = 0;
		}
	}
	if (ret < 0) {
		snprintf(f->err, sizeof(f->err), "%s", trace_error(f->t));
		f->error = EINVAL;
		goto out;
	}
	buf[n++] = (struct blkgen_trace_rec){ .op = BLKGEN_TRACE_END };
	feed(f, buf, n, &waited);
out:
	/* Whatever happened, the run may start (and find what there is). */
	feeder_signal(f);
	return NULL;
}

struct feeder *feeder_start(const char *file, const struct trace_opts *o,
			    bool reads_only, const char *trace_path,
			    char *err, size_t len)
{
	struct feeder *f = calloc(1, sizeof(*f));

	if (!f) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->reads_only = reads_only;
	f->t = trace_open(file, o, err, len);
	if (!f->t)
		goto out_free;
	f->fd = open(trace_path, O_WRONLY);
	if (f->fd < 0) {
		snprintf(err, len, "%s: %s", trace_path, strerror(errno));
		goto out_trace;
	}
	if (pthread_create(&f->thread, NULL, feeder_fn, f)) {
		snprintf(err, len, "cannot start the trace feeder");
		close(f->fd);
		goto out_trace;
	}
	return f;
out_trace:
	trace_close(f->t);
out_free:
	free(f);
	return NULL;
}

/* Until the ring is full or holds the whole trace. */
void feeder_wait_prefill(struct feeder *f)
{
	pthread_mutex_lock(&f->lock);
	while (!f->prefilled)
		pthread_cond_wait(&f->cond, &f->lock);
	pthread_mutex_unlock(&f->lock);
}

/* The run started (or, @started false, will not: the feeder gives up). */
void feeder_go(struct feeder *f, bool started)
{
	pthread_mutex_lock(&f->lock);
	f->go = true;
	f->started = started;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/*
 * After the run: the records fed, and 0, or -1 with the reason (a trace
 * error, a failed write; not EPIPE, the run ending before the trace).
 */
int feeder_join(struct feeder *f, uint64_t *fed, char *err, size_t len)
{
	int ret;

	feeder_go(f, false);
	pthread_join(f->thread, NULL);
	*fed = f->fed;
	ret = f->error && f->error != EPIPE && f->error != ECANCELED ? -1 : 0;
	if (ret)
		snprintf(err, len, "%s", f->err);
	else if (f->error == EPIPE)
		snprintf(err, len, "the run ended after %llu records of the trace were fed to it",
			 (unsigned long long)f->fed);
	else
		err[0] = 0;
	close(f->fd);
	trace_close(f->t);
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cond);
	free(f);
	return ret;
}

static const char *trace_stats_usage =
	"blkgenctl trace-stats TRACE [--format FMT] [--filter ID] [--issue]\n"
	"                            [--records N] [-o normal|json]";

/*
 * trace-stats: what a trace holds, as replay would read it: reads and
 * writes, sizes, the sequential share (records starting where the
 * previous one of the trace ended), the footprint (highest byte touched),
 * duration, mean and peak IOPS (per second) and their ratio (burstiness).
 * --records N also prints the first N records as replay takes them.
 */
int cmd_trace_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "filter", required_argument, NULL, 'f' },
		{ "issue", no_argument, NULL, 'I' },
		{ "records", required_argument, NULL, 'r' },
		{ "output-format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct trace_opts to = { 0 };
	uint64_t n = 0, show = 0, seq = 0, prev_end = UINT64_MAX;
	char src[512];
	uint64_t reads = 0, writes = 0, rbytes = 0, wbytes = 0, end = 0;
	uint64_t sec = 0, in_sec = 0, peak = 0, last = 0;
	uint32_t max_len = 0, min_len = UINT32_MAX;
	bool json = false;
	struct trace_rec r;
	struct trace *t;
	char err[5000];
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (trace_parse_format(optarg, &to.format)) {
				fprintf(stderr, "blkgenctl: --format %s: expected blktrace, iolog, msr, alibaba or tencent\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			to.filter = optarg;
			break;
		case 'I':
			to.issue = true;
			break;
		case 'r':
			show = strtoull(optarg, NULL, 10);
			break;
		case 'o':
			if (strcmp(optarg, "normal") && strcmp(optarg, "json")) {
				fprintf(stderr, "blkgenctl: trace-stats -o %s: expected normal or json\n",
					optarg);
				return EXIT_USAGE;
			}
			json = !strcmp(optarg, "json");
			break;
		case 'h':
			printf("usage: %s\n\n"
			       "What TRACE holds, as replay reads it.\n\n"
			       "      --format FMT    blktrace, iolog, msr, alibaba or tencent\n"
			       "      --filter ID     the disk, device, volume, file or MAJ:MIN to keep\n"
			       "      --issue         blktrace: ISSUE events, not QUEUE\n"
			       "      --records N     print the first N records (time_ns op offset len)\n"
			       "  -o, --output-format FMT  normal (default) or json\n",
			       trace_stats_usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", trace_stats_usage);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s\n", trace_stats_usage);
		return EXIT_USAGE;
	}
	t = trace_open(argv[optind], &to, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		return EXIT_USAGE;
	}
	while ((ret = trace_next(t, &r)) == 1) {
		if (n < show)
			printf("%llu %s %llu %u\n", (unsigned long long)r.t_ns,
			       r.op ? "write" : "read",
			       (unsigned long long)r.offset, r.len);
		n++;
		if (r.op) {
			writes++;
			wbytes += r.len;
		} else {
			reads++;
			rbytes += r.len;
		}
		seq += r.offset == prev_end;
		prev_end = r.offset + r.len;
		if (prev_end > end)
			end = prev_end;
		if (r.len > max_len)
			max_len = r.len;
		if (r.len < min_len)
			min_len = r.len;
		if (r.t_ns / 1000000000ULL != sec) {
			sec = r.t_ns / 1000000000ULL;
			in_sec = 0;
		}
		if (++in_sec > peak)
			peak = in_sec;
		last = r.t_ns;
	}
	if (ret < 0) {
		fprintf(stderr, "blkgenctl: %s\n", trace_error(t));
		trace_close(t);
		return EXIT_USAGE;
	}
	trace_sources_text(t, src, sizeof(src));
	if (!n && to.filter) {
		/* As replay: nothing to replay is an error, said with what is there. */
		fprintf(stderr, "blkgenctl: %s: no read or write in the trace for --filter %s (it holds %s)\n",
			argv[optind], to.filter, src);
		trace_close(t);
		return EXIT_FAIL;
	}
	{
		/* IOPS per whole second spanned, as the peak is counted. */
		double secs = last / 1e9;
		double mean = n ? (double)n / (last / 1000000000ULL + 1) : 0;

		if (json) {
			json_object *o = json_object_new_object();
			json_object *so = json_object_new_object();
			const char *id[TRACE_MAX_SOURCES];
			uint64_t cnt[TRACE_MAX_SOURCES];
			bool more;
			int k, ns;

#define J_U64(k, v) json_object_object_add(o, k, json_object_new_uint64(v))
#define J_DBL(k, v, f) json_object_object_add(o, k, json_object_new_double_s(v, f))
			json_object_object_add(o, "format",
					       json_object_new_string(trace_format_name(t)));
			J_U64("records", n);
			J_U64("reads", reads);
			J_U64("writes", writes);
			J_U64("skipped", trace_skipped(t));
			J_U64("reordered", trace_reordered(t));
			J_U64("read_bytes", rbytes);
			J_U64("write_bytes", wbytes);
			J_U64("min_len", n ? min_len : 0);
			J_U64("max_len", max_len);
			snprintf(src, sizeof(src), "%.2f", n ? 100.0 * seq / n : 0);
			J_DBL("sequential_pct", n ? 100.0 * seq / n : 0, src);
			J_U64("footprint_bytes", end);
			snprintf(src, sizeof(src), "%.6f", secs);
			J_DBL("duration_s", secs, src);
			snprintf(src, sizeof(src), "%.1f", mean);
			J_DBL("mean_iops", mean, src);
			J_U64("peak_iops_1s", peak);
			snprintf(src, sizeof(src), "%.2f", mean > 0 ? peak / mean : 0);
			J_DBL("burstiness", mean > 0 ? peak / mean : 0, src);
#undef J_U64
#undef J_DBL
			/* reads and writes to each disk, device, volume or file */
			ns = trace_sources(t, id, cnt, TRACE_MAX_SOURCES, &more);
			for (k = 0; k < ns; k++)
				json_object_object_add(so, id[k],
						       json_object_new_uint64(cnt[k]));
			json_object_object_add(o, trace_source_kind(t), so);
			print_json_doc(o);
		} else {
			printf("%s: %s trace, %llu record%s: %llu read%s (%.1f MB), %llu write%s (%.1f MB); %llu skipped, %llu out of order\n",
			       argv[optind], trace_format_name(t),
			       (unsigned long long)n, n == 1 ? "" : "s",
			       (unsigned long long)reads, reads == 1 ? "" : "s",
			       rbytes / 1e6, (unsigned long long)writes,
			       writes == 1 ? "" : "s",
			       wbytes / 1e6, (unsigned long long)trace_skipped(t),
			       (unsigned long long)trace_reordered(t));
			printf("sizes %u to %u bytes; %.1f%% sequential; footprint %.1f MB; %.3f s, %.1f IOPS on average, %llu in the busiest second (burstiness %.2f)\n",
			       n ? min_len : 0, max_len, n ? 100.0 * seq / n : 0,
			       end / 1e6, secs, mean, (unsigned long long)peak,
			       mean > 0 ? peak / mean : 0);
			printf("%s\n", src);
		}
	}
	trace_close(t);
	return EXIT_OK;
}

static const char *record_usage =
	"blkgenctl record --device DEV --secs N -O FILE";

/* Run argv to its end; its exit status, or -1 if it could not run. */
static int run_prog(char *const argv[], bool quiet)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (quiet && !freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * record: DEV's I/O for N seconds with blktrace (QUEUE and ISSUE events),
 * merged by blkparse into one binary FILE that replay takes.
 */
int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "secs", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *dev = NULL, *out = NULL, *secs = NULL;
	char dir[] = "/tmp/blkgenctl-record.XXXXXX", path[4200];
	struct trace_stats st;
	struct trace_opts to = { 0 };
	char err[5000];
	int c, rc, ret = EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "O:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 's':
			secs = optarg;
			break;
		case 'O':
			out = optarg;
			break;
		case 'h':
			printf("usage: %s\n\n"
			       "Record DEV's I/O for N seconds with blktrace (Debian blktrace) into\n"
			       "FILE, one merged blktrace binary that replay takes.\n\n"
			       "      --device DEV    the device to watch\n"
			       "      --secs N        how long (seconds)\n"
			       "  -O, --output FILE   the trace file\n",
			       record_usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", record_usage);
			return EXIT_USAGE;
		}
	}
	if (optind != argc || !dev || !secs || !out || atoi(secs) <= 0) {
		fprintf(stderr, "usage: %s\n", record_usage);
		return EXIT_USAGE;
	}
	if (access("/sys/kernel/debug/block", F_OK)) {
		char *mnt[] = { "mount", "-t", "debugfs", "debugfs",
				"/sys/kernel/debug", NULL };

		run_prog(mnt, true);
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "blkgenctl: %s: %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	{
		char *bt[] = { "blktrace", "-d", (char *)dev, "-w", (char *)secs,
			       "-a", "queue", "-a", "issue", "-D", dir, "-o",
			       "rec", NULL };

		fprintf(stderr, "blkgenctl: recording %s for %s s\n", dev, secs);
		rc = run_prog(bt, true);
		if (rc) {
			fprintf(stderr, "blkgenctl: blktrace %s failed (%s)%s\n", dev,
				rc == 127 ? "not found: apt-get install blktrace" : "exit status",
				rc == 127 ? "" : "; is debugfs mounted, the device a block device?");
			goto out;
		}
	}
	{
		char *bp[] = { "blkparse", "-i", "rec", "-D", dir, "-d",
			       (char *)out, "-O", "-q", NULL };

		rc = run_prog(bp, true);
		if (rc) {
			fprintf(stderr, "blkgenctl: blkparse failed (%s)\n",
				rc == 127 ? "not found: apt-get install blktrace" : "exit status");
			goto out;
		}
	}
	if (replay_scan(out, &to, false, &st, err, sizeof(err))) {
		fprintf(stderr, "blkgenctl: %s\n", err);
		goto out;
	}
	fprintf(stderr, "blkgenctl: wrote %s: %llu records (%llu reads, %llu writes) over %.3f s\n",
		out, (unsigned long long)st.records, (unsigned long long)st.reads,
		(unsigned long long)st.writes, st.last_ns / 1e9);
	ret = EXIT_OK;
out:
	/* blktrace's per-CPU files, one per possible CPU at most */
	for (c = 0; c < 4096; c++) {
		snprintf(path, sizeof(path), "%s/rec.blktrace.%d", dir, c);
		remove(path);
	}
	rmdir(dir);
	return ret;
}
