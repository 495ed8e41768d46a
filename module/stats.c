// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: per-CPU decision counters, per A/B arm, and major faults and
 * pages read per A/B bucket. The fault path only
 * adds to its own CPU's slots; readers sum over all CPUs.
 */
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "rapolicy.h"

struct rap_stats __percpu *rap_stats;

/* When the counters last started from zero */
static u64 rap_stats_epoch_ns;

u64 rap_stats_elapsed_ms(void)
{
	return div_u64(ktime_get_boottime_ns() - READ_ONCE(rap_stats_epoch_ns),
		       NSEC_PER_MSEC);
}

u64 rap_stat_sum(enum rap_arm arm, enum rap_stat stat)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rap_stats, cpu)->count[arm][stat];
	return sum;
}

u64 rap_bucket_sum(unsigned int bucket, enum rap_bucket_stat stat)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rap_stats, cpu)->bucket[bucket][stat];
	return sum;
}

u64 rap_ledger_sum(enum rap_arm arm, unsigned int decider,
		   enum rap_ledger_stat stat)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rap_stats, cpu)->ledger[arm][decider][stat];
	return sum;
}

/* Racing increments may survive a reset; counters are not transactional */
void rap_stats_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(rap_stats, cpu), 0, sizeof(struct rap_stats));
	WRITE_ONCE(rap_stats_epoch_ns, ktime_get_boottime_ns());
}

int rap_stats_init(void)
{
	rap_stats = alloc_percpu(struct rap_stats);
	WRITE_ONCE(rap_stats_epoch_ns, ktime_get_boottime_ns());
	return rap_stats ? 0 : -ENOMEM;
}

void rap_stats_exit(void)
{
	free_percpu(rap_stats);
	rap_stats = NULL;
}
