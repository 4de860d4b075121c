// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - the instants users give (--start-at): epoch seconds with
 * decimals, an ISO 8601 time, or +SECONDS from now; to CLOCK_REALTIME ns.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"

#define NS	1000000000ULL

/* DIGITS[.DIGITS] to ns, exactly (to the ns); the end in @end. */
static int seconds_ns(const char *s, uint64_t *ns, const char **end)
{
	uint64_t sec = 0, frac = 0, scale = NS;
	const char *p = s;

	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (sec > (UINT64_MAX / NS - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	*ns = sec * NS + frac;
	*end = p;
	return 0;
}

/* Two digits of an ISO time, within [lo, hi]. */
static int two(const char **p, int lo, int hi, int *v)
{
	if (!isdigit((unsigned char)(*p)[0]) || !isdigit((unsigned char)(*p)[1]))
		return -1;
	*v = ((*p)[0] - '0') * 10 + ((*p)[1] - '0');
	*p += 2;
	return *v < lo || *v > hi ? -1 : 0;
}

/* YYYY-MM-DD[T ]HH:MM[:SS[.frac]][Z|+HH[:]MM|-HH[:]MM]; none: local time. */
static int iso_ns(const char *s, uint64_t *ns)
{
	struct tm tm = { 0 };
	const char *p = s;
	uint64_t frac = 0;
	int year = 0, i, zone = 0, off = 0;
	time_t t;

	for (i = 0; i < 4; i++, p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		year = year * 10 + (*p - '0');
	}
	if (*p++ != '-' || two(&p, 1, 12, &tm.tm_mon) || *p++ != '-' ||
	    two(&p, 1, 31, &tm.tm_mday) || (*p != 'T' && *p != ' ') ||
	    (p++, two(&p, 0, 23, &tm.tm_hour)) || *p++ != ':' ||
	    two(&p, 0, 59, &tm.tm_min))
		return -1;
	if (*p == ':') {
		p++;
		if (two(&p, 0, 60, &tm.tm_sec))
			return -1;
		if (*p == '.' || *p == ',') {
			uint64_t scale = NS;

			if (!isdigit((unsigned char)*++p))
				return -1;
			for (; isdigit((unsigned char)*p); p++) {
				if (scale > 1) {
					scale /= 10;
					frac += (uint64_t)(*p - '0') * scale;
				}
			}
		}
	}
	if (*p == 'Z') {
		zone = 1;
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1, hh, mm;

		if (two(&p, 0, 23, &hh))
			return -1;
		if (*p == ':')
			p++;
		if (two(&p, 0, 59, &mm))
			return -1;
		zone = 1;
		off = sign * (hh * 3600 + mm * 60);
	}
	if (*p)
		return -1;
	tm.tm_year = year - 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	t = zone ? timegm(&tm) - off : mktime(&tm);
	if (t == (time_t)-1 || t < 0)
		return -1;
	*ns = (uint64_t)t * NS + frac;
	return 0;
}

/**
 * when_parse() - An instant a user gave, as CLOCK_REALTIME ns.
 * @s: "+SECONDS" (from @now_ns), epoch seconds with decimals, or an ISO
 *	8601 time (without a zone: local time)
 * @now_ns: CLOCK_REALTIME ns now, for "+SECONDS"
 * @ns: the instant
 * Return: 0, or -1 when @s is none of those.
 */
int when_parse(const char *s, uint64_t now_ns, uint64_t *ns)
{
	const char *end;
	uint64_t v;

	if (!s || !*s)
		return -1;
	if (*s == '+') {
		if (seconds_ns(s + 1, &v, &end) || *end || v > UINT64_MAX - now_ns)
			return -1;
		*ns = now_ns + v;
		return 0;
	}
	if (strlen(s) >= 10 && s[4] == '-')
		return iso_ns(s, ns);
	if (seconds_ns(s, &v, &end) || *end)
		return -1;
	*ns = v;
	return 0;
}
