/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace replay, the pure part (shared with the host unit tests): where a
 * trace record's I/O lands in a workload's range, when it is due, and the
 * replay_speed parser.
 */
#ifndef _BLKGEN_REPLAY_MAP_H
#define _BLKGEN_REPLAY_MAP_H

#include "pattern.h"
#include "../uapi/linux/blkgen.h"

/*
 * replay_speed in 0.01%: 100% (as traced), and at most 1000000% (10000
 * times: a fast drive's maximum over a trace of a few hundred IOPS)
 */
#define BLKGEN_SPEED_ONE	10000
#define BLKGEN_SPEED_MAX	(1000000ULL * BLKGEN_SPEED_ONE / 100)

/* blkgen_replay_map() flags: what the mapping changed. */
#define BLKGEN_MAP_REMAPPED	1	/* offset moved into the range */
#define BLKGEN_MAP_CLIPPED	2	/* size above the largest bs */

unsigned int blkgen_replay_map(const struct blkgen_pattern *p, u32 lbs,
			       const struct blkgen_trace_rec *rec,
			       struct blkgen_choice *c);
u64 blkgen_replay_due(u64 t0, u64 t_ns, u32 speed);
int blkgen_parse_speed(const char *s, u32 *speed);

#endif /* _BLKGEN_REPLAY_MAP_H */
