/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl - profile files: INI with a [job] section and one
 * [workload NAME] section per workload; keys are configfs attribute names.
 */
#ifndef BLKGENCTL_PROFILE_H
#define BLKGENCTL_PROFILE_H

#include <stdio.h>

#define PROFILE_MAX_KV	64
#define PROFILE_MAX_WL	32

struct profile_kv {
	char *key;
	char *value;	/* converted to what configfs takes */
	int line;
};

struct profile_section {
	char *name;	/* workload name; NULL for [job] */
	struct profile_kv kv[PROFILE_MAX_KV];
	int nr;
};

struct profile {
	char *file;
	struct profile_section job;
	struct profile_section wl[PROFILE_MAX_WL];
	int nr_wl;
};

int profile_load(const char *file, struct profile *p, char *err, int errlen);
int profile_parse(const char *file, const char *text, struct profile *p,
		  char *err, int errlen);
int profile_set(struct profile *p, const char *assignment, char *err,
		int errlen);
const char *profile_get(const struct profile_section *s, const char *key);
int profile_put(struct profile_section *s, const char *key,
		const char *value, int line);
void profile_free(struct profile *p);
void profile_print(const struct profile *p, FILE *f);
char *str_trim(char *s);
int profile_distance(const char *a, const char *b);

#endif /* BLKGENCTL_PROFILE_H */
