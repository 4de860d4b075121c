// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen_bare - the bench's yardstick: the least an in-kernel bio loop
 * can do. One kthread on one CPU keeps `depth` 4 KiB random reads in
 * flight on `dev` for `seconds`, with preallocated bios handed back by
 * end_io through a lock-free list (blkgen's design without its pattern,
 * timestamps and accounting). insmod blocks for the run and prints the
 * IOPS to the kernel log; the module is then removed.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "compat.h"		/* module/compat.h, copied beside us */

static char *dev = "/dev/nullb0";
module_param(dev, charp, 0444);
static unsigned int depth = 32;
module_param(depth, uint, 0444);
static unsigned int seconds = 10;
module_param(seconds, uint, 0444);
static unsigned int cpu;
module_param(cpu, uint, 0444);

struct bare_slot {
	struct bio bio;
	struct bio_vec bvec;
	struct llist_node node;
	struct page *page;
};

static struct llist_head bare_done;
static struct task_struct *bare_task;
static struct blkgen_bdev bare_dev;
static struct bare_slot *bare_slots;
static u64 bare_ios;
static DECLARE_COMPLETION(bare_finished);

static void bare_end_io(struct bio *bio)
{
	struct bare_slot *s = container_of(bio, struct bare_slot, bio);

	if (llist_add(&s->node, &bare_done))
		wake_up_process(bare_task);
}

static void bare_submit(struct bare_slot *s, u64 *x, u64 blocks)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	bio_reset(&s->bio, bare_dev.bdev, REQ_OP_READ);
	s->bio.bi_iter.bi_sector = (*x % blocks) << 3;
	s->bio.bi_end_io = bare_end_io;
	__bio_add_page(&s->bio, s->page, 4096, 0);
	submit_bio(&s->bio);
}

static int bare_fn(void *data)
{
	u64 blocks = bdev_nr_bytes(bare_dev.bdev) >> 12, x = 88172645463325252ULL;
	u64 end = ktime_get_ns() + (u64)seconds * NSEC_PER_SEC;
	unsigned int inflight = depth, i;
	struct bare_slot *s, *tmp;
	struct llist_node *list;
	struct blk_plug plug;
	bool go = true;

	blk_start_plug(&plug);
	for (i = 0; i < depth; i++)
		bare_submit(&bare_slots[i], &x, blocks);
	blk_finish_plug(&plug);
	while (inflight) {
		list = llist_del_all(&bare_done);
		if (!list) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (llist_empty(&bare_done))
				schedule_timeout(HZ);
			__set_current_state(TASK_RUNNING);
			continue;
		}
		go = go && ktime_get_ns() < end;
		blk_start_plug(&plug);
		llist_for_each_entry_safe(s, tmp, list, node) {
			bare_ios++;
			if (go)
				bare_submit(s, &x, blocks);
			else
				inflight--;
		}
		blk_finish_plug(&plug);
		cond_resched();
	}
	complete(&bare_finished);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int __init bare_init(void)
{
	unsigned int i;
	int ret;

	ret = blkgen_bdev_open(&bare_dev, dev, false, NULL);
	if (ret)
		return ret;
	ret = -ENOMEM;
	bare_slots = kcalloc(depth, sizeof(*bare_slots), GFP_KERNEL);
	if (!bare_slots)
		goto out_close;
	for (i = 0; i < depth; i++) {
		bare_slots[i].page = alloc_page(GFP_KERNEL);
		if (!bare_slots[i].page)
			goto out_free;
		bio_init(&bare_slots[i].bio, NULL, &bare_slots[i].bvec, 1, 0);
	}
	init_llist_head(&bare_done);
	bare_task = kthread_create_on_cpu(bare_fn, NULL, cpu, "blkgen_bare/%u");
	if (IS_ERR(bare_task)) {
		ret = PTR_ERR(bare_task);
		goto out_free;
	}
	get_task_struct(bare_task);
	wake_up_process(bare_task);
	wait_for_completion(&bare_finished);
	kthread_stop(bare_task);
	put_task_struct(bare_task);
	synchronize_rcu();
	pr_info("blkgen_bare: %s depth %u cpu %u: %llu IOPS\n", dev, depth, cpu,
		div_u64(bare_ios, seconds));
	ret = 0;
out_free:
	for (i = 0; i < depth; i++) {
		bio_uninit(&bare_slots[i].bio);
		if (bare_slots[i].page)
			__free_page(bare_slots[i].page);
	}
	kfree(bare_slots);
out_close:
	blkgen_bdev_close(&bare_dev);
	return ret;
}

static void __exit bare_exit(void)
{
}

module_init(bare_init);
module_exit(bare_exit);
MODULE_DESCRIPTION("blkgen bench yardstick: a bare bio submit/reap loop");
MODULE_LICENSE("GPL");
