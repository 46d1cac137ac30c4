// SPDX-License-Identifier: GPL-2.0
/*
 * Memory reused by another block: a struct of counters freed, then a
 * second block of the same size from another site, which the allocator
 * puts at the same address, fought over by two threads. A row aggregates
 * the whole run, so its name is the last block's and says it was not the
 * only one there.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct first {
	long a[8];
};

struct second {
	long hits;
	long misses;
	long pad[6];
};

static struct second *shared;

static void *work(void *p)
{
	long *c = (long)p ? &shared->misses : &shared->hits;

	for (int i = 0; i < 3000; i++)
		__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	struct first *f = malloc(sizeof(*f));

	for (int i = 0; i < 8; i++)
		f->a[i] = i;
	printf("first=%p\n", (void *)f);
	free(f);
	shared = calloc(1, sizeof(*shared));
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("block=%p size=%zu hits=%zu misses=%zu\n", (void *)shared, sizeof(*shared),
	       offsetof(struct second, hits), offsetof(struct second, misses));
	free(shared);
	return 0;
}
