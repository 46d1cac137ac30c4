// SPDX-License-Identifier: GPL-2.0
#include "util/hashmap.h"
#include "util/xalloc.h"

#include <stdlib.h>

uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void hashmap_init(struct hashmap *map)
{
	map->keys = NULL;
	map->vals = NULL;
	map->nr = 0;
	map->cap = 0;
}

void hashmap_release(struct hashmap *map)
{
	free(map->keys);
	free(map->vals);
	hashmap_init(map);
}

void hashmap_free_values(struct hashmap *map, void (*free_val)(void *val))
{
	size_t i;

	for (i = 0; i < map->cap; i++)
		if (map->vals[i])
			(free_val ? free_val : free)(map->vals[i]);
	hashmap_release(map);
}

static size_t slot_of(const struct hashmap *map, uint64_t key)
{
	size_t mask = map->cap - 1;
	size_t i = (size_t)hash_u64(key) & mask;

	while (map->vals[i] && map->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

void *hashmap_get(const struct hashmap *map, uint64_t key)
{
	if (!map->cap)
		return NULL;
	return map->vals[slot_of(map, key)];
}

static void rehash(struct hashmap *map, size_t cap)
{
	struct hashmap bigger = {
		.keys = xcalloc(cap, sizeof(uint64_t)),
		.vals = xcalloc(cap, sizeof(void *)),
		.nr = map->nr,
		.cap = cap,
	};
	size_t i;

	for (i = 0; i < map->cap; i++) {
		size_t s;

		if (!map->vals[i])
			continue;
		s = slot_of(&bigger, map->keys[i]);
		bigger.keys[s] = map->keys[i];
		bigger.vals[s] = map->vals[i];
	}
	free(map->keys);
	free(map->vals);
	*map = bigger;
}

void hashmap_put(struct hashmap *map, uint64_t key, void *val)
{
	size_t s;

	if ((map->nr + 1) * 4 >= map->cap * 3)
		rehash(map, map->cap ? map->cap * 2 : 16);
	s = slot_of(map, key);
	if (!map->vals[s])
		map->nr++;
	map->keys[s] = key;
	map->vals[s] = val;
}

int hashmap_next(const struct hashmap *map, size_t *iter, uint64_t *key, void **val)
{
	size_t i;

	for (i = *iter; i < map->cap; i++) {
		if (!map->vals[i])
			continue;
		if (key)
			*key = map->keys[i];
		if (val)
			*val = map->vals[i];
		*iter = i + 1;
		return 1;
	}
	*iter = map->cap;
	return 0;
}
