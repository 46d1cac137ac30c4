// SPDX-License-Identifier: GPL-2.0
/* Corpus: kernel-like layouts: ____cacheline_aligned, cache-line groups. */
#define L1_CACHE_BYTES 64
#define ____cacheline_aligned __attribute__((__aligned__(L1_CACHE_BYTES)))
#define __cacheline_group_begin(GROUP) __u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) __u8 __cacheline_group_end__##GROUP[0]

typedef unsigned char __u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef struct {
	long counter;
} atomic_long_t;
typedef struct {
	int counter;
} atomic_t;

struct list_head {
	struct list_head *next, *prev;
};

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

struct sched_entity;
struct cfs_rq;
struct rt_rq;

struct task_group_like {
	void *css[3];
	struct sched_entity **se;
	struct cfs_rq **cfs_rq;
	unsigned long shares;
	int idle;
	atomic_long_t load_avg ____cacheline_aligned;
	struct sched_entity **rt_se;
	struct rt_rq **rt_rq;
	struct rcu_head rcu;
	struct list_head list;
	struct task_group_like *parent;
	struct list_head siblings;
	struct list_head children;
};

struct sock_like {
	__cacheline_group_begin(read_mostly);
	u32 flags;
	const void *ops;
	u64 limit;
	__cacheline_group_end(read_mostly);

	__cacheline_group_begin(read_write) ____cacheline_aligned;
	atomic_t refcnt;
	u64 bytes;
	u32 segs;
	__cacheline_group_end(read_write);
	struct list_head node;
} ____cacheline_aligned;

struct percpu_like {
	struct list_head lists[4];
	int count ____cacheline_aligned;
	int high;
};

struct task_group_like task_group_like;
struct sock_like sock_like;
struct percpu_like percpu_like;
