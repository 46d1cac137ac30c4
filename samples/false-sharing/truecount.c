// SPDX-License-Identifier: GPL-2.0
/*
 * True sharing: every thread increments the same counter. The HITMs are
 * real communication, not a layout accident, so padding does not remove
 * them: the -DPADDED build pads the counter to its own line and still
 * shows them.
 * usage: truecount [N]   (N increments per thread, default 50000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NR_THREADS 4

struct stats {
#ifdef PADDED
	long hits __attribute__((aligned(128)));
	char pad[120];
#else
	long hits;
#endif
};

static struct stats stats;
static long iterations = 50000;

static void *bump(void *unused)
{
	long i;

	for (i = 0; i < iterations; i++)
		__atomic_fetch_add(&stats.hits, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NR_THREADS];
	int i;

	if (argc > 1)
		iterations = atol(argv[1]);
	for (i = 0; i < NR_THREADS; i++)
		pthread_create(&t[i], NULL, bump, NULL);
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	printf("hits=%ld &hits=%p\n", stats.hits, (void *)&stats.hits);
	return 0;
}
