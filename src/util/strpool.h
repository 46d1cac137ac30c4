/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A string pool: one copy of each string for the pool's lifetime, found by
 * hash, owned by the pool and freed with it.
 */
#ifndef C2C_UTIL_STRPOOL_H
#define C2C_UTIL_STRPOOL_H

#include <stddef.h>

#include "util/hashmap.h"

struct strpool {
	struct hashmap by_hash; /* hash -> the first string of that hash */
	char **owned; /* every copy made */
	size_t nr, alloc;
};

void strpool_init(struct strpool *p);
/* The pool's copy of S (made on first use). */
const char *strpool_intern(struct strpool *p, const char *s);
void strpool_release(struct strpool *p);

#endif
