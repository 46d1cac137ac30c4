// SPDX-License-Identifier: GPL-2.0
/*
 * C++: an array from new[] of per-thread counters, value-initialised
 * (g++ -O0 zeroes it in a loop before storing the pointer), freed with
 * delete[]. The rows name cs[i].hits through the block.
 */
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

struct counter {
	long hits;
	long misses;
};

static int rounds = 3000;

static void *work(void *p)
{
	counter *c = static_cast<counter *>(p);

	for (int i = 0; i < rounds; i++)
		__atomic_fetch_add(&c->hits, 1, __ATOMIC_RELAXED);
	return nullptr;
}

int main(int argc, char **argv)
{
	pthread_t t[4];

	if (argc > 1)
		rounds = std::atoi(argv[1]);
	counter *cs = new counter[4](); // new[]
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], nullptr, work, &cs[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], nullptr);
	std::printf("block=%p size=%zu elem=%zu hits=%zu misses=%zu\n", (void *)cs,
		    4 * sizeof(counter), sizeof(counter), offsetof(counter, hits),
		    offsetof(counter, misses));
	delete[] cs;
	return 0;
}
