// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the ledger of what mmap readahead windows read, and of those
 * pages, which were used before they left the page cache.
 *
 * It needs nothing of the hook series beyond its decision hooks: two
 * probes on the page cache's existing trace events,
 * mm_filemap_add_to_page_cache and mm_filemap_delete_from_page_cache
 * (include/trace/events/filemap.h), found with
 * for_each_kernel_tracepoint() as out-of-tree tracers find them.
 *
 * - Between a fault's window decision (the mmap_ra hook) and the report of
 *   what it read (mmap_ra_done), the task that decided reads the window
 *   itself: page_cache_ra_order() adds its folios. rap_ledger_decided()
 *   notes "this task reads a window of this mapping for this arm and
 *   policy" in a slot chosen by hashing the task; the add probe finds
 *   that slot in O(1) and records the folio's pages in the table below.
 * - The table remembers, per 64-page block of a mapping, which pages a
 *   window read, as a bitmap per (block, arm, policy): RAP_LEDGER_SETS
 *   sets of RAP_LEDGER_WAYS entries, each set under its own raw spinlock.
 *   A probe scans one set per block its folio covers: at most
 *   RAP_LEDGER_WAYS entries for a folio of 64 pages or less, and 8 blocks
 *   for a PMD-sized folio with 4KiB pages (one per 64 pages of the
 *   largest page cache folio in general); hugetlbfs folios are skipped.
 *   A full set gives up its oldest entry, whose pages are counted in
 *   ledger_lost.
 * - The delete probe classifies a leaving folio's recorded pages as used
 *   or wasted by the folio's flags (rap_ledger_used()), and traces them
 *   (rapolicy:rapolicy_ledger, per file, for rapolicyctl trace).
 *
 * Nothing here sleeps: the add probe runs with preemption off, the delete
 * probe under the mapping's i_pages lock with interrupts off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "rapolicy.h"

#define CREATE_TRACE_POINTS
#include "rapolicy_trace.h"

#define RAP_LEDGER_BLOCK_SHIFT	6	/* 64 pages: one u64 bitmap */
#define RAP_LEDGER_SET_BITS	11
#define RAP_LEDGER_SETS		BIT(RAP_LEDGER_SET_BITS)
#define RAP_LEDGER_WAYS		8
#define RAP_LEDGER_SLOT_BITS	8	/* tasks reading a window at once */

/* The pages of one block of a mapping that windows of one tag read */
struct rap_ledger_entry {
	const struct address_space *mapping;	/* NULL: free */
	pgoff_t block;
	u64 pages;
	unsigned int tag;
};

struct rap_ledger_set {
	raw_spinlock_t lock;
	unsigned int next;	/* the way a full set gives up next */
	struct rap_ledger_entry way[RAP_LEDGER_WAYS];
};

/*
 * A task reading a window: set by the task itself in rap_ledger_decided(),
 * read by it in the add probe, cleared in rap_ledger_done(). Another task
 * hashing to the same slot takes it only if it is free or held for more
 * than a second (a task that never reported); the reader checks the
 * owner before and after reading the fields, so it never uses another's.
 */
struct rap_ledger_slot {
	struct task_struct *task;
	const struct address_space *mapping;
	unsigned int tag;
	unsigned long since;	/* jiffies */
};

static struct rap_ledger_set *rap_ledger_sets;
static struct rap_ledger_slot rap_ledger_slots[BIT(RAP_LEDGER_SLOT_BITS)];
static struct tracepoint *rap_tp_add, *rap_tp_delete;
static bool rap_ledger_on;

/* The ledger's deciders (stats/ledger's lines, the trace event's by=) */
const char *const rap_ledger_deciders[RAP_LEDGER_DECIDERS] = {
	"stock",
#define RAP_POLICY(name, orders, help, ...) #name,
#include "table.h"
};

/* A tag: the arm, and 0 for stock's window or 1 + the policy that decided */
static unsigned int rap_ledger_tag(enum rap_arm arm, unsigned int decider)
{
	return decider * RAP_NR_ARMS + arm;
}

static void rap_ledger_count(unsigned int tag, enum rap_ledger_stat stat,
			     u64 n)
{
	enum rap_arm arm = tag % RAP_NR_ARMS;
	unsigned int decider = tag / RAP_NR_ARMS;
	static const enum rap_stat total[RAP_LEDGER_NR] = {
		[RAP_LEDGER_read] = RAP_STAT_ledger_read,
		[RAP_LEDGER_used] = RAP_STAT_ledger_used,
		[RAP_LEDGER_wasted] = RAP_STAT_ledger_wasted,
		[RAP_LEDGER_lost] = RAP_STAT_ledger_lost,
	};

	if (!n)
		return;
	this_cpu_add(rap_stats->ledger[arm][decider][stat], n);
	rap_stat_add(arm, total[stat], n);
}

static struct rap_ledger_slot *rap_ledger_slot(const struct task_struct *t)
{
	return &rap_ledger_slots[hash_ptr(t, RAP_LEDGER_SLOT_BITS)];
}

/**
 * rap_ledger_decided - the current task is about to read a window
 * @mapping: of this file
 * @arm: for this arm
 * @by: decided by this policy (ra_policy_window.by), NULL for stock's
 *
 * Called from the mmap_ra hook. O(1), lock-free.
 */
void rap_ledger_decided(const struct address_space *mapping,
			enum rap_arm arm, const char *by)
{
	struct rap_ledger_slot *slot = rap_ledger_slot(current);
	struct task_struct *owner;

	if (!READ_ONCE(rap_ledger_on))
		return;
	owner = READ_ONCE(slot->task);
	if (owner != current) {
		if (owner &&
		    time_before(jiffies, READ_ONCE(slot->since) + HZ))
			return;	/* busy: this window's pages go untracked */
		if (cmpxchg(&slot->task, owner, current) != owner)
			return;
	}
	/* Only the owner writes the fields; cmpxchg() ordered them after */
	WRITE_ONCE(slot->mapping, mapping);
	WRITE_ONCE(slot->tag, rap_ledger_tag(arm, 1 + rap_policy_of(by)));
	WRITE_ONCE(slot->since, jiffies);
}

/* The window the current task reads is read: free its slot */
void rap_ledger_done(void)
{
	struct rap_ledger_slot *slot = rap_ledger_slot(current);

	if (READ_ONCE(slot->task) != current)
		return;
	/* Our field reads happen before another task may take the slot */
	smp_store_release(&slot->task, NULL);
}

static struct rap_ledger_set *rap_ledger_set(const struct address_space *m,
					     pgoff_t block)
{
	return &rap_ledger_sets[hash_long((unsigned long)m + block,
					  RAP_LEDGER_SET_BITS)];
}

/*
 * Record @pages (a bitmap) of @block as read by a window of @tag. Finds
 * the entry of (mapping, block, tag) or takes a free way, else gives up
 * the set's oldest: at most RAP_LEDGER_WAYS entries looked at.
 */
static void rap_ledger_record(const struct address_space *mapping,
			      pgoff_t block, u64 pages, unsigned int tag)
{
	struct rap_ledger_set *set = rap_ledger_set(mapping, block);
	struct rap_ledger_entry *e, *free = NULL;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&set->lock, flags);
	for (i = 0; i < RAP_LEDGER_WAYS; i++) {
		e = &set->way[i];
		if (e->mapping == mapping && e->block == block &&
		    e->tag == tag)
			goto found;
		if (!e->mapping && !free)
			free = e;
	}
	e = free;
	if (!e) {
		e = &set->way[set->next];
		set->next = (set->next + 1) % RAP_LEDGER_WAYS;
		rap_ledger_count(e->tag, RAP_LEDGER_lost, hweight64(e->pages));
	}
	e->tag = tag;
	e->pages = 0;
	WRITE_ONCE(e->block, block);
	WRITE_ONCE(e->mapping, mapping);
found:
	e->pages |= pages;
	raw_spin_unlock_irqrestore(&set->lock, flags);
}

/* The bits of the pages [@first, @last] within the block of @first */
static u64 rap_ledger_bits(pgoff_t first, pgoff_t last)
{
	unsigned int lo = first & (BIT(RAP_LEDGER_BLOCK_SHIFT) - 1);
	unsigned int hi = last & (BIT(RAP_LEDGER_BLOCK_SHIFT) - 1);

	return GENMASK_ULL(hi, lo);
}

/* The last page of the folio's block that holds @i */
static pgoff_t rap_ledger_block_end(pgoff_t i, pgoff_t last)
{
	return min(last, i | (BIT(RAP_LEDGER_BLOCK_SHIFT) - 1));
}

/* mm_filemap_add_to_page_cache: a folio the current task added */
static void rap_ledger_add_probe(void *data, struct folio *folio)
{
	struct rap_ledger_slot *slot = rap_ledger_slot(current);
	const struct address_space *mapping;
	unsigned int tag;
	pgoff_t i, end, last;

	if (READ_ONCE(slot->task) != current)
		return;
	/*
	 * The owner, then its fields, then the owner again: a task taking
	 * the slot changes the owner (a full barrier, cmpxchg()) before
	 * the fields, so the same owner twice means the fields were ours.
	 */
	smp_rmb();
	mapping = READ_ONCE(slot->mapping);
	tag = READ_ONCE(slot->tag);
	smp_rmb();	/* the fields before the second read of the owner */
	if (READ_ONCE(slot->task) != current || folio->mapping != mapping)
		return;
	last = folio->index + folio_nr_pages(folio) - 1;
	for (i = folio->index; i <= last; i = end + 1) {
		end = rap_ledger_block_end(i, last);
		rap_ledger_record(mapping, i >> RAP_LEDGER_BLOCK_SHIFT,
				  rap_ledger_bits(i, end), tag);
	}
	rap_ledger_count(tag, RAP_LEDGER_read, folio_nr_pages(folio));
}

/*
 * Whether a leaving folio was used: folio_mark_accessed() sets
 * PG_referenced on read(2) and on the unmap of a young PTE, and a second
 * access activates it (PG_active); shrink_active_list() turns a
 * deactivated folio's PG_active into PG_workingset. docs/LEDGER.md says
 * what this cannot tell apart.
 */
static bool rap_ledger_used(struct folio *folio)
{
	return folio_test_referenced(folio) || folio_test_active(folio) ||
	       folio_test_workingset(folio);
}

/* Take the folio's pages of @block out of the ledger; count them */
static void rap_ledger_forget(const struct address_space *mapping,
			      pgoff_t block, u64 bits, bool used)
{
	struct rap_ledger_set *set = rap_ledger_set(mapping, block);
	unsigned long flags;
	unsigned int i;

	/* Most deleted folios were never recorded: look before locking */
	for (i = 0; i < RAP_LEDGER_WAYS; i++) {
		const struct rap_ledger_entry *e = &set->way[i];

		if (READ_ONCE(e->mapping) == mapping &&
		    READ_ONCE(e->block) == block)
			break;
	}
	if (i == RAP_LEDGER_WAYS)
		return;
	raw_spin_lock_irqsave(&set->lock, flags);
	for (i = 0; i < RAP_LEDGER_WAYS; i++) {
		struct rap_ledger_entry *e = &set->way[i];
		u64 mine = e->pages & bits;

		if (e->mapping != mapping || e->block != block || !mine)
			continue;
		e->pages &= ~mine;
		if (!e->pages)
			WRITE_ONCE(e->mapping, NULL);
		rap_ledger_count(e->tag, used ? RAP_LEDGER_used :
				 RAP_LEDGER_wasted, hweight64(mine));
		trace_rapolicy_ledger(mapping, (block << RAP_LEDGER_BLOCK_SHIFT) +
				      __ffs64(mine), hweight64(mine),
				      e->tag % RAP_NR_ARMS,
				      rap_ledger_deciders[e->tag / RAP_NR_ARMS],
				      used);
	}
	raw_spin_unlock_irqrestore(&set->lock, flags);
}

/* mm_filemap_delete_from_page_cache: a folio leaves the page cache */
static void rap_ledger_delete_probe(void *data, struct folio *folio)
{
	const struct address_space *mapping = folio->mapping;
	pgoff_t i, end, last = folio->index + folio_nr_pages(folio) - 1;
	bool used;

	/* hugetlbfs reads no windows; its folios may be 1GB */
	if (folio_test_hugetlb(folio))
		return;
	used = rap_ledger_used(folio);
	for (i = folio->index; i <= last; i = end + 1) {
		end = rap_ledger_block_end(i, last);
		rap_ledger_forget(mapping, i >> RAP_LEDGER_BLOCK_SHIFT,
				  rap_ledger_bits(i, end), used);
	}
}

static void rap_ledger_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "mm_filemap_add_to_page_cache"))
		rap_tp_add = tp;
	else if (!strcmp(tp->name, "mm_filemap_delete_from_page_cache"))
		rap_tp_delete = tp;
}

int rap_ledger_init(void)
{
	unsigned int i;
	int err;

	rap_ledger_sets = kvcalloc(RAP_LEDGER_SETS, sizeof(*rap_ledger_sets),
				   GFP_KERNEL);
	if (!rap_ledger_sets)
		return -ENOMEM;
	for (i = 0; i < RAP_LEDGER_SETS; i++)
		raw_spin_lock_init(&rap_ledger_sets[i].lock);
	for_each_kernel_tracepoint(rap_ledger_find, NULL);
	if (!rap_tp_add || !rap_tp_delete) {
		pr_warn("no page cache trace events: the ledger counts nothing\n");
		return 0;
	}
	err = tracepoint_probe_register(rap_tp_delete,
					rap_ledger_delete_probe, NULL);
	if (err)
		goto free;
	err = tracepoint_probe_register(rap_tp_add, rap_ledger_add_probe,
					NULL);
	if (err) {
		tracepoint_probe_unregister(rap_tp_delete,
					    rap_ledger_delete_probe, NULL);
		tracepoint_synchronize_unregister();
		goto free;
	}
	WRITE_ONCE(rap_ledger_on, true);
	return 0;

free:
	kvfree(rap_ledger_sets);
	rap_ledger_sets = NULL;
	return err;
}

/* After readahead_policy_unregister(): no decision starts any more */
void rap_ledger_exit(void)
{
	if (READ_ONCE(rap_ledger_on)) {
		WRITE_ONCE(rap_ledger_on, false);
		tracepoint_probe_unregister(rap_tp_add, rap_ledger_add_probe,
					    NULL);
		tracepoint_probe_unregister(rap_tp_delete,
					    rap_ledger_delete_probe, NULL);
		/* Returns once no probe runs our code any more */
		tracepoint_synchronize_unregister();
	}
	kvfree(rap_ledger_sets);
	rap_ledger_sets = NULL;
}
