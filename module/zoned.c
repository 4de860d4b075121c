// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen zoned workloads.
 *
 * A workload on a zoned block device keeps the state of the zones of its
 * range, learnt from a zone report at start: where each write pointer is,
 * how much each zone holds, which zones are open. Its writes take the
 * pattern's offset only to choose a zone and go to that zone's write
 * pointer (or, with zone append, to its start, the device choosing where);
 * its reads go below the write pointers. At most max_open zones are open
 * (written to and not full, or left partly written), never more than the
 * device allows, so the device never has to refuse a write for want of a
 * zone resource.
 *
 * A worker writes only to the zones it owns: their write pointers and
 * counts are its own, read by other workers only to place reads. Taking a
 * zone, filling it and resetting it happen once per zone, under the
 * workload's zone lock; a write inside an open zone takes no lock.
 *
 * Regular writes: one in flight per zone. 6.12 plugs a zone's writes
 * itself (one at a time to the device), 6.1 does not and would reorder
 * them without mq-deadline's zone locking: one in flight works on both,
 * with any scheduler. A write that finds every zone it may write to busy
 * waits (parked) and draws again. Zone appends: any number per zone; each
 * takes its room from the zone's capacity when it is issued, so none can
 * overflow the zone.
 */
#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "blkgen.h"
#include "zoned.h"

/* Zone states the device reports, as the workload keeps them. */
static u8 blkgen_zone_state(const struct blk_zone *bz)
{
	if (bz->type == BLK_ZONE_TYPE_CONVENTIONAL)
		return BLKGEN_ZONE_CONV;
	switch (bz->cond) {
	case BLK_ZONE_COND_EMPTY:
		return BLKGEN_ZONE_EMPTY;
	case BLK_ZONE_COND_IMP_OPEN:
	case BLK_ZONE_COND_EXP_OPEN:
	case BLK_ZONE_COND_CLOSED:
		return BLKGEN_ZONE_ACTIVE;
	case BLK_ZONE_COND_FULL:
		return BLKGEN_ZONE_FULL;
	default:
		return BLKGEN_ZONE_DEAD;
	}
}

/*
 * The set (a bitmap, enum blkgen_zone_set) a zone of @state is in: the
 * zones each search looks for. -1 for none.
 */
static int blkgen_zone_set_of(u8 state)
{
	switch (state) {
	case BLKGEN_ZONE_ACTIVE:
		return BLKGEN_ZS_IDLE;
	case BLKGEN_ZONE_EMPTY:
		return BLKGEN_ZS_EMPTY;
	case BLKGEN_ZONE_FULL:
	case BLKGEN_ZONE_RESET:
		return BLKGEN_ZS_FULL;
	default:
		return -1;
	}
}

/*
 * Every change of a zone's state: its sets and their counts follow.
 * zd->lock held, or no worker running (the report at start).
 */
static void blkgen_zone_move(struct blkgen_zoned *zd, u32 i, u8 state)
{
	int old = blkgen_zone_set_of(zd->z[i].state);
	int new = blkgen_zone_set_of(state);

	/* The counts are read unlocked (a hint, blkgen_zone_open()). */
	if (old >= 0) {
		__clear_bit(i, zd->set[old]);
		WRITE_ONCE(zd->nr_set[old], zd->nr_set[old] - 1);
	}
	if (new >= 0) {
		__set_bit(i, zd->set[new]);
		WRITE_ONCE(zd->nr_set[new], zd->nr_set[new] + 1);
	}
	WRITE_ONCE(zd->z[i].state, state);
}

/*
 * The first zone of set @s from zone @from on, wrapping round;
 * BLKGEN_ZONE_NONE if the set is empty. zd->lock held.
 */
static u32 blkgen_zone_next(const struct blkgen_zoned *zd, int s, u32 from)
{
	unsigned long j;

	if (!zd->nr_set[s])	/* no walk of an empty bitmap */
		return BLKGEN_ZONE_NONE;
	j = find_next_bit(zd->set[s], zd->nr, from);
	if (j < zd->nr)
		return j;
	j = find_first_bit(zd->set[s], from);
	return j < from ? j : BLKGEN_ZONE_NONE;
}

/* How far zone @j lies from zone @from, counting on and wrapping round. */
static u32 blkgen_zone_dist(const struct blkgen_zoned *zd, u32 from, u32 j)
{
	return j >= from ? j - from : j + zd->nr - from;
}

/* The bytes of a workload's zone state: the zones and their sets. */
static size_t blkgen_zoned_bytes(u32 nr)
{
	return size_add(array_size(nr, sizeof(struct blkgen_zone)),
			array3_size(BLKGEN_ZS_NR, BITS_TO_LONGS(nr),
				    sizeof(unsigned long)));
}

/**
 * struct blkgen_zreport - what a zone report at start finds
 * @zd: the workload's zones, filled for the range
 * @active_out: active zones outside the range (they take from the
 *	device's active limit)
 * @open_out: open zones outside the range (from its open limit)
 * @min_cap: the smallest capacity of a sequential zone of the range
 * @nr_seq: sequential zones in the range
 * @nr_usable: those that can be written (not read-only or offline)
 */
struct blkgen_zreport {
	struct blkgen_zoned *zd;
	u32 active_out;
	u32 open_out;
	u32 min_cap;
	u32 nr_seq;
	u32 nr_usable;
};

static int blkgen_zone_report_cb(struct blk_zone *bz, unsigned int idx,
				 void *data)
{
	struct blkgen_zreport *rep = data;
	struct blkgen_zoned *zd = rep->zd;
	u64 zn = bz->start >> zd->shift;
	u8 state = blkgen_zone_state(bz);
	struct blkgen_zone *z;

	if (zn < zd->first || zn >= (u64)zd->first + zd->nr) {
		rep->active_out += state == BLKGEN_ZONE_ACTIVE;
		rep->open_out += bz->cond == BLK_ZONE_COND_IMP_OPEN ||
				 bz->cond == BLK_ZONE_COND_EXP_OPEN;
		return 0;
	}
	z = &zd->z[zn - zd->first];
	blkgen_zone_move(zd, zn - zd->first, state);
	z->cap = bz->capacity ? bz->capacity : bz->len;
	if (state == BLKGEN_ZONE_CONV)
		return 0;
	rep->nr_seq++;
	rep->nr_usable += state != BLKGEN_ZONE_DEAD;
	rep->min_cap = min(rep->min_cap, z->cap);
	if (state != BLKGEN_ZONE_DEAD)
		zd->cap_sectors += z->cap;
	switch (state) {
	case BLKGEN_ZONE_ACTIVE:
		z->wp = bz->wp - bz->start;
		z->done = z->wp;
		if (bz->cond == BLK_ZONE_COND_EXP_OPEN)
			z->flags |= BLKGEN_ZF_EXP_OPEN;
		zd->nr_open++;
		break;
	case BLKGEN_ZONE_FULL:
		z->wp = z->cap;
		z->done = z->cap;
		zd->full_sectors += z->cap;
		break;
	}
	return 0;
}

/* Report every zone of the device into the workload's zones. */
static int blkgen_zone_report(struct blkgen_workload *wl,
			      struct blkgen_zreport *rep)
{
	unsigned int noio = memalloc_noio_save();
	int ret;

	ret = blkdev_report_zones(wl->dev.bdev, 0, BLK_ALL_ZONES,
				  blkgen_zone_report_cb, rep);
	memalloc_noio_restore(noio);
	return ret < 0 ? ret : 0;
}

/**
 * blkgen_zoned_drop() - Free a workload's zones.
 * @wl: workload, not running
 */
void blkgen_zoned_drop(struct blkgen_workload *wl)
{
	struct blkgen_zoned *zd = &wl->zd;

	if (zd->z)
		blkgen_mem_uncharge(blkgen_zoned_bytes(zd->nr));
	kvfree(zd->z);
	kvfree(zd->set[0]);
	zd->z = NULL;
	memset(zd->set, 0, sizeof(zd->set));
	memset(zd->nr_set, 0, sizeof(zd->nr_set));
	zd->nr = 0;
}

/*
 * @sectors rounded down to a whole number of the pattern's alignment
 * (no division: a verified read is placed with it).
 */
static u64 blkgen_zalign(const struct blkgen_pattern *p, u64 sectors)
{
	return blkgen_div_align(p, sectors << SECTOR_SHIFT) *
	       (p->align >> SECTOR_SHIFT);
}

/*
 * Verify keeps a table of blocks (the pattern's alignment) from the
 * range's start: every zone must start on one, and its I/O (at most its
 * capacity) end on one.
 */
static bool blkgen_zoned_verify_fits(const struct blkgen_zoned *zd,
				     const struct blkgen_pattern *p)
{
	u64 first = (u64)zd->first << zd->shift;
	u32 i;

	if (blkgen_zalign(p, 1ULL << zd->shift) != 1ULL << zd->shift ||
	    blkgen_zalign(p, first - (p->start >> SECTOR_SHIFT)) !=
	    first - (p->start >> SECTOR_SHIFT))
		return false;
	for (i = 0; i < zd->nr; i++)
		if (zd->z[i].state != BLKGEN_ZONE_CONV &&
		    blkgen_zalign(p, zd->z[i].cap) != zd->z[i].cap)
			return false;
	return true;
}

/*
 * Verify: the first partly written zone whose write pointer is not on a
 * table block (its next write would not be), BLKGEN_ZONE_NONE if none.
 */
static u32 blkgen_zoned_verify_wp(const struct blkgen_zoned *zd,
				  const struct blkgen_pattern *p)
{
	u32 i;

	for (i = 0; i < zd->nr; i++)
		if (zd->z[i].state == BLKGEN_ZONE_ACTIVE &&
		    blkgen_zalign(p, zd->z[i].wp) != zd->z[i].wp)
			return i;
	return BLKGEN_ZONE_NONE;
}

/*
 * More zones partly written than the budget: the budget's worth stay to
 * be written (the explicitly open ones first: they hold an open resource
 * until written full), the others are left as they are, read but never
 * written. A closed zone holds no open resource and an implicitly open
 * one is closed by the device when it needs the resource, so the zones
 * written are within the device's open limit; the active ones are as
 * many as the device holds already, never more.
 */
static void blkgen_zoned_leave(struct blkgen_zoned *zd)
{
	u32 keep = zd->max_open, pass, i;

	if (zd->nr_open <= keep)
		return;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < zd->nr; i++) {
			struct blkgen_zone *z = &zd->z[i];
			bool exp = z->flags & BLKGEN_ZF_EXP_OPEN;

			/* The explicitly open zones first, then the others. */
			if (z->state != BLKGEN_ZONE_ACTIVE || exp != !pass)
				continue;
			if (keep) {
				keep--;
				continue;
			}
			/* Never full: no share of the reset threshold's. */
			blkgen_zone_move(zd, i, BLKGEN_ZONE_LEFT);
			zd->cap_sectors -= z->cap;
		}
	}
	zd->nr_open = zd->max_open;
}

/**
 * blkgen_zoned_prepare() - Set up a workload's zones for a run.
 * @job: the job, job->lock held
 * @wl: workload with its device open and pattern resolved
 * @write: the workload writes
 *
 * On a zoned device, reports the zones of the workload's range (the whole
 * zones inside it) and sets the open-zone budget: max_open_zones, or the
 * device's open limit, or its active limit less the zones active outside
 * the range, or else the workload's depth; partly written zones beyond it
 * are left as they are. Refuses what would make the device fail I/O:
 * sizes above a zone's capacity or the append limit, settings the
 * device's limits do not allow.
 *
 * Return: 0 or a negative errno with job->error set.
 */
int blkgen_zoned_prepare(struct blkgen_job *job, struct blkgen_workload *wl,
			 bool write)
{
	struct block_device *bdev = wl->dev.bdev;
	const struct blkgen_pattern *p = &wl->pattern;
	struct blkgen_zoned *zd = &wl->zd;
	struct blkgen_zreport rep = { .zd = zd, .min_cap = U32_MAX };
	u32 zs, dev_open, dev_active, limit, first, last, bad;
	size_t bytes, longs;
	int ret, s;

	blkgen_zoned_drop(wl);
	if (!bdev_is_zoned(bdev)) {
		if (!wl->zone_append)
			return 0;
		blkgen_job_set_error(job,
				     "%s: zone_append=1 needs a zoned device, %s is not (EINVAL)",
				     blkgen_wl_name(wl), wl->device);
		return -EINVAL;
	}
	zs = bdev_zone_sectors(bdev);
	if (!is_power_of_2(zs)) {
		blkgen_job_set_error(job,
				     "%s: %s has zones of %u sectors, not a power of two (EOPNOTSUPP)",
				     blkgen_wl_name(wl), wl->device, zs);
		return -EOPNOTSUPP;
	}
	if (write && wl->replay) {
		blkgen_job_set_error(job,
				     "%s: %s is zoned: blkgen cannot yet replay writes to zones (EOPNOTSUPP)",
				     blkgen_wl_name(wl), wl->device);
		return -EOPNOTSUPP;
	}
	/*
	 * 6.12 plugs a zone's writes and reuses a plugged bio's cookie:
	 * one could not be polled.
	 */
	if (write && wl->polled) {
		blkgen_job_set_error(job,
				     "%s: %s is zoned: its writes cannot be polled (EOPNOTSUPP)",
				     blkgen_wl_name(wl), wl->device);
		return -EOPNOTSUPP;
	}
	/* A zone append cannot be split: one bio, within the limits. */
	if (wl->zone_append && write &&
	    (p->max_size > (u64)bdev_max_zone_append_sectors(bdev) <<
	     SECTOR_SHIFT ||
	     DIV_ROUND_UP(p->max_size, PAGE_SIZE) > bdev_max_segments(bdev))) {
		blkgen_job_set_error(job,
				     "%s: bs %s is above what %s takes in one zone append (%llu bytes, %u segments) (EINVAL)",
				     blkgen_wl_name(wl), wl->bs_str, wl->device,
				     (u64)bdev_max_zone_append_sectors(bdev) <<
				     SECTOR_SHIFT, bdev_max_segments(bdev));
		return -EINVAL;
	}

	zd->shift = ilog2(zs);
	first = round_up(p->start >> SECTOR_SHIFT, zs) >> zd->shift;
	last = (p->end >> SECTOR_SHIFT) >> zd->shift;
	if (last <= first) {
		blkgen_job_set_error(job,
				     "%s: range %s of zoned %s holds no whole zone of %u KiB (EINVAL)",
				     blkgen_wl_name(wl), wl->range_str,
				     wl->device, zs >> 1);
		return -EINVAL;
	}
	zd->first = first;
	zd->nr = last - first;
	bytes = blkgen_zoned_bytes(zd->nr);
	ret = blkgen_mem_charge(bytes);
	if (ret) {
		blkgen_job_set_error(job,
				     "%s: the state of %u zones is above blkgen's memory limit (ENOMEM)",
				     blkgen_wl_name(wl), zd->nr);
		zd->nr = 0;
		return ret;
	}
	longs = BITS_TO_LONGS(zd->nr);
	zd->z = kvcalloc(zd->nr, sizeof(*zd->z), GFP_KERNEL);
	zd->set[0] = kvcalloc(array_size(BLKGEN_ZS_NR, longs),
			      sizeof(*zd->set[0]), GFP_KERNEL);
	if (!zd->z || !zd->set[0]) {
		kvfree(zd->z);
		kvfree(zd->set[0]);
		zd->z = NULL;
		zd->set[0] = NULL;
		blkgen_mem_uncharge(bytes);
		zd->nr = 0;
		blkgen_job_set_error(job, "out of memory (ENOMEM)");
		return -ENOMEM;
	}
	for (s = 1; s < BLKGEN_ZS_NR; s++)
		zd->set[s] = zd->set[0] + s * longs;
	spin_lock_init(&zd->lock);
	zd->nr_open = 0;
	memset(zd->nr_set, 0, sizeof(zd->nr_set));
	zd->cap_sectors = 0;
	zd->full_sectors = 0;
	ret = blkgen_zone_report(wl, &rep);
	if (ret) {
		blkgen_job_set_error(job,
				     "%s: cannot report the zones of %s (%s)",
				     blkgen_wl_name(wl), wl->device,
				     blkgen_errno_name(ret));
		goto out_drop;
	}
	ret = -EINVAL;
	if (rep.nr_seq && p->max_size > (u64)rep.min_cap << SECTOR_SHIFT) {
		blkgen_job_set_error(job,
				     "%s: bs %s is above the %llu-byte capacity of a zone of %s (EINVAL)",
				     blkgen_wl_name(wl), wl->bs_str,
				     (u64)rep.min_cap << SECTOR_SHIFT,
				     wl->device);
		goto out_drop;
	}
	if (wl->verify && !blkgen_zoned_verify_fits(zd, p)) {
		blkgen_job_set_error(job,
				     "%s: verify on %s needs its zones' starts and capacities to be whole blocks of %u bytes (the smallest size) from the range's start (EINVAL)",
				     blkgen_wl_name(wl), wl->device, p->align);
		goto out_drop;
	}
	if (write && rep.nr_seq && !rep.nr_usable) {
		blkgen_job_set_error(job,
				     "%s: every zone of the range of %s is read-only or offline (EINVAL)",
				     blkgen_wl_name(wl), wl->device);
		goto out_drop;
	}

	dev_open = bdev_max_open_zones(bdev);
	dev_active = bdev_max_active_zones(bdev);
	if (write && ((dev_active && rep.active_out >= dev_active) ||
		      (dev_open && rep.open_out >= dev_open))) {
		blkgen_job_set_error(job,
				     "%s: %u zones of %s outside the range are open or closed, its limit (EBUSY)",
				     blkgen_wl_name(wl), rep.active_out,
				     wl->device);
		ret = -EBUSY;
		goto out_drop;
	}
	limit = min_not_zero(dev_open > rep.open_out ?
			     dev_open - rep.open_out : 0,
			     dev_active > rep.active_out ?
			     dev_active - rep.active_out : 0);
	if (limit && wl->max_open_zones > limit) {
		blkgen_job_set_error(job,
				     "%s: max_open_zones %u is above the %u zones %s can have open (EINVAL)",
				     blkgen_wl_name(wl), wl->max_open_zones,
				     limit, wl->device);
		goto out_drop;
	}
	/*
	 * Never more open than the range has zones (each worker's open list
	 * is sized by it): 2000000 on a device without a limit asked for
	 * 8 MB a worker and the page allocator's warning.
	 */
	if (wl->max_open_zones > rep.nr_seq) {
		blkgen_job_set_error(job,
				     "%s: max_open_zones %u is above the %u sequential zones of the range of %s (EINVAL)",
				     blkgen_wl_name(wl), wl->max_open_zones,
				     rep.nr_seq, wl->device);
		goto out_drop;
	}
	zd->max_open = wl->max_open_zones ?: limit ?:
		       min(wl->depth, max(rep.nr_seq, 1U));
	if (write)
		blkgen_zoned_leave(zd);
	/* The zones to be written (those left are read below whole blocks). */
	bad = wl->verify ? blkgen_zoned_verify_wp(zd, p) : BLKGEN_ZONE_NONE;
	if (bad != BLKGEN_ZONE_NONE) {
		blkgen_job_set_error(job,
				     "%s: verify: the zone of %s at sector %llu holds %u sectors, not whole blocks of %u bytes: reset or finish it (EINVAL)",
				     blkgen_wl_name(wl), wl->device,
				     (u64)(zd->first + bad) << zd->shift,
				     zd->z[bad].wp, p->align);
		goto out_drop;
	}
	zd->thresh = wl->zone_reset_threshold;
	zd->period = 100 / wl->zone_reset_frequency;
	zd->append = wl->zone_append;
	/* A trace's reads keep their places: the trace is the workload. */
	zd->beyond_wp = wl->read_beyond_wp || wl->replay;
	zd->verify = wl->verify;
	return 0;

out_drop:
	blkgen_zoned_drop(wl);
	return ret;
}

/* The zone (index in zd->z) of a byte offset, clamped into the range. */
static u32 blkgen_zone_of(const struct blkgen_zoned *zd, u64 offset)
{
	u64 zn = offset >> (SECTOR_SHIFT + zd->shift);

	if (zn < zd->first)
		return 0;
	if (zn - zd->first >= zd->nr)
		return zd->nr - 1;
	return zn - zd->first;
}

static u64 blkgen_zone_start(const struct blkgen_zoned *zd, u32 i)
{
	return (u64)(zd->first + i) << zd->shift;
}

/* blkgen_zone_reset(): a read holds blocks of the zone */
#define BLKGEN_ZONE_HELD	1

/*
 * Reset a zone that no I/O of ours writes to (its state BUSY). With
 * verify, its blocks are taken first (a read placed before the zone was
 * chosen may hold some: BLKGEN_ZONE_HELD, the zone is left as it was) and
 * are unknown after the reset. Else 0 or the reset's negative errno.
 */
static int blkgen_zone_reset(struct blkgen_workload *wl, u32 i)
{
	struct blkgen_zoned *zd = &wl->zd;
	u64 at = blkgen_zone_start(zd, i) << SECTOR_SHIFT;
	u64 bytes = (u64)zd->z[i].cap << SECTOR_SHIFT;
	int ret;

	if (zd->verify && !blkgen_verify_zone_hold(&wl->vt, at, bytes))
		return BLKGEN_ZONE_HELD;
	ret = blkgen_zone_mgmt(wl->dev.bdev, REQ_OP_ZONE_RESET,
			       blkgen_zone_start(zd, i), 1ULL << zd->shift);
	if (zd->verify)
		blkgen_verify_zone_reset(&wl->vt, at, bytes);
	if (ret)
		blkgen_job_fail(wl->job,
				"%s: %s: a zone reset at sector %llu failed (%s)",
				blkgen_wl_name(wl), wl->device,
				(unsigned long long)blkgen_zone_start(zd, i),
				blkgen_errno_name(ret));
	return ret;
}

/*
 * Zone @j, full or left for a reset, is about to be reset: reads stay off
 * it from now on (it is being emptied). zd->lock held.
 */
static void blkgen_zone_take_full(struct blkgen_zoned *zd, u32 j)
{
	lockdep_assert_held(&zd->lock);
	if (zd->z[j].state == BLKGEN_ZONE_FULL) {
		WRITE_ONCE(zd->z[j].done, 0);
		zd->full_sectors -= zd->z[j].cap;
	}
	blkgen_zone_move(zd, j, BLKGEN_ZONE_BUSY);
}

/*
 * Make zone @i the worker's: it is in its list until it is full (every
 * zone a worker owns counts in nr_open, so the list never holds more
 * than max_open).
 */
static void blkgen_zone_own(struct blkgen_zoned *zd, struct blkgen_zrun *zr,
			    u32 i)
{
	blkgen_zone_move(zd, i, BLKGEN_ZONE_OPEN);
	WRITE_ONCE(zd->z[i].owner, zr->id);
	zr->open[zr->nr_open++] = i;
	zr->nr_room += zd->z[i].wp < zd->z[i].cap;
	zr->cnt[BLKGEN_ZC_OPENED]++;
}

/*
 * Open a zone for the worker, the first one free from @from on: one left
 * partly written, or an empty one while the budget allows, or else a full
 * one, reset. BLKGEN_ZONE_NONE if none can be had now. Each search is one
 * of a set's bitmap (a word a compare), not of the zones.
 */
static u32 blkgen_zone_open(struct blkgen_workload *wl,
			    struct blkgen_zrun *zr, u32 from)
{
	struct blkgen_zoned *zd = &wl->zd;
	u32 j, e;
	int ret;

	/*
	 * Nothing to take: nothing partly written and idle, and no budget
	 * or nothing empty, and no reset to be done for this worker: not
	 * even the lock then (on a range nearly full, every write asks).
	 */
	if (!READ_ONCE(zd->nr_set[BLKGEN_ZS_IDLE]) &&
	    (READ_ONCE(zd->nr_open) >= zd->max_open ||
	     (!READ_ONCE(zd->nr_set[BLKGEN_ZS_EMPTY]) && zr->nr_room)))
		return BLKGEN_ZONE_NONE;
	spin_lock(&zd->lock);
	j = blkgen_zone_next(zd, BLKGEN_ZS_IDLE, from);
	if (zd->nr_open < zd->max_open) {
		e = blkgen_zone_next(zd, BLKGEN_ZS_EMPTY, from);
		if (e != BLKGEN_ZONE_NONE &&
		    (j == BLKGEN_ZONE_NONE ||
		     blkgen_zone_dist(zd, from, e) <
		     blkgen_zone_dist(zd, from, j))) {
			zd->nr_open++;
			j = e;
		}
	}
	if (j != BLKGEN_ZONE_NONE)
		goto own;
	/*
	 * Every zone is full or taken: reset a full one and open it, but
	 * only for a worker with no room left in its own (else a fill of
	 * the range would reset zones before it filled the last ones).
	 */
	if (zd->nr_open >= zd->max_open || zr->nr_room)
		goto none;
	j = blkgen_zone_next(zd, BLKGEN_ZS_FULL, from);
	if (j == BLKGEN_ZONE_NONE)
		goto none;
	blkgen_zone_take_full(zd, j);
	zd->nr_open++;
	spin_unlock(&zd->lock);
	ret = blkgen_zone_reset(wl, j);
	if (ret) {
		spin_lock(&zd->lock);
		zd->nr_open--;
		/* A read held some of its blocks: reset it later. */
		blkgen_zone_move(zd, j, ret == BLKGEN_ZONE_HELD ?
				 BLKGEN_ZONE_RESET : BLKGEN_ZONE_DEAD);
		goto none;
	}
	zr->cnt[BLKGEN_ZC_RESETS]++;
	zd->z[j].wp = 0;
	spin_lock(&zd->lock);
own:
	blkgen_zone_own(zd, zr, j);
	spin_unlock(&zd->lock);
	return j;
none:
	spin_unlock(&zd->lock);
	return BLKGEN_ZONE_NONE;
}

/*
 * Past the reset threshold, every @period writes: reset one full zone
 * (the first from @from on), as fio's zone_reset_threshold and
 * zone_reset_frequency do, so that the range never fills.
 */
static void blkgen_zone_reset_periodic(struct blkgen_workload *wl,
				       struct blkgen_zrun *zr, u32 from)
{
	struct blkgen_zoned *zd = &wl->zd;
	u32 j;
	int ret;

	if (zd->thresh >= 100 ||
	    READ_ONCE(zd->full_sectors) * 100 < zd->thresh * zd->cap_sectors ||
	    ++zr->since < zd->period)
		return;
	zr->since = 0;
	spin_lock(&zd->lock);
	j = blkgen_zone_next(zd, BLKGEN_ZS_FULL, from);
	if (j != BLKGEN_ZONE_NONE)
		blkgen_zone_take_full(zd, j);
	spin_unlock(&zd->lock);
	if (j == BLKGEN_ZONE_NONE)
		return;
	ret = blkgen_zone_reset(wl, j);
	if (!ret) {
		zr->cnt[BLKGEN_ZC_RESETS]++;
		zd->z[j].wp = 0;
	}
	spin_lock(&zd->lock);
	if (ret == BLKGEN_ZONE_HELD)
		blkgen_zone_move(zd, j, BLKGEN_ZONE_RESET);
	else if (zd->z[j].wp)
		blkgen_zone_move(zd, j, BLKGEN_ZONE_DEAD);
	else
		blkgen_zone_move(zd, j, BLKGEN_ZONE_EMPTY);
	spin_unlock(&zd->lock);
}

/*
 * Room left, and no write in flight unless appends may pile up: with
 * verify, one append at a time, so that it can land only at the write
 * pointer, where its blocks were stamped for.
 */
static bool blkgen_zone_writable(const struct blkgen_zoned *zd,
				 const struct blkgen_zone *z)
{
	return z->wp < z->cap && !(z->flags & BLKGEN_ZF_STALE) &&
	       ((zd->append && !zd->verify) || !z->inflight);
}

/* Drop zone @i from the worker's list: it is full, or nobody's. */
static void blkgen_zrun_remove(struct blkgen_zrun *zr, u32 i)
{
	u32 k;

	for (k = 0; k < zr->nr_open; k++) {
		if (zr->open[k] == i) {
			zr->open[k] = zr->open[--zr->nr_open];
			return;
		}
	}
	WARN_ON_ONCE(1);
}

/*
 * A conventional zone: the I/O at the pattern's place in zone @i, moved
 * back so that it ends inside it (never across into a sequential zone).
 */
static void blkgen_zone_conv(const struct blkgen_zoned *zd,
			     struct blkgen_choice *c, u32 i, u32 lbs)
{
	u64 zsize = 1ULL << (zd->shift + SECTOR_SHIFT);
	u64 rel = c->offset & (zsize - 1);

	if (rel + c->size > zsize)
		rel = (zsize - c->size) & ~(u64)(lbs - 1);
	c->offset = (blkgen_zone_start(zd, i) << SECTOR_SHIFT) + rel;
}

/**
 * blkgen_zoned_write() - Place a write of a zoned workload.
 * @wl: the workload
 * @zr: the worker's zones
 * @c: the pattern's choice; its offset and size are set to the write's
 * @rnd: a random number (which of the worker's open zones to try first)
 * @zone: set to the zone written (BLKGEN_ZONE_NONE: a conventional one)
 *
 * The pattern's offset chooses the zone: if it is the worker's and free,
 * or can be opened, the write goes there; else to one of the worker's
 * open zones that can take it. The size is cut to the room left in the
 * zone; the room is the write's from now on, and @c's offset is its
 * place, at the write pointer (a zone append goes to the zone's start:
 * the caller sends it there).
 *
 * Return: 0, or 1 if no zone can take a write now (wait for a
 * completion; if a reset failed, the run is failing).
 */
int blkgen_zoned_write(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       struct blkgen_choice *c, u64 rnd, u32 *zone)
{
	struct blkgen_zoned *zd = &wl->zd;
	struct blkgen_zone *z;
	u32 i = blkgen_zone_of(zd, c->offset), k, n;

	z = &zd->z[i];
	if (z->state == BLKGEN_ZONE_CONV) {
		blkgen_zone_conv(zd, c, i, wl->lbs);
		*zone = BLKGEN_ZONE_NONE;
		return 0;
	}
	if (READ_ONCE(z->owner) == zr->id && blkgen_zone_writable(zd, z))
		goto found;
	if (zr->nr_room < zr->cap) {
		u32 j = blkgen_zone_open(wl, zr, i);

		if (j != BLKGEN_ZONE_NONE) {
			i = j;
			goto found;
		}
	}
	n = zr->nr_open;
	for (k = 0, rnd = (u32)rnd * (u64)n >> 32; k < n; k++) {
		i = zr->open[rnd];
		if (blkgen_zone_writable(zd, &zd->z[i]))
			goto found;
		if (++rnd == n)
			rnd = 0;
	}
	return 1;

found:
	z = &zd->z[i];
	c->size = min_t(u64, c->size, (u64)(z->cap - z->wp) << SECTOR_SHIFT);
	c->offset = (blkgen_zone_start(zd, i) + z->wp) << SECTOR_SHIFT;
	z->wp += c->size >> SECTOR_SHIFT;
	z->inflight++;
	zr->nr_room -= z->wp == z->cap;
	*zone = i;
	blkgen_zone_reset_periodic(wl, zr, i);
	return 0;
}

static int blkgen_zone_copy_cb(struct blk_zone *bz, unsigned int idx,
			       void *data)
{
	*(struct blk_zone *)data = *bz;
	return 0;
}

/*
 * Verify, after a failed write: a write pointer inside a table block (a
 * write done in part) would put the next write off its blocks. The zone
 * is finished (full); the failed write's blocks are unknown already.
 * Return: the finish's negative errno, else 0.
 */
static int blkgen_zone_finish_torn(struct blkgen_workload *wl, u32 i)
{
	struct blkgen_zoned *zd = &wl->zd;
	struct blkgen_zone *z = &zd->z[i];
	int ret;

	if (!zd->verify || blkgen_zalign(&wl->pattern, z->wp) == z->wp)
		return 0;
	ret = blkgen_zone_mgmt(wl->dev.bdev, REQ_OP_ZONE_FINISH,
			       blkgen_zone_start(zd, i), 1ULL << zd->shift);
	if (!ret)
		z->wp = z->cap;
	return ret;
}

/*
 * The write pointer of zone @i as the device has it, read once nothing is
 * in flight to the zone (a write failed: the zone is stale until then).
 * A zone found read-only or offline is left alone: no longer written, nor
 * read (its @done 0).
 */
static void blkgen_zone_sync(struct blkgen_workload *wl, u32 i)
{
	struct blkgen_zoned *zd = &wl->zd;
	struct blkgen_zone *z = &zd->z[i];
	struct blk_zone bz;
	unsigned int noio;
	int ret;

	noio = memalloc_noio_save();
	ret = blkdev_report_zones(wl->dev.bdev, blkgen_zone_start(zd, i), 1,
				  blkgen_zone_copy_cb, &bz);
	memalloc_noio_restore(noio);
	z->flags &= ~BLKGEN_ZF_STALE;
	if (ret != 1) {
		/* Its write pointer unknown, the zone cannot be written. */
		blkgen_job_fail(wl->job,
				"%s: %s: a zone report at sector %llu failed after a write error (%s)",
				blkgen_wl_name(wl), wl->device,
				(unsigned long long)blkgen_zone_start(zd, i),
				blkgen_errno_name(ret < 0 ? ret : -EIO));
		goto dead;
	}
	switch (bz.cond) {
	case BLK_ZONE_COND_EMPTY:
		z->wp = 0;
		break;
	case BLK_ZONE_COND_IMP_OPEN:
	case BLK_ZONE_COND_EXP_OPEN:
	case BLK_ZONE_COND_CLOSED:
		z->wp = min_t(u64, bz.wp - bz.start, z->cap);
		ret = blkgen_zone_finish_torn(wl, i);
		if (ret) {
			blkgen_job_fail(wl->job,
					"%s: %s: finishing the zone at sector %llu, its write pointer inside a block, failed (%s)",
					blkgen_wl_name(wl), wl->device,
					(u64)blkgen_zone_start(zd, i),
					blkgen_errno_name(ret));
			goto dead;
		}
		break;
	case BLK_ZONE_COND_FULL:
		z->wp = z->cap;
		break;
	default:	/* read-only, offline: left alone */
		goto dead;
	}
	WRITE_ONCE(z->done, z->wp);
	return;
dead:
	z->wp = z->cap;
	WRITE_ONCE(z->done, 0);
	spin_lock(&zd->lock);
	blkgen_zone_move(zd, i, BLKGEN_ZONE_DEAD);
	spin_unlock(&zd->lock);
}

/*
 * A write to zone @i completed, @ok or not. A failed one gives its room
 * back (a regular write fails without moving the write pointer) and
 * makes the zone stale: no write is issued to it until, with nothing in
 * flight to it, its write pointer is read from the device again. Zone
 * appends in flight behind the failed one may fail too (6.12 fails every
 * write to a zone whose write pointer it emulates after an error, until
 * a report); new ones would.
 */
static void blkgen_zone_complete(struct blkgen_workload *wl,
				 struct blkgen_zrun *zr, u32 i, u32 size,
				 bool ok)
{
	struct blkgen_zone *z = &wl->zd.z[i];
	bool had_room = z->wp < z->cap;

	z->inflight--;
	if (!ok) {
		z->wp -= size >> SECTOR_SHIFT;
		z->flags |= BLKGEN_ZF_STALE;
	}
	if (!z->inflight && (z->flags & BLKGEN_ZF_STALE))
		blkgen_zone_sync(wl, i);
	if (had_room && z->wp == z->cap)
		zr->nr_room--;
	else if (!had_room && z->wp < z->cap)
		zr->nr_room++;
}

/*
 * The worker's zone @i has no room and nothing in flight: it is full (or,
 * found read-only or offline, left alone) and nobody's.
 */
static void blkgen_zone_full(struct blkgen_zoned *zd, struct blkgen_zrun *zr,
			     u32 i)
{
	struct blkgen_zone *z = &zd->z[i];

	blkgen_zrun_remove(zr, i);
	spin_lock(&zd->lock);
	if (z->state != BLKGEN_ZONE_DEAD) {
		blkgen_zone_move(zd, i, BLKGEN_ZONE_FULL);
		zd->full_sectors += z->cap;
		zr->cnt[BLKGEN_ZC_FINISHED]++;
	}
	WRITE_ONCE(z->owner, 0);
	zd->nr_open--;
	spin_unlock(&zd->lock);
}

/**
 * blkgen_zoned_done() - A zoned write completed.
 * @wl: the workload
 * @zr: the worker's zones
 * @zone: the zone it wrote to
 * @size: its bytes
 * @ok: it completed without error
 */
void blkgen_zoned_done(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       u32 zone, u32 size, bool ok)
{
	struct blkgen_zoned *zd = &wl->zd;
	struct blkgen_zone *z = &zd->z[zone];

	if (ok) {
		WRITE_ONCE(z->done, z->done + (size >> SECTOR_SHIFT));
		if (zd->append)
			zr->cnt[BLKGEN_ZC_APPENDS]++;
	}
	blkgen_zone_complete(wl, zr, zone, size, ok);
	if (!z->inflight && z->wp >= z->cap)
		blkgen_zone_full(zd, zr, zone);
}

/**
 * blkgen_zoned_read() - Place a read of a zoned workload below a write
 * pointer.
 * @wl: the workload
 * @zr: the worker's zones
 * @c: the pattern's choice; its offset is moved into written data
 *
 * The read keeps its place in the zone in proportion to what the zone
 * holds (a read a third into the zone reads a third into its data). A
 * zone holding less than the read goes to the next ones (a few); if none
 * holds enough, the read goes where the pattern said, beyond the write
 * pointer (counted). Conventional zones are read as they are. With
 * read_beyond_wp, and in a replay (the trace's places are its
 * workload), every read goes where it was drawn, counted if it reads
 * past a write pointer.
 */
void blkgen_zoned_read(struct blkgen_workload *wl, struct blkgen_zrun *zr,
		       struct blkgen_choice *c)
{
	struct blkgen_zoned *zd = &wl->zd;
	u32 i = blkgen_zone_of(zd, c->offset), k;
	u32 n = c->size >> SECTOR_SHIFT;
	u64 mask = (1ULL << zd->shift) - 1;
	u64 rel = (c->offset >> SECTOR_SHIFT) & mask;
	u32 lbs_mask = (wl->lbs >> SECTOR_SHIFT) - 1;

	if (zd->beyond_wp) {
		const struct blkgen_zone *z = &zd->z[i];
		u8 state = READ_ONCE(z->state);	/* another worker's, maybe */
		u64 zs = blkgen_zone_start(zd, i);
		u64 at = c->offset >> SECTOR_SHIFT;

		/*
		 * Counted if it reads past its zone's write pointer (of the
		 * range's whole zones; a dead zone's is unknown).
		 */
		if (state != BLKGEN_ZONE_CONV && state != BLKGEN_ZONE_DEAD &&
		    at >= zs &&
		    at - zs < (1ULL << zd->shift) &&
		    at - zs + n > READ_ONCE(z->done))
			zr->cnt[BLKGEN_ZC_BEYOND]++;
		return;
	}
	for (k = 0; k < 8; k++) {
		const struct blkgen_zone *z = &zd->z[i];
		u32 done = READ_ONCE(z->done);

		if (z->state == BLKGEN_ZONE_CONV) {
			c->offset = (blkgen_zone_start(zd, i) + rel) <<
				    SECTOR_SHIFT;
			blkgen_zone_conv(zd, c, i, wl->lbs);
			return;
		}
		if (done >= n) {
			u64 at = (rel * (done - n + 1)) >> zd->shift;

			/* On a table block with verify, else a logical one. */
			at = zd->verify ? blkgen_zalign(&wl->pattern, at) :
			     at & ~(u64)lbs_mask;

			c->offset = (blkgen_zone_start(zd, i) + at) <<
				    SECTOR_SHIFT;
			return;
		}
		if (++i == zd->nr)
			i = 0;
	}
	zr->cnt[BLKGEN_ZC_BEYOND]++;
}

/**
 * blkgen_zoned_release() - A worker is done: its open zones are nobody's.
 * @wl: the workload
 * @zr: the worker's zones
 *
 * Context: the worker, nothing of its own in flight.
 */
void blkgen_zoned_release(struct blkgen_workload *wl, struct blkgen_zrun *zr)
{
	struct blkgen_zoned *zd = &wl->zd;
	u32 k;

	spin_lock(&zd->lock);
	for (k = 0; k < zd->nr; k++) {
		struct blkgen_zone *z = &zd->z[k];

		if (z->owner != zr->id || z->state != BLKGEN_ZONE_OPEN)
			continue;
		WRITE_ONCE(z->owner, 0);
		if (z->done) {
			blkgen_zone_move(zd, k, BLKGEN_ZONE_ACTIVE);
		} else {
			blkgen_zone_move(zd, k, BLKGEN_ZONE_EMPTY);
			zd->nr_open--;
		}
	}
	spin_unlock(&zd->lock);
	zr->nr_open = 0;
	zr->nr_room = 0;
}
