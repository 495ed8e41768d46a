/* SPDX-License-Identifier: GPL-2.0 */
/* rapolicy: state shared by the module's files */
#ifndef RAPOLICY_H
#define RAPOLICY_H

#include <linux/kobject.h>
#include <linux/percpu.h>

#include "policy.h"

struct address_space;
struct file;

/* A/B arms: A is the top-level policy set, B the one under ab/ */
enum rap_arm {
	RAP_ARM_A,
	RAP_ARM_B,
	RAP_NR_ARMS
};

/* Counters under /sys/kernel/mm/rapolicy/stats/, from table.h */
enum rap_stat {
#define RAP_STAT(name, help) RAP_STAT_##name,
#include "table.h"
	RAP_STAT_NR
};

/* Per A/B bucket: what an analysis over buckets compares (stats/buckets) */
enum rap_bucket_stat {
	RAP_BUCKET_sync_miss,
	RAP_BUCKET_pages_read,
	RAP_BUCKET_NR
};

/*
 * The ledger's counts per arm and per decider (stock's window, then each
 * policy of table.h): pages windows read, and of those, pages that left
 * the page cache used, wasted, or the ledger before they left (lost)
 */
enum rap_ledger_stat {
	RAP_LEDGER_read,
	RAP_LEDGER_used,
	RAP_LEDGER_wasted,
	RAP_LEDGER_lost,
	RAP_LEDGER_NR
};

#define RAP_LEDGER_DECIDERS	(1 + RAP_NR_POLICIES)

struct rap_stats {
	u64 count[RAP_NR_ARMS][RAP_STAT_NR];
	u64 bucket[RAP_AB_BUCKETS][RAP_BUCKET_NR];
	u64 ledger[RAP_NR_ARMS][RAP_LEDGER_DECIDERS][RAP_LEDGER_NR];
};

extern struct rap_stats __percpu *rap_stats;

/* Inlined: one per-CPU add, also on the hit hook (the kernel is built -Os) */
static __always_inline void rap_stat_add(enum rap_arm arm, enum rap_stat stat,
					 u64 n)
{
	this_cpu_add(rap_stats->count[arm][stat], n);
}

static inline void rap_bucket_add(unsigned int bucket,
				  enum rap_bucket_stat stat, u64 n)
{
	this_cpu_add(rap_stats->bucket[bucket][stat], n);
}

u64 rap_stat_sum(enum rap_arm arm, enum rap_stat stat);
u64 rap_bucket_sum(unsigned int bucket, enum rap_bucket_stat stat);
u64 rap_ledger_sum(enum rap_arm arm, unsigned int decider,
		   enum rap_ledger_stat stat);
void rap_stats_reset(void);
int rap_stats_init(void);
void rap_stats_exit(void);

u64 rap_stats_elapsed_ms(void);
void rap_settings_changed(void);
u64 rap_settings_changes(void);
void rap_hooks_update(void);

void rap_settings_read(enum rap_arm arm, struct rap_settings *s);
const int *rap_setting_ptr(enum rap_arm arm, enum rap_policy_id id);
int rap_sysfs_init(void);
void rap_sysfs_exit(void);

/* tracker.c */
int rap_tracker_init(void);
void rap_tracker_exit(void);
void rap_tracker_flush(enum rap_arm arm);
unsigned int rap_tracker_max_kb(enum rap_arm arm);
int rap_tracker_set_max_kb(enum rap_arm arm, unsigned int kb);
size_t rap_tracker_bytes(enum rap_arm arm);
bool rap_tracker_mmap_ra(const struct ra_policy_fault *fault,
			 const struct rap_fault *f,
			 const struct rap_cache_view *view,
			 struct ra_policy_window *win, enum rap_arm arm);

/* ledger.c */
extern const char *const rap_ledger_deciders[RAP_LEDGER_DECIDERS];
int rap_ledger_init(void);
void rap_ledger_exit(void);
void rap_ledger_decided(const struct address_space *mapping,
			enum rap_arm arm, const char *by);
void rap_ledger_done(void);

/* bpf.c */
bool rap_bpf_mmap_ra(const struct ra_policy_fault *fault,
		     struct ra_policy_window *win, enum rap_arm arm);
int rap_bpf_init_module(void);
extern const struct attribute_group rap_bpf_group;

/* random_table.c */
void rap_random_init(void);
bool rap_random_mmap_ra(const struct ra_policy_fault *fault,
			struct ra_policy_window *win, bool stream,
			enum rap_arm arm);
unsigned int rap_random_took(const struct vm_area_struct *vma);

/* pressure.c */
struct rap_fault;
unsigned long rap_memcg_headroom(bool *limited);
bool rap_pressure_cut(const struct rap_fault *f, struct ra_policy_window *win);

/* ab.c: a fault's arm and the bucket of its randomization unit */
struct rap_unit {
	enum rap_arm arm;
	unsigned int bucket;
};

struct rap_unit rap_unit_of(const struct file *file);
enum rap_arm rap_arm_of(const struct file *file);
char rap_ab_bucket_arm(unsigned int bucket);
extern const struct attribute_group rap_ab_group;
void rap_ab_exit(void);

#endif /* RAPOLICY_H */
