// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - verify JOB: read back the region of a finished run that
 * wrote with verify=1, against its generation table (the job's mode
 * attribute set to verify for one start), and print each mismatch with
 * its byte offset and class. Also the parser of WL/verify_log lines.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blkgenctl.h"

/**
 * vlog_parse() - One WL/verify_log line.
 * @line: "OFFSET CLASS expected=E found=F [from=H]"
 * @l: filled
 * Return: 0, or -1 if the line is not one.
 */
int vlog_parse(const char *line, struct vlog_line *l)
{
	int n = 0;

	memset(l, 0, sizeof(*l));
	if (sscanf(line, "%" SCNu64 " %15s expected=%u found=%u%n", &l->offset,
		   l->cls, &l->expected, &l->found, &n) != 4)
		return -1;
	l->from = l->offset;
	sscanf(line + n, " from=%" SCNu64, &l->from);
	return 0;
}

/**
 * print_verify_log() - A workload's mismatches, one line each.
 * @wl: workload name
 * @log: WL/verify_log, or NULL
 * @indent: put before each line
 */
void print_verify_log(const char *wl, const char *log, const char *indent)
{
	const char *p = log, *e;
	struct vlog_line l;
	char line[256];

	for (; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
		if (vlog_parse(line, &l))
			continue;
		printf("%s%s: offset %" PRIu64 ": %s (expected generation %u, found %u)",
		       indent, wl, l.offset, l.cls, l.expected, l.found);
		if (l.from != l.offset)
			printf(", data written for offset %" PRIu64, l.from);
		printf("\n");
	}
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static int job_file(char *buf, size_t size, const char *job, const char *name)
{
	char dir[4096];

	return cfs_path(dir, sizeof(dir), cfs_root(), job) ?:
	       cfs_path(buf, size, dir, name);
}

static const char *verify_usage =
	"blkgenctl verify JOB [-o normal|json|csv|csv-intervals|fio]\n"
	"\n"
	"Read back the whole region of every verify=1 workload of JOB (a\n"
	"finished run) against its generation table, and print each block\n"
	"found wrong: its byte offset and class (foreign, corrupt,\n"
	"misdirected, stale, torn, phantom; unflushed is not an error).\n"
	"  -o, --output-format FMT  normal (default), json, csv or fio\n"
	"Exit status: 0 nothing wrong, 1 a mismatch, a failed read or a\n"
	"pass that did not finish, 2 usage, 3 module not loaded.";

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output-format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const struct print_ops *ops = &print_normal_ops;
	char mode[4096], state[4096], text[64];
	uint64_t errors = 0, checked = 0, unflushed = 0, ioerrs = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct job_result r;
	const char *job;
	int c, i, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			ops = print_ops_arg(optarg);
			if (!ops)
				return EXIT_USAGE;
			break;
		case 'h':
			printf("usage: %s\n", verify_usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", verify_usage);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s\n", verify_usage);
		return EXIT_USAGE;
	}
	job = argv[optind];
	if (cfs_need_module())
		return EXIT_NOMOD;
	if (strchr(job, '/') || job_file(mode, sizeof(mode), job, "mode") ||
	    job_file(state, sizeof(state), job, "state") ||
	    access(state, F_OK)) {
		fprintf(stderr, "blkgenctl: no job '%s' (blkgenctl list shows them)\n",
			job);
		return EXIT_FAIL;
	}
	if (!cfs_read_text(state, text, sizeof(text)) &&
	    (!strcmp(text, "running") || !strcmp(text, "armed"))) {
		fprintf(stderr, "blkgenctl: %s is running: verify a finished run (blkgenctl stop %s)\n",
			job, job);
		return EXIT_FAIL;
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = cfs_write(mode, "verify");
	if (!ret)
		ret = cfs_write(state, "start");
	if (ret) {
		cfs_write(mode, "run");
		result_load(job, &r);
		fprintf(stderr, "blkgenctl: %s: the verify pass did not start: %s\n",
			job, r.error[0] ? r.error : strerror(-ret));
		result_free(&r);
		return EXIT_FAIL;
	}
	for (;;) {
		struct timespec ts = { 0, 200 * 1000000L };

		if (cfs_read_text(state, text, sizeof(text)) ||
		    (strcmp(text, "running") && strcmp(text, "armed")))
			break;
		if (interrupted) {
			cfs_write(state, "stop");
			interrupted = 0;
		}
		nanosleep(&ts, NULL);
	}
	/* The job starts its workloads' I/O again next time. */
	cfs_write(mode, "run");

	ret = result_load(job, &r);
	if (ret) {
		result_free(&r);
		fprintf(stderr, "blkgenctl: %s: %s\n", job, strerror(-ret));
		return EXIT_FAIL;
	}
	for (i = 0; i < r.nr_wl; i++) {
		errors += r.wl[i].verify_errors;
		checked += r.wl[i].verify_checked;
		unflushed += r.wl[i].verify_unflushed;
		/* A read that failed checked nothing: the pass is not clean. */
		ioerrs += r.wl[i].errors;
	}
	if (ops == &print_normal_ops) {
		for (i = 0; i < r.nr_wl; i++)
			print_verify_log(r.wl[i].name, r.wl[i].verify_log, "");
		printf("%s: verify pass %s: %" PRIu64 " blocks checked, %" PRIu64
		       " mismatches, %" PRIu64 " unflushed", job, r.state,
		       checked, errors, unflushed);
		if (ioerrs)
			printf(", %" PRIu64 " reads failed", ioerrs);
		printf("%s%s\n", r.error[0] ? ", error: " : "", r.error);
		for (i = 0; i < r.nr_wl; i++)
			if (r.wl[i].verify_errors + r.wl[i].verify_unflushed > 64)
				printf("%s: %s: only the first 64 mismatches are listed\n",
				       job, r.wl[i].name);
	} else {
		ops->job(&r);
	}
	ret = errors || ioerrs || strcmp(r.state, "done") ? EXIT_FAIL : EXIT_OK;
	result_free(&r);
	return ret;
}
