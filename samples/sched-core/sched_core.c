// SPDX-License-Identifier: GPL-2.0
/*
 * sched-core: a userspace model of the CFS group-scheduling path that a
 * pipe-based context-switch benchmark drives, built around a struct
 * task_group laid out exactly like Linux 6.1's (task_group.h).
 *
 * One thread per cpu, pinned with sched_setaffinity when there are cpus
 * enough, stands for that cpu. Tasks come in pipe-like pairs: a task that
 * runs reads its message, writes one to its partner (waking it) and blocks
 * on its own pipe again. A wakeup goes the way Linux 6.1 takes it with
 * TTWU_QUEUE:
 *
 *   waker's cpu   try_to_wake_up -> select_task_rq_fair   another cpu
 *                                -> set_task_cpu           reads tg->rt_se,
 *                                                          cfs_rq, se, parent,
 *                                                          rt_rq
 *                                -> ttwu_queue             onto the target's
 *                                                          wake list
 *   target cpu    sched_ttwu_pending -> enqueue_task_fair  update_load_avg
 *                                (attach the migrated load: update_tg_load_avg
 *                                writes tg->load_avg), update_cfs_group (reads
 *                                tg->load_avg, tg->shares)
 *                 ... the task runs, wakes its partner, then
 *                 schedule -> dequeue_task_fair            the same on the way
 *                                                          out (writes only
 *                                                          when PELT decayed)
 *
 * So the waker reads rt_se/rt_rq, which it needs, and, in the upstream
 * layout, pulls in load_avg's line with them; the target cpus write and read
 * load_avg. Each run copies a message of varying length (pipe_copy), which
 * advances the cpu's PELT clock; averages decay only when that clock crosses
 * a 1024-unit period. The functions the story is about are real out-of-line
 * functions so that profiles and reports name them.
 *
 * Usage: sched-core-BUILD [--threads N] [--pairs N] [--iterations N]
 *                         [--bench [--seconds S]] [--layout]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
struct task_group root_task_group;
struct task_group pipe_task_group;

struct worker {
	pthread_t thread;
	unsigned int cpu; /* model cpu: index into the per-cpu arrays */
	int host_cpu; /* the real cpu it is pinned to, -1 if not pinned */
	struct rq *rq;
	unsigned long wakeups; /* wakeups this cpu issued */
	u64 rng; /* the length of each pipe message */
	unsigned char msg[PIPE_MSG_MAX] ____cacheline_aligned; /* this cpu's copy */
} ____cacheline_aligned;

static struct {
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
} run = { .iterations = 20000, .seconds = 1.0 };

/* Zeroed, cacheline-aligned, never shares a line with anything else. */
static void *percpu_alloc(size_t size)
{
	size_t rounded = (size + CACHELINE - 1) / CACHELINE * CACHELINE;
	void *p = aligned_alloc(CACHELINE, rounded);

	if (!p) {
		perror("sched-core: aligned_alloc");
		exit(2);
	}
	memset(p, 0, rounded);
	return p;
}

static void *xcalloc_array(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("sched-core: calloc");
		exit(2);
	}
	return p;
}

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

/*
 * migrate_task_rq_fair(), on the waker's cpu: the task's load leaves its old
 * queue (remove_entity_load_avg: the old cpu subtracts it at its next
 * update) and is attached at the enqueue on the new cpu. The task's average
 * decays as PELT would for the time it slept.
 */
SCHED_FN void migrate_task_rq_fair(struct task_struct *p, unsigned int new_cpu)
{
	unsigned long load = p->se.avg.load_avg;
	int period;

	for (period = 0; period < 8; period++)
		load -= load / 32;
	p->se.avg.load_avg = load;
	atomic_long_add((long)load, &p->se.cfs_rq->removed_load);
	p->se.avg.last_update_time = 0;
	p->cpu = new_cpu;
}

/*
 * set_task_cpu() -> set_task_rq() on a migration, on the waker's cpu: point
 * the task's entities at the group's queues on the new cpu. The kernel reads
 * rt_rq and rt_se back to back; the model puts migrate_task_rq_fair()'s work
 * between them, as a longer path would, because a simulated cache misses
 * only once on two adjacent loads of one line and both reads should be seen.
 */
SCHED_FN void set_task_cpu(struct task_struct *p, unsigned int cpu)
{
	struct task_group *tg = p->sched_task_group;

	p->rt.parent = READ_ONCE(tg->rt_se)[cpu];
	migrate_task_rq_fair(p, cpu);
	p->se.cfs_rq = READ_ONCE(tg->cfs_rq)[cpu];
	p->se.parent = READ_ONCE(tg->se)[cpu];
	p->se.depth = READ_ONCE(tg->parent) ? p->se.parent->depth + 1 : 0;
	p->rt.rt_rq = READ_ONCE(tg->rt_rq)[cpu];
}

/*
 * The group's load is the sum of the cpus' contributions; a cpu publishes
 * its own only when it moved by more than 1/64, as 6.1 does (and, in the
 * ratelimited build, at most once per ms of its clock).
 */
SCHED_FN void update_tg_load_avg(struct cfs_rq *cfs_rq)
{
	long delta = (long)cfs_rq->avg.load_avg - (long)cfs_rq->tg_load_avg_contrib;

	if (cfs_rq->tg == &root_task_group)
		return;
#ifdef TG_RATELIMIT
	if (cfs_rq->rq->clock - cfs_rq->last_update_tg_load_avg < MSEC_UNITS)
		return;
#endif
	if (labs(delta) > (long)(cfs_rq->tg_load_avg_contrib / 64)) {
		atomic_long_add(delta, &cfs_rq->tg->load_avg);
		cfs_rq->tg_load_avg_contrib = cfs_rq->avg.load_avg;
		cfs_rq->last_update_tg_load_avg = cfs_rq->rq->clock;
	}
}

/*
 * A geometric average standing in for PELT: 1/8 of the way toward the
 * current weight, once per period crossed. Returns whether it decayed.
 */
static inline int decay_toward(struct sched_avg *sa, unsigned long target, u64 now)
{
	long gap = (long)target - (long)sa->load_avg;

	if (now / PELT_PERIOD == sa->last_update_time / PELT_PERIOD)
		return 0;
	sa->load_avg = (unsigned long)((long)sa->load_avg + gap / 8);
	sa->last_update_time = now;
	return 1;
}

/* update_cfs_rq_load_avg(): decay, and take out the load that migrated away. */
static inline int update_cfs_rq_load_avg(struct cfs_rq *cfs_rq, u64 now)
{
	int decayed = decay_toward(&cfs_rq->avg, cfs_rq->load.weight, now);
	long removed = 0;

	if (atomic_long_read(&cfs_rq->removed_load))
		removed = atomic_long_xchg(&cfs_rq->removed_load, 0);
	if (removed) {
		if ((unsigned long)removed > cfs_rq->avg.load_avg)
			removed = (long)cfs_rq->avg.load_avg;
		cfs_rq->avg.load_avg -= (unsigned long)removed;
		decayed = 1;
	}
	return decayed;
}

SCHED_FN void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = cfs_rq->rq->clock;
	int attach = !se->avg.last_update_time && (flags & DO_ATTACH);
	int decayed;

	if (!attach)
		decay_toward(&se->avg, se->on_rq ? se->load.weight : 0, now);
	decayed = update_cfs_rq_load_avg(cfs_rq, now);
	if (attach) { /* attach_entity_load_avg() */
		se->avg.last_update_time = now ? now : 1;
		cfs_rq->avg.load_avg += se->avg.load_avg;
		update_tg_load_avg(cfs_rq);
	} else if (decayed && (flags & UPDATE_TG)) {
		update_tg_load_avg(cfs_rq);
	}
}

static inline __attribute__((always_inline)) long calc_group_shares(struct cfs_rq *cfs_rq)
{
	struct task_group *tg = cfs_rq->tg;
	long tg_weight, tg_shares, load, shares;

	tg_shares = READ_ONCE(tg->shares);
	load = (long)cfs_rq->load.weight;
	if ((long)cfs_rq->avg.load_avg > load)
		load = (long)cfs_rq->avg.load_avg;
	tg_weight = atomic_long_read(&tg->load_avg);
	tg_weight -= (long)cfs_rq->tg_load_avg_contrib;
	tg_weight += load;
	shares = tg_shares * load;
	if (tg_weight)
		shares /= tg_weight;
	if (shares < MIN_SHARES)
		shares = MIN_SHARES;
	return shares > tg_shares ? tg_shares : shares;
}

static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight)
{
	if (se->on_rq)
		cfs_rq->load.weight -= se->load.weight;
	se->load.weight = weight;
	if (se->on_rq)
		cfs_rq->load.weight += se->load.weight;
}

/* A group entity's weight follows its cpu's share of the group's load. */
SCHED_FN void update_cfs_group(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = se->my_q;

	if (!gcfs_rq)
		return;
	reweight_entity(se->cfs_rq, se, (unsigned long)calc_group_shares(gcfs_rq));
}

/* enqueue_task_fair() -> enqueue_entity() at each level not yet queued. */
SCHED_FN void enqueue_task_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se;

	(void)rq; /* the kernel's signature; the queues hang off the entities */
	for (se = &p->se; se && !se->on_rq; se = se->parent) {
		struct cfs_rq *cfs_rq = se->cfs_rq;

		update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);
		cfs_rq->load.weight += se->load.weight;
		cfs_rq->nr_running++;
		se->on_rq = 1;
		update_cfs_group(se);
	}
	/* The levels already queued: their averages and weights move too. */
	for (; se; se = se->parent) {
		update_load_avg(se->cfs_rq, se, UPDATE_TG);
		update_cfs_group(se);
	}
}

SCHED_FN void dequeue_task_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se;

	(void)rq;
	for (se = &p->se; se; se = se->parent) {
		struct cfs_rq *cfs_rq = se->cfs_rq;

		update_load_avg(cfs_rq, se, UPDATE_TG);
		cfs_rq->load.weight -= se->load.weight;
		cfs_rq->nr_running--;
		se->on_rq = 0;
		update_cfs_group(se);
		/* Don't dequeue the parent if it has other entities besides us. */
		if (cfs_rq->load.weight) {
			se = se->parent;
			break;
		}
	}
	/* The levels that stay queued: their averages and weights move too. */
	for (; se; se = se->parent) {
		update_load_avg(se->cfs_rq, se, UPDATE_TG);
		update_cfs_group(se);
	}
}

/*
 * select_task_rq_fair(): the first cpu after the waker's (select_idle_cpu()
 * scans the LLC with for_each_cpu_wrap from target + 1) that is neither the
 * one the wakee last ran on (every wakeup migrates, as in the benchmark)
 * nor, with three cpus or more, the waker's own.
 */
SCHED_FN unsigned int select_task_rq_fair(struct worker *w, struct task_struct *p)
{
	unsigned int n = run.nr_threads, cpu;

	if (n == 1)
		return 0;
	for (cpu = (w->cpu + 1) % n;; cpu = (cpu + 1) % n)
		if (cpu != p->cpu && (n <= 2 || cpu != w->cpu))
			return cpu;
}

/* ttwu_queue() -> __ttwu_queue_wakelist(): llist_add to the target's list. */
SCHED_FN void ttwu_queue(struct task_struct *p, unsigned int cpu)
{
	struct rq *rq = run.rqs[cpu];
	struct llist_node *first = __atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED);

	do {
		p->wake_entry.next = first;
	} while (!__atomic_compare_exchange_n(&rq->wake_list, &first, &p->wake_entry, 1,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/*
 * try_to_wake_up(), on the waker's cpu: wait until the wakee is off its old
 * cpu (smp_cond_load_acquire(&p->on_cpu, !VAL)), pick its new cpu, move it
 * there (set_task_cpu) and queue it for that cpu to enqueue.
 */
SCHED_FN void try_to_wake_up(struct worker *w, struct task_struct *p)
{
	unsigned int cpu;

	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
	cpu = select_task_rq_fair(w, p);
	if (cpu != p->cpu)
		set_task_cpu(p, cpu);
	ttwu_queue(p, cpu);
	w->wakeups++;
}

static void rq_queue_task(struct rq *rq, struct task_struct *p)
{
	p->queue_next = NULL;
	if (rq->queue_tail)
		rq->queue_tail->queue_next = p;
	else
		rq->queue_head = p;
	rq->queue_tail = p;
}

/* sched_ttwu_pending(), on the target cpu: enqueue what wakers queued here. */
SCHED_FN int sched_ttwu_pending(struct rq *rq)
{
	struct llist_node *list = __atomic_exchange_n(&rq->wake_list, NULL, __ATOMIC_ACQUIRE);
	struct llist_node *prev = NULL, *next;
	int n = 0;

	for (; list; list = next) { /* the llist is newest first: reverse it */
		next = list->next;
		list->next = prev;
		prev = list;
	}
	for (; prev; prev = next, n++) {
		struct task_struct *p =
			(struct task_struct *)((char *)prev -
					       offsetof(struct task_struct, wake_entry));

		next = prev->next;
		enqueue_task_fair(rq, p); /* ttwu_do_activate() */
		rq_queue_task(rq, p);
	}
	return n;
}

/*
 * The task's own work: copy a message whose length varies (xorshift per
 * cpu). Only this cpu's buffer is touched; the varying length keeps the
 * cpus out of lockstep, so which access to load_avg's line comes first
 * after another cpu's write is spread over the cycle as on real machines.
 */
SCHED_FN void pipe_copy(struct worker *w)
{
	unsigned int len, i;

	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	len = PIPE_MSG_MIN + (unsigned int)(w->rng % (PIPE_MSG_MAX - PIPE_MSG_MIN + 1));
	for (i = 0; i < len; i++)
		w->msg[i] = (unsigned char)(w->msg[i] + i);
	w->rq->clock += len;
}

/*
 * One run of a task: it reads its message, writes one to its partner (the
 * wakeup) unless the pair is done, and blocks on its pipe again: schedule()
 * dequeues it, and only then is it off the cpu (on_cpu = 0).
 */
static void run_task(struct worker *w, struct task_struct *p)
{
	struct pipe_pair *pair = p->pair;

	pipe_copy(w); /* read the partner's message */
	if (run.bench ? !run.stop : pair->wakeups < run.per_pair) {
		pair->wakeups++;
		try_to_wake_up(w, p->partner); /* write ours: the partner wakes */
	} else {
		__atomic_fetch_add(&run.pairs_done, 1, __ATOMIC_RELEASE);
	}
	pipe_copy(w); /* back to read(): the pipe is empty */
	dequeue_task_fair(w->rq, p);
	__atomic_store_n(&p->on_cpu, 0, __ATOMIC_RELEASE);
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *p = rq->queue_head;

	if (p) {
		rq->queue_head = p->queue_next;
		if (!rq->queue_head)
			rq->queue_tail = NULL;
		p->on_cpu = 1;
	}
	return p;
}

static int all_pairs_done(void)
{
	return __atomic_load_n(&run.pairs_done, __ATOMIC_ACQUIRE) == run.nr_pairs;
}

static void init_group(struct task_group *tg, struct task_group *parent, unsigned int nr_cpus)
{
	tg->parent = parent;
	tg->shares = NICE_0_LOAD;
	tg->se = xcalloc_array(nr_cpus, sizeof(*tg->se));
	tg->cfs_rq = xcalloc_array(nr_cpus, sizeof(*tg->cfs_rq));
	tg->rt_se = xcalloc_array(nr_cpus, sizeof(*tg->rt_se));
	tg->rt_rq = xcalloc_array(nr_cpus, sizeof(*tg->rt_rq));
	tg->list.next = tg->list.prev = &tg->list;
	tg->children.next = tg->children.prev = &tg->children;
	tg->siblings.next = tg->siblings.prev = &tg->siblings;
}

/* One cpu: its rq (the root group's queues) and the pipe group's entities. */
static void init_cpu(struct worker *w, unsigned int cpu)
{
	struct task_group *tg = &pipe_task_group;
	struct rq *rq = percpu_alloc(sizeof(*rq));
	struct sched_entity *gse = percpu_alloc(sizeof(*gse));
	struct cfs_rq *gcfs = percpu_alloc(sizeof(*gcfs));
	struct sched_rt_entity *grt_se = percpu_alloc(sizeof(*grt_se));
	struct rt_rq *grt_rq = percpu_alloc(sizeof(*grt_rq));

	rq->cpu = (int)cpu;
	rq->cfs.rq = rq;
	rq->cfs.tg = &root_task_group;
	rq->rt.rq = rq;
	rq->rt.tg = &root_task_group;
	root_task_group.cfs_rq[cpu] = &rq->cfs;
	root_task_group.rt_rq[cpu] = &rq->rt;

	gcfs->rq = rq;
	gcfs->tg = tg;
	gse->cfs_rq = &rq->cfs;
	gse->my_q = gcfs;
	gse->load.weight = (unsigned long)NICE_0_LOAD;
	grt_rq->rq = rq;
	grt_rq->tg = tg;
	grt_se->rt_rq = &rq->rt;
	tg->se[cpu] = gse;
	tg->cfs_rq[cpu] = gcfs;
	tg->rt_se[cpu] = grt_se;
	tg->rt_rq[cpu] = grt_rq;

	run.rqs[cpu] = rq;
	w->cpu = cpu;
	w->rq = rq;
	w->rng = 0x9E3779B97F4A7C15ULL * (cpu + 1);
}

/* A task of the pipe group, last run on cpu (not queued anywhere yet). */
static struct task_struct *init_task(unsigned int cpu, struct pipe_pair *pair)
{
	struct task_struct *p = percpu_alloc(sizeof(*p));
	struct task_group *tg = &pipe_task_group;

	p->sched_task_group = tg;
	p->se.load.weight = (unsigned long)NICE_0_LOAD;
	p->cpu = cpu;
	p->se.cfs_rq = tg->cfs_rq[cpu];
	p->se.parent = tg->se[cpu];
	p->se.depth = 1;
	p->rt.parent = tg->rt_se[cpu];
	p->rt.rt_rq = tg->rt_rq[cpu];
	p->pair = pair;
	return p;
}

/* Pair k: its first task starts queued on cpu k, the other sleeps. */
static void init_pairs(void)
{
	unsigned int k, n = run.nr_threads;

	for (k = 0; k < run.nr_pairs; k++) {
		struct pipe_pair *pair = percpu_alloc(sizeof(*pair));
		struct task_struct *a = init_task(k % n, pair), *b = init_task((k + 1) % n, pair);

		a->partner = b;
		b->partner = a;
		ttwu_queue(a, k % n);
	}
}

/* Pin the calling thread to the n-th cpu it is allowed to run on. */
static int pin_to_nth_cpu(unsigned int n)
{
	cpu_set_t allowed, one;
	int count, cpu, seen = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	count = CPU_COUNT(&allowed);
	if (count <= 0)
		return -1;
	n %= (unsigned int)count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if ((unsigned int)seen++ != n)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		return sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
	}
	return -1;
}

/* The cpu's loop: take queued wakeups, run what is runnable, else idle. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct task_struct *p;
	unsigned int idle = 0;

	/* One thread per cpu; with more threads than cpus, leave placement be. */
	w->host_cpu = run.pin ? pin_to_nth_cpu(w->cpu) : -1;
	pthread_barrier_wait(&run.start);
	for (;;) {
		if (READ_ONCE(w->rq->wake_list))
			sched_ttwu_pending(w->rq);
		p = pick_next_task(w->rq);
		if (p) {
			run_task(w, p);
			idle = 0;
		} else if (all_pairs_done()) {
			break;
		} else if (++idle % IDLE_SPINS) {
			cpu_relax();
		} else {
			sched_yield(); /* with more threads than cpus, let the others run */
		}
	}
	return NULL;
}

static unsigned int allowed_cpus(void)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 1;
	return (unsigned int)CPU_COUNT(&allowed);
}

static unsigned int default_threads(void)
{
	unsigned int n = allowed_cpus();

	if (n < 2)
		n = 2;
	return n > MAX_CPUS ? MAX_CPUS : n;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_layout(void)
{
	printf("sched-core: layout %s: struct task_group %zu bytes; load_avg @%zu rt_se @%zu "
	       "rt_rq @%zu parent @%zu\n",
	       MODEL_NAME, sizeof(struct task_group), offsetof(struct task_group, load_avg),
	       offsetof(struct task_group, rt_se), offsetof(struct task_group, rt_rq),
	       offsetof(struct task_group, parent));
}

/* Returns 0 when tg->load_avg equals the sum of the cpus' contributions. */
static int report_run(struct worker *workers, double elapsed)
{
	unsigned long wakeups = 0, contrib = 0;
	long load_avg = atomic_long_read(&pipe_task_group.load_avg);
	unsigned int i;

	for (i = 0; i < run.nr_threads; i++) {
		wakeups += workers[i].wakeups;
		contrib += pipe_task_group.cfs_rq[i]->tg_load_avg_contrib;
	}
	if (run.bench) {
		printf("bench %s: threads=%u pairs=%u seconds=%.2f wakeups=%lu ops_per_sec=%.0f\n",
		       MODEL_NAME, run.nr_threads, run.nr_pairs, elapsed, wakeups,
		       elapsed > 0 ? (double)wakeups / elapsed : 0.0);
	} else {
		printf("sched-core: task group at %p; load_avg line at %p\n",
		       (void *)&pipe_task_group,
		       (void *)((uintptr_t)&pipe_task_group.load_avg &
				~(uintptr_t)(CACHELINE - 1)));
		printf("sched-core: %u cpus, %u pipe pairs, %lu wakeups (%lu per pair)%s\n",
		       run.nr_threads, run.nr_pairs, wakeups, run.per_pair,
		       run.pin ? ", one thread per cpu" : ", more threads than cpus: not pinned");
	}
	printf("sched-core: load_avg %ld, sum of the cpus' contributions %lu: %s\n", load_avg,
	       contrib, (unsigned long)load_avg == contrib ? "consistent" : "INCONSISTENT");
	return (unsigned long)load_avg == contrib ? 0 : 1;
}

static int run_workers(void)
{
	struct worker *workers = percpu_alloc(run.nr_threads * sizeof(*workers));
	double start, elapsed;
	unsigned int i;
	int ret;

	run.rqs = xcalloc_array(run.nr_threads, sizeof(*run.rqs));
	init_group(&root_task_group, NULL, run.nr_threads);
	init_group(&pipe_task_group, &root_task_group, run.nr_threads);
	for (i = 0; i < run.nr_threads; i++)
		init_cpu(&workers[i], i);
	init_pairs();
	pthread_barrier_init(&run.start, NULL, run.nr_threads + 1);
	for (i = 0; i < run.nr_threads; i++) {
		ret = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
		if (ret) {
			fprintf(stderr, "sched-core: pthread_create: %s\n", strerror(ret));
			exit(2);
		}
	}
	pthread_barrier_wait(&run.start);
	start = now_seconds();
	if (run.bench) {
		struct timespec ts = { (time_t)run.seconds,
				       (long)((run.seconds - (double)(time_t)run.seconds) * 1e9) };

		nanosleep(&ts, NULL);
		run.stop = 1;
	}
	for (i = 0; i < run.nr_threads; i++)
		pthread_join(workers[i].thread, NULL);
	elapsed = now_seconds() - start;
	return report_run(workers, elapsed);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: sched-core-%s [--threads N] [--pairs N] [--iterations N]\n"
		"                     [--bench [--seconds S]] [--layout]\n"
		"  --threads N     cpus, one thread each (default: the cpus we may use, >= 2)\n"
		"  --pairs N       pipe pairs of tasks (default: 8 per cpu)\n"
		"  --iterations N  wakeups per cpu, shared out among the pairs (default 20000)\n"
		"  --bench         run for --seconds (default 1) and print wakeups per second\n"
		"  --layout        print struct task_group's size and key offsets, then exit\n",
		MODEL_NAME);
}

static unsigned long parse_number(const char *opt, const char *arg, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg ? arg : "", &end, 0);
	if (!arg || errno || end == arg || *end || v == 0 || v > max) {
		fprintf(stderr, "sched-core: %s needs a number from 1 to %lu, got '%s'\n", opt, max,
			arg ? arg : "");
		exit(2);
	}
	return v;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--threads")) {
			run.nr_threads = (unsigned int)parse_number(a, val, MAX_CPUS);
			i++;
		} else if (!strcmp(a, "--pairs")) {
			run.nr_pairs = (unsigned int)parse_number(a, val, 4 * MAX_CPUS);
			i++;
		} else if (!strcmp(a, "--iterations")) {
			run.iterations = parse_number(a, val, 1UL << 40);
			i++;
		} else if (!strcmp(a, "--seconds")) {
			run.seconds = (double)parse_number(a, val, 3600);
			i++;
		} else if (!strcmp(a, "--bench")) {
			run.bench = 1;
		} else if (!strcmp(a, "--layout")) {
			print_layout();
			return 0;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "sched-core: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	int ret;

	run.nr_threads = default_threads();
	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	if (!run.nr_pairs)
		run.nr_pairs = run.nr_threads * PAIRS_PER_CPU;
	run.per_pair = (run.iterations * run.nr_threads + run.nr_pairs - 1) / run.nr_pairs;
	run.pin = run.nr_threads <= allowed_cpus();
	print_layout();
	return run_workers();
}
