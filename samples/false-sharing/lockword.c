// SPDX-License-Identifier: GPL-2.0
/*
 * A lock word next to read-mostly fields (perf c2c's own example): writer
 * threads take and release the lock, reader threads only read `limit` and
 * `scale`, which share the lock's line. Writers pin themselves to cpus 0
 * and 2, readers to cpus 1 and 3: with 4 cpus on 2 nodes (cpu c on node
 * c % 2, as `c2cscope record --sim --sim-cpus 4 --sim-nodes 2` sets up)
 * the readers' misses are remote HITMs. -DPADDED moves the lock and the
 * counter it guards to their own line, away from the fields the readers
 * use. Pinning errors (fewer real cpus) are ignored.
 * usage: lockword [N]   (N lock rounds per writer, default 20000)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
	int lock;
	long updates; /* written under the lock */
#ifdef PADDED
	char pad[112];
#endif
	long limit;
	long scale;
};

static struct config cfg = { .limit = 1000, .scale = 3 };
static long rounds = 20000;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *writer(void *arg)
{
	long i;

	pin((int)(long)arg);
	for (i = 0; i < rounds; i++) {
		while (__atomic_exchange_n(&cfg.lock, 1, __ATOMIC_ACQUIRE))
			;
		cfg.updates++;
		__atomic_store_n(&cfg.lock, 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *reader(void *arg)
{
	long sum = 0, i;

	pin((int)(long)arg);
	for (i = 0; i < rounds * 2; i++)
		sum += *(volatile long *)&cfg.limit * *(volatile long *)&cfg.scale;
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	int i;

	if (argc > 1)
		rounds = atol(argv[1]);
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, i % 2 ? reader : writer, (void *)(long)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("updates=%ld &lock=%p &limit=%p\n", cfg.updates, (void *)&cfg.lock,
	       (void *)&cfg.limit);
	return 0;
}
