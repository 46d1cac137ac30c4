/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heap blocks: what the program allocated, where and when, so that any
 * heap address can be named through the block holding it ("heap block of
 * 96 bytes from main (prog.c:30), +0x28") even when its instruction cannot
 * be traced.
 *
 * The table is built from allocation events (record --sim: c2csim replaces
 * the allocator and streams them) and travels in the perf.data as one
 * feature section of c2cscope's own (PERF_FEAT_C2C_HEAP_BLOCKS, a bit perf
 * does not know and skips). A block lives from its allocation to its free
 * (both in the recording's sample time); an address can belong to several
 * blocks over a run, one at a time.
 */
#ifndef C2C_HEAP_HEAP_H
#define C2C_HEAP_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

#define HEAP_MAX_FRAMES 6
#define HEAP_NEVER UINT64_MAX /* free_time of a block never freed */
#define HEAP_ANY_TIME UINT64_MAX /* heap_table_find: the time is unknown */

enum heap_kind {
	HEAP_MALLOC, /* malloc, valloc, memalign, posix_memalign, aligned_alloc */
	HEAP_CALLOC,
	HEAP_REALLOC,
	HEAP_NEW, /* C++ operator new */
	HEAP_NEW_ARRAY, /* operator new[] */
	HEAP_NR_KINDS,
};

struct heap_block {
	uint64_t addr, size;
	uint64_t alloc_time, free_time; /* [alloc_time, free_time) */
	uint32_t tid;
	uint16_t kind; /* enum heap_kind */
	uint16_t nr_frames;
	/* The allocating stack, innermost first: frames[0] is in the call to the allocator. */
	uint64_t frames[HEAP_MAX_FRAMES];
};

struct heap_table;

struct heap_table *heap_table_new(void);
void heap_table_free(struct heap_table *t);

/*
 * A block allocated. A live block it overlaps was freed unseen: that one
 * ends at b->alloc_time (counted in heap_table_unmatched).
 */
void heap_table_alloc(struct heap_table *t, const struct heap_block *b);
/* The live block starting at addr is freed at time; -ENOENT when there is none. */
int heap_table_release(struct heap_table *t, uint64_t addr, uint64_t time);

/*
 * The block holding addr at time, or NULL. With HEAP_ANY_TIME (a row that
 * aggregates samples of the whole run) the block allocated last among
 * those that ever held addr. *nr_blocks (may be NULL) gets how many
 * blocks held addr over the run.
 */
const struct heap_block *heap_table_find(struct heap_table *t, uint64_t addr, uint64_t time,
					 size_t *nr_blocks);

/*
 * Whether every block that held addr over the run is like b: the same
 * start, size and allocation site (innermost frame). When not, a name
 * from b alone is only the last block's.
 */
bool heap_table_all_like(struct heap_table *t, uint64_t addr, const struct heap_block *b);

size_t heap_table_count(const struct heap_table *t);
/* Block i, in allocation order. */
const struct heap_block *heap_table_block(const struct heap_table *t, size_t i);
/* Frees of no live block, and live blocks an allocation overlapped. */
uint64_t heap_table_unmatched(const struct heap_table *t);

/* "malloc", "calloc", "realloc", "new", "new[]". */
const char *heap_kind_name(unsigned int kind);

/* The feature section's bytes (little-endian, version 1), appended to out. */
void heap_table_encode(const struct heap_table *t, struct strbuf *out);
/*
 * A table from a feature section. name names the file for errors:
 * "perf.data: heap blocks at 0x38: block 3 has 9 frames, expected at most 6".
 */
int heap_table_decode(const void *buf, size_t len, const char *name, struct heap_table **out,
		      struct err_msg *err);

#endif
