/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkgenctl - shared declarations of the control tool.
 */
#ifndef BLKGENCTL_H
#define BLKGENCTL_H

#include <stdbool.h>

#define BLKGENCTL_VERSION "0.1"

#define BLKGEN_CONFIGFS "/sys/kernel/config/blkgen"
#define BLKGEN_SYSFS	"/sys/kernel/blkgen"

/* Exit codes, documented in Documentation/blkgenctl.rst. */
enum {
	EXIT_OK		= 0,	/* success */
	EXIT_FAIL	= 1,	/* the operation failed (job failed, I/O error) */
	EXIT_USAGE	= 2,	/* bad command line or profile */
	EXIT_NOMOD	= 3,	/* blkgen module not loaded / configfs not mounted */
};

struct command {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);
};

/* cfs.c: configfs and sysfs access */
bool cfs_module_loaded(void);
const char *cfs_missing_hint(void);

/* cmd-job.c */
int cmd_list(int argc, char **argv);

#endif /* BLKGENCTL_H */
