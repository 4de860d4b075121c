// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl convert FILE - a vdbench parameter file or a fio job file as
 * native profiles: one run to stdout, or every run as DIR/RUN.prof.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blkgenctl.h"
#include "convert.h"

static const char *convert_usage =
	"blkgenctl convert FILE [-f vdbench|fio] [--run NAME] [-O DIR]\n"
	"                       [--device-size SIZE]";

static void convert_help(void)
{
	printf("usage: %s\n\n"
	       "Convert a vdbench parameter file (sd/wd/rd) or a fio job file into\n"
	       "blkgen profiles. Each vdbench rd (and each value of its for-loops or\n"
	       "iorate list) and each group of fio jobs up to a stonewall is one run.\n"
	       "One run goes to stdout; with several, pick one with --run or write\n"
	       "all with -O. Options that would change the I/O and that blkgen cannot\n"
	       "honour are errors; options without effect are listed as notes.\n\n"
	       "  -f, --from FORMAT     vdbench or fio (default: detected)\n"
	       "      --run NAME        convert only this run\n"
	       "  -O, --output-dir DIR  write DIR/RUN.prof for every run\n"
	       "      --device-size SIZE  device size for zipf and hotband tables\n"
	       "                        (default: read from the named device)\n"
	       "  -q, --quiet           no notes on stderr\n",
	       convert_usage);
}

static char *slurp(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int err;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (!n)
			break;
	}
	err = ferror(f) ? errno : 0;
	if (f != stdin)
		fclose(f);
	if (buf && err) {
		free(buf);
		buf = NULL;
		errno = err;
	}
	if (buf)
		buf[len] = 0;
	return buf;
}

/* fio has [sections]; vdbench has sd=/wd=/rd= statements. */
static const char *detect(const char *text)
{
	const char *p = text;

	while (p && *p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[')
			return "fio";
		if (!strncmp(p, "sd=", 3) || !strncmp(p, "wd=", 3) ||
		    !strncmp(p, "rd=", 3))
			return "vdbench";
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/*
 * One run's profile to DIR/NN-RUN.prof (NN: its place in the file's run
 * order, so that a shell's sorted glob of DIR runs them in order), or to
 * stdout without -O.
 */
static int write_run(const char *dir, int seq, int nr, const char *name,
		     const char *text, bool quiet)
{
	char path[4096], file[300];
	FILE *f = stdout;

	if (dir) {
		snprintf(file, sizeof(file), "%0*d-%s", nr >= 100 ? 3 : 2,
			 seq, name);
		if (path_join(path, sizeof(path), dir, file, ".prof")) {
			fprintf(stderr, "blkgenctl: %s: name too long\n", dir);
			return EXIT_FAIL;
		}
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "blkgenctl: %s: %s\n", path, strerror(errno));
			return EXIT_FAIL;
		}
	}
	fputs(text, f);
	if (dir && fclose(f)) {
		fprintf(stderr, "blkgenctl: %s: %s\n", path, strerror(errno));
		remove(path);
		return EXIT_FAIL;
	}
	if (dir && !quiet)
		fprintf(stderr, "blkgenctl: wrote %s\n", path);
	return EXIT_OK;
}

/* After "no run named X": the runs the file holds (converted again, all). */
static void list_runs(const struct conv *c, const char *from)
{
	struct conv all = { .file = c->file, .device_size = c->device_size };
	char *text = slurp(c->file);
	int i;

	if (text && !(!strcmp(from, "fio") ? conv_fio(&all, text) :
		      conv_vdbench(&all, text)) && all.nr_runs) {
		fprintf(stderr, "; it holds");
		for (i = 0; i < all.nr_runs; i++)
			fprintf(stderr, " %s", all.run[i].name);
	}
	fprintf(stderr, "\n");
	free(all.run);
	free(text);
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "run", required_argument, NULL, 'r' },
		{ "output-dir", required_argument, NULL, 'O' },
		{ "device-size", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *from = NULL, *run = NULL, *dir = NULL;
	struct conv c = { 0 };
	bool quiet = false;
	char *text, **texts = NULL;
	int opt, i, ret = EXIT_OK;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:O:qh", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			from = optarg;
			break;
		case 'r':
			run = optarg;
			c.only = optarg;
			break;
		case 'O':
			dir = optarg;
			break;
		case 'S':
			if (conv_size(optarg, &c.device_size) || !c.device_size) {
				fprintf(stderr, "blkgenctl: --device-size %s: not a size (e.g. 960g)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			convert_help();
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s\n", convert_usage);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s\n", convert_usage);
		return EXIT_USAGE;
	}
	c.file = argv[optind];
	if (from && strcmp(from, "vdbench") && strcmp(from, "fio")) {
		fprintf(stderr, "blkgenctl: --from %s: expected vdbench or fio\n", from);
		return EXIT_USAGE;
	}
	text = slurp(c.file);
	if (!text) {
		fprintf(stderr, "blkgenctl: %s: %s\n", c.file, strerror(errno));
		return EXIT_FAIL;
	}
	if (!from)
		from = detect(text);
	if (!from) {
		fprintf(stderr, "blkgenctl: %s: neither a vdbench parameter file (sd=, wd=, rd=) nor a fio job file ([job]): give --from\n",
			c.file);
		free(text);
		return EXIT_USAGE;
	}
	if ((!strcmp(from, "fio") ? conv_fio(&c, text) : conv_vdbench(&c, text))) {
		fprintf(stderr, "blkgenctl: %s\n", c.err);
		ret = EXIT_USAGE;
		goto out;
	}
	if (c.nr_runs > 1 && !run && !dir) {
		fprintf(stderr, "blkgenctl: %s holds %d runs:", c.file, c.nr_runs);
		for (i = 0; i < c.nr_runs; i++)
			fprintf(stderr, " %s", c.run[i].name);
		fprintf(stderr, "\nblkgenctl: pick one with --run NAME or write all with -O DIR\n");
		ret = EXIT_USAGE;
		goto out;
	}
	/* --run built only that run. */
	if (run && !c.nr_runs) {
		fprintf(stderr, "blkgenctl: %s: no run named '%s'", c.file, run);
		list_runs(&c, from);
		ret = EXIT_USAGE;
		goto out;
	}
	/* Every run checked before any is written: a failure leaves no file. */
	texts = calloc(c.nr_runs, sizeof(*texts));
	for (i = 0; texts && i < c.nr_runs; i++) {
		conv_streams(&c, &c.run[i]);
		texts[i] = conv_text(&c, &c.run[i]);
		if (!texts[i]) {
			/* A value blkgen refuses is the input's fault too. */
			fprintf(stderr, "blkgenctl: %s\n", c.err);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (!texts) {
		fprintf(stderr, "blkgenctl: out of memory\n");
		ret = EXIT_FAIL;
		goto out;
	}
	if (dir && mkdirs(dir)) {
		fprintf(stderr, "blkgenctl: %s: %s\n", dir, strerror(errno));
		ret = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < c.nr_runs && !ret; i++) {
		ret = write_run(dir, i + 1, c.nr_runs, c.run[i].name, texts[i],
				quiet);
		if (!quiet && !ret) {
			int k;

			for (k = 0; k < c.run[i].nr_notes; k++)
				fprintf(stderr, "blkgenctl: note: %s: %s\n",
					c.run[i].name, c.run[i].note[k]);
		}
	}
	if (!ret && !quiet)
		for (i = 0; i < c.nr_notes; i++)
			fprintf(stderr, "blkgenctl: note: %s\n", c.note[i]);
out:
	for (i = 0; texts && i < c.nr_runs; i++)
		free(texts[i]);
	free(texts);
	free(c.run);
	free(text);
	return ret;
}
