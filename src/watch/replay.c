// SPDX-License-Identifier: GPL-2.0
/*
 * From the hits to what they mean: each hit's instruction decoded (read or
 * write), per-field counts, threads, cpus and code sites, then a replay of
 * each cache line's time-ordered accesses through a MESI model, which counts
 * the transfers of a modified line between cpus (replayed_hitm) and the
 * field pairs that cause them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/hashmap.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

#define LINE_SIZE 64

struct decoded {
	uint64_t pc;
	enum attrib_access access;
};

static int by_time(const void *x, const void *y)
{
	const struct watch_access *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->field < b->field ? -1 : a->field > b->field;
}

static const struct decoded *decode(struct watch *w, struct hashmap *cache,
				    const struct watch_access *a)
{
	struct decoded *d = hashmap_get(cache, a->ip);
	const struct as_map *map;
	const struct watch_lib *lib;
	struct attrib *code = NULL;
	uint64_t bias = 0;

	if (d)
		return d;
	d = xcalloc(1, sizeof(*d));
	d->pc = a->ip;
	map = a->kernel ? NULL : addr_spaces_find(w->as, a->pid, AS_CPUMODE_USER, a->ip);
	if (map && map->filename && w->exe && !strcmp(map->filename, w->exe)) {
		code = w->attrib;
		bias = w->bias;
	} else if (map && (lib = watch_lib_get(w, map->filename))) {
		code = lib->attrib;
		bias = lib->bias;
	}
	if (code && !attrib_insn_before(code, a->ip - bias, &d->pc, &d->access))
		d->pc += bias;
	hashmap_put(cache, a->ip, d);
	return d;
}

static void decode_all(struct watch *w)
{
	struct hashmap cache;
	size_t i;

	hashmap_init(&cache);
	for (i = 0; i < w->nr_acc; i++) {
		struct watch_access *a = &w->acc[i];
		const struct decoded *d = decode(w, &cache, a);

		a->site_ip = d->pc;
		a->access = d->access;
		if (a->access == ATTRIB_ACCESS_NONE && w->opts.write_only)
			a->access = ATTRIB_ACCESS_WRITE;
	}
	hashmap_free_values(&cache, NULL);
}

static bool is_write(const struct watch_access *a)
{
	return a->access == ATTRIB_ACCESS_WRITE || a->access == ATTRIB_ACCESS_RMW;
}

static int by_hits(const void *x, const void *y)
{
	const struct watch_site *a = x, *b = y;
	uint64_t ha = a->reads + a->writes + a->unknown, hb = b->reads + b->writes + b->unknown;

	if (ha != hb)
		return ha > hb ? -1 : 1;
	return a->ip < b->ip ? -1 : a->ip > b->ip;
}

static void name_site(struct watch *w, struct watch_site *s, const struct watch_access *a)
{
	const struct as_map *map = addr_spaces_find(
		w->as, a->pid, a->kernel ? AS_CPUMODE_KERNEL : AS_CPUMODE_USER, s->ip);
	const struct sym_info *si = map ? sym_resolve(w->syms, map, s->ip) : NULL;

	s->symbol = si && si->symbol ? xstrdup(si->symbol) : NULL;
	s->srcline = si && si->srcline ? xstrdup(si->srcline) : NULL;
}

/* Counts, threads, cpus and sites of one field. */
static void field_stats(struct watch *w, size_t fi)
{
	struct watch_field_int *f = &w->fields[fi];
	struct hashmap sites, tids, cpus;
	size_t i, nr = 0, alloc = 0;

	hashmap_init(&sites);
	hashmap_init(&tids);
	hashmap_init(&cpus);
	for (i = 0; i < w->nr_acc; i++) {
		const struct watch_access *a = &w->acc[i];
		uintptr_t idx;

		if (a->field != fi)
			continue;
		f->pub.samples++;
		f->pub.reads += a->access == ATTRIB_ACCESS_READ;
		f->pub.writes += is_write(a);
		f->pub.rmw += a->access == ATTRIB_ACCESS_RMW;
		f->pub.unknown += a->access == ATTRIB_ACCESS_NONE;
		hashmap_put(&tids, a->tid + 1ULL, (void *)1);
		hashmap_put(&cpus, a->cpu + 1ULL, (void *)1);
		idx = (uintptr_t)hashmap_get(&sites, a->site_ip);
		if (!idx) {
			f->sites = xgrow(f->sites, &alloc, nr + 1, sizeof(*f->sites));
			f->sites[nr] = (struct watch_site){ .ip = a->site_ip };
			name_site(w, &f->sites[nr], a);
			idx = ++nr;
			hashmap_put(&sites, a->site_ip, (void *)idx);
		}
		f->sites[idx - 1].writes += is_write(a);
		f->sites[idx - 1].reads += a->access == ATTRIB_ACCESS_READ;
		f->sites[idx - 1].unknown += a->access == ATTRIB_ACCESS_NONE;
	}
	f->pub.nr_threads = tids.nr;
	f->pub.nr_cpus = cpus.nr;
	if (nr)
		qsort(f->sites, nr, sizeof(*f->sites), by_hits);
	f->pub.nr_sites = nr;
	f->pub.sites = f->sites;
	hashmap_release(&sites);
	hashmap_release(&tids);
	hashmap_release(&cpus);
}

int watch_analyze(struct watch *w, struct err_msg *err)
{
	size_t i;

	if (w->nr_acc)
		qsort(w->acc, w->nr_acc, sizeof(*w->acc), by_time);
	decode_all(w);
	for (i = 0; i < w->nr_fields; i++) {
		field_stats(w, i);
		w->sum.hits += w->fields[i].pub.count;
		w->sum.samples += w->fields[i].pub.samples;
	}
	w->sum.method = w->opts.write_only ?
				"write breakpoints: every hit is a write" :
				"capstone: the instruction that ends at each sample's ip";
	if (w->sum.hits > w->sum.samples + w->sum.lost)
		w->sum.unsampled = w->sum.hits - w->sum.samples - w->sum.lost;
	w->sum.rate = w->sum.seconds > 0 ? w->sum.hits / w->sum.seconds : 0;
	w->sum.overhead_s = w->sum.hits * w->sum.cost_ns / 1e9;
	watch_replay(w);
	return w->opts.record ? watch_write_record(w, err) : 0;
}
