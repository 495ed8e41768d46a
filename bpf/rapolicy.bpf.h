/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a readahead policy in BPF sees: the kernel's types from vmlinux.h
 * (generated from the kernel's BTF by bpftool), struct rapolicy_ops and
 * the kfunc of rapolicy.ko (module/bpf.c). libbpf matches struct
 * rapolicy_ops to the module's by name, member by member.
 */
#ifndef RAPOLICY_BPF_H
#define RAPOLICY_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct rapolicy_ops {
	bool (*mmap_ra)(const struct ra_policy_fault *fault,
			struct ra_policy_window *win);
	char name[16];
};

/* Some folio of the fault's file is cached in [first, last] */
extern bool bpf_rapolicy_cached(const struct ra_policy_fault *fault,
				__u64 first, __u64 last) __ksym;

#endif /* RAPOLICY_BPF_H */
