/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What module/policy.h takes from the kernel, for host builds: the types
 * and the mirrors of include/linux/readahead_policy.h (patches/0003). The
 * KUnit suite runs the same cases against the real header.
 */
#ifndef RAPOLICY_KERNEL_COMPAT_H
#define RAPOLICY_KERNEL_COMPAT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef unsigned long pgoff_t;
typedef uint64_t u64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
/* <linux/minmax.h> and <linux/math.h>, without their type checks */
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BIT_ULL(n)		(1ULL << (n))
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
	unsigned int nr;
	const char *by;
	unsigned int arm;
};

/*
 * The tracker's table (module/stream.c): a spinlock that only counts,
 * clocks that count their reads, and RCU that counts its read sections,
 * the table pointers read outside one and the grace periods waited for
 * inside one. The host tests set the time (rap_host.ns) and read the
 * counts.
 */
struct rap_host {
	u64 ns;				/* local_clock() */
	unsigned long clock_reads;	/* local_clock() and jiffies reads */
	int locked;			/* set locks held */
	unsigned long locks;		/* spin_lock() calls */
	int rcu;			/* rcu_read_lock() sections open */
	unsigned long rcu_bad;		/* rcu_dereference() outside one, */
					/* synchronize_rcu() inside one */
	unsigned long grace_periods;	/* synchronize_rcu() calls */
};

static struct rap_host rap_host;

typedef struct {
	int held;
} spinlock_t;

#define ____cacheline_aligned_in_smp
#define NSEC_PER_MSEC	1000000ULL

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->held = 0;
}

static inline void spin_lock(spinlock_t *lock)
{
	lock->held++;
	rap_host.locked++;
	rap_host.locks++;
}

static inline void spin_unlock(spinlock_t *lock)
{
	lock->held--;
	rap_host.locked--;
}

#define __rcu
#define GFP_KERNEL	0
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))

static inline void rcu_read_lock(void)
{
	rap_host.rcu++;
}

static inline void rcu_read_unlock(void)
{
	rap_host.rcu--;
}

static inline void *rap_host_rcu_check(void *p)
{
	rap_host.rcu_bad += rap_host.rcu <= 0;
	return p;
}

#define rcu_dereference(p)		((__typeof__(p))rap_host_rcu_check(p))
#define rcu_dereference_protected(p, c)	(p)
#define rcu_assign_pointer(p, v)	((p) = (v))
#define RCU_INIT_POINTER(p, v)		((p) = (v))

static inline void synchronize_rcu(void)
{
	rap_host.rcu_bad += rap_host.rcu > 0;
	rap_host.grace_periods++;
}

static inline void *kvzalloc(size_t size, int gfp)
{
	(void)gfp;
	return calloc(1, size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#define struct_size(p, member, n) \
	(sizeof(*(p)) + (size_t)(n) * sizeof(*(p)->member))

static inline unsigned int ilog2(unsigned long n)
{
	return 63 - __builtin_clzl(n);
}

static inline u64 local_clock(void)
{
	rap_host.clock_reads++;
	return rap_host.ns;
}

static inline unsigned long rap_host_jiffies(void)
{
	rap_host.clock_reads++;
	return rap_host.ns / NSEC_PER_MSEC;
}

/* HZ=1000 */
#define jiffies			rap_host_jiffies()
#define jiffies_to_msecs(j)	((unsigned int)(j))

static inline u64 div_u64(u64 dividend, unsigned int divisor)
{
	return dividend / divisor;
}

/*
 * include/linux/readahead_policy.h's bound on a replaced window
 * (patches/0003) and module/compat.h's geometry helper, for 7.x
 */
static inline unsigned int ra_policy_thp_order(unsigned int max_folio_order,
					       unsigned int page_shift)
{
	unsigned int order_2m = page_shift < 21 ? 21 - page_shift : 0;

	return max_folio_order < order_2m ? max_folio_order : order_2m;
}

static inline unsigned long ra_policy_max_pages(unsigned long ra_pages,
						unsigned int thp_order)
{
	return ra_pages > 2UL << thp_order ? ra_pages : 2UL << thp_order;
}

static inline unsigned int ra_policy_max_order(unsigned long ra_pages,
					       unsigned int thp_order,
					       unsigned int max_folio_order)
{
	unsigned int order = ra_pages ? ilog2(ra_pages) : 0;

	if (order < thp_order)
		order = thp_order;
	return max_folio_order < order ? max_folio_order : order;
}

static inline unsigned int rap_thp_order_geometry(unsigned int page_shift,
						  unsigned int pmd_order,
						  unsigned int max_cache_order,
						  unsigned int max_folio_order)
{
	(void)pmd_order;
	(void)max_cache_order;
	return ra_policy_thp_order(max_folio_order, page_shift);
}

#endif /* RAPOLICY_KERNEL_COMPAT_H */
