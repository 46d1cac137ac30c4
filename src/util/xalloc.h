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
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
