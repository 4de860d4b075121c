// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen jobs: the state machine (idle -> running -> done, stopped or
 * failed; running shows "armed" while a run waits for its start_at),
 * validation and device opening at start, worker creation, and the
 * teardown when the last worker is done.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "blkgen.h"
#include "rate.h"

static unsigned int max_buffer_mb = 256;
module_param(max_buffer_mb, uint, 0644);
MODULE_PARM_DESC(max_buffer_mb,
		 "Largest memory of a job's run (I/O buffers, histograms, time series), in MiB (default 256)");

/* More records than this are refused by max_buffer_mb anyway. */
#define BLKGEN_MAX_INTERVALS	BIT(24)

static unsigned int max_intervals = 3600;
module_param(max_intervals, uint, 0644);
MODULE_PARM_DESC(max_intervals,
		 "Time-series records kept per workload (default 3600)");

static bool latency = true;
module_param(latency, bool, 0644);
MODULE_PARM_DESC(latency,
		 "Record latencies (default 1); 0 counts I/Os only, to measure the cost of recording");

static void blkgen_job_finish_work(struct work_struct *work);
static enum hrtimer_restart blkgen_job_start_fire(struct hrtimer *timer);

/*
 * Running jobs, for the CPU hotplug callback. A job is on the list from
 * the moment its workers start until its teardown; blkgen_running_lock
 * nests inside job->lock and the CPU hotplug lock.
 */
static DEFINE_MUTEX(blkgen_running_lock);
static LIST_HEAD(blkgen_running);
static enum cpuhp_state blkgen_cpuhp_state;

/*
 * Runs not yet torn down, removed jobs' among them: an rmdir does not
 * wait for a run to end (configfs holds its subsystem mutex meanwhile),
 * the run holds references to its job and workloads instead, and module
 * unload waits for the count to reach 0, then for finish_work to return
 * (blkgen_wq is the module's own).
 */
static atomic_t blkgen_nr_runs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(blkgen_runs_wq);
static struct workqueue_struct *blkgen_wq;

/**
 * blkgen_errno_name() - Symbolic name of an errno for messages.
 * @err: positive or negative errno
 * Return: "EBUSY" and the like, or "error" if unknown.
 */
const char *blkgen_errno_name(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
		{ ENXIO, "ENXIO" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ ENOTBLK, "ENOTBLK" }, { EBUSY, "EBUSY" },
		{ ENODEV, "ENODEV" },
		{ EINVAL, "EINVAL" }, { EROFS, "EROFS" }, { ENOSPC, "ENOSPC" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ETIMEDOUT, "ETIMEDOUT" },
		{ EAGAIN, "EAGAIN" }, { ENOLINK, "ENOLINK" },
		{ EILSEQ, "EILSEQ" }, { ENODATA, "ENODATA" },
	};
	unsigned int i;

	if (err < 0)
		err = -err;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return "error";
}

static bool blkgen_job_verror(struct blkgen_job *job, const char *fmt,
			      va_list args)
{
	if (test_and_set_bit(0, &job->error_set))
		return false;
	vsnprintf(job->error, sizeof(job->error), fmt, args);
	WRITE_ONCE(job->stop, true);
	return true;
}

/**
 * blkgen_job_set_error() - Record why a run fails and make it stop.
 * @job: the job
 * @fmt: printf format of the one-line reason
 *
 * The first reason wins. Workers stop issuing and drain; they look at
 * stop when they next wake: a running job's workers and work fail it with
 * blkgen_job_fail(), which wakes them.
 *
 * Context: any (workers call it without job->lock).
 */
void blkgen_job_set_error(struct blkgen_job *job, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	blkgen_job_verror(job, fmt, args);
	va_end(args);
}

/**
 * blkgen_job_fail() - Fail a running job and wake its workers to drain.
 * @job: the job, running
 * @fmt: printf format of the one-line reason
 *
 * As blkgen_job_set_error(), and every worker is woken to see stop: an
 * open-loop worker may sleep until its next arrival, unbounded at a low
 * rate without a duration, and the run would not end.
 *
 * Context: a worker of the run, or work that ends before the run does
 * (the workers exist until finish_work).
 */
void blkgen_job_fail(struct blkgen_job *job, const char *fmt, ...)
{
	va_list args;
	bool first;

	va_start(args, fmt);
	first = blkgen_job_verror(job, fmt, args);
	va_end(args);
	if (first)
		blkgen_job_wake_workers(job);
}

/**
 * blkgen_job_init() - Defaults of a new job.
 * @job: zeroed job
 * Return: 0 or -ENOMEM.
 */
int blkgen_job_init(struct blkgen_job *job)
{
	if (!zalloc_cpumask_var(&job->cpus, GFP_KERNEL))
		return -ENOMEM;
	mutex_init(&job->lock);
	INIT_LIST_HEAD(&job->workloads);
	INIT_WORK(&job->finish_work, blkgen_job_finish_work);
	init_waitqueue_head(&job->ended_wq);
	INIT_LIST_HEAD(&job->running_node);
	blkgen_hrtimer_setup(&job->start_timer, blkgen_job_start_fire,
			     CLOCK_REALTIME, HRTIMER_MODE_ABS_HARD);
	job->duration_ms = 10000;
	job->interval_ms = 1000;
	job->arrival = BLKGEN_ARRIVAL_POISSON;
	job->state = BLKGEN_IDLE;
	return 0;
}

static void blkgen_job_free_workers(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; job->workers && i < job->nr_workers; i++) {
		if (!job->workers[i])
			continue;
		blkgen_worker_stop(job->workers[i]);
		blkgen_worker_free_io(job->workers[i]);
		blkgen_worker_destroy(job->workers[i]);
	}
	kfree(job->workers);
	job->workers = NULL;
	job->nr_workers = 0;
	kfree(job->wl_run);
	job->wl_run = NULL;
	job->nr_wl_run = 0;
	job->results_gen++;	/* snapshots of them are stale */
	blkgen_mem_uncharge(job->mem_charged);
	job->mem_charged = 0;
	job->mem_io = 0;
}

/**
 * blkgen_job_destroy() - Release what a job holds.
 * @job: job whose last reference went (its kobject's release)
 *
 * No run holds the job, so no finish_work is pending: a run's reference
 * is the last thing its finish_work gives up, and this may be called from
 * there.
 */
void blkgen_job_destroy(struct blkgen_job *job)
{
	blkgen_job_free_workers(job);
	free_cpumask_var(job->cpus);
}

static void blkgen_close_devices(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_wl_run; i++)
		if (job->wl_run[i] && job->wl_run[i]->dev.bdev)
			blkgen_bdev_close(&job->wl_run[i]->dev);
}

/* A verify pass only reads; a replay writes what its trace does. */
static bool blkgen_wl_writes(struct blkgen_job *job,
			     const struct blkgen_workload *wl)
{
	return wl->replay ? wl->allow_write :
	       wl->rdpct < 100 && job->mode != BLKGEN_MODE_VERIFY;
}

/* Another workload of the run, prepared before @wl, writing to its device. */
static struct blkgen_workload *blkgen_zoned_writer(struct blkgen_job *job,
						   struct blkgen_workload *wl)
{
	unsigned int i;

	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *o = job->wl_run[i];

		if (o != wl && o->dev.bdev == wl->dev.bdev &&
		    blkgen_wl_writes(job, o))
			return o;
	}
	return NULL;
}

/* Open a workload's device and fit its pattern to it. */
static int blkgen_wl_prepare(struct blkgen_job *job, struct blkgen_workload *wl)
{
	bool write = blkgen_wl_writes(job, wl);
	struct block_device *bdev;
	u32 lbs, chunk;
	int ret;

	if (!wl->device[0]) {
		blkgen_job_set_error(job, "%s: no device set",
				     blkgen_wl_name(wl));
		return -EINVAL;
	}
	if (write && !wl->allow_write) {
		blkgen_job_set_error(job,
				     "%s: rdpct %u writes to %s but allow_write is 0",
				     blkgen_wl_name(wl), wl->rdpct, wl->device);
		return -EPERM;
	}
	/*
	 * Writers claim the device for the job; so does whatever checks data
	 * against a generation table (a verify pass, verify=1), so that no
	 * other job writes under it unseen. Plain readers share it.
	 */
	ret = blkgen_bdev_open(&wl->dev, wl->device, write,
			       write || wl->verify ? job : NULL);
	if (ret) {
		if (ret == -EBUSY)
			blkgen_job_set_error(job, "%s: %s is in use (EBUSY)",
					     blkgen_wl_name(wl), wl->device);
		else
			blkgen_job_set_error(job, "%s: cannot open %s (%s)",
					     blkgen_wl_name(wl), wl->device,
					     blkgen_errno_name(ret));
		wl->dev.bdev = NULL;
		return ret;
	}
	bdev = wl->dev.bdev;
	if (write && bdev_read_only(bdev)) {
		blkgen_job_set_error(job, "%s: %s is read-only (EROFS)",
				     blkgen_wl_name(wl), wl->device);
		return -EROFS;
	}
	/*
	 * A zoned device's write pointers are one workload's state: two
	 * writing to it would put their writes where the other's go.
	 */
	if (write && bdev_is_zoned(bdev)) {
		struct blkgen_workload *o = blkgen_zoned_writer(job, wl);

		if (o) {
			blkgen_job_set_error(job,
					     "%s: %s writes to zoned %s too: one writing workload a zoned device (EBUSY)",
					     blkgen_wl_name(wl),
					     blkgen_wl_name(o), wl->device);
			return -EBUSY;
		}
	}
	if (wl->polled && !blkgen_bdev_can_poll(bdev)) {
		blkgen_job_set_error(job,
				     "%s: %s has no poll queues (EOPNOTSUPP)",
				     blkgen_wl_name(wl), wl->device);
		return -EOPNOTSUPP;
	}
	/* Polled bios are submitted with REQ_NOWAIT (worker.c). */
	if (wl->polled && !bdev_nowait(bdev)) {
		blkgen_job_set_error(job,
				     "%s: %s cannot queue I/O without waiting, which polling needs (EOPNOTSUPP)",
				     blkgen_wl_name(wl), wl->device);
		return -EOPNOTSUPP;
	}

	lbs = bdev_logical_block_size(bdev);
	wl->lbs = lbs;
	wl->pattern.rdpct = wl->rdpct;
	wl->pattern.seekpct = wl->seekpct;
	wl->pattern.bs = wl->bs;
	wl->pattern.zones = wl->zones;
	ret = blkgen_pattern_resolve(&wl->pattern, &wl->range,
				     bdev_nr_bytes(bdev), lbs);
	switch (ret) {
	case BLKGEN_PAT_OK:
		break;
	case BLKGEN_PAT_LBS:
		blkgen_job_set_error(job,
				     "%s: bs %s is not a multiple of %s's logical block size %u",
				     blkgen_wl_name(wl), wl->bs_str, wl->device,
				     lbs);
		return -EINVAL;
	case BLKGEN_PAT_BEYOND:
		blkgen_job_set_error(job,
				     "%s: range %s ends beyond %s (%llu bytes)",
				     blkgen_wl_name(wl), wl->range_str,
				     wl->device,
				     (unsigned long long)bdev_nr_bytes(bdev));
		return -EINVAL;
	case BLKGEN_PAT_ZONE:
		blkgen_job_set_error(job,
				     "%s: a zone of distribution %s is narrower than the %u-byte alignment on %s",
				     blkgen_wl_name(wl), wl->dist_str,
				     wl->pattern.align, wl->device);
		return -EINVAL;
	default:
		blkgen_job_set_error(job,
				     "%s: range %s of %s holds no %u-byte I/O",
				     blkgen_wl_name(wl), wl->range_str,
				     wl->device,
				     wl->pattern.max_size);
		return -EINVAL;
	}
	/*
	 * REQ_NOWAIT bios that would need splitting are refused. With I/O
	 * boundaries (chunk_sectors, NVMe NOIOB) only one size that divides
	 * them keeps every bio inside one: offsets are multiples of it.
	 */
	chunk = bdev_get_queue(bdev)->limits.chunk_sectors << SECTOR_SHIFT;
	/* A trace's offsets and sizes are its own: they would cross them. */
	if (wl->polled && chunk && wl->replay) {
		blkgen_job_set_error(job,
				     "%s: %s has %u-byte I/O boundaries that a replayed trace would cross: replay it without polled (EINVAL)",
				     blkgen_wl_name(wl), wl->device, chunk);
		return -EINVAL;
	}
	if (wl->polled && chunk &&
	    (wl->bs.nr > 1 || chunk % wl->pattern.max_size)) {
		blkgen_job_set_error(job,
				     "%s: %s has %u-byte I/O boundaries: polled I/O needs one size that divides them, not %s (EINVAL)",
				     blkgen_wl_name(wl), wl->device, chunk,
				     wl->bs_str);
		return -EINVAL;
	}
	if (wl->polled &&
	    (wl->pattern.max_size > queue_max_bytes(bdev_get_queue(bdev)) ||
	     DIV_ROUND_UP(wl->pattern.max_size, PAGE_SIZE) >
	     bdev_max_segments(bdev))) {
		blkgen_job_set_error(job,
				     "%s: polled I/O of %u bytes is above the largest %s takes unsplit (%u bytes, %u segments) (EINVAL)",
				     blkgen_wl_name(wl), wl->pattern.max_size,
				     wl->device,
				     queue_max_bytes(bdev_get_queue(bdev)),
				     bdev_max_segments(bdev));
		return -EINVAL;
	}
	ret = blkgen_replay_prepare(job, wl);
	if (ret)
		return ret;
	ret = blkgen_zoned_prepare(job, wl, write);
	if (ret)
		return ret;
	return blkgen_verify_prepare(job, wl);
}

/*
 * Open loop: give each workload its share of rate_iops (set shares as
 * written, the rest split equally among the workloads without one) and
 * check that every worker's schedule is representable.
 */
static int blkgen_job_check_rate(struct blkgen_job *job)
{
	u32 set = 0, unset = 0, left, k = 0, nw = job->nr_workers;
	struct blkgen_arrivals probe;
	unsigned int i;

	BUILD_BUG_ON((int)BLKGEN_ARRIVAL_POISSON != (int)BLKGEN_PROC_POISSON ||
		     (int)BLKGEN_ARRIVAL_UNIFORM != (int)BLKGEN_PROC_UNIFORM ||
		     (int)BLKGEN_ARRIVAL_FIXED != (int)BLKGEN_PROC_FIXED);
	if (!job->rate_iops || job->mode == BLKGEN_MODE_VERIFY)
		return 0;
	for (i = 0; i < job->nr_wl_run; i++) {
		if (job->wl_run[i]->share)
			set += job->wl_run[i]->share;
		else
			unset++;
	}
	if ((!unset && set != 100) || (unset && set >= 100)) {
		const char *why = unset ? "leaving none for the others" :
					  "not 100%";

		blkgen_job_set_error(job,
				     "workload shares sum to %u%%, %s (EINVAL)",
				     set, why);
		return -EINVAL;
	}
	left = (100 - set) * (BLKGEN_SHARE_ONE / 100);
	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *wl = job->wl_run[i];
		u32 active = min(wl->depth, nw);

		if (wl->share) {
			wl->run_share = wl->share * (BLKGEN_SHARE_ONE / 100);
		} else {
			/* Equal split; the first ones take the remainder. */
			wl->run_share = left / unset + (k < left % unset);
			k++;
		}
		if (blkgen_arrivals_init(&probe, BLKGEN_PROC_FIXED,
					 job->rate_iops * wl->run_share,
					 (u64)BLKGEN_SHARE_ONE * active, 0, 0,
					 0, 0, 1)) {
			blkgen_job_set_error(job,
					     "%s: rate_iops %llu is too low to split over %u workers (EINVAL)",
					     blkgen_wl_name(wl),
					     (unsigned long long)job->rate_iops,
					     active);
			return -EINVAL;
		}
	}
	return 0;
}

/* The run's interval ring size and its workers' memory; 0 or -ENOMEM. */
static int blkgen_job_size_run(struct blkgen_job *job)
{
	unsigned int i;
	u64 bytes = 0, io = 0;

	job->ival_cap = clamp(max_intervals, 2U, BLKGEN_MAX_INTERVALS);
	if (job->duration_ms && job->mode != BLKGEN_MODE_VERIFY)
		job->ival_cap = min_t(u64, job->ival_cap,
				      div64_u64(job->duration_ms,
						job->interval_ms) + 2);
	for (i = 0; i < job->nr_workers; i++)
		bytes += blkgen_worker_mem(job, i, &io);
	if (bytes > (u64)max_buffer_mb << 20) {
		blkgen_job_set_error(job,
				     "a run needs %llu MiB (I/O buffers, statistics), above max_buffer_mb=%u (ENOMEM)",
				     DIV_ROUND_UP_ULL(bytes, 1 << 20),
				     max_buffer_mb);
		return -ENOMEM;
	}
	if (blkgen_mem_charge(bytes)) {
		blkgen_job_set_error(job,
				     "a run needs %llu MiB (I/O buffers, statistics), and blkgen holds %llu MiB of max_memory_mb=%llu (ENOMEM)",
				     DIV_ROUND_UP_ULL(bytes, 1 << 20),
				     blkgen_mem_used() >> 20,
				     blkgen_mem_limit() >> 20);
		return -ENOMEM;
	}
	job->mem_charged = bytes;
	job->mem_io = io;
	return 0;
}

/*
 * The run's timeline, from its start @t0 (ktime ns), and the offset of
 * CLOCK_REALTIME from ktime then (@off), which started_at_ns and
 * ended_at_ns are converted by. The start timer writes them without
 * job->lock while readers may hold it: each is one store.
 */
static void blkgen_job_set_times(struct blkgen_job *job, u64 t0, s64 off)
{
	u64 measure = t0 + job->warmup_ms * NSEC_PER_MSEC;
	u64 deadline = job->duration_ms ?
		measure + job->duration_ms * NSEC_PER_MSEC : U64_MAX;

	/* A verify pass reads its range once, all of it measured. */
	if (job->mode == BLKGEN_MODE_VERIFY) {
		measure = t0;
		deadline = U64_MAX;
	}
	WRITE_ONCE(job->t_real_off, off);
	WRITE_ONCE(job->t_start, t0);
	WRITE_ONCE(job->t_measure, measure);
	WRITE_ONCE(job->t_deadline, deadline);
}

/* A start_at later than this (a clock step past it) starts from now. */
#define BLKGEN_START_LATE_NS	NSEC_PER_SEC

/* Set the times from start_at (ktime by the clocks' offset now). */
static void blkgen_job_set_start_at(struct blkgen_job *job)
{
	s64 off = ktime_to_ns(ktime_mono_to_real(0));
	s64 t0 = (s64)job->start_at - off;
	s64 now = ktime_get_ns();

	/*
	 * The timer fires BLKGEN_START_SPIN_NS before start_at or just
	 * after (the workers spin to it), and the run's times count from
	 * start_at exactly. Much later, the clock was stepped
	 * past it (or start_at passed as the run was armed): from now, so
	 * that no warmup or window is cut short and no arrivals burst.
	 */
	if (t0 < 0 || (t0 < now && now - t0 > BLKGEN_START_LATE_NS))
		t0 = now;
	blkgen_job_set_times(job, t0, off);
}

/*
 * start_at is BLKGEN_START_SPIN_NS away (by CLOCK_REALTIME, however it
 * was set meanwhile): the run's times count from it, its verify flushes
 * begin, and the workers waiting for it go, to spin to it (a wake-up's
 * latency is not in their first I/O's start). The one write that ends
 * "armed";
 * finish_work cancels the timer before the workers are stopped and the
 * flushes are cancelled.
 */
static enum hrtimer_restart blkgen_job_start_fire(struct hrtimer *timer)
{
	struct blkgen_job *job = container_of(timer, struct blkgen_job,
					      start_timer);

	blkgen_job_set_start_at(job);
	/* Pairs with the workers' acquire: they see the times set. */
	smp_store_release(&job->armed, false);
	blkgen_verify_run_start(job);
	blkgen_job_wake_workers(job);
	return HRTIMER_NORESTART;
}

#define BLKGEN_START_AT_MAX	(24ULL * 3600 * NSEC_PER_SEC)	/* a day */

/**
 * blkgen_start_at_check() - Whether a start_at can be waited for.
 * @start_at: CLOCK_REALTIME ns, 0 for at once
 * @now: CLOCK_REALTIME ns now
 * Return: 0, -EINVAL in the past, -ERANGE more than a day ahead.
 */
int blkgen_start_at_check(u64 start_at, u64 now)
{
	if (!start_at)
		return 0;
	if (start_at <= now)
		return -EINVAL;
	if (start_at - now > BLKGEN_START_AT_MAX)
		return -ERANGE;
	return 0;
}

/* start_at, checked at start: the reason in job->error. */
static int blkgen_job_check_start_at(struct blkgen_job *job, u64 t_prep)
{
	u64 now = ktime_get_real_ns();

	switch (blkgen_start_at_check(job->start_at, now)) {
	case -EINVAL:
		if (t_prep)
			blkgen_job_set_error(job,
					     "start_at passed while the run was prepared (%llu ms): give it more lead time (EINVAL)",
					     div_u64(ktime_get_ns() - t_prep,
						     NSEC_PER_MSEC));
		else
			blkgen_job_set_error(job,
					     "start_at %llu is %llu ms in the past (EINVAL)",
					     job->start_at,
					     div_u64(now - job->start_at,
						     NSEC_PER_MSEC));
		return -EINVAL;
	case -ERANGE:
		blkgen_job_set_error(job,
				     "start_at %llu is more than a day ahead (EINVAL)",
				     job->start_at);
		return -EINVAL;
	}
	return 0;
}

/**
 * blkgen_job_start() - Validate, open, allocate and start a run.
 * @job: the job
 *
 * Everything is checked and allocated before the first worker runs; on
 * any failure the job is left failed with the reason in job->error and
 * nothing open or allocated but the previous results, which are dropped.
 * The move to running is one transition under job->lock, also holding
 * the CPU hotplug lock so that no CPU of the job goes away meanwhile.
 * With a start_at the run is armed: its workers wait for the start timer,
 * which sets the run's times from start_at (the interval series and the
 * arrival schedules count from it).
 *
 * Context: process context (a configfs store); takes job->lock.
 * Return: 0 or a negative errno, also returned to write(2).
 */
int blkgen_job_start(struct blkgen_job *job)
{
	struct blkgen_workload *wl;
	unsigned int i, cpu;
	u64 t_prep;
	int ret;

	mutex_lock(&job->lock);
	t_prep = ktime_get_ns();
	if (job->state == BLKGEN_RUNNING) {
		ret = -EBUSY;
		goto out_unlock;
	}
	/* A new run drops the last run's results. */
	blkgen_job_free_workers(job);
	job->error[0] = 0;
	clear_bit(0, &job->error_set);
	job->stop = false;
	job->t_end = 0;
	WRITE_ONCE(job->armed, false);

	ret = blkgen_job_check_start_at(job, 0);
	if (ret)
		goto out_failed;
	ret = -EINVAL;
	if (!job->nr_workloads) {
		blkgen_job_set_error(job, "job has no workloads");
		goto out_failed;
	}
	ret = -ENOMEM;
	job->wl_run = kcalloc(job->nr_workloads, sizeof(*job->wl_run),
			      GFP_KERNEL);
	if (!job->wl_run)
		goto out_failed;
	list_for_each_entry(wl, &job->workloads, node) {
		wl->index = job->nr_wl_run;
		wl->dev.bdev = NULL;
		job->wl_run[job->nr_wl_run++] = wl;
		ret = blkgen_wl_prepare(job, wl);
		if (ret)
			goto out_close;
	}
	ret = blkgen_verify_check_overlap(job);
	if (ret)
		goto out_close;

	cpus_read_lock();
	if (!job->cpus_set)
		cpumask_copy(job->cpus, cpu_online_mask);
	if (!cpumask_subset(job->cpus, cpu_online_mask) ||
	    cpumask_empty(job->cpus)) {
		blkgen_job_set_error(job, "cpus %*pbl are not all online",
				     cpumask_pr_args(job->cpus));
		ret = -EINVAL;
		goto out_cpus;
	}
	job->nr_workers = cpumask_weight(job->cpus);
	ret = blkgen_job_check_rate(job);
	if (ret)
		goto out_cpus;
	job->run_seed = job->seed ? job->seed : get_random_u64();
	job->interval_ns = job->interval_ms * NSEC_PER_MSEC;
	job->record = latency;
	ret = blkgen_job_size_run(job);
	if (ret)
		goto out_cpus;
	job->workers = kcalloc(job->nr_workers, sizeof(*job->workers),
			       GFP_KERNEL);
	ret = -ENOMEM;
	if (!job->workers) {
		blkgen_job_set_error(job, "out of memory (ENOMEM)");
		goto out_cpus;
	}
	i = 0;
	for_each_cpu(cpu, job->cpus) {
		struct blkgen_worker *w = blkgen_worker_create(job, i, cpu);

		if (IS_ERR(w)) {
			ret = PTR_ERR(w);
			blkgen_job_set_error(job,
					     "cannot create the worker on CPU %u (%s)",
					     cpu, blkgen_errno_name(ret));
			goto out_cpus;
		}
		job->workers[i++] = w;
	}

	ret = blkgen_job_check_start_at(job, t_prep);
	if (ret)
		goto out_cpus;
	/* Armed: the times as now foreseen; the start timer sets them. */
	WRITE_ONCE(job->armed, !!job->start_at);
	if (job->start_at)
		blkgen_job_set_start_at(job);
	else
		blkgen_job_set_times(job, ktime_get_ns(),
				     ktime_to_ns(ktime_mono_to_real(0)));
	atomic_set(&job->nr_active, job->nr_workers);
	job->run_gen++;
	/* The run's references: given up at the end of finish_work. */
	kobject_get(&job->kobj);
	for (i = 0; i < job->nr_wl_run; i++)
		kobject_get(&job->wl_run[i]->kobj);
	atomic_inc(&blkgen_nr_runs);
	mutex_lock(&blkgen_running_lock);
	list_add_tail(&job->running_node, &blkgen_running);
	mutex_unlock(&blkgen_running_lock);
	job->state = BLKGEN_RUNNING;
	blkgen_replay_run_start(job);
	for (i = 0; i < job->nr_workers; i++)
		blkgen_worker_start(job->workers[i]);
	if (job->start_at)
		hrtimer_start(&job->start_timer,
			      ns_to_ktime(job->start_at - BLKGEN_START_SPIN_NS),
			      HRTIMER_MODE_ABS_HARD);
	else
		blkgen_verify_run_start(job);
	cpus_read_unlock();
	mutex_unlock(&job->lock);
	return 0;

out_cpus:
	cpus_read_unlock();
out_close:
	/* Workers that never ran exit at kthread_stop without running. */
	blkgen_close_devices(job);
	blkgen_job_free_workers(job);
out_failed:
	job->state = BLKGEN_FAILED;
	job->stop = false;
out_unlock:
	mutex_unlock(&job->lock);
	return ret;
}

/**
 * blkgen_job_worker_done() - A worker has drained; the last one ends the run.
 * @job: the job
 * Context: the worker's kthread.
 */
void blkgen_job_worker_done(struct blkgen_job *job)
{
	if (atomic_dec_and_test(&job->nr_active))
		queue_work(blkgen_wq, &job->finish_work);
}

/*
 * The run's end, one transition under job->lock: every worker has
 * accounted its last I/O. An end_io handler that handed its slot back may
 * still be returning, inside an RCU read-side section: wait for those
 * before the tasks they wake are released, then free the slots and close
 * the devices (releasing exclusive claims) before the state says so. The
 * job leaves the running list first, so the hotplug callback no longer
 * touches its workers. Workloads removed meanwhile leave the run's results
 * in the same transition; the run's references go last (the job's may be
 * the last one: its release frees the job, this work with it).
 */
static void blkgen_job_finish_work(struct work_struct *work)
{
	struct blkgen_job *job = container_of(work, struct blkgen_job,
					      finish_work);
	unsigned int i;
	u64 now = ktime_get_ns();

	/* The hotplug callback must be done with the workers first. */
	mutex_lock(&blkgen_running_lock);
	list_del_init(&job->running_node);
	mutex_unlock(&blkgen_running_lock);
	/* A run stopped while armed: the timer wakes no worker any more. */
	hrtimer_cancel(&job->start_timer);
	synchronize_rcu();
	/*
	 * The flush work may wake the workers: it goes first, and without
	 * job->lock (a flush in flight on a slow device would hold up every
	 * reader of the results, and an rmdir under configfs's mutex with
	 * them). While the state reads running nothing changes job->wl_run.
	 */
	blkgen_verify_run_end(job);
	mutex_lock(&job->lock);
	blkgen_replay_run_end(job);
	for (i = 0; i < job->nr_workers; i++)
		blkgen_worker_stop(job->workers[i]);
	for (i = 0; i < job->nr_workers; i++)
		blkgen_worker_free_io(job->workers[i]);
	/* The buffers are gone; the results stay counted until dropped. */
	blkgen_mem_uncharge(job->mem_io);
	job->mem_charged -= job->mem_io;
	job->mem_io = 0;
	blkgen_close_devices(job);

	job->t_end = min(now, job->t_deadline);
	if (test_bit(0, &job->error_set))
		job->state = BLKGEN_FAILED;
	else if (job->stop)
		job->state = BLKGEN_STOPPED;
	else
		job->state = BLKGEN_DONE;
	job->ended_gen = job->run_gen;
	wake_up_all(&job->ended_wq);
	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *wl = job->wl_run[i];

		if (wl->dropped)
			job->wl_run[i] = NULL;
		/*
		 * A dropped workload's last reference: its release frees it
		 * here, taking no lock. Else configfs still holds it.
		 */
		kobject_put(&wl->kobj);
	}
	mutex_unlock(&job->lock);
	kobject_put(&job->kobj);
	if (atomic_dec_and_test(&blkgen_nr_runs))
		wake_up_all(&blkgen_runs_wq);
}

/**
 * blkgen_job_wake_workers() - Make a running job's workers look at stop.
 * @job: the job, running (its workers exist until finish_work)
 */
void blkgen_job_wake_workers(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++)
		blkgen_worker_wake(job->workers[i]);
}

/**
 * blkgen_job_stop_locked() - Ask a running job to stop.
 * @job: the job, job->lock held
 *
 * Workers stop issuing and drain; the run ends in finish_work.
 *
 * Return: the run's generation (job->ended_gen reaches it when the run
 * is torn down), 0 if the job does not run.
 */
u64 blkgen_job_stop_locked(struct blkgen_job *job)
{
	unsigned int i;

	lockdep_assert_held(&job->lock);
	if (job->state != BLKGEN_RUNNING)
		return 0;
	WRITE_ONCE(job->stop, true);
	for (i = 0; i < job->nr_workers; i++)
		blkgen_worker_wake(job->workers[i]);
	return job->run_gen;
}

/**
 * blkgen_job_stop_killable() - Stop a running job, wait for its I/O.
 * @job: the job; nothing happens unless it runs
 *
 * A device that takes long to complete what is in flight (a slow or hung
 * one) holds the writer of stop until the run is torn down: a fatal
 * signal ends the wait. The stop stays asked for; the run ends on its own.
 *
 * Context: process context, job->lock not held.
 * Return: 0, or -EINTR if a fatal signal ended the wait.
 */
int blkgen_job_stop_killable(struct blkgen_job *job)
{
	u64 gen;

	if (mutex_lock_killable(&job->lock))
		return -EINTR;
	gen = blkgen_job_stop_locked(job);
	mutex_unlock(&job->lock);
	if (gen && wait_event_killable(job->ended_wq,
				       READ_ONCE(job->ended_gen) >= gen))
		return -EINTR;
	return 0;
}

/*
 * A CPU is going offline. A run with a worker bound to that CPU fails with
 * the reason (unless it is already stopping) and its workers are woken to
 * drain. The callback does not wait for them: a device that does not
 * complete (suspended, hung) would then hold up the hotplug and everyone
 * waiting for it. The kernel moves the draining worker to another CPU;
 * it issues nothing more. Never takes job->lock (start holds it while it
 * holds the hotplug lock).
 */
static int blkgen_cpu_offline(unsigned int cpu)
{
	struct blkgen_job *job;
	unsigned int i;

	mutex_lock(&blkgen_running_lock);
	list_for_each_entry(job, &blkgen_running, running_node) {
		bool ours = false;

		for (i = 0; i < job->nr_workers; i++)
			if (blkgen_worker_cpu(job->workers[i]) == cpu &&
			    !blkgen_worker_drained(job->workers[i]))
				ours = true;
		if (!ours || READ_ONCE(job->stop))
			continue;
		blkgen_job_set_error(job, "CPU %u went offline", cpu);
		for (i = 0; i < job->nr_workers; i++)
			blkgen_worker_wake(job->workers[i]);
	}
	mutex_unlock(&blkgen_running_lock);
	return 0;
}

/**
 * blkgen_jobs_init() - The runs' workqueue; watch for CPUs of running jobs
 * going offline.
 * Context: module load.
 * Return: 0 or a negative errno.
 */
int blkgen_jobs_init(void)
{
	int ret;

	blkgen_wq = alloc_workqueue("blkgen", WQ_UNBOUND, 0);
	if (!blkgen_wq)
		return -ENOMEM;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"block/blkgen:online", NULL,
					blkgen_cpu_offline);
	if (ret < 0) {
		destroy_workqueue(blkgen_wq);
		return ret;
	}
	blkgen_cpuhp_state = ret;
	return 0;
}

/**
 * blkgen_jobs_exit() - Undo blkgen_jobs_init() once every run has ended.
 *
 * Removed jobs' runs may still be draining (a slow device's I/O in
 * flight): wait for them to end, then for their finish_work to return.
 *
 * Context: module unload (configfs holds no job any more).
 */
void blkgen_jobs_exit(void)
{
	wait_event(blkgen_runs_wq, !atomic_read(&blkgen_nr_runs));
	destroy_workqueue(blkgen_wq);
	cpuhp_remove_state_nocalls(blkgen_cpuhp_state);
}

/**
 * blkgen_job_elapsed_ms() - Measured time of the current or last run.
 * @job: the job, job->lock held
 * Return: milliseconds since warmup ended, up to the run's end.
 */
u64 blkgen_job_elapsed_ms(struct blkgen_job *job)
{
	u64 end;

	if (job->state == BLKGEN_IDLE || !job->t_start)
		return 0;
	/* Armed (or stopped so): none yet; pairs with the timer's release. */
	if (smp_load_acquire(&job->armed))
		return 0;
	end = job->state == BLKGEN_RUNNING ? ktime_get_ns() : job->t_end;
	if (!end || end <= job->t_measure)
		return 0;
	return div_u64(min(end, job->t_deadline) - job->t_measure,
		       NSEC_PER_MSEC);
}

/**
 * blkgen_job_real_times() - When the run's I/O began and ended, by the wall.
 * @job: the job, job->lock held
 * @started: CLOCK_REALTIME ns of the first I/O issued, 0 if none yet
 * @ended: CLOCK_REALTIME ns when the last worker had accounted its last
 *	I/O, 0 while the run goes on or if it issued none
 *
 * Kept in ktime by the workers, converted by the clocks' offset at the
 * run's start (a step of the clock after it moves neither).
 */
void blkgen_job_real_times(struct blkgen_job *job, u64 *started, u64 *ended)
{
	u64 off = READ_ONCE(job->t_real_off);
	u64 first = U64_MAX, last = 0, f, l;
	unsigned int i;

	lockdep_assert_held(&job->lock);
	for (i = 0; i < job->nr_workers; i++) {
		blkgen_worker_times(job->workers[i], &f, &l);
		if (f)
			first = min(first, f);
		last = max(last, l);
	}
	*started = first == U64_MAX ? 0 : first + off;
	*ended = last && job->state != BLKGEN_RUNNING ? last + off : 0;
}

/**
 * blkgen_job_nr_intervals() - Number of finished intervals of the run.
 * @job: the job, job->lock held
 * Return: intervals from the start of the measured window; while running,
 * those whose end has passed; after the run, all (the last may be short).
 */
u64 blkgen_job_nr_intervals(struct blkgen_job *job)
{
	unsigned int i, j;
	u64 n = 0, now;

	if (!job->nr_workers || !job->interval_ns)
		return 0;
	/* Armed: none yet; pairs with the start timer's release. */
	if (smp_load_acquire(&job->armed))
		return 0;
	if (job->state == BLKGEN_RUNNING) {
		now = min(ktime_get_ns(), job->t_deadline);
		if (now <= job->t_measure)
			return 0;
		return div64_u64(now - job->t_measure, job->interval_ns);
	}
	for (i = 0; i < job->nr_workers; i++) {
		for (j = 0; j < job->nr_wl_run; j++) {
			const struct blkgen_stats *st;

			st = blkgen_worker_stats(job->workers[i], j);
			if (st)
				n = max(n, READ_ONCE(st->ival_cur));
		}
	}
	return n;
}

/**
 * blkgen_job_interval() - One interval of a workload, summed over workers.
 * @job: the job, job->lock held
 * @wl: workload index in the run
 * @index: interval number, below blkgen_job_nr_intervals()
 * @out: the record
 *
 * A worker's closed interval is read from its ring, and checked again
 * after the copy: if the worker has since moved far enough on to be
 * rewriting that entry, the copy is dropped (the interval is no longer
 * kept). A worker that lags contributes its open interval.
 */
void blkgen_job_interval(struct blkgen_job *job, unsigned int wl, u64 index,
			 struct blkgen_interval *out)
{
	unsigned int i, d;

	memset(out, 0, sizeof(*out));
	out->start_ms = index * job->interval_ms;
	for (i = 0; i < job->nr_workers; i++) {
		const struct blkgen_stats *st;
		struct blkgen_interval src;
		u64 cur;

		st = blkgen_worker_stats(job->workers[i], wl);
		if (!st)
			continue;
		cur = READ_ONCE(st->ival_cur);
		smp_rmb();	/* pairs with the worker's smp_wmb() */
		if (index == cur) {
			src = st->ival_open;	/* a worker that lags */
			smp_rmb();	/* the copy before the second look */
			/* Closed meanwhile: its record is in the ring. */
			cur = READ_ONCE(st->ival_cur);
			smp_rmb();	/* pairs with the worker's smp_wmb() */
		}
		if (index < cur && index + st->ival_cap > cur)
			src = *blkgen_ival_slot(st, index);
		else if (index != cur)
			continue;
		smp_rmb();	/* the copy before the index that may void it */
		if (index + st->ival_cap <= READ_ONCE(st->ival_cur))
			continue;
		for (d = 0; d < 2; d++) {
			out->ios[d] += src.ios[d];
			out->bytes[d] += src.bytes[d];
			out->lat_sum_ns[d] += src.lat_sum_ns[d];
			out->lat_max_ns[d] = max(out->lat_max_ns[d],
						 src.lat_max_ns[d]);
		}
		out->errors += src.errors;
		out->length_ms = max_t(u32, out->length_ms, src.length_ms);
	}
	if (!out->length_ms)
		out->length_ms = job->interval_ms;
}
