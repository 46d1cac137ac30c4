// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads, two fields: thread 1 writes counters.a, thread 2 writes
 * counters.b, N times each (argv[1], default 200000). Built twice by the
 * tests: with the fields on one cache line, and with -DPADDED on two.
 * argv[2] "read": thread 2 also reads counters.a once per ten writes
 * (read/write separation). argv[2] "heap": the same on a heap object, whose address is
 * printed first (for TYPE.field@ADDR), and the threads start on a newline
 * from stdin. argv[2] "spin": run until killed (attach with -p).
 * argv[2] "copy": no threads; the kernel writes counters.b N times
 * (read from /dev/zero: copy_to_user).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

struct pair {
	volatile long a;
#ifdef PADDED
	char pad[64];
#endif
	volatile long b;
	long other;
};

struct pair counters;
static struct pair *obj = &counters;
static long n = 200000;
static int spin, readers;
static volatile long sink;

static void *write_a(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < n || spin; i++)
		obj->a = i; /* the writer of a */
	return NULL;
}

static void *write_b(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < n || spin; i++) {
		obj->b = i; /* the writer of b */
		if (readers && i % 10 == 0)
			sink = obj->a; /* the reader of a */
	}
	return NULL;
}

static int copy_in(long times)
{
	int fd = open("/dev/zero", O_RDONLY);
	long i;

	if (fd < 0)
		return 3;
	for (i = 0; i < times; i++)
		if (read(fd, (void *)&counters.b, sizeof(counters.b)) != sizeof(counters.b))
			return 4;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
	char line[8];

	if (argc > 1)
		n = atol(argv[1]);
	if (argc > 2 && !strcmp(argv[2], "heap")) {
		obj = calloc(1, sizeof(*obj));
		printf("%p\n", (void *)obj);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 3;
	}
	if (argc > 2 && !strcmp(argv[2], "copy"))
		return copy_in(n);
	spin = argc > 2 && !strcmp(argv[2], "spin");
	readers = argc > 2 && !strcmp(argv[2], "read");
	pthread_create(&t1, NULL, write_a, NULL);
	pthread_create(&t2, NULL, write_b, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return argc > 3 ? atoi(argv[3]) : 0; /* the exit status the watch passes on */
}
