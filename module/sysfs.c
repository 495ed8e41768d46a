// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: /sys/kernel/mm/rapolicy/ and the module parameters.
 *
 * Each policy is one file that shows its values THP-style ("off [folio]")
 * and takes one of them; anything else is -EINVAL and changes nothing.
 * Arm A's files are at the top, arm B's under ab/, the same parser behind
 * both and behind the module parameters (arm A), for modprobe.d.
 *
 *   rapolicy/{descending_thp,pmd_hit,descending_seq,vma_limit,
 *             sync_mmap_order,version}
 *   rapolicy/ab/{the policies of arm B, mode, cgroup, sample_permille, salt}
 *   rapolicy/stats/{counters of both arms, reset}, stats/a/, stats/b/
 */
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "rapolicy.h"

static struct rap_settings rap_settings[RAP_NR_ARMS];

/* Hooks read each setting once per decision; a switch takes effect at once */
void rap_settings_read(enum rap_arm arm, struct rap_settings *s)
{
	const struct rap_settings *cur = &rap_settings[arm];

	s->descending_thp = READ_ONCE(cur->descending_thp);
	s->pmd_hit = READ_ONCE(cur->pmd_hit);
	s->descending_seq = READ_ONCE(cur->descending_seq);
	s->vma_limit = READ_ONCE(cur->vma_limit);
	s->sync_mmap_order = READ_ONCE(cur->sync_mmap_order);
	s->descending_around = READ_ONCE(cur->descending_around);
	s->streams = READ_ONCE(cur->streams);
}

/* What a policy file is: its name, its values, its place in rap_settings */
struct rap_policy_kind {
	const char *name;
	const char * const *names;	/* named values, in enum order */
	unsigned int nr_names;
	bool orders;	/* also takes a folio order, 0..MAX_PAGECACHE_ORDER */
	size_t offset;	/* of its int in struct rap_settings */
};

static const char * const rap_off_folio_stream[] = { "off", "folio", "stream" };
static const char * const rap_off_on[] = { "off", "on" };
static const char * const rap_off_window_stream[] = { "off", "window", "stream" };
static const char * const rap_vma_limits[] = { "none", "always", "near_end" };
static const char * const rap_sync_orders[] = { "off", "fault_around" };

enum rap_policy_id {
	RAP_DESCENDING_THP,
	RAP_PMD_HIT,
	RAP_DESCENDING_SEQ,
	RAP_VMA_LIMIT,
	RAP_SYNC_MMAP_ORDER,
	RAP_DESCENDING_AROUND,
	RAP_STREAMS,
	RAP_NR_POLICIES
};

static const struct rap_policy_kind rap_policy_kinds[RAP_NR_POLICIES] = {
	[RAP_DESCENDING_THP] = {
		.name = "descending_thp",
		.names = rap_off_folio_stream,
		.nr_names = ARRAY_SIZE(rap_off_folio_stream),
		.offset = offsetof(struct rap_settings, descending_thp),
	},
	[RAP_PMD_HIT] = {
		.name = "pmd_hit",
		.names = rap_off_on,
		.nr_names = ARRAY_SIZE(rap_off_on),
		.offset = offsetof(struct rap_settings, pmd_hit),
	},
	[RAP_DESCENDING_SEQ] = {
		.name = "descending_seq",
		.names = rap_off_window_stream,
		.nr_names = ARRAY_SIZE(rap_off_window_stream),
		.offset = offsetof(struct rap_settings, descending_seq),
	},
	[RAP_VMA_LIMIT] = {
		.name = "vma_limit",
		.names = rap_vma_limits,
		.nr_names = ARRAY_SIZE(rap_vma_limits),
		.offset = offsetof(struct rap_settings, vma_limit),
	},
	[RAP_SYNC_MMAP_ORDER] = {
		.name = "sync_mmap_order",
		.names = rap_sync_orders,
		.nr_names = ARRAY_SIZE(rap_sync_orders),
		.orders = true,
		.offset = offsetof(struct rap_settings, sync_mmap_order),
	},
	[RAP_DESCENDING_AROUND] = {
		.name = "descending_around",
		.names = rap_off_window_stream,
		.nr_names = ARRAY_SIZE(rap_off_window_stream),
		.offset = offsetof(struct rap_settings, descending_around),
	},
	[RAP_STREAMS] = {
		.name = "streams",
		.names = rap_off_on,
		.nr_names = ARRAY_SIZE(rap_off_on),
		.offset = offsetof(struct rap_settings, streams),
	},
};

static int *rap_policy_value(const struct rap_policy_kind *kind,
			     enum rap_arm arm)
{
	return (int *)((char *)&rap_settings[arm] + kind->offset);
}

static int rap_policy_parse(const struct rap_policy_kind *kind,
			    const char *buf, int *value)
{
	unsigned int order;
	int i;

	i = __sysfs_match_string(kind->names, kind->nr_names, buf);
	if (i >= 0) {
		*value = i;
		return 0;
	}
	if (!kind->orders || kstrtouint(buf, 10, &order) ||
	    order > MAX_PAGECACHE_ORDER)
		return -EINVAL;
	*value = RAP_SYNC_ORDER_BASE + order;
	return 0;
}

static int rap_policy_set(const struct rap_policy_kind *kind, enum rap_arm arm,
			  const char *buf)
{
	int value, err;

	err = rap_policy_parse(kind, buf, &value);
	if (err)
		return err;
	WRITE_ONCE(*rap_policy_value(kind, arm), value);
	return 0;
}

/* All values on one line, the current one in brackets */
static ssize_t rap_policy_emit(const struct rap_policy_kind *kind,
			       enum rap_arm arm, char *buf)
{
	int cur = READ_ONCE(*rap_policy_value(kind, arm));
	unsigned int i, nr = kind->nr_names;
	ssize_t len = 0;

	if (kind->orders)
		nr += MAX_PAGECACHE_ORDER + 1;
	for (i = 0; i < nr; i++) {
		const char *sep = i ? " " : "";
		bool on = i == cur;

		if (i < kind->nr_names)
			len += sysfs_emit_at(buf, len, on ? "%s[%s]" : "%s%s",
					     sep, kind->names[i]);
		else
			len += sysfs_emit_at(buf, len, on ? "%s[%u]" : "%s%u",
					     sep, i - kind->nr_names);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/* A policy file of one arm */
struct rap_policy_attr {
	struct kobj_attribute attr;
	const struct rap_policy_kind *kind;
	enum rap_arm arm;
};

static struct rap_policy_attr rap_policy_attrs[RAP_NR_ARMS][RAP_NR_POLICIES];

static ssize_t rap_policy_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	const struct rap_policy_attr *pa =
		container_of(attr, struct rap_policy_attr, attr);

	return rap_policy_emit(pa->kind, pa->arm, buf);
}

static ssize_t rap_policy_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	const struct rap_policy_attr *pa =
		container_of(attr, struct rap_policy_attr, attr);
	int err = rap_policy_set(pa->kind, pa->arm, buf);

	return err ? err : count;
}

/* Module parameters: arm A's policies, set at load time */
static int rap_param_set(const char *val, const struct kernel_param *kp)
{
	return rap_policy_set(kp->arg, RAP_ARM_A, val);
}

static int rap_param_get(char *buffer, const struct kernel_param *kp)
{
	return rap_policy_emit(kp->arg, RAP_ARM_A, buffer);
}

static const struct kernel_param_ops rap_param_ops = {
	.set = rap_param_set,
	.get = rap_param_get,
};

module_param_cb(descending_thp, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_DESCENDING_THP], 0444);
MODULE_PARM_DESC(descending_thp,
		 "off | folio | stream: read the folio below descending VM_HUGEPAGE misses");
module_param_cb(pmd_hit, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_PMD_HIT], 0444);
MODULE_PARM_DESC(pmd_hit,
		 "off | on: a PMD mapping of the faulting address is an mmap hit");
module_param_cb(descending_seq, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_DESCENDING_SEQ], 0444);
MODULE_PARM_DESC(descending_seq,
		 "off | window | stream: read the window ending at descending VM_SEQ_READ misses");
module_param_cb(vma_limit, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_VMA_LIMIT], 0444);
MODULE_PARM_DESC(vma_limit,
		 "none | always | near_end: bound mmap readahead at the VMA end");
module_param_cb(sync_mmap_order, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_SYNC_MMAP_ORDER], 0444);
MODULE_PARM_DESC(sync_mmap_order,
		 "off | fault_around | 0..MAX_PAGECACHE_ORDER: folio order of mmap read-around");
module_param_cb(descending_around, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_DESCENDING_AROUND], 0444);
MODULE_PARM_DESC(descending_around,
		 "off | window | stream: read-around below descending misses");
module_param_cb(streams, &rap_param_ops,
		(void *)&rap_policy_kinds[RAP_STREAMS], 0444);
MODULE_PARM_DESC(streams,
		 "off | on: the stream tracker: several streams per file, either direction, strided");

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", RAPOLICY_VERSION);
}

static struct kobj_attribute rap_version_attr = __ATTR_RO(version);

static struct attribute *rap_arm_a_attrs[RAP_NR_POLICIES + 2];
static struct attribute *rap_arm_b_attrs[RAP_NR_POLICIES + 1];

static const struct attribute_group rap_arm_a_group = {
	.attrs = rap_arm_a_attrs,
};

/* Merged into ab/, which ab.c creates with the assignment files */
static const struct attribute_group rap_arm_b_group = {
	.name = "ab",
	.attrs = rap_arm_b_attrs,
};

/* stats/: one counter per file, named after enum rap_stat */
static const char * const rap_stat_names[RAP_STAT_NR] = {
	[RAP_STAT_SYNC_MISS] = "sync_miss",
	[RAP_STAT_SYNC_THP] = "sync_thp",
	[RAP_STAT_SYNC_SEQ] = "sync_seq",
	[RAP_STAT_SYNC_EXEC] = "sync_exec",
	[RAP_STAT_SYNC_AROUND] = "sync_around",
	[RAP_STAT_ASYNC] = "async",
	[RAP_STAT_MMAP_HIT] = "mmap_hit",
	[RAP_STAT_DESCENDING_THP] = "descending_thp",
	[RAP_STAT_DESCENDING_SEQ] = "descending_seq",
	[RAP_STAT_DESCENDING_AROUND] = "descending_around",
	[RAP_STAT_VMA_LIMIT] = "vma_limit",
	[RAP_STAT_VMA_CLAMP] = "vma_clamp",
	[RAP_STAT_ORDER_RAISE] = "order_raise",
	[RAP_STAT_PMD_HIT] = "pmd_hit",
	[RAP_STAT_PAGES_REQUESTED] = "pages_requested",
	[RAP_STAT_STREAM_SYNC] = "stream_sync",
	[RAP_STAT_STREAM_ASYNC] = "stream_async",
	[RAP_STAT_STREAM_LOOKUPS] = "stream_lookups",
	[RAP_STAT_STREAM_NS] = "stream_ns",
};

/* Counters of stats/ (both arms), stats/a/ and stats/b/ */
enum rap_stat_dir { RAP_STATS_A, RAP_STATS_B, RAP_STATS_BOTH, RAP_NR_STAT_DIRS };

struct rap_stat_attr {
	struct kobj_attribute attr;
	enum rap_stat_dir dir;
	enum rap_stat stat;
};

static struct rap_stat_attr rap_stat_attrs[RAP_NR_STAT_DIRS][RAP_STAT_NR];
static struct attribute *rap_stat_dir_attrs[RAP_NR_STAT_DIRS][RAP_STAT_NR + 2];

static ssize_t rap_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	const struct rap_stat_attr *sa =
		container_of(attr, struct rap_stat_attr, attr);
	u64 n;

	if (sa->dir == RAP_STATS_BOTH)
		n = rap_stat_sum(RAP_ARM_A, sa->stat) +
		    rap_stat_sum(RAP_ARM_B, sa->stat);
	else
		n = rap_stat_sum((enum rap_arm)sa->dir, sa->stat);
	return sysfs_emit(buf, "%llu\n", n);
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	bool reset;

	if (kstrtobool(buf, &reset) || !reset)
		return -EINVAL;
	rap_stats_reset();
	return count;
}

/* One reset for both arms, so their counts always cover the same time */
static struct kobj_attribute rap_stats_reset_attr = __ATTR_WO(reset);

static const struct attribute_group rap_stat_groups[RAP_NR_STAT_DIRS] = {
	[RAP_STATS_A] = { .name = "a", .attrs = rap_stat_dir_attrs[RAP_STATS_A] },
	[RAP_STATS_B] = { .name = "b", .attrs = rap_stat_dir_attrs[RAP_STATS_B] },
	[RAP_STATS_BOTH] = { .attrs = rap_stat_dir_attrs[RAP_STATS_BOTH] },
};

static const struct attribute_group *rap_stat_group_list[] = {
	&rap_stat_groups[RAP_STATS_BOTH],
	&rap_stat_groups[RAP_STATS_A],
	&rap_stat_groups[RAP_STATS_B],
	NULL,
};

static void rap_attr_init(struct kobj_attribute *attr, const char *name,
			  umode_t mode)
{
	sysfs_attr_init(&attr->attr);
	attr->attr.name = name;
	attr->attr.mode = mode;
}

static void rap_policy_attrs_init(void)
{
	struct attribute **lists[RAP_NR_ARMS] = {
		rap_arm_a_attrs, rap_arm_b_attrs,
	};
	int arm, i;

	for (arm = 0; arm < RAP_NR_ARMS; arm++) {
		for (i = 0; i < RAP_NR_POLICIES; i++) {
			struct rap_policy_attr *pa = &rap_policy_attrs[arm][i];

			pa->kind = &rap_policy_kinds[i];
			pa->arm = arm;
			rap_attr_init(&pa->attr, pa->kind->name, 0644);
			pa->attr.show = rap_policy_show;
			pa->attr.store = rap_policy_store;
			lists[arm][i] = &pa->attr.attr;
		}
	}
	rap_arm_a_attrs[RAP_NR_POLICIES] = &rap_version_attr.attr;
}

static void rap_stat_attrs_init(void)
{
	int dir, i;

	for (dir = 0; dir < RAP_NR_STAT_DIRS; dir++) {
		for (i = 0; i < RAP_STAT_NR; i++) {
			struct rap_stat_attr *sa = &rap_stat_attrs[dir][i];

			rap_attr_init(&sa->attr, rap_stat_names[i], 0444);
			sa->attr.show = rap_stat_show;
			sa->dir = dir;
			sa->stat = i;
			rap_stat_dir_attrs[dir][i] = &sa->attr.attr;
		}
	}
	rap_stat_dir_attrs[RAP_STATS_BOTH][RAP_STAT_NR] =
		&rap_stats_reset_attr.attr;
}

static struct kobject *rap_kobj;
static struct kobject *rap_stats_kobj;

int rap_sysfs_init(void)
{
	int err = -ENOMEM;

	rap_policy_attrs_init();
	rap_stat_attrs_init();

	rap_kobj = kobject_create_and_add("rapolicy", mm_kobj);
	if (!rap_kobj)
		return -ENOMEM;
	err = sysfs_create_group(rap_kobj, &rap_arm_a_group);
	if (err)
		goto put_kobj;
	err = sysfs_create_group(rap_kobj, &rap_ab_group);
	if (err)
		goto put_kobj;
	err = sysfs_merge_group(rap_kobj, &rap_arm_b_group);
	if (err)
		goto put_kobj;

	rap_stats_kobj = kobject_create_and_add("stats", rap_kobj);
	if (!rap_stats_kobj) {
		err = -ENOMEM;
		goto put_kobj;
	}
	err = sysfs_create_groups(rap_stats_kobj, rap_stat_group_list);
	if (err)
		goto put_stats_kobj;
	return 0;

put_stats_kobj:
	kobject_put(rap_stats_kobj);
	rap_stats_kobj = NULL;
put_kobj:
	/* Removing the directory removes the groups created in it */
	kobject_put(rap_kobj);
	rap_kobj = NULL;
	return err;
}

void rap_sysfs_exit(void)
{
	kobject_put(rap_stats_kobj);
	rap_stats_kobj = NULL;
	kobject_put(rap_kobj);
	rap_kobj = NULL;
}
