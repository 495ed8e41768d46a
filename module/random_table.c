// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: random_miss's table of open files and its place in the fault
 * path.
 *
 * RAP_RANDOM_SETS sets of RAP_RANDOM_WAYS mappings (random.c), each under
 * its own spinlock, on cache lines of its own: the hooks run under
 * rcu_read_lock() and may not sleep.
 * A mapping's set is chosen by a hash of its key (random.h); the key is
 * compared, never dereferenced, so a mapping that goes away leaves an
 * entry that ages out.
 */
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "rapolicy.h"
#include "random.h"

/*
 * A set and its lock, on cache lines of their own: the faults of one set
 * do not bounce another set's lock between CPUs. @keys has the bit
 * rap_random_key_bit() of each key the set's ways hold (and possibly
 * more): rewritten under @lock when a way takes a key, read without it by
 * rap_random_miss_hit().
 */
struct rap_random_slot {
	spinlock_t lock;	/* serialises the decisions on @set */
	unsigned long keys;
	struct rap_random_set set;
} ____cacheline_aligned_in_smp;

static struct rap_random_slot rap_random_slots[RAP_RANDOM_SETS];

void rap_random_init(void)
{
	unsigned int i;

	for (i = 0; i < RAP_RANDOM_SETS; i++)
		spin_lock_init(&rap_random_slots[i].lock);
}

static struct rap_random_key rap_random_key(const struct vm_area_struct *vma)
{
	return (struct rap_random_key){
		.file = (unsigned long)vma->vm_file,
		.inode = (unsigned long)file_inode(vma->vm_file),
		.mm = (unsigned long)vma->vm_mm,
		.start = vma->vm_start,
		.reader = task_pid_nr(current),
	};
}

/*
 * A key's hash: its top bits pick the key's set, the bits below them its
 * bit in the set's struct rap_random_slot.keys
 */
#define RAP_RANDOM_KEY_BITS	ilog2(BITS_PER_LONG)

static __always_inline u32 rap_random_hash(const struct rap_random_key *key)
{
	return hash_long(key->file ^ key->mm ^ (key->start >> PAGE_SHIFT) ^
			 key->reader,
			 ilog2(RAP_RANDOM_SETS) + RAP_RANDOM_KEY_BITS);
}

static struct rap_random_slot *rap_random_slot_of(u32 hash)
{
	return &rap_random_slots[hash >> RAP_RANDOM_KEY_BITS];
}

static unsigned long rap_random_key_bit(u32 hash)
{
	return BIT(hash & (BITS_PER_LONG - 1));
}

/*
 * Under the slot's lock: rap_random_find() with @create, which may give
 * a way a new key in place of another, and the set's key bits anew
 */
static struct rap_random *
rap_random_find_create(struct rap_random_slot *slot,
		       const struct rap_random_key *key)
{
	struct rap_random *r = rap_random_find(&slot->set, key, true);
	const struct rap_random *way;
	unsigned long keys = 0;

	for (way = slot->set.way; way < slot->set.way + RAP_RANDOM_WAYS; way++)
		if (way->used)
			keys |= rap_random_key_bit(rap_random_hash(&way->key));
	WRITE_ONCE(slot->keys, keys);
	return r;
}

/*
 * Whether @slot may hold the key of @hash, read without the lock. A way
 * takes a key only at a miss of the reader the key names (struct
 * rap_random_key.reader), under the lock, so the reader that asks sees
 * the bit of a key its set took earlier and still holds; the bits are
 * rewritten only from the keys the ways hold. A false answer thus means
 * that rap_random_find() without @create would return NULL.
 */
static bool rap_random_may_hold(const struct rap_random_slot *slot, u32 hash)
{
	return READ_ONCE(slot->keys) & rap_random_key_bit(hash);
}

/*
 * A VM_HUGEPAGE mapping's memcg has room for its windows: for
 * RAP_RANDOM_ROOM of them below memory.max (docs/RANDOM.md, "VM_HUGEPAGE")
 */
#define RAP_RANDOM_ROOM	4

static bool rap_random_room(const struct ra_policy_fault *fault,
			    const struct ra_policy_window *win)
{
	bool limited;

	if (!(fault->vma->vm_flags & VM_HUGEPAGE))
		return false;
	return rap_memcg_headroom(&limited) / RAP_RANDOM_ROOM >=
	       max_t(unsigned long, win->size, fault->ra_pages);
}

/**
 * rap_random_mmap_ra - run a readahead decision through random_miss
 * @fault: the decision, as the kernel offers it
 * @win: in: the window to read; out: the faulting page, if true is returned
 * @stream: another policy replaced @win for a stream it recognised
 * @arm: the A/B arm, for the counters
 *
 * Return: true if @win now holds the faulting page alone.
 */
bool rap_random_mmap_ra(const struct ra_policy_fault *fault,
			struct ra_policy_window *win, bool stream,
			enum rap_arm arm)
{
	const struct rap_random_key key = rap_random_key(fault->vma);
	const struct rap_random_fault rf = {
		.point = fault->point,
		.index = fault->index,
		/* do_sync_mmap_readahead() counts these misses in mmap_miss */
		.counted = !(fault->vma->vm_flags & (VM_SEQ_READ | VM_EXEC)),
		.replaced = stream,
		.room = rap_random_room(fault, win),
	};
	struct rap_random_slot *slot = rap_random_slot_of(rap_random_hash(&key));
	struct rap_random *r;
	unsigned int did = 0;
	bool shrunk = false;

	if (fault->point != RA_POLICY_SYNC_AROUND &&
	    fault->point != RA_POLICY_SYNC_THP &&
	    fault->point != RA_POLICY_ASYNC)
		return false;
	spin_lock(&slot->lock);
	if (fault->point == RA_POLICY_ASYNC)
		r = rap_random_find(&slot->set, &key, false);
	else
		r = rap_random_find_create(slot, &key);
	if (r)
		shrunk = rap_random_decide(r, &rf, win, &did);
	spin_unlock(&slot->lock);
	if (did & RAP_RANDOM_DID_SHRINK)
		rap_stat_add(arm, RAP_STAT_random_fault, 1);
	if (did & RAP_RANDOM_DID_RETURN)
		rap_stat_add(arm, RAP_STAT_random_return, 1);
	if (did & RAP_RANDOM_DID_MARKER)
		rap_stat_add(arm, RAP_STAT_random_marker, 1);
	return shrunk;
}

/*
 * random_miss, last: a window that continues a stream (the tracker's or
 * the BPF program's own, or a descending policy's at its marker) is no
 * random read's; a descending policy's window at a miss rests on that
 * miss alone (the page above cached, the one below not), which random
 * misses among cached pages meet now and then, so random_miss may cut
 * it. What it cuts to is its window: of the decisions before it, only a
 * bound still counts (RAP_DID_CUT). A replaced window it leaves is cut to
 * the memcg's headroom if it reads more than stock's (pressure.c).
 */
static unsigned int rap_random_miss_decide(int value, const struct rap_fault *f,
					   const struct rap_cache_view *view,
					   struct ra_policy_window *win,
					   unsigned int did)
{
	bool stream = (did & RAP_DID_OWNED) ||
		      (f->point == RA_POLICY_ASYNC && (did & RAP_DID_STREAMS));

	if (rap_random_mmap_ra(f->fault, win, stream, f->arm))
		return RAP_DID_REPLACED | RAP_DID_CUT;
	if (!(did & RAP_DID_REPLACED) || !rap_pressure_cut(f, win))
		return 0;
	rap_stat_add(f->arm, RAP_STAT_pressure_cut, 1);
	return RAP_DID_REPLACED;
}

/**
 * rap_random_mmap_hit - random_miss on a mapping of the faulting address
 * @slot: the set of @key, whose lock it takes
 * @key: the reader's mapping
 * @hit: the mapping, as the kernel reports it
 * @counted: whether it lowers mmap_miss without random_miss
 * @arm: the A/B arm, for the counters
 *
 * Not inlined: most hits return before it (rap_random_miss_hit()).
 *
 * Return: whether it lowers mmap_miss.
 */
static noinline bool rap_random_mmap_hit(struct rap_random_slot *slot,
					 const struct rap_random_key *key,
					 const struct ra_policy_hit *hit,
					 bool counted, enum rap_arm arm)
{
	struct rap_random *r;
	unsigned int did = 0;

	spin_lock(&slot->lock);
	r = rap_random_find(&slot->set, key, false);
	if (r) {
		if (hit->pmd)
			rap_random_pmd_hit(r, hit->index,
					   1UL << (PMD_SHIFT - PAGE_SHIFT));
		counted = rap_random_hit(r, hit->index, counted, &did);
	}
	spin_unlock(&slot->lock);
	if (did & RAP_RANDOM_DID_CREDIT)
		rap_stat_add(arm, RAP_STAT_random_credit, 1);
	return counted;
}

/*
 * random_miss on a mapping from the cache. Every fault served from the
 * cache comes here while random_miss is on, and most are of readers it
 * holds no state of: for those, no lock (rap_random_may_hold()), and the
 * decision of the policies before it stands.
 */
static unsigned int rap_random_miss_hit(int value, const struct rap_hit *h,
					unsigned int did)
{
	const struct rap_random_key key = rap_random_key(h->hit->vma);
	u32 hash = rap_random_hash(&key);
	struct rap_random_slot *slot = rap_random_slot_of(hash);

	if (!rap_random_may_hold(slot, hash))
		return did;
	if (rap_random_mmap_hit(slot, &key, h->hit, did & RAP_HIT_COUNTED,
				h->arm))
		return did | RAP_HIT_COUNTED;
	return did & ~RAP_HIT_COUNTED;
}

const struct rap_policy_ops rap_random_miss_policy = {
	.stage = RAP_STAGE_CUT,
	.decide = rap_random_miss_decide,
	.hit = rap_random_miss_hit,
};

/**
 * rap_random_took - what random_miss took off a reader's mmap_miss
 * @vma: the faulting mapping, of the current task
 *
 * The stream tracker gives read-around up where stock would, and stock
 * counts the misses random_miss reads the faulting page of and takes
 * back (struct rap_random.took).
 *
 * Return: mmap_miss increments taken back since the reader last entered
 * a window, 0 if random_miss has no state for it.
 */
unsigned int rap_random_took(const struct vm_area_struct *vma)
{
	const struct rap_random_key key = rap_random_key(vma);
	u32 hash = rap_random_hash(&key);
	struct rap_random_slot *slot = rap_random_slot_of(hash);
	struct rap_random *r;
	unsigned int took = 0;

	if (!rap_random_may_hold(slot, hash))
		return 0;
	spin_lock(&slot->lock);
	r = rap_random_find(&slot->set, &key, false);
	if (r)
		took = r->took;
	spin_unlock(&slot->lock);
	return took;
}
