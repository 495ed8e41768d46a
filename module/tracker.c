// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the stream tracker's table and its place in the fault path.
 *
 * The table (struct rap_stream_table, stream.c): per A/B arm,
 * RAP_STREAM_SETS sets of streams, each on its own cache lines under its
 * own spinlock: the hooks run under rcu_read_lock() and may not sleep. The
 * arms never see each other's streams. A file's set is chosen by a hash of
 * its key; the key is compared, never dereferenced, so a file that goes
 * away leaves only entries that age out.
 *
 * Per fault: the filter (rap_stream_wants()) before anything else, then
 * rap_stream_run() (stream.c), which the host tests run too. One decision
 * in RAP_STREAM_COST_EVERY of a CPU is timed for stats/stream_cost.
 */
#include <linux/fs.h>
#include <linux/local_lock.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "rapolicy.h"
#include "stream.h"

/* One decision in this many of a CPU is timed for stats/stream_cost */
#define RAP_STREAM_COST_EVERY	16

static struct rap_stream_table rap_stream_table;
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

void rap_tracker_init(void)
{
	BUILD_BUG_ON(RAP_STREAM_ARMS != RAP_NR_ARMS);
	rap_stream_table_init(&rap_stream_table);
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
	rap_stream_table_flush(&rap_stream_table, arm);
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
 * rap_tracker_confirmed - whether an arm's tracker reads ahead near a page
 * @arm: the A/B arm
 * @file: the file
 * @index: the page
 * @pages: how near, in pages
 *
 * For another policy that would read around @index (see
 * rap_stream_confirmed()). Takes the set's lock; changes nothing.
 *
 * Return: true if a confirmed stream of @file was last within @pages of
 * @index.
 */
bool rap_tracker_confirmed(enum rap_arm arm, const struct file *file,
			   pgoff_t index, unsigned long pages)
{
	struct rap_stream_key key = rap_tracker_key(file->f_mapping->host);

	return rap_stream_table_confirmed(&rap_stream_table, arm, &key, index,
					  pages);
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
		.ra_pages = f->ra_pages,
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
	};
	struct ra_policy_window out = *win;
	struct rap_stream_set *snap;
	unsigned int did;
	bool replaced;
	u64 cost;
	bool timed;

	if (!rap_stream_wants(&sf))
		return false;
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
	if (!replaced)
		return false;
	out.max_index = win->max_index;
	*win = out;
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
