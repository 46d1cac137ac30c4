// SPDX-License-Identifier: GPL-2.0
#include "symbols/addr_space.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/hashmap.h"
#include "util/strpool.h"
#include "util/xalloc.h"

_Static_assert(AS_MAP_SHARED == MAP_SHARED, "as_map.flags holds mmap flags");

/* Maps of one process, sorted by start, never overlapping. */
struct space {
	struct as_map **maps;
	size_t nr, alloc;
	/*
	 * Indices of the last two hits, the latest first: samples come in
	 * runs, and each looks up a code and a data address.
	 */
	size_t last[2];
};

struct addr_spaces {
	struct hashmap pids; /* pid -> struct space */
	uint32_t last_pid; /* the pid looked up last, when it had a space */
	struct space *last_space;
	struct space kernel;
	struct hashmap comms; /* tid -> char * */
	struct as_map **all; /* every map ever made, freed at the end */
	size_t nr_all, alloc_all;
	struct hashmap dsos; /* hash(name, inode) -> dso number + 1 */
	unsigned int nr_dsos;
	struct strpool names; /* file names, one copy each */
};

struct addr_spaces *addr_spaces_new(void)
{
	struct addr_spaces *as = xcalloc(1, sizeof(*as));

	hashmap_init(&as->pids);
	hashmap_init(&as->comms);
	hashmap_init(&as->dsos);
	strpool_init(&as->names);
	return as;
}

static void space_release(struct space *s)
{
	free(s->maps);
}

static void space_free(void *s)
{
	space_release(s);
	free(s);
}

void addr_spaces_free(struct addr_spaces *as)
{
	size_t i;

	if (!as)
		return;
	hashmap_free_values(&as->pids, space_free);
	hashmap_free_values(&as->comms, NULL);
	space_release(&as->kernel);
	for (i = 0; i < as->nr_all; i++)
		free(as->all[i]);
	free(as->all);
	hashmap_release(&as->dsos);
	strpool_release(&as->names);
	free(as);
}

static struct as_map *map_new(struct addr_spaces *as)
{
	struct as_map *m = xcalloc(1, sizeof(*m));

	as->all = xgrow(as->all, &as->alloc_all, as->nr_all + 1, sizeof(*as->all));
	as->all[as->nr_all++] = m;
	return m;
}

static struct as_map *map_dup(struct addr_spaces *as, const struct as_map *src)
{
	struct as_map *m = map_new(as);

	*m = *src;
	return m;
}

/* perf's is_anon_memory() and is_no_dso_memory(): identity-mapped. */
static bool is_identity_name(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

static const char *short_name_of(const char *name)
{
	const char *slash = strrchr(name, '/');

	if (name[0] == '[' || !slash)
		return name;
	return slash + 1;
}

static unsigned int dso_number(struct addr_spaces *as, const struct as_map *m)
{
	uint64_t h = hash_u64(hash_str(m->filename) ^ hash_u64(m->ino) ^
			      ((uint64_t)m->maj << 32 | m->min));
	uintptr_t v = (uintptr_t)hashmap_get(&as->dsos, h);

	if (!v) {
		v = ++as->nr_dsos;
		hashmap_put(&as->dsos, h, (void *)v);
	}
	return (unsigned int)v;
}

static struct space *space_of(struct addr_spaces *as, uint32_t pid, bool create)
{
	struct space *s = hashmap_get(&as->pids, pid);

	if (!s && create) {
		s = xcalloc(1, sizeof(*s));
		hashmap_put(&as->pids, pid, s);
	}
	return s;
}

/* Index of the first map whose end is above addr. */
static size_t lower_bound(const struct space *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->maps[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void space_insert_at(struct space *s, size_t i, struct as_map *m)
{
	s->maps = xgrow(s->maps, &s->alloc, s->nr + 1, sizeof(*s->maps));
	memmove(s->maps + i + 1, s->maps + i, (s->nr - i) * sizeof(*s->maps));
	s->maps[i] = m;
	s->nr++;
}

static void space_remove_at(struct space *s, size_t i)
{
	memmove(s->maps + i, s->maps + i + 1, (s->nr - i - 1) * sizeof(*s->maps));
	s->nr--;
}

/* Insert m, cutting away the parts of older maps it covers (perf's fixup). */
static void space_insert(struct addr_spaces *as, struct space *s, struct as_map *m)
{
	size_t i = lower_bound(s, m->start);

	while (i < s->nr && s->maps[i]->start < m->end) {
		struct as_map *old = s->maps[i];

		space_remove_at(s, i);
		if (old->start < m->start) {
			struct as_map *before = map_dup(as, old);

			before->end = m->start;
			space_insert_at(s, i++, before);
		}
		if (old->end > m->end) {
			struct as_map *after = map_dup(as, old);

			after->pgoff += after->identity ? 0 : m->end - old->start;
			after->start = m->end;
			space_insert_at(s, i, after);
			break;
		}
	}
	space_insert_at(s, lower_bound(s, m->start), m);
	s->last[0] = s->last[1] = 0;
}

void addr_spaces_mmap(struct addr_spaces *as, const struct perf_mmap *ev)
{
	struct as_map *m;
	bool kernel = ev->cpumode == AS_CPUMODE_KERNEL || ev->pid == UINT32_MAX;

	if (!ev->len || ev->start + ev->len < ev->start)
		return;
	m = map_new(as);
	m->start = ev->start;
	m->end = ev->start + ev->len;
	m->pgoff = ev->pgoff;
	m->maj = ev->maj;
	m->min = ev->min;
	m->ino = ev->ino;
	m->ino_generation = ev->ino_generation;
	m->prot = ev->is_mmap2 ? ev->prot : PROT_READ | PROT_EXEC;
	m->flags = ev->flags;
	m->filename = strpool_intern(&as->names, ev->filename ? ev->filename : "//anon");
	m->short_name = short_name_of(m->filename);
	m->kernel = kernel;
	m->identity = kernel || is_identity_name(m->filename) || (ev->flags & MAP_HUGETLB);
	memcpy(m->build_id, ev->build_id, sizeof(m->build_id));
	m->build_id_size = ev->build_id_size;
	if (kernel && !strncmp(m->filename, "[kernel.kallsyms]", 17))
		m->short_name = m->filename = strpool_intern(&as->names, "[kernel.kallsyms]");
	m->dso_id = dso_number(as, m);
	space_insert(as, kernel ? &as->kernel : space_of(as, ev->pid, true), m);
}

void addr_spaces_fork(struct addr_spaces *as, uint32_t pid, uint32_t ppid)
{
	struct space *parent, *child;
	size_t i;

	if (pid == ppid)
		return;
	parent = space_of(as, ppid, false);
	if (!parent)
		return;
	child = space_of(as, pid, true);
	for (i = 0; i < parent->nr; i++)
		space_insert(as, child, parent->maps[i]);
}

void addr_spaces_comm(struct addr_spaces *as, uint32_t tid, const char *comm)
{
	char *old = hashmap_get(&as->comms, tid);

	free(old);
	hashmap_put(&as->comms, tid, xstrdup(comm ? comm : ""));
}

const char *addr_spaces_comm_of(const struct addr_spaces *as, uint32_t tid)
{
	return hashmap_get(&as->comms, tid);
}

static bool space_holds(const struct space *s, size_t i, uint64_t addr)
{
	return i < s->nr && s->maps[i]->start <= addr && addr < s->maps[i]->end;
}

static const struct as_map *space_find(struct space *s, uint64_t addr)
{
	size_t i;

	if (!s || !s->nr)
		return NULL;
	if (space_holds(s, s->last[0], addr))
		return s->maps[s->last[0]];
	if (space_holds(s, s->last[1], addr))
		i = s->last[1];
	else if ((i = lower_bound(s, addr)) >= s->nr || s->maps[i]->start > addr)
		return NULL;
	s->last[1] = s->last[0];
	s->last[0] = i;
	return s->maps[i];
}

/* The space of pid for a lookup (the last one remembered). */
static struct space *space_lookup(struct addr_spaces *as, uint32_t pid)
{
	struct space *s;

	if (as->last_space && as->last_pid == pid)
		return as->last_space;
	s = hashmap_get(&as->pids, pid);
	if (s) { /* spaces live as long as as: safe to remember */
		as->last_pid = pid;
		as->last_space = s;
	}
	return s;
}

const struct as_map *addr_spaces_find(struct addr_spaces *as, uint32_t pid, uint16_t cpumode,
				      uint64_t addr)
{
	if (cpumode == AS_CPUMODE_KERNEL)
		return space_find(&as->kernel, addr);
	if (cpumode == AS_CPUMODE_USER)
		return space_find(space_lookup(as, pid), addr);
	return NULL; /* guest and hypervisor modes: perf finds no map either */
}

const struct as_map *addr_spaces_find_any(struct addr_spaces *as, uint32_t pid, uint64_t addr)
{
	const struct as_map *m = addr_spaces_find(as, pid, AS_CPUMODE_USER, addr);

	return m ? m : addr_spaces_find(as, pid, AS_CPUMODE_KERNEL, addr);
}
