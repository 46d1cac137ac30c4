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
#include "layout/layout.h"
#include "util/xalloc.h"

#define HM_LABEL_W 150.0
#define HM_TOTAL_W 120.0
#define HM_CELL_H 18.0
#define HM_ROW_H 34.0
#define HM_TOP 26.0
#define MAX_SITES 6
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

static const struct layout *cached_layout(struct html_layout_cache *c, const struct type *t,
					  unsigned int cl)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->types[i] == t)
			return c->layouts[i];
	if (c->n == 64)
		return NULL;
	c->types[c->n] = t;
	if (layout_analyze(t, cl, &c->layouts[c->n], NULL))
		c->layouts[c->n] = NULL;
	return c->layouts[c->n++];
}

static void layout_cache_free(struct html_layout_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		layout_free(c->layouts[i]);
}

/* A line's rows by offset: what the cells show. */
struct cell {
	struct c2c_offset_sum sum; /* the engine's: c2c_view_offset_sums */
	const struct c2c_row *rows[MAX_SITES]; /* the first rows there, for the tooltip */
	size_t nr_sites;
};

static void line_cells(const struct c2c_line *l, struct html_heat_ctx *hc, uint64_t line_size)
{
	struct cell *cells = hc->cells;
	size_t i;

	c2c_view_offset_sums(l, line_size, hc->sums);
	for (i = 0; i < line_size; i++) {
		cells[i].sum = hc->sums[i];
		cells[i].nr_sites = 0;
	}
	for (i = 0; i < l->nr_rows; i++) {
		const struct c2c_row *r = l->rows[i];
		struct cell *c = &cells[r->offset_shown & (line_size - 1)];

		if (r->valid && c->nr_sites < MAX_SITES)
			c->rows[c->nr_sites++] = r;
	}
}

static uint64_t cell_value(const struct cell *c, enum html_metric m)
{
	return c2c_html_metric(&c->sum.stats, m);
}

/* The cpus sampled at any of the line's shown rows at offset off. */
static void add_cpus(struct strbuf *sb, const struct c2c_model *m, const struct c2c_line *l,
		     uint64_t off)
{
	size_t words = (m->opts.nr_cpus + 63) / 64, i, w;
	uint64_t *set = xcalloc(words ? words : 1, sizeof(*set));
	uint32_t cpu, n = 0;

	for (i = 0; i < l->nr_rows; i++) {
		const struct c2c_row *r = l->rows[i];

		if (r->valid && (r->offset_shown & (m->line_size - 1)) == off)
			for (w = 0; w < words; w++)
				set[w] |= r->g.cpuset[w];
	}
	for (cpu = 0; cpu < m->opts.nr_cpus; cpu++) {
		if (!(set[cpu / 64] >> (cpu % 64) & 1))
			continue;
		if (n++ < 32)
			strbuf_addf(sb, "%s%u", n > 1 ? "," : "", cpu);
	}
	if (n > 32)
		strbuf_addf(sb, ",... (%u cpus)", n);
	if (!n)
		strbuf_addstr(sb, "none sampled");
	free(set);
}

static void cell_tooltip(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *l,
			 uint64_t off, const struct cell *c)
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
		    (uint64_t)c->sum.stats.load);
	for (i = 0; i < c->nr_sites; i++) {
		const struct c2c_row *r = c->rows[i];
		const struct sym_info *si = sym_resolve(s->symbols, r->imap, r->iaddr);

		strbuf_addf(sb, "\n  %s 0x%" PRIx64 " %s", si->symbol ? si->symbol : "?", r->iaddr,
			    si->srcline ? si->srcline : "");
	}
	if (c->sum.nr_rows > c->nr_sites)
		strbuf_addf(sb, "\n  ... %zu more", c->sum.nr_rows - c->nr_sites);
	strbuf_addstr(sb, "\ncpus: ");
	add_cpus(sb, m, l, off);
}

/* Objects the line's rows land in, by type and start (line offset, may be < 0). */
struct line_object {
	const struct type *type;
	int64_t start;
	uint64_t hitm, records; /* of its rows: which object is the line's */
};

/* Whether o's bytes overlap those of one of the n objects. */
static bool overlaps(const struct line_object *objs, size_t n, const struct line_object *o)
{
	int64_t a = o->start, e = a + (int64_t)type_size(o->type);
	size_t k;

	for (k = 0; k < n; k++) {
		int64_t ka = objs[k].start, ke = ka + (int64_t)type_size(objs[k].type);

		if (a < ke && ka < e)
			return true;
	}
	return false;
}

static int cmp_hotter(const void *pa, const void *pb)
{
	const struct line_object *a = pa, *b = pb;

	if (a->hitm != b->hitm)
		return a->hitm > b->hitm ? -1 : 1;
	if (a->records != b->records)
		return a->records > b->records ? -1 : 1;
	return 0;
}

/* Row r's object in the line, added to (or summed into) the candidates. */
static size_t add_candidate(struct line_object *c, size_t n, const struct c2c_row *r,
			    const struct attrib_result *res, uint64_t line_size)
{
	int64_t start = (int64_t)(r->offset_shown & (line_size - 1)) - (int64_t)res->outer_offset;
	size_t k;

	for (k = 0; k < n; k++)
		if (c[k].type == res->outer_type && c[k].start == start)
			break;
	if (k == n)
		c[n++] = (struct line_object){ .type = res->outer_type, .start = start };
	c[k].hitm += r->g.stats.tot_hitm;
	c[k].records += r->g.stats.nr_entries;
	return n;
}

/*
 * The objects whose fields the row shows, hottest first; an object that
 * overlaps a hotter one (another reading of the same bytes, such as an
 * allocator's chunk header) is left out.
 */
static size_t line_objects(struct c2c_session *s, const struct c2c_line *l, uint64_t line_size,
			   struct line_object *objs)
{
	struct line_object cand[4 * MAX_OBJECTS];
	size_t i, nc = 0, n = 0;

	for (i = 0; s->attrib && i < l->nr_rows && nc < 4 * MAX_OBJECTS; i++) {
		const struct c2c_row *r = l->rows[i];
		const struct attrib_result *res;

		if (r->valid && (res = c2c_attrib_row(s->attrib, r)->res) && res->outer_type)
			nc = add_candidate(cand, nc, r, res, line_size);
	}
	qsort(cand, nc, sizeof(*cand), cmp_hotter);
	for (i = 0; i < nc && n < MAX_OBJECTS; i++)
		if (!overlaps(objs, n, &cand[i]))
			objs[n++] = cand[i];
	return n;
}

/* Field boundaries and names of the objects on the row below the cells. */
static void draw_fields(struct strbuf *sb, struct html_layout_cache *lc,
			const struct line_object *o, uint64_t line_size, double y, double cw)
{
	const struct layout *lo = cached_layout(lc, o->type, (unsigned int)line_size);
	uint32_t i;

	for (i = 0; lo && i < layout_nr_members(lo); i++) {
		const struct layout_member *lm = layout_member(lo, i);
		int64_t a = o->start + (int64_t)lm->offset, e = a + (int64_t)lm->size;
		double x, w;

		if (e <= 0 || a >= (int64_t)line_size || !lm->size)
			continue;
		if (a >= 0)
			svg_line(sb, HM_LABEL_W + a * cw, y - 2, HM_LABEL_W + a * cw,
				 y + HM_CELL_H + 12, "bound");
		a = a < 0 ? 0 : a;
		e = e > (int64_t)line_size ? (int64_t)line_size : e;
		x = HM_LABEL_W + a * cw;
		w = (double)(e - a) * cw;
		if (lm->name && w >= 5.2 * (double)strlen(lm->name) + 2)
			svg_text(sb, x + w / 2, y + HM_CELL_H + 10, "middle", "small", "%s",
				 lm->name);
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
	const struct cell *c = &hc->cells[off];
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
	struct line_object objs[MAX_OBJECTS];
	struct strbuf cls = STRBUF_INIT;
	size_t i, n;
	int k;

	line_cells(l, hc, ls);
	svg_text(sb, 0, y + 13, "start", NULL, "%u  0x%" PRIx64, l->index, l->addr);
	svg_rect(sb, HM_LABEL_W, y, ls * hc->cw, HM_CELL_H, NULL, "empty", NULL, NULL);
	for (off = 0; off < ls; off++)
		if (hc->cells[off].sum.nr_rows)
			draw_cell(sb, s, l, hc, off, y);
	n = line_objects(s, l, ls, objs);
	for (i = 0; i < n; i++)
		draw_fields(sb, &hc->layouts, &objs[i], ls, y, hc->cw);
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
		line_cells(lines[i], hc, ls);
		for (off = 0; off < ls; off++)
			for (k = 0; k < HTML_NR_METRICS; k++)
				if (cell_value(&hc->cells[off], k) > hc->max[k])
					hc->max[k] = cell_value(&hc->cells[off], k);
	}
}

void c2c_html_heatmap(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *const *lines,
		      size_t nr)
{
	struct html_heat_ctx hc = { .cw = s->model->line_size > 64 ? 6 : 12 };
	int k;

	hc.cells = xcalloc(s->model->line_size, sizeof(struct cell));
	hc.sums = xcalloc(s->model->line_size, sizeof(struct c2c_offset_sum));
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
	layout_cache_free(&hc.layouts);
	free(hc.cells);
	free(hc.sums);
}
