// SPDX-License-Identifier: GPL-2.0
/*
 * sync_mmap_order=fault_around in BPF: read-around reads folios of the
 * fault-around order (the lowest set bit of fault_around_pages) when that
 * is above the window's, for this read only, not saved in ra->order
 * (module/policy.c: rap_sync_mmap_order()).
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(sync_mmap_order_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	unsigned long pages = f->fault_around_pages;
	unsigned int order = 0;
	int i;

	if (f->point != RA_POLICY_SYNC_AROUND)
		return false;
	for (i = 0; i < 64 && pages && !(pages & 1); i++) {
		pages >>= 1;
		order++;
	}
	if (order <= win->order)
		return false;
	win->order = order;
	win->order_once = true;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops sync_mmap_order = {
	.mmap_ra = (void *)sync_mmap_order_ra,
	.name = "sync_mmap_order",
};
