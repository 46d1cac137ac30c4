// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread argument structs in one calloc'd array (Phoenix
 * linear_regression's shape): neighbours share lines. Prints the block,
 * its size and every field's offset, so the test can check each name.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct worker_arg {
	long id;
	long sum_x;
	long sum_y;
};

static int rounds = 20000;

static void *work(void *p)
{
	struct worker_arg *a = p;

	for (int i = 0; i < rounds; i++) {
		__atomic_fetch_add(&a->sum_x, i, __ATOMIC_RELAXED);
		a->sum_y += a->sum_x;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 4;
	pthread_t t[4];
	struct worker_arg *args;

	if (argc > 1)
		rounds = atoi(argv[1]);
	args = calloc(n, sizeof(*args));
	for (int i = 0; i < n; i++) {
		args[i].id = i;
		pthread_create(&t[i], NULL, work, &args[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("block=%p size=%zu elem=%zu id=%zu sum_x=%zu sum_y=%zu\n", (void *)args,
	       n * sizeof(*args), sizeof(*args), offsetof(struct worker_arg, id),
	       offsetof(struct worker_arg, sum_x), offsetof(struct worker_arg, sum_y));
	free(args);
	return 0;
}
