// SPDX-License-Identifier: GPL-2.0
/*
 * Description: --start-at's instants: +SECONDS from now, epoch seconds
 * with decimals (exact to the ns), ISO 8601 in UTC, with an offset and
 * in local time; anything else refused.
 */
#include <stdlib.h>
#include <time.h>

#include "blkgenctl.h"
#include "run.h"
#include "unit.h"

#define NS 1000000000ULL

int main(void)
{
	const uint64_t now = 1796380000ULL * NS + 123;
	/* 2026-12-04T10:00:00Z */
	const uint64_t ten = 1796378400ULL * NS;
	static const char *const bad[] = {
		"", "+", "+-1", "now", "12abc", "1.2.3", "2026-13-04T10:00:00Z",
		"2026-12-04T25:00:00Z", "2026-12-04", "2026-12-04T10:00:00+2",
		"2026-12-04T10:00:00Q", "+1e3", "-5",
	};
	uint64_t ns;
	size_t i;

	CHECK(!when_parse("+2.5", now, &ns) && ns == now + 2500000000ULL,
	      "+2.5: %llu", (unsigned long long)ns);
	CHECK(!when_parse("+0.000000001", now, &ns) && ns == now + 1,
	      "+1 ns: %llu", (unsigned long long)ns);
	CHECK(!when_parse("1796378400.000000001", now, &ns) && ns == ten + 1,
	      "epoch with 9 decimals, exact: %llu", (unsigned long long)ns);
	CHECK(!when_parse("1796378400.5", now, &ns) && ns == ten + NS / 2,
	      "epoch .5: %llu", (unsigned long long)ns);
	CHECK(!when_parse("1796378400", now, &ns) && ns == ten,
	      "epoch: %llu", (unsigned long long)ns);
	CHECK(!when_parse("2026-12-04T10:00:00Z", now, &ns) && ns == ten,
	      "ISO UTC: %llu", (unsigned long long)ns);
	CHECK(!when_parse("2026-12-04T10:00:00.25Z", now, &ns) &&
	      ns == ten + NS / 4, "ISO fraction: %llu", (unsigned long long)ns);
	CHECK(!when_parse("2026-12-04T11:30:00+01:30", now, &ns) && ns == ten,
	      "ISO +01:30: %llu", (unsigned long long)ns);
	CHECK(!when_parse("2026-12-04T08:00:00-0200", now, &ns) && ns == ten,
	      "ISO -0200: %llu", (unsigned long long)ns);
	CHECK(!when_parse("2026-12-04 10:00Z", now, &ns) && ns == ten,
	      "ISO with a space, no seconds: %llu", (unsigned long long)ns);
	setenv("TZ", "CET-1", 1);	/* POSIX: UTC+1, no tzdata needed */
	tzset();
	CHECK(!when_parse("2026-12-04T11:00:00", now, &ns) && ns == ten,
	      "ISO local time (TZ=CET-1): %llu",
	      (unsigned long long)ns);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(when_parse(bad[i], now, &ns), "'%s' refused", bad[i]);
	return t_exit("test-when");
}
