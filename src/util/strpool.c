// SPDX-License-Identifier: GPL-2.0
/* String pools (strpool.h). */
#include "util/strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void strpool_init(struct strpool *p)
{
	memset(p, 0, sizeof(*p));
	hashmap_init(&p->by_hash);
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	uint64_t h = hash_str(s);
	const char *old = hashmap_get(&p->by_hash, h);
	char *copy;

	if (old && !strcmp(old, s))
		return old;
	/* a hash collision keeps its own copy, outside the map */
	copy = xstrdup(s);
	p->owned = xgrow(p->owned, &p->alloc, p->nr + 1, sizeof(*p->owned));
	p->owned[p->nr++] = copy;
	if (!old)
		hashmap_put(&p->by_hash, h, copy);
	return copy;
}

void strpool_release(struct strpool *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->owned[i]);
	free(p->owned);
	hashmap_release(&p->by_hash);
	memset(p, 0, sizeof(*p));
}
