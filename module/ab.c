// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: A/B assignment. Arm A is the top-level policy set, arm B the
 * one under ab/. ab/mode chooses how a fault picks its arm:
 *
 *   off     every fault uses arm A
 *   cgroup  faults of tasks in ab/cgroup or below it use arm B; with
 *           ab/cgroup empty, cgroups hash into the buckets by their id,
 *           and those of ab/salt's buckets use arm B (as files in sample
 *           mode: an experiment over cgroups)
 *   sample  a file is in arm B when its bucket is: a hash of (device,
 *           inode) keyed by ab/key picks one of RAP_AB_BUCKETS buckets,
 *           and ab/salt draws ab/sample_permille of the buckets for arm B
 *
 * Every fault also counts in the bucket of its unit (stats/buckets): the
 * file's in off and sample mode, the faulting task's cgroup's in cgroup
 * mode. In sample mode the buckets are the randomization unit, and an
 * analysis over them is valid by construction (see docs/AB.md).
 *
 * The fault path reads the assignment locklessly: each setting with
 * READ_ONCE(), the cgroup under RCU. Writers serialise on rap_ab_mutex and
 * drop the old cgroup's reference only after a grace period.
 */
#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "compat.h"
#include "rapolicy.h"

enum rap_ab_mode { RAP_AB_OFF, RAP_AB_CGROUP, RAP_AB_SAMPLE };

static const char * const rap_ab_modes[] = { "off", "cgroup", "sample" };

static int rap_ab_mode;
static unsigned int rap_ab_permille;
static u64 rap_ab_salt;
static u64 rap_ab_key;		/* of the bucket hash: one per experiment */
static u64 rap_ab_bmask;	/* arm B's buckets: rap_ab_mask(salt, permille) */
static struct cgroup __rcu *rap_ab_cgroup;
static DEFINE_MUTEX(rap_ab_mutex);

/* Cgroups hash into buckets apart from any device's files */
#define RAP_AB_CGROUP_NS	(~0ULL)

/* Called from the hooks, under rcu_read_lock(), with @file held */
struct rap_unit rap_unit_of(const struct file *file)
{
	const struct inode *inode = file_inode(file);
	struct rap_unit u = { .arm = RAP_ARM_A };
	u64 key = READ_ONCE(rap_ab_key);
	struct cgroup *cgrp;

	switch (READ_ONCE(rap_ab_mode)) {
	case RAP_AB_CGROUP:
		u.bucket = rap_ab_bucket(key, RAP_AB_CGROUP_NS,
					 cgroup_id(task_dfl_cgroup(current)));
		cgrp = rcu_dereference(rap_ab_cgroup);
		if (cgrp ? task_under_cgroup_hierarchy(current, cgrp) :
			   READ_ONCE(rap_ab_bmask) >> u.bucket & 1)
			u.arm = RAP_ARM_B;
		return u;
	case RAP_AB_SAMPLE:
		u.bucket = rap_ab_bucket(key, inode->i_sb->s_dev, inode->i_ino);
		if (READ_ONCE(rap_ab_bmask) >> u.bucket & 1)
			u.arm = RAP_ARM_B;
		return u;
	default:
		u.bucket = rap_ab_bucket(key, inode->i_sb->s_dev, inode->i_ino);
		return u;
	}
}

/*
 * The arm alone, for the hooks that count per arm but not per bucket (the
 * window and hit hooks): with the mode off every fault is arm A's, and
 * the bucket hash is not computed
 */
enum rap_arm rap_arm_of(const struct file *file)
{
	if (READ_ONCE(rap_ab_mode) == RAP_AB_OFF)
		return RAP_ARM_A;
	return rap_unit_of(file).arm;
}

/*
 * The arm of @bucket's faults for stats/buckets: 'a' or 'b' in sample
 * mode and in cgroup mode without ab/cgroup, 'a' with the mode off, '-'
 * in cgroup mode with ab/cgroup, where a bucket's cgroups need not all
 * be in one arm.
 */
char rap_ab_bucket_arm(unsigned int bucket)
{
	switch (READ_ONCE(rap_ab_mode)) {
	case RAP_AB_CGROUP:
		if (rcu_access_pointer(rap_ab_cgroup))
			return '-';
		fallthrough;
	case RAP_AB_SAMPLE:
		return READ_ONCE(rap_ab_bmask) >> bucket & 1 ? 'b' : 'a';
	default:
		return 'a';
	}
}

/* Under rap_ab_mutex: after a change of the salt or of the permille */
static void rap_ab_update_mask(void)
{
	lockdep_assert_held(&rap_ab_mutex);
	WRITE_ONCE(rap_ab_bmask, rap_ab_mask(rap_ab_salt, rap_ab_permille));
}

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	int cur = READ_ONCE(rap_ab_mode);
	ssize_t len = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(rap_ab_modes); i++)
		len += sysfs_emit_at(buf, len, i == cur ? "%s[%s]" : "%s%s",
				     i ? " " : "", rap_ab_modes[i]);
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t mode_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	int mode = sysfs_match_string(rap_ab_modes, buf);

	if (mode < 0)
		return mode;
	if (xchg(&rap_ab_mode, mode) != mode)
		rap_settings_changed();
	return count;
}

static ssize_t cgroup_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct cgroup *cgrp;
	ssize_t len = 0;

	mutex_lock(&rap_ab_mutex);
	cgrp = rcu_dereference_protected(rap_ab_cgroup,
					 lockdep_is_held(&rap_ab_mutex));
	if (cgrp) {
		len = cgroup_path(cgrp, buf, PAGE_SIZE);
		if (len < 0 || len >= PAGE_SIZE - 12)
			len = sysfs_emit(buf, "?");
		/* rmdir takes the cgroup offline; our reference keeps it */
		if (rap_cgroup_is_dead(cgrp))
			len += sysfs_emit_at(buf, len, " (removed)");
	}
	len += sysfs_emit_at(buf, len, "\n");
	mutex_unlock(&rap_ab_mutex);
	return len;
}

/* Swap in @cgrp (may be NULL); the old one is put after a grace period */
static void rap_ab_set_cgroup(struct cgroup *cgrp)
{
	struct cgroup *old;

	mutex_lock(&rap_ab_mutex);
	old = rcu_replace_pointer(rap_ab_cgroup, cgrp,
				  lockdep_is_held(&rap_ab_mutex));
	mutex_unlock(&rap_ab_mutex);
	if (old) {
		synchronize_rcu();
		cgroup_put(old);
	}
}

/* A cgroup v2 path ("/batch/loaders"), or an empty line to clear */
static ssize_t cgroup_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	struct cgroup *cgrp = NULL;
	char *path;

	path = kstrndup(buf, count, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	strim(path);
	if (*path) {
		cgrp = cgroup_get_from_path(path);
		if (IS_ERR(cgrp)) {
			kfree(path);
			return PTR_ERR(cgrp);
		}
	}
	kfree(path);
	rap_ab_set_cgroup(cgrp);
	rap_settings_changed();
	return count;
}

static ssize_t sample_permille_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(rap_ab_permille));
}

static ssize_t sample_permille_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	unsigned int permille;
	int err;

	err = kstrtouint(buf, 10, &permille);
	if (err)
		return err;
	if (permille > 1000)
		return -EINVAL;
	mutex_lock(&rap_ab_mutex);
	if (xchg(&rap_ab_permille, permille) != permille) {
		rap_ab_update_mask();
		rap_settings_changed();
	}
	mutex_unlock(&rap_ab_mutex);
	return count;
}

static ssize_t salt_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(rap_ab_salt));
}

static ssize_t salt_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	u64 salt;
	int err;

	err = kstrtou64(buf, 0, &salt);
	if (err)
		return err;
	mutex_lock(&rap_ab_mutex);
	if (xchg(&rap_ab_salt, salt) != salt) {
		rap_ab_update_mask();
		rap_settings_changed();
	}
	mutex_unlock(&rap_ab_mutex);
	return count;
}

static ssize_t key_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(rap_ab_key));
}

/* A new key moves every unit to another bucket: a settings change */
static ssize_t key_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	u64 key;
	int err;

	err = kstrtou64(buf, 0, &key);
	if (err)
		return err;
	if (xchg(&rap_ab_key, key) != key)
		rap_settings_changed();
	return count;
}

static struct kobj_attribute rap_ab_mode_attr = __ATTR_RW(mode);
static struct kobj_attribute rap_ab_cgroup_attr = __ATTR_RW(cgroup);
static struct kobj_attribute rap_ab_permille_attr = __ATTR_RW(sample_permille);
static struct kobj_attribute rap_ab_salt_attr = __ATTR_RW(salt);
static struct kobj_attribute rap_ab_key_attr = __ATTR_RW(key);

/* ab/: the assignment files here, arm B's policy files from sysfs.c */
static struct attribute *rap_ab_attrs[] = {
	&rap_ab_mode_attr.attr,
	&rap_ab_cgroup_attr.attr,
	&rap_ab_permille_attr.attr,
	&rap_ab_salt_attr.attr,
	&rap_ab_key_attr.attr,
	NULL,
};

const struct attribute_group rap_ab_group = {
	.attrs = rap_ab_attrs,
};

/* After the hooks are gone: drop the assigned cgroup's reference */
void rap_ab_exit(void)
{
	WRITE_ONCE(rap_ab_mode, RAP_AB_OFF);
	rap_ab_set_cgroup(NULL);
}
