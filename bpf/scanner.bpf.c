// SPDX-License-Identifier: GPL-2.0
/*
 * A misbehaving policy for tests/guest/bpf.sh: it asks whether anything
 * of the file is cached from the start of its mapping to the end of the
 * address space, a scan of the page cache on every fault. The kfunc looks
 * at no more than RAP_BPF_CACHED_PAGES pages a decision, and the watchdog
 * ejects a program that asks for more (module/bpf.c); were it to run, it
 * would read the kernel's window as its own.
 */
#include "rapolicy.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/mmap_ra")
bool BPF_PROG(scanner_ra, const struct ra_policy_fault *f,
	      struct ra_policy_window *win)
{
	return bpf_rapolicy_cached(f, f->vma_start, ~0ULL);
}

SEC(".struct_ops")
struct rapolicy_ops scanner = {
	.mmap_ra = (void *)scanner_ra,
	.name = "scanner",
};
