/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-ins for the kernel types that struct task_group embeds, with the
 * sizes, alignments and member order they have in Linux 6.1 on x86-64
 * (defconfig + CGROUP_SCHED, FAIR_GROUP_SCHED, RT_GROUP_SCHED,
 * CFS_BANDWIDTH; no lock debugging). The embedded types carry the same
 * names as in the kernel so that a layout printed from this sample's DWARF
 * reads like one printed from kernel/sched/core.o.
 *
 * Only the layout matters here: the model never uses these members. The
 * _Static_asserts at the end pin every size the layout of task_group
 * depends on.
 */
#ifndef SCHED_CORE_KERNEL_TYPES_H
#define SCHED_CORE_KERNEL_TYPES_H

#include <stddef.h>

typedef unsigned char u8;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;
typedef s64 ktime_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

typedef atomic64_t atomic_long_t;

/* A queued spinlock without lock debugging is one 32-bit word. */
typedef struct raw_spinlock {
	unsigned int raw_lock;
} raw_spinlock_t;

struct list_head {
	struct list_head *next, *prev;
};

/* The kernel forces pointer alignment on these (include/linux/types.h). */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
} __attribute__((aligned(sizeof(void *))));
#define rcu_head callback_head

struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct percpu_ref_data;
struct percpu_ref {
	unsigned long percpu_count_ptr;
	struct percpu_ref_data *data;
};

struct work_struct {
	atomic_long_t data;
	struct list_head entry;
	void (*func)(struct work_struct *work);
};

struct workqueue_struct;
struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};

struct cgroup;
struct cgroup_subsys;
struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys *ss;
	struct percpu_ref refcnt;
	struct list_head sibling;
	struct list_head children;
	struct list_head rstat_css_node;
	int id;
	unsigned int flags;
	u64 serial_nr;
	atomic_t online_cnt;
	struct work_struct destroy_work;
	struct rcu_work destroy_rwork;
	struct cgroup_subsys_state *parent;
};

struct timerqueue_node {
	struct rb_node node;
	ktime_t expires;
};

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };

struct hrtimer_clock_base;
struct hrtimer {
	struct timerqueue_node node;
	ktime_t _softexpires;
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	struct hrtimer_clock_base *base;
	u8 state;
	u8 is_rel;
	u8 is_soft;
	u8 is_hard;
};

struct rt_bandwidth {
	raw_spinlock_t rt_runtime_lock;
	ktime_t rt_period;
	u64 rt_runtime;
	struct hrtimer rt_period_timer;
	unsigned int rt_period_active;
};

struct cfs_bandwidth {
	raw_spinlock_t lock;
	ktime_t period;
	u64 quota;
	u64 runtime;
	u64 burst;
	u64 runtime_snap;
	s64 hierarchical_quota;
	u8 idle;
	u8 period_active;
	u8 slack_started;
	struct hrtimer period_timer;
	struct hrtimer slack_timer;
	struct list_head throttled_cfs_rq;
	int nr_periods;
	int nr_throttled;
	int nr_burst;
	u64 throttled_time;
	u64 burst_time;
};

/* The sizes Linux 6.1 has on x86-64 (pahole on kernel/sched/core.o). */
_Static_assert(sizeof(struct callback_head) == 16, "callback_head is 16 bytes");
_Static_assert(sizeof(struct cgroup_subsys_state) == 200, "css is 200 bytes in 6.1");
_Static_assert(offsetof(struct cgroup_subsys_state, destroy_rwork) == 136, "css.destroy_rwork");
_Static_assert(sizeof(struct hrtimer) == 64, "hrtimer is 64 bytes");
_Static_assert(sizeof(struct rt_bandwidth) == 96, "rt_bandwidth is 96 bytes");
_Static_assert(sizeof(struct cfs_bandwidth) == 240, "cfs_bandwidth is 240 bytes");
_Static_assert(_Alignof(struct cfs_bandwidth) == 8, "cfs_bandwidth is 8-aligned");

#endif
