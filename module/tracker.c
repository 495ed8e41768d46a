// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the stream tracker's table and its place in the fault path.
 *
 * RAP_STREAM_SETS sets of streams (stream.c), each under its own spinlock:
 * the hooks run under rcu_read_lock() and may not sleep. A file's set is
 * chosen by a hash of its key; the key is compared, never dereferenced, so
 * a file that goes away leaves only entries that age out.
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>

#include "rapolicy.h"
#include "stream.h"

static struct rap_stream_set rap_stream_sets[RAP_STREAM_SETS];
static spinlock_t rap_stream_locks[RAP_STREAM_SETS];

void rap_tracker_init(void)
{
	unsigned int i;

	for (i = 0; i < RAP_STREAM_SETS; i++)
		spin_lock_init(&rap_stream_locks[i]);
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
	bool sized = f->point != RA_POLICY_SYNC_SEQ &&
		     f->point != RA_POLICY_ASYNC;
	struct rap_stream_fault sf = {
		.key = {
			.inode = (unsigned long)inode,
			.ino = inode->i_ino,
			.dev = inode->i_sb->s_dev,
			.generation = inode->i_generation,
		},
		.reader = task_pid_nr(current),
		.point = f->point,
		.kind = f->kind,
		.index = f->index,
		.vma_start = f->vma_start,
		.vma_end = f->vma_end,
		.ra_pages = f->ra_pages,
		.stock_start = sized ? win->start : f->index,
		.stock_pages = sized ? win->size : f->ra_pages,
		.max_pages = max(f->ra_pages,
				 2UL << mapping_max_folio_order(mapping)),
		.thp_order = f->thp_order,
		.fault_around_pages = f->fault_around_pages,
		.max_order = mapping_max_folio_order(mapping),
		/* page_cache_async_ra() goes on if the marked folio is this */
		.stock_seq = fault->ra_async_size &&
			     fault->ra_async_size <= fault->ra_size &&
			     f->index >> fault->ra_order == mark >> fault->ra_order,
		.stock_next = fault->ra_start + fault->ra_size,
	};
	u32 set = rap_stream_hash(&sf.key) % RAP_STREAM_SETS;
	struct ra_policy_window out = *win;
	unsigned int did;
	bool replaced;
	u64 t0;

	t0 = local_clock();
	spin_lock(&rap_stream_locks[set]);
	replaced = rap_stream_decide(&rap_stream_sets[set], &sf, view, &out,
				     &did);
	spin_unlock(&rap_stream_locks[set]);
	rap_stat_add(arm, RAP_STAT_stream_cost, local_clock() - t0);
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
