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
 * a period (PELT_PERIOD). The functions the story is about are real
 * out-of-line functions so that profiles and reports name them. This file is
 * the scheduler; sched_main.c sets up the cpus, the groups and the pairs.
 *
 * Usage: sched-core-BUILD [--threads N] [--pairs N] [--iterations N]
 *                         [--bench [--seconds S]] [--layout]
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "sched_core.h"

/* The group the benchmark runs in, and its parent. */
struct task_group root_task_group;
struct task_group pipe_task_group;

struct sched_run run = { .iterations = 20000, .seconds = 1.0 };

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
void run_task(struct worker *w, struct task_struct *p)
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

struct task_struct *pick_next_task(struct rq *rq)
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

int all_pairs_done(void)
{
	return __atomic_load_n(&run.pairs_done, __ATOMIC_ACQUIRE) == run.nr_pairs;
}
