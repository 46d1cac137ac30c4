// SPDX-License-Identifier: GPL-2.0
/*
 * sched-core: a userspace model of the CFS group-scheduling path that a
 * pipe-based context-switch benchmark drives, built around a struct
 * task_group laid out exactly like Linux 6.1's (task_group.h).
 *
 * One worker thread per cpu, pinned with sched_setaffinity, runs one task
 * of a shared task group through wakeup/sleep cycles:
 *
 *   try_to_wake_up -> set_task_cpu        reads tg->se, cfs_rq, rt_se,
 *                                         rt_rq and parent
 *                  -> enqueue_task_fair   update_load_avg -> update_tg_load_avg
 *                                         (atomic add to tg->load_avg when the
 *                                         cpu's contribution moved > 1/64),
 *                                         update_cfs_group (reads
 *                                         tg->load_avg and tg->shares)
 *   task_sleep     -> dequeue_task_fair   the same on the way out
 *
 * Each cycle also copies a message of varying length twice (pipe_copy: the
 * other end's write while the task sleeps, the task's read while it runs),
 * which advances the cpu's PELT clock. Averages decay, and update_tg_load_avg
 * publishes, only when that clock crosses a period boundary (every few
 * cycles), as PELT does every 1024 us; migrations (set_task_cpu) happen on
 * every wakeup. Every cpu writes tg->load_avg, so its cache line bounces; in
 * the upstream layout the read-mostly rt_se/rt_rq share that line and every
 * wakeup pays for it. The varying lengths keep the cpus out of lockstep, so
 * under the simulator the reads that find the line Modified elsewhere are
 * spread over the cycle as on real machines, and the counts are stable. The functions the story is about are real out-of-line functions
 * so that profiles and reports name them.
 *
 * Usage: sched-core-LAYOUT [--threads N] [--iterations N] [--bench [--seconds S]]
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

#define CACHELINE 64
#define NICE_0_LOAD 1024L
#define MIN_SHARES 2L
#define UPDATE_TG 0x1
#define MAX_CPUS 256
/*
 * PELT's clock: rq->clock advances by the work each cycle does (one unit per
 * message byte copied, standing in for nanoseconds), and averages decay
 * only when it crosses a period boundary, as PELT's 1024 us periods do; only
 * then does update_load_avg call update_tg_load_avg.
 */
#define PELT_PERIOD 1024
#define PIPE_MSG_MIN 32
#define PIPE_MSG_MAX 256

struct load_weight {
	unsigned long weight;
};

struct sched_avg {
	u64 last_update_time;
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
	struct rq *rq;
	struct task_group *tg;
};

struct sched_rt_entity {
	struct sched_rt_entity *parent;
	struct rt_rq *rt_rq;
};

struct rt_rq {
	unsigned int rt_nr_running;
	struct rq *rq;
	struct task_group *tg;
};

struct rq {
	int cpu;
	u64 clock;
	struct cfs_rq cfs;
	struct rt_rq rt;
} ____cacheline_aligned;

struct task_struct {
	struct sched_entity se;
	struct sched_rt_entity rt;
	struct task_group *sched_task_group;
	unsigned int cpu;
} ____cacheline_aligned;

/* The group the benchmark runs in, and its parent. */
struct task_group root_task_group;
struct task_group pipe_task_group;

struct worker {
	pthread_t thread;
	unsigned int cpu; /* model cpu: index into the per-cpu arrays */
	int host_cpu; /* the real cpu it is pinned to, -1 if not pinned */
	struct rq *rq;
	struct task_struct *task;
	unsigned long cycles;
	u64 rng; /* the length of each pipe message */
	unsigned char msg[PIPE_MSG_MAX] ____cacheline_aligned; /* this cpu's copy */
} ____cacheline_aligned;

static struct {
	unsigned int nr_threads;
	unsigned long iterations;
	int bench;
	int pin;
	double seconds;
	volatile int stop;
	pthread_barrier_t start;
} run = { .iterations = 100000, .seconds = 1.0 };

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

/*
 * migrate_task_rq_fair(): carry the task's load over to its new cpu. The
 * model decays the task's average as PELT would for the time it slept.
 */
SCHED_FN void migrate_task_rq_fair(struct task_struct *p, unsigned int new_cpu)
{
	unsigned long load = p->se.avg.load_avg;
	int period;

	for (period = 0; period < 8; period++)
		load -= load / 32;
	p->se.avg.load_avg = load;
	p->se.avg.last_update_time = 0;
	p->cpu = new_cpu;
}

/*
 * set_task_rq() on a migration: point the task's entities at the group's
 * per-cpu queues. The kernel reads rt_rq and rt_se back to back; the model
 * puts migrate_task_rq_fair()'s work between them, as a longer path would,
 * because a simulated cache misses only once on two adjacent loads of one
 * line and both reads should be seen paying for load_avg's line.
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
 * its own only when it moved by more than 1/64, as 6.1 does.
 */
SCHED_FN void update_tg_load_avg(struct cfs_rq *cfs_rq)
{
	long delta = (long)cfs_rq->avg.load_avg - (long)cfs_rq->tg_load_avg_contrib;

	if (cfs_rq->tg == &root_task_group)
		return;
	if (labs(delta) > (long)(cfs_rq->tg_load_avg_contrib / 64)) {
		atomic_long_add(delta, &cfs_rq->tg->load_avg);
		cfs_rq->tg_load_avg_contrib = cfs_rq->avg.load_avg;
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

SCHED_FN void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = cfs_rq->rq->clock;

	decay_toward(&se->avg, se->on_rq ? se->load.weight : 0, now);
	if (decay_toward(&cfs_rq->avg, cfs_rq->load.weight, now) && (flags & UPDATE_TG))
		update_tg_load_avg(cfs_rq);
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

SCHED_FN void enqueue_task_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se;

	(void)rq; /* the kernel's signature; the queues hang off the entities */
	for (se = &p->se; se && !se->on_rq; se = se->parent) {
		struct cfs_rq *cfs_rq = se->cfs_rq;

		update_load_avg(cfs_rq, se, UPDATE_TG);
		cfs_rq->load.weight += se->load.weight;
		cfs_rq->nr_running++;
		se->on_rq = 1;
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
		if (cfs_rq->load.weight)
			break;
	}
}

/* The pipe's reader wakes on this cpu (a migration in the benchmark). */
SCHED_FN void try_to_wake_up(struct rq *rq, struct task_struct *p)
{
	set_task_cpu(p, (unsigned int)rq->cpu);
	enqueue_task_fair(rq, p);
}

/* ... reads, writes to the other end, and blocks on the pipe again. */
SCHED_FN void task_sleep(struct rq *rq, struct task_struct *p)
{
	dequeue_task_fair(rq, p);
}

/*
 * The task's own work between wakeup and sleep: copy a message whose length
 * varies (xorshift per cpu). Only this cpu's buffer is touched; the varying
 * length keeps the cpus' cycles from running in lockstep, so which of a
 * cycle's reads of load_avg's line is the first after another cpu's write
 * is spread over the cycle as it is on real machines.
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
	struct task_struct *p = percpu_alloc(sizeof(*p));

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

	p->sched_task_group = tg;
	p->se.load.weight = (unsigned long)NICE_0_LOAD;
	w->cpu = cpu;
	w->rq = rq;
	w->task = p;
	w->rng = 0x9E3779B97F4A7C15ULL * (cpu + 1);
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

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long i;

	/* One thread per cpu; with more threads than cpus, leave placement be. */
	w->host_cpu = run.pin ? pin_to_nth_cpu(w->cpu) : -1;
	pthread_barrier_wait(&run.start);
	for (i = 0; run.bench ? !run.stop : i < run.iterations; i++) {
		pipe_copy(w); /* the other end writes the message: the task sleeps */
		try_to_wake_up(w->rq, w->task);
		pipe_copy(w); /* the task reads it */
		task_sleep(w->rq, w->task);
	}
	w->cycles = i;
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
	       TG_LAYOUT_NAME, sizeof(struct task_group), offsetof(struct task_group, load_avg),
	       offsetof(struct task_group, rt_se), offsetof(struct task_group, rt_rq),
	       offsetof(struct task_group, parent));
}

/* Returns 0 when tg->load_avg equals the sum of the cpus' contributions. */
static int report_run(struct worker *workers, double elapsed)
{
	unsigned long cycles = 0, contrib = 0;
	long load_avg = atomic_long_read(&pipe_task_group.load_avg);
	unsigned int i;

	for (i = 0; i < run.nr_threads; i++) {
		cycles += workers[i].cycles;
		contrib += pipe_task_group.cfs_rq[i]->tg_load_avg_contrib;
	}
	if (run.bench) {
		printf("bench %s: threads=%u seconds=%.2f cycles=%lu ops_per_sec=%.0f\n",
		       TG_LAYOUT_NAME, run.nr_threads, elapsed, cycles,
		       elapsed > 0 ? (double)cycles / elapsed : 0.0);
	} else {
		printf("sched-core: task group at %p; load_avg line at %p\n",
		       (void *)&pipe_task_group,
		       (void *)((uintptr_t)&pipe_task_group.load_avg &
				~(uintptr_t)(CACHELINE - 1)));
		printf("sched-core: %u threads x %lu wakeup/sleep cycles%s\n", run.nr_threads,
		       run.iterations,
		       run.pin ? ", one per cpu" : ", more threads than cpus: not pinned");
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

	init_group(&root_task_group, NULL, run.nr_threads);
	init_group(&pipe_task_group, &root_task_group, run.nr_threads);
	for (i = 0; i < run.nr_threads; i++)
		init_cpu(&workers[i], i);
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
		"usage: sched-core-%s [--threads N] [--iterations N] [--bench [--seconds S]] "
		"[--layout]\n"
		"  --threads N     worker threads, one per cpu (default: the cpus we may use, >= 2)\n"
		"  --iterations N  wakeup/sleep cycles per thread (default 100000)\n"
		"  --bench         run for --seconds (default 1) and print cycles per second\n"
		"  --layout        print struct task_group's size and key offsets, then exit\n",
		TG_LAYOUT_NAME);
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

int main(int argc, char **argv)
{
	int i;

	run.nr_threads = default_threads();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--threads")) {
			run.nr_threads = (unsigned int)parse_number(a, val, MAX_CPUS);
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
	run.pin = run.nr_threads <= allowed_cpus();
	print_layout();
	return run_workers();
}
