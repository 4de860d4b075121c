/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen open-loop arrivals (pure C, shared with the host unit tests).
 *
 * A worker's arrivals for one workload follow a renewal process of a
 * given mean rate: fixed gaps, gaps uniform on [0, 2 x mean], or
 * exponential gaps (Poisson arrivals, vdbench's default). Times are in
 * nanoseconds with 16 fractional bits, so the mean of the schedule is the
 * requested rate to within 2^-16 ns per gap; no floating point.
 */
#ifndef _BLKGEN_RATE_H
#define _BLKGEN_RATE_H

#include "pattern.h"

#define BLKGEN_RATE_FRAC	16	/* fractional bits of gap times */

enum blkgen_process {
	BLKGEN_PROC_POISSON,
	BLKGEN_PROC_UNIFORM,
	BLKGEN_PROC_FIXED,
};

/**
 * struct blkgen_arrivals - one worker's arrival schedule for a workload
 * @next_ns: scheduled time of the next (oldest not yet issued) arrival
 * @next_frac: its fraction of a nanosecond, in 2^-16 ns
 * @mean: mean gap in 2^-16 ns
 * @process: enum blkgen_process
 * @rng: the arrival stream's generator (separate from the pattern's)
 */
struct blkgen_arrivals {
	u64 next_ns;
	u32 next_frac;
	u64 mean;
	enum blkgen_process process;
	struct blkgen_rng rng;
};

u64 blkgen_exp_q32(struct blkgen_rng *rng);
int blkgen_arrivals_init(struct blkgen_arrivals *a, enum blkgen_process p,
			 u64 rate_num, u64 rate_den, u64 t0, u64 seed,
			 u64 stream, u32 phase, u32 phases);
u64 blkgen_arrivals_gap(struct blkgen_arrivals *a);
void blkgen_arrivals_advance(struct blkgen_arrivals *a);

#endif /* _BLKGEN_RATE_H */
