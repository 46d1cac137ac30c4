// SPDX-License-Identifier: GPL-2.0
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void *check(void *p, size_t size)
{
	if (!p && size) {
		fprintf(stderr, "c2cscope: out of memory (%zu bytes)\n", size);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1), size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1), nmemb * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1), size);
}

void *xgrow(void *ptr, size_t *alloc, size_t need, size_t elem_size)
{
	size_t n = *alloc;

	if (need <= n)
		return ptr;
	n = n ? n * 2 : 8;
	if (n < need)
		n = need;
	ptr = xrealloc(ptr, n * elem_size);
	*alloc = n;
	return ptr;
}

void *xmalloc_huge(size_t size)
{
	size_t rounded = (size + XALLOC_HUGE_PAGE - 1) & ~(XALLOC_HUGE_PAGE - 1);
	void *p;

	if (size < XALLOC_HUGE_PAGE / 4 || rounded < size)
		return xmalloc(size);
	p = aligned_alloc(XALLOC_HUGE_PAGE, rounded);
	if (!p)
		return xmalloc(size);
	madvise(p, rounded, MADV_HUGEPAGE);
	return p;
}

char *xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n), n + 1);
}
