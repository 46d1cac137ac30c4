/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of small integers (cpus, nodes, feature bits) as arrays of 64-bit
 * words, bit n in word n / 64: the one copy of the bit arithmetic, and of
 * how a set is written.
 */
#ifndef UTIL_BITMAP_H
#define UTIL_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Words that hold n bits (at least one, so that an empty set can be allocated). */
static inline size_t bitmap_words(size_t n)
{
	return n ? (n + 63) / 64 : 1;
}

static inline bool bitmap_test(const uint64_t *map, size_t bit)
{
	return map[bit / 64] >> (bit % 64) & 1;
}

static inline void bitmap_set(uint64_t *map, size_t bit)
{
	map[bit / 64] |= 1ULL << (bit % 64);
}

/* dst |= src over words words. */
static inline void bitmap_or(uint64_t *dst, const uint64_t *src, size_t words)
{
	size_t w;

	for (w = 0; w < words; w++)
		dst[w] |= src[w];
}

struct strbuf;

/*
 * The set bits of the first nr bits as ranges, "0-1,3" (bitmap.c);
 * whether any bit was set (nothing is written then).
 */
bool bitmap_ranges(const uint64_t *map, size_t nr, struct strbuf *out);
/* Sets bit in *map of *words words, growing it (zeroed) to hold the bit. */
void bitmap_set_grow(uint64_t **map, size_t *words, size_t bit);

#endif
