// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen results in sysfs: /sys/kernel/blkgen/JOB/ and JOB/WL/.
 *
 * Each job and workload embeds a kobject that owns its memory: configfs
 * release deletes the sysfs directory (waiting for readers) and drops the
 * last reference, whose release frees the object. Per-worker statistics
 * are summed under job->lock when read.
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
	enum blkgen_state state = READ_ONCE(kobj_to_job(kobj)->state);

	return sysfs_emit(buf, "%s\n", blkgen_state_name(state));
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

static struct kobj_attribute blkgen_attr_state = __ATTR_RO(state);
static struct kobj_attribute blkgen_attr_error = __ATTR_RO(error);
static struct kobj_attribute blkgen_attr_elapsed_ms = __ATTR_RO(elapsed_ms);

static struct attribute *blkgen_job_attrs[] = {
	&blkgen_attr_state.attr,
	&blkgen_attr_error.attr,
	&blkgen_attr_elapsed_ms.attr,
	NULL,
};
ATTRIBUTE_GROUPS(blkgen_job);

static void blkgen_job_kobj_release(struct kobject *kobj)
{
	kfree(kobj_to_job(kobj));
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
	default:
		return READ_ONCE(st->errors);
	}
}

/* Sum a counter over the workers of the workload's last run. */
static ssize_t blkgen_wl_counter_show(struct kobject *kobj, char *buf,
				      enum blkgen_counter c)
{
	struct blkgen_workload *wl = kobj_to_wl(kobj);
	struct blkgen_job *job = wl->job;
	unsigned int i;
	u64 sum = 0;

	mutex_lock(&job->lock);
	if (wl->index < job->nr_wl_run && job->wl_run[wl->index] == wl) {
		for (i = 0; i < job->nr_workers; i++) {
			const struct blkgen_stats *st;

			st = blkgen_worker_stats(job->workers[i], wl->index);
			sum += blkgen_counter(st, c);
		}
	}
	mutex_unlock(&job->lock);
	return sysfs_emit(buf, "%llu\n", (unsigned long long)sum);
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

static struct attribute *blkgen_wl_attrs[] = {
	&blkgen_attr_read_ios.attr,
	&blkgen_attr_write_ios.attr,
	&blkgen_attr_read_bytes.attr,
	&blkgen_attr_write_bytes.attr,
	&blkgen_attr_errors.attr,
	NULL,
};
ATTRIBUTE_GROUPS(blkgen_wl);

static void blkgen_wl_kobj_release(struct kobject *kobj)
{
	kfree(kobj_to_wl(kobj));
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
 * Return: 0 or a negative errno; on error release with
 * blkgen_sysfs_job_put().
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
 * on error release with blkgen_sysfs_wl_put().
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
