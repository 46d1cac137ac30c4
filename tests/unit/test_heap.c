// SPDX-License-Identifier: GPL-2.0
/*
 * The heap block table (src/heap/heap.h): lookups inside, at the edges and
 * outside a block; a freed block holds no address after its free but still
 * does before it; a realloc (free + new block) names the old and the new
 * address by time; an address reused by another block is named by the
 * block live at the sample's time, and by the last one without a time; an
 * allocation over a live block ends that one (a lost free), and blocks that
 * differ at one address are told apart from alike ones; blocks nested
 * in address behind a large one are still found; the feature section
 * round-trips and its damage is named with its offset.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heap/heap.h"

static struct heap_block blk(uint64_t addr, uint64_t size, uint64_t time)
{
	struct heap_block b = { .addr = addr, .size = size, .alloc_time = time };

	b.free_time = HEAP_NEVER;
	b.nr_frames = 2;
	b.frames[0] = 0x401000 + addr;
	b.frames[1] = 0x402000;
	return b;
}

static void lookup(void **state)
{
	struct heap_table *t = heap_table_new();
	struct heap_block a = blk(0x1000, 96, 10), b = blk(0x1060, 32, 11);
	size_t n;

	(void)state;
	heap_table_alloc(t, &a);
	heap_table_alloc(t, &b);
	assert_int_equal(heap_table_count(t), 2);
	assert_ptr_equal(heap_table_find(t, 0x1000, 20, &n)->addr, 0x1000);
	assert_int_equal(n, 1);
	assert_int_equal(heap_table_find(t, 0x1028, 20, NULL)->size, 96);
	assert_int_equal(heap_table_find(t, 0x105f, 20, NULL)->addr, 0x1000);
	assert_int_equal(heap_table_find(t, 0x1060, 20, NULL)->addr, 0x1060);
	assert_null(heap_table_find(t, 0x1080, 20, &n));
	assert_int_equal(n, 0);
	assert_null(heap_table_find(t, 0xfff, 20, NULL));
	/* before its allocation the block holds nothing */
	assert_null(heap_table_find(t, 0x1000, 9, NULL));
	assert_int_equal(heap_table_find(t, 0x1000, HEAP_ANY_TIME, NULL)->frames[0], 0x402000);
	heap_table_free(t);
}

static void free_and_realloc(void **state)
{
	struct heap_table *t = heap_table_new();
	struct heap_block a = blk(0x1000, 64, 10), r = blk(0x2000, 128, 30);

	(void)state;
	r.kind = HEAP_REALLOC;
	heap_table_alloc(t, &a);
	assert_int_equal(heap_table_release(t, 0x1000, 30), 0);
	heap_table_alloc(t, &r);
	assert_int_equal(heap_table_release(t, 0x1000, 31), -ENOENT); /* double free */
	assert_int_equal(heap_table_unmatched(t), 1);
	assert_int_equal(heap_table_find(t, 0x1010, 29, NULL)->size, 64);
	assert_null(heap_table_find(t, 0x1010, 30, NULL)); /* freed at 30 */
	assert_int_equal(heap_table_find(t, 0x2070, 30, NULL)->kind, HEAP_REALLOC);
	assert_string_equal(heap_kind_name(HEAP_REALLOC), "realloc");
	heap_table_free(t);
}

static void reuse_and_overlap(void **state)
{
	struct heap_table *t = heap_table_new();
	struct heap_block a = blk(0x1000, 64, 10), b = blk(0x1000, 32, 50);
	struct heap_block c = blk(0x1010, 64, 60), big = blk(0x10000, 0x1000, 1);
	struct heap_block in = blk(0x10800, 16, 2);
	size_t n;

	(void)state;
	heap_table_alloc(t, &big);
	heap_table_alloc(t, &a);
	heap_table_release(t, 0x1000, 40);
	heap_table_alloc(t, &b);
	assert_int_equal(heap_table_find(t, 0x1008, 35, NULL)->alloc_time, 10);
	assert_null(heap_table_find(t, 0x1008, 45, NULL));
	assert_int_equal(heap_table_find(t, 0x1008, 55, NULL)->alloc_time, 50);
	assert_int_equal(heap_table_find(t, 0x1008, HEAP_ANY_TIME, &n)->alloc_time, 50);
	assert_int_equal(n, 2);
	/* a and b differ in size: a name from the last one is not every block's */
	assert_false(heap_table_all_like(t, 0x1008, heap_table_find(t, 0x1008, 55, NULL)));
	assert_true(heap_table_all_like(t, 0x1028, heap_table_find(t, 0x1028, 35, NULL)));
	/* c overlaps the live b: b was freed unseen, at 60 */
	heap_table_alloc(t, &c);
	assert_int_equal(heap_table_unmatched(t), 1);
	assert_int_equal(heap_table_find(t, 0x1018, 70, NULL)->addr, 0x1010);
	assert_int_equal(heap_table_find(t, 0x1018, 55, NULL)->addr, 0x1000);
	assert_int_equal(heap_table_release(t, 0x1000, 80), -ENOENT);
	/* a block after a big one that ends later: the scan goes past it */
	heap_table_release(t, 0x10000, 3);
	heap_table_alloc(t, &in);
	assert_int_equal(heap_table_find(t, 0x10808, 5, NULL)->addr, 0x10800);
	assert_int_equal(heap_table_find(t, 0x10f00, 2, NULL)->addr, 0x10000);
	assert_null(heap_table_find(t, 0x10f00, 5, NULL));
	heap_table_free(t);
}

static void feature_round_trip(void **state)
{
	struct heap_table *t = heap_table_new(), *back;
	struct heap_block a = blk(0x1000, 64, 10), b = blk(0x2000, 24, 12);
	struct strbuf sb = STRBUF_INIT;
	struct err_msg err = { 0 };
	size_t i;

	(void)state;
	b.kind = HEAP_NEW_ARRAY;
	b.tid = 4242;
	b.nr_frames = HEAP_MAX_FRAMES;
	for (i = 0; i < HEAP_MAX_FRAMES; i++)
		b.frames[i] = 0x400000 + i;
	heap_table_alloc(t, &a);
	heap_table_alloc(t, &b);
	heap_table_release(t, 0x1000, 20);
	heap_table_encode(t, &sb);
	assert_int_equal(heap_table_decode(sb.buf, sb.len, "x.data", &back, &err), 0);
	assert_int_equal(heap_table_count(back), 2);
	assert_memory_equal(heap_table_block(back, 0), heap_table_block(t, 0),
			    sizeof(struct heap_block));
	assert_memory_equal(heap_table_block(back, 1), heap_table_block(t, 1),
			    sizeof(struct heap_block));
	heap_table_free(back);
	/* cut inside the second block's frames */
	assert_int_equal(heap_table_decode(sb.buf, sb.len - 8, "x.data", &back, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "x.data: heap blocks at 0x48: block 1 is cut short (6 frames at most)");
	/* a frame count beyond the format's */
	sb.buf[16 + 32 + 7] = 9 >> 8;
	sb.buf[16 + 32 + 6] = 9;
	assert_int_equal(heap_table_decode(sb.buf, sb.len, "x.data", &back, &err), -EINVAL);
	assert_string_equal(err.msg, "x.data: heap blocks at 0x10: block 0 has more than 6 frames");
	assert_int_equal(heap_table_decode(sb.buf, 8, "x.data", &back, &err), -EINVAL);
	assert_null(back);
	strbuf_release(&sb);
	heap_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup),
		cmocka_unit_test(free_and_realloc),
		cmocka_unit_test(reuse_and_overlap),
		cmocka_unit_test(feature_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
