/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address spaces rebuilt from MMAP/MMAP2, FORK and COMM records, the way
 * perf's machine/thread/maps code sees them: one map list per process
 * (threads share their leader's), a fork into a new process copies the
 * parent's maps, a new mapping cuts away what it overlaps, and kernel
 * mappings (pid -1, kernel cpumode) live in one kernel space.
 */
#ifndef C2C_SYMBOLS_ADDR_SPACE_H
#define C2C_SYMBOLS_ADDR_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "perf/perf_data.h"

#define AS_CPUMODE_KERNEL 1 /* PERF_RECORD_MISC_KERNEL */
#define AS_CPUMODE_USER 2 /* PERF_RECORD_MISC_USER */
#define AS_MAP_SHARED 0x01 /* MAP_SHARED in as_map.flags (mmap's value) */

/* One mapping. Stable for the life of the addr_spaces (never freed early). */
struct as_map {
	uint64_t start, end, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	bool identity; /* anonymous, [heap], [stack], kernel: map_ip(a) = a */
	bool kernel;
	uint8_t build_id[20];
	uint8_t build_id_size;
	const char *filename; /* as recorded */
	const char *short_name; /* basename, or the [name] itself */
	unsigned int dso_id; /* same number for the same file (name + inode) */
};

struct addr_spaces;

struct addr_spaces *addr_spaces_new(void);
void addr_spaces_free(struct addr_spaces *as);

void addr_spaces_mmap(struct addr_spaces *as, const struct perf_mmap *m);
/* FORK: a child in another process starts with a copy of the parent's maps. */
void addr_spaces_fork(struct addr_spaces *as, uint32_t pid, uint32_t ppid);
void addr_spaces_comm(struct addr_spaces *as, uint32_t tid, const char *comm);
const char *addr_spaces_comm_of(const struct addr_spaces *as, uint32_t tid);

/* The map holding addr for pid in that cpumode (kernel or user), or NULL. */
const struct as_map *addr_spaces_find(struct addr_spaces *as, uint32_t pid, uint16_t cpumode,
				      uint64_t addr);
/* perf's cpumode search for code addresses: user, then kernel. */
const struct as_map *addr_spaces_find_any(struct addr_spaces *as, uint32_t pid, uint64_t addr);

/* perf's map_ip: the address as the map sees it (file offset based). */
static inline uint64_t as_map_ip(const struct as_map *map, uint64_t addr)
{
	if (!map || map->identity)
		return addr;
	return addr - map->start + map->pgoff;
}

/* Whether the map is private anonymous user memory (keyed by pid in c2c). */
static inline bool as_map_is_private_anon(const struct as_map *map)
{
	return !map->kernel && !(map->flags & AS_MAP_SHARED) && !map->maj && !map->min &&
	       !map->ino && !map->ino_generation;
}

#endif
