// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen workers: one kthread per CPU of a running job.
 *
 * A worker owns, for each workload, a set of preallocated slots: a bio
 * initialised once and reset for every reuse, a bvec table and a buffer.
 * It submits under a plug, and completions (in whatever context the
 * device completes them) only stamp the slot and push it onto the
 * worker's lock-free done list, waking the worker if the list was empty.
 * The worker pops the list, accounts each I/O in its own statistics and
 * resubmits the slot. No allocation, lock or shared write per I/O.
 *
 * Polled I/O (REQ_POLLED) raises no interrupt: while any is in flight the
 * worker never sleeps but calls bio_poll() every round (also while other
 * workloads' completions keep it busy, and while it waits for open-loop
 * arrivals). It is submitted with REQ_NOWAIT, so a worker never blocks in
 * submit_bio() for a tag only its own polling could free: a bio that
 * finds none comes back with BLK_STS_AGAIN and is submitted again after
 * the next reap. Refused slots wait in order on the retry queue, and while
 * any wait, reaped slots queue behind them: the tags a poll frees go to
 * the I/Os refused longest, not straight back to the slots just reaped.
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "blkgen.h"
#include "rate.h"
#include "tclock.h"

/*
 * Below spin_us, a worker waiting for its next arrival spins instead of
 * sleeping: timer wake-ups are late by a few microseconds on hardware
 * and by hundreds under software emulation.
 */
static unsigned int spin_us = 20;
module_param(spin_us, uint, 0644);
MODULE_PARM_DESC(spin_us,
		 "Open loop: spin rather than sleep when the next arrival is this close, in us (default 20)");

/*
 * The closed loop's fast path (and a replay's as fast as possible) stamps
 * its I/O with the CPU's cycle counter where timekeeping reads it
 * (tclock.h), not with ktime_get().
 */
static bool tsc = true;
module_param(tsc, bool, 0644);
MODULE_PARM_DESC(tsc,
		 "Closed loop and replay as fast as possible: stamp I/Os with the cycle counter (x86: the TSC; arm64: the generic timer's) where the kernel keeps time by it, looked at when a job is started (default 1; 0: ktime_get)");

/* Timer slack of that sleep: the wake-up may be this much late. */
#define BLKGEN_SLACK_NS		(5 * NSEC_PER_USEC)

/*
 * A polled I/O refused (EAGAIN) again and again for this long fails the
 * run: a queue frozen for good, or an I/O that never gets a tag.
 */
#define BLKGEN_AGAIN_NS		(10ULL * NSEC_PER_SEC)

/*
 * Verify: a worker whose retry queue holds only parked slots (their blocks
 * held by other I/Os) sleeps this long, doubling up to the maximum while
 * they stay parked. Its own I/O's end_io wakes it sooner; another
 * worker's release is seen at the timeout (no wake-up across workers).
 */
#define BLKGEN_PARK_MIN_NS	(16 * NSEC_PER_USEC)
#define BLKGEN_PARK_MAX_NS	(8 * NSEC_PER_MSEC)

/**
 * struct blkgen_slot - one preallocated I/O
 * @node: entry in the worker's done list
 * @run: the workload run this slot serves
 * @w: its worker (end_io reads it, not @run's line the worker writes)
 * @start_ns: intended start: the arrival (open loop), else the submission
 *	(ktime ns; a fast run's in its clock, cycles where it stamps with them)
 * @submit_ns: submission time (open loop only)
 * @end_ns: completion time, stamped by the end_io handler (as @start_ns)
 * @size: bytes of the I/O in flight
 * @write: the I/O is a write
 * @measured: started inside the measured window
 * @stamp: end_io records the completion time (latency recording on)
 * @inflight: submitted and not yet accounted by the worker
 * @free_ns: when the slot became free (open loop: late-arrival test)
 * @again_ns: when the I/O it carries was first refused with
 *	BLK_STS_AGAIN (polled, no free tag), 0 if it was not
 * @vblk: verify: the first table block the I/O holds
 * @vnr: verify: blocks it holds
 * @vheld: verify: it holds @vnr blocks from @vblk
 * @parked: verify: waiting on the retry queue for blocks another I/O held
 * @queued: reaped, waiting on the retry queue behind refused I/Os for its
 *	next I/O
 * @zone: zoned: the zone the write in flight goes to, BLKGEN_ZONE_NONE
 *	for any other I/O
 * @zwait: zoned: a write parked for want of a zone, its draw kept (in
 *	@zoff and @size): it stays the write it was drawn as, so that the
 *	mix is the pattern's
 * @zvwait: zoned, verify: a write whose place is reserved (@zone, at
 *	@zoff, @size bytes) waits for its blocks, held by a read; it is
 *	never drawn again
 * @zoff: the offset of a write parked with @zwait or @zvwait; of a zone
 *	append in flight, where it was stamped for (its zone's write
 *	pointer)
 * @sector: where the I/O in flight starts
 * @opf: its operation and flags
 * @status: completion status
 * @pages: the buffer, one page per bvec: random data, which writes carry
 * @rpages: where reads go: @pages, or with verify pages of their own, so
 *	that @pages keep their data and each sector's @vkey
 * @vkey: verify: blkgen_stamp_key() of each sector of @pages
 * @nr_pages: pages allocated (@pages, and @rpages if they are others)
 * @bvec: the bio's vector table
 * @bio: the bio, initialised once with @bvec
 */
struct blkgen_slot {
	struct llist_node node;
	struct blkgen_wl_run *run;
	struct blkgen_worker *w;
	u64 start_ns;
	u64 submit_ns;
	u64 end_ns;
	u64 free_ns;
	u64 again_ns;
	u64 vblk;
	u32 vnr;
	bool vheld;
	bool parked;
	bool queued;
	u32 zone;
	bool zwait;
	bool zvwait;
	u64 zoff;
	sector_t sector;
	blk_opf_t opf;
	u32 size;
	bool write;
	bool measured;
	bool stamp;
	bool inflight;
	blk_status_t status;
	struct page **pages;
	struct page **rpages;
	u32 *vkey;
	unsigned int nr_pages;
	struct bio_vec *bvec;
	struct bio bio;
};

/**
 * struct blkgen_wl_run - a worker's share of one workload
 * @wl: the workload
 * @w: the worker
 * @stream: pattern state (PRNG, sequential position)
 * @stats: this worker's results for the workload
 * @slots: the slots
 * @nr_slots: entries in @slots
 * @quota: measured I/Os left to issue (U64_MAX: no io_limit)
 * @t_measure: the job's t_measure, copied when the worker starts
 * @t_deadline: the job's t_deadline, likewise (neither changes in a run,
 *	and the job's line is written by every results read)
 * @t_start: the job's t_start, likewise (a timed replay's time zero)
 * @plain: the I/O comes from the pattern alone: no replay, no verify,
 *	not zoned
 * @ival_end: end of the open interval (ktime ns)
 * @record: record latencies (module parameter latency at start)
 * @open: open loop: I/Os follow @arr, not completions
 * @issuing: the open loop may still issue (not stopped, before deadline)
 * @arr: the arrival schedule (open loop)
 * @free: free slots, oldest first, a ring of @nr_slots (open loop)
 * @free_head: index of the oldest free slot in @free
 * @nr_free: free slots
 * @errors_in_row: consecutive failed I/Os
 * @polled_inflight: polled I/Os submitted and not yet popped from done
 * @poll_next: the slot the next bio_poll() looks at first
 * @poll_all: poll every in-flight bio (a bio-based device such as dm
 *	completes only the bio it is handed), not one per round
 * @opf: flags added to every bio (REQ_POLLED | REQ_NOWAIT)
 * @wopf: flags added to writes (REQ_FUA)
 * @verify: the workload verifies (holds blocks, stamps, checks)
 * @pass: verify pass: read the stretch up to @pass_end once, in order
 * @pass_end: end of this worker's stretch of the range
 * @replay: the I/O comes from the workload's trace (enum blkgen_replay_mode)
 * @rec: replay: the next record, taken from the ring when @have_rec
 * @have_rec: @rec holds the next record (not yet issued)
 * @rec_due: when @rec is due (timed replay)
 * @zoned: the workload is on a zoned device (zoned.c places its I/O)
 * @zr: zoned: this worker's zones
 * @zstuck: zoned: a write found no zone in this pass over the retry
 *	queue; the parked slots after it wait for the next (no zone is
 *	freed in between: drawing for them again would cost, not help)
 * @fast: the closed loop's fast path serves it (blkgen_reap_fast()): an
 *	interrupt-driven workload without io_limit, either plain, closed
 *	loop, of one size at random aligned offsets
 *	(blkgen_pattern_is_fast()), or a replay as fast as possible on a
 *	regular device
 * @fopf: fast path: the operation and flags of a read and of a write
 * @end_io: fast path: the bios' completion handler (stamping or not)
 * @bdev: fast path: the workload's device
 * @tc: fast path: its stamps' clock (cycles, or ktime ns if not @cycles);
 *	the slots' @start_ns and @end_ns are read by it
 * @cycles: fast path: it stamps with blkgen_cycles()
 * @c_measure: fast path: @t_measure by @tc
 * @c_deadline: fast path: @t_deadline by @tc
 * @ival_lim: fast path: the earlier of @ival_end and @t_deadline, by
 *	@tc (in cycles, at most BLKGEN_REBASE_NS past its base): an I/O
 *	completing before it counts in the open interval as it is
 */
struct blkgen_wl_run {
	struct blkgen_workload *wl;
	struct blkgen_worker *w;
	struct blkgen_stream stream;
	struct blkgen_stats *stats;
	struct blkgen_slot **slots;
	unsigned int nr_slots;
	u64 quota;
	u64 t_measure;
	u64 t_deadline;
	u64 t_start;
	bool plain;
	u64 ival_end;
	bool record;
	bool open;
	bool issuing;
	struct blkgen_arrivals arr;
	struct blkgen_slot **free;
	unsigned int free_head;
	unsigned int nr_free;
	unsigned int errors_in_row;
	unsigned int polled_inflight;
	unsigned int poll_next;
	bool poll_all;
	blk_opf_t opf;
	blk_opf_t wopf;
	bool verify;
	bool pass;
	u64 pass_end;
	u32 replay;
	bool have_rec;
	struct blkgen_trace_rec rec;
	u64 rec_due;
	bool zoned;
	bool zstuck;
	struct blkgen_zrun zr;
	bool fast;
	blk_opf_t fopf[2];
	bio_end_io_t *end_io;
	struct block_device *bdev;
	struct blkgen_tclock tc;
	bool cycles;
	u64 c_measure;
	u64 c_deadline;
	u64 ival_lim;
};

/**
 * struct blkgen_worker - one kthread of a running job
 * @done: completed slots, pushed by end_io (the only cross-CPU write)
 * @task: the kthread; a reference is held until the worker is freed
 * @sleeping: the worker may sleep waiting for @done: end_io wakes it
 *	only then (on the line end_io writes anyway)
 * @job: the job
 * @index: position in job->workers
 * @cpu: the CPU the kthread is bound to
 * @inflight: slots submitted and not yet accounted (also those to retry)
 * @polled_inflight: polled I/Os submitted and not yet popped from done
 * @open: some workload runs open loop
 * @replay: some workload replays a trace
 * @fast: every workload it serves takes the fast path (@run's @fast)
 * @spin_ns: spin_us at start, in ns
 * @retry: slots to submit again, oldest first: polled ones refused with
 *	BLK_STS_AGAIN, parked ones and reaped ones queued behind those
 * @retry_tail: where the next one goes on @retry
 * @nr_retry: slots on @retry
 * @nr_parked: parked slots on @retry
 * @park_ns: the next sleep while only parked slots wait
 * @t_first: ktime ns of the first I/O issued, 0 before it
 * @t_last: ktime ns when the last I/O was accounted, 0 before
 * @drained: completed when the worker has accounted its last I/O
 * @nr_wl: entries in @run and @stats
 * @run: per workload state
 * @stats: per workload results, kept after the run for sysfs; NULL for a
 *	workload this worker holds no slots for
 */
struct blkgen_worker {
	struct llist_head done;
	struct task_struct *task;
	bool sleeping;
	struct blkgen_job *job ____cacheline_aligned_in_smp;
	unsigned int index;
	unsigned int cpu;
	unsigned int inflight;
	unsigned int polled_inflight;
	bool open;
	bool replay;
	bool fast;
	u64 spin_ns;
	struct llist_node *retry;
	struct llist_node **retry_tail;
	unsigned int nr_retry;
	unsigned int nr_parked;
	u64 park_ns;
	u64 t_first;
	u64 t_last;
	struct completion drained;
	unsigned int nr_wl;
	struct blkgen_wl_run *run;
	struct blkgen_stats **stats;
};

/*
 * The slot belongs to the worker again from llist_add on, and the run may
 * then end: nothing of it is touched after that but the worker's first
 * line (@sleeping, @task), which finish_work frees (and drops the task
 * of) only after an RCU grace period that began after this read-side
 * section: an RCU-sched one, preemption off, which synchronize_rcu()
 * waits for as for any (a preemptible kernel's rcu_read_lock() is two
 * calls out of line, per I/O).
 *
 * A wake-up is needed when the list was empty and the worker may sleep:
 * llist_add() is a full barrier before the look at @sleeping, as
 * blkgen_worker_wait() sets it before its look at the list, so one of the
 * two sees the other. Seen set, the wake-up is ordered with the worker's
 * task state as any (set_current_state() against try_to_wake_up()).
 */
static void blkgen_end_io(struct bio *bio)
{
	struct blkgen_slot *s = container_of(bio, struct blkgen_slot, bio);
	struct blkgen_worker *w = s->w;

	rcu_read_lock_sched();
	if (likely(s->stamp))
		s->end_ns = ktime_get_ns();
	s->status = bio->bi_status;
	if (llist_add(&s->node, &w->done) && READ_ONCE(w->sleeping))
		wake_up_process(w->task);
	rcu_read_unlock_sched();
}

/*
 * The fast path's (blkgen_reap_fast()): a stamp @t, always, and no copy
 * of the status, which the worker reads from the bio (intact until its
 * bio_reset()). As blkgen_end_io() otherwise.
 */
static __always_inline void blkgen_end_io_at(struct bio *bio, u64 t)
{
	struct blkgen_slot *s = container_of(bio, struct blkgen_slot, bio);
	struct blkgen_worker *w = s->w;

	rcu_read_lock_sched();
	s->end_ns = t;
	if (llist_add(&s->node, &w->done) && READ_ONCE(w->sleeping))
		wake_up_process(w->task);
	rcu_read_unlock_sched();
}

static void blkgen_end_io_fast(struct bio *bio)
{
	blkgen_end_io_at(bio, ktime_get_ns());
}

/* Stamping in cycles (the run's @cycles). */
static void blkgen_end_io_cycles(struct bio *bio)
{
	blkgen_end_io_at(bio, blkgen_cycles());
}

/* Queue a slot at the end of the retry queue. */
static void blkgen_retry_add(struct blkgen_worker *w, struct blkgen_slot *s)
{
	s->node.next = NULL;
	*w->retry_tail = &s->node;
	w->retry_tail = &s->node.next;
	w->nr_retry++;
}

/* (Re)build the slot's bio from sector, opf and size, and submit it. */
static __always_inline void blkgen_submit(struct blkgen_wl_run *r,
					  struct blkgen_slot *s)
{
	struct page **pages = s->write ? s->pages : s->rpages;
	unsigned int i, left, len;

	bio_reset(&s->bio, r->wl->dev.bdev, s->opf);
	s->bio.bi_iter.bi_sector = s->sector;
	/* bio_reset() leaves 0, a real queue: poll nothing until started. */
	s->bio.bi_cookie = BLK_QC_T_NONE;
	s->bio.bi_end_io = blkgen_end_io;
	for (i = 0, left = s->size; left; i++, left -= len) {
		len = min_t(unsigned int, left, PAGE_SIZE);
		__bio_add_page(&s->bio, pages[i], len, 0);
	}
	if (s->opf & REQ_POLLED) {
		r->polled_inflight++;
		r->w->polled_inflight++;
	}
	submit_bio(&s->bio);
}

/* Replay: the I/O of the record in @r->rec, counted if remapped or clipped. */
static __always_inline void blkgen_replay_choose(struct blkgen_wl_run *r,
						 struct blkgen_choice *c)
{
	unsigned int f = blkgen_replay_map(&r->wl->pattern, r->wl->lbs,
					   &r->rec, c);

	if (unlikely(f & BLKGEN_MAP_REMAPPED))
		r->stats->replay[0]++;
	if (unlikely(f & BLKGEN_MAP_CLIPPED))
		r->stats->replay[1]++;
}

/* The next I/O of a workload: its pattern, or the verify pass's next read. */
static void blkgen_choose(struct blkgen_wl_run *r, struct blkgen_choice *c)
{
	if (r->replay) {
		blkgen_replay_choose(r, c);
		return;
	}
	if (!r->pass) {
		blkgen_pattern_next(&r->wl->pattern, &r->stream, c);
		return;
	}
	c->write = false;
	c->offset = r->stream.next;
	c->size = min_t(u64, r->wl->pattern.max_size,
			r->pass_end - r->stream.next);
	r->stream.next += c->size;
}

/*
 * Verify: hold the I/O's blocks. Another I/O holding one of them, draw
 * again (a few times): two I/Os never overlap, so a read never sees a
 * write half done and writes commit in order. False if none was free.
 */
static bool blkgen_vhold(struct blkgen_wl_run *r, struct blkgen_slot *s,
			 struct blkgen_choice *c)
{
	unsigned int tries;

	for (tries = 0; tries < 8; tries++) {
		if (blkgen_verify_hold(&r->wl->vt, c->offset, c->size,
				       &s->vblk, &s->vnr)) {
			s->vheld = true;
			return true;
		}
		/*
		 * A zoned write waits for its place (reserved at a write
		 * pointer, or in a conventional zone): the mix stays the
		 * pattern's.
		 */
		if (r->pass || (r->zoned && c->write))
			break;
		blkgen_pattern_next(&r->wl->pattern, &r->stream, c);
		/* A zoned read stays a read, placed below a write pointer. */
		if (r->zoned) {
			c->write = false;
			blkgen_zoned_read(r->wl, &r->zr, c);
		}
	}
	return false;
}

/* Fill the slot's I/O from a choice (opf, sector, size, direction). */
static __always_inline void blkgen_set_io(struct blkgen_wl_run *r,
					  struct blkgen_slot *s,
					  const struct blkgen_choice *c)
{
	/*
	 * Writes are flagged as O_DIRECT's are (REQ_SYNC | REQ_IDLE), so
	 * writeback throttling leaves them alone: it would cap them at a few
	 * in flight and, for polled ones, put the only task that can reap
	 * them to sleep.
	 */
	s->opf = r->opf | (c->write ? REQ_OP_WRITE | REQ_SYNC | REQ_IDLE |
			   r->wopf : REQ_OP_READ);
	s->sector = c->offset >> SECTOR_SHIFT;
	s->size = c->size;
	s->write = c->write;
}

/* blkgen_choose_submit() of a replay, a verify pass or a verified run. */
static noinline void blkgen_choose_submit_slow(struct blkgen_wl_run *r,
					       struct blkgen_slot *s)
{
	struct blkgen_choice c;

	if (s->zvwait) {
		c.write = true;
		c.offset = s->zoff;
		c.size = s->size;
		s->zvwait = false;
		goto hold;
	}
	if (s->zwait) {
		c.write = true;
		c.offset = s->zoff;
		c.size = s->size;
		s->zwait = false;
	} else {
		blkgen_choose(r, &c);
	}
	if (r->zoned && c.write) {
		if (blkgen_zoned_write(r->wl, &r->zr, &c,
				       blkgen_rng_next(&r->stream.rng),
				       &s->zone)) {
			r->zstuck = true;
			s->zwait = true;
			s->zoff = c.offset;
			s->size = c.size;
			goto park;
		}
	} else if (r->zoned && !r->pass) {
		blkgen_zoned_read(r->wl, &r->zr, &c);
	}
hold:
	if (r->verify && !blkgen_vhold(r, s, &c)) {
		/* A conventional zone's write is placed again, as drawn. */
		if (r->zoned && c.write) {
			s->zvwait = s->zone != BLKGEN_ZONE_NONE;
			s->zwait = !s->zvwait;
			s->zoff = c.offset;
			s->size = c.size;
		}
		goto park;
	}
	blkgen_set_io(r, s, &c);
	if (s->zone != BLKGEN_ZONE_NONE && r->wl->zd.append) {
		/* To the zone's start; the device says where it went. */
		s->opf = (s->opf & ~REQ_OP_MASK) | REQ_OP_ZONE_APPEND;
		s->zoff = c.offset;
		s->sector &= ~((1ULL << r->wl->zd.shift) - 1);
	}
	if (r->verify && c.write)
		blkgen_verify_stamp(&r->wl->vt, s->pages, s->vkey, s->vblk,
				    s->vnr);
	else if (r->verify)
		blkgen_verify_unstamp(&r->wl->vt, s->rpages, s->vnr);
	blkgen_submit(r, s);
	return;

park:
	/* Not in flight: blkgen_poll() must not poll its old bio. */
	WRITE_ONCE(s->bio.bi_cookie, BLK_QC_T_NONE);
	s->parked = true;
	blkgen_retry_add(r->w, s);
	r->w->nr_parked++;
}

/*
 * Choose the slot's I/O and submit it. With verify, an I/O whose blocks
 * are held by others waits on the retry queue (parked) and draws again
 * after the next reap. A plain workload's I/O (the pattern's, nothing
 * else) is chosen inline, its choice in registers.
 */
static __always_inline void blkgen_choose_submit(struct blkgen_wl_run *r,
						 struct blkgen_slot *s)
{
	struct blkgen_choice c;

	if (unlikely(!r->plain)) {
		blkgen_choose_submit_slow(r, s);
		return;
	}
	blkgen_pattern_next(&r->wl->pattern, &r->stream, &c);
	blkgen_set_io(r, s, &c);
	blkgen_submit(r, s);
}

/*
 * Submit the slot's next I/O, intended to start at @start; false if the
 * run no longer issues. Closed loop, @start is @now, read per I/O just
 * before its bio is built, as fio stamps each io_u: one stamp for a whole
 * batch would charge an I/O with the time spent building the others
 * (measured: +14% at depth 8 against blktrace's Q2C in the VM). Open
 * loop, @start is the scheduled arrival, so time spent waiting for a slot
 * or for the worker counts (no coordinated omission).
 */
static __always_inline bool blkgen_issue_at(struct blkgen_wl_run *r,
					    struct blkgen_slot *s,
					    u64 start, u64 now)
{
	if (READ_ONCE(r->w->job->stop) || now >= r->t_deadline)
		return false;
	if (r->pass && r->stream.next >= r->pass_end)
		return false;
	s->measured = start >= r->t_measure;
	if (s->measured) {
		if (!r->quota)
			return false;
		if (r->quota != U64_MAX)
			r->quota--;
	}

	s->stamp = r->record;
	s->end_ns = start;
	s->inflight = true;
	s->start_ns = start;
	s->submit_ns = now;
	if (unlikely(!r->w->t_first))
		WRITE_ONCE(r->w->t_first, now);
	r->w->inflight++;
	blkgen_choose_submit(r, s);
	return true;
}

static bool blkgen_issue(struct blkgen_wl_run *r, struct blkgen_slot *s)
{
	u64 now = ktime_get_ns();

	return blkgen_issue_at(r, s, now, now);
}

static void blkgen_free_push(struct blkgen_wl_run *r, struct blkgen_slot *s,
			     u64 t)
{
	unsigned int i = r->free_head + r->nr_free++;

	if (i >= r->nr_slots)	/* a ring, without a division per I/O */
		i -= r->nr_slots;
	s->free_ns = t;
	r->free[i] = s;
}

/*
 * Replay: the next record from the ring and when it is due (as fast as
 * possible: now). False while the ring is empty, and at the end of the
 * trace, which ends the workload's issuing; a write the workload may not
 * make fails the run before it is issued.
 */
static bool blkgen_replay_next(struct blkgen_wl_run *r, u64 now)
{
	struct blkgen_workload *wl = r->wl;

	if (!r->have_rec) {
		if (!blkgen_replay_peek(&wl->rp, &r->rec))
			return false;
		r->have_rec = true;
		/* As fast as possible: due now, below. */
		if (r->replay != BLKGEN_REPLAY_AFAP)
			r->rec_due = blkgen_replay_due(r->t_start,
						       r->rec.t_ns,
						       wl->replay_speed);
	}
	if (r->rec.op == BLKGEN_TRACE_END) {
		r->issuing = false;
		return false;
	}
	if (r->rec.op == BLKGEN_TRACE_WRITE && !wl->allow_write) {
		blkgen_job_fail(r->w->job,
				"%s: the trace writes (record %llu) but allow_write is 0",
				blkgen_wl_name(wl),
				(unsigned long long)wl->rp.head + 1);
		r->issuing = false;
		return false;
	}
	if (r->replay == BLKGEN_REPLAY_AFAP)
		r->rec_due = now;
	return true;
}

/* Replay: the record just issued is taken from the ring. */
static void blkgen_replay_advance(struct blkgen_wl_run *r)
{
	struct blkgen_replay *rp = &r->wl->rp;
	u64 head = rp->head + 1;

	r->have_rec = false;
	/* The record read before the writer may reuse its place. */
	smp_store_release(&rp->head, head);
	/* A writer waits only on a full ring: wake it at the half. */
	if (READ_ONCE(rp->tail) - head == rp->cap / 2)
		blkgen_replay_consumed(rp);
}

/* The next arrival's time (open loop or replay), U64_MAX if none yet. */
static u64 blkgen_next_arrival(struct blkgen_wl_run *r, u64 now)
{
	if (!r->replay)
		return r->arr.next_ns;
	return blkgen_replay_next(r, now) ? r->rec_due : U64_MAX;
}

/*
 * Open loop: issue every arrival that is due while a slot is free. An
 * arrival is late when even the oldest free slot freed after it was due:
 * at its time every slot was busy, and its latency includes the wait.
 */
static void blkgen_dispatch(struct blkgen_wl_run *r)
{
	struct blkgen_stats *st = r->stats;
	struct blkgen_slot *s;
	u64 now, due;

	while (r->issuing && r->nr_free) {
		now = ktime_get_ns();
		due = blkgen_next_arrival(r, now);
		if (due > now)
			return;
		s = r->free[r->free_head];
		if (!blkgen_issue_at(r, s, due, now)) {
			r->issuing = false;
			return;
		}
		if (++r->free_head == r->nr_slots)
			r->free_head = 0;
		r->nr_free--;
		if (s->measured && r->replay != BLKGEN_REPLAY_AFAP) {
			if (s->free_ns > due)
				st->late_ios++;
			if (now - due > st->max_lag_ns)
				st->max_lag_ns = now - due;
		}
		if (r->replay)
			blkgen_replay_advance(r);
		else
			blkgen_arrivals_advance(&r->arr);
	}
}

/* Close the open interval and every empty one up to the one holding @t. */
static void blkgen_ival_advance(struct blkgen_wl_run *r, u64 t)
{
	struct blkgen_job *job = r->w->job;
	struct blkgen_stats *st = r->stats;
	u64 behind;

	behind = div64_u64(t - r->ival_end, job->interval_ns) + 1;
	if (behind > st->ival_cap) {
		/* Skip what the ring could not hold anyway. */
		st->ival_cur += behind - st->ival_cap;
		r->ival_end += (behind - st->ival_cap) * job->interval_ns;
		memset(&st->ival_open, 0, sizeof(st->ival_open));
	}
	while (t >= r->ival_end) {
		st->ival_open.start_ms = st->ival_cur * job->interval_ms;
		st->ival_open.length_ms = job->interval_ms;
		*blkgen_ival_slot(st, st->ival_cur) = st->ival_open;
		smp_wmb();	/* the record before the index that shows it */
		WRITE_ONCE(st->ival_cur, st->ival_cur + 1);
		/* Readers of the open interval look at the ring from now on. */
		memset(&st->ival_open, 0, sizeof(st->ival_open));
		r->ival_end += job->interval_ns;
	}
}

/* The interval an I/O completing at @end counts in. */
static struct blkgen_interval *blkgen_ival(struct blkgen_wl_run *r, u64 end)
{
	u64 deadline = r->t_deadline;

	/* Drained after the window: counted in its last interval. */
	if (end >= deadline)
		end = deadline - 1;
	if (unlikely(end >= r->ival_end))
		blkgen_ival_advance(r, end);
	return &r->stats->ival_open;
}

/*
 * Verify: check a read, commit a write, and let go of the blocks. True if
 * a zone append landed elsewhere than its place (the zone's write pointer
 * is to be read again).
 */
static bool blkgen_vdone(struct blkgen_wl_run *r, struct blkgen_slot *s)
{
	struct blkgen_vtable *vt = &r->wl->vt;

	s->vheld = false;
	if (s->write) {
		/* An append's place: the sector the device wrote it to. */
		if (s->zone != BLKGEN_ZONE_NONE && r->wl->zd.append &&
		    s->status == BLK_STS_OK &&
		    s->bio.bi_iter.bi_sector != s->zoff >> SECTOR_SHIFT) {
			blkgen_verify_append_moved(r->wl, s->vblk, s->vnr,
						   s->bio.bi_iter.bi_sector,
						   r->stats->verify);
			return true;
		}
		blkgen_verify_commit(vt, s->vblk, s->vnr,
				     s->status == BLK_STS_OK);
		return false;
	}
	if (s->status == BLK_STS_OK)
		blkgen_verify_check(r->wl, s->rpages, s->vblk, s->vnr,
				    r->stats->verify);
	blkgen_verify_release(vt, s->vblk, s->vnr);
	return false;
}

static void blkgen_account(struct blkgen_wl_run *r, struct blkgen_slot *s)
{
	struct blkgen_stats *st = r->stats;
	struct blkgen_interval *iv;
	u64 lat, end;
	bool wr, moved = false;
	u32 size;

	s->inflight = false;
	r->w->inflight--;
	if (s->vheld)
		moved = blkgen_vdone(r, s);
	if (s->zone != BLKGEN_ZONE_NONE) {
		/* A moved append: the device's write pointer is the truth. */
		blkgen_zoned_done(r->wl, &r->zr, s->zone, s->size,
				  s->status == BLK_STS_OK && !moved);
		s->zone = BLKGEN_ZONE_NONE;
	}
	if (unlikely(s->status != BLK_STS_OK)) {
		if (s->measured) {
			st->errors++;
			blkgen_ival(r, s->end_ns)->errors++;
		}
		if (++r->errors_in_row == BLKGEN_MAX_ERRORS) {
			int err = blk_status_to_errno(s->status);

			struct blkgen_workload *wl = r->wl;

			blkgen_job_fail(r->w->job,
					"%s: %s: %d I/O errors in a row (last %s)",
					blkgen_wl_name(wl),
					wl->device, BLKGEN_MAX_ERRORS,
					blkgen_errno_name(err));
		}
		return;
	}
	r->errors_in_row = 0;
	if (!s->measured)
		return;
	/* Read once: the stores below may alias them for the compiler. */
	wr = s->write;
	size = s->size;
	end = s->end_ns;
	st->ios[wr]++;
	st->bytes[wr] += size;
	/* Without a completion stamp end_ns is the start: counts only. */
	iv = blkgen_ival(r, end);
	iv->ios[wr]++;
	iv->bytes[wr] += size;
	if (!s->stamp)
		return;
	lat = end - s->start_ns;
	blkgen_hist_record(&st->lat[wr], lat);
	if (!st->svc_in_lat)
		blkgen_hist_record(&st->svc[wr], end - s->submit_ns);
	iv->lat_sum_ns[wr] += lat;
	if (lat > iv->lat_max_ns[wr])
		iv->lat_max_ns[wr] = lat;
}

/*
 * Open loop, end of the run: arrivals of the measured window that were
 * never issued (the device or the worker fell behind for good) lag by at
 * least the time from the first of them to the end. Count that in
 * max_lag_ns, so that a run which never caught up does not report a small
 * lag, or none when every I/O it issued was due before the window.
 */
static void blkgen_backlog(struct blkgen_worker *w)
{
	struct blkgen_job *job = w->job;
	u64 now = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];
		u64 end = min(now, r->t_deadline);
		u64 due;

		if (!r->open || !r->quota || r->replay == BLKGEN_REPLAY_AFAP)
			continue;
		/* A replay's next record, if one waited for a slot. */
		if (r->replay && !r->have_rec &&
		    blkgen_replay_peek(&r->wl->rp, &r->rec)) {
			r->have_rec = true;
			r->rec_due = blkgen_replay_due(job->t_start,
						       r->rec.t_ns,
						       r->wl->replay_speed);
		}
		if (r->replay && (!r->have_rec ||
				  r->rec.op == BLKGEN_TRACE_END))
			continue;
		due = max(r->replay ? r->rec_due : r->arr.next_ns,
			  r->t_measure);
		if (due >= end)
			continue;
		if (end - due > r->stats->max_lag_ns)
			r->stats->max_lag_ns = end - due;
	}
}

/*
 * End of the run for this worker: close the open interval, shortened to
 * the end of the measured window (or now, if the run stopped earlier).
 */
static void blkgen_ival_finish(struct blkgen_worker *w)
{
	struct blkgen_job *job = w->job;
	u64 now = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];
		struct blkgen_stats *st = r->stats;
		/* The times this worker ran by (blkgen_ival() takes them). */
		u64 end = min(now, r->t_deadline);
		u64 start;

		if (!st || end <= r->t_measure)
			continue;
		blkgen_ival(r, end - 1);
		start = r->ival_end - job->interval_ns;
		st->ival_open.start_ms = st->ival_cur * job->interval_ms;
		st->ival_open.length_ms = DIV_ROUND_UP_ULL(end - start,
							   NSEC_PER_MSEC);
		*blkgen_ival_slot(st, st->ival_cur) = st->ival_open;
		smp_wmb();	/* as in blkgen_ival_advance() */
		WRITE_ONCE(st->ival_cur, st->ival_cur + 1);
		/* Counted in the ring now; a reader must not add it again. */
		memset(&st->ival_open, 0, sizeof(st->ival_open));
	}
}

/* Some open-loop workload of this worker may still issue. */
static bool blkgen_issuing(struct blkgen_worker *w)
{
	unsigned int i;

	for (i = 0; w->open && i < w->nr_wl; i++)
		if (w->run[i].open && w->run[i].issuing)
			return true;
	return false;
}

/*
 * The earliest time an open-loop workload of this worker has an arrival
 * to issue on a free slot (or its deadline), U64_MAX if none.
 */
static u64 blkgen_next_due(struct blkgen_worker *w)
{
	u64 due = U64_MAX;
	unsigned int i;
	u64 now = w->replay ? ktime_get_ns() : 0;
	bool issuing = false;

	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		issuing |= r->open && r->issuing;
		if (r->open && r->issuing && r->nr_free)
			due = min(due, blkgen_next_arrival(r, now));
	}
	/*
	 * The deadline ends the issuing, also with no arrival known yet (a
	 * replay's empty ring); once nothing issues, only completions wake
	 * us (a deadline in the past would make the drain spin).
	 */
	return issuing ? min(due, w->job->t_deadline) : due;
}

/*
 * Reap polled completions. On a blk-mq device one bio_poll() per polled
 * workload is enough: the worker is bound to one CPU, so all its I/O of a
 * workload went to the one poll queue that CPU maps to, and polling it
 * completes all of them (their end_io runs here, pushing them onto the
 * done list). A bio-based device (dm) completes only the bio it is
 * handed: poll each. The next round starts after the slot just polled.
 */
static void blkgen_poll(struct blkgen_worker *w)
{
	unsigned int i, j, k;

	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		if (!r->polled_inflight)
			continue;
		j = r->poll_next;
		for (k = 0; k < r->nr_slots; k++) {
			struct blkgen_slot *s = r->slots[j];

			if (++j == r->nr_slots)
				j = 0;
			if (s->inflight &&
			    READ_ONCE(s->bio.bi_cookie) != BLK_QC_T_NONE) {
				bio_poll(&s->bio, NULL, BLK_POLL_ONESHOT);
				if (!r->poll_all)
					break;
			}
		}
		r->poll_next = j;
	}
}

/*
 * Nothing completed yet: wait for the next arrival (spinning when it is
 * close, else an absolute hrtimer sleep), or sleep until end_io (or stop)
 * wakes us. With polled I/O in flight or slots to retry, nothing would
 * wake us: return at once, the main loop polls or retries again. Parked
 * slots alone (verify) are looked at again after a sleep, not in a spin:
 * on a hung device their blocks stay held for good.
 */
static void blkgen_worker_wait(struct blkgen_worker *w)
{
	u64 due = w->open ? blkgen_next_due(w) : U64_MAX;
	u64 wake = U64_MAX;

	if (w->polled_inflight || w->nr_retry > w->nr_parked)
		return;
	/* Only parked slots to retry: look at them again after park_ns. */
	if (w->nr_parked)
		wake = ktime_get_ns() + w->park_ns;
	if (due != U64_MAX) {
		u64 now = ktime_get_ns();

		if (due <= now)
			return;
		if (due - now <= w->spin_ns && due <= wake) {
			while (ktime_get_ns() < due && llist_empty(&w->done) &&
			       !READ_ONCE(w->job->stop) && !need_resched())
				cpu_relax();
			return;
		}
	}

	/*
	 * From here end_io wakes us: the flag is seen before the look at
	 * the list below (set_current_state() is a full barrier).
	 */
	WRITE_ONCE(w->sleeping, true);
	set_current_state(TASK_INTERRUPTIBLE);
	/*
	 * Records written since are seen after the barrier of
	 * set_current_state(), or the writer's wake-up is.
	 */
	if (w->replay)
		due = blkgen_next_due(w);
	/*
	 * Nothing in flight and nothing left to issue (a replay's end record
	 * just taken, after its last I/O completed): the run is over for us,
	 * and nothing would wake us for a second.
	 */
	if (due <= ktime_get_ns() || (!w->inflight && !blkgen_issuing(w))) {
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(w->sleeping, false);
		return;
	}
	due = min(due, wake);
	if (llist_empty(&w->done) && !READ_ONCE(w->job->stop)) {
		if (due != U64_MAX) {
			ktime_t expires = ns_to_ktime(due);

			/*
			 * The park time ran out with nothing completed here:
			 * the blocks are another worker's (or a slow
			 * device's), the next look comes later.
			 */
			if (!schedule_hrtimeout_range(&expires,
						      BLKGEN_SLACK_NS,
						      HRTIMER_MODE_ABS) &&
			    due == wake)
				w->park_ns = min_t(u64, w->park_ns * 2,
						   BLKGEN_PARK_MAX_NS);
		} else {
			schedule_timeout(HZ);
		}
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(w->sleeping, false);
}

/* A slot that will not be submitted again (the run stops): hand it back. */
static void blkgen_unissue(struct blkgen_wl_run *r, struct blkgen_slot *s)
{
	if (s->vheld) {
		/*
		 * A write refused with EAGAIN may have reached the device in
		 * part (a bio-based device splits it): its blocks are unknown.
		 */
		if (s->write)
			blkgen_verify_commit(&r->wl->vt, s->vblk, s->vnr,
					     false);
		else
			blkgen_verify_release(&r->wl->vt, s->vblk, s->vnr);
		s->vheld = false;
	}
	s->zwait = false;
	s->zvwait = false;
	/* Refused before it reached the device (EAGAIN): its room back. */
	if (s->zone != BLKGEN_ZONE_NONE) {
		blkgen_zoned_done(r->wl, &r->zr, s->zone, s->size, false);
		s->zone = BLKGEN_ZONE_NONE;
	}
	s->inflight = false;
	r->w->inflight--;
	if (r->open)
		blkgen_free_push(r, s, ktime_get_ns());
}

/*
 * Serve the retry queue in order: submit again the polled I/Os that found
 * no free tag, draw again for parked ones, issue the reaped slots queued
 * behind them. Refused I/Os keep their offset, size and intended start
 * (the wait is in their latency). A polled I/O refused for
 * BLKGEN_AGAIN_NS (a queue frozen for good, or one I/O that never gets a
 * tag while others do) fails the run.
 */
static void blkgen_retry(struct blkgen_worker *w)
{
	struct llist_node *n = w->retry;
	struct blkgen_slot *s;
	unsigned int i;
	u64 now = ktime_get_ns();

	w->retry = NULL;
	w->retry_tail = &w->retry;
	w->nr_retry = 0;
	w->nr_parked = 0;
	for (i = 0; i < w->nr_wl; i++)
		w->run[i].zstuck = false;
	while (n) {
		struct blkgen_wl_run *r;

		s = llist_entry(n, struct blkgen_slot, node);
		r = s->run;
		n = n->next;
		if (s->queued) {
			s->queued = false;
			blkgen_issue(r, s);
			continue;
		}
		if (s->parked) {
			s->parked = false;
			/* Past the deadline it would wait on: never issued. */
			if (READ_ONCE(w->job->stop) || now >= r->t_deadline) {
				blkgen_unissue(r, s);
			} else if (r->zstuck && !s->zvwait) {
				s->parked = true;
				blkgen_retry_add(w, s);
				w->nr_parked++;
			} else {
				blkgen_choose_submit(r, s);
			}
			if (!s->parked)
				w->park_ns = BLKGEN_PARK_MIN_NS;
			continue;
		}
		if (!s->again_ns) {
			s->again_ns = now;
		} else if (now - s->again_ns > BLKGEN_AGAIN_NS) {
			blkgen_job_fail(w->job,
					"%s: %s: a polled I/O was refused for %llu s (EAGAIN)",
					blkgen_wl_name(r->wl),
					r->wl->device,
					BLKGEN_AGAIN_NS / NSEC_PER_SEC);
		}
		if (READ_ONCE(w->job->stop))
			blkgen_unissue(r, s);
		else
			blkgen_submit(r, s);
	}
}

/*
 * Account what completed and reuse the slots; while I/Os wait on the
 * retry queue, a reaped slot's next I/O waits behind them.
 */
static void blkgen_reap(struct blkgen_worker *w, struct llist_node *list)
{
	struct blkgen_slot *s, *tmp;

	list = llist_reverse_order(list);
	llist_for_each_entry_safe(s, tmp, list, node) {
		struct blkgen_wl_run *r = s->run;

		if (s->opf & REQ_POLLED) {
			r->polled_inflight--;
			w->polled_inflight--;
			if (unlikely(s->status == BLK_STS_AGAIN)) {
				blkgen_retry_add(w, s);
				continue;
			}
			s->again_ns = 0;
		}
		blkgen_account(r, s);
		if (r->open) {
			blkgen_free_push(r, s, s->stamp ? s->end_ns :
					 ktime_get_ns());
		} else if (w->retry) {
			s->queued = true;
			blkgen_retry_add(w, s);
		} else {
			blkgen_issue(r, s);
		}
	}
}

/*
 * The closed loop's fast path: a workload with @fast set draws, submits
 * and accounts its I/O here, inline, with none of the tests for what it
 * does not do (open loop, polling, verify, zones, io_limit, sizes and
 * distributions). A replay as fast as possible is a closed loop whose
 * I/O comes from the trace: a reaped slot takes the next record at once;
 * one that finds the ring empty goes on the free ring, and
 * blkgen_dispatch_fast() gives it the next record when the writer has
 * added some. The I/O, its stamps and what is counted are those of
 * blkgen_reap(), blkgen_issue() (blkgen_dispatch() for a replay) and
 * blkgen_account(), which it falls back to for the rare cases: a failed
 * I/O, one completing at or after @ival_lim. Its stamps are by the run's
 * clock (@tc, in cycles where @cycles): a latency is their difference
 * scaled, the deadline, measured window and interval end are compared in
 * cycles too.
 */

/* The base of a clock in cycles is taken again at least this often. */
#define BLKGEN_REBASE_NS	(100 * NSEC_PER_MSEC)

/* Now, by the run's clock (inlined: a call per I/O otherwise). */
static __always_inline u64 blkgen_fast_now(struct blkgen_wl_run *r)
{
	return r->cycles ? blkgen_cycles() : ktime_get_ns();
}

/* A TSC found unstable (by the clocksource watchdog) voids the run. */
static void blkgen_fast_check(struct blkgen_wl_run *r)
{
	if (r->cycles && unlikely(blkgen_cycles_unstable()))
		blkgen_job_fail(r->w->job,
				"%s: the TSC the run stamps with was found unstable: its latencies are void",
				blkgen_wl_name(r->wl));
}

/*
 * The run's times by its clock, from a new base. In cycles, @ival_lim is
 * at most BLKGEN_REBASE_NS ahead, so that the next I/O past it brings a
 * new base: the two clocks (the TSC's calibrated rate, ktime's corrected
 * by NTP, within 500 ppm) part by at most 50 us before they are paired
 * again, in warmup as in any interval.
 */
static void blkgen_fast_times(struct blkgen_wl_run *r)
{
	unsigned long flags;
	u64 ns, c, lim = U64_MAX;

	if (r->cycles) {
		blkgen_fast_check(r);
		local_irq_save(flags);
		ns = ktime_get_ns();
		c = blkgen_cycles();
		local_irq_restore(flags);
		blkgen_tclock_base(&r->tc, ns, c);
		lim = blkgen_tclock_from_ns(&r->tc, ns + BLKGEN_REBASE_NS);
	}
	r->c_measure = blkgen_tclock_from_ns(&r->tc, r->t_measure);
	r->c_deadline = blkgen_tclock_from_ns(&r->tc, r->t_deadline);
	r->ival_lim = min(lim, blkgen_tclock_from_ns(&r->tc,
						     min(r->ival_end,
							 r->t_deadline)));
}

/* A failed I/O, or one completing at or past @ival_lim: blkgen_account(). */
static noinline void blkgen_account_slow(struct blkgen_wl_run *r,
					 struct blkgen_slot *s)
{
	u64 ival_end = r->ival_end, end = s->end_ns;

	s->status = s->bio.bi_status;
	s->start_ns = blkgen_tclock_to_ns(&r->tc, s->start_ns);
	s->end_ns = blkgen_tclock_to_ns(&r->tc, end);
	blkgen_account(r, s);
	/* A new interval, or the clocks to pair again: a new base. */
	if (r->ival_end != ival_end || end >= r->ival_lim)
		blkgen_fast_times(r);
	/* In flight again, unless the caller finds the run over. */
	s->inflight = true;
	r->w->inflight++;
}

/* Submit the slot's I/O (@wr, at byte @off, @s->size), started at @now. */
static __always_inline void blkgen_submit_fast(struct blkgen_wl_run *r,
					       struct blkgen_slot *s, u64 now,
					       bool wr, u64 off)
{
	struct bio *bio = &s->bio;
	unsigned int i, left;

	s->measured = now >= r->c_measure;
	s->start_ns = now;
	if (!r->record)
		s->end_ns = now;
	s->write = wr;
	bio_reset(bio, r->bdev, r->fopf[wr]);
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	bio->bi_end_io = r->end_io;
	left = s->size;
	if (likely(left <= PAGE_SIZE)) {
		__bio_add_page(bio, s->pages[0], left, 0);
	} else {
		for (i = 0; left > PAGE_SIZE; i++, left -= PAGE_SIZE)
			__bio_add_page(bio, s->pages[i], PAGE_SIZE, 0);
		__bio_add_page(bio, s->pages[i], left, 0);
	}
	submit_bio(bio);
}

/* Draw the slot's next I/O and submit it, started at @now (run's clock). */
static __always_inline void blkgen_issue_fast(struct blkgen_wl_run *r,
					      struct blkgen_slot *s, u64 now)
{
	u64 off;
	bool wr = blkgen_pattern_fast(&r->wl->pattern, &r->stream, &off);

	blkgen_submit_fast(r, s, now, wr, off);
}

/*
 * A replay as fast as possible: the trace's next record, taken from the
 * ring, into the slot, submitted at @now. False if there is none yet (the
 * ring is empty), or none to come (the trace ended, or the run failed on
 * a write it may not make): the slot is not in flight.
 */
static __always_inline bool blkgen_replay_fast(struct blkgen_wl_run *r,
					       struct blkgen_slot *s, u64 now)
{
	struct blkgen_choice c;

	if (unlikely(!blkgen_replay_next(r, 0)))
		return false;
	blkgen_replay_choose(r, &c);
	blkgen_replay_advance(r);
	s->size = c.size;
	blkgen_submit_fast(r, s, now, c.write, c.offset);
	return true;
}

/*
 * blkgen_dispatch() of a fast replay: a record for every free slot, while
 * the ring has them (the writer wakes us when it adds some).
 */
static void blkgen_dispatch_fast(struct blkgen_wl_run *r)
{
	struct blkgen_worker *w = r->w;
	struct blkgen_slot *s;
	u64 now;

	while (r->issuing && r->nr_free) {
		now = blkgen_fast_now(r);
		/*
		 * Nothing may have completed for long (the ring was empty):
		 * a new base, as a completion past @ival_lim would take.
		 */
		if (unlikely(now >= r->ival_lim)) {
			blkgen_fast_times(r);
			now = blkgen_fast_now(r);
		}
		if (READ_ONCE(w->job->stop) || now >= r->c_deadline) {
			r->issuing = false;
			return;
		}
		s = r->free[r->free_head];
		s->stamp = r->record;
		if (!blkgen_replay_fast(r, s, now))
			return;
		if (unlikely(!w->t_first))
			WRITE_ONCE(w->t_first, ktime_get_ns());
		s->inflight = true;
		w->inflight++;
		if (++r->free_head == r->nr_slots)
			r->free_head = 0;
		r->nr_free--;
	}
}

/* The first I/O of every slot of a fast run, as blkgen_issue() would. */
static void blkgen_start_fast(struct blkgen_wl_run *r)
{
	struct blkgen_worker *w = r->w;
	unsigned int j;

	for (j = 0; j < r->nr_slots; j++) {
		struct blkgen_slot *s = r->slots[j];
		u64 now = blkgen_fast_now(r);

		if (READ_ONCE(w->job->stop) || now >= r->c_deadline)
			return;
		if (!w->t_first)
			WRITE_ONCE(w->t_first, ktime_get_ns());
		s->size = r->wl->pattern.bs.size[0];
		s->stamp = r->record;
		s->inflight = true;
		w->inflight++;
		blkgen_issue_fast(r, s, now);
	}
}

/*
 * An I/O of the measured window into the totals, its interval and its
 * latency histogram. @wr: its direction, a constant at each call (so
 * that a kernel built with UBSAN_BOUNDS, as Debian's 7.x are, checks no
 * index of the arrays per I/O: ten checks of a variable one were some 26
 * instructions an I/O).
 */
static __always_inline void blkgen_fast_count(struct blkgen_wl_run *r,
					      const struct blkgen_slot *s,
					      u64 end, const unsigned int wr)
{
	struct blkgen_stats *st = r->stats;
	struct blkgen_interval *iv = &st->ival_open;
	u32 size = s->size;

	st->ios[wr]++;
	st->bytes[wr] += size;
	iv->ios[wr]++;
	iv->bytes[wr] += size;
	if (likely(r->record)) {
		u64 lat = blkgen_tclock_lat(&r->tc, end - s->start_ns);

		blkgen_hist_record(&st->lat[wr], lat);
		iv->lat_sum_ns[wr] += lat;
		if (lat > iv->lat_max_ns[wr])
			iv->lat_max_ns[wr] = lat;
	}
}

/*
 * blkgen_reap() of a worker whose workloads all take the fast path;
 * @replay: some of them replay a trace (a constant: the closed loop's
 * copy has no test for it).
 */
static __always_inline void __blkgen_reap_fast(struct blkgen_worker *w,
					       struct llist_node *list,
					       const bool replay)
{
	const bool *stop = &w->job->stop;
	struct blkgen_slot *s, *tmp;

	/* In completion order: each I/O's interval is closed in turn. */
	list = llist_reverse_order(list);
	llist_for_each_entry_safe(s, tmp, list, node) {
		struct blkgen_wl_run *r = s->run;
		u64 end = s->end_ns, now;

		if (unlikely(s->bio.bi_status != BLK_STS_OK ||
			     end >= r->ival_lim)) {
			blkgen_account_slow(r, s);
		} else if (likely(s->measured)) {
			r->errors_in_row = 0;
			if (s->write)
				blkgen_fast_count(r, s, end, 1);
			else
				blkgen_fast_count(r, s, end, 0);
		} else {
			r->errors_in_row = 0;
		}
		now = blkgen_fast_now(r);
		if (unlikely(READ_ONCE(*stop) || now >= r->c_deadline)) {
			s->inflight = false;
			w->inflight--;
			continue;
		}
		if (!replay || !r->replay) {
			blkgen_issue_fast(r, s, now);
		} else if (unlikely(!r->issuing ||
				    !blkgen_replay_fast(r, s, now))) {
			/* blkgen_dispatch_fast() issues its next record. */
			s->inflight = false;
			w->inflight--;
			blkgen_free_push(r, s, 0);
		}
	}
}

static noinline void blkgen_reap_fast(struct blkgen_worker *w,
				      struct llist_node *list)
{
	__blkgen_reap_fast(w, list, false);
}

static noinline void blkgen_reap_fast_replay(struct blkgen_worker *w,
					     struct llist_node *list)
{
	__blkgen_reap_fast(w, list, true);
}

/* Open-loop workloads that may still issue. */
static bool blkgen_open_pending(struct blkgen_worker *w)
{
	u64 now = ktime_get_ns();
	unsigned int i;

	if (!w->open)
		return false;
	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		if (!r->open || !r->issuing)
			continue;
		if (READ_ONCE(w->job->stop) || now >= r->t_deadline ||
		    !r->quota)
			r->issuing = false;
		else
			return true;
	}
	return false;
}

/* Start a workload's arrival schedule: this worker's share of its rate. */
static void blkgen_worker_arrivals(struct blkgen_worker *w,
				   struct blkgen_wl_run *r, unsigned int i)
{
	struct blkgen_job *job = w->job;
	u32 active = min(r->wl->depth, job->nr_workers);

	/* Validated at start (blkgen_job_check_rate()); cannot fail here. */
	blkgen_arrivals_init(&r->arr, (enum blkgen_process)job->arrival,
			     job->rate_iops * r->wl->run_share,
			     (u64)BLKGEN_SHARE_ONE * active,
			     job->t_start, job->run_seed,
			     (u64)w->index << 32 | i, w->index, active);
	r->issuing = true;
}

static int blkgen_worker_fn(void *data)
{
	struct blkgen_worker *w = data;
	struct llist_node *list;
	struct blk_plug plug;
	unsigned int i, j;

	/* An armed run: the start timer (or a stop) wakes us. */
	for (;;) {
		set_current_state(TASK_IDLE);
		/* Pairs with the timer's release: the run's times are set. */
		if (!smp_load_acquire(&w->job->armed) ||
		    READ_ONCE(w->job->stop))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);

	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		r->t_measure = w->job->t_measure;
		r->t_deadline = w->job->t_deadline;
		r->t_start = w->job->t_start;
		r->ival_end = r->t_measure + w->job->interval_ns;
		if (r->replay) {
			/* The writers wake us: named in run_start. */
			r->issuing = true;
			for (j = 0; j < r->nr_slots; j++)
				blkgen_free_push(r, r->slots[j],
						 w->job->t_start);
		} else if (r->open) {
			blkgen_worker_arrivals(w, r, i);
			for (j = 0; j < r->nr_slots; j++)
				blkgen_free_push(r, r->slots[j],
						 w->job->t_start);
		}
	}

	/*
	 * Armed, the timer woke us BLKGEN_START_SPIN_NS before the start:
	 * ready, spin to it, so that the first I/O does not wait for a
	 * wake-up (tens of microseconds, far more in a VM whose vCPU must
	 * be scheduled). Another worker on this CPU takes its turns
	 * (sync/002: two jobs).
	 */
	while (ktime_get_ns() < READ_ONCE(w->job->t_start) &&
	       !READ_ONCE(w->job->stop)) {
		cpu_relax();
		cond_resched();
	}
	/*
	 * The base of the fast path's clock from now on: taken before the
	 * spin, the TSC projected to the measured window's start could be
	 * ahead of ktime by NTP's correction, and the first I/Os of a run
	 * without warmup counted as warmup.
	 */
	for (i = 0; i < w->nr_wl; i++)
		if (w->run[i].fast)
			blkgen_fast_times(&w->run[i]);

	blk_start_plug(&plug);
	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		if (r->open)
			continue;
		if (r->fast) {
			blkgen_start_fast(r);
			continue;
		}
		for (j = 0; j < r->nr_slots; j++)
			if (!blkgen_issue(r, r->slots[j]))
				break;
	}
	blk_finish_plug(&plug);

	while (w->inflight || blkgen_open_pending(w)) {
		if (w->polled_inflight)
			blkgen_poll(w);
		list = llist_del_all(&w->done);
		if (list || w->retry || w->open) {
			blk_start_plug(&plug);
			if (list && w->fast && w->replay)
				blkgen_reap_fast_replay(w, list);
			else if (list && w->fast)
				blkgen_reap_fast(w, list);
			else if (list)
				blkgen_reap(w, list);
			if (w->retry)
				blkgen_retry(w);
			for (i = 0; w->open && i < w->nr_wl; i++)
				if (w->run[i].fast && w->run[i].open)
					blkgen_dispatch_fast(&w->run[i]);
				else if (w->run[i].open)
					blkgen_dispatch(&w->run[i]);
			blk_finish_plug(&plug);
		}
		if (!list)
			blkgen_worker_wait(w);
		cond_resched();
	}

	if (w->t_first)
		WRITE_ONCE(w->t_last, ktime_get_ns());
	for (i = 0; i < w->nr_wl; i++)
		if (w->run[i].fast)
			blkgen_fast_check(&w->run[i]);
	blkgen_backlog(w);
	blkgen_ival_finish(w);
	for (i = 0; i < w->nr_wl; i++)
		if (w->run[i].zoned)
			blkgen_zoned_release(w->run[i].wl, &w->run[i].zr);
	for (i = 0; i < w->nr_wl; i++)
		if (w->run[i].replay && w->run[i].nr_slots)
			blkgen_replay_consumer(w->run[i].wl, NULL);
	complete_all(&w->drained);
	blkgen_job_worker_done(w->job);
	/* Stay until kthread_stop(): finish_work owns our teardown. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void blkgen_slot_free(struct blkgen_slot *s)
{
	unsigned int i;

	if (!s)
		return;
	bio_uninit(&s->bio);
	for (i = 0; i < s->nr_pages; i++)
		if (s->pages[i])
			__free_page(s->pages[i]);
	kfree(s->pages);
	kfree(s->vkey);
	kfree(s->bvec);
	kfree(s);
}

static struct blkgen_slot *blkgen_slot_alloc(struct blkgen_wl_run *r,
					     int node, struct blkgen_rng *fill)
{
	unsigned int nr = DIV_ROUND_UP(r->wl->pattern.max_size, PAGE_SIZE);
	/* Verified writes: reads go to pages of their own (@rpages). */
	bool vwrite = r->verify && !r->pass;
	unsigned int all = vwrite ? 2 * nr : nr;
	struct blkgen_slot *s;
	unsigned int i, k;

	s = kzalloc_node(sizeof(*s), GFP_KERNEL, node);
	if (!s)
		return NULL;
	s->run = r;
	s->w = r->w;
	s->zone = BLKGEN_ZONE_NONE;
	s->pages = kcalloc_node(all, sizeof(*s->pages), GFP_KERNEL, node);
	s->bvec = kcalloc_node(nr, sizeof(*s->bvec), GFP_KERNEL, node);
	bio_init(&s->bio, NULL, s->bvec, nr, 0);
	if (!s->pages || !s->bvec)
		goto out_free;
	for (i = 0; i < all; i++) {
		u64 *p;

		s->pages[i] = alloc_pages_node(node, GFP_KERNEL, 0);
		if (!s->pages[i])
			goto out_free;
		s->nr_pages++;
		/* Incompressible data: what writes put on the media. */
		p = page_address(s->pages[i]);
		for (k = 0; k < PAGE_SIZE / sizeof(*p); k++)
			p[k] = blkgen_rng_next(fill);
	}
	s->rpages = vwrite ? s->pages + nr : s->pages;
	if (vwrite) {
		s->vkey = kcalloc_node(nr * (PAGE_SIZE >> SECTOR_SHIFT),
				       sizeof(*s->vkey), GFP_KERNEL, node);
		if (!s->vkey)
			goto out_free;
		blkgen_verify_keys(s->pages, s->vkey,
				   nr * (PAGE_SIZE >> SECTOR_SHIFT));
	}
	return s;

out_free:
	blkgen_slot_free(s);
	return NULL;
}

/* Slots a worker holds for a workload: depth split over the workers. */
static unsigned int blkgen_nr_slots(const struct blkgen_workload *wl,
				    unsigned int index, unsigned int nw)
{
	/* A trace is one sequence: the first worker issues all of it. */
	if (wl->replay)
		return index ? 0 : wl->depth;
	return wl->depth / nw + (index < wl->depth % nw);
}

/**
 * blkgen_worker_mem() - Memory a worker of the job will allocate.
 * @job: the job, with wl_run, nr_workers and ival_cap set and patterns
 *	resolved
 * @index: worker number in the job
 * @io: the part of it that is I/O slots (buffer pages, bio and vector
 *	table), freed when the run ends, is added here
 *
 * For each workload it holds slots for: the slots, its statistics (two
 * latency histograms) and its ring of intervals, which stay with the
 * results. Nothing for the others.
 *
 * Return: bytes in all.
 */
u64 blkgen_worker_mem(struct blkgen_job *job, unsigned int index, u64 *io)
{
	u64 bytes = sizeof(struct blkgen_worker) +
		    job->nr_wl_run * (sizeof(struct blkgen_wl_run) +
				      sizeof(struct blkgen_stats *));
	unsigned int i, nr, pages;
	u64 slots;

	for (i = 0; i < job->nr_wl_run; i++) {
		const struct blkgen_workload *wl = job->wl_run[i];

		nr = blkgen_nr_slots(wl, index, job->nr_workers);
		if (!nr)
			continue;
		pages = DIV_ROUND_UP(wl->pattern.max_size, PAGE_SIZE);
		/* kvzalloc() takes whole page orders from kmalloc first. */
		bytes += PAGE_SIZE << get_order(sizeof(struct blkgen_stats));
		bytes += PAGE_SIZE << get_order(((u64)job->ival_cap + 1) *
						sizeof(struct blkgen_interval));
		slots = (u64)nr * (sizeof(struct blkgen_slot) +
				   2 * sizeof(struct blkgen_slot *) +
				   pages * (PAGE_SIZE + sizeof(struct page *) +
					    sizeof(struct bio_vec)));
		/* Verified writes: read pages and a key per sector. */
		if (wl->verify && job->mode != BLKGEN_MODE_VERIFY)
			slots += (u64)nr * pages *
				 (PAGE_SIZE + sizeof(struct page *) +
				  (PAGE_SIZE >> SECTOR_SHIFT) * sizeof(u32));
		bytes += slots;
		*io += slots;
		/* A zoned writer's open list (blkgen_worker_create()). */
		if (wl->zd.z)
			bytes += PAGE_SIZE << get_order((u64)wl->zd.max_open *
							sizeof(u32));
	}
	return bytes;
}

/**
 * blkgen_worker_create() - Allocate a worker and its kthread (not started).
 * @job: the job, with wl_run and nr_wl_run set and devices open
 * @index: worker number in the job
 * @cpu: CPU to bind to
 *
 * Each workload's depth is split evenly over the job's workers (the first
 * depth % nr_workers workers get one more); so is io_limit, over the
 * workers that hold slots for the workload. A worker without slots for a
 * workload allocates nothing for it.
 *
 * Context: process context, job->lock held.
 * Return: the worker, or an ERR_PTR.
 */
struct blkgen_worker *blkgen_worker_create(struct blkgen_job *job,
					   unsigned int index,
					   unsigned int cpu)
{
	unsigned int nw = job->nr_workers, i, j, active;
	int node = cpu_to_node(cpu);
	struct blkgen_worker *w;
	struct blkgen_rng fill;
	int ret = -ENOMEM;
	bool fast = true;
	size_t n;
	u32 khz;

	w = kzalloc_node(sizeof(*w), GFP_KERNEL, node);
	if (!w)
		return ERR_PTR(-ENOMEM);
	init_llist_head(&w->done);
	init_completion(&w->drained);
	w->retry_tail = &w->retry;
	w->job = job;
	w->index = index;
	w->cpu = cpu;
	w->nr_wl = job->nr_wl_run;
	w->spin_ns = (u64)READ_ONCE(spin_us) * NSEC_PER_USEC;
	w->park_ns = BLKGEN_PARK_MIN_NS;
	w->run = kcalloc_node(w->nr_wl, sizeof(*w->run), GFP_KERNEL, node);
	w->stats = kcalloc_node(w->nr_wl, sizeof(*w->stats), GFP_KERNEL,
				node);
	if (!w->run || !w->stats)
		goto out_free;

	blkgen_rng_seed(&fill, job->run_seed, ~0ULL - index);
	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_workload *wl = job->wl_run[i];
		struct blkgen_wl_run *r = &w->run[i];
		struct blkgen_stats *st;

		r->wl = wl;
		r->w = w;
		r->nr_slots = blkgen_nr_slots(wl, index, nw);
		if (!r->nr_slots)
			continue;

		st = kvzalloc_node(sizeof(*st), GFP_KERNEL, node);
		if (!st)
			goto out_free;
		w->stats[i] = st;
		r->stats = st;
		blkgen_hist_reset(&st->lat[0]);
		blkgen_hist_reset(&st->lat[1]);
		blkgen_hist_reset(&st->svc[0]);
		blkgen_hist_reset(&st->svc[1]);
		/* Closed loop (below: unless open), start is submission. */
		st->svc_in_lat = true;
		/* One more than shown: the one the worker may be writing. */
		st->ival_cap = job->ival_cap + 1;
		st->ival = kvzalloc_node(array_size(st->ival_cap,
						    sizeof(*st->ival)),
					 GFP_KERNEL, node);
		if (!st->ival)
			goto out_free;

		/* Workers 0 .. min(depth, nw) - 1 have slots for it. */
		active = wl->replay ? 1 : min(wl->depth, nw);
		blkgen_stream_init(&r->stream, &wl->pattern, job->run_seed,
				   (u64)index << 32 | i, index, active);
		r->record = job->record;
		r->quota = U64_MAX;
		r->verify = wl->verify;
		if (job->mode == BLKGEN_MODE_VERIFY) {
			/* Each worker reads its stretch, others nothing. */
			r->pass = true;
			r->pass_end = r->stream.next;
			if (wl->verify)
				r->pass_end = index + 1 < active ?
					wl->pattern.start +
					blkgen_part_offset(&wl->pattern,
							   index + 1,
							   active) :
					wl->pattern.end;
		} else if (job->io_limit) {
			u32 rem;

			r->quota = div_u64_rem(job->io_limit, active, &rem);
			r->quota += index < rem;
		}
		if (wl->polled) {
			r->opf |= REQ_POLLED | REQ_NOWAIT;
			r->poll_all =
				!queue_is_mq(bdev_get_queue(wl->dev.bdev));
		}
		if (wl->fua)
			r->wopf |= REQ_FUA;
		r->slots = kcalloc_node(r->nr_slots, sizeof(*r->slots),
					GFP_KERNEL, node);
		if (!r->slots)
			goto out_free;
		r->replay = wl->replay;
		w->replay |= !!wl->replay;
		if (wl->zd.z && !r->pass) {
			r->zoned = true;
			r->zr.id = index + 1;
			r->zr.cap = max(1U, wl->zd.max_open / active);
			r->zr.cnt = st->zone;
			/*
			 * What it owns counts in max_open (at most the
			 * range's zones: tens of thousands on an SMR drive).
			 */
			n = array_size(wl->zd.max_open, sizeof(*r->zr.open));
			r->zr.open = kvzalloc_node(n, GFP_KERNEL, node);
			if (!r->zr.open)
				goto out_free;
		}
		r->plain = !r->replay && !r->pass && !r->verify && !r->zoned;
		if ((job->rate_iops || wl->replay) && !r->pass) {
			r->open = true;
			/* As fast as possible: each record due when issued. */
			st->svc_in_lat = wl->replay == BLKGEN_REPLAY_AFAP;
			w->open = true;
			r->free = kcalloc_node(r->nr_slots, sizeof(*r->free),
					       GFP_KERNEL, node);
			if (!r->free)
				goto out_free;
		}
		/* A replay as fast as possible is a closed loop of records. */
		r->fast = !r->opf && r->quota == U64_MAX &&
			  ((r->plain && !r->open &&
			    blkgen_pattern_is_fast(&wl->pattern)) ||
			   (r->replay == BLKGEN_REPLAY_AFAP && !r->zoned));
		fast &= r->fast;
		for (j = 0; j < r->nr_slots; j++) {
			r->slots[j] = blkgen_slot_alloc(r, node, &fill);
			if (!r->slots[j])
				goto out_free;
		}
	}

	/* One loop serves all of a worker's workloads: fast, or none is. */
	w->fast = fast;
	khz = fast && READ_ONCE(tsc) ? blkgen_cycles_khz() : 0;
	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		r->fast &= fast;
		if (!r->fast)
			continue;
		r->fopf[0] = REQ_OP_READ;
		r->fopf[1] = REQ_OP_WRITE | REQ_SYNC | REQ_IDLE | r->wopf;
		r->cycles = khz != 0;
		r->stats->cycles = r->cycles;
		blkgen_tclock_init(&r->tc, khz);
		if (!r->record)
			r->end_io = blkgen_end_io;
		else if (r->cycles)
			r->end_io = blkgen_end_io_cycles;
		else
			r->end_io = blkgen_end_io_fast;
		r->bdev = r->wl->dev.bdev;
	}
	w->task = kthread_create_on_cpu(blkgen_worker_fn, w, cpu,
					"blkgen/%u");
	if (IS_ERR(w->task)) {
		ret = PTR_ERR(w->task);
		w->task = NULL;
		goto out_free;
	}
	get_task_struct(w->task);
	return w;

out_free:
	blkgen_worker_free_io(w);
	blkgen_worker_destroy(w);
	return ERR_PTR(ret);
}

/**
 * blkgen_worker_start() - Let a created worker run.
 * @w: worker
 */
void blkgen_worker_start(struct blkgen_worker *w)
{
	wake_up_process(w->task);
}

/**
 * blkgen_worker_wake() - Make a worker look at job->stop now.
 * @w: worker
 */
void blkgen_worker_wake(struct blkgen_worker *w)
{
	if (w->task)
		wake_up_process(w->task);
}

/**
 * blkgen_worker_task() - A created worker's kthread.
 * @w: worker, not yet stopped
 * Return: its task.
 */
struct task_struct *blkgen_worker_task(struct blkgen_worker *w)
{
	return w->task;
}

/**
 * blkgen_worker_cpu() - The CPU a worker is bound to.
 * @w: worker
 * Return: the CPU number.
 */
unsigned int blkgen_worker_cpu(struct blkgen_worker *w)
{
	return w->cpu;
}

/**
 * blkgen_worker_drained() - Whether a worker has accounted its last I/O.
 * @w: worker of a started run
 * Return: true once it has.
 */
bool blkgen_worker_drained(struct blkgen_worker *w)
{
	return completion_done(&w->drained);
}

/**
 * blkgen_worker_times() - When a worker issued its first I/O and was done.
 * @w: worker of a started run
 * @first: ktime ns of its first I/O issued, 0 if none yet
 * @last: ktime ns when it had accounted its last I/O, 0 before then
 */
void blkgen_worker_times(struct blkgen_worker *w, u64 *first, u64 *last)
{
	*first = READ_ONCE(w->t_first);
	*last = READ_ONCE(w->t_last);
}

/**
 * blkgen_worker_stop() - End a worker's kthread and drop its task.
 * @w: worker that has called blkgen_job_worker_done() or never ran
 * Context: process context; sleeps until the kthread has exited.
 */
void blkgen_worker_stop(struct blkgen_worker *w)
{
	if (!w->task)
		return;
	kthread_stop(w->task);
	put_task_struct(w->task);
	w->task = NULL;
}

/**
 * blkgen_worker_free_io() - Free a stopped worker's slots and buffers.
 * @w: worker; no I/O of it may be in flight or in an end_io handler
 */
void blkgen_worker_free_io(struct blkgen_worker *w)
{
	unsigned int i, j;

	if (!w->run)
		return;
	for (i = 0; i < w->nr_wl; i++) {
		struct blkgen_wl_run *r = &w->run[i];

		kvfree(r->zr.open);
		r->zr.open = NULL;
		if (!r->slots)
			continue;
		for (j = 0; j < r->nr_slots; j++)
			blkgen_slot_free(r->slots[j]);
		kfree(r->slots);
		r->slots = NULL;
		kfree(r->free);
		r->free = NULL;
	}
}

/**
 * blkgen_worker_destroy() - Free a worker after blkgen_worker_free_io().
 * @w: worker, or NULL
 */
void blkgen_worker_destroy(struct blkgen_worker *w)
{
	unsigned int i;

	if (!w)
		return;
	kfree(w->run);
	for (i = 0; w->stats && i < w->nr_wl; i++) {
		if (!w->stats[i])
			continue;
		kvfree(w->stats[i]->ival);
		kvfree(w->stats[i]);
	}
	kfree(w->stats);
	kfree(w);
}

/**
 * blkgen_worker_stats() - A worker's results for one workload.
 * @w: worker
 * @wl: workload index
 * Return: the statistics, updated concurrently while the worker runs, or
 * NULL if the worker held no slots for the workload (it has none).
 */
const struct blkgen_stats *blkgen_worker_stats(struct blkgen_worker *w,
					       unsigned int wl)
{
	return w->stats[wl];
}
