// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread arguments declared the way many C code bases do, as a typedef
 * of an anonymous struct: "typedef struct { ... } args_t;". Each thread
 * writes its own element's sum and count; neighbouring elements share a
 * cache line (false sharing). Every 16 updates each also counts into a
 * heap-allocated totals_t that only a pointer reaches. The program prints the layout the compiler
 * gave, so a test can compare c2cscope's numbers with sizeof and offsetof.
 * usage: typedef_args [N]   (N updates per thread, default 2000)
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define NR_THREADS 4

typedef struct {
	long id;
	long sum;
	long count;
} args_t;

typedef struct {
	long done;
} totals_t;

static args_t args[NR_THREADS];
static totals_t *totals;
static long updates = 2000;

static void *work(void *p)
{
	args_t *a = p;
	long i;

	for (i = 0; i < updates; i++) {
		((volatile args_t *)a)->sum += i ^ a->id;
		((volatile args_t *)a)->count++;
		if (!(i & 15))
			__atomic_fetch_add(&totals->done, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NR_THREADS];
	int i;

	if (argc > 1)
		updates = atol(argv[1]);
	totals = aligned_alloc(64, 64);
	totals->done = 0;
	for (i = 0; i < NR_THREADS; i++) {
		args[i].id = i;
		pthread_create(&t[i], NULL, work, &args[i]);
	}
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	printf("sizeof=%zu id=%zu sum=%zu count=%zu\n", sizeof(args_t), offsetof(args_t, id),
	       offsetof(args_t, sum), offsetof(args_t, count));
	free(totals);
	return 0;
}
