// SPDX-License-Identifier: GPL-2.0
/*
 * blkgenctl - output format selection (-o normal|json|csv|csv-intervals|fio).
 */
#include <stdio.h>
#include <string.h>

#include "blkgenctl.h"

/* print_ops_for(), or NULL after telling the user which formats exist. */
const struct print_ops *print_ops_arg(const char *fmt)
{
	const struct print_ops *ops = print_ops_for(fmt);

	if (!ops)
		fprintf(stderr, "blkgenctl: unknown output format '%s' (normal, json, csv, csv-intervals, fio)\n",
			fmt);
	return ops;
}

const struct print_ops *print_ops_for(const char *fmt)
{
	static const struct print_ops *all[] = {
		&print_normal_ops, &print_json_ops, &print_csv_ops, &print_csv_iv_ops,
		&print_fio_ops,
		NULL,
	};
	int i;

	for (i = 0; all[i]; i++)
		if (!strcmp(fmt, all[i]->name))
			return all[i];
	return NULL;
}
