// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the stream tracker's table and its place in the fault path.
 *
 * The table (struct rap_stream_table, stream.c): per A/B arm, a power of
 * two of sets of streams (RAP_STREAM_SETS at load), each on its own cache
 * lines under its own spinlock: the hooks run under rcu_read_lock() and
 * may not sleep. The arms never see each other's streams. A file's set is
 * chosen by a hash of its key; the key is compared, never dereferenced, so
 * a file that goes away leaves only entries that age out.
 *
 * Per fault: the filter (rap_stream_wants()) before anything else, then
 * rap_stream_run() (stream.c), which the host tests run too. One decision
 * in RAP_STREAM_COST_EVERY of a CPU is timed for stats/stream_cost. A
 * decision whose set asks for more sets (RAP_STREAM_DID_CROWDED) queues
 * the arm's grow work, which doubles the arm's sets up to the bound the
 * operator sets in streams_max_kb; lowering the bound shrinks the table at
 * once. While an arm's table is above its load size, its shrink work runs
 * every RAP_STREAM_REAP_MS and halves it when its live streams would fit
 * half the sets with room to spare (rap_stream_table_shrink()); at the
 * load size nothing is armed, so an idle machine runs no timer for it.
 * Resizes and flushes of the tables hold rap_stream_resize_lock.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/local_lock.h>
#include <linux/math.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "rapolicy.h"
#include "stream.h"

/* One decision in this many of a CPU is timed for stats/stream_cost */
#define RAP_STREAM_COST_EVERY	16

/*
 * streams_max_kb at load: 2048 sets (2304 KiB) on x86-64 without lock
 * debugging, whose sets are 1152 bytes
 */
#define RAP_STREAM_MAX_KB	4096

static struct rap_stream_table rap_stream_table;
/* Serialises the resizes and flushes of both arms' tables */
static DEFINE_MUTEX(rap_stream_resize_lock);
/* Each arm's bound as the operator wrote it, in KiB */
static unsigned int rap_stream_max_kb[RAP_NR_ARMS];
static struct work_struct rap_stream_grow_work[RAP_NR_ARMS];
static struct delayed_work rap_stream_shrink_work[RAP_NR_ARMS];
static DEFINE_PER_CPU(unsigned int, rap_stream_ticks);
/*
 * The copy of a set a decision runs on (rap_stream_run()), one per CPU:
 * the local lock keeps the CPU's other tasks off it (preemption off, or
 * on PREEMPT_RT a per-CPU lock under which the set's spinlock may sleep)
 */
struct rap_stream_snap {
	local_lock_t lock;
	struct rap_stream_set set;
};

static DEFINE_PER_CPU(struct rap_stream_snap, rap_stream_snap) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/*
 * KiB of the sets of an arm's table of 1 << @order sets, rounded up: 72
 * for RAP_STREAM_SETS on x86-64 without lock debugging (its header, 64
 * bytes, not counted)
 */
static unsigned int rap_stream_kb(unsigned int order)
{
	return DIV_ROUND_UP(sizeof(struct rap_stream_slot) << order, 1024);
}

/* log2 of the most sets within @kb KiB, at least RAP_STREAM_SETS */
static unsigned int rap_stream_kb_order(unsigned int kb)
{
	unsigned int order = ilog2(RAP_STREAM_SETS);

	while (order < ilog2(RAP_STREAM_SETS_MAX) &&
	       rap_stream_kb(order + 1) <= kb)
		order++;
	return order;
}

/*
 * Arm an arm's shrink work while its table is above its load size; a
 * no-op while it is pending. Under rap_stream_resize_lock. On
 * system_dfl_wq, as the grow work (rap_tracker_mmap_ra()).
 */
static void rap_stream_shrink_later(enum rap_arm arm)
{
	if (rap_stream_table_grown(&rap_stream_table, arm))
		queue_delayed_work(system_dfl_wq, &rap_stream_shrink_work[arm],
				   msecs_to_jiffies(RAP_STREAM_REAP_MS));
}

/* An arm's grow work: one doubling of its table, if within its bound */
static void rap_stream_grow_fn(struct work_struct *work)
{
	enum rap_arm arm = work == &rap_stream_grow_work[RAP_ARM_B] ?
			   RAP_ARM_B : RAP_ARM_A;

	mutex_lock(&rap_stream_resize_lock);
	if (rap_stream_table_grow(&rap_stream_table, arm) > 0) {
		rap_stat_add(arm, RAP_STAT_stream_grow, 1);
		rap_stream_shrink_later(arm);
	}
	mutex_unlock(&rap_stream_resize_lock);
}

/*
 * An arm's shrink work: one halving of its table if its live streams
 * allow (rap_stream_table_shrink()), then again later while the table is
 * above its load size
 */
static void rap_stream_shrink_fn(struct work_struct *work)
{
	enum rap_arm arm = to_delayed_work(work) ==
			   &rap_stream_shrink_work[RAP_ARM_B] ?
			   RAP_ARM_B : RAP_ARM_A;

	mutex_lock(&rap_stream_resize_lock);
	if (rap_stream_table_shrink(&rap_stream_table, arm,
				    rap_stream_now()) > 0)
		rap_stat_add(arm, RAP_STAT_stream_shrink, 1);
	rap_stream_shrink_later(arm);
	mutex_unlock(&rap_stream_resize_lock);
}

int rap_tracker_init(void)
{
	enum rap_arm arm;

	BUILD_BUG_ON(RAP_STREAM_ARMS != RAP_NR_ARMS);
	for (arm = 0; arm < RAP_NR_ARMS; arm++) {
		rap_stream_max_kb[arm] = RAP_STREAM_MAX_KB;
		INIT_WORK(&rap_stream_grow_work[arm], rap_stream_grow_fn);
		INIT_DELAYED_WORK(&rap_stream_shrink_work[arm],
				  rap_stream_shrink_fn);
	}
	return rap_stream_table_init(&rap_stream_table,
				     rap_stream_kb_order(RAP_STREAM_MAX_KB));
}

/*
 * After the hooks are gone: no fault queues a grow any more, and with the
 * grow work gone nothing but the shrink work itself queues it again
 */
void rap_tracker_exit(void)
{
	enum rap_arm arm;

	for (arm = 0; arm < RAP_NR_ARMS; arm++)
		cancel_work_sync(&rap_stream_grow_work[arm]);
	for (arm = 0; arm < RAP_NR_ARMS; arm++)
		cancel_delayed_work_sync(&rap_stream_shrink_work[arm]);
	rap_stream_table_free(&rap_stream_table);
}

/**
 * rap_tracker_flush - drop every stream of an arm
 * @arm: the A/B arm
 *
 * For tests that count from a known state, and for an operator: the next
 * faults find no stream of an earlier reader.
 */
void rap_tracker_flush(enum rap_arm arm)
{
	mutex_lock(&rap_stream_resize_lock);
	rap_stream_table_flush(&rap_stream_table, arm);
	mutex_unlock(&rap_stream_resize_lock);
}

/**
 * rap_tracker_max_kb - an arm's bound on its table (streams_max_kb)
 * @arm: the A/B arm
 *
 * Return: the bound in KiB, as last set.
 */
unsigned int rap_tracker_max_kb(enum rap_arm arm)
{
	return READ_ONCE(rap_stream_max_kb[arm]);
}

/**
 * rap_tracker_set_max_kb - bound an arm's table
 * @arm: the A/B arm
 * @kb: KiB, from the size of RAP_STREAM_SETS sets to that of
 *	RAP_STREAM_SETS_MAX sets (rounded up)
 *
 * The table may grow to the most sets (a power of two) within @kb; a
 * larger table shrinks to them now. May sleep.
 *
 * Return: 0; -EINVAL for @kb out of range, -ENOMEM if the smaller table
 * cannot be allocated; on an error nothing changes.
 */
int rap_tracker_set_max_kb(enum rap_arm arm, unsigned int kb)
{
	int err;

	if (kb < rap_stream_kb(ilog2(RAP_STREAM_SETS)) ||
	    kb > rap_stream_kb(ilog2(RAP_STREAM_SETS_MAX)))
		return -EINVAL;
	mutex_lock(&rap_stream_resize_lock);
	err = rap_stream_table_bound(&rap_stream_table, arm,
				     rap_stream_kb_order(kb));
	if (!err)
		WRITE_ONCE(rap_stream_max_kb[arm], kb);
	mutex_unlock(&rap_stream_resize_lock);
	return err;
}

/**
 * rap_tracker_bytes - the size of an arm's table now
 * @arm: the A/B arm
 *
 * Return: bytes, as allocated.
 */
size_t rap_tracker_bytes(enum rap_arm arm)
{
	return rap_stream_table_bytes(&rap_stream_table, arm);
}

/* The key of a file's streams: compared, never dereferenced */
static struct rap_stream_key rap_tracker_key(const struct inode *inode)
{
	return (struct rap_stream_key){
		.inode = (unsigned long)inode,
		.ino = inode->i_ino,
		.dev = inode->i_sb->s_dev,
		.generation = inode->i_generation,
	};
}

/**
 * rap_tracker_mmap_ra - run a readahead decision through the stream tracker
 * @fault: the fault, as the kernel offers it
 * @f: the fault, as policy.c sees it
 * @view: the page cache
 * @win: in: the kernel's window; out: the tracker's, if true is returned
 * @arm: the A/B arm, for the counters
 *
 * Return: true if @win replaces the kernel's window.
 */
bool rap_tracker_mmap_ra(const struct ra_policy_fault *fault,
			 const struct rap_fault *f,
			 const struct rap_cache_view *view,
			 struct ra_policy_window *win, enum rap_arm arm)
{
	struct address_space *mapping = fault->file->f_mapping;
	const struct inode *inode = mapping->host;
	pgoff_t mark = fault->ra_start + fault->ra_size - fault->ra_async_size;
	bool sized = fault->sized;
	struct rap_stream_fault sf = {
		.key = rap_tracker_key(inode),
		.reader = task_pid_nr(current),
		.point = f->point,
		.kind = f->kind,
		.index = f->index,
		.vma_start = f->vma_start,
		.vma_end = f->vma_end,
		.stock_start = sized ? win->start : f->index,
		.stock_pages = sized ? win->size : f->ra_pages,
		.max_pages = fault->max_pages,
		.thp_order = f->thp_order,
		.fault_around_pages = f->fault_around_pages,
		.max_order = fault->max_order,
		/* page_cache_async_ra() goes on if the marked folio is this */
		.stock_seq = fault->ra_async_size &&
			     fault->ra_async_size <= fault->ra_size &&
			     f->index >> fault->ra_order == mark >> fault->ra_order,
		.stock_next = fault->ra_start + fault->ra_size,
		.mmap_miss = READ_ONCE(fault->file->f_ra.mmap_miss),
	};
	struct ra_policy_window out = *win;
	struct rap_stream_set *snap;
	unsigned int did;
	bool replaced;
	u64 cost;
	bool timed;

	if (!rap_stream_wants(&sf))
		return false;
	/*
	 * The misses random_miss reads the faulting page of and takes back
	 * count as stock counts them: past MMAP_LOTSAMISS stock offers no
	 * read-around or VM_HUGEPAGE window, so the tracker sees none
	 */
	if (f->settings && rap_setting(f->settings, RAP_POL_random_miss)) {
		sf.mmap_miss += rap_random_took(fault->vma);
		if (f->point != RA_POLICY_ASYNC &&
		    sf.mmap_miss > RAP_STREAM_LOTSAMISS)
			return false;
	}
	local_lock(&rap_stream_snap.lock);
	snap = this_cpu_ptr(&rap_stream_snap.set);
	timed = this_cpu_inc_return(rap_stream_ticks) %
		RAP_STREAM_COST_EVERY == 0;
	replaced = rap_stream_run(&rap_stream_table, arm, &sf, view, snap, &out,
				  &did, timed, &cost);
	local_unlock(&rap_stream_snap.lock);
	/* the sampled decision stands for the RAP_STREAM_COST_EVERY */
	if (timed)
		rap_stat_add(arm, RAP_STAT_stream_cost,
			     cost * RAP_STREAM_COST_EVERY);
	rap_stat_add(arm, RAP_STAT_stream_lookups, 1);
	if (did & RAP_STREAM_DID_EVICT)
		rap_stat_add(arm, RAP_STAT_stream_evict, 1);
	if (did & RAP_STREAM_DID_BOUND)
		rap_stat_add(arm, RAP_STAT_stream_bound, 1);
	/*
	 * A no-op while the work is pending. On system_dfl_wq, the unbound
	 * workqueue of commit 128ea9f6ccfb ("workqueue: Add system_percpu_wq
	 * and system_dfl_wq"): system_unbound_wq is going away, and 7.3
	 * warns when work is queued on it.
	 */
	if (did & RAP_STREAM_DID_CROWDED)
		queue_work(system_dfl_wq, &rap_stream_grow_work[arm]);
	if (!replaced)
		return false;
	out.max_index = win->max_index;
	*win = out;
	/* a stream's window, read as windows of the kernel's size (nr) */
	if (fault->window_pages)
		win->nr = DIV_ROUND_UP(win->size, fault->window_pages);
	if (did & RAP_STREAM_DID_SYNC)
		rap_stat_add(arm, RAP_STAT_stream_sync, 1);
	if (did & RAP_STREAM_DID_ASYNC)
		rap_stat_add(arm, RAP_STAT_stream_async, 1);
	return true;
}

/*
 * The streams policy: the stream tracker's window, when it has one, is
 * its own; the policies after it leave it be
 */
static unsigned int rap_streams_decide(int value, const struct rap_fault *f,
				       const struct rap_cache_view *view,
				       struct ra_policy_window *win,
				       unsigned int did)
{
	if (!rap_tracker_mmap_ra(f->fault, f, view, win, f->arm))
		return 0;
	return RAP_DID_REPLACED | RAP_DID_OWNED;
}

const struct rap_policy_ops rap_streams_policy = {
	.stage = RAP_STAGE_OWN,
	.decide = rap_streams_decide,
};
