// SPDX-License-Identifier: GPL-2.0
/*
 * A hostile readahead policy for tests/guest/bpf.sh: at every decision
 * point it replaces the window, every other time (its calls counted) with
 * one that starts past the VMA (the kernel refuses it), else with one that
 * starts at the VMA, runs to the end of the address space, has its marker
 * beyond its end and an impossible folio order (the kernel cuts it). Its
 * refused windows never come many in a row: the watchdog leaves it be.
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 calls;

SEC("struct_ops/mmap_ra")
bool BPF_PROG(hostile_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	if (calls++ & 1) {
		win->start = f->vma_end + 1;
		win->size = 1;
		return true;
	}
	win->start = f->vma_start;
	win->size = ~0UL;
	win->async_size = ~0UL;
	win->order = 31;
	win->order_once = false;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops hostile = {
	.mmap_ra = (void *)hostile_ra,
	.name = "hostile",
};
