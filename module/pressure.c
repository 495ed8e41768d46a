// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: windows under memory pressure.
 *
 * A window larger than stock's read-around reads pages that the reader
 * has yet to reach; in a memory cgroup near memory.max, each of them
 * pushes out a page cached before it, often one of an earlier window not
 * yet used. So the room a window may take beyond a floor (ra_pages, or
 * for VM_HUGEPAGE one PMD folio) is a share of the headroom left under
 * the faulting task's memory.max (and every ancestor's): all it asks for
 * when the cgroup is far from its limit, none at the limit. Windows no
 * larger than the floor are left alone, and stock's windows (those no
 * policy replaced) always.
 *
 * The headroom is read on a window decision only (a miss or a marker
 * hit), not on the cache hits of the fault path: a walk up the page
 * counters of the task's memory cgroup and its ancestors, under
 * rcu_read_lock(), no lock taken, nothing that sleeps; O(cgroup depth).
 */
#include <linux/memcontrol.h>
#include <linux/page_counter.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "rapolicy.h"
#include "policy.h"

/*
 * A window may read beyond its floor at most this share of the headroom,
 * 1 / 2^RAP_PRESSURE_SHIFT: four windows in flight at once still leave the
 * cgroup its room
 */
#define RAP_PRESSURE_SHIFT	2

/**
 * rap_memcg_headroom - pages the faulting task may charge before a limit
 * @limited: out: whether any memory.max above the task is set
 *
 * The least of memory.max minus usage over the task's memory cgroup and
 * its ancestors (page_counter's own hierarchy). Racy by design: a
 * snapshot for a heuristic.
 *
 * Return: the headroom in pages; ULONG_MAX without a limit or a memcg.
 */
unsigned long rap_memcg_headroom(bool *limited)
{
	unsigned long room = ULONG_MAX;
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg;
	struct page_counter *c;

	*limited = false;
	if (mem_cgroup_disabled())
		return room;
	rcu_read_lock();
	memcg = mem_cgroup_from_task(current);
	for (c = memcg ? &memcg->memory : NULL; c; c = c->parent) {
		unsigned long max = READ_ONCE(c->max);
		unsigned long usage = page_counter_read(c);

		if (max == PAGE_COUNTER_MAX)
			continue;
		*limited = true;
		room = min(room, max > usage ? max - usage : 0);
	}
	rcu_read_unlock();
#else
	*limited = false;
#endif
	return room;
}

/*
 * The least a window is cut to at @f: ra_pages, stock's read-around; for
 * VM_HUGEPAGE one folio of the mapping's THP order, the least it maps
 * with a PMD (stock reads two, the second for a reader yet to come)
 */
static unsigned long rap_floor_pages(const struct rap_fault *f)
{
	if (f->kind == RAP_MAP_THP)
		return max(f->ra_pages, 1UL << f->thp_order);
	return f->ra_pages;
}

/*
 * Where a window of @size pages at @start, cut to @allowed, starts: around
 * the faulting page @index if it holds it, else at the end nearer to it
 */
static pgoff_t rap_cut_start(pgoff_t start, unsigned long size,
			     unsigned long allowed, pgoff_t index)
{
	pgoff_t last_start = start + (size - allowed);

	if (index < start)
		return start;
	if (index - start >= size)
		return last_start;
	if (index - start <= allowed / 2)
		return start;
	return min(index - allowed / 2, last_start);
}

/**
 * rap_pressure_cut - cut a replaced window to what the memcg has room for
 * @f: the fault
 * @win: the window a policy replaced the default with
 *
 * A window of more than the floor's pages is cut to the floor plus a
 * share of the headroom, in whole folios of its order. What
 * stays is around the faulting page if the window holds it, else the
 * end nearer to it: the start of a window read ahead of the reader, the
 * end of one read below it.
 *
 * Return: true if @win was cut.
 */
bool rap_pressure_cut(const struct rap_fault *f, struct ra_policy_window *win)
{
	unsigned long floor = rap_floor_pages(f), allowed, room, unit;
	bool limited;

	if (!floor || win->size <= floor)
		return false;
	room = rap_memcg_headroom(&limited);
	if (!limited)
		return false;
	room >>= RAP_PRESSURE_SHIFT;
	allowed = room < win->size - floor ? floor + room : win->size;
	unit = 1UL << win->order;
	allowed = allowed >= unit ? allowed & ~(unit - 1) : unit;
	if (allowed >= win->size)
		return false;
	win->start = rap_cut_start(win->start, win->size, allowed, f->index);
	win->size = allowed;
	if (win->async_size > allowed)
		win->async_size = allowed;
	return true;
}
