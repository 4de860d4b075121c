// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen configuration in configfs: /sys/kernel/config/blkgen/.
 *
 *   mkdir JOB                   a job, with default group JOB/workloads
 *   mkdir JOB/workloads/WL      a workload
 *
 * Every attribute shows its value. A write that does not parse or is out
 * of range fails with EINVAL and keeps the old value; a write while the
 * job runs fails with EBUSY. This file parses and validates only; job.c
 * acts on `state`.
 */
#include <linux/capability.h>
#include <linux/configfs.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "blkgen.h"

static inline struct blkgen_job *to_blkgen_job(struct config_item *item)
{
	return container_of(to_config_group(item), struct blkgen_job, group);
}

static inline struct blkgen_workload *to_blkgen_wl(struct config_item *item)
{
	return container_of(to_config_group(item), struct blkgen_workload,
			    group);
}

static const char * const blkgen_state_names[] = {
	[BLKGEN_IDLE]		= "idle",
	[BLKGEN_RUNNING]	= "running",
	[BLKGEN_DONE]		= "done",
	[BLKGEN_STOPPED]	= "stopped",
	[BLKGEN_FAILED]		= "failed",
};

static const char * const blkgen_mode_names[] = {
	[BLKGEN_MODE_RUN]	= "run",
	[BLKGEN_MODE_VERIFY]	= "verify",
};

static const char * const blkgen_arrival_names[] = {
	[BLKGEN_ARRIVAL_POISSON]	= "poisson",
	[BLKGEN_ARRIVAL_UNIFORM]	= "uniform",
	[BLKGEN_ARRIVAL_FIXED]		= "fixed",
};

/**
 * blkgen_state_name() - Name of a job state, as `state` shows it.
 * @state: the state
 * Return: "idle", "running", "done", "stopped" or "failed".
 */
const char *blkgen_state_name(enum blkgen_state state)
{
	return blkgen_state_names[state];
}

/**
 * blkgen_job_state_name() - A job's state as `state` shows it.
 * @job: the job
 * Return: its state's name, or "armed" for a run waiting for start_at.
 */
const char *blkgen_job_state_name(struct blkgen_job *job)
{
	enum blkgen_state state = READ_ONCE(job->state);

	if (state == BLKGEN_RUNNING && READ_ONCE(job->armed))
		return "armed";
	return blkgen_state_name(state);
}

/* Take job->lock for a configuration change: -EBUSY while running. */
static int blkgen_lock_idle(struct blkgen_job *job)
{
	mutex_lock(&job->lock);
	if (job->state == BLKGEN_RUNNING) {
		mutex_unlock(&job->lock);
		return -EBUSY;
	}
	return 0;
}

/*
 * Integer attributes: one line each. The macro generates show, a store
 * that range-checks (EINVAL) and refuses while running (EBUSY), and the
 * configfs_attribute.
 */
#define BLKGEN_INT_ATTR(_pfx, _type, _obj, _field, _job, _parse, _min, _max) \
static ssize_t blkgen_##_pfx##_##_field##_show(struct config_item *item, \
					     char *page)		\
{									\
	return snprintf(page, PAGE_SIZE, "%llu\n",			\
			(unsigned long long)_obj(item)->_field);	\
}									\
									\
static ssize_t blkgen_##_pfx##_##_field##_store(struct config_item *item, \
					      const char *page,		\
					      size_t count)		\
{									\
	_type *o = _obj(item);						\
	u64 v;								\
	int ret;							\
									\
	ret = _parse(page, 10, &v);					\
	if (ret || v < (_min) || v > (_max))				\
		return -EINVAL;						\
	ret = blkgen_lock_idle(_job);					\
	if (ret)							\
		return ret;						\
	o->_field = v;							\
	mutex_unlock(&(_job)->lock);					\
	return count;							\
}									\
CONFIGFS_ATTR(blkgen_##_pfx##_, _field)

#define BLKGEN_JOB_ATTR(_field, _min, _max)				\
	BLKGEN_INT_ATTR(job, struct blkgen_job, to_blkgen_job, _field, o, \
			kstrtou64, _min, _max)

#define BLKGEN_WL_ATTR(_field, _min, _max)				\
	BLKGEN_INT_ATTR(wl, struct blkgen_workload, to_blkgen_wl, _field, \
			o->job, kstrtou64, _min, _max)

/* Booleans: 0/1 (and kstrtobool's y/n/on/off); shown as 0 or 1. */
#define BLKGEN_WL_BOOL_ATTR(_field)					\
static ssize_t blkgen_wl_##_field##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return snprintf(page, PAGE_SIZE, "%d\n",			\
			to_blkgen_wl(item)->_field);			\
}									\
									\
static ssize_t blkgen_wl_##_field##_store(struct config_item *item,	\
					  const char *page,		\
					  size_t count)			\
{									\
	struct blkgen_workload *wl = to_blkgen_wl(item);		\
	bool v;								\
	int ret;							\
									\
	if (kstrtobool(page, &v))					\
		return -EINVAL;						\
	ret = blkgen_lock_idle(wl->job);				\
	if (ret)							\
		return ret;						\
	wl->_field = v;							\
	mutex_unlock(&wl->job->lock);					\
	return count;							\
}									\
CONFIGFS_ATTR(blkgen_wl_, _field)

/* A show for an integer attribute with a store of its own. */
#define BLKGEN_WL_INT_SHOW(_field)					\
static ssize_t blkgen_wl_##_field##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return snprintf(page, PAGE_SIZE, "%llu\n",			\
			(unsigned long long)to_blkgen_wl(item)->_field); \
}

#define BLKGEN_MAX_MS	(30ULL * 24 * 3600 * 1000)	/* 30 days */

BLKGEN_JOB_ATTR(duration_ms, 0, BLKGEN_MAX_MS);
BLKGEN_JOB_ATTR(warmup_ms, 0, BLKGEN_MAX_MS);
BLKGEN_JOB_ATTR(interval_ms, 1, 3600 * 1000);
BLKGEN_JOB_ATTR(rate_iops, 0, 1000000000);
BLKGEN_JOB_ATTR(io_limit, 0, U64_MAX);
BLKGEN_JOB_ATTR(seed, 0, U64_MAX);

static ssize_t blkgen_job_cpus_show(struct config_item *item, char *page)
{
	struct blkgen_job *job = to_blkgen_job(item);

	if (!job->cpus_set)
		return snprintf(page, PAGE_SIZE, "%*pbl\n",
				cpumask_pr_args(cpu_online_mask));
	return snprintf(page, PAGE_SIZE, "%*pbl\n",
			cpumask_pr_args(job->cpus));
}

static ssize_t blkgen_job_cpus_store(struct config_item *item,
				     const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	cpumask_var_t mask;
	char *buf;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = -ENOMEM;
	buf = kmemdup_nul(page, count, GFP_KERNEL);
	if (!buf)
		goto out_free_mask;
	ret = -EINVAL;
	if (cpulist_parse(strstrip(buf), mask) || cpumask_empty(mask) ||
	    !cpumask_subset(mask, cpu_online_mask))
		goto out_free_buf;
	ret = blkgen_lock_idle(job);
	if (ret)
		goto out_free_buf;
	cpumask_copy(job->cpus, mask);
	job->cpus_set = true;
	mutex_unlock(&job->lock);
	ret = count;
out_free_buf:
	kfree(buf);
out_free_mask:
	free_cpumask_var(mask);
	return ret;
}
CONFIGFS_ATTR(blkgen_job_, cpus);

static ssize_t blkgen_job_arrival_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%s\n",
			blkgen_arrival_names[to_blkgen_job(item)->arrival]);
}

static ssize_t blkgen_job_arrival_store(struct config_item *item,
					const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	int i, ret;

	i = sysfs_match_string(blkgen_arrival_names, page);
	if (i < 0)
		return -EINVAL;
	ret = blkgen_lock_idle(job);
	if (ret)
		return ret;
	job->arrival = i;
	mutex_unlock(&job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_job_, arrival);

static ssize_t blkgen_job_mode_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%s\n",
			blkgen_mode_names[to_blkgen_job(item)->mode]);
}

static ssize_t blkgen_job_mode_store(struct config_item *item,
				     const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	int i, ret;

	i = sysfs_match_string(blkgen_mode_names, page);
	if (i < 0)
		return -EINVAL;
	ret = blkgen_lock_idle(job);
	if (ret)
		return ret;
	job->mode = i;
	mutex_unlock(&job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_job_, mode);

static ssize_t blkgen_job_verify_fatal_show(struct config_item *item,
					    char *page)
{
	return snprintf(page, PAGE_SIZE, "%d\n",
			to_blkgen_job(item)->verify_fatal);
}

static ssize_t blkgen_job_verify_fatal_store(struct config_item *item,
					     const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	bool v;
	int ret;

	if (kstrtobool(page, &v))
		return -EINVAL;
	ret = blkgen_lock_idle(job);
	if (ret)
		return ret;
	job->verify_fatal = v;
	mutex_unlock(&job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_job_, verify_fatal);

/*
 * start_at: the run's start by CLOCK_REALTIME, in ns (0 = at once). A
 * time in the past or more than a day ahead is refused here and again at
 * start (with the reason in error).
 */
static ssize_t blkgen_job_start_at_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%llu\n",
			to_blkgen_job(item)->start_at);
}

static ssize_t blkgen_job_start_at_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	u64 v;
	int ret;

	if (kstrtou64(page, 10, &v) ||
	    blkgen_start_at_check(v, ktime_get_real_ns()))
		return -EINVAL;
	ret = blkgen_lock_idle(job);
	if (ret)
		return ret;
	job->start_at = v;
	mutex_unlock(&job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_job_, start_at);

static ssize_t blkgen_job_state_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%s\n",
			blkgen_job_state_name(to_blkgen_job(item)));
}

static ssize_t blkgen_job_state_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct blkgen_job *job = to_blkgen_job(item);
	int ret;

	if (sysfs_streq(page, "start")) {
		ret = blkgen_job_start(job);
		return ret ? ret : count;
	}
	if (sysfs_streq(page, "stop")) {
		ret = blkgen_job_stop_killable(job);
		return ret ? ret : count;
	}
	return -EINVAL;
}
CONFIGFS_ATTR(blkgen_job_, state);

static struct configfs_attribute *blkgen_job_attrs[] = {
	&blkgen_job_attr_cpus,
	&blkgen_job_attr_duration_ms,
	&blkgen_job_attr_warmup_ms,
	&blkgen_job_attr_interval_ms,
	&blkgen_job_attr_rate_iops,
	&blkgen_job_attr_arrival,
	&blkgen_job_attr_io_limit,
	&blkgen_job_attr_seed,
	&blkgen_job_attr_mode,
	&blkgen_job_attr_verify_fatal,
	&blkgen_job_attr_start_at,
	&blkgen_job_attr_state,
	NULL,
};

/* Workload attributes. */

BLKGEN_WL_ATTR(rdpct, 0, 100);
BLKGEN_WL_ATTR(seekpct, 0, 100);
BLKGEN_WL_ATTR(depth, 1, BLKGEN_MAX_DEPTH);
BLKGEN_WL_ATTR(share, 0, 100);
BLKGEN_WL_BOOL_ATTR(allow_write);
BLKGEN_WL_BOOL_ATTR(polled);
BLKGEN_WL_BOOL_ATTR(fua);
BLKGEN_WL_ATTR(flush_ms, 0, 3600 * 1000);
BLKGEN_WL_ATTR(max_open_zones, 0, U32_MAX);
BLKGEN_WL_ATTR(zone_reset_threshold, 0, 100);
BLKGEN_WL_ATTR(zone_reset_frequency, 1, 100);
BLKGEN_WL_BOOL_ATTR(zone_append);
BLKGEN_WL_BOOL_ATTR(read_beyond_wp);

/* Any write of verify drops the generation table (a new run makes one). */
static ssize_t blkgen_wl_verify_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%d\n", to_blkgen_wl(item)->verify);
}

static ssize_t blkgen_wl_verify_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	bool v;
	int ret;

	if (kstrtobool(page, &v))
		return -EINVAL;
	ret = blkgen_lock_idle(wl->job);
	if (ret)
		return ret;
	wl->verify = v;
	blkgen_verify_drop(wl);
	mutex_unlock(&wl->job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_wl_, verify);

static ssize_t blkgen_wl_device_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%s\n", to_blkgen_wl(item)->device);
}

static ssize_t blkgen_wl_device_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	char *buf, *path;
	int ret;

	buf = kmemdup_nul(page, count, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	path = strstrip(buf);
	ret = -EINVAL;
	if (path[0] != '/' || strlen(path) >= sizeof(wl->device))
		goto out_free;
	ret = blkgen_lock_idle(wl->job);
	if (ret)
		goto out_free;
	strscpy(wl->device, path, sizeof(wl->device));
	mutex_unlock(&wl->job->lock);
	ret = count;
out_free:
	kfree(buf);
	return ret;
}
CONFIGFS_ATTR(blkgen_wl_, device);

/*
 * Compound attributes: parse a private copy with the pure parsers, then
 * swap in the parsed value and its text under the lock.
 */
#define BLKGEN_WL_PARSED_ATTR(_name, _type, _field, _str, _parse, _empty) \
static ssize_t blkgen_wl_##_name##_show(struct config_item *item,	\
					char *page)			\
{									\
	return snprintf(page, PAGE_SIZE, "%s\n",			\
			to_blkgen_wl(item)->_str);			\
}									\
									\
static ssize_t blkgen_wl_##_name##_store(struct config_item *item,	\
					 const char *page,		\
					 size_t count)			\
{									\
	struct blkgen_workload *wl = to_blkgen_wl(item);		\
	_type *v;							\
	char *buf, *s;							\
	int ret = -ENOMEM;						\
									\
	v = kzalloc(sizeof(*v), GFP_KERNEL);				\
	buf = kmemdup_nul(page, count, GFP_KERNEL);			\
	if (!v || !buf)							\
		goto out_free;						\
	s = strstrip(buf);						\
	if (!*s)							\
		s = (_empty);						\
	ret = -EINVAL;							\
	if (strlen(s) >= sizeof(wl->_str) || _parse(s, v))		\
		goto out_free;						\
	ret = blkgen_lock_idle(wl->job);				\
	if (ret)							\
		goto out_free;						\
	wl->_field = *v;						\
	strscpy(wl->_str, s, sizeof(wl->_str));				\
	mutex_unlock(&wl->job->lock);					\
	ret = count;							\
out_free:								\
	kfree(buf);							\
	kfree(v);							\
	return ret;							\
}									\
CONFIGFS_ATTR(blkgen_wl_, _name)

BLKGEN_WL_PARSED_ATTR(bs, struct blkgen_bs, bs, bs_str, blkgen_parse_bs,
		      "4k");
BLKGEN_WL_PARSED_ATTR(range, struct blkgen_range, range, range_str,
		      blkgen_parse_range, "0%-100%");
BLKGEN_WL_PARSED_ATTR(distribution, struct blkgen_zones, zones, dist_str,
		      blkgen_parse_zones, "uniform");

static const char *const blkgen_replay_names[] = {
	[BLKGEN_REPLAY_OFF]	= "off",
	[BLKGEN_REPLAY_TIMED]	= "timed",
	[BLKGEN_REPLAY_AFAP]	= "afap",
};

static ssize_t blkgen_wl_replay_show(struct config_item *item, char *page)
{
	return snprintf(page, PAGE_SIZE, "%s\n",
			blkgen_replay_names[to_blkgen_wl(item)->replay]);
}

static ssize_t blkgen_wl_replay_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	int v, ret;

	v = sysfs_match_string(blkgen_replay_names, page);
	if (v < 0)
		return -EINVAL;
	ret = blkgen_lock_idle(wl->job);
	if (ret)
		return ret;
	mutex_lock(&wl->rp.lock);
	WRITE_ONCE(wl->replay, v);
	if (v == BLKGEN_REPLAY_OFF)
		blkgen_replay_drop(wl);	/* no ring without replay */
	mutex_unlock(&wl->rp.lock);
	mutex_unlock(&wl->job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_wl_, replay);

static ssize_t blkgen_wl_replay_speed_show(struct config_item *item,
					   char *page)
{
	u32 v = to_blkgen_wl(item)->replay_speed;

	if (v % 10)
		return snprintf(page, PAGE_SIZE, "%u.%02u\n", v / 100, v % 100);
	if (v % 100)
		return snprintf(page, PAGE_SIZE, "%u.%u\n", v / 100,
				v % 100 / 10);
	return snprintf(page, PAGE_SIZE, "%u\n", v / 100);
}

static ssize_t blkgen_wl_replay_speed_store(struct config_item *item,
					    const char *page, size_t count)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	char buf[32];
	u32 v;
	int ret;

	if (strscpy(buf, page, sizeof(buf)) < 0 ||
	    blkgen_parse_speed(strstrip(buf), &v))
		return -EINVAL;
	ret = blkgen_lock_idle(wl->job);
	if (ret)
		return ret;
	wl->replay_speed = v;
	mutex_unlock(&wl->job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_wl_, replay_speed);

BLKGEN_WL_INT_SHOW(replay_buf_kb);

/* A new size drops the ring and the records it held. */
static ssize_t blkgen_wl_replay_buf_kb_store(struct config_item *item,
					     const char *page, size_t count)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	u64 v;
	int ret;

	ret = kstrtou64(page, 10, &v);
	if (ret || v < 4 || v > 1024 * 1024)
		return -EINVAL;
	ret = blkgen_lock_idle(wl->job);
	if (ret)
		return ret;
	mutex_lock(&wl->rp.lock);
	wl->replay_buf_kb = v;
	blkgen_replay_drop(wl);
	mutex_unlock(&wl->rp.lock);
	mutex_unlock(&wl->job->lock);
	return count;
}
CONFIGFS_ATTR(blkgen_wl_, replay_buf_kb);

static struct configfs_attribute *blkgen_wl_attrs[] = {
	&blkgen_wl_attr_device,
	&blkgen_wl_attr_rdpct,
	&blkgen_wl_attr_bs,
	&blkgen_wl_attr_seekpct,
	&blkgen_wl_attr_range,
	&blkgen_wl_attr_distribution,
	&blkgen_wl_attr_depth,
	&blkgen_wl_attr_share,
	&blkgen_wl_attr_allow_write,
	&blkgen_wl_attr_polled,
	&blkgen_wl_attr_fua,
	&blkgen_wl_attr_verify,
	&blkgen_wl_attr_flush_ms,
	&blkgen_wl_attr_replay,
	&blkgen_wl_attr_replay_speed,
	&blkgen_wl_attr_replay_buf_kb,
	&blkgen_wl_attr_max_open_zones,
	&blkgen_wl_attr_zone_reset_threshold,
	&blkgen_wl_attr_zone_reset_frequency,
	&blkgen_wl_attr_zone_append,
	&blkgen_wl_attr_read_beyond_wp,
	NULL,
};

static void blkgen_wl_release(struct config_item *item)
{
	blkgen_sysfs_wl_put(to_blkgen_wl(item));
}

static struct configfs_item_operations blkgen_wl_item_ops = {
	.release	= blkgen_wl_release,
};

static const struct config_item_type blkgen_wl_type = {
	.ct_item_ops	= &blkgen_wl_item_ops,
	.ct_attrs	= blkgen_wl_attrs,
	.ct_owner	= THIS_MODULE,
};

/*
 * Undo config_group_init_type_name() of an item that never reached
 * configfs: a name of CONFIGFS_ITEM_NAME_LEN bytes or more was allocated,
 * and only config_item_put() of an item configfs holds would free it.
 */
static void blkgen_item_name_free(struct config_item *item)
{
	if (item->ci_name != item->ci_namebuf)
		kfree(item->ci_name);
	item->ci_name = NULL;
}

static struct blkgen_job *wl_group_job(struct config_group *group)
{
	return container_of(group, struct blkgen_job, wl_group);
}

static struct config_group *blkgen_wl_make(struct config_group *group,
					   const char *name)
{
	struct blkgen_job *job = wl_group_job(group);
	struct blkgen_workload *wl;
	int ret;

	/* JOB/WL in sysfs must not clash with the job's own files. */
	if (blkgen_sysfs_job_file(name))
		return ERR_PTR(-EINVAL);
	wl = kzalloc(sizeof(*wl), GFP_KERNEL);
	if (!wl)
		return ERR_PTR(-ENOMEM);
	wl->job = job;
	wl->index = UINT_MAX;
	wl->rdpct = 100;
	wl->seekpct = 100;
	wl->depth = 1;
	wl->zone_reset_threshold = 100;
	wl->zone_reset_frequency = 100;
	strscpy(wl->bs_str, "4k", sizeof(wl->bs_str));
	blkgen_parse_bs(wl->bs_str, &wl->bs);
	strscpy(wl->range_str, "0%-100%", sizeof(wl->range_str));
	blkgen_parse_range(wl->range_str, &wl->range);
	strscpy(wl->dist_str, "uniform", sizeof(wl->dist_str));
	blkgen_verify_wl_init(wl);
	blkgen_replay_wl_init(wl);

	ret = blkgen_lock_idle(job);
	if (ret) {
		kfree(wl);
		return ERR_PTR(ret);
	}
	config_group_init_type_name(&wl->group, name, &blkgen_wl_type);
	ret = blkgen_sysfs_wl_add(wl, name);
	if (ret) {
		mutex_unlock(&job->lock);
		blkgen_item_name_free(&wl->group.cg_item);
		/* Never added: put only; its release frees wl. */
		kobject_put(&wl->kobj);
		return ERR_PTR(ret);
	}
	list_add_tail(&wl->node, &job->workloads);
	job->nr_workloads++;
	mutex_unlock(&job->lock);
	return &wl->group;
}

/*
 * rmdir of a workload. It leaves the job's list in the same hold of
 * job->lock that stops a run using it, so no start can slip in between.
 * configfs holds its subsystem mutex (every mkdir and rmdir of blkgen's
 * tree) around this call: nothing here waits for the run. A run using
 * the workload holds its kobject and lets its results go at its end
 * (finish_work); a finished run's results go now.
 */
static void blkgen_wl_drop(struct config_group *group,
			   struct config_item *item)
{
	struct blkgen_workload *wl = to_blkgen_wl(item);
	struct blkgen_job *job = wl->job;

	mutex_lock(&job->lock);
	list_del(&wl->node);
	job->nr_workloads--;
	wl->dropped = true;
	blkgen_job_stop_locked(job);
	blkgen_replay_release(wl);
	if (job->state != BLKGEN_RUNNING && wl->index < job->nr_wl_run &&
	    job->wl_run[wl->index] == wl)
		job->wl_run[wl->index] = NULL;
	mutex_unlock(&job->lock);
	config_item_put(item);
}

static struct configfs_group_operations blkgen_wl_group_ops = {
	.make_group	= blkgen_wl_make,
	.drop_item	= blkgen_wl_drop,
};

static const struct config_item_type blkgen_wl_group_type = {
	.ct_group_ops	= &blkgen_wl_group_ops,
	.ct_owner	= THIS_MODULE,
};

/* The job's memory goes with its kobject: a run may still hold it. */
static void blkgen_job_release(struct config_item *item)
{
	blkgen_sysfs_job_put(to_blkgen_job(item));
}

static struct configfs_item_operations blkgen_job_item_ops = {
	.release	= blkgen_job_release,
};

static const struct config_item_type blkgen_job_type = {
	.ct_item_ops	= &blkgen_job_item_ops,
	.ct_attrs	= blkgen_job_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct config_group *blkgen_job_make(struct config_group *group,
					    const char *name)
{
	struct blkgen_job *job;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return ERR_PTR(-EPERM);
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return ERR_PTR(-ENOMEM);
	ret = blkgen_job_init(job);
	if (ret) {
		kfree(job);
		return ERR_PTR(ret);
	}
	config_group_init_type_name(&job->group, name, &blkgen_job_type);
	config_group_init_type_name(&job->wl_group, "workloads",
				    &blkgen_wl_group_type);
	configfs_add_default_group(&job->wl_group, &job->group);

	ret = blkgen_sysfs_job_add(job, name);
	if (ret) {
		blkgen_item_name_free(&job->group.cg_item);
		/* Never added: put only; its release frees job and cpus. */
		kobject_put(&job->kobj);
		return ERR_PTR(ret);
	}
	return &job->group;
}

/*
 * rmdir of a job: a running job is asked to stop; as for a workload's
 * rmdir nothing waits for it (its run holds the job until it ends).
 */
static void blkgen_job_drop(struct config_group *group,
			    struct config_item *item)
{
	struct blkgen_job *job = to_blkgen_job(item);

	mutex_lock(&job->lock);
	blkgen_job_stop_locked(job);
	mutex_unlock(&job->lock);
	config_item_put(item);
}

static struct configfs_group_operations blkgen_root_group_ops = {
	.make_group	= blkgen_job_make,
	.drop_item	= blkgen_job_drop,
};

/* features: the attribute names, built from the attribute arrays. */
static ssize_t blkgen_root_features_show(struct config_item *item,
					 char *page)
{
	struct configfs_attribute **a;
	int n = 0;

	n += scnprintf(page + n, PAGE_SIZE - n, "job:");
	for (a = blkgen_job_attrs; *a; a++)
		n += scnprintf(page + n, PAGE_SIZE - n, " %s", (*a)->ca_name);
	n += scnprintf(page + n, PAGE_SIZE - n, "\nworkload:");
	for (a = blkgen_wl_attrs; *a; a++)
		n += scnprintf(page + n, PAGE_SIZE - n, " %s", (*a)->ca_name);
	n += scnprintf(page + n, PAGE_SIZE - n, "\n");
	return n;
}
CONFIGFS_ATTR_RO(blkgen_root_, features);

static struct configfs_attribute *blkgen_root_attrs[] = {
	&blkgen_root_attr_features,
	NULL,
};

static const struct config_item_type blkgen_subsys_type = {
	.ct_group_ops	= &blkgen_root_group_ops,
	.ct_attrs	= blkgen_root_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem blkgen_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "blkgen",
			.ci_type	= &blkgen_subsys_type,
		},
	},
};

/**
 * blkgen_configfs_init() - Register the blkgen configfs subsystem.
 * Context: Process context, module load.
 * Return: 0 or the error from configfs_register_subsystem().
 */
int blkgen_configfs_init(void)
{
	int ret;

	config_group_init(&blkgen_subsys.su_group);
	mutex_init(&blkgen_subsys.su_mutex);

	ret = configfs_register_subsystem(&blkgen_subsys);
	if (ret)
		pr_err("cannot register configfs subsystem: %d\n", ret);
	return ret;
}

/**
 * blkgen_configfs_exit() - Unregister the blkgen configfs subsystem.
 * Context: Process context, module unload (no job exists: each pins us).
 */
void blkgen_configfs_exit(void)
{
	configfs_unregister_subsystem(&blkgen_subsys);
}
