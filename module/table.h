/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: the one table of policies, values and counters.
 *
 * The module builds its sysfs files, module parameters and counters from
 * these lists; rapolicyctl, its fake sysfs tree, the documentation checks
 * and the completion read the same lists, so none of them can drift. Plain
 * preprocessor lists with no includes, for kernel and userspace alike.
 *
 * RAP_POLICIES(P): P(name, values) per policy file, arm A at the top of
 * /sys/kernel/mm/rapolicy/ and arm B under ab/. @values is a
 * RAP_VALUES(...) list of the named values in enum order; the first is
 * stock behaviour. A policy whose name is listed in RAP_ORDER_POLICIES
 * also takes a folio order, 0..MAX_PAGECACHE_ORDER, after its names.
 *
 * RAP_STATS(S): S(name, help) per counter, in stats/a/, stats/b/ and,
 * summed over both arms, stats/. Every counter counts events that
 * happened, from zero at load or at the last write to stats/reset.
 */
#ifndef RAPOLICY_TABLE_H
#define RAPOLICY_TABLE_H

#define RAP_VALUES(...) __VA_ARGS__

#define RAP_POLICIES(P)							\
	P(descending_thp, RAP_VALUES("off", "folio", "stream"))	\
	P(pmd_hit, RAP_VALUES("off", "on"))				\
	P(descending_seq, RAP_VALUES("off", "window", "stream"))	\
	P(vma_limit, RAP_VALUES("none", "always", "near_end"))		\
	P(sync_mmap_order, RAP_VALUES("off", "fault_around"))		\
	P(descending_around, RAP_VALUES("off", "window", "stream"))	\
	P(streams, RAP_VALUES("off", "on"))

/* Policies that take a folio order after their named values */
#define RAP_ORDER_POLICY sync_mmap_order

#define RAP_STATS(S)							\
	S(sync_miss, "synchronous mmap misses (major faults) seen")	\
	S(sync_thp, "misses offered a window in a VM_HUGEPAGE mapping")	\
	S(sync_seq, "misses offered a window in a VM_SEQ_READ mapping")	\
	S(sync_exec, "misses offered a window in a VM_EXEC mapping")	\
	S(sync_around, "misses offered a read-around window")		\
	S(async, "readahead markers hit that stock would read ahead from") \
	S(mmap_hit, "mappings of the faulting address from the page cache counted as mmap hits") \
	S(pmd_hit, "PMD mappings of the faulting address counted as mmap hits") \
	S(descending_thp, "windows replaced by descending_thp")	\
	S(descending_seq, "windows replaced by descending_seq")	\
	S(descending_around, "windows replaced by descending_around")	\
	S(vma_limit, "windows bounded at the VMA end by vma_limit")	\
	S(vma_clamp, "windows that the vma_limit bound cut short")	\
	S(order_raise, "read-around windows read with a larger folio order") \
	S(pages_read, "pages that mmap readahead added to the page cache for reading") \
	S(stream_sync, "windows the stream tracker read on a miss") \
	S(stream_async, "windows the stream tracker read on a hit of its marker") \
	S(stream_lookups, "readahead decisions the stream tracker took part in") \
	S(stream_ns, "nanoseconds the stream tracker spent on them (local_clock())")

#endif /* RAPOLICY_TABLE_H */
