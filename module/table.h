/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: the one table of policies, values and counters.
 *
 * The module builds its sysfs files, module parameters and counters from
 * this table; rapolicyctl, its fake sysfs tree, the documentation checks
 * and the completion read the same lines, so none of them can drift. Like
 * include/linux/sched/sd_flags.h, it is included with RAP_POLICY() and/or
 * RAP_STAT() defined by the includer, once per use, and has no includes,
 * for kernel and userspace alike.
 *
 * RAP_POLICY(name, orders, help, values...) per policy file: arm A's at
 * the top of /sys/kernel/mm/rapolicy/, arm B's under ab/. The named
 * values are in the order of the enum in policy.h; the first is stock
 * behaviour. When @orders is 1 the policy also takes a folio order,
 * 0..MAX_PAGECACHE_ORDER, after its names (those of them the kernel can
 * honour: rap_order_honoured() in compat.h).
 *
 * RAP_KNOB(name, settable, at_load, unit, help) per number of an arm, after
 * its policies, in rapolicy/ and ab/: a decimal integer in @unit; one that
 * is @settable takes a write (the module checks its range), and rapolicyctl
 * sets, saves and applies it. @at_load is its value when the module loads,
 * and the one a module without its file (an older one) behaves as having.
 *
 * RAP_STAT(name, help) per counter, in stats/a/, stats/b/ and, summed over
 * both arms, stats/. Every counter counts events that happened, from zero
 * at load or at the last write to stats/reset. sync_thp..async are in the
 * order of enum ra_policy_point.
 */
#ifndef RAP_POLICY
#define RAP_POLICY(name, orders, help, ...)
#endif
#ifndef RAP_KNOB
#define RAP_KNOB(name, settable, at_load, unit, help)
#endif
#ifndef RAP_STAT
#define RAP_STAT(name, help)
#endif

RAP_POLICY(descending_thp, 0,
	   "read the folio below descending VM_HUGEPAGE misses",
	   "off", "folio", "stream")
RAP_POLICY(pmd_hit, 0,
	   "a PMD mapping of the faulting address is an mmap hit",
	   "off", "on")
RAP_POLICY(descending_seq, 0,
	   "read the window ending at descending VM_SEQ_READ misses",
	   "off", "window", "stream")
RAP_POLICY(vma_limit, 0,
	   "bound mmap readahead at the VMA end",
	   "none", "always", "near_end")
RAP_POLICY(sync_mmap_order, 1,
	   "folio order of mmap read-around, not saved in ra->order",
	   "off", "fault_around")
RAP_POLICY(descending_around, 0,
	   "read-around below descending misses",
	   "off", "window", "stream")
RAP_POLICY(streams, 0,
	   "the stream tracker: several streams per file, either direction, strided",
	   "off", "on")
RAP_POLICY(bpf, 0,
	   "the loaded BPF policy (struct rapolicy_ops) decides first",
	   "off", "on")
RAP_POLICY(random_miss, 0,
	   "read only the faulting page while a file's read-around goes unused; windows beyond stock's shrink as the memcg nears memory.max",
	   "off", "fault")

RAP_KNOB(streams_max_kb, 1, "4096", "KiB",
	 "the bound on the arm's stream tracker table")
RAP_KNOB(streams_bytes, 0, "0", "bytes",
	 "the size of the arm's stream tracker table now")

RAP_STAT(sync_miss, "synchronous mmap misses (major faults)")
RAP_STAT(sync_thp, "misses offered a window, VM_HUGEPAGE")
RAP_STAT(sync_seq, "misses offered a window, VM_SEQ_READ")
RAP_STAT(sync_exec, "misses offered a window, VM_EXEC")
RAP_STAT(sync_around, "misses offered a read-around window")
RAP_STAT(async, "readahead marker hits offered a window")
RAP_STAT(mmap_hit, "mappings from the cache counted as mmap hits")
RAP_STAT(descending_thp, "windows replaced by descending_thp")
RAP_STAT(descending_seq, "windows replaced by descending_seq")
RAP_STAT(descending_around, "windows replaced by descending_around")
RAP_STAT(vma_limit, "windows bounded at the VMA end")
RAP_STAT(vma_clamp, "windows that the VMA bound cut short")
RAP_STAT(order_raise, "read-around windows with a raised folio order")
RAP_STAT(pmd_hit, "PMD mappings counted as mmap hits")
RAP_STAT(pages_read, "pages that mmap readahead added to the page cache")
RAP_STAT(bpf, "windows replaced by the BPF policy")
RAP_STAT(bpf_clamp, "BPF windows that the kernel's window check cut or refused")
RAP_STAT(bpf_eject, "BPF programs the watchdog ejected")
RAP_STAT(stream_sync, "windows the stream tracker read on a miss")
RAP_STAT(stream_async, "windows the stream tracker read on a hit of its marker")
RAP_STAT(stream_lookups, "readahead decisions the stream tracker took part in")
RAP_STAT(stream_cost, "nanoseconds the stream tracker spent on them (one in 16 timed)")
RAP_STAT(stream_evict, "live streams of other files a new stream took the way of")
RAP_STAT(stream_grow, "times the stream tracker's table doubled its sets")
RAP_STAT(stream_shrink, "times the stream tracker's table halved its sets by itself")
RAP_STAT(stream_bound, "faults the stream tracker left to stock at its bound on page-cache lookups")
RAP_STAT(random_fault, "misses random_miss read only the faulting page of")
RAP_STAT(random_return, "random files read-around came back to, on a run of misses")
RAP_STAT(random_credit, "mmap_miss increments random_miss took back")
RAP_STAT(random_marker, "marker hits of random files that read nothing more")
RAP_STAT(pressure_cut, "windows beyond stock's size cut to the memcg's headroom")
RAP_STAT(ledger_read, "pages windows added to the page cache, as the ledger recorded them")
RAP_STAT(ledger_used, "recorded pages that left the page cache used")
RAP_STAT(ledger_wasted, "recorded pages that left the page cache unused")
RAP_STAT(ledger_lost, "recorded pages the ledger's full table forgot before they left")

#undef RAP_POLICY
#undef RAP_KNOB
#undef RAP_STAT
