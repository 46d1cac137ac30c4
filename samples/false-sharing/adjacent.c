// SPDX-License-Identifier: GPL-2.0
/*
 * False sharing, the classic: two threads each increment their own counter,
 * but the counters sit next to each other in one struct, so every increment
 * pulls the line out of the other core (HITM). Built twice: as is, and with
 * -DPADDED, which gives each counter its own 128-byte block.
 * usage: adjacent [N [atomic|plain]]   (N increments per thread, default 100000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PADDED
#define PAD(n) char pad##n[120]
#else
#define PAD(n)
#endif

struct counters {
	long a;
	PAD(1);
	long b;
	PAD(2);
};

static struct counters counters;
static long iterations = 100000;
static int atomic = 1;

static void *bump(void *arg)
{
	long *c = arg;
	long i;

	for (i = 0; i < iterations; i++) {
		if (atomic)
			__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
		else
			(*(volatile long *)c)++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t ta, tb;

	if (argc > 1)
		iterations = atol(argv[1]);
	if (argc > 2)
		atomic = strcmp(argv[2], "plain") != 0;
	pthread_create(&ta, NULL, bump, &counters.a);
	pthread_create(&tb, NULL, bump, &counters.b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	printf("a=%ld b=%ld &a=%p &b=%p\n", counters.a, counters.b, (void *)&counters.a,
	       (void *)&counters.b);
	return 0;
}
