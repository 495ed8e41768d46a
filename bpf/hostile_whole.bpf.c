// SPDX-License-Identifier: GPL-2.0
/*
 * A hostile readahead policy for tests/guest/bpf.sh: every window is the
 * whole address space from index 0. The kernel cuts it to the faulting
 * VMA and the size it allows, so a mapping of part of a file reads
 * nothing outside it.
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(hostile_whole_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	win->start = 0;
	win->size = ~0UL;
	win->async_size = 0;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops hostile_whole = {
	.mmap_ra = (void *)hostile_whole_ra,
	.name = "hostile_whole",
};
