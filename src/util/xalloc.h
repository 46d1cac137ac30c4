/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation that cannot fail: out of memory is not an input error we can
 * report usefully, so these abort with a message instead of returning NULL.
 */
#ifndef C2C_UTIL_XALLOC_H
#define C2C_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow *ptr (of *alloc elements of elem_size) so that it holds need elements. */
void *xgrow(void *ptr, size_t *alloc, size_t need, size_t elem_size);
/*
 * Memory that is about to be filled: from 512 KiB on, rounded up to whole
 * 2 MiB pages and advised onto transparent huge pages, so that it costs one
 * page fault per 2 MiB instead of 512 (on a VM a 4 KiB fault costs tens of
 * microseconds). Not zeroed; freed with free().
 */
void *xmalloc_huge(size_t size);
#define XALLOC_HUGE_PAGE (2UL << 20)
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
