/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl review: the seeds' method in one command (review.c: the
 * runner and its resume; review-suite.c: suite files; review-steady.c:
 * the PTS steady-state test; review-report.c: review.json, summary.md,
 * index.html and compare).
 */
#ifndef BLKGENCTL_REVIEW_H
#define BLKGENCTL_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define SUITE_MAX	64
#define SUITE_MAX_SETS	16

struct suite_entry {
	char name[64];
	char title[128];
	char profile[256];	/* a profile's name or file; "" for a VDI trace */
	char vdi_clone[16];	/* vdi = CLONE PHASE */
	char vdi_phase[32];
	char *sets[SUITE_MAX_SETS];	/* [WL.]KEY=VALUE, as run --set */
	int nr_sets;
	bool mbps;		/* sequential: charted and ranked in MB/s */
	char note[256];		/* what it rests on, for the report */
	int line;
};

struct suite {
	char file[4096];
	char name[64];
	char title[256];
	char points[128];	/* the curve's percents */
	unsigned int desktops;	/* VDI traces */
	bool zoned;		/* for zoned devices (zoned = 1) */
	struct suite_entry e[SUITE_MAX];
	int n;
};

int suite_load(const char *arg, struct suite *s, char *err, size_t len);
void suite_free(struct suite *s);

/* PTS steady state over a window of rounds (review-steady.c). */
struct steady {
	double avg, excursion, slope_excursion;	/* over the window */
	bool attained;
};

#define STEADY_WINDOW	5
bool steady_check(const double *y, int n, struct steady *st);

struct json_object;
struct blkgen_lat_hist;
int review_save_json(const char *path, struct json_object *o);
int review_copy_file(const char *from, const char *to);
struct json_object *review_lat_json(const struct blkgen_lat_hist *h);

/* review-published.c: compare's published:NAME, one review per drive */
#define PUBLISHED_PREFIX	"published:"
int published_reviews(const char *arg, struct json_object **out, int max,
		      char *err, size_t len);
void published_note(FILE *md, FILE *html, struct json_object **rv, int n);
void published_sources(FILE *md, FILE *html, struct json_object **rv, int n);

/* review-report.c */
void html_text(FILE *f, const char *s);
int review_report(const char *dir, bool quiet);
/* review-merge.c: one review of many hosts' (their DIRs) in @out */
int review_merge(const char *out, char **dirs, int n, bool quiet);
int cmd_compare(int argc, char **argv);
int cmd_review(int argc, char **argv);

#endif /* BLKGENCTL_REVIEW_H */
