// SPDX-License-Identifier: GPL-2.0
/*
 * Counters in a block that no typed pointer holds: allocated through a
 * wrapper, reached through char arithmetic. Nothing in the DWARF says what
 * the block is, so the report names it by size, site and offset.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rounds = 20000;

static void *__attribute__((noinline)) get_block(size_t n)
{
	void *p = malloc(n); /* not a tail call: get_block is on the stack */

	if (!p)
		abort();
	return p;
}

struct job {
	void *base;
	size_t off;
};

static void *work(void *p)
{
	struct job *j = p;

	for (int i = 0; i < rounds; i++)
		__atomic_fetch_add((long *)((char *)j->base + j->off), 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	struct job jobs[2];
	void *base;

	if (argc > 1)
		rounds = atoi(argv[1]);
	base = get_block(96);
	memset(base, 0, 96);
	for (int i = 0; i < 2; i++) {
		jobs[i].base = base;
		jobs[i].off = 0x28 + 8 * i;
		pthread_create(&t[i], NULL, work, &jobs[i]);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("block=%p size=96\n", base);
	free(base);
	return 0;
}
