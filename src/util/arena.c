// SPDX-License-Identifier: GPL-2.0
/* Chunked arenas (arena.h). */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	_Alignas(64) unsigned char mem[];
};

_Static_assert(sizeof(struct arena_chunk) == ARENA_CHUNK_OVERHEAD, "arena chunk header");

static struct arena_chunk *chunk_new(const struct arena *a, size_t size)
{
	size_t bytes = sizeof(struct arena_chunk) + size;
	struct arena_chunk *c = a->huge ? xmalloc_huge(bytes) : xmalloc(bytes);

	c->next = NULL;
	c->used = 0;
	c->size = size;
	return c;
}

void *arena_alloc(struct arena *a, size_t size, size_t align)
{
	struct arena_chunk *c = a->chunks;
	size_t at;
	void *p;

	size = (size + 7) & ~(size_t)7;
	at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || at + size > c->size) {
		if (size > a->chunk_size / 4) {
			struct arena_chunk *big = chunk_new(a, size);

			if (c) {
				big->next = c->next;
				c->next = big;
			} else {
				a->chunks = big;
			}
			big->used = size;
			memset(big->mem, 0, size);
			return big->mem;
		}
		c = chunk_new(a, a->chunk_size);
		c->next = a->chunks;
		a->chunks = c;
		at = 0;
	}
	p = c->mem + at;
	c->used = at + size;
	memset(p, 0, size);
	return p;
}

void arena_splice(struct arena *to, struct arena *from)
{
	struct arena_chunk *tail;

	if (!from->chunks)
		return;
	for (tail = from->chunks; tail->next; tail = tail->next)
		;
	if (to->chunks) {
		tail->next = to->chunks->next;
		to->chunks->next = from->chunks;
	} else {
		to->chunks = from->chunks;
	}
	from->chunks = NULL;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	a->chunks = NULL;
}
