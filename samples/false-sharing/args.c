// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread argument structs allocated in one array (the Phoenix
 * linear_regression shape): each thread only writes its own element, but
 * neighbouring elements share cache lines. -DPADDED aligns each element to
 * 128 bytes.
 * usage: args [N]   (N updates per thread, default 50000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NR_THREADS 4

struct thread_arg {
	long id;
	long sum;
	long count;
#ifdef PADDED
} __attribute__((aligned(128)));
#else
};
#endif

static long updates = 50000;

static void *work(void *p)
{
	struct thread_arg *a = p;
	long i;

	for (i = 0; i < updates; i++) {
		((volatile struct thread_arg *)a)->sum += i ^ a->id;
		((volatile struct thread_arg *)a)->count++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct thread_arg *args;
	pthread_t t[NR_THREADS];
	long total = 0;
	int i;

	if (argc > 1)
		updates = atol(argv[1]);
	args = aligned_alloc(128, 128 * NR_THREADS);
	for (i = 0; i < NR_THREADS; i++) {
		args[i] = (struct thread_arg){ .id = i };
		pthread_create(&t[i], NULL, work, &args[i]);
	}
	for (i = 0; i < NR_THREADS; i++) {
		pthread_join(t[i], NULL);
		total += args[i].count;
	}
	printf("total=%ld size=%zu array=%p\n", total, sizeof(struct thread_arg), (void *)args);
	free(args);
	return 0;
}
