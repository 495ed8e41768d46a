// SPDX-License-Identifier: GPL-2.0
/*
 * descending_seq=window in BPF: a VM_SEQ_READ miss whose page above is
 * cached and page below is not reads the ra_pages window that ends at the
 * fault, of order-0 folios, with no readahead marker (module/policy.c:
 * rap_descending_seq(), rap_window_to_fault()).
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(descending_seq_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	__u64 top = f->index + 1, start;

	if (f->point != RA_POLICY_SYNC_SEQ || !f->ra_pages || !f->index)
		return false;
	if (!bpf_rapolicy_cached(f, f->index + 1, f->index + 1) ||
	    bpf_rapolicy_cached(f, f->index - 1, f->index - 1))
		return false;
	start = f->ra_pages < top ? top - f->ra_pages : 0;
	win->start = start;
	win->size = top - start;
	win->async_size = 0;
	win->order = 0;
	win->order_once = false;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops descending_seq = {
	.mmap_ra = (void *)descending_seq_ra,
	.name = "descending_seq",
};
