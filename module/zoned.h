/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen zoned workloads: writes at write pointers or by zone append,
 * within the open-zone limit, with resets.
 */
#ifndef _BLKGEN_ZONED_H
#define _BLKGEN_ZONED_H

#include <linux/spinlock.h>
#include <linux/types.h>

/* A zone's state as the workload sees it. */
enum blkgen_zone_state {
	BLKGEN_ZONE_CONV,	/* conventional: ordinary blocks */
	BLKGEN_ZONE_EMPTY,	/* nothing written, nobody's */
	BLKGEN_ZONE_ACTIVE,	/* partly written (open or closed), nobody's */
	BLKGEN_ZONE_OPEN,	/* a worker writes to it */
	BLKGEN_ZONE_FULL,	/* written to its capacity */
	BLKGEN_ZONE_BUSY,	/* being reset */
	BLKGEN_ZONE_RESET,	/* emptied for a reset that had to wait
				 * (verify: a read held some of its blocks)
				 */
	BLKGEN_ZONE_DEAD,	/* read-only or offline: left alone */
	BLKGEN_ZONE_LEFT,	/* partly written beyond the open budget at
				 * start: read below its write pointer,
				 * never written or reset
				 */
};

/*
 * The zones a search looks for, each set a bitmap of the range's zones
 * (struct blkgen_zoned's @set): partly written and nobody's
 * (BLKGEN_ZONE_ACTIVE), empty and nobody's, full or left for a reset.
 */
enum blkgen_zone_set {
	BLKGEN_ZS_IDLE,
	BLKGEN_ZS_EMPTY,
	BLKGEN_ZS_FULL,
	BLKGEN_ZS_NR,
};

/* struct blkgen_zone's @flags */
#define BLKGEN_ZF_EXP_OPEN	0x1	/* explicitly open at start */
#define BLKGEN_ZF_STALE		0x2	/* a write to it failed: no more until
					 * its write pointer is read again
					 */

/**
 * struct blkgen_zone - one zone of a zoned workload's range
 * @wp: sectors given to writes from the zone's start (in flight or done)
 * @done: sectors written by completed writes (reads go below it)
 * @cap: writable sectors (the zone's capacity)
 * @inflight: writes in flight to it
 * @owner: the worker writing to it, 1-based; 0 for none
 * @state: enum blkgen_zone_state
 * @flags: BLKGEN_ZF_*
 *
 * @state and @owner change under the workload's zone lock; @wp, @done,
 * @inflight and @flags belong to the owner (a read elsewhere looks at
 * @done only; BLKGEN_ZF_EXP_OPEN is set at start, before any worker).
 */
struct blkgen_zone {
	u32 wp;
	u32 done;
	u32 cap;
	u32 inflight;
	u16 owner;
	u8 state;
	u8 flags;
};

/**
 * struct blkgen_zoned - a zoned workload's zones, shared by its workers
 * @z: the zones of its range, NULL for a workload on a regular device
 * @nr: entries in @z
 * @first: device zone number of @z[0]
 * @shift: log2 of the zone size in sectors
 * @max_open: zones that may be open (or active) at once
 * @nr_open: zones open or active now: ours, or partly written and idle
 *	(BLKGEN_ZONE_ACTIVE; not BLKGEN_ZONE_LEFT)
 * @set: bitmaps of the zones in each enum blkgen_zone_set (one
 *	allocation, at @set[0])
 * @nr_set: the zones in each (those of BLKGEN_ZS_IDLE are counted in
 *	@nr_open too)
 * @cap_sectors: writable sectors of the sequential zones (not dead, not
 *	left)
 * @full_sectors: capacity of the full ones (the reset threshold's share)
 * @thresh: reset a full zone every @period writes once @full_sectors
 *	passes this share of @cap_sectors, in percent (100: only when no
 *	zone is left to open)
 * @period: see @thresh
 * @append: write by zone append
 * @beyond_wp: reads go where drawn, written or not (read_beyond_wp, or a
 *	replay), those past a write pointer counted
 * @verify: the workload verifies: a reset takes the zone's blocks in the
 *	generation table first, and a zone takes one append at a time
 * @lock: protects @state, @owner, @nr_open, @set, @nr_set,
 *	@full_sectors
 */
struct blkgen_zoned {
	struct blkgen_zone *z;
	u32 nr;
	u32 first;
	u32 shift;
	u32 max_open;
	u32 nr_open;
	unsigned long *set[BLKGEN_ZS_NR];
	u32 nr_set[BLKGEN_ZS_NR];
	u64 cap_sectors;
	u64 full_sectors;
	u32 thresh;
	u32 period;
	bool append;
	bool beyond_wp;
	bool verify;
	spinlock_t lock;	/* see above */
};

/**
 * struct blkgen_zrun - one worker's zones of a workload
 * @open: zone numbers (in @z) this worker owns (until each is full)
 * @nr_open: entries in @open
 * @nr_room: those with room left for another write
 * @cap: zones with room this worker may hold (its share of max_open)
 * @id: the worker's @owner value
 * @since: writes since the last periodic reset
 * @cnt: its counters, enum blkgen_zone_counter (in its statistics)
 */
struct blkgen_zrun {
	u32 *open;
	u32 nr_open;
	u32 nr_room;
	u32 cap;
	u16 id;
	u32 since;
	u64 *cnt;
};

#define BLKGEN_ZONE_NONE	U32_MAX

/* A worker's counts of zone events (all of the run, warmup included). */
enum blkgen_zone_counter {
	BLKGEN_ZC_OPENED,	/* zones it took to write to */
	BLKGEN_ZC_FINISHED,	/* zones it filled */
	BLKGEN_ZC_RESETS,	/* zones it reset */
	BLKGEN_ZC_APPENDS,	/* zone appends completed without error */
	BLKGEN_ZC_BEYOND,	/* reads sent beyond a write pointer */
	BLKGEN_ZC_NR,
};

struct blkgen_job;
struct blkgen_workload;
struct blkgen_choice;

int blkgen_zoned_prepare(struct blkgen_job *job, struct blkgen_workload *wl,
			 bool write);
void blkgen_zoned_drop(struct blkgen_workload *wl);
int blkgen_zoned_write(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       struct blkgen_choice *c, u64 rnd, u32 *zone);
void blkgen_zoned_read(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       struct blkgen_choice *c);
void blkgen_zoned_done(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       u32 zone, u32 size, bool ok);
void blkgen_zoned_release(struct blkgen_workload *wl, struct blkgen_zrun *zr);

#endif /* _BLKGEN_ZONED_H */
