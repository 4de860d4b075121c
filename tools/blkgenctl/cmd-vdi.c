// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl vdi: write a StorageReview-style VDI trace (full or linked
 * clone; boot, initial login or Monday login) built from the public
 * characterisations in Documentation/vdi.rst, as an MSR Cambridge CSV
 * that replay, curve and the review take.
 *
 * Each desktop is an inhomogeneous Poisson source (by thinning) whose
 * rate follows its phase's shape (a boot's ramp to a peak, a login's
 * burst), started at a random time in the phase's storm window; the
 * desktops' streams are merged in time order through a binary heap, so
 * the trace is written as it is made, never held in memory. A seed makes
 * it repeatable byte for byte.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"
#include "pattern.h"

#define VDI_ALIGN		4096

/* One phase of the model; the figures and their sources: vdi.rst. */
struct vdi_phase {
	const char *name;
	unsigned int read_pct;		/* of I/Os */
	unsigned int random_pct;	/* the rest continues the desktop's stream */
	unsigned int nr_sizes;
	unsigned int size_kib[5];
	unsigned int size_pct[5];
	double before, peak, after;	/* a desktop's IOPS around its event */
	double storm;			/* events start in [0, storm x secs) */
	double length;			/* an event lasts length x secs */
	double ramp;			/* a boot ramps to its peak over this share */
	unsigned int replica_read_pct;	/* linked clone: reads of the replica */
	unsigned int secs;		/* default duration */
};

static const struct vdi_phase phases[] = {
	{ .name = "boot", .read_pct = 88, .random_pct = 80, .nr_sizes = 5,
	  .size_kib = { 4, 8, 16, 32, 64 }, .size_pct = { 40, 20, 15, 15, 10 },
	  .before = 0, .peak = 376, .after = 5, .storm = 0.5, .length = 0.5,
	  .ramp = 0.25, .replica_read_pct = 90, .secs = 60 },
	{ .name = "initial-login", .read_pct = 35, .random_pct = 90,
	  .nr_sizes = 5, .size_kib = { 4, 8, 16, 32, 64 },
	  .size_pct = { 50, 20, 10, 10, 10 },
	  .before = 2, .peak = 50, .after = 10, .storm = 0.6, .length = 0.3,
	  .ramp = 0, .replica_read_pct = 60, .secs = 60 },
	{ .name = "monday-login", .read_pct = 55, .random_pct = 90,
	  .nr_sizes = 5, .size_kib = { 4, 8, 16, 32, 64 },
	  .size_pct = { 50, 20, 10, 10, 10 },
	  .before = 2, .peak = 80, .after = 10, .storm = 0.6, .length = 0.3,
	  .ramp = 0, .replica_read_pct = 60, .secs = 60 },
};

/* Linked clones: the shared replica's share of the footprint, in %. */
#define VDI_REPLICA_PCT	8

struct extent {
	uint64_t start, size, cursor;
};

struct desktop {
	double t;		/* the next I/O's time, seconds */
	double start;		/* its boot or login */
	struct extent own;	/* FC: its image; LC: its delta */
	uint64_t replica_cursor;
	struct blkgen_rng rng;
};

struct vdi {
	const struct vdi_phase *ph;
	bool linked;
	unsigned int n;
	double secs;
	uint64_t size;
	struct extent replica;
	struct desktop *d;
	unsigned int *heap;	/* desktops by their next time */
};

static double uniform(struct blkgen_rng *r)
{
	return (blkgen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A desktop's rate at @t: idle, its event's shape, then its steady state. */
static double rate_at(const struct vdi *v, const struct desktop *d, double t)
{
	const struct vdi_phase *ph = v->ph;
	double x = (t - d->start) / (ph->length * v->secs);

	if (x < 0)
		return ph->before;
	if (x >= 1)
		return ph->after;
	if (ph->ramp <= 0)
		return ph->peak;	/* a burst: a plateau */
	if (x < ph->ramp)
		return ph->peak * x / ph->ramp;
	return ph->peak * (1 - x) / (1 - ph->ramp);
}

static double max_rate(const struct vdi_phase *ph)
{
	double m = ph->peak;

	if (ph->before > m)
		m = ph->before;
	return ph->after > m ? ph->after : m;
}

/* The desktop's next accepted arrival after its current time (thinning). */
static void advance(const struct vdi *v, struct desktop *d)
{
	double m = max_rate(v->ph);

	for (;;) {
		d->t += -log(1.0 - uniform(&d->rng)) / m;
		if (d->t >= v->secs)
			return;
		if (uniform(&d->rng) * m < rate_at(v, d, d->t))
			return;
	}
}

static bool earlier(const struct vdi *v, unsigned int a, unsigned int b)
{
	return v->d[a].t < v->d[b].t || (v->d[a].t == v->d[b].t && a < b);
}

static void sift_down(struct vdi *v, unsigned int i)
{
	unsigned int n = v->n, c, tmp;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && earlier(v, v->heap[c + 1], v->heap[c]))
			c++;
		if (!earlier(v, v->heap[c], v->heap[i]))
			return;
		tmp = v->heap[c];
		v->heap[c] = v->heap[i];
		v->heap[i] = tmp;
		i = c;
	}
}

static uint32_t pick_size(const struct vdi_phase *ph, struct blkgen_rng *r)
{
	unsigned int p = (unsigned int)blkgen_rng_below(r, 100), i, sum = 0;

	for (i = 0; i < ph->nr_sizes; i++) {
		sum += ph->size_pct[i];
		if (p < sum)
			break;
	}
	if (i == ph->nr_sizes)
		i--;
	return ph->size_kib[i] * 1024;
}

/* An offset in @e: random, or where the stream left off (wrapping). */
static uint64_t pick_offset(const struct vdi *v, struct blkgen_rng *r,
			    const struct extent *e, uint64_t *cursor,
			    uint32_t len)
{
	uint64_t slots = (e->size - len) / VDI_ALIGN + 1, off;

	if (blkgen_rng_below(r, 100) < v->ph->random_pct)
		off = blkgen_rng_below(r, slots) * VDI_ALIGN;
	else
		off = *cursor + len <= e->size ? *cursor : 0;
	*cursor = off + len;
	return e->start + off;
}

static int emit(struct vdi *v, FILE *out, unsigned int i)
{
	struct desktop *d = &v->d[i];
	const struct vdi_phase *ph = v->ph;
	bool read = blkgen_rng_below(&d->rng, 100) < ph->read_pct;
	uint32_t len = pick_size(ph, &d->rng);
	uint64_t off;

	if (v->linked && read &&
	    blkgen_rng_below(&d->rng, 100) < ph->replica_read_pct)
		off = pick_offset(v, &d->rng, &v->replica, &d->replica_cursor, len);
	else
		off = pick_offset(v, &d->rng, &d->own, &d->own.cursor, len);
	/* MSR Cambridge: Windows filetime (100 ns), host, disk, type, ... */
	return fprintf(out, "%llu,blkgen-vdi,%u,%s,%llu,%u,0\n",
		       (unsigned long long)llround(d->t * 1e7), i,
		       read ? "Read" : "Write", (unsigned long long)off,
		       len) < 0 ? -1 : 0;
}

static int generate(struct vdi *v, FILE *out, uint64_t seed, uint64_t *recs)
{
	uint64_t extent_size, base = 0;
	unsigned int i;

	if (v->linked) {
		v->replica.start = 0;
		v->replica.size = v->size / 100 * VDI_REPLICA_PCT / VDI_ALIGN *
				  VDI_ALIGN;
		base = v->replica.size;
	}
	extent_size = (v->size - base) / v->n / VDI_ALIGN * VDI_ALIGN;
	for (i = 0; i < v->n; i++) {
		struct desktop *d = &v->d[i];

		blkgen_rng_seed(&d->rng, seed, i);
		d->own.start = base + (uint64_t)i * extent_size;
		d->own.size = extent_size;
		d->own.cursor = blkgen_rng_below(&d->rng, extent_size / VDI_ALIGN) *
				VDI_ALIGN;
		d->replica_cursor = v->linked ?
			blkgen_rng_below(&d->rng, v->replica.size / VDI_ALIGN) *
			VDI_ALIGN : 0;
		d->start = uniform(&d->rng) * v->ph->storm * v->secs;
		d->t = 0;
		advance(v, d);
		v->heap[i] = i;
	}
	for (i = v->n / 2; i-- > 0;)
		sift_down(v, i);
	*recs = 0;
	while (v->d[v->heap[0]].t < v->secs) {
		i = v->heap[0];
		if (emit(v, out, i))
			return -1;
		(*recs)++;
		advance(v, &v->d[i]);
		sift_down(v, 0);
	}
	return 0;
}

static const char *vdi_usage =
	"blkgenctl vdi --clone full|linked --phase boot|initial-login|monday-login\n"
	"              --desktops N -O FILE [--size SIZE] [--secs N] [--seed N]";

static const char *vdi_help =
	"\n"
	"Write a StorageReview-style VDI trace (MSR Cambridge CSV, one disk\n"
	"number per desktop) from the public characterisations of VDI I/O\n"
	"(Documentation/vdi.rst): replay, curve and the review take it.\n"
	"\n"
	"      --clone full|linked  full clones: one image per desktop; linked:\n"
	"                          a shared replica (8%) takes most reads, each\n"
	"                          desktop's delta its writes\n"
	"      --phase PHASE       boot (read-heavy ramp), initial-login or\n"
	"                          monday-login (write-heavy bursts)\n"
	"      --desktops N        desktops (1 to 100000)\n"
	"  -O, --output FILE       the trace (- for stdout)\n"
	"      --size SIZE         the trace's footprint (default 16g; replay\n"
	"                          maps it into the workload's range)\n"
	"      --secs N            the phase's length in seconds (default 60; 0.1\n"
	"                          to 86400, e.g. 0.5)\n"
	"      --seed N            the random seed (default 1): same seed, same trace\n";

int cmd_vdi(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "clone", required_argument, NULL, 'c' },
		{ "phase", required_argument, NULL, 'p' },
		{ "desktops", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'O' },
		{ "size", required_argument, NULL, 'S' },
		{ "secs", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *clone = NULL, *phase = NULL, *file = NULL;
	struct vdi v = { .size = 16ULL << 30 };
	unsigned long long n = 0, seed = 1;
	double secs = 0;
	uint64_t recs = 0;
	u64 size;
	unsigned int i;
	char *end;
	FILE *out;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "O:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			clone = optarg;
			break;
		case 'p':
			phase = optarg;
			break;
		case 'n':
			errno = 0;
			n = strtoull(optarg, &end, 10);
			if (errno || *end || !n || n > VDI_MAX_DESKTOPS) {
				fprintf(stderr, "blkgenctl: vdi: --desktops %s: expected 1 to %d\n",
					optarg, VDI_MAX_DESKTOPS);
				return EXIT_USAGE;
			}
			break;
		case 'O':
			file = optarg;
			break;
		case 'S':
			if (blkgen_parse_size(optarg, &size) || size < (1 << 20)) {
				fprintf(stderr, "blkgenctl: vdi: --size %s: expected a size of at least 1m (e.g. 16g)\n",
					optarg);
				return EXIT_USAGE;
			}
			v.size = size;
			break;
		case 's':
			errno = 0;
			secs = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(secs >= 0.1 && secs <= 86400)) {
				fprintf(stderr, "blkgenctl: vdi: --secs %s: expected 0.1 to 86400\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || *end || end == optarg) {
				fprintf(stderr, "blkgenctl: vdi: --seed %s: not a number\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			printf("usage: %s\n%s", vdi_usage, vdi_help);
			return EXIT_OK;
		default:
			goto usage;
		}
	}
	if (optind != argc || !clone || !phase || !n || !file)
		goto usage;
	if (strcmp(clone, "full") && strcmp(clone, "linked")) {
		fprintf(stderr, "blkgenctl: vdi: --clone %s: expected full or linked\n",
			clone);
		return EXIT_USAGE;
	}
	v.linked = !strcmp(clone, "linked");
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		if (!strcmp(phase, phases[i].name))
			v.ph = &phases[i];
	if (!v.ph) {
		fprintf(stderr, "blkgenctl: vdi: --phase %s: expected boot, initial-login or monday-login\n",
			phase);
		return EXIT_USAGE;
	}
	v.n = (unsigned int)n;
	v.secs = secs ? secs : v.ph->secs;
	/* every desktop's extent holds at least 1 MiB */
	if (v.size / 100 * (100 - (v.linked ? VDI_REPLICA_PCT : 0)) / v.n < (1 << 20)) {
		fprintf(stderr, "blkgenctl: vdi: --size %llu bytes is too small for %u desktops (at least 1 MiB each)\n",
			(unsigned long long)v.size, v.n);
		return EXIT_USAGE;
	}
	v.d = calloc(v.n, sizeof(*v.d));
	v.heap = calloc(v.n, sizeof(*v.heap));
	if (!v.d || !v.heap) {
		fprintf(stderr, "blkgenctl: vdi: out of memory\n");
		ret = EXIT_FAIL;
		goto out_free;
	}
	out = strcmp(file, "-") ? fopen(file, "w") : stdout;
	if (!out) {
		fprintf(stderr, "blkgenctl: vdi: %s: %s\n", file, strerror(errno));
		ret = EXIT_FAIL;
		goto out_free;
	}
	/* Records only, as the MSR Cambridge files are: no header, no comment. */
	ret = generate(&v, out, seed, &recs);
	if (fflush(out) || ferror(out))
		ret = -1;
	if (out != stdout && fclose(out))
		ret = -1;
	if (ret) {
		fprintf(stderr, "blkgenctl: vdi: %s: %s\n", file, strerror(errno));
		ret = EXIT_FAIL;
		goto out_free;
	}
	fprintf(stderr, "vdi: %llu records, %s clone %s, %u desktops, %g s, footprint %llu bytes, seed %llu (blkgenctl vdi %s)\n",
		(unsigned long long)recs, clone, v.ph->name, v.n, v.secs,
		(unsigned long long)v.size, (unsigned long long)seed,
		BLKGENCTL_VERSION);
	ret = EXIT_OK;
out_free:
	free(v.d);
	free(v.heap);
	return ret;
usage:
	fprintf(stderr, "usage: %s\n", vdi_usage);
	return EXIT_USAGE;
}
