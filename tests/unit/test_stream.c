// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the rapolicy stream tracker: module/stream.c built for
 * userspace, driven by a model of the mmap fault path over a fake page
 * cache, with the cases KUnit runs too, and host cases of what one fault
 * costs through the table (rap_stream_run()): the clock reads, the locks,
 * the page-cache lookups under a set's lock, counted by the fakes of
 * tests/unit/kernel_compat.h. Prints TAP; exits non-zero on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "../../module/stream.c"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "rap_test.h"

/* Page-cache lookups of one decision, and those under a set's lock */
struct rap_host_count {
	const struct rap_cache_view *inner;
	unsigned long lookups, locked;
};

static struct rap_host_count rap_host_count;

static void rap_host_lookup(void)
{
	rap_host_count.lookups++;
	rap_host_count.locked += rap_host.locked > 0;
}

static bool rap_host_has_folio(const void *ctx, pgoff_t index)
{
	const struct rap_cache_view *v = ctx;

	rap_host_lookup();
	return v->has_folio(v->ctx, index);
}

static bool rap_host_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	const struct rap_cache_view *v = ctx;

	rap_host_lookup();
	return v->has_range(v->ctx, first, last);
}

static bool rap_host_mapped(const void *ctx, pgoff_t index)
{
	const struct rap_cache_view *v = ctx;

	rap_host_lookup();
	return v->mapped(v->ctx, index);
}

static struct rap_cache_view rap_host_view(const struct rap_cache_view *v)
{
	struct rap_cache_view c = {
		.ctx = v,
		.has_folio = rap_host_has_folio,
		.has_range = rap_host_has_range,
		.mapped = v->mapped ? rap_host_mapped : NULL,
	};

	rap_host_count.lookups = 0;
	rap_host_count.locked = 0;
	return c;
}

static bool rap_host_nothing(const void *ctx, pgoff_t index)
{
	(void)ctx;
	(void)index;
	return false;
}

static bool rap_host_nothing_in(const void *ctx, pgoff_t first, pgoff_t last)
{
	(void)ctx;
	(void)first;
	(void)last;
	return false;
}

/* An empty page cache, for the faults the filter drops */
static const struct rap_cache_view rap_host_none = {
	.has_folio = rap_host_nothing,
	.has_range = rap_host_nothing_in,
};

/* The worst fault seen, per kind of fault */
struct rap_host_worst {
	unsigned long untimed, timed, filtered;		/* faults */
	unsigned long reads_untimed, reads_timed, reads_filtered;
	unsigned long locks_filtered;
	unsigned long lookups, locked;			/* per fault */
};

static struct rap_host_worst rap_host_worst;
/* the most lookups of one decision in all the cases, and where */
static unsigned long rap_host_decide_lookups;
static const char *rap_host_decide_case;
static const char *rap_host_case;

#define RAP_HOST_MAX(a, b) ((a) = (a) > (b) ? (a) : (b))

/* rap_stream_run() as the cases call it: counted */
static bool rap_host_run(struct rap_stream_table *table, unsigned int arm,
			 struct rap_stream_fault *f,
			 const struct rap_cache_view *view,
			 struct rap_stream_set *snap,
			 struct ra_policy_window *win, unsigned int *did,
			 bool timed, u64 *cost)
{
	struct rap_cache_view c = rap_host_view(view);
	unsigned long reads = rap_host.clock_reads, locks = rap_host.locks;
	struct rap_host_worst *w = &rap_host_worst;
	bool wants = rap_stream_wants(f);
	bool replaced;

	rap_host.ns += 10000;	/* 10 us between faults */
	replaced = rap_stream_run(table, arm, f, &c, snap, win, did, timed,
				  cost);
	reads = rap_host.clock_reads - reads;
	locks = rap_host.locks - locks;
	if (!wants) {
		w->filtered++;
		RAP_HOST_MAX(w->reads_filtered, reads);
		RAP_HOST_MAX(w->locks_filtered, locks);
		return replaced;
	}
	if (timed) {
		w->timed++;
		RAP_HOST_MAX(w->reads_timed, reads);
	} else {
		w->untimed++;
		RAP_HOST_MAX(w->reads_untimed, reads);
	}
	RAP_HOST_MAX(w->lookups, rap_host_count.lookups);
	RAP_HOST_MAX(w->locked, rap_host_count.locked);
	return replaced;
}

/* rap_stream_decide() as the cases call it: its lookups counted */
static bool rap_host_decide(struct rap_stream_set *set,
			    const struct rap_stream_fault *f,
			    const struct rap_cache_view *view,
			    struct ra_policy_window *win, unsigned int *did)
{
	struct rap_cache_view c = rap_host_view(view);
	bool replaced = rap_stream_decide(set, f, &c, win, did);

	if (rap_host_count.lookups > rap_host_decide_lookups) {
		rap_host_decide_lookups = rap_host_count.lookups;
		rap_host_decide_case = rap_host_case;
	}
	return replaced;
}

#define rap_stream_run rap_host_run
#define rap_stream_decide rap_host_decide
#include "../../module/tests/stream_cases.h"
#undef rap_stream_decide
#undef rap_stream_run

/*
 * The walks of the host cases through the table, each untimed and timed:
 * strides up and down, read-around and VM_SEQ_READ, a dense reader, a
 * random one; and faults the filter drops.
 */
static void rap_host_walks(void)
{
	static const unsigned long strides[] = { 1, 16, 64, 1024 };
	static const enum rap_mapping_kind kinds[] = { RAP_MAP_AROUND,
						       RAP_MAP_SEQ };
	struct rap_stream_fault f = {
		.key = { .inode = 0x1000, .ino = 12, .dev = 8 },
		.vma_end = 100,
		.stock_pages = 32,
		.max_pages = 1024,
	};
	struct ra_policy_window win;
	unsigned int s, k, up, timed, did, i;
	u32 seed = 7;
	u64 cost;

	memset(&rap_host_worst, 0, sizeof(rap_host_worst));
	for (timed = 0; timed < 2; timed++) {
		for (s = 0; s < ARRAY_SIZE(strides); s++)
			for (k = 0; k < ARRAY_SIZE(kinds); k++)
				for (up = 0; up < 2; up++) {
					rap_sim_table_init();
					rap_sim_init(&rap_sim_a, RAP_SIM_PAGES,
						     32, kinds[k], true);
					rap_sim_a.table = &rap_sim_table;
					rap_sim_a.timed = timed;
					rap_sim_stride(&rap_sim_a, strides[s], up);
				}
		rap_sim_table_init();
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     true);
		rap_sim_a.table = &rap_sim_table;
		rap_sim_a.timed = timed;
		for (i = 0; i < RAP_SIM_PAGES / 64; i++)
			rap_sim_touch(&rap_sim_a,
				      rap_sim_rand(&seed) % RAP_SIM_PAGES);
	}
	/* VM_EXEC, no readahead kind, outside the VMA, no window */
	for (i = 0; i < 4; i++) {
		f.point = i == 0 ? RA_POLICY_SYNC_EXEC : RA_POLICY_SYNC_AROUND;
		f.kind = i == 1 ? RAP_MAP_OTHER : RAP_MAP_AROUND;
		f.index = i == 2 ? 100 : 10;
		f.stock_pages = i == 3 ? 0 : 32;
		rap_host_run(&rap_sim_table, 0, &f, &rap_host_none, &rap_sim_snap,
			     &win, &did, i & 1, &cost);
	}
}

/*
 * The clock: local_clock() at most once per fault, for aging and as the
 * start of a timed decision, and once more at the end of a timed one; no
 * read for a fault the filter drops, nor a lock.
 */
static void rap_host_case_clock_reads(struct rap_test *t)
{
	rap_host_walks();
	RAP_EXPECT(t, rap_host_worst.untimed > 1000);
	RAP_EXPECT(t, rap_host_worst.timed > 1000);
	RAP_EXPECT_EQ(t, rap_host_worst.filtered, 4);
	RAP_EXPECT_LE(t, rap_host_worst.reads_untimed, 1);
	RAP_EXPECT_LE(t, rap_host_worst.reads_timed, 2);
	RAP_EXPECT_EQ(t, rap_host_worst.reads_filtered, 0);
	RAP_EXPECT_EQ(t, rap_host_worst.locks_filtered, 0);
}

/* Under a set's lock: no page-cache lookup */
#define RAP_HOST_LOCKED_LOOKUPS	0

static void rap_host_case_lookups_under_lock(struct rap_test *t)
{
	rap_host_walks();
	RAP_EXPECT_LE(t, rap_host_worst.locked, RAP_HOST_LOCKED_LOOKUPS);
	printf("# worst page-cache lookups of one fault through the table: %lu, under the set's lock: %lu\n",
	       rap_host_worst.lookups, rap_host_worst.locked);
}

/*
 * Another CPU's fault on the same set, run from inside a decision's
 * first page-cache lookup (no lock is held there)
 */
static struct rap_stream_fault rap_host_other;
static bool rap_host_injected;

static bool rap_host_interleave(const void *ctx, pgoff_t index)
{
	static struct rap_stream_set snap;
	struct ra_policy_window win = { 0 };
	unsigned int did;
	u64 cost;

	if (!rap_host_injected) {
		rap_host_injected = true;
		rap_stream_run(&rap_sim_table, 0, &rap_host_other,
			       &rap_host_none, &snap, &win, &did, false, &cost);
	}
	return rap_host_nothing(ctx, index);
}

/* A read-around miss at page 1000 of a file that the interleaving cases share */
static const struct rap_stream_fault rap_host_miss_1000 = {
	.key = { .inode = 0x1000, .ino = 12, .dev = 8 },
	.point = RA_POLICY_SYNC_AROUND,
	.kind = RAP_MAP_AROUND,
	.index = 1000,
	.vma_end = RAP_SIM_PAGES,
	.stock_start = 984,
	.stock_pages = 32,
	.max_pages = 1024,
	.fault_around_pages = 16,
};

/*
 * Two faults on one set at once: the one that finds the set changed when
 * it puts its copy back decides again on a new copy, and both streams are
 * in the set; no lookup under the lock.
 */
static void rap_host_case_interleaved(struct rap_test *t)
{
	static const struct rap_cache_view view = {
		.has_folio = rap_host_interleave,
		.has_range = rap_host_nothing_in,
	};
	struct rap_stream_fault f = rap_host_miss_1000;
	struct rap_stream_set *set;
	struct ra_policy_window win = { 0 };
	unsigned int did, i, found = 0;
	unsigned long locks = rap_host.locks;
	u64 cost;

	rap_sim_table_init();
	rap_host_other = f;
	rap_host_other.index = 50000;
	rap_host_other.stock_start = 49984;
	rap_host_injected = false;
	rap_host_run(&rap_sim_table, 0, &f, &view, &rap_sim_snap, &win, &did,
		     false, &cost);
	RAP_EXPECT(t, rap_host_injected);
	/* its copy, its stale put-back, a new copy, its put-back; the other 2 */
	RAP_EXPECT_EQ(t, rap_host.locks - locks, 6);
	RAP_EXPECT_EQ(t, rap_host_worst.locked, 0);
	rcu_read_lock();
	set = &rap_stream_slot(&rap_sim_table, 0, &f.key)->set;
	for (i = 0; i < RAP_STREAM_WAYS; i++)
		found += set->way[i].state != RAP_STREAM_FREE &&
			 (set->way[i].last == 1000 ||
			  set->way[i].last == 50000);
	RAP_EXPECT_EQ(t, found, 2);
	RAP_EXPECT_EQ(t, set->clock, 2);
	rcu_read_unlock();
}

/*
 * A resize on another CPU while a decision runs (from inside its first
 * page-cache lookup): the new table has the streams moved, and is
 * published (@rap_host_publish) or not yet. The grace period and the free
 * of the old table wait for the fault, as synchronize_rcu() does.
 */
static struct rap_stream_sets *rap_host_old, *rap_host_new;
static bool rap_host_publish;

static bool rap_host_resize_now(const void *ctx, pgoff_t index)
{
	unsigned long i;

	if (!rap_host_injected) {
		rap_host_injected = true;
		rap_host_old = rap_sim_table.sets[0];
		rap_host_new = rap_stream_sets_alloc(rap_host_old->order + 1);
		for (i = 0; i < 1UL << rap_host_old->order; i++)
			rap_stream_move(rap_host_new, &rap_host_old->slot[i],
					0);
		if (rap_host_publish)
			rcu_assign_pointer(rap_sim_table.sets[0],
					   rap_host_new);
	}
	return rap_host_nothing(ctx, index);
}

/* Whether arm 0's table has a stream last at @last */
static bool rap_host_has_stream(pgoff_t last)
{
	struct rap_stream_sets *sets = rap_sim_table.sets[0];
	unsigned long i;
	unsigned int w;

	for (i = 0; i < 1UL << sets->order; i++)
		for (w = 0; w < RAP_STREAM_WAYS; w++)
			if (sets->slot[i].set.way[w].state != RAP_STREAM_FREE &&
			    sets->slot[i].set.way[w].last == last)
				return true;
	return false;
}

/*
 * A fault whose set a resize moves while it decides: published, its copy
 * back finds the set moved and the decision is taken again in the new
 * table, beside the stream moved there; not yet published, the fault is
 * left to stock and changes neither table. No table pointer is read
 * outside rcu_read_lock(), no grace period is waited for inside it.
 */
static void rap_host_case_resize_interleaved(struct rap_test *t)
{
	static const struct rap_cache_view view = {
		.has_folio = rap_host_resize_now,
		.has_range = rap_host_nothing_in,
	};
	struct rap_stream_fault f = rap_host_miss_1000;
	struct rap_stream_fault other = f;
	struct ra_policy_window win = { 0 };
	unsigned long bad = rap_host.rcu_bad;
	unsigned int did, publish;
	u64 cost;

	for (publish = 0; publish < 2; publish++) {
		rap_sim_table_bounded(ilog2(RAP_STREAM_SETS) + 1);
		/* a stream of the file, 50000, for the resize to move */
		other.index = 50000;
		other.stock_start = 49984;
		rap_stream_run(&rap_sim_table, 0, &other, &rap_host_none,
			       &rap_sim_snap, &win, &did, false, &cost);
		rap_host_injected = false;
		rap_host_publish = publish;
		win = (struct ra_policy_window){ 0 };
		RAP_EXPECT_EQ(t, rap_stream_run(&rap_sim_table, 0, &f, &view,
						&rap_sim_snap, &win, &did,
						false, &cost), 0);
		RAP_EXPECT(t, rap_host_injected);
		if (!rap_host_injected)
			break;
		if (!publish) {
			RAP_EXPECT_EQ(t, did, 0);
			RAP_EXPECT(t, !rap_host_has_stream(1000));
			rcu_assign_pointer(rap_sim_table.sets[0],
					   rap_host_new);
		}
		synchronize_rcu();
		kvfree(rap_host_old);
		RAP_EXPECT(t, rap_host_has_stream(50000));
		RAP_EXPECT_EQ(t, rap_host_has_stream(1000), publish);
	}
	RAP_EXPECT_EQ(t, rap_host.rcu_bad, bad);
	RAP_EXPECT_EQ(t, rap_host.rcu, 0);
}

static bool rap_host_everything(const void *ctx, pgoff_t index)
{
	(void)ctx;
	(void)index;
	return true;
}

/*
 * Bounded work: @ways streams of one file, each a run walked up from page
 * 1000 to 1128, and a read-around miss below them at one page of
 * fault-around with every page mapped: each way's descent check
 * (rap_stream_descent()) scans its run's 127 blocks. Returns the lookups
 * of the fault through the table; *@set_changed if its set changed.
 */
static unsigned long rap_host_scan_ways(unsigned int ways, bool *replaced,
					unsigned int *did, bool *set_changed)
{
	static const struct rap_cache_view mapped = {
		.has_folio = rap_host_nothing,
		.has_range = rap_host_nothing_in,
		.mapped = rap_host_everything,
	};
	struct rap_cache_view c = rap_host_view(&mapped);
	struct rap_stream_fault f = rap_host_miss_1000;
	struct rap_stream_set *set, before;
	struct ra_policy_window win = { 0 };
	unsigned int i;
	u64 cost;

	rap_sim_table_init();
	f.index = 900;
	f.stock_start = 884;
	f.fault_around_pages = 1;
	rap_host.ns += 10000;
	rcu_read_lock();
	set = &rap_stream_slot(&rap_sim_table, 0, &f.key)->set;
	for (i = 0; i < ways; i++)
		set->way[i] = (struct rap_stream){
			.key = f.key, .last = 1128, .origin = 1000,
			.top = 1128, .delta = 1, .misses = RAP_STREAM_CONFIRM,
			.conf = RAP_STREAM_CONFIRM, .state = RAP_STREAM_IDLE,
			.seen = rap_stream_now(), .reader = 1 + i,
		};
	before = *set;
	rcu_read_unlock();
	*replaced = rap_stream_run(&rap_sim_table, 0, &f, &c, &rap_sim_snap,
				   &win, did, false, &cost);
	rcu_read_lock();
	*set_changed = memcmp(&before, set, sizeof(before)) != 0;
	rcu_read_unlock();
	return rap_host_count.lookups;
}

/*
 * A fault makes RAP_STREAM_LOOKUPS page-cache lookups at most: eight
 * ways' scans (about 1000 lookups) are cut short there, the fault left to
 * stock, the set unchanged, RAP_STREAM_DID_BOUND set; two ways' scans
 * (about 250) are not, and decide a descent.
 */
static void rap_host_case_lookups_bounded(struct rap_test *t)
{
	unsigned long lookups;
	unsigned int did;
	bool replaced, changed;

	lookups = rap_host_scan_ways(RAP_STREAM_WAYS, &replaced, &did,
				     &changed);
	printf("# eight ways' scans: %lu lookups, did %#x\n", lookups, did);
	RAP_EXPECT_LE(t, lookups, RAP_STREAM_LOOKUPS);
	RAP_EXPECT(t, !replaced);
	RAP_EXPECT_EQ(t, did, RAP_STREAM_DID_BOUND);
	RAP_EXPECT(t, !changed);
	lookups = rap_host_scan_ways(2, &replaced, &did, &changed);
	printf("# two ways' scans: %lu lookups, did %#x\n", lookups, did);
	RAP_EXPECT(t, lookups > 2 * 127 && lookups <= RAP_STREAM_LOOKUPS);
	RAP_EXPECT(t, replaced);
	RAP_EXPECT(t, !(did & RAP_STREAM_DID_BOUND));
	RAP_EXPECT(t, changed);
}

/*
 * A B-tree index's reverse scan (patwalk btree's walk, 64 MiB) for every
 * run length from 8 to 80 pages and a quarter more each up to 472, at
 * read_ahead_kb 128 and 8192: no more misses than stock, and no more
 * pages but for two of the largest windows, except the run lengths
 * docs/STREAMS.md names as open (runs of 13 and 14 at 128, which a
 * backward stride of 14 or 15 pages looks the same as; 24 and 40 at
 * 8192, "Generated patterns"). Before a stride's miss below a walked run
 * was a descent, 13 run lengths at 128 missed more than stock.
 */
static void rap_host_case_btree_runs(struct rap_test *t)
{
	static const struct {
		unsigned long ra, open[2];
	} ras[] = { { 32, { 13, 14 } }, { 2048, { 24, 40 } } };
	unsigned long run;
	unsigned int r;

	for (r = 0; r < ARRAY_SIZE(ras); r++) {
		for (run = 8; run <= 472; run += run < 80 ? 1 : run / 4) {
			if (run == ras[r].open[0] || run == ras[r].open[1])
				continue;
			rap_sim_btree(16384, ras[r].ra, run);
			RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses);
			RAP_EXPECT_LE(t, rap_sim_b.pages_read,
				      rap_sim_a.pages_read + 2 * RAP_SIM_MAX);
		}
	}
}

static const struct rap_stream_case rap_host_cases[] = {
	{ "table_lookups_bounded", rap_host_case_lookups_bounded },
	{ "btree_runs", rap_host_case_btree_runs },
	{ "table_clock_reads", rap_host_case_clock_reads },
	{ "table_lookups_under_lock", rap_host_case_lookups_under_lock },
	{ "table_interleaved", rap_host_case_interleaved },
	{ "table_resize_interleaved", rap_host_case_resize_interleaved },
};

int main(void)
{
	size_t n = ARRAY_SIZE(rap_stream_cases), m = ARRAY_SIZE(rap_host_cases);
	size_t i;
	int failed = 0;

	printf("TAP version 13\n1..%zu\n", n + m);
	for (i = 0; i < n + m; i++) {
		const struct rap_stream_case *c = i < n ? &rap_stream_cases[i] :
						  &rap_host_cases[i - n];
		struct rap_test t = { c->name, 0 };

		rap_host_case = c->name;
		c->run(&t);
		printf("%sok %zu - %s\n", t.failures ? "not " : "", i + 1,
		       c->name);
		failed += !!t.failures;
	}
	printf("# worst page-cache lookups of one decision in the cases: %lu (%s)\n",
	       rap_host_decide_lookups, rap_host_decide_case);
	rap_sim_table_release();
	return failed ? 1 : 0;
}
