// SPDX-License-Identifier: GPL-2.0
/* Must not load: writes the kernel's copy of the fault (tests/guest/bpf.sh) */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(bad_write_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	((struct ra_policy_fault *)f)->ra_pages = 1 << 20;
	return false;
}

SEC(".struct_ops")
struct rapolicy_ops bad_write = {
	.mmap_ra = (void *)bad_write_ra,
	.name = "bad_write",
};
