// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's screens as rows of text (tui_view.h). Every number and word
 * comes from the engine's own renderers: the report's tables
 * (c2c_view_lines_table, c2c_view_pareto_table), layout --profile
 * (layout_profile_print), suggest (propose_format_text) and report
 * --by-type (c2c_bytype_render), so the TUI shows what --stdio prints.
 */
#include "tui/tui_view.h"

#include <inttypes.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_bytype.h"
#include "c2c/c2c_view.h"
#include "layout/layout.h"
#include "suggest/suggest.h"
#include "fmt/table.h"
#include "placement/placement.h"
#include "util/xalloc.h"

static const char lines_keys[] =
	"Enter/d detail  l layout  T types  S tasks  W stores  t/r/L/p sort  / search  n next  ? help  q quit";
static const char detail_keys[] =
	"a annotate  l layout  s suggest  / search  n next  ? help  q back";
static const char text_keys[] = "arrows/PgUp/PgDn move  / search  n next  ? help  q back";
static const char layout_keys[] = "s suggest  / search  n next  ? help  q back";
static const char suggest_keys[] =
	"p patch (reorder)  P patch (isolate)  / search  n next  ? help  q back";
static const char types_keys[] = "l layout  s suggest  / search  n next  ? help  q back";
static const char stores_keys[] =
	"Enter/d detail  l layout  s suggest  / search  n next  ? help  q back";
static const char placement_keys[] =
	"Enter/d the thread's hottest line  / search  n next  ? help  q back";

static void free_rows(struct tui_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(rows[i].text);
	free(rows);
}

void tui_view_free(struct tui_view *v)
{
	free_rows(v->header, v->nr_header);
	free_rows(v->rows, v->nr_rows);
	free(v->title);
	free(v->summary);
	memset(v, 0, sizeof(*v));
}

static struct tui_row *new_row(struct tui_view *v, bool header)
{
	struct tui_row *r;

	if (header) {
		v->header = xrealloc(v->header, (v->nr_header + 1) * sizeof(*v->header));
		r = &v->header[v->nr_header++];
	} else {
		v->rows = xgrow(v->rows, &v->alloc_rows, v->nr_rows + 1, sizeof(*v->rows));
		r = &v->rows[v->nr_rows++];
	}
	*r = (struct tui_row){ .style = header ? TUI_STYLE_HEADER : TUI_STYLE_PLAIN };
	return r;
}

struct tui_row *tui_view_add_row(struct tui_view *v, enum tui_style style, const char *fmt, ...)
{
	struct tui_row *r = new_row(v, false);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->text = strbuf_detach(&sb, NULL);
	r->style = style;
	return r;
}

void tui_view_add_text(struct tui_view *v, const char *text, size_t nr_header)
{
	const char *p = text;
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		struct tui_row *r = new_row(v, n++ < nr_header);

		r->text = xstrndup(p, len);
		p += len + (p[len] == '\n');
	}
}

static void set_title(struct tui_view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_title(struct tui_view *v, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(v->title);
	v->title = strbuf_detach(&sb, NULL);
}

/* A table as header rows and one row per table row; returns the first row's index. */
static size_t add_table(struct tui_view *v, struct table *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first = v->nr_rows, lines = 0, i;

	table_render(t, &sb, " ");
	for (i = 0; i < sb.len; i++)
		lines += sb.buf[i] == '\n';
	tui_view_add_text(v, sb.buf, lines - table_nr_rows(t));
	strbuf_release(&sb);
	table_free(t);
	return first;
}

void tui_title_bar(struct c2c_session *s, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "c2cscope report  %s  %" PRIu64 " samples  ", s->opts.path, s->nr_samples);
	for (i = 0; i < s->nr_events; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", s->event_names[i]);
	strbuf_addf(out, "  sort: %s", c2c_display_name(s->model->opts.display));
}

void tui_view_lines(struct tui_view *v, struct c2c_session *s)
{
	const struct c2c_model *m = s->model;
	size_t first, i, n = 0;

	memset(v, 0, sizeof(*v));
	v->screen = TUI_SCREEN_LINES;
	v->keys = lines_keys;
	set_title(v, "Shared Data Cache Line Table (%zu of %zu lines)", m->nr_displayed,
		  m->nr_lines);
	first = add_table(v, c2c_view_lines_table(s));
	for (i = 0; i < m->nr_lines; i++)
		if (m->lines[i]->displayed)
			v->rows[first + n++].ref = m->lines[i];
}

void tui_view_detail(struct tui_view *v, struct c2c_session *s, const struct c2c_line *l)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first, i, n = 0;

	memset(v, 0, sizeof(*v));
	v->screen = TUI_SCREEN_DETAIL;
	v->keys = detail_keys;
	v->line = l;
	c2c_view_line_title(s->model, l, &sb);
	v->title = strbuf_detach(&sb, NULL);
	c2c_view_line_access(s, l, &sb);
	v->summary = strbuf_detach(&sb, NULL);
	first = add_table(v, c2c_view_pareto_table(s, l, true));
	for (i = 0; i < l->nr_rows; i++)
		if (l->rows[i]->valid) {
			v->rows[first + n].ref = l->rows[i];
			v->rows[first + n++].type = tui_row_struct(s, l->rows[i]);
		}
}

const struct type *tui_row_struct(struct c2c_session *s, const struct c2c_row *r)
{
	const struct c2c_row_attrib *ra = c2c_attrib_row(s->attrib, r);

	return ra->res ? ra->res->outer_type : NULL;
}

const struct type *tui_line_struct(struct c2c_session *s, const struct c2c_line *l)
{
	const struct type *best = NULL, *t;
	uint32_t best_metric = 0;
	size_t i;

	for (i = 0; i < l->nr_rows; i++) {
		uint32_t metric = l->rows[i]->g.stats.tot_hitm + l->rows[i]->g.stats.tot_peer + 1;

		t = tui_row_struct(s, l->rows[i]);
		if (t && metric > best_metric) {
			best = t;
			best_metric = metric;
		}
	}
	return best;
}

int tui_view_types(struct tui_view *v, struct c2c_session *s, const char *glob, struct err_msg *err)
{
	struct c2c_bytype *bt = s->attrib ? c2c_bytype_build(s, s->attrib) : NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n, lines = 0;

	memset(v, 0, sizeof(*v));
	n = bt && glob ? c2c_bytype_filter(bt, glob) : bt ? c2c_bytype_nr_rows(bt) : 0;
	if (!n) {
		c2c_bytype_free(bt);
		if (glob)
			return err_set(
				err, ENOENT,
				"%s: no sample was attributed to a struct type matching '%s'",
				s->opts.path, glob);
		return err_set(err, ENOENT, "%s: no sample was attributed to a struct field",
			       s->opts.path);
	}
	v->screen = TUI_SCREEN_TYPES;
	v->keys = types_keys;
	set_title(v, "Shared data by struct type");
	c2c_bytype_render(bt, &sb);
	for (i = 0; i < sb.len; i++)
		lines += sb.buf[i] == '\n';
	/* the section title (3 lines) is the screen's title */
	tui_view_add_text(v, strchr(strchr(strchr(sb.buf, '\n') + 1, '\n') + 1, '\n') + 1,
			  lines - 3 - n);
	for (i = 0; i < n && i < v->nr_rows; i++)
		v->rows[i].type = c2c_attrib_find_type(s->attrib, c2c_bytype_row_type(bt, i));
	strbuf_release(&sb);
	c2c_bytype_free(bt);
	return 0;
}

enum tui_style tui_heat_style(const char *text)
{
	const char *h;

	if (strstr(text, "<- false sharing") || !strncmp(text, "false sharing", 13))
		return TUI_STYLE_FALSE_SHARING;
	if (strstr(text, "<- true sharing") || !strncmp(text, "true sharing", 12))
		return TUI_STYLE_TRUE_SHARING;
	h = strstr(text, "*/ hitm ");
	if (h && strncmp(h + 8, "0/0 ", 4))
		return TUI_STYLE_HOT;
	if (strstr(text, "[write-hot") || strstr(text, "(write-hot)"))
		return TUI_STYLE_HOT;
	if (!strncmp(text, "option ", 7) || !strncmp(text, "struct ", 7))
		return TUI_STYLE_HEADER;
	if (!strncmp(text, "  move ", 7) || !strncmp(text, "  isolate ", 10))
		return TUI_STYLE_MARK;
	return TUI_STYLE_PLAIN;
}

static void add_styled_text(struct tui_view *v, const char *text)
{
	size_t i, first = v->nr_rows;

	tui_view_add_text(v, text, 0);
	for (i = first; i < v->nr_rows; i++)
		v->rows[i].style = tui_heat_style(v->rows[i].text);
}

static const char *type_name(const struct type *t)
{
	return type_aggregate_name(t) ? type_aggregate_name(t) : "(anonymous)";
}

/* A screen of engine text about struct t, each line styled by its heat. */
static void struct_screen(struct tui_view *v, enum tui_screen screen, const char *keys,
			  const struct type *t, const char *what, const char *text)
{
	v->screen = screen;
	v->keys = keys;
	v->type = t;
	set_title(v, "struct %s: %s", type_name(t), what);
	add_styled_text(v, text);
}

void tui_view_layout(struct tui_view *v, struct c2c_session *s, const struct type *t)
{
	struct struct_profile *p = c2c_profile_from_session(s, s->attrib, t);
	struct strbuf sb = STRBUF_INIT;

	memset(v, 0, sizeof(*v));
	layout_profile_print(&sb, t, p, NULL);
	struct_screen(v, TUI_SCREEN_LAYOUT, layout_keys, t,
		      "layout with each member's heat (layout --profile)", sb.buf);
	strbuf_release(&sb);
	profile_free(p);
}

int tui_view_suggest(struct tui_view *v, struct c2c_session *s, const struct type *t,
		     struct err_msg *err)
{
	struct struct_profile *p = c2c_profile_from_session(s, s->attrib, t);
	struct propose_opts opts = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct proposer *pr = NULL;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = suggest_propose(t, p, &opts, &pr, err);
	if (!ret) {
		propose_format_text(&sb, t, p, pr);
		struct_screen(v, TUI_SCREEN_SUGGEST, suggest_keys, t,
			      "suggested layouts (suggest --profile)", sb.buf);
	}
	strbuf_release(&sb);
	proposer_free(pr);
	profile_free(p);
	return ret;
}

static enum tui_style diff_style(const char *text)
{
	if (!strncmp(text, "+++ ", 4) || !strncmp(text, "--- ", 4) || !strncmp(text, "@@", 2))
		return TUI_STYLE_HEADER;
	if (*text == '+')
		return TUI_STYLE_MARK;
	if (*text == '-' && strcmp(text, "---"))
		return TUI_STYLE_FALSE_SHARING;
	return TUI_STYLE_PLAIN;
}

/* The patch screen: suggest --patch's messages dimmed, then its stdout. */
static void patch_rows(struct tui_view *v, const struct type *t, const struct suggest_patch *sp)
{
	struct strbuf before = STRBUF_INIT, out = STRBUF_INIT, after = STRBUF_INIT;
	size_t i, first;

	suggest_patch_format(sp, t, type_name(t), &before, &out, &after);
	tui_view_add_text(v, before.buf, 0);
	tui_view_add_text(v, after.buf, 0);
	for (i = 0; i < v->nr_rows; i++)
		v->rows[i].style = TUI_STYLE_DIM;
	first = v->nr_rows;
	tui_view_add_text(v, out.buf, 0);
	for (i = first; i < v->nr_rows; i++)
		v->rows[i].style = diff_style(v->rows[i].text);
	strbuf_release(&before);
	strbuf_release(&out);
	strbuf_release(&after);
}

int tui_view_patch(struct tui_view *v, struct c2c_session *s, const struct type *t, bool isolate,
		   const char *source_dir, struct err_msg *err)
{
	struct struct_profile *p = c2c_profile_from_session(s, s->attrib, t);
	struct propose_opts opts = { 0 };
	struct suggest_patch_req req = {
		.t = t,
		.prof = p,
		.opts = &opts,
		.source_dir = source_dir,
		.choose = isolate ? "isolate" : "reorder",
	};
	struct suggest_patch sp = { 0 };
	struct proposer *pr = NULL;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = suggest_propose(t, p, &opts, &pr, err);
	if (!ret) {
		req.pr = pr;
		req.cacheline_size = proposer_cacheline_size(pr);
		ret = suggest_patch_make(&req, &sp, err);
	}
	if (!ret) {
		v->screen = TUI_SCREEN_PATCH;
		v->keys = text_keys;
		v->type = t;
		set_title(v, "struct %s: patch of option '%s' (suggest --patch%s)", type_name(t),
			  sp.chosen->title, isolate ? " --choose isolate" : "");
		patch_rows(v, t, &sp);
	}
	suggest_patch_release(&sp);
	proposer_free(pr);
	profile_free(p);
	return ret;
}

/* The displayed line at address addr, or NULL. */
static const struct c2c_line *line_at(const struct c2c_model *m, uint64_t addr)
{
	size_t i;

	for (i = 0; i < m->nr_lines; i++)
		if (m->lines[i]->displayed && m->lines[i]->addr == addr)
			return m->lines[i];
	return NULL;
}

/* One thread's row: hot when a line it touched has HITMs; ref its hottest line. */
static void placement_row(struct tui_view *v, struct c2c_session *s,
			  const struct task_placement *tp, size_t i)
{
	const struct task_placement_thread *pt = task_placement_thread(tp, i);
	struct strbuf sb = STRBUF_INIT;
	struct tui_row *r;

	task_placement_format_thread(tp, i, &sb);
	strbuf_setlen(&sb, sb.len - 1); /* the newline */
	r = tui_view_add_row(v,
			     pt->nr_lines && pt->lines[0].hitms ? TUI_STYLE_HOT : TUI_STYLE_PLAIN,
			     "%s", sb.buf);
	r->ref = pt->nr_lines ? line_at(s->model, pt->lines[0].line) : NULL;
	strbuf_release(&sb);
}

int tui_view_placement(struct tui_view *v, struct c2c_session *s, struct err_msg *err)
{
	struct task_placement *tp = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	memset(v, 0, sizeof(*v));
	if (!strcmp(s->opts.path, "-"))
		return err_set(err, ESPIPE, "no Task placement: a pipe is read once");
	ret = task_placement_load(s->opts.path, (unsigned int)s->model->line_size,
				  s->model->opts.rules, &tp, err);
	if (ret < 0)
		return ret;
	if (!tp)
		return err_set(err, ENOENT,
			       "%s: no sched_switch or sched_migrate_task samples "
			       "(record with --sched)",
			       s->opts.path);
	v->screen = TUI_SCREEN_PLACEMENT;
	v->keys = placement_keys;
	set_title(v, "Task placement (where each thread ran, as report --stdio ends)");
	task_placement_format_summary(tp, &sb);
	strbuf_setlen(&sb, sb.len - 1);
	v->summary = strbuf_detach(&sb, NULL);
	task_placement_format_columns(&sb);
	tui_view_add_text(v, sb.buf, 1);
	strbuf_release(&sb);
	for (i = 0; i < task_placement_nr_threads(tp); i++)
		placement_row(v, s, tp, i);
	task_placement_free(tp);
	return 0;
}

int tui_view_stores(struct tui_view *v, struct c2c_session *s, struct err_msg *err)
{
	struct c2c_store_line *sl;
	size_t n = c2c_store_contention(s, &sl), first, i;

	memset(v, 0, sizeof(*v));
	if (!n) {
		free(sl);
		return err_set(err, ENOENT,
			       "no Store Contention: no line that several cpus write has "
			       "stores missing L1 without any HITM%s",
			       s->model->opts.show_all ? "" :
							 " (at 0.1% of the misses; --show-all)");
	}
	v->screen = TUI_SCREEN_STORES;
	v->keys = stores_keys;
	set_title(v, "Store Contention (c2cscope): %zu line%s", n, n == 1 ? "" : "s");
	v->summary = xstrdup("stores take these lines from each other (RFO ping-pong) while no "
			     "load sees a HITM, so perf's tables leave them out");
	first = add_table(v, c2c_view_store_table(s, sl, n));
	for (i = 0; i < n; i++)
		v->rows[first + i].ref = sl[i].line;
	free(sl);
	return 0;
}

void tui_view_help(struct tui_view *v)
{
	static const char help[] =
		"Keys, on every screen\n"
		"  Up/Down, j/k      move one row\n"
		"  PgUp/PgDn, Space  move one page\n"
		"  Home/End, g/G     first/last row\n"
		"  /                 search the rows (symbol, field, address, any text)\n"
		"  n                 find the next match\n"
		"  Ctrl-L            redraw the screen\n"
		"  ?, h              this help\n"
		"  q, Esc            back to the previous screen (quit on the line table)\n"
		"\n"
		"Line table\n"
		"  Enter, d          the line's Pareto rows and who writes and reads it\n"
		"  l                 the layout of the line's hottest struct\n"
		"  T                 shared data by struct type (report --by-type)\n"
		"  S                 task placement: where each thread ran (record --sched)\n"
		"  W                 store contention: lines several cpus write, no HITM\n"
		"  t, r, L, p        sort by total, remote, local HITMs or peer loads (-d)\n"
		"\n"
		"Line detail\n"
		"  a                 annotate the row: source and disassembly\n"
		"  l                 layout of the row's struct with heat (layout --profile)\n"
		"  s                 suggested layouts of that struct (suggest --profile)\n"
		"\n"
		"Layout and types\n"
		"  s                 suggested layouts of the struct\n"
		"  l                 (types) the layout of the row's struct\n"
		"\n"
		"Suggest\n"
		"  p, P              the patch of the struct's source for the reorder or the\n"
		"                    isolate option (suggest --patch [--choose isolate])\n"
		"\n"
		"Task placement\n"
		"  Enter, d          the detail of the line the thread touched most\n";

	memset(v, 0, sizeof(*v));
	v->screen = TUI_SCREEN_HELP;
	v->keys = text_keys;
	set_title(v, "Help");
	tui_view_add_text(v, help, 0);
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return !n;
}

size_t tui_view_find(const struct tui_view *v, size_t from, bool inclusive, const char *needle)
{
	size_t i, r;

	if (!v->nr_rows || !*needle)
		return SIZE_MAX;
	for (i = inclusive ? 0 : 1; i <= v->nr_rows; i++) {
		r = (from + i) % v->nr_rows;
		if (contains_nocase(v->rows[r].text, needle))
			return r;
	}
	return SIZE_MAX;
}

void tui_view_select(struct tui_view *v, size_t row, size_t height)
{
	if (!v->nr_rows)
		return;
	v->cursor = row < v->nr_rows ? row : v->nr_rows - 1;
	if (!height)
		height = 1;
	if (v->cursor < v->top)
		v->top = v->cursor;
	else if (v->cursor >= v->top + height)
		v->top = v->cursor - height + 1;
	if (v->top + height > v->nr_rows)
		v->top = v->nr_rows > height ? v->nr_rows - height : 0;
}

void tui_view_move(struct tui_view *v, long delta, size_t height)
{
	long c = (long)v->cursor + delta;

	if (c < 0)
		c = 0;
	tui_view_select(v, (size_t)c, height);
}
