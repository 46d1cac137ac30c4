/*
 * A stand-in for Linux 6.1's struct task_group on x86-64 with
 * FAIR_GROUP_SCHED and RT_GROUP_SCHED: the same member order, sizes and
 * alignment (load_avg cache-line aligned at 256, rt_se 264, rt_rq 272).
 */
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

struct cgroup_subsys_state {
	char opaque[200];
};

struct rt_bandwidth {
	char opaque[96];
};

struct cfs_bandwidth {
	char opaque[232];
};

struct task_group {
	struct cgroup_subsys_state css;
	void **se;
	void **cfs_rq;
	unsigned long shares;
	long load_avg __attribute__((aligned(64)));
	void **rt_se;
	void **rt_rq;
	struct rt_bandwidth rt_bandwidth;
	struct rcu_head rcu;
	struct list_head list;
	struct task_group *parent;
	struct list_head siblings;
	struct list_head children;
	void *autogroup;
	struct cfs_bandwidth cfs_bandwidth;
};

_Static_assert(offsetof(struct task_group, load_avg) == 256, "load_avg");
_Static_assert(offsetof(struct task_group, rt_se) == 264, "rt_se");
_Static_assert(offsetof(struct task_group, rt_rq) == 272, "rt_rq");
_Static_assert(sizeof(struct task_group) == 704, "size");

struct task_group root_task_group;
