// SPDX-License-Identifier: GPL-2.0
/*
 * The text report: perf c2c report --stdio's five sections with the same
 * labels and numbers, tables laid out by output/table.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_session.h"
#include "c2c/c2c_view.h"
#include "fmt/table.h"

static void section_title(struct strbuf *out, const char *title)
{
	size_t pad = (49 - strlen(title)) / 2;

	strbuf_addstr(out, "=================================================\n");
	strbuf_addchars(out, ' ', pad);
	strbuf_addf(out, "%s\n", title);
	strbuf_addstr(out, "=================================================\n");
}

static void figures(struct strbuf *out, const struct c2c_figure *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_addf(out, "  %-34s: ", f[i].label);
		if (f[i].percent)
			strbuf_addf(out, "%10.1f%%\n", f[i].value);
		else
			strbuf_addf(out, "%10.0f\n", f[i].value);
	}
}

/* A sampled recording: the counts are samples (as perf c2c report counts them). */
static void sampling_note(const struct c2c_session *s, struct strbuf *out)
{
	if (s->hitm_period_max <= 1)
		return;
	if (s->hitm_period_min == s->hitm_period_max)
		strbuf_addf(out,
			    "  %-34s: 1 in %" PRIu64 " (period %" PRIu64
			    "): counts are samples, x %" PRIu64 " estimates the events\n",
			    "HITMs and store misses sampled", s->hitm_period_max,
			    s->hitm_period_max, s->hitm_period_max);
	else
		strbuf_addf(out,
			    "  %-34s: periods %" PRIu64 " to %" PRIu64
			    ": counts are samples, whatever their period\n",
			    "HITMs and store misses sampled", s->hitm_period_min,
			    s->hitm_period_max);
}

static void details(struct c2c_session *s, struct strbuf *out)
{
	size_t i;

	section_title(out, "c2c details");
	for (i = 0; i < s->nr_events; i++)
		strbuf_addf(out, "%-36s: %s\n", i ? "" : "  Events", s->event_names[i]);
	strbuf_addf(out, "  %-34s: %s\n", "Cachelines sort on",
		    c2c_display_name(s->model->opts.display));
	strbuf_addf(out, "  %-34s: ", "Cacheline data grouping");
	c2c_view_grouping(s->model, out);
	strbuf_addf(out, "\n  %-34s: %" PRIu64 " bytes%s\n", "Cache line size", s->model->line_size,
		    s->model->opts.double_cl ? " (--double-cl)" : "");
	strbuf_addf(out, "  %-34s: %s\n", "Classification",
		    s->model->opts.rules == MEM_SRC_MODERN ? "modern rules" : "perf 6.1");
	sampling_note(s, out);
}

struct table *c2c_view_lines_table(struct c2c_session *s)
{
	const struct c2c_model *m = s->model;
	struct table *t = table_new();
	struct strbuf sb = STRBUF_INIT;
	bool fields = c2c_attrib_any(s->attrib);
	struct c2c_line_view v;
	size_t i, c;

	c2c_view_line_columns(t, m->opts.display == C2C_DISPLAY_PEER);
	if (fields) /* after perf's columns: the objects the line holds */
		table_add_column(t, NULL, "Objects", TABLE_LEFT);
	for (i = 0; i < m->nr_lines; i++) {
		const struct c2c_line *l = m->lines[i];

		if (!l->displayed)
			continue;
		c2c_view_line(m, l, &v);
		table_add_row(t);
		for (c = 0; c < v.nr; c++)
			table_set(t, c, "%s", v.cells[c].buf);
		if (fields) {
			strbuf_reset(&sb);
			c2c_attrib_line_objects(s->attrib, l, &sb);
			table_set(t, c, "%s", sb.buf);
		}
		c2c_view_line_release(&v);
	}
	strbuf_release(&sb);
	return t;
}

struct table *c2c_view_pareto_table(struct c2c_session *s, const struct c2c_line *l,
				    bool field_by_offset)
{
	const struct c2c_model *m = s->model;
	struct table *t = table_new();
	bool fields = c2c_attrib_any(s->attrib);
	struct c2c_line_view v;
	size_t i, c, field = 0;

	c2c_view_row_columns(m, t);
	if (fields) /* after perf's columns (or beside the offset): what the offset is */
		field = table_add_column(t, field_by_offset ? "Data address" : NULL, "Field",
					 TABLE_LEFT);
	for (i = 0; i < l->nr_rows; i++) {
		if (!l->rows[i]->valid)
			continue;
		c2c_view_row(s, l->rows[i], &v);
		table_add_row(t);
		for (c = 0; c < v.nr; c++)
			table_set(t, c, "%s", v.cells[c].buf);
		if (fields)
			table_set(t, field, "%s", c2c_attrib_row(s->attrib, l->rows[i])->label);
		c2c_view_line_release(&v);
	}
	if (fields && field_by_offset)
		table_move_column(t, field, C2C_VIEW_OFFSET_COLUMN + 1);
	return t;
}

void c2c_view_line_title(const struct c2c_model *m, const struct c2c_line *l, struct strbuf *out)
{
	if (l->displayed)
		strbuf_addf(out, "Line %u  0x%" PRIx64 "  ", l->index, l->addr);
	else /* a Store Contention line: it has no number in the table */
		strbuf_addf(out, "Line 0x%" PRIx64 " (not in the line table)  ", l->addr);
	if (m->opts.display == C2C_DISPLAY_PEER)
		strbuf_addf(out, "Peer: rmt %u lcl %u", l->g.stats.rmt_peer, l->g.stats.lcl_peer);
	else
		strbuf_addf(out, "HITM: rmt %u lcl %u", l->g.stats.rmt_hitm, l->g.stats.lcl_hitm);
	strbuf_addf(out, "  Store refs: L1 hit %u, L1 miss %u, N/A %u", l->g.stats.st_l1hit,
		    l->g.stats.st_l1miss, l->g.stats.st_na);
}

static void pareto_line(struct c2c_session *s, const struct c2c_line *l, struct strbuf *out)
{
	struct table *t = c2c_view_pareto_table(s, l, false);

	strbuf_addstr(out, "\n  ");
	c2c_view_line_title(s->model, l, out);
	strbuf_addstr(out, "\n  ");
	c2c_view_line_access(s, l, out);
	strbuf_addch(out, '\n');
	table_render(t, out, "  ");
	table_free(t);
}

/*
 * An empty Shared Data Cache Line Table says why (c2cscope's words, not
 * in --no-attrib's perf report); nr_store: lines under Store Contention.
 */
static void empty_table_note(const struct c2c_model *m, size_t nr_store, struct strbuf *out)
{
	if (m->nr_displayed)
		return;
	if (m->nr_shared)
		strbuf_addf(out,
			    "  (empty: no line reaches 0.1%% of the %s; %u shared line%s hidden, "
			    "--show-all lists %s)\n",
			    c2c_display_name(m->opts.display), m->nr_shared,
			    m->nr_shared == 1 ? " is" : "s are", m->nr_shared == 1 ? "it" : "them");
	else
		strbuf_addf(out,
			    "  (empty: no load saw a HITM or a peer hit, so no line is shared%s)\n",
			    nr_store ?
				    "; Store Contention below lists lines only stores fight over" :
				    "");
}

/*
 * c2cscope's own section, after perf's and only when it has lines: the
 * lines only stores fight over.
 */
static void store_contention(struct c2c_session *s, const struct c2c_store_line *v, size_t n,
			     struct strbuf *out)
{
	struct table *t;
	size_t i;

	if (!n)
		return;
	strbuf_addch(out, '\n');
	section_title(out, "Store Contention (c2cscope)");
	for (i = 0; i < C2C_STORE_NOTE_LINES; i++)
		strbuf_addf(out, "  %s\n", c2c_store_note[i]);
	t = c2c_view_store_table(s, v, n);
	table_render(t, out, "  ");
	table_free(t);
}

void c2c_text_render(struct c2c_session *s, struct strbuf *out, bool stats_only)
{
	struct c2c_store_line *store = NULL;
	struct c2c_figure f[64];
	size_t i, nr_store = 0;
	struct table *t;

	section_title(out, "Trace Event Information");
	figures(out, f, c2c_trace_figures(s->model, f, 64));
	strbuf_addch(out, '\n');
	section_title(out, "Global Shared Cache Line Event Information");
	figures(out, f, c2c_shared_figures(s->model, f, 64));
	strbuf_addch(out, '\n');
	details(s, out);
	if (stats_only) {
		if (s->attrib) {
			strbuf_addch(out, '\n');
			c2c_attrib_render_stats(s->attrib, s->nr_samples, out);
		}
		return;
	}
	strbuf_addch(out, '\n');
	section_title(out, "Shared Data Cache Line Table");
	t = c2c_view_lines_table(s);
	table_render(t, out, "  ");
	table_free(t);
	if (s->opts.attribute) /* not in --no-attrib's perf report */
		nr_store = c2c_store_contention(s, &store);
	if (s->opts.attribute)
		empty_table_note(s->model, nr_store, out);
	strbuf_addch(out, '\n');
	section_title(out, "Shared Cache Line Distribution Pareto");
	for (i = 0; i < s->model->nr_lines; i++)
		if (s->model->lines[i]->displayed)
			pareto_line(s, s->model->lines[i], out);
	store_contention(s, store, nr_store, out);
	free(store);
}
