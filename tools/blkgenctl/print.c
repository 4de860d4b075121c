// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - output format selection (-o normal|json|csv).
 */
#include <string.h>

#include "blkgenctl.h"

const struct print_ops *print_ops_for(const char *fmt)
{
	static const struct print_ops *all[] = {
		&print_normal_ops, &print_json_ops, &print_csv_ops, NULL,
	};
	int i;

	for (i = 0; all[i]; i++)
		if (!strcmp(fmt, all[i]->name))
			return all[i];
	return NULL;
}
