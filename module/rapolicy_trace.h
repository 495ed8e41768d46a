/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy's trace event: pages a readahead window read leave the page
 * cache (module/ledger.c, docs/LEDGER.md). It sits beside the series'
 * readahead_policy:readahead_policy_window, which says who read them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rapolicy

#if !defined(_RAPOLICY_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RAPOLICY_TRACE_H

#include <linux/fs.h>
#include <linux/tracepoint.h>

/*
 * @pages pages of @mapping from @index on (within one 64-page block of
 * the ledger), read by windows that @by decided ("stock" when no policy
 * did) for @arm, leave the page cache; @used says whether their folio
 * was accessed (rap_ledger_used()).
 */
TRACE_EVENT(rapolicy_ledger,
	    TP_PROTO(const struct address_space *mapping, pgoff_t index,
		     unsigned int pages, unsigned int arm, const char *by,
		     bool used),

	    TP_ARGS(mapping, index, pages, arm, by, used),

	    TP_STRUCT__entry(__field(u64, i_ino)
			     __field(dev_t, s_dev)
			     __field(pgoff_t, index)
			     __field(unsigned int, pages)
			     __field(unsigned int, arm)
			     __field(bool, used)
			     __string(by, by)),

	    TP_fast_assign(__entry->i_ino = mapping->host->i_ino;
			   __entry->s_dev = mapping->host->i_sb->s_dev;
			   __entry->index = index;
			   __entry->pages = pages;
			   __entry->arm = arm;
			   __entry->used = used;
			   __assign_str(by);),

	    TP_printk("dev=%d:%d ino=%llx by=%s arm=%u index=%lu pages=%u %s",
		      MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		      __entry->i_ino, __get_str(by), __entry->arm,
		      __entry->index, __entry->pages,
		      __entry->used ? "used" : "wasted")
);

#endif /* _RAPOLICY_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rapolicy_trace
#include <trace/define_trace.h>
