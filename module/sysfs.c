// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen results in sysfs: /sys/kernel/blkgen/.
 */
#include <linux/kobject.h>

#include "blkgen.h"

struct kobject *blkgen_sysfs_root;

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
