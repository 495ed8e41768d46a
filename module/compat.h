/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: where the kernels the module builds for differ.
 *
 * The hook series for Linux 7.x and its port to 6.12 share one API,
 * include/linux/readahead_policy.h, with the same meaning of every field
 * (a window's order is a folio order on both). The 6.12 header says where
 * that kernel cannot honour it: RA_POLICY_NO_EXEC_POINT (no VM_EXEC
 * branch); order_once has no effect there, as 6.12 keeps no ra->order.
 * Everything that depends on the kernel is here, as small helpers, so the
 * policy code has no kernel conditionals.
 */
#ifndef RAPOLICY_COMPAT_H
#define RAPOLICY_COMPAT_H

#include <linux/cgroup.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/pagemap.h>
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
 * The smallest folio order a window's order can ask for. On 6.12,
 * page_cache_ra_order() reads folios two orders above the order it is
 * given (mm/readahead.c: "new_order += 2"), so the port's
 * struct ra_policy_window documents that orders below 2 read order-2
 * folios in a mapping with large folios. The test is the port's own
 * marker: no macro names the missing file_ra_state order itself (a struct
 * member the preprocessor cannot see), and RA_POLICY_NO_EXEC_POINT is
 * defined by that header and by no other, the same header that documents
 * the floor.
 */
#ifdef RA_POLICY_NO_EXEC_POINT
#define RAP_MIN_FOLIO_ORDER 2
#else
#define RAP_MIN_FOLIO_ORDER 0
#endif

/*
 * Whether this kernel reads the folio order @order that a policy value
 * asks for (sync_mmap_order's numbers); values it cannot honour are
 * neither listed nor taken. Named values are honoured on every kernel.
 */
static inline bool rap_order_honoured(unsigned int order)
{
	return order >= RAP_MIN_FOLIO_ORDER && order <= MAX_PAGECACHE_ORDER;
}

/*
 * The folio order of the two folios a VM_HUGEPAGE miss reads, for a page
 * size of 1 << @page_shift bytes, HPAGE_PMD_ORDER @pmd_order,
 * MAX_PAGECACHE_ORDER @max_cache_order and mapping_max_folio_order()
 * @max_folio_order: what the hook series' ra_policy_thp_order() takes on
 * this kernel. 7.x caps the order at 2MB whatever the page size; 6.12
 * reads PMD-sized folios where the page cache can hold them, and none
 * with 64KiB pages. The KUnit cases call it with other page sizes.
 */
static inline unsigned int rap_thp_order_geometry(unsigned int page_shift,
						  unsigned int pmd_order,
						  unsigned int max_cache_order,
						  unsigned int max_folio_order)
{
#ifdef RA_POLICY_NO_EXEC_POINT
	return ra_policy_thp_order(pmd_order, max_cache_order);
#else
	return ra_policy_thp_order(max_folio_order, page_shift);
#endif
}

/*
 * BPF policies (bpf.c): struct_ops from a module needs the BPF JIT
 * (bpf_struct_ops.o is built only with it) and the module's own BTF, which
 * describes struct rapolicy_ops to the verifier and to libbpf.
 */
#define RAP_HAVE_BPF (IS_ENABLED(CONFIG_BPF_SYSCALL) &&		\
		      IS_ENABLED(CONFIG_BPF_JIT) &&			\
		      IS_ENABLED(CONFIG_DEBUG_INFO_BTF_MODULES))

/* cgroup_is_dead() is private to kernel/cgroup/ on 6.12 */
static inline bool rap_cgroup_is_dead(const struct cgroup *cgrp)
{
	return !(cgrp->self.flags & CSS_ONLINE);
}

#endif /* RAPOLICY_COMPAT_H */
