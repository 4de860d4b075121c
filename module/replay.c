// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen trace replay: the record ring of a replaying workload.
 *
 * The tool writes trace records (struct blkgen_trace_rec) to WL/trace
 * while the run goes on; they go into a ring of replay_buf_kb, so a trace
 * is bounded by the disk it comes from, not by kernel memory. A writer
 * that finds the ring full waits for the worker to take half of it (or
 * for the run to end); before the run it fills the ring and then gets a
 * short count (ENOSPC when nothing fit): the tool starts the run and
 * writes on. One worker (the job's first) consumes the ring: it owns
 * head, the writers own tail, each publishing with a release store. A
 * write at offset 0 while no run consumes starts a new trace (drops what
 * the ring held); the end of the run that consumed it makes further
 * writes fail with EPIPE.
 */
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "blkgen.h"

/**
 * blkgen_replay_wl_init() - Defaults of a new workload's replay state.
 * @wl: zeroed workload
 */
void blkgen_replay_wl_init(struct blkgen_workload *wl)
{
	wl->replay_speed = BLKGEN_SPEED_ONE;
	wl->replay_buf_kb = 1024;
	mutex_init(&wl->rp.lock);
	init_waitqueue_head(&wl->rp.space_wq);
}

/**
 * blkgen_replay_drop() - Free the ring (and the records it held).
 * @wl: a workload no run consumes, whose ring no writer holds (its
 *	release, or replay_buf_kb written with rp.lock held)
 */
void blkgen_replay_drop(struct blkgen_workload *wl)
{
	if (wl->rp.buf)
		blkgen_mem_uncharge((u64)wl->rp.cap * sizeof(*wl->rp.buf));
	kvfree(wl->rp.buf);
	wl->rp.buf = NULL;
	wl->rp.cap = 0;
	wl->rp.head = 0;
	wl->rp.tail = 0;
	wl->rp.ended = false;
}

/* The ring, if missing: replay_buf_kb rounded down to a power of two. */
static int blkgen_replay_alloc(struct blkgen_workload *wl)
{
	struct blkgen_replay *rp = &wl->rp;
	u32 cap;

	if (rp->buf)
		return 0;
	cap = rounddown_pow_of_two(READ_ONCE(wl->replay_buf_kb) * 1024 /
				   sizeof(*rp->buf));
	if (blkgen_mem_charge((u64)cap * sizeof(*rp->buf)))
		return -ENOMEM;
	rp->buf = kvmalloc_array(cap, sizeof(*rp->buf), GFP_KERNEL);
	if (!rp->buf) {
		blkgen_mem_uncharge((u64)cap * sizeof(*rp->buf));
		return -ENOMEM;
	}
	rp->cap = cap;
	rp->head = 0;
	rp->tail = 0;
	return 0;
}

/**
 * blkgen_replay_prepare() - Check a replaying workload at start.
 * @job: the job, job->lock held
 * @wl: the workload
 *
 * Replay takes its times from the trace: the job's rate_iops would be a
 * second schedule, and verify needs the pattern's own writes. The ring
 * is made if no record was written yet; what the last run left in it is
 * dropped.
 *
 * Return: 0 or a negative errno, the reason in job->error.
 */
int blkgen_replay_prepare(struct blkgen_job *job, struct blkgen_workload *wl)
{
	const char *name = blkgen_wl_name(wl);
	int ret;

	if (wl->replay == BLKGEN_REPLAY_OFF)
		return 0;
	if (job->mode == BLKGEN_MODE_VERIFY || wl->verify) {
		blkgen_job_set_error(job,
				     "%s: replay does not verify (set verify=0) (EINVAL)",
				     name);
		return -EINVAL;
	}
	if (job->rate_iops) {
		blkgen_job_set_error(job,
				     "%s: replay takes its times from the trace: set rate_iops to 0 (EINVAL)",
				     name);
		return -EINVAL;
	}
	mutex_lock(&wl->rp.lock);
	ret = blkgen_replay_alloc(wl);
	if (!ret && wl->rp.ended) {
		wl->rp.head = 0;
		wl->rp.tail = 0;
		wl->rp.ended = false;
	}
	mutex_unlock(&wl->rp.lock);
	if (ret)
		blkgen_job_set_error(job,
				     "%s: no memory for the %u KiB record ring (max_memory_mb, or the system's) (ENOMEM)",
				     name, wl->replay_buf_kb);
	return ret;
}

/**
 * blkgen_replay_run_start() - The run's replaying workloads go live.
 * @job: the job, job->lock held, about to start its workers
 *
 * Under the ring's lock, so a writer's check for a new trace (offset 0,
 * not live) and its reset are one step against the start.
 */
void blkgen_replay_run_start(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_wl_run; i++) {
		struct blkgen_workload *wl = job->wl_run[i];

		if (!wl || wl->replay == BLKGEN_REPLAY_OFF)
			continue;
		/*
		 * The worker that will consume it, named before it runs: a
		 * writer publishing records then always finds it to wake.
		 */
		rcu_assign_pointer(wl->rp.consumer,
				   blkgen_worker_task(job->workers[0]));
		mutex_lock(&wl->rp.lock);
		WRITE_ONCE(wl->rp.live, true);
		mutex_unlock(&wl->rp.lock);
	}
}

/*
 * Release writers waiting for room (EPIPE). The run that consumed the ring
 * ended: it is no longer live either. Without the ring's lock: a writer
 * may hold it while it waits, and wakes on this.
 */
static void blkgen_replay_end(struct blkgen_workload *wl, bool run_ended)
{
	if (wl->replay == BLKGEN_REPLAY_OFF)
		return;
	WRITE_ONCE(wl->rp.ended, true);
	if (run_ended)	/* a writer that sees the run gone sees it ended */
		smp_store_release(&wl->rp.live, false);
	wake_up_all(&wl->rp.space_wq);
}

/**
 * blkgen_replay_release() - The workload is removed: release writers
 *	waiting for room (one would hold up the removal of its sysfs
 *	directory until the run ends). The run may still consume: the ring
 *	stays live, so that no writer resets it under the worker.
 * @wl: the workload, job->lock held
 */
void blkgen_replay_release(struct blkgen_workload *wl)
{
	blkgen_replay_end(wl, false);
}

/**
 * blkgen_replay_run_end() - The run no longer consumes: release writers.
 * @job: the job, job->lock held, its workers done
 */
void blkgen_replay_run_end(struct blkgen_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_wl_run; i++)
		if (job->wl_run[i])
			blkgen_replay_end(job->wl_run[i], true);
}

/**
 * blkgen_replay_consumer() - Name the worker that consumes the ring.
 * @wl: the workload
 * @task: the worker's task, or NULL when it stops consuming (before it
 *	reports done: finish_work then waits a grace period before the
 *	task can go)
 */
void blkgen_replay_consumer(struct blkgen_workload *wl,
			    struct task_struct *task)
{
	rcu_assign_pointer(wl->rp.consumer, task);
}

/**
 * blkgen_replay_consumed() - The worker took records down to half the
 *	ring: wake a writer waiting for room.
 * @rp: the ring
 */
void blkgen_replay_consumed(struct blkgen_replay *rp)
{
	if (wq_has_sleeper(&rp->space_wq))
		wake_up(&rp->space_wq);
}

static u32 blkgen_replay_room(struct blkgen_replay *rp)
{
	/* Pairs with the worker's release of head: its reads are done. */
	return rp->cap - (u32)(rp->tail - smp_load_acquire(&rp->head));
}

static void blkgen_replay_wake(struct blkgen_replay *rp)
{
	struct task_struct *task;

	rcu_read_lock();
	task = rcu_dereference(rp->consumer);
	if (task)
		wake_up_process(task);
	rcu_read_unlock();
}

/**
 * blkgen_replay_write() - Append records written to WL/trace.
 * @wl: the workload
 * @buf: whole records
 * @off: the file offset (0: a new trace, if no run consumes)
 * @count: bytes
 *
 * Context: process context (sysfs write); may sleep while a run
 * consumes and the ring is full.
 *
 * Return: bytes taken (whole records; short when the ring filled before
 * the run, a record was bad, or the wait was interrupted), or -EINVAL (a
 * partial or bad record, or replay=off), -ENOSPC (full, no run), -EPIPE
 * (the run that consumed the ring ended), -ENOMEM, -ERESTARTSYS.
 */
ssize_t blkgen_replay_write(struct blkgen_workload *wl, const char *buf,
			    loff_t off, size_t count)
{
	const struct blkgen_trace_rec *in = (const void *)buf;
	struct blkgen_replay *rp = &wl->rp;
	size_t n = count / sizeof(*in), done = 0;
	ssize_t ret = 0;

	if (count % sizeof(*in) || off % sizeof(*in) ||
	    READ_ONCE(wl->replay) == BLKGEN_REPLAY_OFF)
		return -EINVAL;
	if (mutex_lock_interruptible(&rp->lock))
		return -ERESTARTSYS;
	/* Again under the lock: replay=off drops the ring under it. */
	if (READ_ONCE(wl->replay) == BLKGEN_REPLAY_OFF) {
		ret = -EINVAL;
		goto out;
	}
	if (!off && !READ_ONCE(rp->live)) {
		rp->head = 0;
		rp->tail = 0;
		WRITE_ONCE(rp->ended, false);
	}
	if (READ_ONCE(rp->ended)) {
		ret = -EPIPE;
		goto out;
	}
	if (blkgen_replay_alloc(wl)) {
		ret = -ENOMEM;
		goto out;
	}
	while (done < n) {
		u64 tail = rp->tail;
		u32 room = blkgen_replay_room(rp), k, i;

		if (!room) {
			/*
			 * Pairs with run_end: not live means ended, or idle;
			 * ended while live, the workload is being removed.
			 */
			if (!smp_load_acquire(&rp->live) ||
			    READ_ONCE(rp->ended)) {
				ret = READ_ONCE(rp->ended) ? -EPIPE : -ENOSPC;
				break;
			}
			ret = wait_event_interruptible(rp->space_wq,
						       blkgen_replay_room(rp) ||
						       !READ_ONCE(rp->live) ||
						       READ_ONCE(rp->ended));
			if (ret)
				break;
			continue;
		}
		k = min_t(size_t, room, n - done);
		for (i = 0; i < k; i++) {
			const struct blkgen_trace_rec *r = &in[done + i];

			if (r->op > BLKGEN_TRACE_END || r->reserved) {
				ret = -EINVAL;
				break;
			}
			rp->buf[(tail + i) & (rp->cap - 1)] = *r;
		}
		/* The records before the tail that shows them to the worker. */
		smp_store_release(&rp->tail, tail + i);
		done += i;
		blkgen_replay_wake(rp);
		if (ret)
			break;
	}
out:
	mutex_unlock(&rp->lock);
	return done ? (ssize_t)(done * sizeof(*in)) : ret;
}
