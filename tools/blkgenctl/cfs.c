// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - access to blkgen's configfs and sysfs trees.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "blkgenctl.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cfs_module_loaded(void)
{
	return is_dir(BLKGEN_CONFIGFS) && is_dir(BLKGEN_SYSFS);
}

/* Why the trees are missing, as advice to the user. */
const char *cfs_missing_hint(void)
{
	if (!is_dir("/sys/kernel/config"))
		return "configfs is not mounted: mount -t configfs none /sys/kernel/config";
	if (!is_dir(BLKGEN_SYSFS))
		return "the blkgen module is not loaded: modprobe blkgen (or insmod module/blkgen.ko)";
	return BLKGEN_CONFIGFS " is missing: is configfs mounted?";
}
