/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen kernel compatibility: the only place that tests the kernel
 * version. Each difference is named by the release that made it (from
 * upstream's history). Built and tested on Debian's 6.1, 6.12, 6.12
 * PREEMPT_RT and trixie-backports' newest (7.3 at this writing); the
 * releases between them are not built here. Documentation/testing.rst
 * says how the matrix is chosen.
 */
#ifndef _BLKGEN_COMPAT_H
#define _BLKGEN_COMPAT_H

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/version.h>

/**
 * struct blkgen_bdev - an open block device
 * @bdev: the device
 * @handle: what closes it (a file on 6.9+, a bdev_handle on 6.7/6.8)
 * @holder: the exclusive holder, NULL for a shared open
 * @write: open for writing
 */
struct blkgen_bdev {
	struct block_device *bdev;
	void *handle;
	void *holder;
	bool write;
};

/**
 * blkgen_bdev_open() - Open a block device by path.
 * @b: result
 * @path: device path
 * @write: open for writing
 * @holder: the exclusive claim's owner, NULL for a shared open (with a
 *          holder a mounted or otherwise claimed device is refused with
 *          -EBUSY, and nobody else can claim it until it is closed)
 * Context: process context, may sleep.
 * Return: 0 or a negative errno (-ENOENT, -ENOTBLK, -EBUSY, -EACCES...).
 */
static inline int blkgen_bdev_open(struct blkgen_bdev *b, const char *path,
				   bool write, void *holder)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct file *f;

	b->holder = holder;
	b->write = write;
	f = bdev_file_open_by_path(path, mode, b->holder, NULL);
	if (IS_ERR(f))
		return PTR_ERR(f);
	b->handle = f;
	b->bdev = file_bdev(f);
	return 0;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct bdev_handle *h;

	b->holder = holder;
	b->write = write;
	h = bdev_open_by_path(path, mode, b->holder, NULL);
	if (IS_ERR(h))
		return PTR_ERR(h);
	b->handle = h;
	b->bdev = h->bdev;
	return 0;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct block_device *bdev;

	b->holder = holder;
	b->write = write;
	bdev = blkdev_get_by_path(path, mode, b->holder, NULL);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	b->bdev = bdev;
	return 0;
#else
	fmode_t mode = FMODE_READ | (write ? FMODE_WRITE : 0) |
		       (holder ? FMODE_EXCL : 0);
	struct block_device *bdev;

	b->holder = holder;
	b->write = write;
	bdev = blkdev_get_by_path(path, mode, b->holder);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	b->bdev = bdev;
	return 0;
#endif
}

/**
 * blkgen_bdev_close() - Close a device opened by blkgen_bdev_open().
 * @b: the device; the claim is released before this returns.
 * Context: process context, may sleep.
 */
static inline void blkgen_bdev_close(struct blkgen_bdev *b)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	bdev_fput(b->handle);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	bdev_release(b->handle);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	blkdev_put(b->bdev, b->holder);
#else
	blkdev_put(b->bdev, FMODE_READ | (b->write ? FMODE_WRITE : 0) |
		   (b->holder ? FMODE_EXCL : 0));
#endif
	b->bdev = NULL;
}

/**
 * blkgen_zone_mgmt() - Reset, open, close or finish zones, and wait.
 * @bdev: a zoned device
 * @op: REQ_OP_ZONE_RESET and the like
 * @sector: the first zone's start
 * @nr_sectors: whole zones' sectors
 *
 * 6.9 dropped the gfp_t argument.
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
static inline int blkgen_zone_mgmt(struct block_device *bdev, enum req_op op,
				   sector_t sector, sector_t nr_sectors)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return blkdev_zone_mgmt(bdev, op, sector, nr_sectors);
#else
	return blkdev_zone_mgmt(bdev, op, sector, nr_sectors, GFP_KERNEL);
#endif
}

/**
 * blkgen_hrtimer_setup() - Initialise an hrtimer with its callback.
 * @timer: the timer
 * @fn: its callback
 * @clock: CLOCK_REALTIME, CLOCK_MONOTONIC...
 * @mode: HRTIMER_MODE_ABS_HARD and the like
 *
 * 6.13 added hrtimer_setup(), which takes the callback; 6.15 removed
 * hrtimer_init() and the assignment of .function after it.
 */
static inline void
blkgen_hrtimer_setup(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *),
		     clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/**
 * blkgen_bdev_can_poll() - Whether REQ_POLLED bios can be reaped here.
 * @bdev: device
 *
 * 6.1 silently completes polled bios by interrupt on a queue without poll
 * queues; 6.12 fails them with BLK_STS_NOTSUPP. Either way blkgen refuses
 * to start a polled workload on such a queue.
 *
 * Return: true if the queue supports polling.
 */
static inline bool blkgen_bdev_can_poll(struct block_device *bdev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return bdev_get_queue(bdev)->limits.features & BLK_FEAT_POLL;
#else
	return test_bit(QUEUE_FLAG_POLL, &bdev_get_queue(bdev)->queue_flags);
#endif
}

/*
 * Binary sysfs attributes: 6.16 made bin_attribute's read/write callbacks
 * and attribute_group's bin_attrs const (6.13 to 6.15 had const variants
 * beside them, read_new and bin_attrs_new). 6.1 and 6.12 build with the
 * plain forms, 7.x with the const ones.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define BLKGEN_BIN_CONST const
#else
#define BLKGEN_BIN_CONST
#endif

/*
 * The cycle counter the fast path stamps with (tclock.h), where the kernel
 * keeps time by it: the TSC on x86, the generic timer's counter on arm64.
 * When timekeeping reads another clocksource (a TSC found unstable,
 * kvm-clock, HPET), or the counter's rate is not known here, none: 0 kHz,
 * and the fast path stamps with ktime.
 */
#include <linux/timekeeping.h>

/*
 * The timekeeper's clocksource count beside its system time: 7.2 made
 * ktime_get_snapshot() ktime_get_snapshot_id(), which names the clock the
 * system time is of (the cycle count is the same for every clock).
 */
static inline void blkgen_time_snapshot(struct system_time_snapshot *snap)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
	ktime_get_snapshot_id(CLOCK_REALTIME, snap);
#else
	ktime_get_snapshot(snap);
#endif
}

#ifdef CONFIG_X86
#include <asm/tsc.h>

/* The clocksource of blkgen_cycles(), as current_clocksource names it. */
#define BLKGEN_CYCLES_NAME	"tsc"

static __always_inline u64 blkgen_cycles(void)
{
	return rdtsc_ordered();
}

/*
 * x86: the TSC is timekeeping's clock when the timekeeper's own cycle
 * count (blkgen_time_snapshot(): the same on 6.1, which has no clocksource
 * id for the TSC, and later) is behind a read of it right after by less
 * than a millisecond, @khz cycles.
 */
static inline bool blkgen_cycles_are_timekeepings(u32 khz)
{
	struct system_time_snapshot snap;
	unsigned long flags;
	u64 c;

	local_irq_save(flags);
	blkgen_time_snapshot(&snap);
	c = blkgen_cycles();
	local_irq_restore(flags);
	return c >= snap.cycles && c - snap.cycles < khz;
}

/**
 * blkgen_cycles_khz() - The frequency of blkgen_cycles(), if it is the
 *	clock timekeeping reads.
 *
 * Context: process context.
 * Return: kHz (tsc_khz, the kernel's calibration), or 0 when
 * blkgen_cycles() is not timekeeping's clock.
 */
static inline u32 blkgen_cycles_khz(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz || check_tsc_unstable())
		return 0;
	return blkgen_cycles_are_timekeepings(tsc_khz) ? tsc_khz : 0;
}

/* The cycle counter was found unstable (by the clocksource watchdog). */
static inline bool blkgen_cycles_unstable(void)
{
	return check_tsc_unstable();
}
#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>
#include <clocksource/arm_arch_timer.h>
#include <linux/clocksource_ids.h>
#include <linux/of.h>

#define BLKGEN_CYCLES_NAME	"arch_sys_counter"

/*
 * The counter as timekeeping reads it: arch_timer_read_counter() is the
 * clocksource's own reader (the virtual or physical count, with the
 * workarounds of the CPU's errata), one indirect call.
 */
static __always_inline u64 blkgen_cycles(void)
{
	return arch_timer_read_counter();
}

/*
 * A timer node of the device tree whose clock-frequency is not
 * CNTFRQ_EL0's @hz: the kernel took that rate (firmware that left
 * CNTFRQ_EL0 wrong: arch_timer_of_configure_rate()), which is not
 * exported. The kernel probes the three compatibles below.
 */
static inline bool blkgen_dt_timer_rate_differs(u32 hz)
{
	static const struct of_device_id ids[] = {
		{ .compatible = "arm,armv7-timer" },
		{ .compatible = "arm,armv8-timer" },
		{ .compatible = "arm,armv7-timer-mem" },
		{ }
	};
	struct device_node *np;
	bool differs = false;
	u32 rate;

	for_each_matching_node(np, ids)
		if (!of_property_read_u32(np, "clock-frequency", &rate) &&
		    rate != hz)
			differs = true;
	return differs;
}

/**
 * blkgen_cycles_khz() - The frequency of blkgen_cycles(), if it is the
 *	clock timekeeping reads.
 *
 * Timekeeping's clocksource is the generic timer's when its snapshot
 * names it (cs_id, since 5.13). Its rate is CNTFRQ_EL0 (ACPI's GTDT has
 * no other) unless a device tree's timer node overrides it.
 *
 * Context: process context.
 * Return: kHz, or 0 when blkgen_cycles() is not timekeeping's clock or its
 * rate is not known here or not a whole number of kHz.
 */
static inline u32 blkgen_cycles_khz(void)
{
	struct system_time_snapshot snap;
	u32 hz = arch_timer_get_cntfrq();

	if (!hz || hz % 1000 || blkgen_dt_timer_rate_differs(hz))
		return 0;
	blkgen_time_snapshot(&snap);
	return snap.cs_id == CSID_ARM_ARCH_COUNTER ? hz / 1000 : 0;
}

/* No watchdog judges the generic timer's counter. */
static inline bool blkgen_cycles_unstable(void)
{
	return false;
}
#else
#define BLKGEN_CYCLES_NAME	"cycles"

static __always_inline u64 blkgen_cycles(void)
{
	return 0;
}

static inline u32 blkgen_cycles_khz(void)
{
	return 0;
}

static inline bool blkgen_cycles_unstable(void)
{
	return false;
}
#endif

/*
 * The CPU has a CRC-32C instruction verification's CRC can use (stamp.c):
 * SSE4.2's crc32 on x86-64, the CRC32 extension's on arm64 (little-endian).
 */
#include <asm/cpufeature.h>

static inline bool blkgen_crc32c_hw(void)
{
#if defined(CONFIG_X86_64)
	return boot_cpu_has(X86_FEATURE_XMM4_2);
#elif defined(CONFIG_ARM64) && !defined(CONFIG_CPU_BIG_ENDIAN)
	return cpu_have_named_feature(CRC32);
#else
	return false;
#endif
}

#endif /* _BLKGEN_COMPAT_H */
