// SPDX-License-Identifier: GPL-2.0
/*
 * One module-wide limit on what blkgen holds: runs (I/O buffers,
 * statistics, interval rings, counted until their results are dropped),
 * replay record rings, verify generation tables and results snapshots.
 * Each is charged before it is allocated and uncharged when freed, so
 * many jobs and workloads cannot add up past it, and memory_used_kb says
 * what is held (0 with no job).
 */
#include <linux/atomic.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "blkgen.h"

static unsigned int max_memory_mb;
module_param(max_memory_mb, uint, 0644);
MODULE_PARM_DESC(max_memory_mb,
		 "Memory all of blkgen may hold at once (runs, replay rings, verify tables, snapshots), in MiB; 0: a quarter of RAM (default)");

static atomic64_t blkgen_mem = ATOMIC64_INIT(0);

static int blkgen_mem_used_get(char *buf, const struct kernel_param *kp)
{
	u64 bytes = atomic64_read(&blkgen_mem);

	return sysfs_emit(buf, "%llu\n", DIV_ROUND_UP_ULL(bytes, 1024));
}

/* Read-only, but modprobe may still pass it: param_parse calls ->set. */
static int blkgen_mem_used_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static const struct kernel_param_ops blkgen_mem_used_ops = {
	.set	= blkgen_mem_used_set,
	.get	= blkgen_mem_used_get,
};
module_param_cb(memory_used_kb, &blkgen_mem_used_ops, NULL, 0444);
MODULE_PARM_DESC(memory_used_kb,
		 "Memory blkgen holds now, as counted against max_memory_mb, in KiB");

/**
 * blkgen_mem_limit() - The module-wide limit in bytes.
 */
u64 blkgen_mem_limit(void)
{
	unsigned int mb = READ_ONCE(max_memory_mb);

	if (!mb)
		return (u64)totalram_pages() << PAGE_SHIFT >> 2;
	return (u64)mb << 20;
}

/**
 * blkgen_mem_used() - Bytes charged now.
 */
u64 blkgen_mem_used(void)
{
	return atomic64_read(&blkgen_mem);
}

/**
 * blkgen_mem_charge() - Count @bytes against the limit before allocating.
 * @bytes: what is about to be allocated
 *
 * Return: 0, or -ENOMEM (nothing charged) if it would pass the limit.
 */
int blkgen_mem_charge(u64 bytes)
{
	u64 limit = blkgen_mem_limit();
	s64 old = atomic64_read(&blkgen_mem);

	/*
	 * Compare and swap, not add then undo: a charge that fails must not
	 * be seen, even for a moment, by a smaller one that would fit.
	 */
	do {
		if (bytes > limit || (u64)old > limit - bytes)
			return -ENOMEM;
	} while (!atomic64_try_cmpxchg(&blkgen_mem, &old, old + bytes));
	return 0;
}

/**
 * blkgen_mem_uncharge() - Give back what blkgen_mem_charge() counted.
 * @bytes: as charged
 */
void blkgen_mem_uncharge(u64 bytes)
{
	WARN_ON_ONCE(atomic64_sub_return(bytes, &blkgen_mem) < 0);
}
