// SPDX-License-Identifier: GPL-2.0
/*
 * A counter alone in a cache-line-aligned anonymous struct, the way Aaron
 * Lu isolated task_group.load_avg: every thread adds to hits, all read
 * limit and scale. The profile must find hits inside its wrapper.
 *   anon_wrapper THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
	long limit;
	struct {
		long hits;
	} __attribute__((aligned(64)));
	long scale;
};

struct stats st = { .limit = 100, .scale = 3 };

static void *worker(void *arg)
{
	long n = (long)arg, i, sum = 0;

	for (i = 0; i < n; i++) {
		__atomic_fetch_add(&st.hits, 1, __ATOMIC_RELAXED);
		sum += *(volatile long *)&st.limit * *(volatile long *)&st.scale;
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	long threads = argc > 1 ? atol(argv[1]) : 4, n = argc > 2 ? atol(argv[2]) : 1000, i;
	pthread_t t[16];

	if (threads < 1 || threads > 16 || n < 1)
		return 2;
	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)n);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("hits %ld\n", st.hits);
	return st.hits == threads * n ? 0 : 1;
}
