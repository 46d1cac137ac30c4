/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-core's scheduler state: the 6.1 structures the wakeup path uses
 * (struct task_group itself is task_group.h), the model's cpus and run
 * parameters, and the functions sched_main.c drives (sched_core.c).
 */
#ifndef SCHED_CORE_H
#define SCHED_CORE_H

#include <pthread.h>
#include <stdint.h>

#include "task_group.h"

#if defined(__clang__)
#define SCHED_FN __attribute__((noinline))
#else
/* noipa: no inlining, no clones (.constprop/.isra), so the names stay. */
#define SCHED_FN __attribute__((noipa))
#endif

/*
 * TG_RATELIMIT: update_tg_load_avg() publishes at most once per ms of the
 * cpu's clock per cfs_rq, as Linux does since 6.7 (commit 1528c661c24b,
 * "sched/fair: Ratelimit update to tg->load_avg"). The layout stays
 * upstream's.
 */
#ifdef TG_RATELIMIT
#define MODEL_NAME "ratelimited"
#else
#define MODEL_NAME TG_LAYOUT_NAME
#endif

#define CACHELINE 64
#define NICE_0_LOAD 1024L
#define MIN_SHARES 2L
#define UPDATE_TG 0x1
#define DO_ATTACH 0x2
#define MAX_CPUS 256
/*
 * PELT's clock: rq->clock advances by the work each run does, one unit per
 * message byte copied, standing in for a quarter of a microsecond. Averages
 * decay only when it crosses a period boundary, as PELT's 1024 us periods
 * do: every dozen or so runs of a cpu.
 */
#define PELT_PERIOD 4096
#define MSEC_UNITS 4000 /* one ms of that clock */
#define PIPE_MSG_MIN 32
#define PIPE_MSG_MAX 256
#define IDLE_SPINS 64 /* idle polls of the wake list before a sched_yield */
#define PAIRS_PER_CPU 8 /* runnable tasks queued per cpu, as in hackbench */

struct load_weight {
	unsigned long weight;
};

struct sched_avg {
	u64 last_update_time; /* 0: migrated, to be attached */
	unsigned long load_avg;
};

struct sched_entity {
	struct load_weight load;
	int on_rq;
	int depth;
	struct sched_entity *parent;
	struct cfs_rq *cfs_rq; /* the queue this entity is queued on */
	struct cfs_rq *my_q; /* the queue this (group) entity owns */
	struct sched_avg avg;
};

struct rq;

struct cfs_rq {
	struct load_weight load;
	unsigned int nr_running;
	struct sched_avg avg;
	unsigned long tg_load_avg_contrib;
	u64 last_update_tg_load_avg;
	struct rq *rq;
	struct task_group *tg;
	/* cfs_rq->removed: load of tasks that migrated away, from their wakers */
	atomic_long_t removed_load ____cacheline_aligned;
} ____cacheline_aligned;

struct sched_rt_entity {
	struct sched_rt_entity *parent;
	struct rt_rq *rt_rq;
};

struct rt_rq {
	unsigned int rt_nr_running;
	struct rq *rq;
	struct task_group *tg;
};

struct task_struct;

struct llist_node {
	struct llist_node *next;
};

struct rq {
	int cpu;
	u64 clock;
	struct cfs_rq cfs;
	struct rt_rq rt;
	struct task_struct *queue_head, *queue_tail; /* runnable, this cpu only */
	/* TTWU_QUEUE: remote wakers push here, this cpu takes them all */
	struct llist_node *wake_list ____cacheline_aligned;
} ____cacheline_aligned;

struct pipe_pair {
	unsigned long wakeups; /* only the pair's running task touches it */
};

struct task_struct {
	struct sched_entity se;
	struct sched_rt_entity rt;
	struct task_group *sched_task_group;
	unsigned int cpu;
	int on_cpu; /* running or still being switched out */
	struct llist_node wake_entry;
	struct task_struct *queue_next;
	struct task_struct *partner;
	struct pipe_pair *pair;
} ____cacheline_aligned;

/* The group the benchmark runs in, and its parent. */
extern struct task_group root_task_group;
extern struct task_group pipe_task_group;

struct worker {
	pthread_t thread;
	unsigned int cpu; /* model cpu: index into the per-cpu arrays */
	int host_cpu; /* the real cpu it is pinned to, -1 if not pinned */
	struct rq *rq;
	unsigned long wakeups; /* wakeups this cpu issued */
	u64 rng; /* the length of each pipe message */
	unsigned char msg[PIPE_MSG_MAX] ____cacheline_aligned; /* this cpu's copy */
} ____cacheline_aligned;
struct sched_run {
	unsigned int nr_threads, nr_pairs;
	unsigned long iterations; /* wakeups per cpu */
	unsigned long per_pair; /* wakeups per pair: iterations x cpus, shared out */
	int bench;
	int pin;
	double seconds;
	volatile int stop;
	unsigned int pairs_done;
	struct rq **rqs;
	pthread_barrier_t start;
};
extern struct sched_run run;

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long atomic_long_xchg(atomic_long_t *v, long i)
{
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_ACQ_REL);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

unsigned int select_task_rq_fair(struct worker *w, struct task_struct *p);
void ttwu_queue(struct task_struct *p, unsigned int cpu);
int sched_ttwu_pending(struct rq *rq);
struct task_struct *pick_next_task(struct rq *rq);
void run_task(struct worker *w, struct task_struct *p);
int all_pairs_done(void);

#endif
