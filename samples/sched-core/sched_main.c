// SPDX-License-Identifier: GPL-2.0
/*
 * sched-core's cpus: set up the groups, the per-cpu queues and the pipe
 * pairs, run one thread per cpu through sched_core.c's wakeup path, and
 * check at the end that tg->load_avg is the sum of the cpus' contributions.
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

#include "sched_core.h"

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
