/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arenas: many small objects that live as long as their owner (a type
 * model's types and strings, a c2c model's lines and rows), carved out of
 * big chunks and freed all at once. What is handed out is zeroed.
 */
#ifndef C2C_UTIL_ARENA_H
#define C2C_UTIL_ARENA_H

#include <stdbool.h>
#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks; /* newest first */
	size_t chunk_size; /* bytes a chunk holds (ARENA_CHUNK_OVERHEAD aside) */
	/*
	 * Chunks on transparent huge pages (xmalloc_huge): objects reached
	 * at random then cost far fewer TLB misses.
	 */
	bool huge;
};

/* A chunk's header: chunk_size + this is what one chunk allocates. */
#define ARENA_CHUNK_OVERHEAD 64

#define ARENA_INIT(size, on_huge_pages)                       \
	{                                                     \
		.chunk_size = (size), .huge = (on_huge_pages) \
	}

/*
 * SIZE zeroed bytes at a multiple of ALIGN (a power of two, at most 64)
 * from the chunk's start. A block over a quarter of a chunk gets a chunk
 * of its own, behind the current one, whose free space stays in use.
 */
void *arena_alloc(struct arena *a, size_t size, size_t align);
/* FROM's chunks join TO's (behind TO's newest); FROM is left empty. */
void arena_splice(struct arena *to, struct arena *from);
void arena_release(struct arena *a);

#endif
