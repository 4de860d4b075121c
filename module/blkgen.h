/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgen - in-kernel block I/O load generator: shared declarations.
 */
#ifndef _BLKGEN_H
#define _BLKGEN_H

#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>

/* configfs.c: the /sys/kernel/config/blkgen subsystem */
int blkgen_configfs_init(void);
void blkgen_configfs_exit(void);

/* sysfs.c: the /sys/kernel/blkgen results root */
extern struct kobject *blkgen_sysfs_root;
int blkgen_sysfs_init(void);
void blkgen_sysfs_exit(void);

#endif /* _BLKGEN_H */
