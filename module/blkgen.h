/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen - in-kernel block I/O load generator: shared declarations.
 *
 * Object model: a job (configfs JOB/) holds workloads (JOB/workloads/WL/).
 * Starting a job creates one worker kthread per CPU in the job's cpumask;
 * each worker owns preallocated slots (bio + buffer) for every workload,
 * its own pattern streams and its own statistics. Completions only hand a
 * slot back to its worker; nothing shared is written per I/O.
 *
 * Locking: job->lock serialises configuration writes, state changes,
 * start/finish and sysfs reads of the per-worker statistics; every change
 * of job->state is one transition under it. Workers read the job's
 * configuration (stable while running) and job->stop without it. Those
 * who wait for a run to end (stop, rmdir) wait for that run's generation,
 * not for a completion a later run would reuse. Lock order: job->lock,
 * then the CPU hotplug lock, then the module's list of running jobs.
 */
#ifndef _BLKGEN_H
#define _BLKGEN_H

#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/completion.h>
#include <linux/configfs.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/llist.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "../uapi/linux/blkgen.h"

#include "compat.h"
#include "hist.h"
#include "pattern.h"
#include "replay-map.h"
#include "zoned.h"

#define BLKGEN_ERR_MAX		160	/* bytes of the error string */
#define BLKGEN_STR_MAX		512	/* compound attribute strings */
#define BLKGEN_PATH_MAX		256	/* device path */
#define BLKGEN_MAX_DEPTH	65536	/* per workload */
#define BLKGEN_MAX_ERRORS	1000	/* consecutive errors that fail a run */
#define BLKGEN_SHARE_ONE	10000	/* run_share unit: 0.01% */
/* An armed run's workers are woken this long before start_at, and spin. */
#define BLKGEN_START_SPIN_NS	(2 * NSEC_PER_MSEC)

enum blkgen_state {
	BLKGEN_IDLE,
	BLKGEN_RUNNING,
	BLKGEN_DONE,
	BLKGEN_STOPPED,
	BLKGEN_FAILED,
};

/* What a start does: the workloads' I/O, or a verify pass. */
enum blkgen_mode {
	BLKGEN_MODE_RUN,
	BLKGEN_MODE_VERIFY,
};

enum blkgen_arrival {
	BLKGEN_ARRIVAL_POISSON,
	BLKGEN_ARRIVAL_UNIFORM,
	BLKGEN_ARRIVAL_FIXED,
};

/**
 * struct blkgen_stats - one worker's results for one workload
 * @ios: completed I/Os without error, per direction (0 read, 1 write)
 * @bytes: their bytes
 * @errors: I/Os completed with an error
 * @lat: response-time histograms per direction (intended arrival to
 *	completion)
 * @svc: service-time histograms per direction (submission to completion;
 *	closed loop, the same values as @lat, so not kept: @svc_in_lat)
 * @svc_in_lat: closed loop and a replay as fast as possible: every I/O
 *	is submitted when it is intended to start, its service time is its
 *	response time, and @lat holds both (one histogram recorded per I/O,
 *	not two)
 * @ival: closed intervals, a ring of @ival_cap records by index % cap
 * @ival_cap: records in @ival
 * @ival_cur: index of the open interval (all before it are closed)
 * @ival_open: the open interval's accumulators
 * @late_ios: open loop: measured arrivals that found every slot busy
 * @max_lag_ns: open loop: largest delay from an arrival to its submission
 *	(or to the end, for a measured arrival never submitted)
 * @verify: verify=1: blocks checked by reads, found wrong, and found
 *	old where no completed flush required new data (verify pass)
 * @replay: replay: records remapped into the range, and clipped to bs
 * @zone: zoned workload: zone events, enum blkgen_zone_counter
 * @cycles: its I/Os are stamped with the cycle counter, not ktime_get()
 *	(set at start, before the worker runs)
 *
 * Written only by the owning worker; summed under job->lock when read.
 */
struct blkgen_stats {
	u64 ios[2];
	u64 bytes[2];
	u64 errors;
	struct blkgen_lat_hist lat[2];
	struct blkgen_lat_hist svc[2];
	bool svc_in_lat;
	struct blkgen_interval *ival;
	u32 ival_cap;
	u64 ival_cur;
	struct blkgen_interval ival_open;
	u64 late_ios;
	u64 max_lag_ns;
	u64 verify[3];
	u64 replay[2];
	u64 zone[BLKGEN_ZC_NR];
	bool cycles;
};

#define BLKGEN_VLOG_MAX		64	/* mismatches kept per workload */

/* One line of WL/verify_log. */
struct blkgen_vlog_entry {
	u64 offset;
	u64 home;
	u8 cls;
	u8 expected;
	u8 found;
};

/**
 * struct blkgen_vtable - a verifying workload's generation table (verify.c)
 * @ent: one byte per block (stamp.h: generation, flush epoch, busy)
 * @nr: blocks
 * @start: byte offset of block 0 on the device
 * @block: bytes per block, the workload's smallest I/O size
 * @run_id: the identity its stamps carry
 * @dev_bytes: size of the device it was made for
 * @cur_tag: flush epoch bits new commits carry, 0 without flush_ms
 * @relax: this run is a verify pass: non-durable blocks may be old
 * @loaded: written through WL/verify_table, not made by a run
 * @filled: entries written so far, when @loaded
 */
struct blkgen_vtable {
	u8 *ent;
	u64 nr;
	u64 start;
	u32 block;
	u64 run_id;
	u64 dev_bytes;
	u8 cur_tag;
	bool relax;
	bool loaded;
	u64 filled;
};

/* What a workload's I/O follows: its pattern, or a trace (replay.c). */
enum blkgen_replay_mode {
	BLKGEN_REPLAY_OFF,
	BLKGEN_REPLAY_TIMED,
	BLKGEN_REPLAY_AFAP,
};

/**
 * struct blkgen_replay - a replaying workload's record ring (replay.c)
 * @lock: serialises the writers of WL/trace (never taken by the worker)
 * @buf: the ring, @cap records
 * @cap: records, a power of two
 * @head: records consumed (the worker's; read by writers)
 * @tail: records written (the writers'; read by the worker)
 * @live: a run consumes the ring
 * @ended: the run that consumed it ended; writes fail with EPIPE until
 *	one at offset 0 starts a new trace
 * @consumer: the worker that consumes it, NULL when none (RCU: the task
 *	is released only after a grace period)
 * @space_wq: writers waiting for room
 */
struct blkgen_replay {
	struct mutex lock;		/* the writers of WL/trace */
	struct blkgen_trace_rec *buf;
	u32 cap;
	u64 head;
	u64 tail;
	bool live;
	bool ended;
	struct task_struct __rcu *consumer;
	wait_queue_head_t space_wq;
};

struct blkgen_job;
struct blkgen_worker;

/* The binary results files of a workload. */
enum {
	BLKGEN_SNAP_READ_HIST,
	BLKGEN_SNAP_WRITE_HIST,
	BLKGEN_SNAP_READ_SVC,
	BLKGEN_SNAP_WRITE_SVC,
	BLKGEN_SNAP_INTERVALS,
	BLKGEN_NR_SNAP,
};

#define BLKGEN_SNAP_READERS	4	/* concurrent readers kept apart */

/**
 * struct blkgen_snap - one reader's copy of a binary results file
 * @file: the open file it was taken for (compared, never dereferenced)
 * @results_gen: the results it shows (job->results_gen)
 * @used: when it last served a read (job->snap_clock), for eviction
 * @data: the file's bytes
 * @len: bytes in @data
 * @next: the offset where the reader's last read ended
 *
 * A read that continues the reader's copy (at @next, before the end) is
 * served from the snapshot, so a file read in several calls during a run
 * is one consistent picture; any other read (offset 0, a seek, the end, a
 * new open file that reuses a closed one's address) takes a new one.
 */
struct blkgen_snap {
	const void *file;
	u64 results_gen;
	u64 used;
	void *data;
	size_t len;
	loff_t next;
};

/**
 * struct blkgen_snap_lost - a reader whose snapshot went mid-copy
 * @file: the open file (compared, never dereferenced)
 * @next: where its copy would continue
 *
 * Its snapshot was replaced by a fifth reader's: the copy cannot go on
 * (a new snapshot from there would mix two pictures in one copy).
 */
struct blkgen_snap_lost {
	const void *file;
	loff_t next;
};

/**
 * struct blkgen_workload - one I/O stream (configfs JOB/workloads/WL)
 * @group: configfs directory
 * @kobj: sysfs directory /sys/kernel/blkgen/JOB/WL; owns the memory
 * @job: the job this workload belongs to
 * @node: entry in job->workloads
 * @index: position in the job's last run, UINT_MAX if in none
 * @dropped: removed from configfs (job->lock); a run using it still
 *           holds its kobject
 * @device: block device path
 * @rdpct: percent of reads
 * @seekpct: percent of I/Os at a random offset
 * @depth: outstanding I/Os, split over the workers
 * @share: percent of the job's rate_iops; 0 for an equal split
 * @allow_write: writes permitted
 * @polled: submit with REQ_POLLED and reap with bio_poll()
 * @fua: writes carry REQ_FUA
 * @verify: stamp writes and check reads against @vt
 * @flush_ms: flush the device this often while the run issues, 0 never
 * @bs: size split
 * @zones: access distribution
 * @range: address range as written
 * @bs_str: @bs as last written
 * @dist_str: @zones as last written
 * @range_str: @range as last written, empty for the whole device
 * @dev: the open device while running
 * @pattern: @bs, @zones and @range resolved against @dev at start
 * @run_share: share of the job's rate_iops this run, in 1/BLKGEN_SHARE_ONE
 *             (@share resolved: unset shares split what is left equally)
 * @snap: what a reader of each binary results file is served (job->lock)
 * @snap_lost: readers whose snapshot another took mid-copy (job->lock)
 * @snap_lost_next: where the next one goes in @snap_lost
 * @vt: the generation table (verify.c), kept across runs
 * @vlog_lock: protects @vlog and @vlog_nr
 * @vlog: the run's first mismatches
 * @vlog_nr: entries in @vlog
 * @flushes: flushes completed in the run (written by @flush_work)
 * @flush_work: the periodic flush
 * @flush_next: when the next flush is due (jiffies; @flush_work's own)
 * @replay: take the I/O from WL/trace (enum blkgen_replay_mode)
 * @replay_speed: replay speed in 0.01% (BLKGEN_SPEED_ONE: as traced)
 * @replay_buf_kb: size of the record ring
 * @rp: the record ring
 * @lbs: the device's logical block size while running
 * @max_open_zones: zoned: zones written at once, 0 for the device's limit
 * @zone_reset_threshold: zoned: percent of the range's capacity in full
 *	zones above which zones are reset periodically (100: only when
 *	no zone is left to write to)
 * @zone_reset_frequency: zoned: past the threshold, a reset per
 *	100 / this many writes (percent, fio's zone_reset_frequency)
 * @zone_append: zoned: write with REQ_OP_ZONE_APPEND
 * @read_beyond_wp: zoned: reads go where the pattern says, written or not
 * @zd: zoned: the zones of the range (zoned.c), set at start
 */
struct blkgen_workload {
	struct config_group group;
	struct kobject kobj;
	struct blkgen_job *job;
	struct list_head node;
	unsigned int index;
	bool dropped;

	char device[BLKGEN_PATH_MAX];
	u32 rdpct;
	u32 seekpct;
	u32 depth;
	u32 share;
	bool allow_write;
	bool polled;
	bool fua;
	bool verify;
	u32 flush_ms;
	struct blkgen_bs bs;
	struct blkgen_zones zones;
	struct blkgen_range range;
	char bs_str[BLKGEN_STR_MAX];
	char dist_str[BLKGEN_STR_MAX];
	char range_str[BLKGEN_STR_MAX];

	struct blkgen_bdev dev;
	struct blkgen_pattern pattern;
	u32 run_share;
	struct blkgen_snap snap[BLKGEN_NR_SNAP][BLKGEN_SNAP_READERS];
	struct blkgen_snap_lost snap_lost[BLKGEN_NR_SNAP][BLKGEN_SNAP_READERS];
	u32 snap_lost_next[BLKGEN_NR_SNAP];
	struct blkgen_vtable vt;
	spinlock_t vlog_lock;		/* @vlog, @vlog_nr */
	struct blkgen_vlog_entry vlog[BLKGEN_VLOG_MAX];
	u32 vlog_nr;
	u64 flushes;
	struct delayed_work flush_work;
	unsigned long flush_next;
	u32 replay;
	u32 replay_speed;
	u32 replay_buf_kb;
	struct blkgen_replay rp;
	u32 lbs;
	u32 max_open_zones;
	u32 zone_reset_threshold;
	u32 zone_reset_frequency;
	bool zone_append;
	bool read_beyond_wp;
	struct blkgen_zoned zd;
};

/*
 * A workload's name, for messages: its kobject's copy, which lives as long
 * as the workload's memory (a run holds it); configfs frees its own at
 * rmdir, while a removed workload's run may still be draining.
 */
static inline const char *blkgen_wl_name(const struct blkgen_workload *wl)
{
	return kobject_name(&wl->kobj);
}

/**
 * struct blkgen_job - one run definition and its results (configfs JOB)
 * @group: configfs directory
 * @wl_group: the default group JOB/workloads
 * @kobj: sysfs directory /sys/kernel/blkgen/JOB; owns the memory
 * @lock: see the locking comment at the top of this file
 * @workloads: list of struct blkgen_workload, in creation order
 * @nr_workloads: entries in @workloads
 * @cpus: CPUs to run workers on
 * @cpus_set: @cpus was written (else all online CPUs at start)
 * @duration_ms: measured time; 0 = until stopped or @io_limit
 * @warmup_ms: unmeasured time before it
 * @interval_ms: time-series interval
 * @rate_iops: open-loop target, 0 = unthrottled
 * @arrival: arrival process for @rate_iops
 * @io_limit: measured I/Os to issue, 0 = no limit
 * @seed: PRNG seed, 0 = random per run
 * @mode: what a start does (enum blkgen_mode)
 * @verify_fatal: the first verify mismatch fails the run
 * @start_at: CLOCK_REALTIME ns of the run's start, 0 = at once
 * @state: enum blkgen_state
 * @error: why the run failed, empty if it did not
 * @error_set: bit 0 set once @error is claimed (the first reason wins)
 * @stop: workers stop issuing when set (user stop, fatal error)
 * @wl_run: the workloads of the current run, by index
 * @nr_wl_run: entries in @wl_run
 * @workers: the workers of the current (or last) run
 * @nr_workers: entries in @workers
 * @nr_active: workers still issuing or draining
 * @finish_work: tears a run down once the last worker is done
 * @run_gen: generation of the current or last run (counts starts)
 * @ended_gen: generation of the last run torn down; ended_wq wakes on it
 * @ended_wq: stop and rmdir wait here for their run to end
 * @running_node: entry in the module's list of running jobs (hotplug)
 * @results_gen: counts the times the results were dropped (snapshots)
 * @snap_clock: counts snapshot reads (eviction order)
 * @mem_charged: what the run's workers were charged (blkgen_mem_charge):
 *	their I/O slots (@mem_io), given back when the run ends, and their
 *	statistics, given back when its results are dropped
 * @mem_io: the I/O slots' part of @mem_charged, 0 once the run ended
 * @run_seed: the seed in use
 * @t_start: run start (ktime ns)
 * @t_measure: end of warmup: the measured window starts here
 * @t_deadline: end of the measured window, U64_MAX if none
 * @t_end: when the run ended, 0 while running
 * @t_real_off: CLOCK_REALTIME - ktime in ns at the run's start
 * @interval_ns: @interval_ms in ns, for the run
 * @ival_cap: interval records shown per workload in this run (the rings
 *	hold one more, the one a worker may be writing)
 * @record: latencies are recorded in this run (module parameter latency)
 * @armed: the run waits for @start_at (state shows "armed"); cleared once,
 *	by @start_timer, with a release after the run's times are set
 * @start_timer: an absolute CLOCK_REALTIME timer BLKGEN_START_SPIN_NS
 *	before @start_at: sets the run's times and wakes the workers, which
 *	spin to @start_at
 */
struct blkgen_job {
	struct config_group group;
	struct config_group wl_group;
	struct kobject kobj;
	struct mutex lock;		/* see the top of this file */
	struct list_head workloads;
	unsigned int nr_workloads;

	cpumask_var_t cpus;
	bool cpus_set;
	u64 duration_ms;
	u64 warmup_ms;
	u64 interval_ms;
	u64 rate_iops;
	enum blkgen_arrival arrival;
	u64 io_limit;
	u64 seed;
	enum blkgen_mode mode;
	bool verify_fatal;
	u64 start_at;

	enum blkgen_state state;
	char error[BLKGEN_ERR_MAX];
	unsigned long error_set;
	bool stop;
	struct blkgen_workload **wl_run;
	unsigned int nr_wl_run;
	struct blkgen_worker **workers;
	unsigned int nr_workers;
	atomic_t nr_active;
	struct work_struct finish_work;
	u64 run_gen;
	u64 ended_gen;
	wait_queue_head_t ended_wq;
	struct list_head running_node;
	u64 results_gen;
	u64 snap_clock;
	u64 mem_charged;
	u64 mem_io;
	u64 run_seed;
	u64 t_start;
	u64 t_measure;
	u64 t_deadline;
	u64 t_end;
	s64 t_real_off;
	u64 interval_ns;
	u32 ival_cap;
	bool record;
	bool armed;
	struct hrtimer start_timer;
};

/**
 * blkgen_ival_slot() - Where interval @index is kept in a worker's ring.
 * @st: a worker's statistics for one workload
 * @index: interval number from the start of the measured window
 * Return: the ring entry.
 */
static inline struct blkgen_interval *
blkgen_ival_slot(const struct blkgen_stats *st, u64 index)
{
	u32 rem;

	div_u64_rem(index, st->ival_cap, &rem);
	return &st->ival[rem];
}

/* configfs.c */
int blkgen_configfs_init(void);
void blkgen_configfs_exit(void);
const char *blkgen_state_name(enum blkgen_state state);
const char *blkgen_job_state_name(struct blkgen_job *job);

/* job.c */
int blkgen_job_init(struct blkgen_job *job);
void blkgen_job_destroy(struct blkgen_job *job);
int blkgen_job_start(struct blkgen_job *job);
int blkgen_job_stop_killable(struct blkgen_job *job);
u64 blkgen_job_stop_locked(struct blkgen_job *job);
int blkgen_jobs_init(void);
void blkgen_jobs_exit(void);
void blkgen_job_set_error(struct blkgen_job *job, const char *fmt, ...)
	__printf(2, 3);
void blkgen_job_fail(struct blkgen_job *job, const char *fmt, ...)
	__printf(2, 3);
void blkgen_job_worker_done(struct blkgen_job *job);
void blkgen_job_wake_workers(struct blkgen_job *job);
u64 blkgen_job_elapsed_ms(struct blkgen_job *job);
void blkgen_job_real_times(struct blkgen_job *job, u64 *started, u64 *ended);
int blkgen_start_at_check(u64 start_at, u64 now);
const char *blkgen_errno_name(int err);

/* worker.c */
struct blkgen_worker *blkgen_worker_create(struct blkgen_job *job,
					   unsigned int index,
					   unsigned int cpu);
u64 blkgen_worker_mem(struct blkgen_job *job, unsigned int index, u64 *io);
unsigned int blkgen_worker_cpu(struct blkgen_worker *w);
struct task_struct *blkgen_worker_task(struct blkgen_worker *w);
bool blkgen_worker_drained(struct blkgen_worker *w);
void blkgen_worker_times(struct blkgen_worker *w, u64 *first, u64 *last);
void blkgen_worker_free_io(struct blkgen_worker *w);
void blkgen_worker_destroy(struct blkgen_worker *w);
void blkgen_worker_wake(struct blkgen_worker *w);
void blkgen_worker_stop(struct blkgen_worker *w);
const struct blkgen_stats *blkgen_worker_stats(struct blkgen_worker *w,
					       unsigned int wl);
u64 blkgen_job_nr_intervals(struct blkgen_job *job);
void blkgen_job_interval(struct blkgen_job *job, unsigned int wl, u64 index,
			 struct blkgen_interval *out);
void blkgen_worker_start(struct blkgen_worker *w);

/* verify.c */
void blkgen_verify_init(void);

/* mem.c */
u64 blkgen_mem_limit(void);
u64 blkgen_mem_used(void);
int blkgen_mem_charge(u64 bytes);
void blkgen_mem_uncharge(u64 bytes);
void blkgen_verify_wl_init(struct blkgen_workload *wl);
void blkgen_verify_drop(struct blkgen_workload *wl);
int blkgen_verify_prepare(struct blkgen_job *job, struct blkgen_workload *wl);
int blkgen_verify_check_overlap(struct blkgen_job *job);
void blkgen_verify_run_start(struct blkgen_job *job);
void blkgen_verify_run_end(struct blkgen_job *job);
bool blkgen_verify_hold(struct blkgen_vtable *vt, u64 offset, u32 size,
			u64 *blk, u32 *nr);
void blkgen_verify_release(struct blkgen_vtable *vt, u64 blk, u32 nr);
bool blkgen_verify_zone_hold(struct blkgen_vtable *vt, u64 offset, u64 bytes);
void blkgen_verify_zone_reset(struct blkgen_vtable *vt, u64 offset, u64 bytes);
void blkgen_verify_append_moved(struct blkgen_workload *wl, u64 blk, u32 nr,
				u64 landed, u64 res[3]);
void blkgen_verify_keys(struct page **pages, u32 *keys, u32 nr);
void blkgen_verify_stamp(struct blkgen_vtable *vt, struct page **pages,
			 const u32 *keys, u64 blk, u32 nr);
void blkgen_verify_unstamp(struct blkgen_vtable *vt, struct page **pages,
			   u32 nr);
void blkgen_verify_commit(struct blkgen_vtable *vt, u64 blk, u32 nr,
			  bool ok);
void blkgen_verify_check(struct blkgen_workload *wl, struct page **pages,
			 u64 blk, u32 nr, u64 res[3]);
ssize_t blkgen_verify_log_show(struct blkgen_workload *wl, char *buf);
ssize_t blkgen_verify_table_read(struct blkgen_workload *wl, char *buf,
				 loff_t off, size_t count);
ssize_t blkgen_verify_table_write(struct blkgen_workload *wl, const char *buf,
				  loff_t off, size_t count);

/* replay.c */
void blkgen_replay_wl_init(struct blkgen_workload *wl);
void blkgen_replay_drop(struct blkgen_workload *wl);
int blkgen_replay_prepare(struct blkgen_job *job, struct blkgen_workload *wl);
void blkgen_replay_run_start(struct blkgen_job *job);
void blkgen_replay_run_end(struct blkgen_job *job);
void blkgen_replay_release(struct blkgen_workload *wl);
ssize_t blkgen_replay_write(struct blkgen_workload *wl, const char *buf,
			    loff_t off, size_t count);
void blkgen_replay_consumer(struct blkgen_workload *wl,
			    struct task_struct *task);
void blkgen_replay_consumed(struct blkgen_replay *rp);

/*
 * The worker's side of the ring: the next record (false if none yet), and
 * taking it. The writer publishes records with a release store of tail.
 */
static inline bool blkgen_replay_peek(struct blkgen_replay *rp,
				      struct blkgen_trace_rec *rec)
{
	u64 head = rp->head;

	/* Pairs with the writer's release of tail: the records are there. */
	if (head == smp_load_acquire(&rp->tail))
		return false;
	*rec = rp->buf[head & (rp->cap - 1)];
	return true;
}

/* sysfs.c */
extern struct kobject *blkgen_sysfs_root;
bool blkgen_sysfs_job_file(const char *name);
int blkgen_sysfs_init(void);
void blkgen_sysfs_exit(void);
int blkgen_sysfs_job_add(struct blkgen_job *job, const char *name);
int blkgen_sysfs_wl_add(struct blkgen_workload *wl, const char *name);
void blkgen_sysfs_job_put(struct blkgen_job *job);
void blkgen_sysfs_wl_put(struct blkgen_workload *wl);

#endif /* _BLKGEN_H */
