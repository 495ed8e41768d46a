// SPDX-License-Identifier: GPL-2.0
/* Must not load: a helper that may sleep, in the fault path (tests/guest/bpf.sh) */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(bad_sleep_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	char c;

	return !bpf_copy_from_user(&c, 1, (void *)f->index);
}

SEC(".struct_ops")
struct rapolicy_ops bad_sleep = {
	.mmap_ra = (void *)bad_sleep_ra,
	.name = "bad_sleep",
};
