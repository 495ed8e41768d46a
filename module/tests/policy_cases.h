/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: test cases of the policy decisions, shared by the KUnit suite
 * (policy_kunit.c) and the host unit tests (tests/unit/test_policy.c).
 *
 * The includer defines struct rap_test, RAP_EXPECT(t, cond),
 * RAP_EXPECT_FALSE(t, cond), RAP_EXPECT_EQ(t, a, b) and includes
 * policy.c before this file. The page cache is a fake: a bitmap of pages.
 */
#ifndef RAPOLICY_POLICY_CASES_H
#define RAPOLICY_POLICY_CASES_H

#define RAP_FAKE_PAGES	8192UL
#define RAP_THP_ORDER	9
#define RAP_THP_NR	512UL	/* pages of an order-9 folio */
#define RAP_NO_BOUND	((pgoff_t)-1)

struct rap_fake_cache {
	unsigned char page[RAP_FAKE_PAGES];
};

static bool rap_fake_has_folio(const void *ctx, pgoff_t index)
{
	const struct rap_fake_cache *c = ctx;

	return index < RAP_FAKE_PAGES && c->page[index];
}

static bool rap_fake_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	pgoff_t i;

	for (i = first; i <= last && i < RAP_FAKE_PAGES; i++)
		if (rap_fake_has_folio(ctx, i))
			return true;
	return false;
}

static void rap_fake_fill(struct rap_fake_cache *c, pgoff_t first,
			  pgoff_t last)
{
	pgoff_t i;

	for (i = first; i <= last; i++)
		c->page[i] = 1;
}

static struct rap_cache_view rap_fake_view(const struct rap_fake_cache *c)
{
	struct rap_cache_view view = {
		.ctx = c,
		.has_folio = rap_fake_has_folio,
		.has_range = rap_fake_has_range,
	};

	return view;
}

/* The window do_sync_mmap_readahead() computes for a VM_HUGEPAGE miss */
static struct ra_policy_window rap_thp_window(pgoff_t index, bool rand)
{
	struct ra_policy_window win = {
		.start = index & ~(RAP_THP_NR - 1),
		.size = rand ? RAP_THP_NR : 2 * RAP_THP_NR,
		.async_size = RAP_THP_NR,
		.order = RAP_THP_ORDER,
		.max_index = RAP_NO_BOUND,
	};

	return win;
}

/* The kernel's rule: SYNC_SEQ and ASYNC size their window later */
static bool rap_kernel_sized(enum ra_policy_point point)
{
	return point != RA_POLICY_SYNC_SEQ && point != RA_POLICY_ASYNC;
}

static struct rap_fault rap_fault_at(enum ra_policy_point point,
				     pgoff_t index)
{
	struct rap_fault f = {
		.point = point,
		.sized = rap_kernel_sized(point),
		.index = index,
		.vma_start = 0,
		.vma_end = RAP_FAKE_PAGES,
		.ra_pages = 2048,	/* read_ahead_kb 8192 */
		.fault_around_pages = 16,
	};

	return f;
}

/* The request offered at the SYNC_SEQ and ASYNC points */
static struct ra_policy_window rap_request_window(pgoff_t index)
{
	struct ra_policy_window win = {
		.start = index,
		.size = 2048,
		.max_index = RAP_NO_BOUND,
	};

	return win;
}

static bool rap_windows_equal(const struct ra_policy_window *a,
			      const struct ra_policy_window *b)
{
	return a->start == b->start && a->size == b->size &&
	       a->async_size == b->async_size && a->order == b->order &&
	       a->order_once == b->order_once && a->max_index == b->max_index;
}

static void rap_case_descending_needs_room_below(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);

	rap_fake_fill(&c, RAP_THP_NR, 2 * RAP_THP_NR - 1);
	/* index 0 and index < nr: there is no folio below to read */
	RAP_EXPECT_FALSE(t, rap_descending(&v, 0, RAP_THP_NR));
	RAP_EXPECT_FALSE(t, rap_descending(&v, RAP_THP_NR - 1, RAP_THP_NR));
	RAP_EXPECT_FALSE(t, rap_descending(&v, 0, 1));
	RAP_EXPECT(t, rap_descending(&v, RAP_THP_NR - 1, 1));
}

static void rap_case_descending_detection(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	pgoff_t idx = 4 * RAP_THP_NR;

	memset(&c, 0, sizeof(c));
	/* nothing cached above: an ascending or random miss */
	RAP_EXPECT_FALSE(t, rap_descending(&v, idx, RAP_THP_NR));
	/* above cached, below not: a descending stream */
	rap_fake_fill(&c, idx + RAP_THP_NR, idx + 2 * RAP_THP_NR - 1);
	RAP_EXPECT(t, rap_descending(&v, idx, RAP_THP_NR));
	/* one cached page anywhere below makes it a hole, not a stream */
	rap_fake_fill(&c, idx - RAP_THP_NR + 7, idx - RAP_THP_NR + 7);
	RAP_EXPECT_FALSE(t, rap_descending(&v, idx, RAP_THP_NR));
	/* only the page right above counts as "above" */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, idx + RAP_THP_NR + 1, idx + 2 * RAP_THP_NR - 1);
	RAP_EXPECT_FALSE(t, rap_descending(&v, idx, RAP_THP_NR));
}

static void rap_case_descending_thp_reads_folio_below(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_thp = RAP_DESC_THP_FOLIO };
	pgoff_t idx = 4 * RAP_THP_NR + 100;
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_THP, idx);
	struct ra_policy_window win = rap_thp_window(idx, false);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 5 * RAP_THP_NR, 6 * RAP_THP_NR - 1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_THP);
	RAP_EXPECT_EQ(t, win.start, 3 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.size, 2 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.async_size, 0);
	RAP_EXPECT_EQ(t, win.order, RAP_THP_ORDER);
	RAP_EXPECT_FALSE(t, win.order_once);
	RAP_EXPECT_EQ(t, win.max_index, RAP_NO_BOUND);
}

static void rap_case_descending_thp_keeps_hole_one_folio(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_thp = RAP_DESC_THP_FOLIO };
	pgoff_t idx = 4 * RAP_THP_NR;
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_THP, idx);
	struct ra_policy_window win = rap_thp_window(idx, false);
	struct ra_policy_window dflt = win;
	unsigned int did;

	/* an uncached 2 MiB hole between two cached ranges */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 0, idx - 1);
	rap_fake_fill(&c, idx + RAP_THP_NR, 8 * RAP_THP_NR - 1);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, 0);
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
}

static void rap_case_descending_thp_only_when_asked(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings off = { 0 };
	struct rap_settings on = { .descending_thp = RAP_DESC_THP_FOLIO };
	pgoff_t idx = 4 * RAP_THP_NR;
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_THP, idx);
	struct ra_policy_window win = rap_thp_window(idx, false);
	struct ra_policy_window dflt = win;
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, idx + RAP_THP_NR, idx + 2 * RAP_THP_NR - 1);
	RAP_EXPECT_FALSE(t, rap_decide_window(&off, &f, &v, &win, &did));
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	/* VM_RAND_READ: the kernel reads one folio, nothing to redirect */
	win = rap_thp_window(idx, true);
	dflt = win;
	RAP_EXPECT_FALSE(t, rap_decide_window(&on, &f, &v, &win, &did));
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	/* only the VM_HUGEPAGE point */
	f.point = RA_POLICY_SYNC_AROUND;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_AROUND);
	win = rap_thp_window(idx, false);
	dflt = win;
	RAP_EXPECT_FALSE(t, rap_decide_window(&on, &f, &v, &win, &did));
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
}

static void rap_case_descending_thp_at_eof(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_thp = RAP_DESC_THP_FOLIO };
	pgoff_t last = RAP_FAKE_PAGES - 1;
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_THP, last);
	struct ra_policy_window win = rap_thp_window(last, false);
	unsigned int did;

	/* the first fault of a reverse walk: nothing above the last folio */
	memset(&c, 0, sizeof(c));
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, RAP_FAKE_PAGES - RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.async_size, RAP_THP_NR);
}

static void rap_case_descending_seq_window(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_seq = RAP_DESC_SEQ_WINDOW };
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_SEQ, 5000);
	struct ra_policy_window win = rap_request_window(5000);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 5001, RAP_FAKE_PAGES - 1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_SEQ);
	RAP_EXPECT_EQ(t, win.start, 5000 - 2047);
	RAP_EXPECT_EQ(t, win.size, 2048);
	RAP_EXPECT_EQ(t, win.async_size, 0);
	RAP_EXPECT_EQ(t, win.order, 0);

	/* near index 0 the window starts at 0: index < ra_pages */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 101, 200);
	f = rap_fault_at(RA_POLICY_SYNC_SEQ, 100);
	win = rap_request_window(100);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, 0);
	RAP_EXPECT_EQ(t, win.size, 101);

	/* index 0: no page below, so no stream; left to the kernel */
	rap_fake_fill(&c, 1, 1);
	f = rap_fault_at(RA_POLICY_SYNC_SEQ, 0);
	win = rap_request_window(0);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_descending_seq_leaves_forward_alone(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_seq = RAP_DESC_SEQ_WINDOW };
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_SEQ, 3000);
	struct ra_policy_window win = rap_request_window(3000);
	struct ra_policy_window dflt = win;
	unsigned int did;

	/* a forward stream: cached below, nothing above */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 0, 2999);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	/* a cached page below as well as above: a hole, left to the kernel */
	rap_fake_fill(&c, 3001, 3001);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* off */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 3001, 4000);
	s.descending_seq = RAP_DESC_SEQ_OFF;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* readahead disabled on the file */
	s.descending_seq = RAP_DESC_SEQ_WINDOW;
	f.ra_pages = 0;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_vma_limit_always(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .vma_limit = RAP_VMA_LIMIT_ALWAYS };
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_AROUND, 100);
	struct ra_policy_window win = { .start = 0, .size = 2048,
					.async_size = 512,
					.max_index = RAP_NO_BOUND };
	unsigned int did;

	memset(&c, 0, sizeof(c));
	f.vma_start = 0;
	f.vma_end = 1024;
	/* a bound is not a replacement */
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.max_index, 1023);
	RAP_EXPECT_EQ(t, did, (RAP_DID_VMA_LIMIT | RAP_DID_VMA_CLAMP));
	RAP_EXPECT_EQ(t, win.start, 0);
	RAP_EXPECT_EQ(t, win.size, 2048);

	/* the async point, far from the end: bounded all the same */
	f.point = RA_POLICY_ASYNC;
	f.sized = rap_kernel_sized(RA_POLICY_ASYNC);
	f.index = 96;
	win = rap_request_window(96);
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, 1023);
	RAP_EXPECT_EQ(t, did, RAP_DID_VMA_LIMIT);

	/* a window inside the VMA is bounded but not clamped */
	f.point = RA_POLICY_SYNC_THP;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_THP);
	f.vma_end = 4 * RAP_THP_NR;
	win = rap_thp_window(0, false);
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, did, RAP_DID_VMA_LIMIT);

	/* none */
	s.vma_limit = RAP_VMA_LIMIT_NONE;
	win = rap_thp_window(0, false);
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, RAP_NO_BOUND);
	RAP_EXPECT_EQ(t, did, 0);
}

static void rap_case_vma_limit_near_end(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .vma_limit = RAP_VMA_LIMIT_NEAR_END };
	struct rap_fault f = rap_fault_at(RA_POLICY_ASYNC, 896);
	struct ra_policy_window win = rap_request_window(896);
	unsigned int did;

	/* the conditional limit's example: ra_pages 128, VMA 0-1023, async at 896 */
	memset(&c, 0, sizeof(c));
	f.ra_pages = 128;
	f.vma_end = 1024;
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, RAP_NO_BOUND);
	RAP_EXPECT_EQ(t, did, 0);
	/* one page closer: within ra_pages of the end, limited */
	f.index = 897;
	win = rap_request_window(897);
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, 1023);
	RAP_EXPECT_EQ(t, did, RAP_DID_VMA_LIMIT);
	/* a VMA that maps the file from page 4096 on */
	f.vma_start = 4096;
	f.vma_end = 4096 + 512;
	f.index = 4096 + 500;
	f.point = RA_POLICY_SYNC_AROUND;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_AROUND);
	win = (struct ra_policy_window){ .start = 4096 + 436, .size = 128,
					 .async_size = 32,
					 .max_index = RAP_NO_BOUND };
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, 4096 + 511);
	RAP_EXPECT_EQ(t, did, (RAP_DID_VMA_LIMIT | RAP_DID_VMA_CLAMP));
	/* the first page of a VMA is far from its end */
	f.index = 4096;
	win.max_index = RAP_NO_BOUND;
	rap_decide_window(&s, &f, &v, &win, &did);
	RAP_EXPECT_EQ(t, win.max_index, RAP_NO_BOUND);
}

static void rap_case_sync_mmap_order(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = {
		.sync_mmap_order = RAP_SYNC_ORDER_FAULT_AROUND,
	};
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_AROUND, 5000);
	struct ra_policy_window win = { .start = 5000 - 1024, .size = 2048,
					.async_size = 512,
					.max_index = RAP_NO_BOUND };
	unsigned int did;

	memset(&c, 0, sizeof(c));
	/* fault_around_bytes 64 KiB: 16 pages, order 4, for this read only */
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_ORDER_RAISE);
	RAP_EXPECT_EQ(t, win.order, 4);
	RAP_EXPECT(t, win.order_once);
	RAP_EXPECT_EQ(t, win.start, 5000 - 1024);
	RAP_EXPECT_EQ(t, win.size, 2048);
	/* a fixed order */
	s.sync_mmap_order = RAP_SYNC_ORDER_BASE + 2;
	win.order = 0;
	win.order_once = false;
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.order, 2);
	RAP_EXPECT(t, win.order_once);
	/* never lowers the order */
	win.order = 3;
	win.order_once = false;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.order, 3);
	RAP_EXPECT_FALSE(t, win.order_once);
	/* order 0 and fault-around of one page change nothing */
	s.sync_mmap_order = RAP_SYNC_ORDER_BASE;
	win.order = 0;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	s.sync_mmap_order = RAP_SYNC_ORDER_FAULT_AROUND;
	f.fault_around_pages = 1;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	f.fault_around_pages = 0;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* only read-around: not THP, SEQ, EXEC or async */
	f.fault_around_pages = 16;
	f.point = RA_POLICY_SYNC_EXEC;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_EXEC);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* off */
	s.sync_mmap_order = RAP_SYNC_ORDER_OFF;
	f.point = RA_POLICY_SYNC_AROUND;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_AROUND);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	s.sync_mmap_order = RAP_SYNC_ORDER_FAULT_AROUND;
	RAP_EXPECT_EQ(t, rap_sync_order(&s, 32), 5);
	s.sync_mmap_order = RAP_SYNC_ORDER_BASE + 7;
	RAP_EXPECT_EQ(t, rap_sync_order(&s, 32), 7);
}

/*
 * A policy that takes folio orders stores order o as a value that neither
 * a named value nor another order has, and reads the same order back:
 * what sysfs stores on a write, lists in brackets and the policy decides
 * with. Policies with any number of names, not only sync_mmap_order's two.
 */
static void rap_case_order_values(struct rap_test *t)
{
	struct rap_settings s = { 0 };
	unsigned int nr, o;
	int i;

	for (nr = 1; nr <= 4; nr++) {
		for (i = 0; i < (int)nr; i++)
			RAP_EXPECT_EQ(t, rap_value_order(nr, i), -1);
		for (o = 0; o <= 12; o++) {
			int v = rap_order_value(nr, o);

			RAP_EXPECT(t, v >= (int)nr);
			RAP_EXPECT_EQ(t, rap_value_order(nr, v), (int)o);
		}
	}
	RAP_EXPECT_EQ(t, RAP_NR_NAMES(sync_mmap_order), RAP_SYNC_ORDER_BASE);
	for (o = 0; o <= 12; o++) {
		s.sync_mmap_order = rap_order_value(RAP_NR_NAMES(sync_mmap_order),
						    o);
		RAP_EXPECT_EQ(t, rap_sync_order(&s, 16), o);
	}
}

static void rap_case_pmd_hit(struct rap_test *t)
{
	struct rap_settings s = { 0 };

	RAP_EXPECT_FALSE(t, rap_decide_pmd_hit(&s, true));
	RAP_EXPECT_FALSE(t, rap_decide_pmd_hit(&s, false));
	s.pmd_hit = RAP_PMD_HIT_ON;
	RAP_EXPECT(t, rap_decide_pmd_hit(&s, true));
	/* a retry, a workingset folio, VM_SEQ_READ or VM_EXEC: no hit */
	RAP_EXPECT_FALSE(t, rap_decide_pmd_hit(&s, false));
}

static void rap_case_all_off_is_stock(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings off = { 0 };
	enum ra_policy_point p;
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 2 * RAP_THP_NR, 3 * RAP_THP_NR);
	for (p = RA_POLICY_SYNC_THP; p < RA_POLICY_NR_POINTS; p++) {
		struct rap_fault f = rap_fault_at(p, 2 * RAP_THP_NR - 1);
		struct ra_policy_window win = rap_thp_window(RAP_THP_NR, false);
		struct ra_policy_window dflt = win;

		f.vma_end = RAP_THP_NR + 1;
		RAP_EXPECT_FALSE(t, rap_decide_window(&off, &f, &v, &win, &did));
		RAP_EXPECT_EQ(t, did, 0);
		RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	}
}

static unsigned int rap_popcount64(u64 x)
{
	unsigned int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static void rap_case_sample_arm(struct rap_test *t)
{
	unsigned int in_b = 0, moved = 0, files[RAP_AB_BUCKETS] = { 0 };
	unsigned int same_key = 0;
	unsigned int permille, i;
	u64 mask = rap_ab_mask(42, 250), ino;

	for (ino = 1; ino <= 10000; ino++) {
		unsigned int b = rap_ab_bucket(7, 0x800010, ino);

		/* stable: the same file always lands in the same bucket */
		RAP_EXPECT_EQ(t, b, rap_ab_bucket(7, 0x800010, ino));
		/* another key: another bucket for 63 files in 64 */
		same_key += b == rap_ab_bucket(8, 0x800010, ino);
		RAP_EXPECT(t, b < RAP_AB_BUCKETS);
		files[b]++;
		in_b += mask >> b & 1;
	}
	/* 10000 files, 1/64 keep their bucket under another key: 156, 5 sd */
	RAP_EXPECT(t, same_key > 93);
	RAP_EXPECT(t, same_key < 219);
	/* the swap bit: the same draw, the arms swapped */
	RAP_EXPECT_EQ(t, rap_ab_mask(42 | RAP_AB_SALT_SWAP, 500), ~rap_ab_mask(42, 500));
	RAP_EXPECT_EQ(t, rap_popcount64(rap_ab_mask(42 | RAP_AB_SALT_SWAP, 250)), 48);
	/* the edges; a larger permille only adds buckets to arm B */
	RAP_EXPECT_EQ(t, rap_ab_mask(42, 0), 0);
	RAP_EXPECT_EQ(t, rap_ab_mask(42, 1000), ~0ULL);
	for (permille = 0; permille <= 1000; permille++) {
		u64 m = rap_ab_mask(42, permille);

		RAP_EXPECT_EQ(t, rap_popcount64(m),
			      (permille * RAP_AB_BUCKETS + 500) / 1000);
		if (permille)
			RAP_EXPECT_EQ(t, m & rap_ab_mask(42, permille - 1),
				      rap_ab_mask(42, permille - 1));
	}
	/* 10000 files spread evenly: 156 a bucket, 5 sd (63) either side */
	for (i = 0; i < RAP_AB_BUCKETS; i++) {
		RAP_EXPECT(t, files[i] > 93);
		RAP_EXPECT(t, files[i] < 219);
	}
	/* 16 buckets of 64 in B: a quarter of the files, within 3 sd */
	RAP_EXPECT(t, in_b > 2370);
	RAP_EXPECT(t, in_b < 2630);
	/* another salt draws another 16 buckets: ~12 move (hypergeometric) */
	moved = rap_popcount64(mask & ~rap_ab_mask(43, 250));
	RAP_EXPECT(t, moved >= 6);
	RAP_EXPECT(t, moved <= 16);
	/* every bucket is in B for about a quarter of salts: 1000 salts */
	for (i = 0; i < RAP_AB_BUCKETS; i++)
		files[i] = 0;
	for (ino = 0; ino < 1000; ino++) {
		mask = rap_ab_mask(ino, 250);
		for (i = 0; i < RAP_AB_BUCKETS; i++)
			files[i] += mask >> i & 1;
	}
	/* binomial(1000, 0.25): 250, sd 13.7; 5 sd */
	for (i = 0; i < RAP_AB_BUCKETS; i++) {
		RAP_EXPECT(t, files[i] > 181);
		RAP_EXPECT(t, files[i] < 319);
	}
}

/* A marker hit at @index, the file's last window [@ra_start, +@ra_size) */
static struct rap_fault rap_async_at(enum rap_mapping_kind kind, pgoff_t index,
				     pgoff_t ra_start, unsigned long ra_size)
{
	struct rap_fault f = rap_fault_at(RA_POLICY_ASYNC, index);

	f.kind = kind;
	f.thp_order = kind == RAP_MAP_THP ? RAP_THP_ORDER : 0;
	f.max_order = RAP_THP_ORDER;
	f.ra_start = ra_start;
	f.ra_size = ra_size;
	return f;
}

static void rap_case_stream_thp_sync_marks_low_end(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_thp = RAP_DESC_THP_STREAM };
	pgoff_t idx = 10 * RAP_THP_NR;
	pgoff_t top = idx + RAP_THP_NR - 1;
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_THP, top);
	struct ra_policy_window win = rap_thp_window(top, false);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, idx + RAP_THP_NR, 12 * RAP_THP_NR - 1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_THP);
	/* the faulting folio and the one below, marked on the lower one */
	RAP_EXPECT_EQ(t, win.start, idx - RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.size, 2 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.async_size, win.size);
	RAP_EXPECT_EQ(t, win.order, RAP_THP_ORDER);
	/* entered in the middle (random access): the kernel's window */
	f.index = idx + 3;
	win = rap_thp_window(idx + 3, false);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, idx);
	RAP_EXPECT_EQ(t, win.async_size, RAP_THP_NR);
}

static void rap_case_stream_thp_async_ramps_down(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_thp = RAP_DESC_THP_STREAM };
	pgoff_t marked = 12 * RAP_THP_NR;
	pgoff_t top = marked + RAP_THP_NR - 1;
	/* the first window: the folio at 12 and the faulting one at 13 */
	struct rap_fault f = rap_async_at(RAP_MAP_THP, marked + 100, marked,
					  2 * RAP_THP_NR);
	struct ra_policy_window win = rap_request_window(marked + 100);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, marked, RAP_FAKE_PAGES - 1);
	/* a random hit in the middle of the marked folio starts nothing */
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* a descending reader enters it from above */
	f.index = top;
	win = rap_request_window(top);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_THP);
	/* 2 folios ramp to ra_pages (2048 = 4 folios), in whole folios */
	RAP_EXPECT_EQ(t, win.size, 4 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.start, marked - 4 * RAP_THP_NR);
	/* marked on its top folio, which the reader enters next */
	RAP_EXPECT_EQ(t, win.async_size, 1);
	RAP_EXPECT_EQ(t, win.order, RAP_THP_ORDER);
	RAP_EXPECT_FALSE(t, win.order_once);
	/* and stays there: the reader enters that window's top folio */
	rap_fake_fill(&c, marked - 4 * RAP_THP_NR, marked - 1);
	f = rap_async_at(RAP_MAP_THP, marked - 1, marked - 4 * RAP_THP_NR,
			 4 * RAP_THP_NR);
	win = rap_request_window(marked - 1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, marked - 8 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.size, 4 * RAP_THP_NR);
	RAP_EXPECT_EQ(t, win.async_size, 1);
	/* ra_pages smaller than two folios still reads whole folios */
	f.ra_pages = 32;
	win = rap_request_window(marked - 1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.size, 2 * RAP_THP_NR);
}

static void rap_case_stream_async_file_start(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_seq = RAP_DESC_SEQ_STREAM };
	struct rap_fault f = rap_async_at(RAP_MAP_SEQ, 2147, 100, 2048);
	struct ra_policy_window win = rap_request_window(2147);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 100, 4000);
	/* clipped at index 0 */
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, 0);
	RAP_EXPECT_EQ(t, win.size, 100);
	RAP_EXPECT_EQ(t, win.async_size, 1);
	/* the last window starts at page 0: nothing below, stock async runs */
	rap_fake_fill(&c, 0, 99);
	f = rap_async_at(RAP_MAP_SEQ, 99, 0, 100);
	win = rap_request_window(99);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_stream_ramps_order_aligned(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_around = RAP_DESC_AROUND_STREAM };
	/* a window of order-2 folios at 5003..7050, entered at its top */
	struct rap_fault f = rap_async_at(RAP_MAP_AROUND, 7050, 5003, 2048);
	struct ra_policy_window win = rap_request_window(7050);
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 5003, RAP_FAKE_PAGES - 1);
	f.ra_order = 2;
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_AROUND);
	/* order 2 + 2; 5003 - 2048 = 2955 rounded up to 16 pages */
	RAP_EXPECT_EQ(t, win.order, 4);
	RAP_EXPECT_FALSE(t, win.order_once);
	RAP_EXPECT_EQ(t, win.start, 2960);
	RAP_EXPECT_EQ(t, win.size, 5003 - 2960);
	RAP_EXPECT_EQ(t, win.async_size, 1);
	/* the order stops at the mapping's largest folio (here PMD) */
	f.ra_order = RAP_THP_ORDER;
	win = rap_request_window(7050);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.order, RAP_THP_ORDER);
	RAP_EXPECT_EQ(t, win.start, 3072);
	RAP_EXPECT_EQ(t, win.size, 5003 - 3072);
	/* and aligns no further than ra_pages allows (96 = 32 * 3) */
	f.ra_pages = 96;
	f.ra_size = 96;
	f.index = 5003 + 95;
	win = rap_request_window(f.index);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, 4928);
	RAP_EXPECT_EQ(t, win.size, 5003 - 4928);
	/* a mapping without large folios stays at order 0 */
	f.max_order = 0;
	win = rap_request_window(f.index);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.order, 0);
	RAP_EXPECT_EQ(t, win.start, 5003 - 96);
	/* a hit outside the last window is someone else's marker */
	f.index = 4000;
	win = rap_request_window(4000);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_stream_seq_at_eof(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_seq = RAP_DESC_SEQ_STREAM };
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_SEQ, RAP_FAKE_PAGES - 1);
	struct ra_policy_window win = rap_request_window(RAP_FAKE_PAGES - 1);
	unsigned int did;

	/* the first fault of a reverse walk, at the last page: stock */
	memset(&c, 0, sizeof(c));
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	/* the next miss below the stock window: the stream starts */
	rap_fake_fill(&c, RAP_FAKE_PAGES - 2048, RAP_FAKE_PAGES - 1);
	f.index = RAP_FAKE_PAGES - 2049;
	win = rap_request_window(f.index);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, RAP_FAKE_PAGES - 4096);
	RAP_EXPECT_EQ(t, win.size, 2048);
	/* marked right below the fault, order 0 like a first window */
	RAP_EXPECT_EQ(t, win.start + win.size - win.async_size, f.index - 1);
	RAP_EXPECT_EQ(t, win.order, 0);
	/* one page above index 0: a two-page window, still marked below */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 2, 10);
	f.index = 1;
	win = rap_request_window(1);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.start, 0);
	RAP_EXPECT_EQ(t, win.size, 2);
	RAP_EXPECT_EQ(t, win.async_size, 2);
}

static void rap_case_stream_ignores_forward_marks(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = {
		.descending_thp = RAP_DESC_THP_STREAM,
		.descending_seq = RAP_DESC_SEQ_STREAM,
		.descending_around = RAP_DESC_AROUND_STREAM,
	};
	enum rap_mapping_kind k;
	unsigned int did;

	/* a forward stream's window [2, 3) folios: cached below, not above */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 0, 3 * RAP_THP_NR - 1);
	for (k = RAP_MAP_AROUND; k <= RAP_MAP_THP; k++) {
		/* entered from above, so only the cache decides */
		struct rap_fault f = rap_async_at(k, 3 * RAP_THP_NR - 1,
						  2 * RAP_THP_NR, RAP_THP_NR);
		struct ra_policy_window win = rap_request_window(3 * RAP_THP_NR - 1);
		struct ra_policy_window dflt = win;

		RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
		RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	}
	/* nor EXEC/RAND mappings, nor a stream value that is off */
	rap_fake_fill(&c, 0, RAP_FAKE_PAGES - 1);
	memset(&c, 0, 4 * RAP_THP_NR);
	{
		struct rap_fault f = rap_async_at(RAP_MAP_OTHER,
						  5 * RAP_THP_NR - 1,
						  4 * RAP_THP_NR, RAP_THP_NR);
		struct ra_policy_window win = rap_request_window(4 * RAP_THP_NR);

		RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
		s.descending_seq = RAP_DESC_SEQ_WINDOW;
		f.kind = RAP_MAP_SEQ;
		RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	}
}

static void rap_case_stream_turns_around(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_around = RAP_DESC_AROUND_STREAM };
	struct rap_fault f = rap_async_at(RAP_MAP_AROUND, 5047, 3000, 2048);
	struct ra_policy_window win = rap_request_window(5047);
	unsigned int did;

	/* descending: the marker atop 3000..5047 reads 952..2999 */
	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 3000, 6000);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_AROUND);
	RAP_EXPECT_EQ(t, win.start, 952);
	RAP_EXPECT_EQ(t, win.size, 2048);
	/*
	 * the reader turned around and read upwards past the end: a marker
	 * above with cached pages below is a forward stream's
	 */
	rap_fake_fill(&c, 6001, 6600);
	f = rap_async_at(RAP_MAP_AROUND, 6100, 6001, 512);
	win = rap_request_window(6100);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_around_window_below(struct rap_test *t)
{
	static struct rap_fake_cache c;
	struct rap_cache_view v = rap_fake_view(&c);
	struct rap_settings s = { .descending_around = RAP_DESC_AROUND_WINDOW };
	struct rap_fault f = rap_fault_at(RA_POLICY_SYNC_AROUND, 5000);
	struct ra_policy_window win = { .start = 5000 - 1024, .size = 2048,
					.async_size = 512,
					.max_index = RAP_NO_BOUND };
	struct ra_policy_window dflt = win;
	unsigned int did;

	memset(&c, 0, sizeof(c));
	rap_fake_fill(&c, 5001, 6000);
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, did, RAP_DID_DESCENDING_AROUND);
	RAP_EXPECT_EQ(t, win.start, 5000 - 2047);
	RAP_EXPECT_EQ(t, win.size, 2048);
	RAP_EXPECT_EQ(t, win.async_size, 0);
	/* stream marks the page below the fault */
	s.descending_around = RAP_DESC_AROUND_STREAM;
	win = dflt;
	RAP_EXPECT(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT_EQ(t, win.async_size, 2);
	RAP_EXPECT_EQ(t, win.order, 0);
	/* an ascending or random miss keeps the centred window */
	memset(&c, 0, sizeof(c));
	win = dflt;
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
	RAP_EXPECT(t, rap_windows_equal(&win, &dflt));
	/* only read-around: not VM_EXEC */
	rap_fake_fill(&c, 5001, 6000);
	f.point = RA_POLICY_SYNC_EXEC;
	f.sized = rap_kernel_sized(RA_POLICY_SYNC_EXEC);
	RAP_EXPECT_FALSE(t, rap_decide_window(&s, &f, &v, &win, &did));
}

static void rap_case_next_size_ramp(struct rap_test *t)
{
	RAP_EXPECT_EQ(t, rap_next_size(16, 2048), 64);
	RAP_EXPECT_EQ(t, rap_next_size(128, 2048), 256);
	RAP_EXPECT_EQ(t, rap_next_size(1024, 2048), 2048);
	RAP_EXPECT_EQ(t, rap_next_size(2048, 2048), 2048);
	RAP_EXPECT_EQ(t, rap_next_size(4096, 2048), 2048);
}

/* The kernel's check of replaced windows, as rap_window_check() mirrors it */
static void rap_case_window_check(struct rap_test *t)
{
	/* a miss on page 250 of a VMA mapping pages [100, 1100) of a 1000-page file */
	const struct rap_window_bounds miss = {
		.index = 250, .index_end = 251, .vma_start = 100,
		.vma_end = 1100, .file_pages = 1000, .max_size = 1024,
		.max_order = 9,
	};
	/* the marked folio [512, 1024) at the async point, a 4096-page file */
	const struct rap_window_bounds marker = {
		.index = 512, .index_end = 1024, .async = true,
		.vma_end = 4096, .file_pages = 4096, .max_size = 1024,
		.max_order = 9,
	};
	static const struct {
		pgoff_t start;
		unsigned long size, async_size;
		unsigned int order;
		bool async;		/* against marker, else miss */
		pgoff_t index, vma_end, file_pages;	/* 0: the bounds' */
		unsigned long max_size;			/* 0: the bounds' */
		unsigned long window_size;		/* 0: max_size */
		unsigned int nr;
		enum rap_window_check want;
	} c[] = {
		{ 200, 128, 128, 2, .want = RAP_WINDOW_KEPT },
		/* reads nothing: refused */
		{ 200, 0, 0, 2, .want = RAP_WINDOW_REFUSED },
		{ 200, 128, 128, 2, .file_pages = ~0UL, .want = RAP_WINDOW_REFUSED },
		/* past EOF, past the VMA, all below the VMA: refused */
		{ 1000, 128, 128, 2, .want = RAP_WINDOW_REFUSED },
		{ 1101, 128, 128, 2, .file_pages = 5000, .want = RAP_WINDOW_REFUSED },
		{ 0, 100, 100, 2, .want = RAP_WINDOW_REFUSED },
		/* overlapping the VMA's start: cut */
		{ 0, 300, 128, 2, .want = RAP_WINDOW_CUT },
		/* at a miss, a window without the faulting page: read (a stride's) */
		{ 251, 128, 128, 2, .want = RAP_WINDOW_KEPT },
		/* one that holds it, cut to the size bound: the part holding it */
		{ 200, 128, 128, 2, .max_size = 32, .want = RAP_WINDOW_CUT },
		/* EOF, the faulting page kept */
		{ 990, 11, 0, 2, .index = 995, .want = RAP_WINDOW_CUT },
		{ 990, 10, 0, 2, .index = 995, .want = RAP_WINDOW_KEPT },
		/* the largest window does not wrap around */
		{ 100, ~0UL, 0, 2, .want = RAP_WINDOW_CUT },
		{ ~0UL, ~0UL, 0, 2, .want = RAP_WINDOW_REFUSED },
		/* a marker past the end, an order no folio has: cut */
		{ 200, 128, 129, 2, .want = RAP_WINDOW_CUT },
		{ 200, 128, 128, 10, .want = RAP_WINDOW_CUT },
		/* an empty VMA range */
		{ 200, 128, 128, 9, .vma_end = 100, .want = RAP_WINDOW_REFUSED },
		/*
		 * At the marker: a window holding the marked folio and more
		 * starts past it; one ending in it, or below it, is kept
		 */
		{ 512, 1024, 512, 9, true, .want = RAP_WINDOW_CUT },
		{ 1024, 1024, 512, 9, true, .want = RAP_WINDOW_KEPT },
		{ 512, 1, 0, 0, true, .want = RAP_WINDOW_KEPT },
		{ 512, 512, 0, 9, true, .want = RAP_WINDOW_KEPT },
		{ 0, 512, 0, 9, true, .want = RAP_WINDOW_KEPT },
		/*
		 * Windows of 32 pages (read-around's at read_ahead_kb 128): a
		 * larger one is cut to one of them, the one holding the
		 * faulting page; asked for as nr of them, it is kept up to
		 * nr of them and max_size in all, however large nr is
		 */
		{ 200, 128, 0, 2, .window_size = 32, .want = RAP_WINDOW_CUT },
		{ 200, 128, 0, 2, .window_size = 32, .nr = 1,
		  .want = RAP_WINDOW_CUT },
		{ 200, 128, 0, 2, .window_size = 32, .nr = 4,
		  .want = RAP_WINDOW_KEPT },
		{ 200, 128, 0, 2, .window_size = 32, .nr = 3,
		  .want = RAP_WINDOW_CUT },
		{ 240, 32, 0, 2, .window_size = 32, .want = RAP_WINDOW_KEPT },
		{ 200, 800, 0, 2, .window_size = 32, .nr = ~0U,
		  .want = RAP_WINDOW_KEPT },
		{ 200, 2000, 0, 2, .window_size = 32, .nr = ~0U,
		  .file_pages = 5000, .vma_end = 5000, .want = RAP_WINDOW_CUT },
		{ 200, 1024, 0, 2, .window_size = 32, .nr = 32,
		  .file_pages = 5000, .vma_end = 5000, .want = RAP_WINDOW_KEPT },
		{ 200, 1024, 0, 2, .window_size = 32, .nr = 31,
		  .file_pages = 5000, .vma_end = 5000, .want = RAP_WINDOW_CUT },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct rap_window_bounds b = c[i].async ? marker : miss;
		const struct ra_policy_window w = {
			.start = c[i].start, .size = c[i].size,
			.async_size = c[i].async_size, .order = c[i].order,
			.nr = c[i].nr,
		};

		if (c[i].index) {
			b.index = c[i].index;
			b.index_end = c[i].index + 1;
		}
		if (c[i].vma_end)
			b.vma_end = c[i].vma_end;
		if (c[i].file_pages)
			b.file_pages = c[i].file_pages == ~0UL ? 0 : c[i].file_pages;
		if (c[i].max_size)
			b.max_size = c[i].max_size;
		b.window_size = c[i].window_size;
		RAP_EXPECT_EQ(t, rap_window_check(&w, &b), c[i].want);
	}
}

/*
 * The kernel's bound on a replaced window, for 4KiB, 16KiB and 64KiB
 * pages, read_ahead_kb 128 and 16384, and every largest folio order a
 * mapping can have: never more than ra_pages or two PMD-sized folios, and
 * where the page cache holds no PMD-sized folio (64KiB pages: a 512MB PMD,
 * 128MB folios at most) never more than ra_pages or two 2MB folios, which
 * is what 7.x reads on a VM_HUGEPAGE miss there and more than 6.12 reads;
 * no folio larger than the window, and none larger than stock reads on
 * one fault: the VM_HUGEPAGE miss's folio, or the largest folio of a
 * window of ra_pages.
 */
static void rap_case_window_bound_page_sizes(struct rap_test *t)
{
	static const struct {
		unsigned int shift, pmd_order, max_cache_order;
	} geo[] = {
		{ 12, 9, 9 },	/* 4KiB pages: x86-64, arm64 */
		{ 14, 11, 11 },	/* 16KiB pages: arm64 */
		{ 16, 13, 11 },	/* 64KiB pages: arm64, a 512MB PMD */
	};
	static const unsigned long ra_kb[] = { 128, 16384 };
	unsigned int i, k, mfo, thp;

	for (i = 0; i < ARRAY_SIZE(geo); i++) {
		unsigned int shift = geo[i].shift;
		/* two PMD folios, or two 2MB folios */
		unsigned long two = 2UL << geo[i].pmd_order;

		if (geo[i].pmd_order > geo[i].max_cache_order)
			two = (4UL << 20) >> shift;

		for (k = 0; k < ARRAY_SIZE(ra_kb); k++) {
			unsigned long ra_pages = (ra_kb[k] << 10) >> shift;
			unsigned long most = ra_pages > two ? ra_pages : two;

			for (mfo = 0; mfo <= geo[i].max_cache_order; mfo++) {
				unsigned int max_order, stock;
				unsigned long max_pages;

				thp = rap_thp_order_geometry(shift,
							     geo[i].pmd_order,
							     geo[i].max_cache_order,
							     mfo);
				max_pages = ra_policy_max_pages(ra_pages, thp);
				max_order = ra_policy_max_order(ra_pages, thp,
								mfo);
				stock = ilog2(ra_pages) < mfo ?
					ilog2(ra_pages) : mfo;
				if (thp > stock)
					stock = thp;
				RAP_EXPECT_LE(t, max_pages, most);
				RAP_EXPECT_LE(t, 1UL << max_order, max_pages);
				RAP_EXPECT_LE(t, max_order, mfo);
				RAP_EXPECT_LE(t, max_order, stock);
			}
		}
	}
	/* 4KiB pages and PMD-sized folios: two of them, 4MB, of 2MB each */
	thp = rap_thp_order_geometry(12, 9, 9, 9);
	RAP_EXPECT_EQ(t, ra_policy_max_pages(32, thp), 1024);
	RAP_EXPECT_EQ(t, ra_policy_max_order(32, thp, 9), 9);
}

struct rap_case {
	const char *name;
	void (*run)(struct rap_test *t);
};

static const struct rap_case rap_cases[] = {
	{ "descending_needs_room_below", rap_case_descending_needs_room_below },
	{ "descending_detection", rap_case_descending_detection },
	{ "descending_thp_reads_folio_below", rap_case_descending_thp_reads_folio_below },
	{ "descending_thp_keeps_hole_one_folio", rap_case_descending_thp_keeps_hole_one_folio },
	{ "descending_thp_only_when_asked", rap_case_descending_thp_only_when_asked },
	{ "descending_thp_at_eof", rap_case_descending_thp_at_eof },
	{ "descending_seq_window", rap_case_descending_seq_window },
	{ "descending_seq_leaves_forward_alone", rap_case_descending_seq_leaves_forward_alone },
	{ "vma_limit_always", rap_case_vma_limit_always },
	{ "vma_limit_near_end", rap_case_vma_limit_near_end },
	{ "sync_mmap_order", rap_case_sync_mmap_order },
	{ "order_values", rap_case_order_values },
	{ "window_bound_page_sizes", rap_case_window_bound_page_sizes },
	{ "pmd_hit", rap_case_pmd_hit },
	{ "all_off_is_stock", rap_case_all_off_is_stock },
	{ "sample_arm", rap_case_sample_arm },
	{ "stream_thp_sync_marks_low_end", rap_case_stream_thp_sync_marks_low_end },
	{ "stream_thp_async_ramps_down", rap_case_stream_thp_async_ramps_down },
	{ "stream_async_file_start", rap_case_stream_async_file_start },
	{ "stream_ramps_order_aligned", rap_case_stream_ramps_order_aligned },
	{ "stream_seq_at_eof", rap_case_stream_seq_at_eof },
	{ "stream_ignores_forward_marks", rap_case_stream_ignores_forward_marks },
	{ "stream_turns_around", rap_case_stream_turns_around },
	{ "around_window_below", rap_case_around_window_below },
	{ "next_size_ramp", rap_case_next_size_ramp },
	{ "window_check", rap_case_window_check },
};

#endif /* RAPOLICY_POLICY_CASES_H */
