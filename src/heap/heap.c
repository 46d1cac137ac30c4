// SPDX-License-Identifier: GPL-2.0
/*
 * The heap block table: blocks in allocation order, the live ones by
 * start address (a hashmap), and for lookups an index sorted by start with
 * the running maximum of the ends, so that the blocks holding an address
 * are a short backward scan from the last one starting at or below it.
 */
#include "heap/heap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/hashmap.h"
#include "util/xalloc.h"

#define HEAP_FEATURE_VERSION 1
#define HEAP_BLOCK_BYTES 40 /* addr, size, alloc, free, tid + kind + nr_frames */

struct heap_table {
	struct heap_block *blocks;
	size_t nr, alloc;
	struct hashmap live; /* start -> index + 1 of the live block there */
	uint64_t unmatched;
	/* lookups: block indexes by start, and the largest end up to each */
	size_t *by_addr;
	uint64_t *max_end;
	size_t nr_sorted; /* == nr when the index is current */
};

struct heap_table *heap_table_new(void)
{
	struct heap_table *t = xcalloc(1, sizeof(*t));

	hashmap_init(&t->live);
	return t;
}

void heap_table_free(struct heap_table *t)
{
	if (!t)
		return;
	hashmap_release(&t->live);
	free(t->blocks);
	free(t->by_addr);
	free(t->max_end);
	free(t);
}

static uint64_t block_end(const struct heap_block *b)
{
	return b->addr + (b->size ? b->size : 1); /* malloc(0) still has an address */
}

static uint64_t live_key(uint64_t addr)
{
	return addr + 1; /* the hashmap's key 0 is taken */
}

/*
 * Live blocks overlapping [addr, end) were freed unseen: they end at time.
 * An allocator never hands out memory of a live block, so this is damage
 * (a lost FREE record): only the recent blocks are looked at.
 */
#define HEAP_OVERLAP_SCAN 256

static void end_overlapping(struct heap_table *t, uint64_t addr, uint64_t end, uint64_t time)
{
	size_t i, stop = t->nr > HEAP_OVERLAP_SCAN ? t->nr - HEAP_OVERLAP_SCAN : 0;

	for (i = t->nr; i-- > stop;) {
		struct heap_block *o = &t->blocks[i];

		if (o->free_time != HEAP_NEVER || o->addr >= end || block_end(o) <= addr)
			continue;
		if (hashmap_get(&t->live, live_key(o->addr)) != (void *)(uintptr_t)(i + 1))
			continue;
		o->free_time = time;
		hashmap_put(&t->live, live_key(o->addr), NULL);
		t->unmatched++;
	}
}

void heap_table_alloc(struct heap_table *t, const struct heap_block *b)
{
	uintptr_t same = (uintptr_t)hashmap_get(&t->live, live_key(b->addr));
	struct heap_block *nb;

	/*
	 * A live block at the same start is the common case of a missed
	 * free; others are rare enough for a scan of the recent blocks.
	 */
	if (same) {
		t->blocks[same - 1].free_time = b->alloc_time;
		t->unmatched++;
	}
	if (t->nr && block_end(&t->blocks[t->nr - 1]) > b->addr)
		end_overlapping(t, b->addr, block_end(b), b->alloc_time);
	t->blocks = xgrow(t->blocks, &t->alloc, t->nr + 1, sizeof(*t->blocks));
	nb = &t->blocks[t->nr++];
	*nb = *b;
	if (nb->nr_frames > HEAP_MAX_FRAMES)
		nb->nr_frames = HEAP_MAX_FRAMES;
	if (nb->free_time == 0)
		nb->free_time = HEAP_NEVER;
	if (nb->free_time == HEAP_NEVER)
		hashmap_put(&t->live, live_key(nb->addr), (void *)(uintptr_t)t->nr);
}

int heap_table_release(struct heap_table *t, uint64_t addr, uint64_t time)
{
	uintptr_t i = (uintptr_t)hashmap_get(&t->live, live_key(addr));

	if (!i) {
		t->unmatched++;
		return -ENOENT;
	}
	t->blocks[i - 1].free_time = time;
	hashmap_put(&t->live, live_key(addr), NULL);
	return 0;
}

static const struct heap_block *sort_blocks;

static int by_start(const void *pa, const void *pb)
{
	const struct heap_block *a = &sort_blocks[*(const size_t *)pa];
	const struct heap_block *b = &sort_blocks[*(const size_t *)pb];

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static void build_index(struct heap_table *t)
{
	size_t i;

	free(t->by_addr);
	free(t->max_end);
	t->by_addr = xmalloc((t->nr + 1) * sizeof(*t->by_addr));
	t->max_end = xmalloc((t->nr + 1) * sizeof(*t->max_end));
	for (i = 0; i < t->nr; i++)
		t->by_addr[i] = i;
	sort_blocks = t->blocks; /* the table is not shared between threads while it grows */
	qsort(t->by_addr, t->nr, sizeof(*t->by_addr), by_start);
	for (i = 0; i < t->nr; i++) {
		uint64_t end = block_end(&t->blocks[t->by_addr[i]]);

		t->max_end[i] = i && t->max_end[i - 1] > end ? t->max_end[i - 1] : end;
	}
	t->nr_sorted = t->nr;
}

/* The number of sorted blocks starting at or below addr. */
static size_t upper_bound(const struct heap_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr_sorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->blocks[t->by_addr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct heap_block *heap_table_find(struct heap_table *t, uint64_t addr, uint64_t time,
					 size_t *nr_blocks)
{
	const struct heap_block *best = NULL;
	size_t i, n = 0;

	if (t->nr_sorted != t->nr)
		build_index(t);
	for (i = upper_bound(t, addr); i-- > 0 && t->max_end[i] > addr;) {
		const struct heap_block *b = &t->blocks[t->by_addr[i]];

		if (block_end(b) <= addr)
			continue;
		n++;
		if (time != HEAP_ANY_TIME && (time < b->alloc_time || time >= b->free_time))
			continue;
		if (!best || b->alloc_time > best->alloc_time ||
		    (b->alloc_time == best->alloc_time && b > best))
			best = b;
	}
	if (nr_blocks)
		*nr_blocks = n;
	return best;
}

static bool alike(const struct heap_block *a, const struct heap_block *b)
{
	return a->addr == b->addr && a->size == b->size && a->nr_frames == b->nr_frames &&
	       (!a->nr_frames || a->frames[0] == b->frames[0]);
}

bool heap_table_all_like(struct heap_table *t, uint64_t addr, const struct heap_block *b)
{
	size_t i;

	if (t->nr_sorted != t->nr)
		build_index(t);
	for (i = upper_bound(t, addr); i-- > 0 && t->max_end[i] > addr;) {
		const struct heap_block *o = &t->blocks[t->by_addr[i]];

		if (block_end(o) > addr && !alike(o, b))
			return false;
	}
	return true;
}

size_t heap_table_count(const struct heap_table *t)
{
	return t->nr;
}

const struct heap_block *heap_table_block(const struct heap_table *t, size_t i)
{
	return i < t->nr ? &t->blocks[i] : NULL;
}

uint64_t heap_table_unmatched(const struct heap_table *t)
{
	return t->unmatched;
}

const char *heap_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[HEAP_MALLOC] = "malloc", [HEAP_CALLOC] = "calloc",   [HEAP_REALLOC] = "realloc",
		[HEAP_NEW] = "new",	  [HEAP_NEW_ARRAY] = "new[]",
	};

	return kind < HEAP_NR_KINDS ? names[kind] : "?";
}

/* ---- the feature section ---------------------------------------------- */

static void put_u64(struct strbuf *sb, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(sb, b, sizeof(b));
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * u32 version, u32 max frames, u64 count; per block: u64 addr, size,
 * alloc_time, free_time; u32 tid; u16 kind; u16 nr_frames; then nr_frames
 * u64 frames.
 */
void heap_table_encode(const struct heap_table *t, struct strbuf *out)
{
	size_t i, f;

	put_u64(out, (uint64_t)HEAP_MAX_FRAMES << 32 | HEAP_FEATURE_VERSION);
	put_u64(out, t->nr);
	for (i = 0; i < t->nr; i++) {
		const struct heap_block *b = &t->blocks[i];

		put_u64(out, b->addr);
		put_u64(out, b->size);
		put_u64(out, b->alloc_time);
		put_u64(out, b->free_time);
		put_u64(out, (uint64_t)b->nr_frames << 48 | (uint64_t)b->kind << 32 | b->tid);
		for (f = 0; f < b->nr_frames; f++)
			put_u64(out, b->frames[f]);
	}
}

static int decode_block(const unsigned char *p, size_t len, size_t *pos, struct heap_block *b)
{
	uint64_t w;
	size_t f;

	if (len - *pos < HEAP_BLOCK_BYTES)
		return -1;
	memset(b, 0, sizeof(*b));
	b->addr = get_u64(p + *pos);
	b->size = get_u64(p + *pos + 8);
	b->alloc_time = get_u64(p + *pos + 16);
	b->free_time = get_u64(p + *pos + 24);
	w = get_u64(p + *pos + 32);
	b->tid = (uint32_t)w;
	b->kind = (uint16_t)(w >> 32);
	b->nr_frames = (uint16_t)(w >> 48);
	*pos += HEAP_BLOCK_BYTES;
	if (b->nr_frames > HEAP_MAX_FRAMES)
		return -2;
	if (len - *pos < b->nr_frames * 8u)
		return -1;
	for (f = 0; f < b->nr_frames; f++)
		b->frames[f] = get_u64(p + *pos + 8 * f);
	*pos += b->nr_frames * 8u;
	return 0;
}

int heap_table_decode(const void *buf, size_t len, const char *name, struct heap_table **out,
		      struct err_msg *err)
{
	const unsigned char *p = buf;
	struct heap_table *t;
	uint64_t count, i, head;
	size_t pos = 16;

	*out = NULL;
	if (len < 16)
		return err_set(err, EINVAL, "%s: heap blocks: %zu bytes, expected at least 16",
			       name, len);
	head = get_u64(p);
	count = get_u64(p + 8);
	if ((uint32_t)head != HEAP_FEATURE_VERSION)
		return err_set(err, EINVAL, "%s: heap blocks at 0x0: version %u, expected %u", name,
			       (unsigned int)(uint32_t)head, HEAP_FEATURE_VERSION);
	if (count > (len - 16) / HEAP_BLOCK_BYTES)
		return err_set(err, EINVAL,
			       "%s: heap blocks at 0x8: %" PRIu64 " blocks do not fit in %zu bytes",
			       name, count, len);
	t = heap_table_new();
	for (i = 0; i < count; i++) {
		struct heap_block b;
		size_t at = pos;
		int r = decode_block(p, len, &pos, &b);

		if (r) {
			heap_table_free(t);
			return err_set(err, EINVAL,
				       r == -2 ? "%s: heap blocks at 0x%zx: block %" PRIu64
						 " has more than %d frames" :
						 "%s: heap blocks at 0x%zx: block %" PRIu64
						 " is cut short (%d frames at most)",
				       name, at, i, HEAP_MAX_FRAMES);
		}
		heap_table_alloc(t, &b);
	}
	*out = t;
	return 0;
}
