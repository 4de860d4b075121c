// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen data verification: the generation table of a workload with
 * verify=1, the hold every I/O takes on its blocks, stamping writes,
 * checking reads, the mismatch log, periodic flushes and their epochs,
 * and saving and loading the table.
 *
 * The table has one byte per block of the range (the workload's smallest
 * I/O size; see stamp.h for the bits). It outlives runs: a write run and
 * a later verify pass (job mode=verify) share it, and it is dropped when
 * `verify` is written or the workload removed. An I/O holds its blocks
 * (busy bit, taken with cmpxchg) from submission to the worker's
 * accounting, so two I/Os never overlap and a read never races a write
 * to the same block. These are the only shared writes per I/O, and only
 * with verify=1.
 *
 * Flush epochs: with flush_ms, a delayed work flushes the device every
 * flush_ms. Writes committed after a flush was issued carry a new epoch
 * tag; when the flush completes every tag but the new one is cleared
 * (the blocks are durable). In a verify pass, a block whose tag is not
 * clear may hold older data (a power cut dropped it from a volatile
 * cache): that is reported as unflushed, not as an error.
 */
#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/vmalloc.h>

#include "blkgen.h"
#include "stamp.h"

static unsigned int verify_max_mb = 256;
module_param(verify_max_mb, uint, 0644);
MODULE_PARM_DESC(verify_max_mb,
		 "Largest generation table of a verifying workload, in MiB (default 256: one byte per 4 KiB of 1 TiB)");

#define SECTORS_PER_PAGE	(PAGE_SIZE / BLKGEN_SECTOR)

/**
 * blkgen_verify_init() - Build the CRC tables; use the CPU's CRC-32C
 * instruction where it has one.
 * Context: module load.
 */
void blkgen_verify_init(void)
{
	bool hw = blkgen_crc32c_hw();

	if (blkgen_crc32c_init(hw) != hw)
		pr_warn("the CPU's CRC-32C instruction disagrees with the tables: not used\n");
}

/**
 * blkgen_verify_drop() - Free a workload's generation table.
 * @wl: workload, not running (or being freed)
 */
void blkgen_verify_drop(struct blkgen_workload *wl)
{
	if (wl->vt.ent)
		blkgen_mem_uncharge(wl->vt.nr);
	vfree(wl->vt.ent);
	memset(&wl->vt, 0, sizeof(wl->vt));
}

/*
 * Fit the table to the workload's resolved pattern: keep one of the same
 * geometry (a previous run's, or a loaded one), refuse a loaded one that
 * does not match, make a new one otherwise.
 */
static int blkgen_verify_table(struct blkgen_job *job,
			       struct blkgen_workload *wl, u64 dev_bytes)
{
	const struct blkgen_pattern *p = &wl->pattern;
	struct blkgen_vtable *vt = &wl->vt;
	u64 nr = (p->end - p->start) / p->align;

	if (vt->ent && vt->loaded && vt->filled != vt->nr) {
		blkgen_job_set_error(job,
				     "%s: the loaded verify table has %llu of its %llu entries (EINVAL)",
				     blkgen_wl_name(wl), vt->filled, vt->nr);
		return -EINVAL;
	}
	if (vt->ent && vt->start == p->start && vt->nr == nr &&
	    vt->block == p->align && vt->dev_bytes == dev_bytes)
		return 0;
	if (vt->ent && vt->loaded) {
		blkgen_job_set_error(job,
				     "%s: the loaded verify table covers %llu blocks of %u bytes from %llu on a %llu-byte device; the workload has %llu of %u from %llu on %llu (EINVAL)",
				     blkgen_wl_name(wl), vt->nr, vt->block,
				     vt->start, vt->dev_bytes, nr, p->align,
				     p->start, dev_bytes);
		return -EINVAL;
	}
	if (job->mode == BLKGEN_MODE_VERIFY) {
		blkgen_job_set_error(job,
				     "%s: no generation table to verify against: run with verify=1 first, or load WL/verify_table (EINVAL)",
				     blkgen_wl_name(wl));
		return -EINVAL;
	}
	blkgen_verify_drop(wl);
	if (nr > (u64)verify_max_mb << 20) {
		blkgen_job_set_error(job,
				     "%s: verify needs a %llu MiB generation table (one byte per %u bytes of the range), above verify_max_mb=%u (ENOMEM)",
				     blkgen_wl_name(wl),
				     DIV_ROUND_UP_ULL(nr, 1 << 20),
				     p->align, verify_max_mb);
		return -ENOMEM;
	}
	if (blkgen_mem_charge(nr)) {
		blkgen_job_set_error(job,
				     "%s: verify needs a %llu MiB generation table, and blkgen holds %llu MiB of max_memory_mb=%llu (ENOMEM)",
				     blkgen_wl_name(wl),
				     DIV_ROUND_UP_ULL(nr, 1 << 20),
				     blkgen_mem_used() >> 20,
				     blkgen_mem_limit() >> 20);
		return -ENOMEM;
	}
	vt->ent = vzalloc(nr);
	if (!vt->ent) {
		blkgen_mem_uncharge(nr);
		blkgen_job_set_error(job,
				     "%s: no memory for a %llu-byte generation table (ENOMEM)",
				     blkgen_wl_name(wl), nr);
		return -ENOMEM;
	}
	vt->nr = nr;
	vt->start = p->start;
	vt->block = p->align;
	vt->dev_bytes = dev_bytes;
	vt->run_id = get_random_u64();
	return 0;
}

/**
 * blkgen_verify_prepare() - Set up a workload's verification for a run.
 * @job: the job, job->lock held
 * @wl: workload with its device open and pattern resolved
 *
 * Return: 0 or a negative errno with job->error set.
 */
int blkgen_verify_prepare(struct blkgen_job *job, struct blkgen_workload *wl)
{
	const struct blkgen_pattern *p = &wl->pattern;
	unsigned int i;
	int ret;

	wl->vlog_nr = 0;
	wl->flushes = 0;
	/* A replay writes what its trace does, rdpct aside. */
	if (wl->flush_ms && job->mode != BLKGEN_MODE_VERIFY &&
	    (wl->replay ? !wl->allow_write : wl->rdpct == 100)) {
		blkgen_job_set_error(job,
				     "%s: flush_ms needs a workload that writes (rdpct below 100; a replay: allow_write=1) (EINVAL)",
				     blkgen_wl_name(wl));
		return -EINVAL;
	}
	if (!wl->verify)
		return 0;
	for (i = 0; i < p->bs.nr; i++) {
		if (p->bs.size[i] % p->align) {
			blkgen_job_set_error(job,
					     "%s: verify needs every size of bs %s to be a multiple of the smallest (%u) (EINVAL)",
					     blkgen_wl_name(wl), wl->bs_str,
					     p->align);
			return -EINVAL;
		}
	}
	ret = blkgen_verify_table(job, wl, bdev_nr_bytes(wl->dev.bdev));
	if (ret)
		return ret;
	wl->vt.relax = job->mode == BLKGEN_MODE_VERIFY;
	wl->vt.cur_tag = wl->flush_ms && !wl->vt.relax ?
			 1 << BLKGEN_VT_TAG_SHIFT : 0;
	return 0;
}

/**
 * blkgen_verify_check_overlap() - Refuse workloads that share a verifying
 * workload's blocks.
 * @job: the job, devices open and patterns resolved
 * Return: 0 or -EINVAL with job->error set.
 */
int blkgen_verify_check_overlap(struct blkgen_job *job)
{
	unsigned int i, j;

	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *a = job->wl_run[i];

		if (!a->verify)
			continue;
		for (j = 0; j < job->nr_wl_run; j++) {
			struct blkgen_workload *b = job->wl_run[j];

			if (i == j || a->dev.bdev != b->dev.bdev ||
			    b->pattern.end <= a->pattern.start ||
			    a->pattern.end <= b->pattern.start)
				continue;
			blkgen_job_set_error(job,
					     "%s and %s overlap on %s: a verifying workload needs its range to itself (EINVAL)",
					     blkgen_wl_name(a),
					     blkgen_wl_name(b), a->device);
			return -EINVAL;
		}
	}
	return 0;
}

/* Take blocks @b .. @b + @n - 1, or none if an I/O holds one. */
static bool blkgen_vt_take(struct blkgen_vtable *vt, u64 b, u64 n)
{
	u64 i;
	u8 old;

	for (i = 0; i < n; i++) {
		do {
			old = READ_ONCE(vt->ent[b + i]);
			if (old & BLKGEN_VT_BUSY) {
				while (i--)
					blkgen_verify_release(vt, b + i, 1);
				return false;
			}
		} while (cmpxchg(&vt->ent[b + i], old,
				 old | BLKGEN_VT_BUSY) != old);
	}
	return true;
}

/**
 * blkgen_verify_hold() - Take the blocks of an I/O.
 * @vt: the table
 * @offset: byte offset of the I/O
 * @size: its bytes (whole blocks)
 * @blk: set to its first block
 * @nr: set to its blocks
 * Return: true if every block was free and is now held; false if another
 * I/O holds one (nothing is held then).
 */
bool blkgen_verify_hold(struct blkgen_vtable *vt, u64 offset, u32 size,
			u64 *blk, u32 *nr)
{
	*blk = div_u64(offset - vt->start, vt->block);
	*nr = size / vt->block;
	return blkgen_vt_take(vt, *blk, *nr);
}

/**
 * blkgen_verify_release() - Let go of held blocks without changing them.
 * @vt: the table
 * @blk: first block
 * @nr: blocks
 */
void blkgen_verify_release(struct blkgen_vtable *vt, u64 blk, u32 nr)
{
	u32 i;
	u8 old;

	/* The flush sweep may change the epoch bits meanwhile. */
	for (i = 0; i < nr; i++) {
		do {
			old = READ_ONCE(vt->ent[blk + i]);
		} while (cmpxchg(&vt->ent[blk + i], old,
				 old & ~BLKGEN_VT_BUSY) != old);
	}
}

/**
 * blkgen_verify_zone_hold() - Take every block of a zone about to be reset.
 * @vt: the table
 * @offset: byte offset of the zone's start (a block boundary in the table)
 * @bytes: its capacity (whole blocks)
 *
 * Return: true if every block was free and is now held; false if an I/O
 * holds one (a read placed before the zone was chosen: nothing is held
 * then, and the zone is not reset now).
 */
bool blkgen_verify_zone_hold(struct blkgen_vtable *vt, u64 offset, u64 bytes)
{
	u64 b = div_u64(offset - vt->start, vt->block);
	u64 n = div_u64(bytes, vt->block), i, k;

	/* In steps: a zone of a ZNS drive can have a million blocks. */
	for (i = 0; i < n; i += k) {
		k = min_t(u64, n - i, 0x10000);
		if (!blkgen_vt_take(vt, b + i, k)) {
			for (k = 0; k < i; k++)
				blkgen_verify_release(vt, b + k, 1);
			return false;
		}
		cond_resched();
	}
	return true;
}

/**
 * blkgen_verify_zone_reset() - A zone whose blocks are held was reset (or
 * its reset failed): its blocks' content is unknown; release them.
 * @vt: the table
 * @offset: as to blkgen_verify_zone_hold()
 * @bytes: as to blkgen_verify_zone_hold()
 *
 * A written block becomes unknown, so that its next write takes a
 * generation none of its old data has: a write lost after the reset reads
 * foreign (or stale, if the reset was lost too), never as old data of the
 * same generation. A block never
 * written stays so (a reset zone reads zeroes, or what the device's
 * deallocated blocks read as).
 */
void blkgen_verify_zone_reset(struct blkgen_vtable *vt, u64 offset, u64 bytes)
{
	u64 b = div_u64(offset - vt->start, vt->block);
	u64 n = div_u64(bytes, vt->block), i;
	u8 old, gen;

	for (i = 0; i < n; i++) {
		do {
			old = READ_ONCE(vt->ent[b + i]);
			gen = old & BLKGEN_VT_GEN;
		} while (cmpxchg(&vt->ent[b + i], old,
				 gen && gen != BLKGEN_GEN_UNKNOWN ?
				 blkgen_ent_unknown(gen) :
				 old & ~BLKGEN_VT_BUSY) != old);
		if (!(i & 0xffff))
			cond_resched();
	}
}

static void *blkgen_sector_addr(struct page **pages, u32 i)
{
	return page_address(pages[i / SECTORS_PER_PAGE]) +
	       (i % SECTORS_PER_PAGE) * BLKGEN_SECTOR;
}

/**
 * blkgen_verify_keys() - Key the sectors of a slot's write pages.
 * @pages: the pages, random data that no read overwrites
 * @keys: set to blkgen_stamp_key() of each sector
 * @nr: sectors
 */
void blkgen_verify_keys(struct page **pages, u32 *keys, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++)
		keys[i] = blkgen_stamp_key(blkgen_sector_addr(pages, i));
}

/**
 * blkgen_verify_stamp() - Stamp a write's buffer for the held blocks.
 * @vt: the table
 * @pages: the slot's write pages (their data never changes)
 * @keys: blkgen_verify_keys() of @pages
 * @blk: first block (held)
 * @nr: blocks
 *
 * Each block gets the generation after the table's; the table changes
 * only when the write completes (blkgen_verify_commit()). Only the stamps
 * are written: the sectors' random data stays, its part of each CRC
 * known from @keys.
 */
void blkgen_verify_stamp(struct blkgen_vtable *vt, struct page **pages,
			 const u32 *keys, u64 blk, u32 nr)
{
	u32 spb = vt->block / BLKGEN_SECTOR, i, j, k;
	u64 sector = (vt->start >> SECTOR_SHIFT) + blk * spb;

	for (i = 0, k = 0; i < nr; i++) {
		u32 gen = blkgen_ent_next(READ_ONCE(vt->ent[blk + i]));

		for (j = 0; j < spb; j++, k++)
			blkgen_stamp_head(blkgen_sector_addr(pages, k),
					  vt->run_id, sector + k, gen,
					  keys[k]);
	}
}

/**
 * blkgen_verify_unstamp() - Clear a read's buffer for the held blocks.
 * @vt: the table
 * @pages: the slot's buffer
 * @nr: blocks
 *
 * The slot's buffer holds what it last wrote or read. A read that
 * completes without transferring data (a driver bug) would find that
 * there: zero each sector's magic first, so it reads foreign instead.
 */
void blkgen_verify_unstamp(struct blkgen_vtable *vt, struct page **pages,
			   u32 nr)
{
	u32 i, n = nr * (vt->block / BLKGEN_SECTOR);
	struct blkgen_stamp *st;

	for (i = 0; i < n; i++) {
		st = blkgen_sector_addr(pages, i);
		st->magic = 0;
	}
}

/**
 * blkgen_verify_commit() - A write of held blocks completed; release them.
 * @vt: the table
 * @blk: first block
 * @nr: blocks
 * @ok: it succeeded: the blocks now hold the next generation, in the
 *	current flush epoch; else their content is unknown
 */
void blkgen_verify_commit(struct blkgen_vtable *vt, u64 blk, u32 nr, bool ok)
{
	u8 tag = READ_ONCE(vt->cur_tag), old, new;
	u32 i, gen;

	for (i = 0; i < nr; i++) {
		do {
			old = READ_ONCE(vt->ent[blk + i]);
			gen = blkgen_ent_next(old);	/* as stamped */
			new = ok ? gen | tag : blkgen_ent_unknown(gen);
		} while (cmpxchg(&vt->ent[blk + i], old, new) != old);
	}
}

struct blkgen_vctx {
	struct blkgen_workload *wl;
	struct page **pages;
	u32 unflushed;
};

static const void *blkgen_vsector(void *ctx, u32 i)
{
	return blkgen_sector_addr(((struct blkgen_vctx *)ctx)->pages, i);
}

/*
 * A pass found a block holding older data than its last, unflushed, write
 * (a power cut dropped it): the table takes what the block holds, now
 * durable, so that later runs check it against that. Stale data keeps its
 * generation, none is never written, a torn block is unknown.
 */
static void blkgen_vsettle(struct blkgen_vtable *vt,
			   const struct blkgen_mismatch *m)
{
	u64 b = div_u64((m->sector << SECTOR_SHIFT) - vt->start, vt->block);
	u8 old, settle = m->settle == BLKGEN_GEN_UNKNOWN ?
			 blkgen_ent_unknown(m->expected) : m->settle;

	do {
		old = READ_ONCE(vt->ent[b]);
	} while (cmpxchg(&vt->ent[b], old,
			 (old & BLKGEN_VT_BUSY) | settle) != old);
}

static void blkgen_vreport(void *ctx, const struct blkgen_mismatch *m)
{
	struct blkgen_workload *wl = ((struct blkgen_vctx *)ctx)->wl;
	struct blkgen_job *job = wl->job;
	struct blkgen_vlog_entry *e;
	unsigned int i;

	if (m->cls == BLKGEN_V_UNFLUSHED) {
		((struct blkgen_vctx *)ctx)->unflushed++;
		blkgen_vsettle(&wl->vt, m);
	}
	spin_lock(&wl->vlog_lock);
	e = NULL;
	if (wl->vlog_nr < BLKGEN_VLOG_MAX) {
		e = &wl->vlog[wl->vlog_nr++];
	} else if (m->cls != BLKGEN_V_UNFLUSHED) {
		/* Full: an error takes the last unflushed line's place. */
		for (i = BLKGEN_VLOG_MAX; i-- > 0 && !e;)
			if (wl->vlog[i].cls == BLKGEN_V_UNFLUSHED)
				e = &wl->vlog[i];
	}
	if (e) {
		e->offset = m->sector << SECTOR_SHIFT;
		e->home = m->home << SECTOR_SHIFT;
		e->cls = m->cls;
		e->expected = m->expected;
		e->found = m->found;
	}
	spin_unlock(&wl->vlog_lock);
	if (job->verify_fatal && m->cls != BLKGEN_V_UNFLUSHED)
		blkgen_job_fail(job,
				"%s: verify: %s data at %llu (expected generation %u, found %u)",
				blkgen_wl_name(wl), blkgen_vclass_name(m->cls),
				m->sector << SECTOR_SHIFT, m->expected,
				m->found);
}

/**
 * blkgen_verify_check() - Check a completed read of held blocks.
 * @wl: the workload
 * @pages: the slot's buffer
 * @blk: first block
 * @nr: blocks
 * @res: counts of blocks checked, wrong and unflushed, added to
 *	(checked, errors, unflushed)
 *
 * Mismatches go to the workload's log (the first BLKGEN_VLOG_MAX) and,
 * with verify_fatal, fail the run.
 */
void blkgen_verify_check(struct blkgen_workload *wl, struct page **pages,
			 u64 blk, u32 nr, u64 res[3])
{
	struct blkgen_vtable *vt = &wl->vt;
	u32 spb = vt->block / BLKGEN_SECTOR, checked, bad;
	struct blkgen_vctx ctx = { .wl = wl, .pages = pages };
	struct blkgen_vio io = {
		.run_id = vt->run_id,
		.sector = (vt->start >> SECTOR_SHIFT) + blk * spb,
		.nr_sectors = nr * spb,
		.block_sectors = spb,
		.ent = &vt->ent[blk],
		.relax = vt->relax,
		.sector_at = blkgen_vsector,
		.ctx = &ctx,
	};

	bad = blkgen_verify_read(&io, blkgen_vreport, &ctx, &checked);
	res[0] += checked;
	res[1] += bad;
	res[2] += ctx.unflushed;
}

/**
 * blkgen_verify_append_moved() - A zone append did not land where it was
 * stamped for.
 * @wl: the workload
 * @blk: the first block it held (its reserved place, at the write pointer)
 * @nr: blocks it held
 * @landed: the sector the device says it wrote the data to
 * @res: counts, as blkgen_verify_check()'s
 *
 * With verify, a zone takes one append at a time, so the one place the
 * device may put it is the write pointer: anywhere else the data is
 * misdirected, reported as such at @landed (its home the reserved place).
 * The reserved place's content is unknown now (its held blocks are
 * released), and so is the landed place's, whose blocks keep reading as
 * misdirected until they are written again (a block another I/O holds is
 * left to it).
 */
void blkgen_verify_append_moved(struct blkgen_workload *wl, u64 blk, u32 nr,
				u64 landed, u64 res[3])
{
	struct blkgen_vtable *vt = &wl->vt;
	struct blkgen_vctx ctx = { .wl = wl };
	struct blkgen_mismatch m = {
		.sector = landed,
		.home = (vt->start >> SECTOR_SHIFT) +
			blk * (vt->block >> SECTOR_SHIFT),
		.cls = BLKGEN_V_MISDIRECTED,
		.found = blkgen_ent_next(READ_ONCE(vt->ent[blk])),
	};
	u64 at = landed << SECTOR_SHIFT, b, i;
	u8 old, gen;

	blkgen_verify_commit(vt, blk, nr, false);
	b = at >= vt->start ? div_u64(at - vt->start, vt->block) : vt->nr;
	if (b < vt->nr)
		m.expected = READ_ONCE(vt->ent[b]) & BLKGEN_VT_GEN;
	blkgen_vreport(&ctx, &m);
	res[1] += nr;
	for (i = b; i < b + nr && i < vt->nr; i++) {
		do {
			old = READ_ONCE(vt->ent[i]);
			gen = old & BLKGEN_VT_GEN;
			if (!gen || gen == BLKGEN_GEN_UNKNOWN ||
			    (old & BLKGEN_VT_BUSY))
				break;
		} while (cmpxchg(&vt->ent[i], old,
				 blkgen_ent_unknown(gen)) != old);
	}
}

/*
 * A completed flush made every write committed before it was issued
 * durable: clear every epoch tag but @keep, the one writes committed
 * since carry. Runs in the flush work, beside the workers.
 */
static void blkgen_verify_sweep(struct blkgen_vtable *vt, u8 keep)
{
	u64 b;
	u8 old;

	for (b = 0; b < vt->nr; b++) {
		do {
			old = READ_ONCE(vt->ent[b]);
			/* an unknown block: bits 5-6 its next generation */
			if (!(old & BLKGEN_VT_TAG) ||
			    (old & BLKGEN_VT_TAG) == keep ||
			    (old & BLKGEN_VT_GEN) == BLKGEN_GEN_UNKNOWN)
				break;
		} while (cmpxchg(&vt->ent[b], old,
				 old & ~BLKGEN_VT_TAG) != old);
		if (!(b & 0xffff))
			cond_resched();
	}
}

/* Every flush_ms while the run issues: flush, then sweep the epochs. */
static void blkgen_flush_fn(struct work_struct *work)
{
	struct blkgen_workload *wl = container_of(to_delayed_work(work),
						  struct blkgen_workload,
						  flush_work);
	struct blkgen_job *job = wl->job;
	struct blkgen_vtable *vt = &wl->vt;
	unsigned long now;
	u8 tag = 0;
	int ret;

	if (READ_ONCE(job->stop) || ktime_get_ns() >= job->t_deadline)
		return;
	if (vt->ent && vt->cur_tag) {
		/* Epochs 1, 2, 3, 1 ...: at most two are ever in use. */
		tag = vt->cur_tag + (1 << BLKGEN_VT_TAG_SHIFT);
		if (!(tag & BLKGEN_VT_TAG))
			tag = 1 << BLKGEN_VT_TAG_SHIFT;
		WRITE_ONCE(vt->cur_tag, tag);
		smp_mb();	/* commits after this see the new epoch */
	}
	ret = blkdev_issue_flush(wl->dev.bdev);
	if (ret) {
		blkgen_job_fail(job, "%s: %s: a flush failed (%s)",
				blkgen_wl_name(wl), wl->device,
				blkgen_errno_name(ret));
		return;
	}
	WRITE_ONCE(wl->flushes, wl->flushes + 1);
	if (tag)
		blkgen_verify_sweep(vt, tag);
	/* A period from the run's start, not from the last flush's end. */
	now = jiffies;
	wl->flush_next += msecs_to_jiffies(wl->flush_ms);
	if (time_before(wl->flush_next, now))
		wl->flush_next = now;
	queue_delayed_work(system_unbound_wq, &wl->flush_work,
			   wl->flush_next - now);
}

/**
 * blkgen_verify_wl_init() - Initialise a new workload's verify state.
 * @wl: the workload
 */
void blkgen_verify_wl_init(struct blkgen_workload *wl)
{
	spin_lock_init(&wl->vlog_lock);
	INIT_DELAYED_WORK(&wl->flush_work, blkgen_flush_fn);
}

/**
 * blkgen_verify_run_start() - Start the periodic flushes of a run.
 * @job: the job, job->lock held, workers started; or its start timer
 *	(hard interrupt context), when the run was armed for start_at
 */
void blkgen_verify_run_start(struct blkgen_job *job)
{
	unsigned int i;

	if (job->mode == BLKGEN_MODE_VERIFY)
		return;
	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *wl = job->wl_run[i];

		if (!wl->flush_ms)
			continue;
		/* Unbound: a long sweep does not hold up a worker's CPU. */
		wl->flush_next = jiffies + msecs_to_jiffies(wl->flush_ms);
		queue_delayed_work(system_unbound_wq, &wl->flush_work,
				   msecs_to_jiffies(wl->flush_ms));
	}
}

/**
 * blkgen_verify_run_end() - Stop the periodic flushes (before devices close).
 * @job: the job, its workers done, job->lock not held (a flush in flight
 *	is waited for)
 */
void blkgen_verify_run_end(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_wl_run; i++)
		if (job->wl_run[i])
			cancel_delayed_work_sync(&job->wl_run[i]->flush_work);
}

/**
 * blkgen_verify_log_show() - WL/verify_log: the first mismatches of the run.
 * @wl: the workload
 * @buf: sysfs page
 *
 * One line each: byte offset, class, expected and found generation, and
 * for misdirected data the offset it was written for. Whole lines only:
 * 64 misdirected lines with offsets of 13 digits and more (TB) fill more
 * than the page, and the lines that do not fit are left out.
 *
 * Return: bytes written.
 */
ssize_t blkgen_verify_log_show(struct blkgen_workload *wl, char *buf)
{
	struct blkgen_vlog_entry *e;
	unsigned int i;
	char line[96];
	int n = 0, len;

	spin_lock(&wl->vlog_lock);
	for (i = 0; i < wl->vlog_nr; i++) {
		e = &wl->vlog[i];
		len = scnprintf(line, sizeof(line),
				"%llu %s expected=%u found=%u",
				e->offset, blkgen_vclass_name(e->cls),
				e->expected, e->found);
		if (e->cls == BLKGEN_V_MISDIRECTED)
			len += scnprintf(line + len, sizeof(line) - len,
					 " from=%llu", e->home);
		len += scnprintf(line + len, sizeof(line) - len, "\n");
		if (n + len >= PAGE_SIZE)
			break;
		memcpy(buf + n, line, len);
		n += len;
	}
	spin_unlock(&wl->vlog_lock);
	return n;
}

/* struct blkgen_vtable_hdr with its byte order spelled out for sparse. */
struct blkgen_vtable_hdr_le {
	__le32 magic;
	__le16 version;
	__le16 reserved;
	__le32 block;
	__le32 reserved2;
	__le64 run_id;
	__le64 start;
	__le64 nr;
	__le64 dev_bytes;
};

#define VT_HDR	sizeof(struct blkgen_vtable_hdr_le)

/**
 * blkgen_verify_table_read() - WL/verify_table: the header, then the entries.
 * @wl: the workload, job->lock held, not running
 * @buf: destination
 * @off: file offset
 * @count: bytes asked for
 * Return: bytes copied, 0 at the end (or without a table).
 */
ssize_t blkgen_verify_table_read(struct blkgen_workload *wl, char *buf,
				 loff_t off, size_t count)
{
	struct blkgen_vtable *vt = &wl->vt;
	struct blkgen_vtable_hdr_le h = {
		.magic = cpu_to_le32(BLKGEN_VTABLE_MAGIC),
		.version = cpu_to_le16(BLKGEN_VTABLE_VERSION),
		.block = cpu_to_le32(vt->block),
		.run_id = cpu_to_le64(vt->run_id),
		.start = cpu_to_le64(vt->start),
		.nr = cpu_to_le64(vt->nr),
		.dev_bytes = cpu_to_le64(vt->dev_bytes),
	};
	size_t done = 0, n;
	u64 i;

	if (!vt->ent || off >= VT_HDR + vt->nr)
		return 0;
	count = min_t(u64, count, VT_HDR + vt->nr - off);
	if (off < VT_HDR) {
		n = min_t(size_t, count, VT_HDR - off);
		memcpy(buf, (char *)&h + off, n);
		done = n;
	}
	for (i = off + done - VT_HDR; done < count; i++, done++)
		buf[done] = vt->ent[i] & ~BLKGEN_VT_BUSY;
	return done;
}

/**
 * blkgen_verify_table_write() - Load a saved table into WL/verify_table.
 * @wl: the workload, job->lock held, not running
 * @buf: data
 * @off: file offset: the header at 0 (in one write) makes a new table,
 *	entries follow in order; a write out of order or beyond the table
 *	drops it
 * @count: bytes
 * Return: @count or a negative errno (-EINVAL for a bad header or an
 * entry beyond the table, -ENOMEM over verify_max_mb).
 */
ssize_t blkgen_verify_table_write(struct blkgen_workload *wl, const char *buf,
				  loff_t off, size_t count)
{
	struct blkgen_vtable *vt = &wl->vt;
	struct blkgen_vtable_hdr_le h;
	size_t total = count;
	u32 block;
	u64 nr, i;
	u8 *ent;

	BUILD_BUG_ON(sizeof(struct blkgen_vtable_hdr) != VT_HDR);

	if (off == 0) {
		/* A new load: whatever it leaves, the old table is gone. */
		blkgen_verify_drop(wl);
		if (count < VT_HDR)
			return -EINVAL;
		memcpy(&h, buf, VT_HDR);
		nr = le64_to_cpu(h.nr);
		block = le32_to_cpu(h.block);
		if (le32_to_cpu(h.magic) != BLKGEN_VTABLE_MAGIC ||
		    le16_to_cpu(h.version) != BLKGEN_VTABLE_VERSION || !nr ||
		    !block || block % BLKGEN_SECTOR)
			return -EINVAL;
		if (count - VT_HDR > nr)
			return -EINVAL;
		if (nr > (u64)verify_max_mb << 20 || blkgen_mem_charge(nr))
			return -ENOMEM;
		ent = vzalloc(nr);
		if (!ent) {
			blkgen_mem_uncharge(nr);
			return -ENOMEM;
		}
		vt->ent = ent;
		vt->nr = nr;
		vt->block = block;
		vt->run_id = le64_to_cpu(h.run_id);
		vt->start = le64_to_cpu(h.start);
		vt->dev_bytes = le64_to_cpu(h.dev_bytes);
		vt->loaded = true;
		buf += VT_HDR;
		off = VT_HDR;
		count -= VT_HDR;
	}
	if (!vt->ent || !vt->loaded)
		return -EINVAL;
	/* In order and within the table, or the load is void. */
	if (off != VT_HDR + vt->filled || count > vt->nr - vt->filled) {
		blkgen_verify_drop(wl);
		return -EINVAL;
	}
	for (i = 0; i < count; i++)
		vt->ent[vt->filled + i] = buf[i] & ~BLKGEN_VT_BUSY;
	vt->filled += count;
	return total;
}
