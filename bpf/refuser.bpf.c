// SPDX-License-Identifier: GPL-2.0
/*
 * A misbehaving policy for tests/guest/bpf.sh: every window it returns
 * starts past the faulting VMA, and the kernel refuses it. The watchdog
 * ejects it after RAP_BPF_REFUSED_MAX in a row (module/bpf.c).
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(refuser_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	win->start = f->vma_end + 1;
	win->size = 1;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops refuser = {
	.mmap_ra = (void *)refuser_ra,
	.name = "refuser",
};
