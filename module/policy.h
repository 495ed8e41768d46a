/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: the readahead policies as pure decisions.
 *
 * Given a fault, a view of what the page cache holds and the kernel's
 * default window, each policy decides the window to read. Nothing here
 * touches kernel state, so the same file builds into the module, into the
 * KUnit suite and into the host unit tests, which fake the page cache.
 */
#ifndef RAPOLICY_POLICY_H
#define RAPOLICY_POLICY_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/readahead_policy.h>
#include <linux/stddef.h>
#include <linux/types.h>
#else
/* Host unit tests: tests/unit/kernel_compat.h */
#include "kernel_compat.h"
#endif

/* Values of each policy; 0 is always stock behaviour */
enum rap_descending_thp { RAP_DESC_THP_OFF, RAP_DESC_THP_FOLIO,
			  RAP_DESC_THP_STREAM };
enum rap_pmd_hit { RAP_PMD_HIT_OFF, RAP_PMD_HIT_ON };
enum rap_descending_seq { RAP_DESC_SEQ_OFF, RAP_DESC_SEQ_WINDOW,
			  RAP_DESC_SEQ_STREAM };
enum rap_descending_around { RAP_DESC_AROUND_OFF, RAP_DESC_AROUND_WINDOW,
			     RAP_DESC_AROUND_STREAM };
enum rap_streams { RAP_STREAMS_OFF, RAP_STREAMS_ON };
enum rap_bpf { RAP_BPF_OFF, RAP_BPF_ON };
enum rap_random_miss { RAP_RANDOM_MISS_OFF, RAP_RANDOM_MISS_FAULT };
enum rap_vma_limit { RAP_VMA_LIMIT_NONE, RAP_VMA_LIMIT_ALWAYS,
		     RAP_VMA_LIMIT_NEAR_END };
/* sync_mmap_order: off, fault_around, or rap_order_value(2, order) */
enum rap_sync_order { RAP_SYNC_ORDER_OFF, RAP_SYNC_ORDER_FAULT_AROUND,
		      RAP_SYNC_ORDER_BASE };

/* One int per policy of table.h, the index of its value */
struct rap_settings {
#define RAP_POLICY(name, orders, help, ...) int name;
#include "table.h"
};

/* The policies of table.h, in table order */
enum rap_policy_id {
#define RAP_POLICY(name, orders, help, ...) RAP_POL_##name,
#include "table.h"
	RAP_NR_POLICIES
};

/* The number of named values of policy @name */
#define RAP_NR_NAMES(name)	rap_nr_names[RAP_POL_##name]
extern const unsigned int rap_nr_names[RAP_NR_POLICIES];
int rap_policy_of(const char *by);

/*
 * The value of a policy that takes folio orders (table.h) for @order:
 * orders follow the names, so that the values of one policy file, as
 * sysfs lists them, count up from 0.
 */
static inline int rap_order_value(unsigned int nr_names, unsigned int order)
{
	return nr_names + order;
}

/* The folio order that @value stands for, or -1 if it is a named value */
static inline int rap_value_order(unsigned int nr_names, int value)
{
	return value >= (int)nr_names ? value - (int)nr_names : -1;
}

int rap_setting(const struct rap_settings *s, enum rap_policy_id id);

/* What the page cache holds; the module backs it with the xarray */
struct rap_cache_view {
	const void *ctx;
	/* a folio (not a shadow entry) is cached at @index */
	bool (*has_folio)(const void *ctx, pgoff_t index);
	/* some folio is cached in [@first, @last] */
	bool (*has_range)(const void *ctx, pgoff_t first, pgoff_t last);
	/*
	 * the folio at @index is mapped by some process (folio_mapped());
	 * may be NULL: not known
	 */
	bool (*mapped)(const void *ctx, pgoff_t index);
};

/* Which readahead a mapping gets, from its madvise() hints */
enum rap_mapping_kind {
	RAP_MAP_AROUND,		/* no hint: read-around */
	RAP_MAP_SEQ,		/* VM_SEQ_READ */
	RAP_MAP_THP,		/* VM_HUGEPAGE on a file with large folios */
	RAP_MAP_OTHER,		/* VM_EXEC, VM_RAND_READ */
};

struct ra_policy_fault;

struct rap_fault {
	enum ra_policy_point point;
	/* the window offered is the one the kernel reads (struct ra_policy_fault) */
	bool sized;
	enum rap_mapping_kind kind;
	/* folio order of RAP_MAP_THP reads: the mapping's largest, <= PMD */
	unsigned int thp_order;
	/* the largest folio order of the mapping, at most PMD order */
	unsigned int max_order;
	pgoff_t ra_start;		/* the file's last window: ra->start, */
	unsigned long ra_size;		/* ra->size */
	unsigned int ra_order;		/* and ra->order */
	pgoff_t index;			/* the faulting page */
	pgoff_t vma_start;		/* file index of the VMA's first page */
	pgoff_t vma_end;		/* file index just past the VMA */
	unsigned long ra_pages;
	unsigned long fault_around_pages;
	/* for the module's own policies: the kernel's fault (NULL in tests) */
	const struct ra_policy_fault *fault;
	/* the settings of its arm, for a policy that asks after another's */
	const struct rap_settings *settings;
	int arm;			/* and its A/B arm (enum rap_arm) */
};

/* What the kernel checks a replaced window against (rap_window_check()) */
struct rap_window_bounds {
	pgoff_t index;		/* the faulting page */
	pgoff_t index_end;	/* just past its folio (ra_policy_fault) */
	bool async;		/* RA_POLICY_ASYNC: that folio is cached */
	pgoff_t vma_start;	/* file index of the VMA's first page */
	pgoff_t vma_end;	/* file index just past the VMA */
	pgoff_t file_pages;	/* the last one partial (0: empty) */
	unsigned long max_size;	/* ra_policy_max_pages() */
	unsigned long window_size; /* ra_policy_fault.window_pages */
	unsigned int max_order;	/* ra_policy_max_order() */
};

enum rap_window_check {
	RAP_WINDOW_KEPT,	/* read as the policy returned it */
	RAP_WINDOW_CUT,		/* read, cut down */
	RAP_WINDOW_REFUSED,	/* not read: the kernel reads its default */
};

/* What the policies did, for the statistics */
enum rap_decision {
	RAP_DID_DESCENDING_THP	= 1 << 0,
	RAP_DID_DESCENDING_SEQ	= 1 << 1,
	RAP_DID_VMA_LIMIT	= 1 << 2,	/* set a bound */
	RAP_DID_VMA_CLAMP	= 1 << 3,	/* the bound cut the window */
	RAP_DID_ORDER_RAISE	= 1 << 4,
	RAP_DID_DESCENDING_AROUND = 1 << 5,
};

/* The decisions that read a stream's window */
#define RAP_DID_STREAMS	(RAP_DID_DESCENDING_THP | RAP_DID_DESCENDING_SEQ | \
			 RAP_DID_DESCENDING_AROUND)

/*
 * What a policy's decide() tells the policies after it, besides the
 * RAP_DID_* bits it counts; rap_decide_window() does not return these.
 */
enum rap_decision_flow {
	RAP_DID_REPLACED	= 1 << 16,	/* @win replaces the default */
	RAP_DID_SIZED		= 1 << 17,	/* and is the window read */
	RAP_DID_OWNED		= 1 << 18,	/* a stream's own: kept as is */
	RAP_DID_CUT		= 1 << 19,	/* cut down to less */
};

#define RAP_DID_FLOW	(RAP_DID_REPLACED | RAP_DID_SIZED | RAP_DID_OWNED | \
			 RAP_DID_CUT)
/* The decisions that a cut discards: only a bound still holds */
#define RAP_DID_SHAPE	(RAP_DID_STREAMS | RAP_DID_ORDER_RAISE | \
			 RAP_DID_VMA_CLAMP)

/*
 * When a policy decides: stages in this order, within a stage the table's
 * order. Once a policy owns the window (RAP_DID_OWNED), only RAP_STAGE_CUT
 * still runs.
 */
enum rap_stage {
	RAP_STAGE_PROGRAM,	/* a loaded program (BPF) */
	RAP_STAGE_OWN,		/* a tracker that owns the streams it reads */
	RAP_STAGE_WINDOW,	/* replace the window */
	RAP_STAGE_ORDER,	/* raise its folio order */
	RAP_STAGE_BOUND,	/* bound it (max_index) */
	RAP_STAGE_CUT,		/* cut it down, last */
	RAP_NR_STAGES
};

struct ra_policy_hit;

/* A mapping of the faulting address from the cache (struct ra_policy_hit) */
struct rap_hit {
	bool pmd;		/* mapped with a PMD */
	bool eligible;		/* the kernel's rules would lower mmap_miss */
	/* for the module's own policies: the kernel's (NULL in tests) */
	const struct ra_policy_hit *hit;
	int arm;
};

/* What the policies decided on a mapping from the cache */
enum rap_hit_decision {
	RAP_HIT_COUNTED		= 1 << 0,	/* lowers mmap_miss */
	RAP_HIT_PMD		= 1 << 1,	/* a PMD mapping pmd_hit counted */
};

/**
 * struct rap_policy_ops - a policy, as the BPF struct rapolicy_ops' mmap_ra
 * @stage: when it decides
 * @decide: the decision on one fault: @value is the policy's setting,
 *	never 0 (stock: not called), @did what the policies before it
 *	decided; may change @win; returns RAP_DID_* and RAP_DID_FLOW bits.
 *	NULL for a policy that decides no window (pmd_hit).
 * @hit: the decision on a mapping from the cache, in table order: @did
 *	holds the RAP_HIT_* bits so far, stock's to begin with; returns
 *	them as they are to be. NULL: the policy leaves mappings alone.
 *
 * One per row of table.h, named rap_<name>_policy, defined next to the
 * policy's code: policy.c, or a file of the module alone for policies
 * with state in the kernel (stream tracker, BPF, random_miss). Builds of
 * policy.c alone (host tests, KUnit) have only the former; the module
 * checks at load that every row has its ops.
 */
struct rap_policy_ops {
	enum rap_stage stage;
	unsigned int (*decide)(int value, const struct rap_fault *f,
			       const struct rap_cache_view *view,
			       struct ra_policy_window *win, unsigned int did);
	unsigned int (*hit)(int value, const struct rap_hit *h,
			    unsigned int did);
};

#define RAP_POLICY(name, orders, help, ...)				\
	extern const struct rap_policy_ops rap_##name##_policy __weak;
#include "table.h"

extern const struct rap_policy_ops *const rap_policy_table[RAP_NR_POLICIES];

bool rap_descending(const struct rap_cache_view *view, pgoff_t index,
		    unsigned long nr);
bool rap_decide_window(const struct rap_settings *s, const struct rap_fault *f,
		       const struct rap_cache_view *view,
		       struct ra_policy_window *win, unsigned int *decisions);
enum rap_window_check rap_window_check(const struct ra_policy_window *win,
				       const struct rap_window_bounds *b);
bool rap_decide_pmd_hit(const struct rap_settings *s, bool eligible);
/* A/B: units hash into RAP_AB_BUCKETS buckets, the salt picks arm B's */
#define RAP_AB_BUCKET_SHIFT	6
#define RAP_AB_BUCKETS		64	/* 1 << RAP_AB_BUCKET_SHIFT */
/* A salt with this bit swaps the arms of the salt without it */
#define RAP_AB_SALT_SWAP	BIT_ULL(63)
unsigned int rap_ab_bucket(u64 key, u64 ns, u64 id);
u64 rap_ab_mask(u64 salt, unsigned int permille);
unsigned int rap_sync_order(const struct rap_settings *s,
			    unsigned long fault_around_pages);

#endif /* RAPOLICY_POLICY_H */
