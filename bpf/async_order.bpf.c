// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/guest/bpf.sh: at the async point, read the default window
 * offered there, which starts on the marked folio the reader just hit, in
 * order-2 folios, marked at its start as page_cache_async_ra() marks its
 * windows. The kernel starts it past the folios already cached, so that
 * page_cache_ra_order() does not meet one first and read the whole window
 * in order-0 folios.
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(async_order_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	if (f->point != RA_POLICY_ASYNC)
		return false;
	win->order = 2;
	win->async_size = win->size;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops async_order = {
	.mmap_ra = (void *)async_order_ra,
	.name = "async_order",
};
