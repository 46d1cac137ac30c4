// SPDX-License-Identifier: GPL-2.0
#include "c2c/c2c_view.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitmap.h"
#include "util/xalloc.h"

static const char *const key_names[] = { "tid", "pid", "iaddr", "dso" };

bool c2c_view_has_key(const struct c2c_model *m, enum c2c_key key)
{
	size_t i;

	for (i = 0; i < m->opts.nr_keys; i++)
		if (m->opts.keys[i] == key)
			return true;
	return false;
}

void c2c_view_grouping(const struct c2c_model *m, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "offset");
	for (i = 0; i < m->opts.nr_keys; i++)
		strbuf_addf(out, ",%s", key_names[m->opts.keys[i]]);
}

void c2c_view_bits(const uint64_t *bits, uint32_t n, struct strbuf *out)
{
	if (!bitmap_ranges(bits, n, out))
		strbuf_addstr(out, "none");
}

void c2c_view_nodeset(const struct c2c_model *m, const struct c2c_group *g, struct strbuf *out)
{
	if (!bitmap_ranges(c2c_group_nodeset(m, g), m->opts.nr_nodes, out))
		strbuf_addstr(out, "N/A");
}

double c2c_view_percent(uint32_t part, uint32_t total)
{
	return total ? 100. * (double)part / (double)total : 0;
}

double c2c_view_costly_percent(const struct c2c_model *m, const struct c2c_stats *st,
			       const struct c2c_stats *total)
{
	uint32_t a = c2c_metric(st, m->opts.display), b = c2c_metric(total, m->opts.display);

	/* perf computes (double)st / tot, then times 100 */
	return 100 * (b ? (double)(int)a / (int)b : 0);
}

/* The line table's last columns, from Stores L1Hit on: a counter each, as it is. */
static const struct {
	const char *group, *header;
	size_t offset; /* of the uint32_t in struct c2c_stats */
} counter_columns[] = {
	{ "Stores", "L1Hit", offsetof(struct c2c_stats, st_l1hit) },
	{ "Stores", "L1Miss", offsetof(struct c2c_stats, st_l1miss) },
	{ "Stores", "N/A", offsetof(struct c2c_stats, st_na) },
	{ "Core Load Hit", "FB", offsetof(struct c2c_stats, ld_fbhit) },
	{ "Core Load Hit", "L1", offsetof(struct c2c_stats, ld_l1hit) },
	{ "Core Load Hit", "L2", offsetof(struct c2c_stats, ld_l2hit) },
	{ "LLC Load Hit", "LclHit", offsetof(struct c2c_stats, ld_llchit) },
	{ "LLC Load Hit", "LclHitm", offsetof(struct c2c_stats, lcl_hitm) },
	{ "RMT Load Hit", "RmtHit", offsetof(struct c2c_stats, rmt_hit) },
	{ "RMT Load Hit", "RmtHitm", offsetof(struct c2c_stats, rmt_hitm) },
	{ "Load Dram", "Lcl", offsetof(struct c2c_stats, lcl_dram) },
	{ "Load Dram", "Rmt", offsetof(struct c2c_stats, rmt_dram) },
};

void c2c_view_line_columns(struct table *t, bool peer)
{
	size_t i;

	table_add_column(t, NULL, "Num", TABLE_RIGHT);
	table_add_column(t, "Cacheline", "Address", TABLE_RIGHT);
	table_add_column(t, "Cacheline", "Node", TABLE_RIGHT);
	table_add_column(t, "Cacheline", "PA cnt", TABLE_RIGHT);
	table_add_column(t, NULL, peer ? "Peer %" : "Hitm %", TABLE_RIGHT);
	table_add_column(t, peer ? "Load Peer" : "Load Hitm", "Total", TABLE_RIGHT);
	table_add_column(t, peer ? "Load Peer" : "Load Hitm", peer ? "Local" : "LclHitm",
			 TABLE_RIGHT);
	table_add_column(t, peer ? "Load Peer" : "Load Hitm", peer ? "Remote" : "RmtHitm",
			 TABLE_RIGHT);
	table_add_column(t, "Total", "records", TABLE_RIGHT);
	table_add_column(t, "Total", "Loads", TABLE_RIGHT);
	table_add_column(t, "Total", "Stores", TABLE_RIGHT);
	for (i = 0; i < ARRAY_SIZE(counter_columns); i++)
		table_add_column(t, counter_columns[i].group, counter_columns[i].header,
				 TABLE_RIGHT);
}

static struct strbuf *cell(struct c2c_line_view *v)
{
	struct strbuf *sb = &v->cells[v->nr++];

	strbuf_init(sb, 16);
	return sb;
}

#define CELL(v, ...) strbuf_addf(cell(v), __VA_ARGS__)

void c2c_view_line_release(struct c2c_line_view *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		strbuf_release(&v->cells[i]);
	v->nr = 0;
}

void c2c_view_line(const struct c2c_model *m, const struct c2c_line *l, struct c2c_line_view *v)
{
	const struct c2c_stats *s = &l->g.stats;
	bool peer = m->opts.display == C2C_DISPLAY_PEER;
	size_t i;

	v->nr = 0;
	CELL(v, "%u", l->index);
	CELL(v, "0x%" PRIx64, l->addr);
	c2c_view_nodeset(m, &l->g, cell(v));
	CELL(v, "%" PRIu32, l->g.paddr_cnt);
	CELL(v, "%.2f%%", c2c_view_costly_percent(m, s, &m->totals));
	CELL(v, "%u", peer ? s->tot_peer : s->lcl_hitm + s->rmt_hitm);
	CELL(v, "%u", peer ? s->lcl_peer : s->lcl_hitm);
	CELL(v, "%u", peer ? s->rmt_peer : s->rmt_hitm);
	CELL(v, "%" PRIu64, c2c_total_records(s));
	CELL(v, "%" PRIu64, c2c_total_loads(s));
	CELL(v, "%u", s->store);
	for (i = 0; i < ARRAY_SIZE(counter_columns); i++)
		CELL(v, "%u", c2c_stat_at(s, counter_columns[i].offset));
}

void c2c_view_row_columns(const struct c2c_model *m, struct table *t)
{
	bool peer = m->opts.display == C2C_DISPLAY_PEER;
	bool iaddr = c2c_view_has_key(m, C2C_KEY_IADDR);

	table_add_column(t, peer ? "Peer Snoop" : "HITM", "Rmt", TABLE_RIGHT);
	table_add_column(t, peer ? "Peer Snoop" : "HITM", "Lcl", TABLE_RIGHT);
	table_add_column(t, "Store Refs", "L1 Hit", TABLE_RIGHT);
	table_add_column(t, "Store Refs", "L1 Miss", TABLE_RIGHT);
	table_add_column(t, "Store Refs", "N/A", TABLE_RIGHT);
	table_add_column(t, "Data address", "Offset", TABLE_RIGHT);
	table_add_column(t, "Data address", "Node", TABLE_RIGHT);
	table_add_column(t, "Data address", "PA cnt", TABLE_RIGHT);
	if (c2c_view_has_key(m, C2C_KEY_PID))
		table_add_column(t, NULL, "Pid", TABLE_RIGHT);
	if (c2c_view_has_key(m, C2C_KEY_TID))
		table_add_column(t, NULL, "Tid:Command", TABLE_LEFT);
	if (iaddr)
		table_add_column(t, NULL, "Code address", TABLE_RIGHT);
	table_add_column(t, "cycles", peer ? "rmt peer" : "rmt hitm", TABLE_RIGHT);
	table_add_column(t, "cycles", peer ? "lcl peer" : "lcl hitm", TABLE_RIGHT);
	table_add_column(t, "cycles", "load", TABLE_RIGHT);
	table_add_column(t, "Total", "records", TABLE_RIGHT);
	table_add_column(t, NULL, "cpu cnt", TABLE_RIGHT);
	if (iaddr)
		table_add_column(t, NULL, "Symbol", TABLE_LEFT);
	if (iaddr || c2c_view_has_key(m, C2C_KEY_DSO))
		table_add_column(t, NULL, "Object", TABLE_LEFT);
	if (iaddr && !m->opts.no_source)
		table_add_column(t, NULL, "Source:Line", TABLE_LEFT);
	table_add_column(t, NULL, "Node", TABLE_LEFT);
}

void c2c_view_symbol(const struct sym_info *si, bool kernel, bool full, struct strbuf *out)
{
	size_t start = out->len;

	strbuf_addf(out, "[%c] ", kernel ? 'k' : '.');
	if (si->symbol)
		strbuf_addstr(out, si->symbol);
	if (!full && out->len - start > C2C_SYMBOL_WIDTH)
		strbuf_setlen(out, start + C2C_SYMBOL_WIDTH);
}

static void row_code(struct c2c_session *s, const struct c2c_row *r, struct c2c_line_view *v)
{
	const struct c2c_model *m = s->model;
	bool iaddr = c2c_view_has_key(m, C2C_KEY_IADDR);
	const struct sym_info *si = sym_resolve(s->symbols, r->imap, r->iaddr);
	uint32_t nodes[256];
	size_t i, n;
	struct strbuf *sb;

	if (iaddr) {
		sb = cell(v);
		if (si->symbol)
			c2c_view_symbol(si, r->cpumode == AS_CPUMODE_KERNEL, s->opts.full_symbols,
					sb);
		else
			strbuf_addf(sb, "[%c] 0x%016" PRIx64,
				    r->cpumode == AS_CPUMODE_KERNEL ? 'k' : '.', r->iaddr);
	}
	if (iaddr || c2c_view_has_key(m, C2C_KEY_DSO))
		CELL(v, "%s", r->imap ? r->imap->short_name : "[unknown]");
	if (iaddr && !m->opts.no_source) {
		sb = cell(v);
		strbuf_addstr(sb, si->srcline);
		if (!s->opts.full_symbols && sb->len > C2C_SYMBOL_WIDTH)
			strbuf_setlen(sb, C2C_SYMBOL_WIDTH);
	}
	n = c2c_group_cpu_nodes(m, &r->g, nodes, 256);
	sb = cell(v);
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%u", i ? " " : "", nodes[i]);
}

void c2c_view_row(struct c2c_session *s, const struct c2c_row *r, struct c2c_line_view *v)
{
	const struct c2c_model *m = s->model;
	const struct c2c_stats *st = &r->g.stats, *tot = &r->line->g.stats;
	bool peer = m->opts.display == C2C_DISPLAY_PEER;
	const struct c2c_mean *cy = r->cycles;

	v->nr = 0;
	CELL(v, "%.2f%%",
	     peer ? c2c_view_percent(st->rmt_peer, tot->rmt_peer) :
		    c2c_view_percent(st->rmt_hitm, tot->rmt_hitm));
	CELL(v, "%.2f%%",
	     peer ? c2c_view_percent(st->lcl_peer, tot->lcl_peer) :
		    c2c_view_percent(st->lcl_hitm, tot->lcl_hitm));
	CELL(v, "%.2f%%", c2c_view_percent(st->st_l1hit, tot->st_l1hit));
	CELL(v, "%.2f%%", c2c_view_percent(st->st_l1miss, tot->st_l1miss));
	CELL(v, "%.2f%%", c2c_view_percent(st->st_na, tot->st_na));
	CELL(v, "0x%" PRIx32, r->offset_shown);
	c2c_view_nodeset(m, &r->g, cell(v));
	CELL(v, "%" PRIu32, r->g.paddr_cnt);
	if (c2c_view_has_key(m, C2C_KEY_PID))
		CELL(v, "%u", r->pid);
	if (c2c_view_has_key(m, C2C_KEY_TID)) {
		const char *comm = addr_spaces_comm_of(s->spaces, r->tid);

		CELL(v, "%7u:%s", r->tid, comm ? comm : "");
	}
	if (c2c_view_has_key(m, C2C_KEY_IADDR))
		CELL(v, "0x%" PRIx64, r->iaddr);
	CELL(v, "%.0f", c2c_mean_value(&cy[peer ? C2C_BUCKET_RMT_PEER : C2C_BUCKET_RMT_HITM]));
	CELL(v, "%.0f", c2c_mean_value(&cy[peer ? C2C_BUCKET_LCL_PEER : C2C_BUCKET_LCL_HITM]));
	CELL(v, "%.0f", c2c_mean_value(&cy[C2C_BUCKET_LOAD]));
	CELL(v, "%" PRIu64, c2c_total_records(st));
	CELL(v, "%zu", c2c_group_cpu_count(m, &r->g));
	row_code(s, r, v);
}

static void add_name(const char ***names, size_t *nr, const char *name)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*names)[i], name))
			return;
	*names = xrealloc(*names, (*nr + 1) * sizeof(**names));
	(*names)[(*nr)++] = name;
}

void c2c_line_access_build(struct c2c_session *s, const struct c2c_line *l,
			   struct c2c_line_access *a)
{
	const struct c2c_model *m = s->model;
	size_t words = (m->opts.nr_cpus + 63) / 64 + 1, i, w;
	bool iaddr = c2c_view_has_key(m, C2C_KEY_IADDR);

	*a = (struct c2c_line_access){ .writer_cpus = xcalloc(words, sizeof(uint64_t)),
				       .reader_cpus = xcalloc(words, sizeof(uint64_t)) };
	for (i = 0; i < l->nr_rows; i++) {
		const struct c2c_row *r = l->rows[i];
		const struct c2c_stats *st = &r->g.stats;
		const char *fn = iaddr ? sym_resolve(s->symbols, r->imap, r->iaddr)->symbol : NULL;

		a->stores += c2c_writes(st); /* locked RMWs write */
		a->loads += st->load;
		for (w = 0; w < words - 1; w++) {
			if (c2c_writes(st))
				a->writer_cpus[w] |= r->g.cpuset[w];
			if (st->load)
				a->reader_cpus[w] |= r->g.cpuset[w];
		}
		if (fn && c2c_writes(st))
			add_name(&a->writers, &a->nr_writers, fn);
		if (fn && st->load)
			add_name(&a->readers, &a->nr_readers, fn);
	}
}

void c2c_line_access_release(struct c2c_line_access *a)
{
	free(a->writer_cpus);
	free(a->reader_cpus);
	free(a->writers);
	free(a->readers);
}

#define ACCESS_MAX_NAMES 4

static void access_side(const struct c2c_model *m, const char *what, uint64_t count,
			const uint64_t *cpus, const char **names, size_t nr, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "%s: ", what);
	if (!count) {
		strbuf_addstr(out, "none sampled");
		return;
	}
	strbuf_addstr(out, "cpus ");
	c2c_view_bits(cpus, m->opts.nr_cpus, out);
	for (i = 0; i < nr && i < ACCESS_MAX_NAMES; i++)
		strbuf_addf(out, "%s%s", i ? ", " : " (", names[i]);
	if (nr > ACCESS_MAX_NAMES)
		strbuf_addf(out, ", +%zu more", nr - ACCESS_MAX_NAMES);
	if (nr)
		strbuf_addch(out, ')');
}

void c2c_view_line_access(struct c2c_session *s, const struct c2c_line *l, struct strbuf *out)
{
	struct c2c_line_access a;

	c2c_line_access_build(s, l, &a);
	access_side(s->model, "Writers", a.stores, a.writer_cpus, a.writers, a.nr_writers, out);
	strbuf_addstr(out, "  ");
	access_side(s->model, "Readers", a.loads, a.reader_cpus, a.readers, a.nr_readers, out);
	c2c_line_access_release(&a);
}
