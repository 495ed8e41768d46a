/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's walkers (strider, patwalk, phaser) count with: their
 * own major faults and the sectors their file's block device has read.
 * Any failure ends the program with status 1, naming what failed: a
 * count the test needs is never made up. WALKIO_PROG names the program.
 */
#ifndef WALKIO_H
#define WALKIO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", WALKIO_PROG, what, strerror(errno));
	exit(1);
}

/* major faults of this process (all its threads) so far */
static inline long majflt(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	return ru.ru_majflt;
}

/* sectors read by the block device @dev so far (its stat's third field) */
static inline long long sectors_read(dev_t dev)
{
	char path[64];
	long long v[3];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(dev),
		 minor(dev));
	f = fopen(path, "r");
	if (!f)
		die(path);
	if (fscanf(f, "%lld %lld %lld", &v[0], &v[1], &v[2]) != 3) {
		errno = EINVAL;
		die(path);
	}
	fclose(f);
	return v[2];
}

#endif
