// SPDX-License-Identifier: GPL-2.0
/*
 * blkgen - in-kernel block I/O load generator.
 *
 * Jobs are built under configfs (/sys/kernel/config/blkgen) and report
 * their results under sysfs (/sys/kernel/blkgen). This file only brings
 * the two roots and the CPU hotplug callback up and down, in reverse
 * order.
 */
#include <linux/module.h>

#include "blkgen.h"

static int __init blkgen_init(void)
{
	int ret;

	blkgen_verify_init();
	ret = blkgen_sysfs_init();
	if (ret)
		return ret;

	ret = blkgen_jobs_init();
	if (ret)
		goto out_sysfs_exit;

	ret = blkgen_configfs_init();
	if (ret)
		goto out_jobs_exit;

	pr_info("loaded\n");
	return 0;

out_jobs_exit:
	blkgen_jobs_exit();
out_sysfs_exit:
	blkgen_sysfs_exit();
	return ret;
}

static void __exit blkgen_exit(void)
{
	blkgen_configfs_exit();
	blkgen_jobs_exit();
	blkgen_sysfs_exit();
	pr_info("unloaded\n");
}

module_init(blkgen_init);
module_exit(blkgen_exit);

MODULE_AUTHOR("The blkgen developers");
MODULE_DESCRIPTION("In-kernel block I/O load generator");
MODULE_LICENSE("GPL");
/*
 * The Makefile's VERSION and dkms.conf's PACKAGE_VERSION. With it,
 * modpost records a srcversion (a checksum of the sources) on kernels
 * without CONFIG_MODULE_SRCVERSION_ALL, Debian's among them: the
 * Ansible install role tells an upgraded module from the loaded one by it.
 */
MODULE_VERSION("0.1");
