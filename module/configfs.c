// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen configuration in configfs: /sys/kernel/config/blkgen/.
 *
 * This file parses and validates only; acting on a job is job.c's business.
 */
#include <linux/configfs.h>
#include <linux/module.h>

#include "blkgen.h"

static const struct config_item_type blkgen_subsys_type = {
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
 * Context: Process context, module unload.
 */
void blkgen_configfs_exit(void)
{
	configfs_unregister_subsystem(&blkgen_subsys);
}
