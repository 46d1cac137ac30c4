// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads that only store, each to its own half of one cache line:
 * every store takes the line from the other cpu (RFO ping-pong), yet no
 * load ever sees a HITM, so perf c2c does not count the line as shared.
 * Prints the line's address, for the test to find it in the report.
 * usage: store_only [N]   (N stores per thread, default 20000)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct pair {
	long a;
	long b;
} __attribute__((aligned(64)));

static struct pair pair;
static long updates = 20000;

static void *store_a(void *p)
{
	long i;

	for (i = 0; i < updates; i++)
		((volatile struct pair *)&pair)->a = i;
	return NULL;
}

static void *store_b(void *p)
{
	long i;

	for (i = 0; i < updates; i++)
		((volatile struct pair *)&pair)->b = i;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		updates = atol(argv[1]);
	pthread_create(&t[0], NULL, store_a, NULL);
	pthread_create(&t[1], NULL, store_b, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	printf("line=%#lx\n", (unsigned long)(uintptr_t)&pair);
	return 0;
}
