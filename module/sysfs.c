// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: /sys/kernel/mm/rapolicy/ and the module parameters.
 *
 * Each policy is one file that shows its values THP-style ("off [folio]")
 * and takes one of them; anything else fails and changes nothing: a value
 * of table.h that this kernel cannot honour (rap_order_honoured()) is
 * not shown and fails with -EOPNOTSUPP, anything else with -EINVAL. The
 * files, the module parameters (arm A, for modprobe.d) and the counters
 * come from table.h. One kobject per directory, as mm/damon/sysfs.c has
 * them; an attribute shared by several directories finds its arm from
 * the kobject it is read through:
 *
 *   rapolicy/             arm A's policies, streams_max_kb, streams_bytes,
 *                         version
 *   rapolicy/ab/          arm B's policies, streams_max_kb, streams_bytes,
 *                         mode, cgroup, sample_permille, salt
 *   rapolicy/stats/       counters of both arms, reset, elapsed_ms,
 *                         settings_changed, buckets, streams_flush
 *   rapolicy/stats/{a,b}/ counters of one arm
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "compat.h"
#include "rapolicy.h"

static struct rap_settings rap_settings[RAP_NR_ARMS];

static struct kobject *rap_kobj, *rap_ab_kobj;
static struct kobject *rap_stats_kobj, *rap_stats_arm_kobj[RAP_NR_ARMS];

static atomic64_t rap_changes = ATOMIC64_INIT(0);

/* A write that changed a setting of either arm or of ab/ */
void rap_settings_changed(void)
{
	atomic64_inc(&rap_changes);
	rap_hooks_update();
}

u64 rap_settings_changes(void)
{
	return atomic64_read(&rap_changes);
}

/* Hooks read each setting once per decision; a switch takes effect at once */
void rap_settings_read(enum rap_arm arm, struct rap_settings *s)
{
	const struct rap_settings *cur = &rap_settings[arm];

#define RAP_POLICY(name, orders, help, ...) s->name = READ_ONCE(cur->name);
#include "table.h"
}

/*
 * Where @arm's setting of policy @id lives, for a hook that reads a few
 * settings alone: with READ_ONCE(), as rap_settings_read() reads them
 */
const int *rap_setting_ptr(enum rap_arm arm, enum rap_policy_id id)
{
	const struct rap_settings *cur = &rap_settings[arm];

	switch (id) {
#define RAP_POLICY(name, orders, help, ...)				\
	case RAP_POL_##name:						\
		return &cur->name;
#include "table.h"
	default:
		return NULL;
	}
}

/* A policy file: its values and its place in struct rap_settings */
struct rap_policy_attr {
	struct kobj_attribute attr;
	const char * const *names;	/* named values, in enum order */
	unsigned int nr_names;
	bool orders;	/* also takes a folio order, 0..MAX_PAGECACHE_ORDER */
	size_t offset;	/* of its int in struct rap_settings */
};

static ssize_t rap_policy_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf);
static ssize_t rap_policy_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count);

#define RAP_POLICY(name, _orders, help, ...)				\
static const char * const rap_##name##_names[] = { __VA_ARGS__ };	\
static struct rap_policy_attr rap_##name##_attr = {			\
	.attr = __ATTR(name, 0644, rap_policy_show, rap_policy_store),	\
	.names = rap_##name##_names,					\
	.nr_names = ARRAY_SIZE(rap_##name##_names),			\
	.orders = _orders,						\
	.offset = offsetof(struct rap_settings, name),			\
};

#include "table.h"

static enum rap_arm rap_kobj_arm(struct kobject *kobj)
{
	return kobj == rap_ab_kobj ? RAP_ARM_B : RAP_ARM_A;
}

static int *rap_policy_value(const struct rap_policy_attr *pa,
			     enum rap_arm arm)
{
	return (int *)((char *)&rap_settings[arm] + pa->offset);
}

static int rap_policy_parse(const struct rap_policy_attr *pa,
			    const char *buf, int *value)
{
	unsigned int order;
	int i, err;

	i = __sysfs_match_string(pa->names, pa->nr_names, buf);
	if (i >= 0) {
		*value = i;
		return 0;
	}
	if (!pa->orders)
		return -EINVAL;
	err = kstrtouint(buf, 10, &order);
	if (err)
		return err;
	if (order > MAX_PAGECACHE_ORDER)
		return -EINVAL;
	if (!rap_order_honoured(order))
		return -EOPNOTSUPP;
	*value = rap_order_value(pa->nr_names, order);
	return 0;
}

static int rap_policy_set(const struct rap_policy_attr *pa, enum rap_arm arm,
			  const char *buf)
{
	int *cur = rap_policy_value(pa, arm);
	int value, err;

	err = rap_policy_parse(pa, buf, &value);
	if (err)
		return err;
	if (xchg(cur, value) != value)
		rap_settings_changed();
	return 0;
}

/* The values this kernel honours on one line, the current one in brackets */
static ssize_t rap_policy_emit(const struct rap_policy_attr *pa,
			       enum rap_arm arm, char *buf)
{
	int cur = READ_ONCE(*rap_policy_value(pa, arm));
	unsigned int i, nr = pa->nr_names;
	ssize_t len = 0;

	if (pa->orders)
		nr += MAX_PAGECACHE_ORDER + 1;
	for (i = 0; i < nr; i++) {
		const char *sep = i ? " " : "";
		unsigned int order = i - pa->nr_names;
		bool on;

		if (i < pa->nr_names) {
			on = i == cur;
			len += sysfs_emit_at(buf, len, on ? "%s[%s]" : "%s%s",
					     sep, pa->names[i]);
		} else if (rap_order_honoured(order)) {
			on = cur == rap_order_value(pa->nr_names, order);
			len += sysfs_emit_at(buf, len, on ? "%s[%u]" : "%s%u",
					     sep, order);
		}
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t rap_policy_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return rap_policy_emit(container_of(attr, struct rap_policy_attr, attr),
			       rap_kobj_arm(kobj), buf);
}

static ssize_t rap_policy_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	int err = rap_policy_set(container_of(attr, struct rap_policy_attr,
					      attr),
				 rap_kobj_arm(kobj), buf);

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

#define RAP_POLICY(name, orders, help, ...)				\
	module_param_cb(name, &rap_param_ops, &rap_##name##_attr, 0444);	\
	MODULE_PARM_DESC(name, help);
#include "table.h"

/* rapolicy/ and ab/: the policy files of the directory's arm */
static struct attribute *rap_policy_attrs[] = {
#define RAP_POLICY(name, orders, help, ...) &rap_##name##_attr.attr.attr,
#include "table.h"
	NULL,
};

static const struct attribute_group rap_policy_group = {
	.attrs = rap_policy_attrs,
};

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", RAPOLICY_VERSION);
}

static struct kobj_attribute rap_version_attr = __ATTR_RO(version);

static struct attribute *rap_top_attrs[] = {
	&rap_version_attr.attr,
	NULL,
};

static const struct attribute_group rap_top_group = {
	.attrs = rap_top_attrs,
};

/* The bound on the directory's arm's stream table, in KiB */
static ssize_t streams_max_kb_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", rap_tracker_max_kb(rap_kobj_arm(kobj)));
}

static ssize_t streams_max_kb_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	enum rap_arm arm = rap_kobj_arm(kobj);
	unsigned int kb, old = rap_tracker_max_kb(arm);
	int err;

	err = kstrtouint(buf, 10, &kb);
	if (err)
		return err;
	err = rap_tracker_set_max_kb(arm, kb);
	if (err)
		return err;
	if (kb != old)
		rap_settings_changed();
	return count;
}

/* The size of the directory's arm's stream table now, in bytes */
static ssize_t streams_bytes_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%zu\n", rap_tracker_bytes(rap_kobj_arm(kobj)));
}

static struct kobj_attribute rap_streams_max_kb_attr =
	__ATTR_RW(streams_max_kb);
static struct kobj_attribute rap_streams_bytes_attr = __ATTR_RO(streams_bytes);

/* rapolicy/ and ab/: the numbers of the directory's arm, table.h's knobs */
static struct attribute *rap_knob_attrs[] = {
#define RAP_KNOB(name, settable, at_load, unit, help) &rap_##name##_attr.attr,
#include "table.h"
	NULL,
};

static const struct attribute_group rap_knob_group = {
	.attrs = rap_knob_attrs,
};

static const struct attribute_group *rap_arm_a_groups[] = {
	&rap_policy_group,
	&rap_knob_group,
	&rap_top_group,
	&rap_bpf_group,
	NULL,
};

static const struct attribute_group *rap_ab_groups[] = {
	&rap_policy_group,
	&rap_knob_group,
	&rap_ab_group,
	NULL,
};

/* A counter file, in stats/ (both arms) and in stats/a/ and stats/b/ */
struct rap_stat_attr {
	struct kobj_attribute attr;
	enum rap_stat stat;
};

static ssize_t rap_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	enum rap_stat stat = container_of(attr, struct rap_stat_attr,
					  attr)->stat;
	u64 n;

	if (kobj == rap_stats_arm_kobj[RAP_ARM_A])
		n = rap_stat_sum(RAP_ARM_A, stat);
	else if (kobj == rap_stats_arm_kobj[RAP_ARM_B])
		n = rap_stat_sum(RAP_ARM_B, stat);
	else
		n = rap_stat_sum(RAP_ARM_A, stat) +
		    rap_stat_sum(RAP_ARM_B, stat);
	return sysfs_emit(buf, "%llu\n", n);
}

#define RAP_STAT(name, help)						\
static struct rap_stat_attr rap_stat_##name##_attr = {			\
	.attr = __ATTR(name, 0444, rap_stat_show, NULL),		\
	.stat = RAP_STAT_##name,					\
};

#include "table.h"

static struct attribute *rap_stat_attrs[] = {
#define RAP_STAT(name, help) &rap_stat_##name##_attr.attr.attr,
#include "table.h"
	NULL,
};

static const struct attribute_group rap_stat_group = {
	.attrs = rap_stat_attrs,
};

/*
 * The ledger per decider, one line each: "name read used wasted lost",
 * stock's window first, then each policy of table.h that decided a
 * window (ra_policy_window.by); a table like buckets, read at once.
 */
static ssize_t ledger_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	bool arm[RAP_NR_ARMS] = {
		kobj != rap_stats_arm_kobj[RAP_ARM_B],
		kobj != rap_stats_arm_kobj[RAP_ARM_A],
	};
	u64 n[RAP_LEDGER_NR];
	unsigned int d, a, i;
	ssize_t len = 0;

	for (d = 0; d < RAP_LEDGER_DECIDERS; d++) {
		for (i = 0; i < RAP_LEDGER_NR; i++)
			for (n[i] = 0, a = 0; a < RAP_NR_ARMS; a++)
				if (arm[a])
					n[i] += rap_ledger_sum(a, d, i);
		len += sysfs_emit_at(buf, len, "%s %llu %llu %llu %llu\n",
				     rap_ledger_deciders[d], n[RAP_LEDGER_read],
				     n[RAP_LEDGER_used], n[RAP_LEDGER_wasted],
				     n[RAP_LEDGER_lost]);
	}
	return len;
}

static struct kobj_attribute rap_ledger_attr = __ATTR_RO(ledger);

static struct attribute *rap_ledger_attrs[] = {
	&rap_ledger_attr.attr,
	NULL,
};

static const struct attribute_group rap_ledger_group = {
	.attrs = rap_ledger_attrs,
};

static const struct attribute_group *rap_stat_groups[] = {
	&rap_stat_group,
	&rap_ledger_group,
	NULL,
};

/* One reset for both arms, so their counts always cover the same time */
static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	bool reset;
	int err;

	err = kstrtobool(buf, &reset);
	if (err)
		return err;
	if (!reset)
		return -EINVAL;
	rap_stats_reset();
	atomic64_set(&rap_changes, 0);
	return count;
}

/*
 * Drop the stream tracker's streams of both arms, so that counts start
 * from none, as reset starts the counters
 */
static ssize_t streams_flush_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	bool flush;
	int err;

	err = kstrtobool(buf, &flush);
	if (err)
		return err;
	if (!flush)
		return -EINVAL;
	rap_tracker_flush(RAP_ARM_A);
	rap_tracker_flush(RAP_ARM_B);
	return count;
}

static ssize_t elapsed_ms_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rap_stats_elapsed_ms());
}

static ssize_t settings_changed_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rap_settings_changes());
}

/*
 * One line per A/B bucket: "index arm sync_miss pages_read". A table
 * rather than a file per value, like /proc/vmstat: an analysis needs all
 * buckets' counts from one read, not 128 files read at different times.
 */
static ssize_t buckets_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = 0; i < RAP_AB_BUCKETS; i++)
		len += sysfs_emit_at(buf, len, "%u %c %llu %llu\n", i,
				     rap_ab_bucket_arm(i),
				     rap_bucket_sum(i, RAP_BUCKET_sync_miss),
				     rap_bucket_sum(i, RAP_BUCKET_pages_read));
	return len;
}

static struct kobj_attribute rap_reset_attr = __ATTR_WO(reset);
static struct kobj_attribute rap_buckets_attr = __ATTR_RO(buckets);
static struct kobj_attribute rap_elapsed_attr = __ATTR_RO(elapsed_ms);
static struct kobj_attribute rap_changed_attr = __ATTR_RO(settings_changed);
static struct kobj_attribute rap_streams_flush_attr = __ATTR_WO(streams_flush);

static struct attribute *rap_stats_ctl_attrs[] = {
	&rap_reset_attr.attr,
	&rap_elapsed_attr.attr,
	&rap_changed_attr.attr,
	&rap_buckets_attr.attr,
	&rap_streams_flush_attr.attr,
	NULL,
};

static const struct attribute_group rap_stats_ctl_group = {
	.attrs = rap_stats_ctl_attrs,
};

static const struct attribute_group *rap_stats_groups[] = {
	&rap_stat_group,
	&rap_ledger_group,
	&rap_stats_ctl_group,
	NULL,
};

/* A directory under @parent with @groups; NULL on failure */
static struct kobject *rap_dir_create(const char *name, struct kobject *parent,
				      const struct attribute_group **groups)
{
	struct kobject *kobj = kobject_create_and_add(name, parent);

	if (!kobj)
		return NULL;
	if (sysfs_create_groups(kobj, groups)) {
		kobject_put(kobj);
		return NULL;
	}
	return kobj;
}

int rap_sysfs_init(void)
{
	static const char * const arm_names[RAP_NR_ARMS] = { "a", "b" };
	int arm;

	/* Module parameters are the settings the counters start from */
	atomic64_set(&rap_changes, 0);
	rap_kobj = rap_dir_create("rapolicy", mm_kobj, rap_arm_a_groups);
	if (!rap_kobj)
		return -ENOMEM;
	rap_ab_kobj = rap_dir_create("ab", rap_kobj, rap_ab_groups);
	if (!rap_ab_kobj)
		goto fail;
	rap_stats_kobj = rap_dir_create("stats", rap_kobj, rap_stats_groups);
	if (!rap_stats_kobj)
		goto fail;
	for (arm = 0; arm < RAP_NR_ARMS; arm++) {
		rap_stats_arm_kobj[arm] = rap_dir_create(arm_names[arm],
							 rap_stats_kobj,
							 rap_stat_groups);
		if (!rap_stats_arm_kobj[arm])
			goto fail;
	}
	return 0;

fail:
	rap_sysfs_exit();
	return -ENOMEM;
}

/* Children first; kobject_put(NULL) is a no-op */
void rap_sysfs_exit(void)
{
	int arm;

	for (arm = 0; arm < RAP_NR_ARMS; arm++) {
		kobject_put(rap_stats_arm_kobj[arm]);
		rap_stats_arm_kobj[arm] = NULL;
	}
	kobject_put(rap_stats_kobj);
	rap_stats_kobj = NULL;
	kobject_put(rap_ab_kobj);
	rap_ab_kobj = NULL;
	kobject_put(rap_kobj);
	rap_kobj = NULL;
}
