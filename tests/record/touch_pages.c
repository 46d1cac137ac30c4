// SPDX-License-Identifier: GPL-2.0
/*
 * Touches every page of a fresh buffer once, in a function of its own, and
 * prints the buffer's first page and page count: each touch is one page
 * fault whose data address is that page. With an argument it waits that
 * many seconds first (to be attached to) and repeats on new buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define NR_PAGES 64

__attribute__((noinline)) void touch_pages(volatile char *buf, long page)
{
	for (int i = 0; i < NR_PAGES; i++)
		buf[i * page] = (char)i;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int rounds = argc > 1 ? atoi(argv[1]) : 1;

	for (int r = 0; r < rounds; r++) {
		char *buf = mmap(NULL, NR_PAGES * page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (buf == MAP_FAILED)
			return 1;
		if (argc > 1)
			sleep(1);
		touch_pages(buf, page);
		printf("%lx %d %ld\n", (unsigned long)buf, NR_PAGES, page);
		fflush(stdout);
	}
	return 7; /* the recorder passes this through */
}
