// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap of the hot lines: one row per line, one cell per byte
 * offset, coloured by a metric of the Pareto rows at that offset (tot,
 * rmt or lcl HITMs, or stores): each cell carries its four colours and a
 * CSS-only switch picks one;
 * each cell's tooltip names the field, the code sites and the cpus, and
 * the boundaries of the fields of the objects the line holds are drawn.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_html_int.h"
#include "c2c/c2c_view.h"
#include "fmt/html.h"
#include "types/types.h"
#include "util/bitmap.h"

#define HM_LABEL_W 150.0
#define HM_TOTAL_W 120.0
#define HM_CELL_H 18.0
#define HM_ROW_H 34.0
#define HM_TOP 26.0
#define MAX_OBJECTS 8

static const char *const metric_ids[HTML_NR_METRICS] = { "tot", "rmt", "lcl", "st" };
static const char *const metric_names[HTML_NR_METRICS] = { "Total HITMs", "Remote HITMs",
							   "Local HITMs", "Stores" };

uint64_t c2c_html_metric(const struct c2c_stats *st, enum html_metric m)
{
	switch (m) {
	case HTML_METRIC_TOT:
		return st->tot_hitm;
	case HTML_METRIC_RMT:
		return st->rmt_hitm;
	case HTML_METRIC_LCL:
		return st->lcl_hitm;
	default:
		return c2c_writes(st); /* locked RMWs write: the text report's Writers */
	}
}

static uint64_t cell_value(const struct c2c_offset_view *c, enum html_metric m)
{
	return c2c_html_metric(&c->stats, m);
}

/* The cpus the view sampled at an offset, at most 32 named. */
static void add_cpus(struct strbuf *sb, const struct c2c_model *m, const struct c2c_offset_view *c)
{
	uint32_t cpu, n = 0;

	for (cpu = 0; cpu < m->opts.nr_cpus; cpu++) {
		if (!bitmap_test(c->cpus, cpu))
			continue;
		if (n++ < 32)
			strbuf_addf(sb, "%s%u", n > 1 ? "," : "", cpu);
	}
	if (n > 32)
		strbuf_addf(sb, ",... (%u cpus)", n);
	if (!n)
		strbuf_addstr(sb, "none sampled");
}

static void cell_tooltip(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *l,
			 uint64_t off, const struct c2c_offset_view *c)
{
	const struct c2c_model *m = s->model;
	size_t i;

	strbuf_addf(sb, "line %u 0x%" PRIx64 " +0x%" PRIx64, l->index, l->addr, off);
	if (s->attrib) {
		const char *label = c2c_attrib_row(s->attrib, c->rows[0])->label;

		strbuf_addf(sb, "\nfield: %s", *label ? label : "(not named)");
	}
	strbuf_addf(sb,
		    "\nHITM tot %" PRIu64 " (rmt %" PRIu64 ", lcl %" PRIu64 "); stores %" PRIu64
		    ", loads %" PRIu64 "\ncode:",
		    cell_value(c, HTML_METRIC_TOT), cell_value(c, HTML_METRIC_RMT),
		    cell_value(c, HTML_METRIC_LCL), cell_value(c, HTML_METRIC_ST),
		    (uint64_t)c->stats.load);
	for (i = 0; i < c->nr_sites; i++) {
		const struct c2c_row *r = c->rows[i];
		const struct sym_info *si = sym_resolve(s->symbols, r->imap, r->iaddr);

		strbuf_addf(sb, "\n  %s 0x%" PRIx64 " %s", si->symbol ? si->symbol : "?", r->iaddr,
			    si->srcline ? si->srcline : "");
	}
	if (c->nr_rows > c->nr_sites)
		strbuf_addf(sb, "\n  ... %zu more", c->nr_rows - c->nr_sites);
	strbuf_addstr(sb, "\ncpus: ");
	add_cpus(sb, m, c);
}

/*
 * Field boundaries and names of an object on the row below the cells: its
 * top-level members' bytes, as the type model gives them (a bitfield: the
 * bytes that hold its bits).
 */
static void draw_fields(struct strbuf *sb, const struct c2c_line_object *o, uint64_t line_size,
			double y, double cw)
{
	const struct type *t = type_strip(o->type);
	uint32_t i;

	for (i = 0; type_is_aggregate(t) && i < t->nr_members; i++) {
		const struct type_member *tm = &t->members[i];
		uint64_t ms, me;
		int64_t a, e;
		double x, w;

		type_member_extent(tm, &ms, &me);
		a = o->start + (int64_t)ms;
		e = o->start + (int64_t)me;
		if (e <= 0 || a >= (int64_t)line_size || ms == me)
			continue;
		if (a >= 0)
			svg_line(sb, HM_LABEL_W + a * cw, y - 2, HM_LABEL_W + a * cw,
				 y + HM_CELL_H + 12, "bound");
		a = a < 0 ? 0 : a;
		e = e > (int64_t)line_size ? (int64_t)line_size : e;
		x = HM_LABEL_W + a * cw;
		w = (double)(e - a) * cw;
		if (tm->name && w >= 5.2 * (double)strlen(tm->name) + 2)
			svg_text(sb, x + w / 2, y + HM_CELL_H + 10, "middle", "small", "%s",
				 tm->name);
	}
}

static void draw_axis(struct strbuf *sb, uint64_t line_size, double cw, double height)
{
	uint64_t off;

	for (off = 0; off <= line_size; off += 8) {
		svg_text(sb, HM_LABEL_W + (double)off * cw, 12, "middle", "small", "0x%02" PRIx64,
			 off);
		if (off % 64 == 0 || off == line_size)
			continue;
		svg_line(sb, HM_LABEL_W + (double)off * cw, HM_TOP - 4,
			 HM_LABEL_W + (double)off * cw, height, "grid");
	}
	svg_text(sb, HM_LABEL_W + line_size * cw + 24, 12, "start", "small", "line total");
}

/* A cell: one colour per metric in CSS variables, the switch picks one. */
static void draw_cell(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *l,
		      struct html_heat_ctx *hc, uint64_t off, double y)
{
	const struct c2c_offset_view *c = &hc->offsets.at[off];
	struct strbuf tip = STRBUF_INIT, data = STRBUF_INIT;
	char colour[HTML_COLOUR_LEN];
	int k;

	cell_tooltip(&tip, s, l, off, c);
	strbuf_addf(&data, "data-line=\"%u\" data-off=\"%" PRIu64 "\"", l->index, off);
	for (k = 0; k < HTML_NR_METRICS; k++)
		strbuf_addf(&data, " data-%s=\"%" PRIu64 "\"", metric_ids[k], cell_value(c, k));
	strbuf_addstr(&data, " style=\"");
	for (k = 0; k < HTML_NR_METRICS; k++) {
		html_heat_colour(cell_value(c, k), hc->max[k], colour);
		strbuf_addf(&data, "--%s:%s;", metric_ids[k], colour);
	}
	strbuf_addch(&data, '"');
	svg_rect(sb, HM_LABEL_W + off * hc->cw, y, hc->cw, HM_CELL_H, NULL, "c", tip.buf, data.buf);
	strbuf_release(&tip);
	strbuf_release(&data);
}

static void draw_row(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *l,
		     struct html_heat_ctx *hc, double y)
{
	uint64_t ls = s->model->line_size, off;
	struct c2c_line_object objs[MAX_OBJECTS];
	struct strbuf cls = STRBUF_INIT;
	size_t i, n;
	int k;

	c2c_view_line_offsets(s->model, l, &hc->offsets);
	svg_text(sb, 0, y + 13, "start", NULL, "%u  0x%" PRIx64, l->index, l->addr);
	svg_rect(sb, HM_LABEL_W, y, ls * hc->cw, HM_CELL_H, NULL, "empty", NULL, NULL);
	for (off = 0; off < ls; off++)
		if (hc->offsets.at[off].nr_rows)
			draw_cell(sb, s, l, hc, off, y);
	n = c2c_view_line_objects(s, l, objs, MAX_OBJECTS);
	for (i = 0; i < n; i++)
		draw_fields(sb, &objs[i], ls, y, hc->cw);
	for (k = 0; k < HTML_NR_METRICS; k++) {
		strbuf_reset(&cls);
		strbuf_addf(&cls, "mt mt-%s", metric_ids[k]);
		svg_text(sb, HM_LABEL_W + ls * hc->cw + 24, y + 13, "start", cls.buf, "%" PRIu64,
			 c2c_html_metric(&l->g.stats, k));
	}
	strbuf_release(&cls);
}

static void heatmap_svg(struct strbuf *sb, struct c2c_session *s,
			const struct c2c_line *const *lines, size_t nr, struct html_heat_ctx *hc)
{
	uint64_t ls = s->model->line_size;
	double h = HM_TOP + (double)nr * HM_ROW_H, w = HM_LABEL_W + ls * hc->cw + HM_TOTAL_W;
	struct strbuf label = STRBUF_INIT;
	size_t i;
	int k;

	for (k = 0; k < HTML_NR_METRICS; k++) { /* one legend per metric, one shown */
		strbuf_addf(sb, "<div class=\"hm hm-%s\">\n", metric_ids[k]);
		html_heat_legend(sb, hc->max[k], metric_names[k], false);
		strbuf_addstr(sb, "</div>\n");
	}
	strbuf_addf(&label, "HITMs or stores per byte offset of the %zu hottest lines", nr);
	svg_begin(sb, w, h, label.buf);
	draw_axis(sb, ls, hc->cw, h);
	for (i = 0; i < nr; i++)
		draw_row(sb, s, lines[i], hc, HM_TOP + (double)i * HM_ROW_H);
	svg_end(sb);
	strbuf_release(&label);
}

/* The colour scales: the hottest cell of each metric. */
static void heat_max(struct c2c_session *s, const struct c2c_line *const *lines, size_t nr,
		     struct html_heat_ctx *hc)
{
	uint64_t ls = s->model->line_size, off;
	size_t i, k;

	memset(hc->max, 0, sizeof(hc->max));
	for (i = 0; i < nr; i++) {
		c2c_view_line_offsets(s->model, lines[i], &hc->offsets);
		for (off = 0; off < ls; off++)
			for (k = 0; k < HTML_NR_METRICS; k++)
				if (cell_value(&hc->offsets.at[off], k) > hc->max[k])
					hc->max[k] = cell_value(&hc->offsets.at[off], k);
	}
}

void c2c_html_heatmap(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *const *lines,
		      size_t nr)
{
	struct html_heat_ctx hc = { .cw = s->model->line_size > 64 ? 6 : 12 };
	int k;

	heat_max(s, lines, nr, &hc);
	strbuf_addstr(sb, "<div class=\"metric\">\nColour by: ");
	for (k = 0; k < HTML_NR_METRICS; k++)
		strbuf_addf(sb,
			    "<input type=\"radio\" name=\"metric\" id=\"m-%s\"%s>"
			    "<label for=\"m-%s\">%s</label>\n",
			    metric_ids[k], k ? "" : " checked", metric_ids[k], metric_names[k]);
	strbuf_addstr(sb, "<p class=\"note\">One row per line, one cell per byte offset "
			  "where a Pareto row starts; hover a cell for its field, code sites "
			  "and cpus. Red marks are the boundaries of the fields of the objects "
			  "the line holds, named below the cells.</p>\n<div class=\"hms\">\n");
	heatmap_svg(sb, s, lines, nr, &hc);
	strbuf_addstr(sb, "</div>\n</div>\n");
	c2c_line_offsets_release(&hc.offsets);
}
