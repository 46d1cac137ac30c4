/* A small workload for perf record in the reader tests. */
#include <stdlib.h>

volatile long arr[1 << 16];

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000, i;

	for (i = 0; i < n; i++)
		arr[(i * 7) & 0xffff] += i;
	return 0;
}
