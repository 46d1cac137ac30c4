/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heap addresses named through their block (src/heap/heap.h): the block a
 * row's data address falls in, where it was allocated (the innermost frame
 * of its stack whose object has debug info: function and source line), and,
 * when that allocation site's DWARF says what the block holds
 * (attrib_alloc_site), the element and field.
 */
#ifndef C2C_C2C_HEAP_H
#define C2C_C2C_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "attrib/attrib.h"
#include "c2c/c2c_session.h"

struct c2c_heap_ref {
	uint64_t block, size, offset; /* the block's start and size; the address's offset */
	const char *kind; /* "malloc", "calloc", ... */
	size_t nr_blocks; /* blocks that held the address over the run (> 1: reused) */
	bool mixed; /* they differ (start, size or site): the name is the last one's */
	const char *func, *srcline; /* the allocation site, NULL when unknown */
	/* When the site says what the block holds: */
	const struct type *type; /* NULL when it does not */
	const char *type_name, *var;
	uint64_t element; /* index of the element holding the address */
	uint64_t elem_offset; /* and the offset inside it */
	const char *field; /* its field path ("sum_x", "bins[3]"), "" for none */
};

/* The object file of a code mapping, opened for attribution, or NULL. */
typedef struct attrib *(*c2c_heap_open_fn)(void *ctx, const struct as_map *map, uint64_t *bias);

/*
 * The block holding addr (a sample address of process pid), filled in
 * out; false when no block held it. Strings are interned through intern.
 */
bool c2c_heap_lookup(struct c2c_session *s, uint64_t addr, uint32_t pid, c2c_heap_open_fn open,
		     void *ctx, const char *(*intern)(void *ctx, const char *s),
		     struct c2c_heap_ref *out);
/*
 * What the report shows: "args[1].sum_x" (a typed block; its variable, or
 * its type's name without one), else "heap block of 96 bytes from main
 * (prog.c:30), +0x28"; " (last of 3 blocks here)" after either when the
 * blocks that held the address differ.
 */
void c2c_heap_label(const struct c2c_heap_ref *h, struct strbuf *out);

#endif
