// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - control tool for the blkgen in-kernel load generator.
 *
 * Subcommands in the nvme-cli manner: one table, one function each.
 */
#include <stdio.h>
#include <string.h>

#include "blkgenctl.h"
#include "review.h"

static int cmd_help(int argc, char **argv);

static int cmd_version(int argc, char **argv)
{
	printf("blkgenctl %s\n", BLKGENCTL_VERSION);
	return EXIT_OK;
}

static const struct command commands[] = {
	{ "run", "PROFILE [--device DEV] [--allow-write] [-o FMT] [-q] ...",
	  "Run a profile with live progress, then report", cmd_run },
	{ "curve", "PROFILE [--points 10-120,10] [--stop-latency-ms MS] ...",
	  "vdbench curve: the maximum, then runs at percents of it", cmd_curve },
	{ "replay", "TRACE --device DEV [--speed PCT] [--afap] [--allow-write] ...",
	  "Replay a trace (blktrace, fio iolog, MSR/Alibaba/Tencent CSV) in its time",
	  cmd_replay },
	{ "coordinate", "--hosts N [--listen [ADDR:]PORT] [--lead-ms MS] ...",
	  "Start many hosts' runs together, print their live totals, stop all on a failure",
	  cmd_coordinate },
	{ "trace-stats", "TRACE [--records N] [-o json]",
	  "What a trace holds: reads, writes, sizes, sequential share, IOPS",
	  cmd_trace_stats },
	{ "record", "--device DEV --secs N -O FILE",
	  "Record a device's I/O with blktrace into a trace replay takes",
	  cmd_record },
	{ "review", "--device DEV --allow-write -O DIR [--suite NAME] [--quick] [--resume] ...",
	  "The reviews' method: precondition, every suite workload's curve, the report",
	  cmd_review },
	{ "compare", "DIR|published:NAME... -O OUT",
	  "Compare reviews (and a review's published figures): a chart per shared workload, ranked",
	  cmd_compare },
	{ "vdi", "--clone full|linked --phase PHASE --desktops N -O FILE ...",
	  "Write a StorageReview-style VDI trace (boot, initial or Monday login)",
	  cmd_vdi },
	{ "list", "[-o json]", "List the jobs", cmd_list },
	{ "status", "[JOB...] [-o json]", "One line per job: state, time, I/Os, IOPS, error",
	  cmd_status },
	{ "report", "JOB [-o normal|json|csv|csv-intervals|fio]",
	  "Results of a job: IOPS, bandwidth, latency and percentiles",
	  cmd_report },
	{ "stop", "JOB", "Stop a running job (waits for in-flight I/O)",
	  cmd_stop },
	{ "rm", "JOB...", "Remove jobs (stopping running ones)", cmd_rm },
	{ "verify", "JOB [-o FMT]",
	  "Read back a verify=1 run's region; print each mismatch and its class",
	  cmd_verify },
	{ "merge", "FILE.json... [-o FMT] [--force]",
	  "Combine JSON reports exactly (histograms summed)", cmd_merge },
	{ "convert", "FILE [-f vdbench|fio] [--run NAME] [-O DIR]",
	  "Convert a vdbench parameter file or fio job file to profiles",
	  cmd_convert },
	{ "plot", "FILE.json [-O OUT.png|OUT.svg] [--script]",
	  "Chart a curve (latency vs IOPS) or a report (histogram)", cmd_plot },
	{ "version", "", "Show the tool's version", cmd_version },
	{ "help", "[COMMAND]", "Show this help, or COMMAND's", cmd_help },
	{ }
};

static void usage(FILE *f)
{
	const struct command *c;

	fprintf(f, "usage: blkgenctl COMMAND [ARGS...]\n\ncommands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %s%s%s\n      %s\n", c->name, c->args[0] ? " " : "",
			c->args, c->help);
	fprintf(f, "\nexit status: 0 ok, 1 failed, 2 usage, 3 module not loaded\n");
}

/* help [CMD]: the commands, or CMD's own --help. */
static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	char help[] = "--help";
	char *args[] = { NULL, help, NULL };

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	for (c = commands; c->name; c++) {
		if (strcmp(argv[1], c->name))
			continue;
		if (c->fn == cmd_help || c->fn == cmd_version) {
			printf("usage: blkgenctl %s%s%s\n    %s\n", c->name,
			       c->args[0] ? " " : "", c->args, c->help);
			return EXIT_OK;
		}
		args[0] = argv[1];
		return c->fn(2, args);
	}
	fprintf(stderr, "blkgenctl: unknown command '%s' (try 'blkgenctl help')\n",
		argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return cmd_version(argc - 1, argv + 1);

	for (c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);

	fprintf(stderr, "blkgenctl: unknown command '%s' (try 'blkgenctl help')\n",
		argv[1]);
	return EXIT_USAGE;
}
