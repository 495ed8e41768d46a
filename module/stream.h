/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: the stream tracker as pure decisions.
 *
 * Several streams per file, each with its own position, direction, stride
 * and window, found again by the faults that continue it, so that a stream
 * survives accesses elsewhere in the file and several readers of one
 * mapping; the model is OpenZFS's dmu_zfetch (module/zfs/dmu_zfetch.c),
 * which keeps a few streams per file and replaces the least recently used.
 *
 * The streams of a file live in one set of RAP_STREAM_WAYS, chosen by a
 * hash of the file; several files may share a set. Each A/B arm has a
 * power of two of sets, RAP_STREAM_SETS at load; a set whose ways keep
 * going to other files' live streams asks for twice the sets, up to the
 * operator's bound (streams_max_kb); a grown table whose live streams
 * would take under an eighth of the ways of half its sets, while no set
 * asks, halves again. A stream names its file by a key of
 * values that are compared, never dereferenced, so a stream that outlives
 * its file is only a stale entry that ages out. The model (states,
 * transitions, eviction, capacity) is written down in docs/STREAMS.md,
 * "The model".
 *
 * The decisions touch no kernel state: the caller locks the set. The table
 * (struct rap_stream_table) adds the locks and the clock; the same file
 * builds into the module, the KUnit suite and the host unit tests, which
 * fake the lock and the clock (tests/unit/kernel_compat.h).
 *
 * The interface: rap_stream_wants() filters a fault before any lock;
 * rap_stream_run() takes one fault through an arm's table (its set copied
 * under the set's lock, decided by rap_stream_decide(), put back);
 * rap_stream_flush() and rap_stream_table_flush() drop streams;
 * rap_stream_table_resize() and its callers (grow, shrink, bound) replace
 * an arm's table, freeing the old one after an RCU grace period,
 * serialised by the caller. Each is documented where it is defined.
 */
#ifndef RAPOLICY_STREAM_H
#define RAPOLICY_STREAM_H

#include "policy.h"

#ifdef __KERNEL__
#include <linux/cache.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#else
#include <limits.h>
typedef unsigned int u32;
#endif

#define RAP_STREAM_WAYS		8
/* Sets of an arm's table at load, and at least (a power of two) */
#define RAP_STREAM_SETS		64
/* Sets of an arm's table at most */
#define RAP_STREAM_SETS_MAX	65536
/*
 * Evictions of live streams of other files, within RAP_STREAM_REAP_MS of
 * the first, after which a set asks for twice the sets
 */
#define RAP_STREAM_GROW_EVICTS	2
/*
 * A grown table halves while its live streams would take under one in
 * this many ways of the halved table: under one stream in two sets of
 * the table now, so under one a set once halved, below where growth
 * stops (docs/STREAMS.md, "Capacity")
 */
#define RAP_STREAM_SHRINK_SHARE	8
/* The largest distance between two misses that can start a stream */
#define RAP_STREAM_MAX_DELTA	4096
/*
 * A miss this share of a stride or less off the marker a confirmed
 * stream set for its next touch is its reader's, a touch off its place
 */
#define RAP_STREAM_JITTER_SHARE	4
/* Strides a confirmed stream may skip between two misses */
#define RAP_STREAM_SKIP		64
/*
 * Misses that make a stream read ahead: the fourth miss of a stride (three
 * equal distances; two happen among random misses of a big file now and
 * then), the third dense one
 */
#define RAP_STREAM_CONFIRM	3
/* Read-around misses after which stock reads only the faulting page */
#define RAP_STREAM_LOTSAMISS	100
/* Parts of a miss in rap_stream.took: a stride's share of one of stock's */
#define RAP_STREAM_TOOK_UNIT	64
/*
 * Decisions of its set for which a confirmed stream keeps its way after
 * its last touch (a share of them for each miss that continued a stream
 * not confirmed yet): a reader reading ahead hears from the tracker once
 * a window, while other readers' misses start a stream each
 */
#define RAP_STREAM_HOLD		(8 * RAP_STREAM_WAYS)
/*
 * Fault-around blocks one scan of the blocks between two pages looks at,
 * at most (rap_stream_descent(), rap_blocks_between()): two runs of the
 * largest window, 1024 pages, at the default fault_around_bytes (64 KiB)
 */
#define RAP_STREAM_SCAN		128
/*
 * Page-cache lookups one fault may make through rap_stream_run(), over
 * all its attempts, a range lookup counted as its pages; the fault that
 * would make more is left to stock, its set unchanged (docs/STREAMS.md,
 * "Bounded work")
 */
#define RAP_STREAM_LOOKUPS	512
/*
 * A backward span's largest window on a mapping without VM_HUGEPAGE, in
 * stock's windows (ra_pages): its reader is at most two such windows
 * above what it reads (rap_stream_max())
 */
#define RAP_STREAM_BACK_WINDOWS	8
/* Milliseconds after which an untouched stream is free (zfetch_max_sec_reap) */
#define RAP_STREAM_REAP_MS	2000

/* Where a stream is; docs/STREAMS.md, "The model" */
enum rap_stream_state {
	RAP_STREAM_FREE,	/* the way holds nothing */
	/* no marker out: on trial (reads nothing) while conf is short */
	RAP_STREAM_IDLE,
	RAP_STREAM_AHEAD,	/* a window of its own carries its marker */
	RAP_STREAM_FOLLOW,	/* follows stock's marker (rap_stream_adopt()) */
};

/* Which file: compared, never dereferenced */
struct rap_stream_key {
	unsigned long inode;	/* the inode's address, as a number */
	u64 ino;
	u64 dev;
	u32 generation;
};

struct rap_stream {
	struct rap_stream_key key;
	pgoff_t last;		/* its latest touch (a jittered one's place) */
	pgoff_t origin;		/* its lowest miss */
	pgoff_t top;		/* its highest miss */
	long delta;		/* pages from one touch to the next; 0: unknown */
	/* where its next window starts (forward) or ends (backward) */
	pgoff_t next;
	pgoff_t marker;		/* a page of the folio marked for it */
	unsigned long window;	/* pages of its last window */
	unsigned long before;	/* pages of stock's window below its miss */
	unsigned int conf;	/* misses that continued it */
	/* its misses, whatever matched them, up to RAP_STREAM_CONFIRM */
	unsigned int misses;
	/*
	 * what it took off the file's mmap_miss against stock, up to twice
	 * RAP_STREAM_LOTSAMISS, in RAP_STREAM_TOOK_UNIT parts
	 * (rap_stream_took())
	 */
	unsigned int took;
	unsigned int unit_order;	/* folio order of its windows and marker */
	enum rap_stream_state state;
	bool span;		/* reads whole spans, not one unit per touch */
	/*
	 * continued the cached pages behind it: its reader may touch any
	 * page between its misses
	 */
	bool dense;
	bool done;		/* ran into the start of the file */
	bool descent;		/* read by rap_stream_descend() */
	bool lost;		/* stock lost it once: it reads its own windows */
	/* the file's mmap_miss was above zero at its latest rap_stream_took() */
	bool above;
	u32 age;		/* the set's clock at its latest touch */
	u32 seen;		/* the time of its latest touch, ms */
	u32 reader;		/* the task of its latest fault */
};

struct rap_stream_set {
	struct rap_stream way[RAP_STREAM_WAYS];
	u32 clock;		/* the set's decisions */
	/* live streams of other files evicted since @evict_start (ms) */
	u32 evicts;
	u32 evict_start;
};

/* A/B arms, as enum rap_arm (rapolicy.h) counts them */
#define RAP_STREAM_ARMS		2

/* A set and its lock */
struct rap_stream_slot {
	spinlock_t lock;		/* serialises rap_stream_decide() on @set */
	/* a resize copied @set to the next table: no decision on it */
	bool moved;
	struct rap_stream_set set;
} ____cacheline_aligned_in_smp;

/* An arm's sets: 1 << @order of them, each on its own cache lines */
struct rap_stream_sets {
	unsigned int order;
	struct rap_stream_slot slot[];
};

/*
 * The tracker's table: per arm, its sets, read under rcu_read_lock() and
 * replaced by rap_stream_table_resize(), the operator's bound, and when a
 * set last asked for more sets
 */
struct rap_stream_table {
	struct rap_stream_sets __rcu *sets[RAP_STREAM_ARMS];
	unsigned int max_order[RAP_STREAM_ARMS];	/* log2 of sets at most */
	/*
	 * the time (ms) of the latest RAP_STREAM_DID_CROWDED, at the bound
	 * too: rap_stream_table_shrink() waits RAP_STREAM_REAP_MS after it.
	 * Written by faults, rarely: on its own cache line.
	 */
	u32 asked[RAP_STREAM_ARMS] ____cacheline_aligned_in_smp;
};

/* A fault, as the tracker sees it */
struct rap_stream_fault {
	struct rap_stream_key key;
	u32 reader;			/* the faulting task: compared only */
	/* the time in ms (local_clock()), for aging; rap_stream_run() sets it */
	u32 now;
	enum ra_policy_point point;
	enum rap_mapping_kind kind;
	pgoff_t index;			/* the faulting page */
	pgoff_t vma_start;		/* file index of the VMA's first page */
	pgoff_t vma_end;		/* file index just past the VMA */
	/*
	 * the window stock reads on a miss here: the read-around or THP
	 * window, or at VM_SEQ_READ ra_pages from the fault on
	 */
	pgoff_t stock_start;
	unsigned long stock_pages;
	/* the largest window the kernel reads: ra_policy_fault.max_pages */
	unsigned long max_pages;
	unsigned int thp_order;		/* folio order of RAP_MAP_THP reads */
	/* pages fault-around maps around a fault (fault_around_bytes) */
	unsigned long fault_around_pages;
	unsigned int max_order;		/* the mapping's largest folio order */
	/*
	 * at RA_POLICY_ASYNC: the hit is the marker of the file's last
	 * window, so page_cache_async_ra() goes on from @stock_next
	 */
	bool stock_seq;
	pgoff_t stock_next;
	/* the file's read-around miss count as the fault finds it (f_ra) */
	unsigned int mmap_miss;
	/* rap_stream_decide(): the misses the file's streams took off it */
	unsigned long taken;
};

/* What the tracker did, for the statistics */
enum rap_stream_did {
	RAP_STREAM_DID_NEW	= 1 << 0,	/* started a stream */
	RAP_STREAM_DID_SYNC	= 1 << 1,	/* read a window on a miss */
	RAP_STREAM_DID_ASYNC	= 1 << 2,	/* read on at its marker */
	RAP_STREAM_DID_STRIDE	= 1 << 3,	/* stock's window at the next miss */
	RAP_STREAM_DID_EVICT	= 1 << 4,	/* evicted another file's live stream */
	/* the set asks for more sets (RAP_STREAM_GROW_EVICTS), below the bound */
	RAP_STREAM_DID_CROWDED	= 1 << 5,
	/* left to stock at RAP_STREAM_LOOKUPS (rap_stream_run()) */
	RAP_STREAM_DID_BOUND	= 1 << 6,
};

bool rap_stream_wants(const struct rap_stream_fault *f);
u32 rap_stream_hash(const struct rap_stream_key *key);
void rap_stream_flush(struct rap_stream_set *set);
int rap_stream_table_init(struct rap_stream_table *table,
			  unsigned int max_order);
void rap_stream_table_free(struct rap_stream_table *table);
size_t rap_stream_table_bytes(struct rap_stream_table *table,
			      unsigned int arm);
size_t rap_stream_sets_bytes(unsigned int order);
int rap_stream_table_resize(struct rap_stream_table *table, unsigned int arm,
			    unsigned int order);
int rap_stream_table_grow(struct rap_stream_table *table, unsigned int arm);
int rap_stream_table_bound(struct rap_stream_table *table, unsigned int arm,
			   unsigned int max_order);
int rap_stream_table_shrink(struct rap_stream_table *table, unsigned int arm,
			    u32 now);
bool rap_stream_table_grown(struct rap_stream_table *table, unsigned int arm);
u32 rap_stream_now(void);
struct rap_stream_slot *rap_stream_slot(struct rap_stream_table *table,
					unsigned int arm,
					const struct rap_stream_key *key);
void rap_stream_table_flush(struct rap_stream_table *table, unsigned int arm);
bool rap_stream_run(struct rap_stream_table *table, unsigned int arm,
		    struct rap_stream_fault *f,
		    const struct rap_cache_view *view,
		    struct rap_stream_set *snap,
		    struct ra_policy_window *win, unsigned int *did,
		    bool timed, u64 *cost);
bool rap_stream_decide(struct rap_stream_set *set,
		       const struct rap_stream_fault *f,
		       const struct rap_cache_view *view,
		       struct ra_policy_window *win, unsigned int *did);

#endif /* RAPOLICY_STREAM_H */
