/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What module/policy.h takes from the kernel, for host builds: the types
 * and the mirrors of include/linux/readahead_policy.h (patches/0003). The
 * KUnit suite runs the same cases against the real header.
 */
#ifndef RAPOLICY_KERNEL_COMPAT_H
#define RAPOLICY_KERNEL_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long pgoff_t;
typedef uint64_t u64;

#define __weak __attribute__((weak))
#define __always_unused __attribute__((unused))

enum ra_policy_point {
	RA_POLICY_SYNC_THP,
	RA_POLICY_SYNC_SEQ,
	RA_POLICY_SYNC_EXEC,
	RA_POLICY_SYNC_AROUND,
	RA_POLICY_ASYNC,
	RA_POLICY_NR_POINTS
};

struct ra_policy_window {
	pgoff_t start;
	unsigned long size;
	unsigned long async_size;
	unsigned int order;
	bool order_once;
	pgoff_t max_index;
};

#endif /* RAPOLICY_KERNEL_COMPAT_H */
