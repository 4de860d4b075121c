// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - commands on existing jobs: list, status, report, stop.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkgenctl.h"

static int job_error(const char *job, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "blkgenctl: no job '%s' (blkgenctl list shows them)\n",
			job);
	else
		fprintf(stderr, "blkgenctl: %s: %s\n", job, strerror(-err));
	return EXIT_FAIL;
}

/*
 * Parse "-o FMT" / "--output-format FMT" (only if @ops) and --help;
 * returns optind, or -1 on a usage error. --help prints @usage and exits.
 */
static int parse_output(int argc, char **argv, const char *usage,
			const struct print_ops **ops)
{
	static const struct option opts[] = {
		{ "output-format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, ops ? "o:h" : "h",
				ops ? opts : opts + 1, NULL)) != -1) {
		switch (c) {
		case 'o':
			*ops = print_ops_arg(optarg);
			if (!*ops)
				return -1;
			break;
		case 'h':
			printf("usage: %s\n", usage);
			exit(EXIT_OK);
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return -1;
		}
	}
	return optind;
}

/* -o for list and status: normal or json only. */
static int text_or_json(const struct print_ops *ops)
{
	if (ops == &print_normal_ops || ops == &print_json_ops)
		return 0;
	fprintf(stderr, "blkgenctl: -o %s: list and status print normal or json\n",
		ops->name);
	return -1;
}

/* list: one job name per line, sorted; -o json: {"jobs": [names]}. */
int cmd_list(int argc, char **argv)
{
	const char *usage = "blkgenctl list [-o normal|json]";
	const struct print_ops *ops = &print_normal_ops;
	json_object *root, *a;
	char **names;
	int i, n, ret;

	i = parse_output(argc, argv, usage, &ops);
	if (i >= 0 && text_or_json(ops))
		return EXIT_USAGE;
	if (i < 0 || i != argc) {
		if (i >= 0)
			fprintf(stderr, "usage: %s\n", usage);
		return EXIT_USAGE;
	}
	ret = cfs_need_module();
	if (ret)
		return ret;
	n = cfs_list(sfs_root(), &names);
	if (n < 0) {
		fprintf(stderr, "blkgenctl: %s: %s\n", sfs_root(), strerror(-n));
		return EXIT_FAIL;
	}
	if (ops == &print_json_ops) {
		root = json_object_new_object();
		a = json_object_new_array();
		for (i = 0; i < n; i++)
			json_object_array_add(a, json_object_new_string(names[i]));
		json_object_object_add(root, "jobs", a);
		print_json_doc(root);
	} else {
		for (i = 0; i < n; i++)
			printf("%s\n", names[i]);
	}
	cfs_free_list(names, n);
	return EXIT_OK;
}

/* One job's status line, or (@a not NULL) its JSON object added to @a. */
static int status_one(const char *job, json_object *a)
{
	struct job_result r;
	uint64_t ios = 0;
	json_object *o;
	int i, ret;

	ret = result_load(job, &r);
	if (ret) {
		result_free(&r);
		return job_error(job, ret);
	}
	for (i = 0; i < r.nr_wl; i++)
		ios += r.wl[i].dir[0].ios + r.wl[i].dir[1].ios;
	if (a) {
		o = json_object_new_object();
		json_object_object_add(o, "jobname", json_object_new_string(r.name));
		json_object_object_add(o, "state", json_object_new_string(r.state));
		json_object_object_add(o, "error", json_object_new_string(r.error));
		json_object_object_add(o, "elapsed_ms",
				       json_object_new_uint64(r.elapsed_ms));
		json_object_object_add(o, "ios", json_object_new_uint64(ios));
		json_object_object_add(o, "iops",
				       json_object_new_double(r.elapsed_ms ?
					ios * 1000.0 / r.elapsed_ms : 0));
		json_object_array_add(a, o);
		result_free(&r);
		return EXIT_OK;
	}
	printf("%-16s %-8s %9.3f s %12" PRIu64 " I/Os %10.1f IOPS%s%s\n",
	       r.name, r.state, r.elapsed_ms / 1e3, ios,
	       r.elapsed_ms ? ios * 1000.0 / r.elapsed_ms : 0,
	       r.error[0] ? "  error: " : "", r.error);
	result_free(&r);
	return EXIT_OK;
}

/* status [JOB...]: one line per job; -o json: {"jobs": [...]}. */
int cmd_status(int argc, char **argv)
{
	const struct print_ops *ops = &print_normal_ops;
	json_object *root = NULL, *a = NULL;
	char **names;
	int i, n, ret, rc = EXIT_OK, first;

	first = parse_output(argc, argv, "blkgenctl status [JOB...] [-o normal|json]",
			     &ops);
	if (first < 0 || text_or_json(ops))
		return EXIT_USAGE;
	ret = cfs_need_module();
	if (ret)
		return ret;
	if (ops == &print_json_ops) {
		root = json_object_new_object();
		a = json_object_new_array();
		json_object_object_add(root, "jobs", a);
	}
	if (first < argc) {
		for (i = first; i < argc; i++)
			rc |= status_one(argv[i], a);
	} else {
		n = cfs_list(sfs_root(), &names);
		if (n < 0) {
			json_object_put(root);
			return job_error(sfs_root(), n);
		}
		for (i = 0; i < n; i++)
			rc |= status_one(names[i], a);
		cfs_free_list(names, n);
	}
	if (root)
		print_json_doc(root);
	return rc;
}

/* report JOB [-o normal|json|csv|csv-intervals|fio] */
int cmd_report(int argc, char **argv)
{
	const struct print_ops *ops = &print_normal_ops;
	const char *usage = "blkgenctl report JOB [-o normal|json|csv|csv-intervals|fio]\n"
		"\n"
		"The results of JOB: per workload and direction I/Os, IOPS,\n"
		"bandwidth, latency and its percentiles, errors.\n"
		"  -o, --output-format FMT  normal (default), json, csv or fio";
	struct job_result r;
	int i, ret;

	i = parse_output(argc, argv, usage, &ops);
	if (i < 0)
		return EXIT_USAGE;
	if (argc - i != 1) {
		fprintf(stderr, "usage: %s\n", usage);
		return EXIT_USAGE;
	}
	ret = cfs_need_module();
	if (ret)
		return ret;
	ret = result_load(argv[i], &r);
	if (ret) {
		result_free(&r);
		return job_error(argv[i], ret);
	}
	ops->job(&r);
	result_free(&r);
	return EXIT_OK;
}

/* stop JOB: end a run and wait for its in-flight I/O. */
int cmd_stop(int argc, char **argv)
{
	const char *usage = "blkgenctl stop JOB", *job;
	char path[4096];
	int i, ret;

	i = parse_output(argc, argv, usage, NULL);
	if (i < 0 || argc - i != 1) {
		if (i >= 0)
			fprintf(stderr, "usage: %s\n", usage);
		return EXIT_USAGE;
	}
	job = argv[i];
	ret = cfs_need_module();
	if (ret)
		return ret;
	if (strchr(job, '/') ||
	    snprintf(path, sizeof(path), "%s/%s/state", cfs_root(),
		     job) >= (int)sizeof(path))
		return job_error(job, -ENOENT);
	ret = cfs_write(path, "stop");
	if (ret)
		return job_error(job, ret);
	return EXIT_OK;
}

/* rm JOB...: remove jobs with their workloads (the module stops them). */
int cmd_rm(int argc, char **argv)
{
	const char *usage = "blkgenctl rm JOB...";
	int i, ret, rc = EXIT_OK, first;

	first = parse_output(argc, argv, usage, NULL);
	if (first < 0 || first >= argc) {
		if (first >= 0)
			fprintf(stderr, "usage: %s\n", usage);
		return EXIT_USAGE;
	}
	ret = cfs_need_module();
	if (ret)
		return ret;
	for (i = first; i < argc; i++) {
		ret = cfs_remove_job(argv[i]);
		if (ret)
			rc |= job_error(argv[i], ret);
	}
	return rc;
}
