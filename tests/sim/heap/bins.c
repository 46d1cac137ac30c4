// SPDX-License-Identifier: GPL-2.0
/*
 * A histogram per thread, each in a typedef'd struct of one malloc'd
 * array; the threads count through a pointer into their member array
 * (int *bins = t->bins; bins[k]++), which names only an int. The block
 * names it: targs[i].bins[k].
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	int id;
	int bins[5];
} thread_arg_t;

static int rounds = 20000;

static void __attribute__((noinline)) count(int *bins, int k)
{
	bins[k]++;
}

static void *work(void *p)
{
	thread_arg_t *t = p;
	int *bins = t->bins;

	for (int i = 0; i < rounds; i++)
		count(bins, i % 5);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 4;
	pthread_t th[4];
	thread_arg_t *targs;

	if (argc > 1)
		rounds = atoi(argv[1]);
	targs = malloc(n * sizeof(thread_arg_t));
	for (int i = 0; i < n; i++) {
		targs[i].id = i;
		for (int k = 0; k < 5; k++)
			targs[i].bins[k] = 0;
		pthread_create(&th[i], NULL, work, &targs[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("block=%p size=%zu elem=%zu bins=%zu\n", (void *)targs, n * sizeof(thread_arg_t),
	       sizeof(thread_arg_t), offsetof(thread_arg_t, bins));
	free(targs);
	return 0;
}
