// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation of samples into lines and rows, as perf c2c report does it
 * (builtin-c2c.c: process_sample_event, c2c_he__set_cpu/_node,
 * compute_stats), with hash maps instead of rb-trees.
 */
#include "c2c/c2c_model.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitmap.h"
#include "util/hashmap.h"
#include "util/xalloc.h"

#define BITS_TO_WORDS(n) (((n) + 63) / 64)

/*
 * Lines and rows come from arenas: hundreds of thousands of small
 * objects that live as long as the model, each with its cpu and node
 * bitmaps next to it (one allocation, one cache neighbourhood).
 */
#define HUGE_PAGE XALLOC_HUGE_PAGE

/*
 * A chunk with its header is exactly two huge pages: one byte more and
 * the kernel faults in (and zeroes) a third 2 MiB page for it.
 */
#define ARENA_CHUNK ((4U << 20) - ARENA_CHUNK_OVERHEAD)

struct c2c_model *c2c_model_new(const struct c2c_model_opts *opts)
{
	struct c2c_model *m = xcalloc(1, sizeof(*m));
	size_t i;

	m->opts = *opts;
	m->line_size = opts->double_cl ? 128 : 64;
	/* Rows are reached at random: huge pages cost far fewer TLB misses. */
	m->arena = (struct arena)ARENA_INIT(ARENA_CHUNK, true);
	m->line_arena = (struct arena)ARENA_INIT(ARENA_CHUNK, true);
	for (i = 0; i < opts->nr_keys; i++)
		m->key_mask |= 1U << opts->keys[i];
	return m;
}

static size_t bitmap_bytes(const struct c2c_model *m)
{
	return (BITS_TO_WORDS(m->opts.nr_cpus) + BITS_TO_WORDS(m->opts.nr_nodes) + 2) *
	       sizeof(uint64_t);
}

void c2c_model_free(struct c2c_model *m)
{
	if (!m)
		return;
	arena_release(&m->arena);
	arena_release(&m->line_arena);
	free(m->lines);
	free(m->lines_tab.slots);
	free(m->rows_tab.slots);
	free(m->classes);
	free(m);
}

uint32_t c2c_metric(const struct c2c_stats *st, enum c2c_display d)
{
	switch (d) {
	case C2C_DISPLAY_RMT:
		return st->rmt_hitm;
	case C2C_DISPLAY_LCL:
		return st->lcl_hitm;
	case C2C_DISPLAY_PEER:
		return st->tot_peer;
	case C2C_DISPLAY_TOT:
	default:
		return st->tot_hitm;
	}
}

/* The bitmaps sit right after the object that holds the group. */
static void group_init(struct c2c_group *g, void *bits)
{
	g->cpuset = bits;
}

/* mem2node: the node of a physical address, -1 when no range holds it. */
static int node_of_phys(const struct c2c_model *m, uint64_t phys)
{
	size_t lo = 0, hi = m->opts.nr_mem;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->opts.mem[mid].end <= phys)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->opts.nr_mem && m->opts.mem[lo].start <= phys)
		return (int)m->opts.mem[lo].node;
	return -1;
}

/* One sample into a line or row: counters, cpu, node of the physical page. */
/* c2c_he__set_node(): the node of the physical address, and PA changes. */
static void group_set_node(struct c2c_model *m, struct c2c_group *g, uint64_t phys, int node,
			   bool set_bit)
{
	if (!phys) {
		g->paddr_zero = true;
		return;
	}
	if (node < 0)
		return;
	if (set_bit && (uint32_t)node < m->opts.nr_nodes)
		bitmap_set(c2c_group_nodeset(m, g), (size_t)node);
	if (g->paddr != phys) {
		g->paddr_cnt++;
		g->paddr = phys;
	}
}

#define NR_COUNTERS (sizeof(struct c2c_stats) / sizeof(uint32_t))

/*
 * A data source decoded once: a sample's counters depend only on its
 * data_src, whether it has a data address and whether both its addresses
 * are mapped. A small direct-mapped cache of the decodings, each with the
 * few counters it sets (a sample adds to those only).
 */
#define NR_CLASSES 256

struct c2c_class {
	uint64_t data_src;
	uint8_t flags; /* 1: has a data address, 2: mapped, 4: slot in use */
	int8_t bucket;
	uint8_t nr_set; /* counters of one that are not 0 */
	uint8_t set[NR_COUNTERS]; /* their indices */
	/*
	 * Cache lines of a row's allocation (bits, then the row) that a
	 * sample of this class touches, but for its cpu's bit: bit i, line i.
	 */
	uint32_t row_lines;
	struct c2c_stats one;
};

/* stats += cls->one, touching only the counters it sets. */
static void class_add(struct c2c_stats *stats, const struct c2c_class *cls)
{
	uint32_t *d = (uint32_t *)stats;
	const uint32_t *a = (const uint32_t *)&cls->one;
	unsigned int i;

	for (i = 0; i < cls->nr_set; i++)
		d[cls->set[i]] += a[cls->set[i]];
}

static void group_add(struct c2c_model *m, struct c2c_group *g, const struct c2c_class *cls,
		      const struct c2c_sample *s, int node)
{
	class_add(&g->stats, cls);
	if (s->cpu != UINT32_MAX && s->cpu < m->opts.nr_cpus)
		bitmap_set(g->cpuset, s->cpu);
	group_set_node(m, g, s->phys_addr, node, true);
}

/* A line's counters, cpus and nodes: the sums of its rows'. */
void c2c_model_sum_lines(struct c2c_model *m)
{
	size_t i, j, w, cpu_words = BITS_TO_WORDS(m->opts.nr_cpus);
	size_t node_words = BITS_TO_WORDS(m->opts.nr_nodes);

	if (m->summed)
		return;
	m->summed = true;
	memset(&m->totals, 0, sizeof(m->totals));
	for (i = 0; i < m->nr_lines; i++) {
		struct c2c_line *l = m->lines[i];

		for (j = 0; j < l->nr_rows; j++) {
			const struct c2c_group *rg = &l->rows[j]->g;

			c2c_stats_add(&l->g.stats, &rg->stats);
			for (w = 0; w < cpu_words; w++)
				l->g.cpuset[w] |= rg->cpuset[w];
			for (w = 0; w < node_words; w++)
				c2c_group_nodeset(m, &l->g)[w] |= c2c_group_nodeset(m, rg)[w];
		}
		c2c_stats_add(&m->totals, &l->g.stats);
	}
}

static void line_key_of(const struct c2c_model *m, const struct c2c_sample *s,
			struct c2c_line_key *k)
{
	const struct as_map *map = s->dmap;

	memset(k, 0, sizeof(*k));
	k->cpumode = s->cpumode;
	k->pid = -1;
	k->cl = as_map_ip(map, s->addr) & ~(m->line_size - 1);
	if (!map)
		return;
	k->mapped = true;
	k->maj = map->maj;
	k->min = map->min;
	k->ino = map->ino;
	k->ino_generation = map->ino_generation;
	if (s->cpumode != AS_CPUMODE_KERNEL && as_map_is_private_anon(map))
		k->pid = s->pid;
}

static bool line_key_eq(const struct c2c_line_key *a, const struct c2c_line_key *b)
{
	return a->cl == b->cl && a->pid == b->pid && a->cpumode == b->cpumode &&
	       a->mapped == b->mapped && a->maj == b->maj && a->min == b->min && a->ino == b->ino &&
	       a->ino_generation == b->ino_generation;
}

static uint64_t line_key_hash(const struct c2c_line_key *k)
{
	uint64_t h = hash_u64(k->cl);

	h = hash_u64(h ^ (uint64_t)k->pid ^ ((uint64_t)k->cpumode << 40) ^
		     ((uint64_t)k->mapped << 48));
	if (k->mapped)
		h = hash_u64(h ^ k->ino ^ ((uint64_t)k->maj << 32 | k->min) ^ k->ino_generation);
	return h;
}

/* Slot of the first object of hash h, or of the empty slot that ends its run. */
static size_t table_first(const struct c2c_table *t, uint64_t h)
{
	size_t mask = t->cap - 1, i = (size_t)h & mask;

	while (t->slots[i].obj && t->slots[i].hash != h)
		i = (i + 1) & mask;
	return i;
}

static size_t table_next(const struct c2c_table *t, size_t i, uint64_t h)
{
	size_t mask = t->cap - 1;

	do
		i = (i + 1) & mask;
	while (t->slots[i].obj && t->slots[i].hash != h);
	return i;
}

static void table_insert(struct c2c_table *t, uint64_t h, void *obj);

/*
 * Zeroed slots; a table of 2 MiB or more on huge pages: 4 KiB pages cost
 * one page fault each as the table grows (thousands, the most of a run).
 */
static struct c2c_slot *table_slots_new(size_t cap)
{
	size_t size = cap * sizeof(struct c2c_slot);

	if (size < HUGE_PAGE)
		return xcalloc(cap, sizeof(struct c2c_slot));
	return memset(xmalloc_huge(size), 0, size);
}

static void table_grow(struct c2c_table *t)
{
	struct c2c_table old = *t;
	size_t i;

	t->cap = old.cap ? old.cap * 2 : 1024;
	/* a table this big grows on: straight to one huge page */
	if (t->cap * sizeof(*t->slots) >= HUGE_PAGE / 8 && t->cap * sizeof(*t->slots) < HUGE_PAGE)
		t->cap = HUGE_PAGE / sizeof(*t->slots);
	t->slots = table_slots_new(t->cap);
	t->nr = 0;
	for (i = 0; i < old.cap; i++)
		if (old.slots[i].obj)
			table_insert(t, old.slots[i].hash, old.slots[i].obj);
	free(old.slots);
}

static void table_insert(struct c2c_table *t, uint64_t h, void *obj)
{
	size_t mask, i;

	if ((t->nr + 1) * 4 >= t->cap * 3)
		table_grow(t);
	mask = t->cap - 1;
	for (i = (size_t)h & mask; t->slots[i].obj; i = (i + 1) & mask)
		;
	t->slots[i].hash = h;
	t->slots[i].obj = obj;
	t->nr++;
}

/* The object in the first slot a hash probes, if it has that hash (a prefetch hint). */
static const void *table_hint(const struct c2c_table *t, uint64_t h)
{
	size_t i;

	if (!t->cap)
		return NULL;
	i = table_first(t, h);
	return t->slots[i].obj;
}

static struct c2c_line *line_get(struct c2c_model *m, const struct c2c_pending *p)
{
	const struct c2c_sample *s = &p->s;
	struct c2c_line *l;
	uint64_t h = p->line_hash;
	size_t i;

	if (m->last_line && line_key_eq(&m->last_line->key, &p->line_key))
		return m->last_line;
	if (m->lines_tab.cap) {
		for (i = table_first(&m->lines_tab, h); (l = m->lines_tab.slots[i].obj);
		     i = table_next(&m->lines_tab, i, h))
			if (line_key_eq(&l->key, &p->line_key))
				return m->last_line = l;
	}
	/*
	 * Lines have an arena of their own: the cache lines a sample reads
	 * of them (key and paddr: the first 64 bytes) then lie close
	 * together, not one per page among the rows.
	 */
	l = arena_alloc(&m->line_arena, sizeof(*l) + bitmap_bytes(m), 64);
	l->key = p->line_key;
	l->addr = s->addr & ~(m->line_size - 1);
	l->dmap = s->dmap;
	group_init(&l->g, l + 1);
	table_insert(&m->lines_tab, h, l);
	m->lines = xgrow(m->lines, &m->alloc_lines, m->nr_lines + 1, sizeof(*m->lines));
	m->lines[m->nr_lines++] = l;
	return m->last_line = l;
}

static bool has_key(const struct c2c_model *m, enum c2c_key key)
{
	return m->key_mask & (1U << key);
}

/* The row's key fields of a sample: those not coalesced on stay 0. */
static void row_key_of(const struct c2c_model *m, const struct c2c_sample *s, struct c2c_row_key *k)
{
	k->offset = s->addr & (m->line_size - 1);
	k->iaddr = has_key(m, C2C_KEY_IADDR) ? s->ip : 0;
	k->pid = has_key(m, C2C_KEY_PID) ? s->pid : 0;
	k->tid = has_key(m, C2C_KEY_TID) ? s->tid : 0;
	k->dso_name = has_key(m, C2C_KEY_DSO) && s->imap ? s->imap->short_name : NULL;
}

static bool row_key_eq(const struct c2c_row *a, const struct c2c_row_key *b)
{
	if (a->offset != b->offset || a->iaddr != b->iaddr || a->pid != b->pid || a->tid != b->tid)
		return false;
	if (!a->dso_name || !b->dso_name)
		return a->dso_name == b->dso_name;
	return a->dso_name == b->dso_name || !strcmp(a->dso_name, b->dso_name);
}

static uint64_t row_key_hash(uint64_t line_hash, const struct c2c_row_key *k)
{
	uint64_t h = hash_u64(line_hash ^ (k->offset << 56) ^ k->iaddr);

	h = hash_u64(h ^ ((uint64_t)k->pid << 32 | k->tid));
	if (k->dso_name)
		h = hash_u64(h ^ hash_str(k->dso_name));
	return h;
}

/* The row of a sample in its line l. */
static struct c2c_row *row_find(struct c2c_model *m, const struct c2c_line *l,
				const struct c2c_pending *p)
{
	const struct c2c_table *t = &m->rows_tab;
	struct c2c_row *r;
	size_t i;

	if (!t->cap)
		return NULL;
	for (i = table_first(t, p->row_hash); (r = t->slots[i].obj);
	     i = table_next(t, i, p->row_hash))
		if (r->line == l && row_key_eq(r, &p->row_key))
			return r;
	return NULL;
}

/*
 * A line's row array lives in the arena too (the old one is left there):
 * small arrays from malloc cost a page fault per 4 KiB of heap.
 */
static void rows_grow(struct c2c_model *m, struct c2c_line *l)
{
	size_t n = l->alloc_rows ? l->alloc_rows * 2 : 8;
	struct c2c_row **rows = arena_alloc(&m->arena, n * sizeof(*rows), 16);

	if (l->nr_rows)
		memcpy(rows, l->rows, l->nr_rows * sizeof(*rows));
	l->rows = rows;
	l->alloc_rows = n;
}

/*
 * A row starts a cache line with its cpu and node bits in front of it:
 * what a sample touches then spans the fewest cache lines.
 */
static struct c2c_row *row_new(struct c2c_model *m, struct c2c_line *l, const struct c2c_pending *p)
{
	const struct c2c_sample *s = &p->s;
	const struct c2c_row_key *key = &p->row_key;
	size_t bits = bitmap_bytes(m);
	size_t node_stats = m->opts.node_stats ? m->opts.nr_nodes * sizeof(struct c2c_stats) : 0;
	char *mem = arena_alloc(&m->arena, bits + sizeof(struct c2c_row) + node_stats, 64);
	struct c2c_row *r = (struct c2c_row *)(mem + bits);

	r->offset = key->offset;
	r->iaddr = key->iaddr;
	r->pid = key->pid; /* shown only when a key, as perf shows he->thread */
	r->tid = key->tid;
	r->dso_name = key->dso_name;
	r->cpumode = s->cpumode;
	r->imap = s->imap;
	r->offset_shown = as_map_ip(s->dmap, s->addr) & (m->line_size - 1);
	r->line = l;
	group_init(&r->g, mem);
	table_insert(&m->rows_tab, p->row_hash, r);
	if (l->nr_rows == l->alloc_rows)
		rows_grow(m, l);
	l->rows[l->nr_rows++] = r;
	return r;
}

static void mean_update(struct c2c_mean *mean, uint64_t val)
{
	double delta;

	mean->n++;
	delta = (double)val - mean->mean;
	mean->mean += delta / (double)mean->n;
}

double c2c_mean_value(const struct c2c_mean *mean)
{
	return mean->mean;
}

static uint32_t line_bit(size_t offset)
{
	return offset / 64 < 32 ? 1U << (offset / 64) : 0;
}

/* What c2c_class.row_lines says, for the offsets add_now touches. */
static uint32_t class_row_lines(const struct c2c_model *m, const struct c2c_class *c)
{
	size_t bits = bitmap_bytes(m), i;
	/* node bits (of nodes below 64), the key, dso_name up to the group's cpuset */
	uint32_t lines = line_bit((BITS_TO_WORDS(m->opts.nr_cpus) + 1) * 8) | line_bit(bits) |
			 line_bit(bits + offsetof(struct c2c_row, g.cpuset));

	for (i = offsetof(struct c2c_row, line); i < offsetof(struct c2c_row, g.cpuset); i += 8)
		lines |= line_bit(bits + i);
	for (i = 0; i < c->nr_set; i++)
		lines |= line_bit(bits + offsetof(struct c2c_row, g.stats) + c->set[i] * 4);
	if (c->bucket >= 0)
		lines |= line_bit(bits + offsetof(struct c2c_row, cycles) +
				  (size_t)c->bucket * sizeof(struct c2c_mean));
	return lines;
}

static const struct c2c_class *class_of(struct c2c_model *m, const struct c2c_sample *s)
{
	uint8_t flags = 4 | (s->addr != 0) | (s->dmap && s->imap) << 1;
	struct c2c_class *c;
	size_t i;

	if (!m->classes)
		m->classes = xcalloc(NR_CLASSES, sizeof(*m->classes));
	c = &m->classes[(hash_u64(s->data_src) + flags) & (NR_CLASSES - 1)];
	if (c->flags == flags && c->data_src == s->data_src)
		return c;
	c->data_src = s->data_src;
	c->flags = flags;
	memset(&c->one, 0, sizeof(c->one));
	mem_src_decode_stats(&c->one, s->data_src, flags & 1, flags & 2, m->opts.rules);
	c->bucket = (int8_t)c2c_bucket_of(&c->one);
	c->nr_set = 0;
	for (i = 0; i < NR_COUNTERS; i++)
		if (((const uint32_t *)&c->one)[i])
			c->set[c->nr_set++] = (uint8_t)i;
	c->row_lines = class_row_lines(m, c);
	return c;
}

static void add_node_stats(struct c2c_model *m, struct c2c_row *r, const struct c2c_sample *s,
			   const struct c2c_stats *one)
{
	/* perf books a sample without a cpu on node 0 */
	uint32_t cpu = s->cpu == UINT32_MAX ? 0 : s->cpu;
	int cnode = m->opts.cpu2node && cpu < m->opts.nr_cpus ? m->opts.cpu2node[cpu] : -1;

	if (cnode >= 0 && (uint32_t)cnode < m->opts.nr_nodes)
		c2c_stats_add(&c2c_row_node_stats(m, r)[cnode], one);
}

static void add_now(struct c2c_model *m, const struct c2c_pending *p)
{
	const struct c2c_sample *s = &p->s;
	const struct c2c_class *cls = class_of(m, s);
	struct c2c_line *l;
	struct c2c_row *r;
	int node = -1;

	if (s->phys_addr) {
		node = node_of_phys(m, s->phys_addr);
		if (node < 0)
			m->unknown_node++;
	}
	l = line_get(m, p);
	r = row_find(m, l, p);
	if (!r)
		r = row_new(m, l, p);
	group_set_node(m, &l->g, s->phys_addr, node, false);
	group_add(m, &r->g, cls, s, node);
	if (m->opts.node_stats)
		add_node_stats(m, r, s, &cls->one);
	if (s->cpu == UINT32_MAX)
		m->warned_no_cpu++;
	if (cls->bucket >= 0)
		mean_update(&r->cycles[cls->bucket], s->weight);
}

/*
 * Lines and rows span several cache lines: fetch them all. Inlined by
 * force: GCC 12 finds a function that only prefetches free of effects
 * and drops the calls to it.
 */
static inline __attribute__((always_inline)) void prefetch_span(const void *p, size_t size)
{
	const char *c = p;
	size_t off;

	if (!p)
		return;
	for (off = 0; off < size; off += 64)
		__builtin_prefetch(c + off, 1);
}

/* The cache lines of a row (at mem, its bits in front) that sample s will touch. */
static inline __attribute__((always_inline)) void prefetch_row(struct c2c_model *m, const char *mem,
							       const struct c2c_sample *s)
{
	uint32_t lines = class_of(m, s)->row_lines;

	if (s->cpu != UINT32_MAX && s->cpu < m->opts.nr_cpus)
		lines |= line_bit(s->cpu / 64 * 8);
	while (lines) {
		__builtin_prefetch(mem + 64 * __builtin_ctz(lines), 1);
		lines &= lines - 1;
	}
}

static inline __attribute__((always_inline)) void prefetch_slot(const struct c2c_table *t,
								uint64_t h)
{
	if (t->cap)
		__builtin_prefetch(&t->slots[(size_t)h & (t->cap - 1)]);
}

/*
 * Samples go through a short FIFO so that the memory they will touch is
 * fetched ahead: hash slots when they enter, the line and row they point
 * at a few samples later, the work when they leave. The order of the work
 * is the order of the samples, so results do not change.
 */
void c2c_model_add(struct c2c_model *m, const struct c2c_sample *s)
{
	struct c2c_pending *p = &m->pending[m->pending_head % C2C_PENDING];

	if (m->pending_head - m->pending_tail == C2C_PENDING)
		add_now(m, &m->pending[m->pending_tail++ % C2C_PENDING]);
	p->s = *s;
	line_key_of(m, s, &p->line_key);
	p->line_hash = line_key_hash(&p->line_key);
	row_key_of(m, s, &p->row_key);
	p->row_hash = row_key_hash(p->line_hash, &p->row_key);
	prefetch_slot(&m->rows_tab, p->row_hash);
	prefetch_slot(&m->lines_tab, p->line_hash);
	m->pending_head++;
	/* half way: the row (with its bits in front) and the line */
	if (m->pending_head - m->pending_tail > C2C_PENDING / 2) {
		const struct c2c_pending *q =
			&m->pending[(m->pending_head - C2C_PENDING / 2) % C2C_PENDING];
		const char *r = table_hint(&m->rows_tab, q->row_hash);

		if (r)
			prefetch_row(m, r - bitmap_bytes(m), &q->s);
		/* of a line, a sample reads its key and writes its paddr fields */
		prefetch_span(table_hint(&m->lines_tab, q->line_hash),
			      offsetof(struct c2c_line, g.cpuset));
	}
}

/*
 * The worker of a line by one part of its key, the line of the map-relative
 * address: cheaper than the whole key's hash.
 */
uint64_t c2c_model_shard(const struct c2c_model *m, const struct c2c_sample *s)
{
	return hash_u64(as_map_ip(s->dmap, s->addr) & ~(m->line_size - 1));
}

void c2c_model_drain(struct c2c_model *m)
{
	while (m->pending_tail != m->pending_head)
		add_now(m, &m->pending[m->pending_tail++ % C2C_PENDING]);
}

void c2c_model_absorb(struct c2c_model *m, struct c2c_model *sub)
{
	c2c_model_drain(sub);
	/*
	 * Both summed (a worker sums its own lines, on its thread): m's
	 * totals are then integer sums over all lines, in any order the same.
	 */
	c2c_model_sum_lines(m);
	c2c_model_sum_lines(sub);
	if (sub->nr_lines) { /* a worker may have had no line at all */
		m->lines = xgrow(m->lines, &m->alloc_lines, m->nr_lines + sub->nr_lines,
				 sizeof(*m->lines));
		memcpy(m->lines + m->nr_lines, sub->lines, sub->nr_lines * sizeof(*m->lines));
		m->nr_lines += sub->nr_lines;
	}
	arena_splice(&m->arena, &sub->arena);
	arena_splice(&m->line_arena, &sub->line_arena);
	c2c_stats_add(&m->totals, &sub->totals);
	m->warned_no_cpu += sub->warned_no_cpu;
	m->unknown_node += sub->unknown_node;
	sub->nr_lines = 0;
	c2c_model_free(sub);
}
