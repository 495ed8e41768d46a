/* SPDX-License-Identifier: GPL-2.0 */
/* rapolicy: state shared by the module's files */
#ifndef RAPOLICY_H
#define RAPOLICY_H

#include <linux/kobject.h>
#include <linux/percpu.h>

#include "policy.h"

struct address_space;
struct vm_fault;

/* A/B arms: A is the top-level policy set, B the one under ab/ */
enum rap_arm {
	RAP_ARM_A,
	RAP_ARM_B,
	RAP_NR_ARMS
};

/* Counters under /sys/kernel/mm/rapolicy/stats/, in this order */
enum rap_stat {
	RAP_STAT_SYNC_MISS,	/* every synchronous mmap miss */
	/* misses offered a window, by decision point (enum ra_policy_point) */
	RAP_STAT_SYNC_THP,
	RAP_STAT_SYNC_SEQ,
	RAP_STAT_SYNC_EXEC,
	RAP_STAT_SYNC_AROUND,
	RAP_STAT_ASYNC,
	RAP_STAT_MMAP_HIT,	/* mappings from the cache counted as hits */
	/* decisions taken */
	RAP_STAT_DESCENDING_THP,
	RAP_STAT_DESCENDING_SEQ,
	RAP_STAT_DESCENDING_AROUND,
	RAP_STAT_VMA_LIMIT,
	RAP_STAT_VMA_CLAMP,
	RAP_STAT_ORDER_RAISE,
	RAP_STAT_PMD_HIT,
	/* pages in the windows whose size is known when the hook runs */
	RAP_STAT_PAGES_REQUESTED,
	RAP_STAT_STREAM_SYNC,
	RAP_STAT_STREAM_ASYNC,
	RAP_STAT_STREAM_LOOKUPS,
	RAP_STAT_STREAM_NS,
	RAP_STAT_NR
};

struct rap_stats {
	u64 count[RAP_NR_ARMS][RAP_STAT_NR];
};

extern struct rap_stats __percpu *rap_stats;

static inline void rap_stat_add(enum rap_arm arm, enum rap_stat stat, u64 n)
{
	this_cpu_add(rap_stats->count[arm][stat], n);
}

u64 rap_stat_sum(enum rap_arm arm, enum rap_stat stat);
void rap_stats_reset(void);
int rap_stats_init(void);
void rap_stats_exit(void);

void rap_settings_read(enum rap_arm arm, struct rap_settings *s);
int rap_sysfs_init(void);
void rap_sysfs_exit(void);

/* tracker.c */
void rap_tracker_init(void);
bool rap_tracker_mmap_ra(struct address_space *mapping, const struct rap_fault *f,
			 const struct rap_cache_view *view,
			 struct ra_policy_window *win, enum rap_arm arm);

/* ab.c */
enum rap_arm rap_arm_of(struct vm_fault *vmf);
extern const struct attribute_group rap_ab_group;
void rap_ab_exit(void);

#endif /* RAPOLICY_H */
