/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: where the kernels the module builds for differ.
 *
 * The hook series for Linux 7.x and its port to 6.12 share one API,
 * include/linux/readahead_policy.h. The 6.12 header says where that kernel
 * cannot honour it by defining RA_POLICY_NO_RA_ORDER (file_ra_state has no
 * order) and RA_POLICY_NO_EXEC_POINT (no VM_EXEC branch). Everything that
 * depends on the kernel is here, as small helpers, so the policy code has
 * no kernel conditionals.
 */
#ifndef RAPOLICY_COMPAT_H
#define RAPOLICY_COMPAT_H

#include <linux/cgroup.h>
#include <linux/readahead_policy.h>

/* Whether this kernel offers the decision point @point at all */
static inline bool rap_point_offered(enum ra_policy_point point)
{
#ifdef RA_POLICY_NO_EXEC_POINT
	if (point == RA_POLICY_SYNC_EXEC)
		return false;
#endif
	return point < RA_POLICY_NR_POINTS;
}

/*
 * Whether a window's order is the folio order of the read, and the file's
 * readahead state keeps an order (ra->order), rather than being the order
 * page_cache_ra_order() ramps from (6.12, which reads order + 2 below the
 * mapping's largest order).
 */
static inline bool rap_order_is_folio_order(void)
{
#ifdef RA_POLICY_NO_RA_ORDER
	return false;
#else
	return true;
#endif
}

/*
 * The window order that reads folios of @order from a mapping whose
 * largest folio order is @max_order. Where the kernel ramps by two, orders
 * 1 and 2 both read order 2, the smallest it reads with large folios.
 */
static inline unsigned int rap_window_order(unsigned int order,
					    unsigned int max_order)
{
	if (rap_order_is_folio_order() || order >= max_order)
		return order;
	return order >= 2 ? order - 2 : 0;
}

/* cgroup_is_dead() is private to kernel/cgroup/ on 6.12 */
static inline bool rap_cgroup_is_dead(const struct cgroup *cgrp)
{
	return !(cgrp->self.flags & CSS_ONLINE);
}

#endif /* RAPOLICY_COMPAT_H */
