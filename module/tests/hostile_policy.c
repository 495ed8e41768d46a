// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy_hostile: a readahead policy that returns broken windows, to
 * test that the hook series checks a policy's window instead of trusting
 * it (tests/guest/hostile_window.sh). Test-only; never load it elsewhere.
 *
 * The window it returns at every decision point is chosen by the "mode"
 * parameter, fixed at load time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/readahead_policy.h>
#include <linux/string.h>

enum rap_hostile_mode {
	HOSTILE_NONE,		/* keep every default window */
	HOSTILE_ZERO_SIZE,	/* a window of no pages */
	HOSTILE_BEYOND_EOF,	/* starts 1000 pages past EOF */
	HOSTILE_WRAP,		/* start + size wraps around */
	HOSTILE_HUGE_SIZE,	/* ULONG_MAX pages from the fault */
	HOSTILE_ASYNC_OVER,	/* async_size larger than size */
	HOSTILE_ORDER,		/* order 200, saved and one-off */
	HOSTILE_MAX_INDEX_ZERO,	/* bound every read at index 0 */
	HOSTILE_WHOLE_FILE,	/* the whole file, around any VMA, marked, */
				/* as many windows as the kernel reads */
	HOSTILE_ORDER_LOW,	/* VM_HUGEPAGE misses: order 0 once, no marker */
	HOSTILE_CUT_MARKED,	/* misses: bound right after the marked page */
	HOSTILE_ASYNC_HERE,	/* markers: the default start, the largest window */
	HOSTILE_WIDE,		/* read-around misses: 4 * ra_pages from the */
				/* fault, as one window */
	HOSTILE_WIDE_NR,	/* the same, as 4 windows (nr) */
};

static const char * const rap_hostile_modes[] = {
	[HOSTILE_NONE] = "none",
	[HOSTILE_ZERO_SIZE] = "zero_size",
	[HOSTILE_BEYOND_EOF] = "beyond_eof",
	[HOSTILE_WRAP] = "wrap",
	[HOSTILE_HUGE_SIZE] = "huge_size",
	[HOSTILE_ASYNC_OVER] = "async_over",
	[HOSTILE_ORDER] = "order",
	[HOSTILE_MAX_INDEX_ZERO] = "max_index_zero",
	[HOSTILE_WHOLE_FILE] = "whole_file",
	[HOSTILE_ORDER_LOW] = "order_low",
	[HOSTILE_CUT_MARKED] = "cut_marked",
	[HOSTILE_ASYNC_HERE] = "async_here",
	[HOSTILE_WIDE] = "wide",
	[HOSTILE_WIDE_NR] = "wide_nr",
};

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "none, zero_size, beyond_eof, wrap, huge_size, async_over, order, max_index_zero, whole_file, order_low, cut_marked, async_here, wide, wide_nr");

static int rap_hostile_mode;

static bool rap_hostile_ra(const struct ra_policy_fault *fault,
			   struct ra_policy_window *win)
{
	loff_t isize = i_size_read(file_inode(fault->file));
	pgoff_t eof = (isize + PAGE_SIZE - 1) >> PAGE_SHIFT;

	switch (rap_hostile_mode) {
	case HOSTILE_ZERO_SIZE:
		win->size = 0;
		return true;
	case HOSTILE_BEYOND_EOF:
		win->start = eof + 1000;
		return true;
	case HOSTILE_WRAP:
		win->start = ULONG_MAX - 10;
		win->size = 100;
		return true;
	case HOSTILE_HUGE_SIZE:
		win->start = fault->index;
		win->size = ULONG_MAX;
		win->async_size = 0;
		return true;
	case HOSTILE_ASYNC_OVER:
		win->async_size = ULONG_MAX;
		return true;
	case HOSTILE_ORDER:
		win->order = 200;
		win->order_once = fault->point == RA_POLICY_SYNC_AROUND;
		return true;
	case HOSTILE_MAX_INDEX_ZERO:
		win->max_index = 0;
		return false;
	case HOSTILE_WHOLE_FILE:
		win->start = 0;
		win->size = eof;
		win->async_size = eof / 4;
		win->nr = UINT_MAX;
		return true;
	case HOSTILE_ORDER_LOW:
		if (fault->point != RA_POLICY_SYNC_THP)
			return false;
		win->order = 0;
		win->order_once = true;
		win->async_size = 0;
		return true;
	case HOSTILE_CUT_MARKED:
		if (fault->point == RA_POLICY_ASYNC || !fault->sized ||
		    !win->async_size || win->async_size >= win->size)
			return false;
		win->max_index = win->start + win->size - win->async_size;
		return false;
	case HOSTILE_ASYNC_HERE:
		if (fault->point != RA_POLICY_ASYNC)
			return false;
		win->size = fault->max_pages;
		win->async_size = fault->max_pages / 2;
		win->order = fault->max_order;
		return true;
	case HOSTILE_WIDE:
	case HOSTILE_WIDE_NR:
		if (fault->point != RA_POLICY_SYNC_AROUND)
			return false;
		win->start = fault->index;
		win->size = 4UL * fault->ra_pages;
		win->async_size = 0;
		win->nr = rap_hostile_mode == HOSTILE_WIDE_NR ? 4 : 0;
		return true;
	default:
		return false;
	}
}

static const struct readahead_policy_ops rap_hostile_ops = {
	.mmap_ra = rap_hostile_ra,
};

static int __init rap_hostile_init(void)
{
	int err;

	rap_hostile_mode = match_string(rap_hostile_modes,
					ARRAY_SIZE(rap_hostile_modes), mode);
	if (rap_hostile_mode < 0) {
		pr_err("unknown mode '%s'\n", mode);
		return -EINVAL;
	}
	err = readahead_policy_register(&rap_hostile_ops);
	if (!err)
		readahead_policy_set_hooks(&rap_hostile_ops,
					   RA_POLICY_HOOKS_RA);
	return err;
}

static void __exit rap_hostile_exit(void)
{
	readahead_policy_unregister(&rap_hostile_ops);
}

module_init(rap_hostile_init);
module_exit(rap_hostile_exit);

MODULE_DESCRIPTION("Test-only readahead policy that returns broken windows");
MODULE_LICENSE("GPL");
