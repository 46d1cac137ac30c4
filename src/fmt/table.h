/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text tables for every command: columns with a one-line header and an
 * optional group title spanning neighbouring columns ("--- Load Hitm ---"),
 * widths from the widest cell, right- or left-aligned cells.
 */
#ifndef C2C_FMT_TABLE_H
#define C2C_FMT_TABLE_H

#include <stddef.h>

#include "util/strbuf.h"

enum table_align {
	TABLE_RIGHT,
	TABLE_LEFT,
};

struct table;

struct table *table_new(void);
void table_free(struct table *t);
/* group may be NULL; neighbours with the same group share one title. */
size_t table_add_column(struct table *t, const char *group, const char *header,
			enum table_align align);
/* A column of a fixed list, for table_add_columns(). */
struct table_column_spec {
	const char *group; /* NULL: none */
	const char *header;
	enum table_align align; /* left out: TABLE_RIGHT */
};

/* table_add_column() for each of spec[0..nr), in order. */
void table_add_columns(struct table *t, const struct table_column_spec *spec, size_t nr);
/* Column from (with its cells) becomes column to; those between shift by one. */
void table_move_column(struct table *t, size_t from, size_t to);
/* Start a new row; cells not set stay empty. */
void table_add_row(struct table *t);
void table_set(struct table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
size_t table_nr_rows(const struct table *t);
/* What other renderers (fmt/html) read: columns, and cells ("" when empty). */
size_t table_nr_columns(const struct table *t);
const char *table_column_header(const struct table *t, size_t col);
const char *table_column_group(const struct table *t, size_t col); /* NULL: none */
enum table_align table_column_align(const struct table *t, size_t col);
const char *table_cell(const struct table *t, size_t row, size_t col);
/* Append the table (headers, a rule, rows) to out, each line after indent. */
void table_render(const struct table *t, struct strbuf *out, const char *indent);
/* Width of the rendered lines (without indent), for rules around tables. */
size_t table_width(const struct table *t);

#endif
