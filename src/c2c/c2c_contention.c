// SPDX-License-Identifier: GPL-2.0
/*
 * Store contention, c2cscope's own view (c2c_view.h): lines that several
 * cpus write whose stores miss L1 while no load saw a HITM or a peer hit.
 * Each store takes the line from the cpu that wrote it last (a read for
 * ownership that perf does not sample as a HITM), so perf counts the line
 * as not shared and no table of its report shows it.
 */
#include "c2c/c2c_view.h"

#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "fmt/table.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

#define STORE_LINE_LIMIT 0.001 /* as the Shared Data Cache Line Table's 0.1% */
#define STORE_LINE_NAMES 4

/* How many cpus write l (c2c_writes: locked RMWs included). */
static uint32_t writer_cpus(struct c2c_session *s, const struct c2c_line *l)
{
	uint32_t i, n = 0, nr_cpus = s->model->opts.nr_cpus;
	struct c2c_line_access a;

	c2c_line_access_build(s, l, &a);
	for (i = 0; i < nr_cpus; i++)
		n += bitmap_test(a.writer_cpus, i);
	c2c_line_access_release(&a);
	return n;
}

static int store_line_cmp(const void *pa, const void *pb)
{
	const struct c2c_store_line *a = pa, *b = pb;

	if (a->l1_miss != b->l1_miss)
		return a->l1_miss > b->l1_miss ? -1 : 1;
	return a->line->addr < b->line->addr ? -1 : a->line->addr > b->line->addr;
}

size_t c2c_store_contention(struct c2c_session *s, struct c2c_store_line **out)
{
	struct c2c_model *m = s->model;
	uint64_t total = m->totals.st_l1miss;
	struct c2c_store_line *v = NULL;
	size_t i, n = 0, alloc = 0;

	for (i = 0; i < m->nr_lines; i++) {
		const struct c2c_line *l = m->lines[i];
		const struct c2c_stats *st = &l->g.stats;
		uint32_t cpus;

		if (l->shared || !st->st_l1miss)
			continue;
		if (!m->opts.show_all && (double)st->st_l1miss / total < STORE_LINE_LIMIT)
			continue;
		cpus = writer_cpus(s, l);
		if (cpus < 2)
			continue;
		c2c_model_order_rows(m, m->lines[i]); /* not displayed: for its detail */
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n++] = (struct c2c_store_line){ .line = l,
						  .writes = c2c_writes(st),
						  .l1_miss = st->st_l1miss,
						  .nr_cpus = cpus };
	}
	if (n)
		qsort(v, n, sizeof(*v), store_line_cmp);
	*out = v;
	return n;
}

void c2c_store_line_fields(const struct c2c_session *s, const struct c2c_line *l,
			   struct strbuf *out)
{
	const char *seen[STORE_LINE_NAMES];
	size_t i, j, n = 0, more = 0;

	for (i = 0; s->attrib && i < l->nr_rows; i++) {
		const struct c2c_row_attrib *ra = c2c_attrib_row(s->attrib, l->rows[i]);

		if (!c2c_writes(&l->rows[i]->g.stats) || !ra || !ra->label || !*ra->label)
			continue;
		for (j = 0; j < n && strcmp(seen[j], ra->label); j++)
			;
		if (j < n)
			continue;
		if (n == STORE_LINE_NAMES) {
			more++;
			continue;
		}
		seen[n] = ra->label;
		strbuf_addf(out, "%s%s", n++ ? ", " : "", ra->label);
	}
	if (more)
		strbuf_addf(out, ", +%zu more", more);
}

const char *const c2c_store_note[C2C_STORE_NOTE_LINES] = {
	"Lines more than one cpu writes whose stores miss L1 while no load saw a",
	"HITM: each store takes the line from the last writer (RFO ping-pong),",
	"which perf does not count as sharing, so the tables above leave them out.",
};

struct table *c2c_view_store_table(struct c2c_session *s, const struct c2c_store_line *v, size_t n)
{
	static const char *const columns[] = { "Num",	"Address", "Writes",  "L1Miss",
					       "Loads", "Cpus",	   "Writers", "Fields" };
	struct table *t = table_new();
	struct strbuf sb = STRBUF_INIT;
	struct c2c_line_access a;
	size_t i, w;

	for (i = 0; i < ARRAY_SIZE(columns); i++)
		table_add_column(t, NULL, columns[i], i < 5 ? TABLE_RIGHT : TABLE_LEFT);
	for (i = 0; i < n; i++) {
		table_add_row(t);
		table_set(t, 0, "%zu", i);
		table_set(t, 1, "%#llx", (unsigned long long)v[i].line->addr);
		table_set(t, 2, "%llu", (unsigned long long)v[i].writes);
		table_set(t, 3, "%llu", (unsigned long long)v[i].l1_miss);
		table_set(t, 4, "%u", v[i].line->g.stats.load);
		c2c_line_access_build(s, v[i].line, &a);
		strbuf_reset(&sb);
		c2c_view_bits(a.writer_cpus, s->model->opts.nr_cpus, &sb);
		table_set(t, 5, "%s", sb.buf);
		strbuf_reset(&sb);
		for (w = 0; w < a.nr_writers && w < STORE_LINE_NAMES; w++)
			strbuf_addf(&sb, "%s%s", w ? ", " : "", a.writers[w]);
		table_set(t, 6, "%s", sb.len ? sb.buf : "-");
		c2c_line_access_release(&a);
		strbuf_reset(&sb);
		c2c_store_line_fields(s, v[i].line, &sb);
		table_set(t, 7, "%s", sb.len ? sb.buf : "-");
	}
	strbuf_release(&sb);
	return t;
}
