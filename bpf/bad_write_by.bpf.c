// SPDX-License-Identifier: GPL-2.0
/*
 * Must not load: writes the window's @by, which names what decided for the
 * trace event and is the module's to set, not a policy's (tests/guest/bpf.sh)
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(bad_write_by_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	win->by = (const char *)f;
	return true;
}

SEC(".struct_ops")
struct rapolicy_ops bad_write_by = {
	.mmap_ra = (void *)bad_write_by_ra,
	.name = "bad_write_by",
};
