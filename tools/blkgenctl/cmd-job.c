// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - commands on existing jobs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkgenctl.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dots(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* list: one job name per line, sorted. */
int cmd_list(int argc, char **argv)
{
	struct dirent **names;
	int i, n;

	if (argc > 1) {
		fprintf(stderr, "usage: blkgenctl list\n");
		return EXIT_USAGE;
	}
	if (!cfs_module_loaded()) {
		fprintf(stderr, "blkgenctl: %s\n", cfs_missing_hint());
		return EXIT_NOMOD;
	}
	n = scandir(BLKGEN_CONFIGFS, &names, skip_dots, by_name);
	if (n < 0) {
		perror("blkgenctl: " BLKGEN_CONFIGFS);
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		printf("%s\n", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return EXIT_OK;
}
