/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hashmap: open-addressing map from a 64-bit key to a pointer. The hot
 * structure of every aggregation (cache lines, code addresses, offsets).
 * Keys are any u64 (0 included); values must not be NULL.
 */
#ifndef C2C_UTIL_HASHMAP_H
#define C2C_UTIL_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct hashmap {
	uint64_t *keys;
	void **vals; /* NULL marks an empty slot */
	size_t nr;
	size_t cap; /* power of two */
};

void hashmap_init(struct hashmap *map);
void hashmap_release(struct hashmap *map);
/* free_val (free() when NULL) on every value, then hashmap_release(). */
void hashmap_free_values(struct hashmap *map, void (*free_val)(void *val));
void *hashmap_get(const struct hashmap *map, uint64_t key);
/* Insert or replace. */
void hashmap_put(struct hashmap *map, uint64_t key, void *val);
/* Iterate: for (i = 0; hashmap_next(map, &i, &key, &val);) */
int hashmap_next(const struct hashmap *map, size_t *iter, uint64_t *key, void **val);

/* splitmix64 finaliser: cheap and spreads low-entropy addresses (inline: hot paths). */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

uint64_t hash_str(const char *s);

#endif
