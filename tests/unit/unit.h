/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal helpers for blkgen's host unit tests: TAP-like lines, named exit
 * codes (kselftest's), and a counter of failed checks.
 */
#ifndef BLKGEN_UNIT_H
#define BLKGEN_UNIT_H

#include <stdio.h>
#include <stdlib.h>

enum { T_PASS = 0, T_FAIL = 1, T_SKIP = 4 };

static int t_failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			t_failed++;					\
			printf("not ok - %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

static inline int t_exit(const char *name)
{
	printf("%s %s\n", t_failed ? "not ok" : "ok", name);
	return t_failed ? T_FAIL : T_PASS;
}

/* splitmix64: a test-local generator, independent of blkgen's PRNG. */
static inline unsigned long long t_rand(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline double t_unit(unsigned long long *s)
{
	return (t_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* BLKGEN_UNIT_H */
