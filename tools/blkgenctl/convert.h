/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl convert - vdbench parameter files and fio job files into
 * native profiles. Each input becomes one or more runs (a vdbench rd and
 * its for-loops, a fio stonewall group); each run is one profile.
 */
#ifndef BLKGENCTL_CONVERT_H
#define BLKGENCTL_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

#define CONV_MAX_KV	24
#define CONV_MAX_NOTES	24
#define CONV_MAX_RUNS	256

struct conv_sect {
	char name[128];			/* workload name; "" for [job] */
	int line;			/* where the input defines it, 0 if unknown */
	char key[CONV_MAX_KV][32];
	char val[CONV_MAX_KV][512];
	int kline[CONV_MAX_KV];		/* where each value came from, 0: @line */
	int nr;
};

struct conv_run {
	char name[128];
	int line;			/* the input's rd= or first job */
	struct conv_sect job;
	struct conv_sect wl[PROFILE_MAX_WL];
	int nr_wl;
	char note[CONV_MAX_NOTES][256];
	int nr_notes;
};

struct conv {
	const char *file;
	const char *from;		/* "vdbench" or "fio" */
	uint64_t device_size;		/* --device-size, 0 if not given */
	const char *only;		/* --run: build only this run */
	struct conv_run *run;
	int nr_runs;
	char note[CONV_MAX_NOTES][256];	/* notes of the whole file */
	int nr_notes;
	char err[1024];
};

/* convert.c: shared helpers */
int conv_error(struct conv *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void conv_note(struct conv *c, struct conv_run *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int conv_set(struct conv_sect *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *conv_get(const struct conv_sect *s, const char *key);
void conv_set_line(struct conv_sect *s, const char *key, int line);
const struct conv_run *conv_find_run(const struct conv *c, const char *name);
struct conv_run *conv_new_run(struct conv *c, const char *name);
struct conv_sect *conv_new_wl(struct conv_run *r, const char *name);
int conv_size(const char *s, uint64_t *out);
void conv_size_str(uint64_t v, char *buf, size_t size);
int conv_number(const char *s, double *out);
bool conv_in_list(const char *const *list, const char *s);
void conv_ms_str(double sec, char *buf, size_t size);
int conv_device_size(struct conv *c, const char *dev, int line,
		     uint64_t *size);

/* Distributions as zoned tables: CDF of the share of accesses that fall
 * in the first x (0..1) of the range. */
typedef double (*conv_cdf_fn)(double x, const void *arg);
int conv_zones(conv_cdf_fn cdf, const void *arg, char *buf, size_t size);
double conv_zipf_cdf(double x, const void *arg);	/* struct conv_zipf */
double conv_pareto_cdf(double x, const void *arg);	/* double h */
double conv_hotband_cdf(double x, const void *arg);	/* double band MB */

struct conv_zipf {
	double theta;
	double n;	/* items (blocks) */
	double h_n;	/* generalised harmonic number of n, filled by init */
};

void conv_zipf_init(struct conv_zipf *z, double theta, double n);

/* The formats */
int conv_vdbench(struct conv *c, char *text);
int conv_fio(struct conv *c, char *text);

/* A run as checked profile text (malloc'd), NULL with c->err if bad. */
void conv_streams(struct conv *c, struct conv_run *r);
char *conv_text(struct conv *c, const struct conv_run *r);

#endif /* BLKGENCTL_CONVERT_H */
