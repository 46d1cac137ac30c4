// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread argument structs allocated in one array (the Phoenix
 * linear_regression shape): each thread only writes its own element, but
 * neighbouring elements share cache lines. -DPADDED aligns each element to
 * 128 bytes.
 *
 * Each thread initialises its own element and hands its count back as the
 * thread's return value, as such code usually does, so no line of the array
 * passes from one thread to another on purpose: every HITM on the array is
 * between neighbouring elements (false sharing), and the padded build has
 * none. The array is freed while the threads' lines are still in their
 * caches: free() reads the first element's second word (glibc's tcache
 * double-free check), a real hand-off to main, outside the threads' code.
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
static struct thread_arg *args;

static void *work(void *p)
{
	struct thread_arg *a = p;
	long i;

	*a = (struct thread_arg){ .id = a - args };
	for (i = 0; i < updates; i++) {
		((volatile struct thread_arg *)a)->sum += i ^ a->id;
		((volatile struct thread_arg *)a)->count++;
	}
	return (void *)a->count;
}

int main(int argc, char **argv)
{
	pthread_t t[NR_THREADS];
	long total = 0;
	int i;

	if (argc > 1)
		updates = atol(argv[1]);
	args = aligned_alloc(128, 128 * NR_THREADS);
	for (i = 0; i < NR_THREADS; i++)
		pthread_create(&t[i], NULL, work, &args[i]);
	for (i = 0; i < NR_THREADS; i++) {
		void *count;

		pthread_join(t[i], &count);
		total += (long)count;
	}
	printf("total=%ld size=%zu array=%p\n", total, sizeof(struct thread_arg), (void *)args);
	free(args);
	return 0;
}
