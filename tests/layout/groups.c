// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel cache-line groups for tests/layout/groups.sh: a group of bitfields
 * (the compiler's answer for the bytes they use is printed by main), a
 * group without its end marker and an end without its begin.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define BEGIN(g) unsigned char __cacheline_group_begin__##g[0]
#define END(g) unsigned char __cacheline_group_end__##g[0]

struct bits_group {
	long head;
	BEGIN(flags);
	unsigned char a : 1, b : 1, c : 1, d : 1, e : 1;
	unsigned short port;
	unsigned int wide : 20, narrow : 3;
	END(flags);
	long tail;
	BEGIN(open);
	int z;
	END(orphan);
	int w;
};

int main(void)
{
	struct bits_group s;
	const unsigned char *p = (const unsigned char *)&s;
	size_t start = offsetof(struct bits_group, __cacheline_group_begin__flags);
	size_t stop = offsetof(struct bits_group, __cacheline_group_end__flags);
	size_t used = 0, i;

	/* Set every bit of every member inside; count the bytes that changed. */
	memset(&s, 0, sizeof(s));
	s.a = s.b = s.c = s.d = s.e = 1;
	s.port = 0xffff;
	s.wide = 0xfffff;
	s.narrow = 7;
	for (i = start; i < stop; i++)
		used += p[i] != 0;
	printf("%zu %zu\n", used, stop - start);
	return 0;
}
