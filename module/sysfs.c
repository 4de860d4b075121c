// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen results in sysfs: /sys/kernel/blkgen/JOB/ and JOB/WL/.
 *
 * Each job and workload embeds a kobject that owns its memory: configfs
 * release deletes the sysfs directory (waiting for readers) and drops the
 * last reference, whose release frees the object. Per-worker statistics
 * are summed under job->lock when read. The binary files are served from
 * a snapshot taken when a reader starts a copy (struct blkgen_snap).
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "blkgen.h"

struct kobject *blkgen_sysfs_root;

static struct blkgen_job *kobj_to_job(struct kobject *kobj)
{
	return container_of(kobj, struct blkgen_job, kobj);
}

static struct blkgen_workload *kobj_to_wl(struct kobject *kobj)
{
	return container_of(kobj, struct blkgen_workload, kobj);
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct blkgen_job *job = kobj_to_job(kobj);

	return sysfs_emit(buf, "%s\n", blkgen_job_state_name(job));
}

static ssize_t error_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct blkgen_job *job = kobj_to_job(kobj);
	ssize_t n;

	mutex_lock(&job->lock);
	n = sysfs_emit(buf, "%s\n", job->error);
	mutex_unlock(&job->lock);
	return n;
}

static ssize_t elapsed_ms_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct blkgen_job *job = kobj_to_job(kobj);
	u64 ms;

	mutex_lock(&job->lock);
	ms = blkgen_job_elapsed_ms(job);
	mutex_unlock(&job->lock);
	return sysfs_emit(buf, "%llu\n", (unsigned long long)ms);
}

/* CLOCK_REALTIME ns of the run's first I/O issued and of its end. */
static ssize_t blkgen_real_time_show(struct kobject *kobj, char *buf,
				     bool end)
{
	struct blkgen_job *job = kobj_to_job(kobj);
	u64 started, ended;

	mutex_lock(&job->lock);
	blkgen_job_real_times(job, &started, &ended);
	mutex_unlock(&job->lock);
	return sysfs_emit(buf, "%llu\n",
			  (unsigned long long)(end ? ended : started));
}

static ssize_t started_at_ns_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return blkgen_real_time_show(kobj, buf, false);
}

static ssize_t ended_at_ns_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return blkgen_real_time_show(kobj, buf, true);
}

static struct kobj_attribute blkgen_attr_state = __ATTR_RO(state);
static struct kobj_attribute blkgen_attr_error = __ATTR_RO(error);
static struct kobj_attribute blkgen_attr_elapsed_ms = __ATTR_RO(elapsed_ms);
static struct kobj_attribute blkgen_attr_started_at_ns =
	__ATTR_RO(started_at_ns);
static struct kobj_attribute blkgen_attr_ended_at_ns = __ATTR_RO(ended_at_ns);

static struct attribute *blkgen_job_attrs[] = {
	&blkgen_attr_state.attr,
	&blkgen_attr_error.attr,
	&blkgen_attr_elapsed_ms.attr,
	&blkgen_attr_started_at_ns.attr,
	&blkgen_attr_ended_at_ns.attr,
	NULL,
};
ATTRIBUTE_GROUPS(blkgen_job);

/**
 * blkgen_sysfs_job_file() - Whether @name is a file of the job's directory.
 * @name: a would-be workload name
 * Return: true for "state", "error" and the like (a workload of that name
 * could not have its directory beside them).
 */
bool blkgen_sysfs_job_file(const char *name)
{
	struct attribute **a;

	for (a = blkgen_job_attrs; *a; a++)
		if (!strcmp((*a)->name, name))
			return true;
	return false;
}

/* The last reference: configfs's, or a run's at its very end. */
static void blkgen_job_kobj_release(struct kobject *kobj)
{
	struct blkgen_job *job = kobj_to_job(kobj);

	blkgen_job_destroy(job);
	kfree(job);
}

static const struct kobj_type blkgen_job_ktype = {
	.release	= blkgen_job_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= blkgen_job_groups,
};

enum blkgen_counter {
	BLKGEN_READ_IOS,
	BLKGEN_WRITE_IOS,
	BLKGEN_READ_BYTES,
	BLKGEN_WRITE_BYTES,
	BLKGEN_ERRORS,
	BLKGEN_LATE_IOS,
	BLKGEN_MAX_LAG,		/* a maximum over workers, not a sum */
	BLKGEN_VERIFY_CHECKED,
	BLKGEN_VERIFY_ERRORS,
	BLKGEN_VERIFY_UNFLUSHED,
	BLKGEN_REPLAY_REMAPPED,
	BLKGEN_REPLAY_CLIPPED,
	BLKGEN_ZONES_OPENED,
	BLKGEN_ZONES_FINISHED,
	BLKGEN_ZONE_RESETS,
	BLKGEN_ZONE_APPENDS,
	BLKGEN_ZONE_READS_BEYOND_WP,
};

static u64 blkgen_counter(const struct blkgen_stats *st,
			  enum blkgen_counter c)
{
	switch (c) {
	case BLKGEN_READ_IOS:
		return READ_ONCE(st->ios[0]);
	case BLKGEN_WRITE_IOS:
		return READ_ONCE(st->ios[1]);
	case BLKGEN_READ_BYTES:
		return READ_ONCE(st->bytes[0]);
	case BLKGEN_WRITE_BYTES:
		return READ_ONCE(st->bytes[1]);
	case BLKGEN_LATE_IOS:
		return READ_ONCE(st->late_ios);
	case BLKGEN_MAX_LAG:
		return READ_ONCE(st->max_lag_ns);
	case BLKGEN_VERIFY_CHECKED:
	case BLKGEN_VERIFY_ERRORS:
	case BLKGEN_VERIFY_UNFLUSHED:
		return READ_ONCE(st->verify[c - BLKGEN_VERIFY_CHECKED]);
	case BLKGEN_REPLAY_REMAPPED:
	case BLKGEN_REPLAY_CLIPPED:
		return READ_ONCE(st->replay[c - BLKGEN_REPLAY_REMAPPED]);
	case BLKGEN_ZONES_OPENED:
	case BLKGEN_ZONES_FINISHED:
	case BLKGEN_ZONE_RESETS:
	case BLKGEN_ZONE_APPENDS:
	case BLKGEN_ZONE_READS_BEYOND_WP:
		return READ_ONCE(st->zone[c - BLKGEN_ZONES_OPENED]);
	default:
		return READ_ONCE(st->errors);
	}
}

/*
 * Call @fn on each worker's statistics of the workload's last run, under
 * job->lock (the workers and their statistics stay until it is dropped).
 */
static void blkgen_wl_each_stats(struct blkgen_workload *wl,
				 void (*fn)(const struct blkgen_stats *st,
					    void *arg),
				 void *arg)
{
	struct blkgen_job *job = wl->job;
	unsigned int i;

	mutex_lock(&job->lock);
	if (wl->index < job->nr_wl_run && job->wl_run[wl->index] == wl) {
		for (i = 0; i < job->nr_workers; i++) {
			const struct blkgen_stats *st;

			st = blkgen_worker_stats(job->workers[i], wl->index);
			if (st)
				fn(st, arg);
		}
	}
	mutex_unlock(&job->lock);
}

struct blkgen_counter_acc {
	enum blkgen_counter c;
	u64 v;		/* a sum, or for max_lag_ns a maximum */
};

static void blkgen_counter_add(const struct blkgen_stats *st, void *arg)
{
	struct blkgen_counter_acc *acc = arg;

	if (acc->c == BLKGEN_MAX_LAG)
		acc->v = max(acc->v, blkgen_counter(st, acc->c));
	else
		acc->v += blkgen_counter(st, acc->c);
}

/* Sum a counter over the workers of the workload's last run. */
static ssize_t blkgen_wl_counter_show(struct kobject *kobj, char *buf,
				      enum blkgen_counter c)
{
	struct blkgen_counter_acc acc = { .c = c };

	blkgen_wl_each_stats(kobj_to_wl(kobj), blkgen_counter_add, &acc);
	return sysfs_emit(buf, "%llu\n", (unsigned long long)acc.v);
}

#define BLKGEN_COUNTER_ATTR(_name, _counter)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return blkgen_wl_counter_show(kobj, buf, _counter);		\
}									\
static struct kobj_attribute blkgen_attr_##_name = __ATTR_RO(_name)

BLKGEN_COUNTER_ATTR(read_ios, BLKGEN_READ_IOS);
BLKGEN_COUNTER_ATTR(write_ios, BLKGEN_WRITE_IOS);
BLKGEN_COUNTER_ATTR(read_bytes, BLKGEN_READ_BYTES);
BLKGEN_COUNTER_ATTR(write_bytes, BLKGEN_WRITE_BYTES);
BLKGEN_COUNTER_ATTR(errors, BLKGEN_ERRORS);
BLKGEN_COUNTER_ATTR(late_ios, BLKGEN_LATE_IOS);
BLKGEN_COUNTER_ATTR(max_lag_ns, BLKGEN_MAX_LAG);
BLKGEN_COUNTER_ATTR(verify_checked, BLKGEN_VERIFY_CHECKED);
BLKGEN_COUNTER_ATTR(verify_errors, BLKGEN_VERIFY_ERRORS);
BLKGEN_COUNTER_ATTR(verify_unflushed, BLKGEN_VERIFY_UNFLUSHED);
BLKGEN_COUNTER_ATTR(replay_remapped, BLKGEN_REPLAY_REMAPPED);
BLKGEN_COUNTER_ATTR(replay_clipped, BLKGEN_REPLAY_CLIPPED);
BLKGEN_COUNTER_ATTR(zones_opened, BLKGEN_ZONES_OPENED);
BLKGEN_COUNTER_ATTR(zones_finished, BLKGEN_ZONES_FINISHED);
BLKGEN_COUNTER_ATTR(zone_resets, BLKGEN_ZONE_RESETS);
BLKGEN_COUNTER_ATTR(zone_appends, BLKGEN_ZONE_APPENDS);
BLKGEN_COUNTER_ATTR(zone_reads_beyond_wp, BLKGEN_ZONE_READS_BEYOND_WP);

/* Which clocks a run's workers stamped with: bit 0 ktime, bit 1 cycles. */
static void blkgen_clock_add(const struct blkgen_stats *st, void *arg)
{
	*(unsigned int *)arg |= st->cycles ? 2 : 1;
}

/*
 * The clock the workload's last run stamped its I/Os with: the cycle
 * counter's clocksource (the closed loop's fast path where timekeeping
 * reads it), ktime, both (workers that differed), or none (not run).
 */
static ssize_t clock_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	unsigned int seen = 0;

	blkgen_wl_each_stats(kobj_to_wl(kobj), blkgen_clock_add, &seen);
	switch (seen) {
	case 3:
		return sysfs_emit(buf, "%s ktime\n", BLKGEN_CYCLES_NAME);
	case 2:
		return sysfs_emit(buf, "%s\n", BLKGEN_CYCLES_NAME);
	case 1:
		return sysfs_emit(buf, "ktime\n");
	default:
		return sysfs_emit(buf, "none\n");
	}
}

static struct kobj_attribute blkgen_attr_clock = __ATTR_RO(clock);

static ssize_t flushes_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);

	return sysfs_emit(buf, "%llu\n",
			  (unsigned long long)READ_ONCE(wl->flushes));
}

static struct kobj_attribute blkgen_attr_flushes = __ATTR_RO(flushes);

static ssize_t verify_log_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return blkgen_verify_log_show(kobj_to_wl(kobj), buf);
}

static struct kobj_attribute blkgen_attr_verify_log = __ATTR_RO(verify_log);

#define BLKGEN_HIST_FILE_SIZE						\
	(sizeof(struct blkgen_hist) + BLKGEN_HIST_NR_BINS * sizeof(__u64))

/*
 * The uapi records with their byte order spelled out for sparse: the
 * files are little-endian whatever the CPU.
 */
struct blkgen_hist_le {
	__le32 magic;
	__le16 version;
	__le16 sub_bits;
	__le32 nr_bins;
	__le32 reserved;
	__le64 count;
	__le64 sum_ns;
	__le64 min_ns;
	__le64 max_ns;
	__le64 bins[];
};

struct blkgen_interval_le {
	__le64 start_ms;
	__le32 length_ms;
	__le32 reserved;
	__le64 ios[2];
	__le64 bytes[2];
	__le64 lat_sum_ns[2];
	__le64 lat_max_ns[2];
	__le64 errors;
};

static void blkgen_interval_to_le(const struct blkgen_interval *in,
				  struct blkgen_interval_le *out)
{
	int d;

	memset(out, 0, sizeof(*out));
	out->start_ms = cpu_to_le64(in->start_ms);
	out->length_ms = cpu_to_le32(in->length_ms);
	for (d = 0; d < 2; d++) {
		out->ios[d] = cpu_to_le64(in->ios[d]);
		out->bytes[d] = cpu_to_le64(in->bytes[d]);
		out->lat_sum_ns[d] = cpu_to_le64(in->lat_sum_ns[d]);
		out->lat_max_ns[d] = cpu_to_le64(in->lat_max_ns[d]);
	}
	out->errors = cpu_to_le64(in->errors);
}

/*
 * Merge the workers' histograms of one direction into the uapi layout:
 * response times, or service times if @svc. job->lock held.
 */
static struct blkgen_hist_le *blkgen_hist_export(struct blkgen_workload *wl,
						 int dir, bool svc)
{
	struct blkgen_job *job = wl->job;
	struct blkgen_lat_hist *sum;
	struct blkgen_hist_le *out;
	unsigned int i;

	BUILD_BUG_ON(BLKGEN_HIST_BINS != BLKGEN_HIST_NR_BINS);
	BUILD_BUG_ON(sizeof(struct blkgen_hist) != 48);
	BUILD_BUG_ON(sizeof(struct blkgen_hist_le) != 48);
	BUILD_BUG_ON(sizeof(struct blkgen_interval_le) !=
		     sizeof(struct blkgen_interval));
	sum = kvmalloc(sizeof(*sum), GFP_KERNEL);
	out = kvzalloc(BLKGEN_HIST_FILE_SIZE, GFP_KERNEL);
	if (!sum || !out) {
		kvfree(sum);
		kvfree(out);
		return NULL;
	}
	blkgen_hist_reset(sum);
	if (wl->index < job->nr_wl_run && job->wl_run[wl->index] == wl) {
		for (i = 0; i < job->nr_workers; i++) {
			const struct blkgen_stats *st;

			st = blkgen_worker_stats(job->workers[i], wl->index);
			if (st)
				blkgen_hist_merge(sum, svc && !st->svc_in_lat ?
						  &st->svc[dir] :
						  &st->lat[dir]);
		}
	}

	out->magic = cpu_to_le32(BLKGEN_HIST_MAGIC);
	out->version = cpu_to_le16(BLKGEN_HIST_VERSION);
	out->sub_bits = cpu_to_le16(BLKGEN_HIST_SUB_BITS);
	out->nr_bins = cpu_to_le32(BLKGEN_HIST_NR_BINS);
	/* count is the sum of the bins even when read during a run. */
	sum->count = 0;
	for (i = 0; i < BLKGEN_HIST_NR_BINS; i++) {
		out->bins[i] = cpu_to_le64(sum->bins[i]);
		sum->count += sum->bins[i];
	}
	out->count = cpu_to_le64(sum->count);
	out->sum_ns = cpu_to_le64(sum->sum_ns);
	out->min_ns = cpu_to_le64(sum->count ? sum->min_ns : 0);
	out->max_ns = cpu_to_le64(sum->max_ns);
	kvfree(sum);
	return out;
}

/*
 * Which finished intervals the file holds: [*first, *n), none if equal.
 * job->lock held.
 */
static void blkgen_intervals_range(struct blkgen_workload *wl, u64 *first,
				   u64 *n)
{
	struct blkgen_job *job = wl->job;

	*first = 0;
	*n = 0;
	if (wl->index >= job->nr_wl_run || job->wl_run[wl->index] != wl)
		return;
	*n = blkgen_job_nr_intervals(job);
	*first = *n > job->ival_cap ? *n - job->ival_cap : 0;
}

/*
 * Intervals [first, n) of @wl (n > first), oldest first, as the file
 * holds them; NULL if out of memory. job->lock held.
 */
static void *blkgen_intervals_export(struct blkgen_workload *wl, u64 first,
				     u64 n)
{
	struct blkgen_interval_le *out;
	struct blkgen_interval iv;
	u64 i;

	out = kvmalloc_array(n - first, sizeof(*out), GFP_KERNEL);
	if (!out)
		return NULL;
	for (i = 0; first + i < n; i++) {
		blkgen_job_interval(wl->job, wl->index, first + i, &iv);
		blkgen_interval_to_le(&iv, &out[i]);
	}
	return out;
}

/* Fill snapshot @sn of file @which for reader @file. job->lock held. */
static int blkgen_snap_take(struct blkgen_workload *wl, int which,
			    struct blkgen_snap *sn, const void *file)
{
	size_t len = BLKGEN_HIST_FILE_SIZE;
	void *data = NULL;
	u64 first = 0, n = 0;
	unsigned int i;

	if (which == BLKGEN_SNAP_INTERVALS) {
		blkgen_intervals_range(wl, &first, &n);
		len = (n - first) * sizeof(struct blkgen_interval_le);
	}
	/* Counted before it is allocated, like all that blkgen holds. */
	if (len && blkgen_mem_charge(len))
		return -ENOMEM;
	if (which == BLKGEN_SNAP_INTERVALS)
		data = len ? blkgen_intervals_export(wl, first, n) : NULL;
	else
		data = blkgen_hist_export(wl,
					  which == BLKGEN_SNAP_WRITE_HIST ||
					  which == BLKGEN_SNAP_WRITE_SVC,
					  which == BLKGEN_SNAP_READ_SVC ||
					  which == BLKGEN_SNAP_WRITE_SVC);
	if (!data && len) {
		blkgen_mem_uncharge(len);
		return -ENOMEM;
	}
	if (sn->data)
		blkgen_mem_uncharge(sn->len);
	kvfree(sn->data);
	sn->data = data;
	sn->len = len;
	sn->file = file;
	sn->results_gen = wl->job->results_gen;
	/* a new copy: a lost one of this reader's is history */
	for (i = 0; i < BLKGEN_SNAP_READERS; i++)
		if (wl->snap_lost[which][i].file == file)
			wl->snap_lost[which][i].file = NULL;
	return 0;
}

/*
 * The snapshot of @file for results file @which: its own if it has one of
 * the current results, else the least recently used one (to be taken).
 */
static struct blkgen_snap *blkgen_snap_find(struct blkgen_workload *wl,
					    int which, const void *file,
					    bool *found)
{
	struct blkgen_snap *sn = wl->snap[which], *lru = sn;
	unsigned int i;

	for (i = 0; i < BLKGEN_SNAP_READERS; i++) {
		if (sn[i].file == file &&
		    sn[i].results_gen == wl->job->results_gen) {
			*found = true;
			return &sn[i];
		}
		if (sn[i].used < lru->used)
			lru = &sn[i];
	}
	*found = false;
	return lru;
}

/*
 * @sn, another reader's, is about to be taken for @file: if that reader
 * was in the middle of its copy, remember where, so that its next read
 * fails rather than continue from a new snapshot. A copy of results
 * dropped since (a new start) is remembered too: with its snapshot gone,
 * nothing else would stop it going on from the new results.
 */
static void blkgen_snap_evict(struct blkgen_workload *wl, int which,
			      struct blkgen_snap *sn, const void *file)
{
	struct blkgen_snap_lost *l;

	if (!sn->file || sn->file == file || !sn->next || sn->next >= sn->len)
		return;
	l = &wl->snap_lost[which][wl->snap_lost_next[which]];
	wl->snap_lost_next[which] = (wl->snap_lost_next[which] + 1) %
				    BLKGEN_SNAP_READERS;
	l->file = sn->file;
	l->next = sn->next;
}

/*
 * A read at @off > 0 by @file, which has no snapshot of the current
 * results: true if it continues a copy whose snapshot is gone, taken by
 * a fifth reader or dropped with the results (a new start).
 */
static bool blkgen_snap_gone(struct blkgen_workload *wl, int which,
			     const void *file, loff_t off)
{
	unsigned int i;

	for (i = 0; i < BLKGEN_SNAP_READERS; i++) {
		struct blkgen_snap_lost *l = &wl->snap_lost[which][i];
		struct blkgen_snap *sn = &wl->snap[which][i];

		if (l->file == file && l->next == off)
			return true;
		if (sn->file == file && sn->next == off && off < sn->len)
			return true;
	}
	return false;
}

/*
 * Serve a read of a binary results file. A reader (an open file) has its
 * own snapshot, kept for up to BLKGEN_SNAP_READERS readers at once. A read
 * that continues the reader's copy where its last read ended is served
 * from it, so a file read in page-sized pieces during a run is one
 * consistent picture. Any other read takes a new snapshot: offset 0, a
 * seek, at or past the end (a reader that follows a growing file), or a
 * reader without one. An open file is known only by its address, which a
 * later open may reuse: that reader's first read is not where the closed
 * one stopped, so it is never served the closed one's copy. A read that
 * continues a copy whose snapshot is gone (a fifth reader took it, or a
 * new start dropped the results) fails with ESTALE: from a new snapshot
 * it would mix two pictures in one copy.
 */
static ssize_t blkgen_snap_read(struct file *file, struct kobject *kobj,
				int which, char *buf, loff_t off,
				size_t count)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);
	struct blkgen_job *job = wl->job;
	struct blkgen_snap *sn;
	bool found;
	ssize_t ret;

	mutex_lock(&job->lock);
	sn = blkgen_snap_find(wl, which, file, &found);
	if (!found && off && blkgen_snap_gone(wl, which, file, off)) {
		ret = -ESTALE;
		goto out_unlock;
	}
	if (!found || off != sn->next || off >= sn->len) {
		if (!found)
			blkgen_snap_evict(wl, which, sn, file);
		ret = blkgen_snap_take(wl, which, sn, file);
		if (ret)
			goto out_unlock;
	}
	sn->used = ++job->snap_clock;
	ret = 0;
	if (off < sn->len) {
		ret = min_t(size_t, count, sn->len - off);
		memcpy(buf, (char *)sn->data + off, ret);
	}
	sn->next = off + ret;
out_unlock:
	mutex_unlock(&job->lock);
	return ret;
}

/* Free a workload's snapshots (it is being freed). */
static void blkgen_snap_free(struct blkgen_workload *wl)
{
	unsigned int i, j;

	for (i = 0; i < BLKGEN_NR_SNAP; i++)
		for (j = 0; j < BLKGEN_SNAP_READERS; j++) {
			if (wl->snap[i][j].data)
				blkgen_mem_uncharge(wl->snap[i][j].len);
			kvfree(wl->snap[i][j].data);
		}
}

/*
 * The snapshot files (the latency histograms, service times included, and
 * the intervals): one read callback, the file's kind in ->private.
 */
static ssize_t blkgen_snap_bin_read(struct file *file, struct kobject *kobj,
				    BLKGEN_BIN_CONST struct bin_attribute *attr,
				    char *buf, loff_t off, size_t count)
{
	return blkgen_snap_read(file, kobj, (uintptr_t)attr->private, buf,
				off, count);
}

/*
 * The generation table, saved by reading and loaded by writing (verify.c);
 * not while the job runs.
 */
static ssize_t verify_table_read(struct file *file, struct kobject *kobj,
				 BLKGEN_BIN_CONST struct bin_attribute *attr,
				 char *buf, loff_t off, size_t count)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);
	ssize_t n = -EBUSY;

	mutex_lock(&wl->job->lock);
	if (wl->job->state != BLKGEN_RUNNING)
		n = blkgen_verify_table_read(wl, buf, off, count);
	mutex_unlock(&wl->job->lock);
	return n;
}

static ssize_t verify_table_write(struct file *file, struct kobject *kobj,
				  BLKGEN_BIN_CONST struct bin_attribute *attr,
				  char *buf, loff_t off, size_t count)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);
	ssize_t n = -EBUSY;

	mutex_lock(&wl->job->lock);
	if (wl->job->state != BLKGEN_RUNNING)
		n = blkgen_verify_table_write(wl, buf, off, count);
	mutex_unlock(&wl->job->lock);
	return n;
}

static BIN_ATTR_ADMIN_RW(verify_table, 0);	/* root only: 0600 */

/* Trace records for a replaying workload (replay.c); may wait for room. */
static ssize_t trace_write(struct file *file, struct kobject *kobj,
			   BLKGEN_BIN_CONST struct bin_attribute *attr,
			   char *buf, loff_t off, size_t count)
{
	return blkgen_replay_write(kobj_to_wl(kobj), buf, off, count);
}

static BIN_ATTR_WO(trace, 0);	/* root only: 0200 */
/* A histogram file has its fixed size; the intervals grow (size 0). */
#define BLKGEN_SNAP_ATTR(_name, _which)					\
	struct bin_attribute bin_attr_##_name = {			\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.read = blkgen_snap_bin_read,				\
		.size = (_which) == BLKGEN_SNAP_INTERVALS ? 0 :		\
			BLKGEN_HIST_FILE_SIZE,				\
		.private = (void *)(uintptr_t)(_which),			\
	}
static BLKGEN_SNAP_ATTR(read_lat_hist, BLKGEN_SNAP_READ_HIST);
static BLKGEN_SNAP_ATTR(write_lat_hist, BLKGEN_SNAP_WRITE_HIST);
static BLKGEN_SNAP_ATTR(read_svc_hist, BLKGEN_SNAP_READ_SVC);
static BLKGEN_SNAP_ATTR(write_svc_hist, BLKGEN_SNAP_WRITE_SVC);
static BLKGEN_SNAP_ATTR(intervals, BLKGEN_SNAP_INTERVALS);

static struct attribute *blkgen_wl_attrs[] = {
	&blkgen_attr_read_ios.attr,
	&blkgen_attr_write_ios.attr,
	&blkgen_attr_read_bytes.attr,
	&blkgen_attr_write_bytes.attr,
	&blkgen_attr_errors.attr,
	&blkgen_attr_late_ios.attr,
	&blkgen_attr_max_lag_ns.attr,
	&blkgen_attr_verify_checked.attr,
	&blkgen_attr_verify_errors.attr,
	&blkgen_attr_verify_unflushed.attr,
	&blkgen_attr_verify_log.attr,
	&blkgen_attr_flushes.attr,
	&blkgen_attr_replay_remapped.attr,
	&blkgen_attr_replay_clipped.attr,
	&blkgen_attr_zones_opened.attr,
	&blkgen_attr_zones_finished.attr,
	&blkgen_attr_zone_resets.attr,
	&blkgen_attr_zone_appends.attr,
	&blkgen_attr_zone_reads_beyond_wp.attr,
	&blkgen_attr_clock.attr,
	NULL,
};

static BLKGEN_BIN_CONST struct bin_attribute *BLKGEN_BIN_CONST
blkgen_wl_bin_attrs[] = {
	&bin_attr_read_lat_hist,
	&bin_attr_write_lat_hist,
	&bin_attr_read_svc_hist,
	&bin_attr_write_svc_hist,
	&bin_attr_intervals,
	&bin_attr_verify_table,
	&bin_attr_trace,
	NULL,
};

static const struct attribute_group blkgen_wl_group = {
	.attrs		= blkgen_wl_attrs,
	.bin_attrs	= blkgen_wl_bin_attrs,
};

static const struct attribute_group *blkgen_wl_groups[] = {
	&blkgen_wl_group,
	NULL,
};

static void blkgen_wl_kobj_release(struct kobject *kobj)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);

	blkgen_snap_free(wl);
	blkgen_verify_drop(wl);
	blkgen_replay_drop(wl);
	blkgen_zoned_drop(wl);
	kfree(wl);
}

static const struct kobj_type blkgen_wl_ktype = {
	.release	= blkgen_wl_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= blkgen_wl_groups,
};

/**
 * blkgen_sysfs_job_add() - Create /sys/kernel/blkgen/JOB.
 * @job: new job; from now on its kobject owns the memory
 * @name: the configfs directory name
 * Return: 0 or a negative errno; on error release with kobject_put() (not
 * blkgen_sysfs_job_put(): kobject_del() of a kobject never added warns).
 */
int blkgen_sysfs_job_add(struct blkgen_job *job, const char *name)
{
	return kobject_init_and_add(&job->kobj, &blkgen_job_ktype,
				    blkgen_sysfs_root, "%s", name);
}

/**
 * blkgen_sysfs_wl_add() - Create /sys/kernel/blkgen/JOB/WL.
 * @wl: new workload; from now on its kobject owns the memory
 * @name: the configfs directory name
 * Return: 0 or a negative errno (-EEXIST if it clashes with a job file);
 * on error release with kobject_put(), as for blkgen_sysfs_job_add().
 */
int blkgen_sysfs_wl_add(struct blkgen_workload *wl, const char *name)
{
	return kobject_init_and_add(&wl->kobj, &blkgen_wl_ktype,
				    &wl->job->kobj, "%s", name);
}

/**
 * blkgen_sysfs_job_put() - Remove a job's sysfs directory and free it.
 * @job: job; readers in progress finish first
 */
void blkgen_sysfs_job_put(struct blkgen_job *job)
{
	kobject_del(&job->kobj);
	kobject_put(&job->kobj);
}

/**
 * blkgen_sysfs_wl_put() - Remove a workload's sysfs directory and free it.
 * @wl: workload; readers in progress finish first
 */
void blkgen_sysfs_wl_put(struct blkgen_workload *wl)
{
	kobject_del(&wl->kobj);
	kobject_put(&wl->kobj);
}

/**
 * blkgen_sysfs_init() - Create /sys/kernel/blkgen.
 * Context: Process context, module load.
 * Return: 0 or -ENOMEM.
 */
int blkgen_sysfs_init(void)
{
	blkgen_sysfs_root = kobject_create_and_add("blkgen", kernel_kobj);
	if (!blkgen_sysfs_root)
		return -ENOMEM;
	return 0;
}

/**
 * blkgen_sysfs_exit() - Remove /sys/kernel/blkgen.
 * Context: Process context, module unload, after every job is gone.
 */
void blkgen_sysfs_exit(void)
{
	kobject_put(blkgen_sysfs_root);
	blkgen_sysfs_root = NULL;
}
