// SPDX-License-Identifier: GPL-2.0
#include "fmt/table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct table_column {
	char *group, *header;
	enum table_align align;
	size_t width;
};

struct table {
	struct table_column *cols;
	size_t nr_cols, alloc_cols;
	char **cells; /* nr_rows * nr_cols, row-major; NULL = empty */
	size_t nr_rows, alloc_cells;
};

struct table *table_new(void)
{
	return xcalloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_rows * t->nr_cols; i++)
		free(t->cells[i]);
	for (i = 0; i < t->nr_cols; i++) {
		free(t->cols[i].group);
		free(t->cols[i].header);
	}
	free(t->cells);
	free(t->cols);
	free(t);
}

size_t table_add_column(struct table *t, const char *group, const char *header,
			enum table_align align)
{
	struct table_column *c;

	t->cols = xgrow(t->cols, &t->alloc_cols, t->nr_cols + 1, sizeof(*t->cols));
	c = &t->cols[t->nr_cols];
	c->group = group ? xstrdup(group) : NULL;
	c->header = xstrdup(header ? header : "");
	c->align = align;
	c->width = strlen(c->header);
	return t->nr_cols++;
}

void table_add_columns(struct table *t, const struct table_column_spec *spec, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		table_add_column(t, spec[i].group, spec[i].header, spec[i].align);
}

/* The element of size bytes at index from goes to index to; those between shift. */
static void move_item(void *base, size_t size, size_t from, size_t to)
{
	unsigned char tmp[sizeof(struct table_column)];
	unsigned char *b = base;

	memcpy(tmp, b + from * size, size);
	if (from < to)
		memmove(b + from * size, b + (from + 1) * size, (to - from) * size);
	else
		memmove(b + (to + 1) * size, b + to * size, (from - to) * size);
	memcpy(b + to * size, tmp, size);
}

void table_move_column(struct table *t, size_t from, size_t to)
{
	size_t r;

	if (from >= t->nr_cols || to >= t->nr_cols || from == to)
		return;
	move_item(t->cols, sizeof(*t->cols), from, to);
	for (r = 0; r < t->nr_rows; r++)
		move_item(t->cells + r * t->nr_cols, sizeof(char *), from, to);
}

void table_add_row(struct table *t)
{
	size_t need = (t->nr_rows + 1) * t->nr_cols;

	t->cells = xgrow(t->cells, &t->alloc_cells, need, sizeof(char *));
	memset(t->cells + t->nr_rows * t->nr_cols, 0, t->nr_cols * sizeof(char *));
	t->nr_rows++;
}

void table_set(struct table *t, size_t col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char **cell;
	va_list ap;

	if (!t->nr_rows || col >= t->nr_cols)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	cell = &t->cells[(t->nr_rows - 1) * t->nr_cols + col];
	free(*cell);
	if (sb.len > t->cols[col].width)
		t->cols[col].width = sb.len;
	*cell = strbuf_detach(&sb, NULL);
}

size_t table_nr_rows(const struct table *t)
{
	return t->nr_rows;
}

size_t table_nr_columns(const struct table *t)
{
	return t->nr_cols;
}

const char *table_column_header(const struct table *t, size_t col)
{
	return t->cols[col].header;
}

const char *table_column_group(const struct table *t, size_t col)
{
	return t->cols[col].group;
}

enum table_align table_column_align(const struct table *t, size_t col)
{
	return t->cols[col].align;
}

const char *table_cell(const struct table *t, size_t row, size_t col)
{
	const char *c = t->cells[row * t->nr_cols + col];

	return c ? c : "";
}

/* Width of the run of columns [first, end) sharing a group, with gaps. */
static size_t span_width(const struct table *t, size_t first, size_t end)
{
	size_t i, w = 0;

	for (i = first; i < end; i++)
		w += t->cols[i].width + (i > first ? 2 : 0);
	return w;
}

static size_t group_end(const struct table *t, size_t first)
{
	size_t end = first + 1;
	const char *g = t->cols[first].group;

	while (end < t->nr_cols && g && t->cols[end].group && !strcmp(g, t->cols[end].group))
		end++;
	return end;
}

/* Groups wider than their columns widen the last column of the run. */
static void fit_groups(struct table *t)
{
	size_t i = 0;

	while (i < t->nr_cols) {
		size_t end = group_end(t, i), need;

		need = t->cols[i].group ? strlen(t->cols[i].group) + 6 : 0;
		if (need > span_width(t, i, end))
			t->cols[end - 1].width += need - span_width(t, i, end);
		i = end;
	}
}

static void add_cell(struct strbuf *out, const char *s, size_t width, enum table_align align)
{
	size_t len = strlen(s);

	if (align == TABLE_RIGHT && len < width)
		strbuf_addchars(out, ' ', width - len);
	strbuf_addstr(out, s);
	if (align == TABLE_LEFT && len < width)
		strbuf_addchars(out, ' ', width - len);
}

static void render_groups(const struct table *t, struct strbuf *out, const char *indent)
{
	size_t i = 0, start = out->len;
	bool any = false;

	strbuf_addstr(out, indent);
	while (i < t->nr_cols) {
		size_t end = group_end(t, i), w = span_width(t, i, end);

		if (i)
			strbuf_addstr(out, "  ");
		if (t->cols[i].group) {
			size_t len = strlen(t->cols[i].group), left = (w - len - 2) / 2;

			any = true;
			strbuf_addchars(out, '-', left);
			strbuf_addf(out, " %s ", t->cols[i].group);
			strbuf_addchars(out, '-', w - len - 2 - left);
		} else {
			strbuf_addchars(out, ' ', w);
		}
		i = end;
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	if (!any)
		strbuf_setlen(out, start);
	else
		strbuf_addch(out, '\n');
}

static void render_line(const struct table *t, struct strbuf *out, const char *indent,
			char *const *cells, bool header)
{
	size_t i, start = out->len;

	strbuf_addstr(out, indent);
	for (i = 0; i < t->nr_cols; i++) {
		const char *s = header ? t->cols[i].header : cells[i] ? cells[i] : "";

		if (i)
			strbuf_addstr(out, "  ");
		add_cell(out, s, t->cols[i].width, t->cols[i].align);
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

size_t table_width(const struct table *t)
{
	return t->nr_cols ? span_width(t, 0, t->nr_cols) : 0;
}

void table_render(const struct table *t, struct strbuf *out, const char *indent)
{
	struct table *mut = (struct table *)t; /* widths only */
	size_t r;

	fit_groups(mut);
	render_groups(t, out, indent);
	render_line(t, out, indent, NULL, true);
	strbuf_addstr(out, indent);
	strbuf_addchars(out, '=', table_width(t));
	strbuf_addch(out, '\n');
	for (r = 0; r < t->nr_rows; r++)
		render_line(t, out, indent, t->cells + r * t->nr_cols, false);
}
