// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads, each restricted to the same cpu mask (argv[1], e.g. "2,3"),
 * increment adjacent counters (one cache line) N times (argv[2]). Mode
 * (argv[3]): "self" - each thread calls sched_setaffinity on itself;
 * "inherit" - main restricts itself first and the threads inherit the mask.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	long a, b;
} counters __attribute__((aligned(64))); /* a line of their own */
static cpu_set_t mask;
static long n;
static int self_pin;

static void *work(void *arg)
{
	long *c = arg, i;

	if (self_pin && sched_setaffinity(0, sizeof(mask), &mask))
		perror("sched_setaffinity");
	for (i = 0; i < n; i++)
		__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	char *list, *tok;

	if (argc < 4)
		return 2;
	CPU_ZERO(&mask);
	list = strdup(argv[1]);
	for (tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
		CPU_SET(atoi(tok), &mask);
	n = atol(argv[2]);
	self_pin = !strcmp(argv[3], "self");
	if (!self_pin && sched_setaffinity(0, sizeof(mask), &mask))
		perror("sched_setaffinity");
	pthread_create(&t[0], NULL, work, &counters.a);
	pthread_create(&t[1], NULL, work, &counters.b);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	printf("a=%ld b=%ld counters=%p\n", counters.a, counters.b, (void *)&counters);
	free(list);
	return 0;
}
