// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads, each pinned to its own cpu (i % online cpus), each touching
 * its own pages between short sleeps: they switch in and out and may
 * migrate when pinned. Prints each thread's tid.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NR_PAGES 16

static void *worker(void *arg)
{
	long i = (long)arg, page = sysconf(_SC_PAGESIZE);
	struct timespec nap = { 0, 5 * 1000 * 1000 };
	char *buf = mmap(NULL, NR_PAGES * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(i % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
	printf("%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (int r = 0; r < 4; r++) {
		nanosleep(&nap, NULL);
		for (int p = r * 4; p < r * 4 + 4; p++)
			buf[p * page] = 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
