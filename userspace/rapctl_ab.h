/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicyctl ab: what A/B testing needs beyond rapctl.h, as pure
 * functions (no file access): the assignment's text, the report's
 * arithmetic and its three formats (rapctl_ab_report.c), cgroup paths and
 * the salt (rapctl_ab.c).
 */
#ifndef RAPCTL_AB_H
#define RAPCTL_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rapctl.h"

/*
 * When ab report gives a verdict.  Each arm needs RAPCTL_AB_MIN_MMAP_FAULTS
 * mmap faults (sync_miss + mmap_hit), so that each rate is a share of at
 * least that many faults (its binomial standard error is then at most
 * 50 per 1000); the arms together need RAPCTL_AB_MIN_SYNC_MISS major
 * faults, or the workload hardly misses and the comparison is of noise.
 * There is no minimum of major faults per arm: a good arm B may take
 * almost none.  A B/A ratio within RAPCTL_AB_SAME_BAND of 1 is "no clear
 * difference".
 */
#define RAPCTL_AB_MIN_MMAP_FAULTS	100
#define RAPCTL_AB_MIN_SYNC_MISS		100
#define RAPCTL_AB_SAME_BAND		0.05

/* The assignment of faults to arms: ab/mode and the files that mode uses */
struct rapctl_ab_assign {
	char mode[32];		/* "off", "cgroup", "sample" */
	char cgroup[PATH_MAX];	/* ab/cgroup as read: "", "/x", "/x (removed)" */
	uint64_t permille;	/* ab/sample_permille */
	uint64_t salt;		/* ab/salt */
};

/*
 * "off", "cgroup /canary" ("cgroup (none)" for none), "sample 300
 * permille, salt 7", or the mode of a later module as it is.
 */
void rapctl_ab_assign_text(const struct rapctl_ab_assign *as, char *buf,
			   size_t size);

/* A quotient that may not exist (division by zero) */
struct rapctl_rate {
	bool ok;
	double v;
};

struct rapctl_ab_arm {
	const struct rapctl_stats *st;	/* stats/a or stats/b */
	uint64_t sync_miss;		/* 0 for a counter the arm lacks */
	uint64_t mmap_hit;
	uint64_t pages_requested;
	uint64_t mmap_faults;		/* sync_miss + mmap_hit (at most 2^64-1) */
	struct rapctl_rate major_rate;	/* 1000 * sync_miss / mmap_faults */
	struct rapctl_rate pages_rate;	/* pages_requested / sync_miss */
};

struct rapctl_ab_report {
	struct rapctl_ab_arm arm[2];		/* A, B */
	struct rapctl_rate major_ratio;		/* B/A of major_rate */
	struct rapctl_rate pages_ratio;		/* B/A of pages_rate */
	bool decided;
	char verdict[512];			/* without "verdict: " */
};

/* Everything of the report from the two arms' counters (kept in r) */
void rapctl_ab_compute(struct rapctl_ab_report *r, const struct rapctl_stats *a,
		       const struct rapctl_stats *b);

/*
 * The report as text, JSON (one object on one line) or Prometheus text;
 * as (may be NULL) is the assignment shown with it.  See rapolicyctl(8).
 */
void rapctl_ab_print_text(FILE *f, const struct rapctl_ab_report *r,
			  const struct rapctl_ab_assign *as);
void rapctl_ab_print_json(FILE *f, const struct rapctl_ab_report *r,
			  const struct rapctl_ab_assign *as);
void rapctl_ab_print_prometheus(FILE *f, const struct rapctl_ab_report *r,
				const struct rapctl_ab_assign *as);

/*
 * The mount point of the first cgroup2 file system of /proc/self/mountinfo
 * text, octal escapes (\040) decoded.  Returns 0, -ENOENT (none) or
 * -ENAMETOOLONG.
 */
int rapctl_mountinfo_cgroup2(const char *text, char *mnt, size_t size);

/*
 * The cgroup path of arg for ab/cgroup: arg is relative to the cgroup2
 * root ("/batch", as in /proc/PID/cgroup) or a directory under the mount
 * point mnt ("/sys/fs/cgroup/batch"), whose prefix is removed.  Repeated
 * and trailing slashes go; "." and ".." are refused.  The root is "/".
 * Returns 0, -EINVAL (not absolute, or . or ..) or -ENAMETOOLONG.
 */
int rapctl_cgroup_path(const char *arg, const char *mnt, char *buf, size_t size);

/* A salt: decimal or 0x hex, 0 .. 2^64-1.  Returns 0, -EINVAL or -ERANGE. */
int rapctl_parse_salt(const char *s, uint64_t *out);

#endif /* RAPCTL_AB_H */
