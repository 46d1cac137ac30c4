// SPDX-License-Identifier: GPL-2.0
/*
 * A struct as a strip of cache lines: one row per line, each member a box
 * as wide as its bytes, coloured by its HITMs (the profile's), hatched
 * where the profile's findings say false or true sharing; beside it the
 * proposed layout drawn the same way with the proposer's predicted HITMs
 * per line. A table below gives every member's numbers and cpu sets.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_bytype.h"
#include "fmt/html.h"
#include "layout/layout.h"
#include "suggest/suggest.h"
#include "util/xalloc.h"

#define LABEL_W 86.0
#define HITM_W 150.0
#define ROW_H 34.0
#define BOX_H 24.0
#define TOP 18.0

struct strip_member {
	const char *name;
	uint64_t offset, size;
	const struct field_profile *f; /* NULL: not profiled */
	bool false_sharing, true_sharing;
};

struct strip {
	const char *title;
	struct strip_member *m;
	uint32_t nr;
	uint64_t size;
	unsigned int cl;
	const struct proposal_line *lines; /* predicted HITMs per line, or NULL */
	uint32_t nr_lines;
	uint64_t max_hitm; /* colour scale, shared by both strips */
};

static uint64_t field_hitm(const struct field_profile *f)
{
	return f ? f->hitm_local + f->hitm_remote : 0;
}

/* Contexts by name, unnamed ones (cpus) as ranges: "0-3,5", "all". */
static void format_mask(struct strbuf *sb, const struct struct_profile *p, uint64_t mask)
{
	int i = 0, j, n = 0;

	if (!mask || mask == PROFILE_ALL_CONTEXTS) {
		strbuf_addstr(sb, mask ? "all" : "-");
		return;
	}
	while (i < 64) {
		if (!(mask >> i & 1)) {
			i++;
			continue;
		}
		if (p->contexts[i]) {
			strbuf_addf(sb, "%s%s", n++ ? "," : "", p->contexts[i++]);
			continue;
		}
		for (j = i; j + 1 < 64 && (mask >> (j + 1) & 1) && !p->contexts[j + 1]; j++)
			;
		strbuf_addf(sb, j > i ? "%s%d-%d" : "%s%d", n++ ? "," : "", i, j);
		i = j + 1;
	}
}

/* The members of t with their profile and findings. */
static struct strip_member *strip_members(const struct layout *l, const struct struct_profile *p,
					  const struct profile_findings *fs)
{
	uint32_t i, n = layout_nr_members(l);
	struct strip_member *v = xcalloc(n ? n : 1, sizeof(*v));

	for (i = 0; i < n; i++) {
		const struct layout_member *lm = layout_member(l, i);
		const struct field_profile *f = lm->name ? profile_field_const(p, lm->name) : NULL;

		v[i].name = lm->name ? lm->name : "(anonymous)";
		v[i].offset = lm->offset;
		v[i].size = lm->size;
		v[i].f = f;
		if (f && fs) {
			v[i].false_sharing = fs->false_sharing[f - p->fields];
			v[i].true_sharing = fs->true_sharing[f - p->fields];
		}
	}
	return v;
}

static void member_tooltip(struct strbuf *sb, const struct strip_member *m, unsigned int cl,
			   const struct struct_profile *p)
{
	const struct field_profile *f = m->f;
	static const char *const cls[] = { "cold", "read-mostly", "write-hot" };

	strbuf_addf(sb, "%s: offset %" PRIu64 ", %" PRIu64 " bytes, line %" PRIu64, m->name,
		    m->offset, m->size, m->offset / cl);
	if (!f || (!f->loads && !f->stores)) {
		strbuf_addstr(sb, "\nno samples");
		return;
	}
	strbuf_addf(sb,
		    "\n%s; HITM local %" PRIu64 " remote %" PRIu64 "; loads %" PRIu64
		    ", stores %" PRIu64,
		    cls[f->cls], f->hitm_local, f->hitm_remote, f->loads, f->stores);
	strbuf_addstr(sb, "\nwriters: ");
	format_mask(sb, p, f->writers);
	if (f->writer_funcs)
		strbuf_addf(sb, " (%s)", f->writer_funcs);
	strbuf_addstr(sb, "\nreaders: ");
	format_mask(sb, p, f->readers);
	if (f->reader_funcs)
		strbuf_addf(sb, " (%s)", f->reader_funcs);
	if (m->false_sharing)
		strbuf_addstr(sb, "\nfalse sharing");
	if (m->true_sharing)
		strbuf_addstr(sb, "\ntrue sharing");
}

/*
 * A box's class when it has no HITM colour: sampled or not; with a
 * profile that has no HITMs at all (a hotness file), its class.
 */
static const char *member_class(const struct strip *s, const struct strip_member *m, uint64_t hitm)
{
	const struct field_profile *f = m->f;

	if (hitm)
		return "member";
	if (!s->max_hitm && f && f->cls == FIELD_WRITE_HOT)
		return "member whot";
	if (!s->max_hitm && f && f->cls == FIELD_READ_MOSTLY)
		return "member rmostly";
	return f && (f->loads || f->stores) ? "member nohitm" : "member cold";
}

/* The part of member m on line `line`, as one box. */
static void draw_box(struct strbuf *sb, const struct strip *s, const struct strip_member *m,
		     uint64_t line, double y, double bw, const struct struct_profile *p)
{
	uint64_t ls = line * s->cl, le = ls + s->cl;
	uint64_t a = m->offset > ls ? m->offset : ls;
	uint64_t e = m->offset + m->size < le ? m->offset + m->size : le;
	double x = LABEL_W + (double)(a - ls) * bw, w = (double)(e - a) * bw;
	struct strbuf tip = STRBUF_INIT, data = STRBUF_INIT;
	uint64_t h = field_hitm(m->f);
	char colour[HTML_COLOUR_LEN];
	bool dark = h && html_heat_dark(h, s->max_hitm);

	html_heat_colour(h, s->max_hitm, colour);
	member_tooltip(&tip, m, s->cl, p);
	strbuf_addstr(&data, "data-field=\"");
	html_escape(&data, m->name);
	strbuf_addf(&data, "\" data-offset=\"%" PRIu64 "\" data-bytes=\"%" PRIu64 "\"", a, e - a);
	svg_rect(sb, x, y, w, BOX_H, h ? colour : NULL, member_class(s, m, h), tip.buf, data.buf);
	if (m->false_sharing || m->true_sharing)
		svg_hatch(sb, x, y, w, BOX_H, m->true_sharing);
	if (w >= 6.2 * (double)strlen(m->name) + 4)
		svg_text(sb, x + w / 2, y + BOX_H / 2 + 4, "middle", dark ? "light" : "halo", "%s",
			 m->name);
	else if (w >= 5.2 * (double)strlen(m->name) + 2)
		svg_text(sb, x + w / 2, y + BOX_H / 2 + 3, "middle",
			 dark ? "light small" : "halo small", "%s", m->name);
	strbuf_release(&tip);
	strbuf_release(&data);
}

static const struct proposal_line *line_prediction(const struct strip *s, uint64_t line)
{
	uint32_t i;

	for (i = 0; s->lines && i < s->nr_lines; i++)
		if (s->lines[i].line == line)
			return &s->lines[i];
	return NULL;
}

static void draw_strip(struct strbuf *sb, const struct strip *s, const struct struct_profile *p)
{
	uint64_t nr = (s->size + s->cl - 1) / s->cl, line;
	double bw = s->cl > 64 ? 3 : 6, width = LABEL_W + s->cl * bw + HITM_W;
	struct strbuf label = STRBUF_INIT;
	uint32_t i;

	strbuf_addf(&label, "%s: %" PRIu64 " bytes in %" PRIu64 " cache lines", s->title, s->size,
		    nr);
	svg_begin(sb, width, TOP + (double)(nr ? nr : 1) * ROW_H + 4, label.buf);
	svg_text(sb, 0, 12, "start", "bold", "%s", label.buf);
	for (line = 0; line < nr; line++) {
		double y = TOP + (double)line * ROW_H + 4;
		const struct proposal_line *pl = line_prediction(s, line);

		svg_text(sb, 0, y + BOX_H / 2 + 4, "start", NULL, "line %" PRIu64 " +%" PRIu64,
			 line, line * s->cl);
		svg_rect(sb, LABEL_W, y, s->cl * bw, BOX_H, NULL, "empty", "hole or padding", NULL);
		for (i = 0; i < s->nr; i++)
			if (s->m[i].size && s->m[i].offset < (line + 1) * s->cl &&
			    s->m[i].offset + s->m[i].size > line * s->cl)
				draw_box(sb, s, &s->m[i], line, y, bw, p);
		if (pl)
			svg_text(sb, LABEL_W + s->cl * bw + 8, y + BOX_H / 2 + 4, "start",
				 pl->nr_conflicts ? "bold" : NULL, "HITM %" PRIu64 "%s", pl->hitm,
				 pl->nr_conflicts ? " (conflict)" : "");
	}
	svg_end(sb);
	strbuf_release(&label);
}

static const struct table_column_spec member_columns[] = {
	{ .header = "Field", .align = TABLE_LEFT },
	{ .header = "Offset" },
	{ .header = "Size" },
	{ .header = "Line" },
	{ .group = "HITM", .header = "Lcl" },
	{ .group = "HITM", .header = "Rmt" },
	{ .header = "Loads" },
	{ .header = "Stores" },
	{ .header = "Writer cpus", .align = TABLE_LEFT },
	{ .header = "Reader cpus", .align = TABLE_LEFT },
	{ .header = "Writers", .align = TABLE_LEFT },
	{ .header = "Readers", .align = TABLE_LEFT },
	{ .header = "Finding", .align = TABLE_LEFT },
};

static void member_table(struct strbuf *sb, const struct strip *s, const struct struct_profile *p)
{
	struct table *t = table_new();
	struct strbuf w = STRBUF_INIT, r = STRBUF_INIT;
	uint32_t i;

	table_add_columns(t, member_columns, ARRAY_SIZE(member_columns));
	for (i = 0; i < s->nr; i++) {
		const struct strip_member *m = &s->m[i];
		const struct field_profile *f = m->f;

		if (!f || (!f->loads && !f->stores))
			continue;
		strbuf_reset(&w);
		strbuf_reset(&r);
		format_mask(&w, p, f->writers);
		format_mask(&r, p, f->readers);
		table_add_row(t);
		table_set(t, 0, "%s", m->name);
		table_set(t, 1, "%" PRIu64, m->offset);
		table_set(t, 2, "%" PRIu64, m->size);
		table_set(t, 3, "%" PRIu64, m->offset / s->cl);
		table_set(t, 4, "%" PRIu64, f->hitm_local);
		table_set(t, 5, "%" PRIu64, f->hitm_remote);
		table_set(t, 6, "%" PRIu64, f->loads);
		table_set(t, 7, "%" PRIu64, f->stores);
		table_set(t, 8, "%s", w.buf);
		table_set(t, 9, "%s", r.buf);
		table_set(t, 10, "%s", f->writer_funcs ? f->writer_funcs : "");
		table_set(t, 11, "%s", f->reader_funcs ? f->reader_funcs : "");
		table_set(t, 12, "%s%s%s", m->false_sharing ? "false sharing" : "",
			  m->false_sharing && m->true_sharing ? ", " : "",
			  m->true_sharing ? "true sharing" : "");
	}
	if (table_nr_rows(t))
		html_table(sb, t, true);
	table_free(t);
	strbuf_release(&w);
	strbuf_release(&r);
}

/*
 * The proposal's members: the same boxes at their new offsets, hatched
 * for false sharing where the proposer still counts a conflict on the
 * line; true sharing stays (no layout removes it).
 */
static struct strip_member *moved_members(const struct strip *before, const struct strip *after,
					  const struct proposal *pp)
{
	struct strip_member *v = xcalloc(before->nr ? before->nr : 1, sizeof(*v));
	uint32_t i;

	for (i = 0; i < before->nr; i++) {
		const struct proposal_line *pl;

		v[i] = before->m[i];
		v[i].offset = pp->offsets[i];
		pl = line_prediction(after, v[i].offset / after->cl);
		v[i].false_sharing = pl && pl->nr_conflicts && v[i].f &&
				     (v[i].f->loads || v[i].f->stores);
	}
	return v;
}

static void proposal_summary(struct strbuf *sb, const struct proposal *pp)
{
	uint32_t i;

	strbuf_addstr(sb, "<p class=\"note\">");
	html_escapef(sb,
		     "option '%s': size %" PRIu64 " -> %" PRIu64 " bytes, cache lines %u -> %u, "
		     "predicted HITMs %" PRIu64 " -> %" PRIu64 ", conflicting field pairs %" PRIu64
		     " -> %" PRIu64,
		     pp->title, pp->old_size, pp->new_size, pp->old_lines, pp->new_lines,
		     pp->hitm_before, pp->hitm_after, pp->conflicts_before, pp->conflicts_after);
	for (i = 0; i < pp->nr_moves; i++)
		html_escapef(sb, "%s%s %s: offset %" PRIu64 " -> %" PRIu64, i ? "; " : ". ",
			     pp->kind == PROPOSAL_ISOLATE ? "isolate" : "move", pp->moves[i].name,
			     pp->moves[i].old_offset, pp->moves[i].new_offset);
	if (pp->note)
		html_escapef(sb, ". %s", pp->note);
	strbuf_addstr(sb, "</p>\n");
}

static void strip_note(struct strbuf *out, uint64_t max_hitm)
{
	strbuf_addstr(out,
		      "<p class=\"note\">Boxes are members, as wide as their bytes, coloured "
		      "by the HITMs measured on them (the same colours on both sides); right "
		      "of each line, the HITMs the proposer counts on that line for the layout "
		      "now and predicts for the option.");
	if (!max_hitm)
		strbuf_addstr(out,
			      " This profile has no HITMs (a hotness file, or nothing shared): "
			      "boxes show each field's class, <span class=\"key whot\">write-hot"
			      "</span> or <span class=\"key rmostly\">read-mostly</span>.");
	strbuf_addstr(out, "</p>\n");
}

static uint64_t max_field_hitm(const struct struct_profile *p)
{
	uint64_t max = 0;
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++)
		if (field_hitm(&p->fields[i]) > max)
			max = field_hitm(&p->fields[i]);
	return max;
}

static void verdicts(struct strbuf *sb, const struct struct_profile *p,
		     const struct profile_findings *fs)
{
	struct strbuf v = STRBUF_INIT;

	layout_profile_verdicts(&v, p, fs);
	if (v.len) {
		strbuf_addstr(sb, "<pre class=\"note\">");
		html_escape(sb, v.buf);
		strbuf_addstr(sb, "</pre>\n");
	}
	strbuf_release(&v);
}

void suggest_html_section(struct strbuf *out, const struct type *t, const struct struct_profile *p,
			  const struct proposal *chosen, unsigned int cacheline_size)
{
	unsigned int cl = cacheline_size ? cacheline_size : 64;
	struct profile_findings fs;
	struct layout *l = NULL;
	struct strip before = { 0 }, after = { 0 };
	struct strbuf id = STRBUF_INIT;

	if (layout_analyze(t, cl, &l, NULL))
		return;
	layout_profile_find(&fs, t, p, cl);
	strbuf_addf(&id, "struct %s", p->struct_name);
	html_heading(out, 3, NULL, id.buf);
	strbuf_addstr(out, "<p class=\"note\">");
	html_escapef(out, "struct %s: %" PRIu64 " bytes; profile: %s", p->struct_name,
		     layout_summary(l)->size, p->origin ? p->origin : "-");
	strbuf_addstr(out, "</p>\n<div class=\"pair\">\n");
	before = (struct strip){ .title = "layout now",
				 .nr = layout_nr_members(l),
				 .size = layout_summary(l)->size,
				 .cl = cl,
				 .max_hitm = max_field_hitm(p) };
	before.m = strip_members(l, p, &fs);
	if (chosen) {
		before.lines = chosen->lines_before;
		before.nr_lines = chosen->nr_lines_before;
	}
	strbuf_addstr(out, "<div>\n");
	draw_strip(out, &before, p);
	strbuf_addstr(out, "</div>\n");
	if (chosen && chosen->offsets) {
		after = before;
		after.title = chosen->title;
		after.size = chosen->new_size;
		after.lines = chosen->lines_after;
		after.nr_lines = chosen->nr_lines_after;
		after.m = moved_members(&before, &after, chosen);
		strbuf_addstr(out, "<div>\n");
		draw_strip(out, &after, p);
		strbuf_addstr(out, "</div>\n");
	}
	strbuf_addstr(out, "</div>\n");
	strip_note(out, before.max_hitm);
	if (chosen)
		proposal_summary(out, chosen);
	verdicts(out, p, &fs);
	member_table(out, &before, p);
	free(before.m);
	free(after.m);
	strbuf_release(&id);
	layout_profile_findings_free(&fs);
	layout_free(l);
}

void suggest_html_page(struct strbuf *out, const struct type *t, const struct struct_profile *p,
		       const struct proposal *chosen, unsigned int cacheline_size)
{
	struct strbuf title = STRBUF_INIT;

	strbuf_addf(&title, "c2cscope %s: struct %s", chosen ? "suggest" : "layout",
		    p->struct_name);
	html_page_begin(out, title.buf);
	html_heading(out, 1, NULL, title.buf);
	html_heat_legend(out, max_field_hitm(p), "HITMs per member", true);
	suggest_html_section(out, t, p, chosen, cacheline_size);
	html_page_end(out);
	strbuf_release(&title);
}

int suggest_html_page_write(const char *path, const struct type *t, const struct struct_profile *p,
			    const struct proposal *chosen, unsigned int cacheline_size,
			    struct err_msg *err)
{
	struct strbuf page = STRBUF_INIT;
	int ret;

	suggest_html_page(&page, t, p, chosen, cacheline_size);
	ret = html_write_file(path, &page, err);
	strbuf_release(&page);
	return ret;
}

/* The struct types the hot lines' rows land in, first seen first. */
static size_t hot_structs(struct c2c_session *s, const struct c2c_line *const *lines, size_t nr,
			  const struct type **types, size_t max)
{
	size_t i, j, k, n = 0;

	for (i = 0; s->attrib && i < nr && n < max; i++) {
		for (j = 0; j < lines[i]->nr_rows && n < max; j++) {
			const struct c2c_row *r = lines[i]->rows[j];
			const struct attrib_result *res;

			if (!r->valid || !(res = c2c_attrib_row(s->attrib, r)->res) ||
			    !res->outer_type || !res->outer_name ||
			    type_strip(res->outer_type)->kind != TYPE_STRUCT)
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(types[k]->name ? types[k]->name : "", res->outer_name))
					break;
			if (k == n)
				types[n++] = c2c_attrib_find_type(s->attrib, res->outer_name);
			if (!types[n - 1])
				n--;
		}
	}
	return n;
}

void suggest_html_hot_structs(struct strbuf *sb, struct c2c_session *s,
			      const struct c2c_line *const *lines, size_t nr, size_t max)
{
	const struct type **types = xcalloc(max ? max : 1, sizeof(*types));
	size_t i, n = hot_structs(s, lines, nr, types, max);
	unsigned int cl = (unsigned int)s->model->line_size;

	html_heading(sb, 2, "structs", "Hot structs");
	if (!n)
		strbuf_addstr(sb, "<p class=\"note\">No row of the hot lines was attributed to a "
				  "struct (no DWARF for the code, or --no-attrib).</p>\n");
	else
		html_heat_legend(sb, 0, "HITMs per member (each struct its own scale)", true);
	for (i = 0; i < n; i++) {
		struct struct_profile *p = c2c_profile_from_session(s, s->attrib, types[i]);
		const struct propose_opts po = { .cacheline_size = cl };
		struct proposer *pr = NULL;

		if (suggest_propose(types[i], p, &po, &pr, NULL))
			pr = NULL;
		suggest_html_section(sb, types[i], p, pr ? proposer_choose(pr, NULL) : NULL, cl);
		proposer_free(pr);
		profile_free(p);
	}
	free(types);
}
