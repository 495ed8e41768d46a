/* SPDX-License-Identifier: GPL-2.0 */
/* read_bytes of a /proc/.../io file (what the task read from storage) */
#ifndef PROC_IO_H
#define PROC_IO_H

#include <stdio.h>

/* read_bytes in @path, -1 if it has none (no CONFIG_TASK_IO_ACCOUNTING) */
static inline long long proc_read_bytes(const char *path)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "read_bytes: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

#endif
