// SPDX-License-Identifier: GPL-2.0
/*
 * Must not load: a sleepable program (tests/guest/bpf.sh). The verifier
 * lets a sleepable struct_ops program call bpf_copy_from_user(), which may
 * sleep, or fault on the task's memory and wait for the mmap lock the
 * fault holds; rapolicy.ko refuses the program (rap_bpf_check_member()).
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops.s/mmap_ra")
bool BPF_PROG(bad_sleepable_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	char c;

	return !bpf_copy_from_user(&c, 1, (void *)f->index);
}

SEC(".struct_ops")
struct rapolicy_ops bad_sleepable = {
	.mmap_ra = (void *)bad_sleepable_ra,
	.name = "bad_sleepable",
};
