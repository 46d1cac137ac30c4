// SPDX-License-Identifier: GPL-2.0
/*
 * The report as JSON (schema: doc/report-json.md), through jansson. The
 * same numbers as the text: counters as integers, percentages as numbers
 * (null where perf prints NaN), addresses as "0x..." strings.
 */
#include "config.h"

#ifdef HAVE_JANSSON
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "heap/heap.h"
#include "c2c/c2c_json.h"
#include "c2c/c2c_view.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *figures_json(const struct c2c_figure *f, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, f[i].key,
				    f[i].percent ? number(f[i].value) :
						   json_integer((json_int_t)f[i].value));
	return o;
}

/* Every counter of a line or row, by perf's field names. */
static json_t *stats_json(const struct c2c_stats *s)
{
	json_t *o = json_object();

#define SET(f) json_object_set_new(o, #f, json_integer(s->f))
	SET(nr_entries);
	SET(locks);
	SET(store);
	SET(st_uncache);
	SET(st_noadrs);
	SET(st_l1hit);
	SET(st_l1miss);
	SET(st_na);
	SET(load);
	SET(ld_excl);
	SET(ld_shared);
	SET(ld_uncache);
	SET(ld_io);
	SET(ld_miss);
	SET(ld_noadrs);
	SET(ld_fbhit);
	SET(ld_l1hit);
	SET(ld_l2hit);
	SET(ld_llchit);
	SET(lcl_hitm);
	SET(rmt_hitm);
	SET(tot_hitm);
	SET(lcl_peer);
	SET(rmt_peer);
	SET(tot_peer);
	SET(rmt_hit);
	SET(lcl_dram);
	SET(rmt_dram);
	SET(blk_data);
	SET(blk_addr);
	SET(nomap);
	SET(noparse);
	SET(lock_loads);
#undef SET
	json_object_set_new(o, "total_records", json_integer((json_int_t)c2c_total_records(s)));
	json_object_set_new(o, "total_loads", json_integer((json_int_t)c2c_total_loads(s)));
	json_object_set_new(o, "llc_misses", json_integer((json_int_t)c2c_llc_misses(s)));
	return o;
}

static json_t *nodes_str(const struct c2c_model *m, const struct c2c_group *g)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	c2c_view_nodeset(m, g, &sb);
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j;
}

static json_t *row_code_json(struct c2c_session *s, const struct c2c_row *r, json_t *o)
{
	const struct c2c_model *m = s->model;
	uint32_t nodes[256];
	size_t i, n = c2c_group_cpu_nodes(m, &r->g, nodes, 256);
	json_t *arr = json_array();

	if (c2c_view_has_key(m, C2C_KEY_IADDR)) {
		const struct sym_info *si = sym_resolve(s->symbols, r->imap, r->iaddr);

		json_object_set_new(o, "iaddr", hex(r->iaddr));
		json_object_set_new(o, "symbol",
				    si->symbol ? json_string(si->symbol) : json_null());
		json_object_set_new(o, "symbol_offset", json_integer((json_int_t)si->sym_offset));
		json_object_set_new(o, "srcline", json_string(si->srcline));
	}
	if (c2c_view_has_key(m, C2C_KEY_PID))
		json_object_set_new(o, "pid", json_integer(r->pid));
	if (c2c_view_has_key(m, C2C_KEY_TID)) {
		const char *comm = addr_spaces_comm_of(s->spaces, r->tid);

		json_object_set_new(o, "tid", json_integer(r->tid));
		json_object_set_new(o, "comm", comm ? json_string(comm) : json_null());
	}
	json_object_set_new(o, "object", r->imap ? json_string(r->imap->short_name) : json_null());
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(nodes[i]));
	json_object_set_new(o, "cpu_nodes", arr);
	return o;
}

static json_t *str_or_null(const char *v)
{
	return v && *v ? json_string(v) : json_null();
}

/* The heap block the row is named through (doc/report-json.md, "heap"), or null. */
static json_t *heap_json(const struct c2c_heap_ref *h)
{
	json_t *o;

	if (!h)
		return json_null();
	o = json_object();
	json_object_set_new(o, "block", hex(h->block));
	json_object_set_new(o, "size", json_integer((json_int_t)h->size));
	json_object_set_new(o, "offset", json_integer((json_int_t)h->offset));
	json_object_set_new(o, "alloc", json_string(h->kind));
	json_object_set_new(o, "site_function", str_or_null(h->func));
	json_object_set_new(o, "site_srcline", str_or_null(h->srcline));
	json_object_set_new(o, "blocks_at_address", json_integer((json_int_t)h->nr_blocks));
	json_object_set_new(o, "blocks_differ", json_boolean(h->mixed));
	json_object_set_new(o, "type", str_or_null(h->type ? h->type_name : NULL));
	json_object_set_new(o, "var", str_or_null(h->type ? h->var : NULL));
	json_object_set_new(o, "element",
			    h->type ? json_integer((json_int_t)h->element) : json_null());
	json_object_set_new(o, "element_offset",
			    h->type ? json_integer((json_int_t)h->elem_offset) : json_null());
	json_object_set_new(o, "field", str_or_null(h->type ? h->field : NULL));
	return o;
}

/* The row's field (doc/report-json.md, "attribution"). */
static json_t *attribution_json(const struct c2c_attrib *ca, const struct c2c_row *r)
{
	static const char *const kinds[] = { "none", "global", "pointer" };
	const struct c2c_row_attrib *ra = c2c_attrib_row(ca, r);
	const struct attrib_result *res = ra->res;
	json_t *o = json_object();

	json_object_set_new(o, "label", str_or_null(ra->label));
	json_object_set_new(o, "object", str_or_null(ra->object));
	json_object_set_new(o, "reason", json_string(c2c_attrib_reason_name(ra->reason)));
	json_object_set_new(o, "kind",
			    json_string(res && res->kind <= ATTRIB_KIND_POINTER ? kinds[res->kind] :
										  "none"));
	json_object_set_new(o, "var", str_or_null(res ? res->var : NULL));
	json_object_set_new(o, "type", str_or_null(res ? res->type_name : NULL));
	json_object_set_new(o, "field", str_or_null(res ? res->field : NULL));
	json_object_set_new(o, "path", str_or_null(res ? res->path : NULL));
	json_object_set_new(o, "outer_type", str_or_null(res ? res->outer_name : NULL));
	json_object_set_new(o, "outer_field", str_or_null(ra->outer_field));
	json_object_set_new(o, "outer_offset",
			    res && res->outer_type ? json_integer((json_int_t)res->outer_offset) :
						     json_null());
	json_object_set_new(o, "heap", heap_json(ra->heap));
	return o;
}

/* A row's shares of its line's counters, "<counter>_pct". */
static const struct {
	const char *name;
	size_t offset;
} row_shares[] = {
	{ "rmt_hitm_pct", offsetof(struct c2c_stats, rmt_hitm) },
	{ "lcl_hitm_pct", offsetof(struct c2c_stats, lcl_hitm) },
	{ "rmt_peer_pct", offsetof(struct c2c_stats, rmt_peer) },
	{ "lcl_peer_pct", offsetof(struct c2c_stats, lcl_peer) },
	{ "st_l1hit_pct", offsetof(struct c2c_stats, st_l1hit) },
	{ "st_l1miss_pct", offsetof(struct c2c_stats, st_l1miss) },
	{ "st_na_pct", offsetof(struct c2c_stats, st_na) },
};

static json_t *row_json(struct c2c_session *s, const struct c2c_row *r)
{
	const struct c2c_stats *st = &r->g.stats, *tot = &r->line->g.stats;
	json_t *o = json_object(), *cy = json_object();
	static const char *const bucket_names[] = { "rmt_hitm", "lcl_hitm", "rmt_peer", "lcl_peer",
						    "load" };
	size_t b, i;

	json_object_set_new(o, "offset", hex(r->offset_shown));
	json_object_set_new(o, "node", nodes_str(s->model, &r->g));
	json_object_set_new(o, "pa_count", json_integer((json_int_t)r->g.paddr_cnt));
	for (i = 0; i < ARRAY_SIZE(row_shares); i++) {
		size_t off = row_shares[i].offset;

		json_object_set_new(
			o, row_shares[i].name,
			number(c2c_view_percent(c2c_stat_at(st, off), c2c_stat_at(tot, off))));
	}
	for (b = 0; b < C2C_NR_BUCKETS; b++)
		json_object_set_new(cy, bucket_names[b], number(c2c_mean_value(&r->cycles[b])));
	json_object_set_new(o, "mean_cycles", cy);
	json_object_set_new(o, "cpu_count",
			    json_integer((json_int_t)c2c_group_cpu_count(s->model, &r->g)));
	row_code_json(s, r, o);
	if (s->attrib)
		json_object_set_new(o, "attribution", attribution_json(s->attrib, r));
	json_object_set_new(o, "stats", stats_json(st));
	return o;
}

/* One side of c2c_line_access: {"samples": N, "cpus": [..], "functions": [..]}. */
static json_t *access_json(const struct c2c_model *m, uint64_t samples, const uint64_t *cpus,
			   const char **names, size_t nr)
{
	json_t *o = json_object(), *c = json_array(), *f = json_array();
	uint32_t i;

	for (i = 0; i < m->opts.nr_cpus; i++)
		if (bitmap_test(cpus, i))
			json_array_append_new(c, json_integer(i));
	for (i = 0; i < nr; i++)
		json_array_append_new(f, json_string(names[i]));
	json_object_set_new(o, "samples", json_integer((json_int_t)samples));
	json_object_set_new(o, "cpus", c);
	json_object_set_new(o, "functions", f);
	return o;
}

static void line_access_json(struct c2c_session *s, const struct c2c_line *l, json_t *o)
{
	struct c2c_line_access a;

	c2c_line_access_build(s, l, &a);
	json_object_set_new(o, "writers",
			    access_json(s->model, a.stores, a.writer_cpus, a.writers,
					a.nr_writers));
	json_object_set_new(o, "readers",
			    access_json(s->model, a.loads, a.reader_cpus, a.readers, a.nr_readers));
	c2c_line_access_release(&a);
}

static json_t *line_json(struct c2c_session *s, const struct c2c_line *l)
{
	const struct c2c_model *m = s->model;
	json_t *o = json_object(), *rows = json_array();
	size_t i;

	json_object_set_new(o, "index", json_integer(l->index));
	json_object_set_new(o, "address", hex(l->addr));
	json_object_set_new(o, "node", nodes_str(m, &l->g));
	json_object_set_new(o, "pa_count", json_integer((json_int_t)l->g.paddr_cnt));
	json_object_set_new(o, "metric_pct",
			    number(c2c_view_costly_percent(m, &l->g.stats, &m->totals)));
	json_object_set_new(o, "object", l->dmap ? json_string(l->dmap->short_name) : json_null());
	json_object_set_new(o, "stats", stats_json(&l->g.stats));
	line_access_json(s, l, o);
	if (s->attrib) {
		struct strbuf sb = STRBUF_INIT;
		json_t *objs = json_array();
		const char *p;

		c2c_attrib_line_objects(s->attrib, l, &sb);
		for (p = sb.buf; *p; p += *p == ',') {
			size_t n = strcspn(p, ",");

			json_array_append_new(objs, json_stringn(p, n));
			p += n;
		}
		json_object_set_new(o, "objects", objs);
		strbuf_release(&sb);
	}
	for (i = 0; i < l->nr_rows; i++)
		if (l->rows[i]->valid)
			json_array_append_new(rows, row_json(s, l->rows[i]));
	json_object_set_new(o, "rows", rows);
	return o;
}

/* The lines only stores fight over (c2c_store_contention). */
static json_t *store_contention_json(struct c2c_session *s)
{
	struct c2c_store_line *v;
	size_t i, n = c2c_store_contention(s, &v);
	struct strbuf sb = STRBUF_INIT;
	json_t *lines = json_array();

	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "address", hex(v[i].line->addr));
		json_object_set_new(o, "object",
				    v[i].line->dmap ? json_string(v[i].line->dmap->short_name) :
						      json_null());
		json_object_set_new(o, "writes", json_integer((json_int_t)v[i].writes));
		json_object_set_new(o, "st_l1miss", json_integer((json_int_t)v[i].l1_miss));
		json_object_set_new(o, "loads", json_integer(v[i].line->g.stats.load));
		json_object_set_new(o, "writer_cpus", json_integer(v[i].nr_cpus));
		line_access_json(s, v[i].line, o);
		strbuf_reset(&sb);
		c2c_store_line_fields(s, v[i].line, &sb);
		json_object_set_new(o, "fields", json_string(sb.buf));
		json_array_append_new(lines, o);
	}
	strbuf_release(&sb);
	free(v);
	return lines;
}

/* Samples per attribution reason; they add up to "samples". */
static json_t *attrib_stats_json(struct c2c_session *s)
{
	uint64_t counts[C2C_ATTRIB_NR_REASONS];
	json_t *o = json_object();
	int i;

	c2c_attrib_counts(s->attrib, counts);
	for (i = 0; i < C2C_ATTRIB_NR_REASONS; i++)
		json_object_set_new(o, c2c_attrib_reason_name(i),
				    json_integer((json_int_t)counts[i]));
	return o;
}

json_t *c2c_json_build(struct c2c_session *s)
{
	static const char *const display_names[] = { "tot", "rmt", "lcl", "peer" };
	const struct c2c_model *m = s->model;
	json_t *root = json_object(), *events = json_array(), *lines = json_array();
	struct c2c_figure f[64];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	json_object_set_new(root, "schema", json_string("c2cscope-report/1"));
	json_object_set_new(root, "input", json_string(s->opts.path));
	for (i = 0; i < s->nr_events; i++)
		json_array_append_new(events, json_string(s->event_names[i]));
	json_object_set_new(root, "events", events);
	json_object_set_new(root, "display", json_string(display_names[m->opts.display]));
	c2c_view_grouping(m, &sb);
	json_object_set_new(root, "grouping", json_string(sb.buf));
	strbuf_release(&sb);
	json_object_set_new(root, "line_size", json_integer((json_int_t)m->line_size));
	json_object_set_new(root, "rules",
			    json_string(m->opts.rules == MEM_SRC_MODERN ? "modern" : "perf-6.1"));
	json_object_set_new(root, "samples", json_integer((json_int_t)s->nr_samples));
	json_object_set_new(root, "hitm_period", json_integer((json_int_t)s->hitm_period_max));
	json_object_set_new(root, "trace_event_information",
			    figures_json(f, c2c_trace_figures(m, f, 64)));
	json_object_set_new(root, "shared_cache_line_information",
			    figures_json(f, c2c_shared_figures(m, f, 64)));
	json_object_set_new(root, "displayed_lines", json_integer((json_int_t)m->nr_displayed));
	json_object_set_new(root, "shared_lines", json_integer((json_int_t)m->nr_shared));
	for (i = 0; i < m->nr_lines; i++)
		if (m->lines[i]->displayed)
			json_array_append_new(lines, line_json(s, m->lines[i]));
	json_object_set_new(root, "lines", lines);
	json_object_set_new(root, "store_contention", store_contention_json(s));
	if (s->attrib)
		json_object_set_new(root, "attribution_stats", attrib_stats_json(s));
	/* null: the file has no allocation events (a PMU recording) */
	json_object_set_new(root, "heap_blocks",
			    s->heap ? json_integer((json_int_t)heap_table_count(s->heap)) :
				      json_null());
	return root;
}
#endif
