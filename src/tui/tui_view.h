/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TUI's view models: each screen as rows of text with a style and the
 * model object behind the row, built from what the engine already renders
 * (the report's tables, layout --profile, suggest, report --by-type, the
 * annotation of a row). Pure data: no terminal, no ncurses; tui.c draws
 * them and the unit tests read them.
 */
#ifndef C2C_TUI_TUI_VIEW_H
#define C2C_TUI_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "c2c/c2c_session.h"
#include "util/err.h"

enum tui_style {
	TUI_STYLE_PLAIN,
	TUI_STYLE_HEADER, /* column headers, section titles */
	TUI_STYLE_HOT, /* a member or line with HITMs */
	TUI_STYLE_FALSE_SHARING,
	TUI_STYLE_TRUE_SHARING,
	TUI_STYLE_MARK, /* the sampled instruction, a move of a proposal */
	TUI_STYLE_DIM, /* notes, unreadable sources */
	TUI_NR_STYLES,
};

enum tui_screen {
	TUI_SCREEN_LINES, /* the Shared Data Cache Line Table */
	TUI_SCREEN_DETAIL, /* one line's Pareto rows */
	TUI_SCREEN_ANNOTATE, /* a row's source and disassembly */
	TUI_SCREEN_LAYOUT, /* layout --profile of a struct */
	TUI_SCREEN_SUGGEST, /* suggest's options for a struct */
	TUI_SCREEN_PATCH, /* suggest --patch */
	TUI_SCREEN_TYPES, /* report --by-type */
	TUI_SCREEN_PLACEMENT, /* report's Task placement of a --sched recording */
	TUI_SCREEN_STORES, /* report's Store Contention (c2cscope) */
	TUI_SCREEN_HELP,
};

struct tui_row {
	char *text;
	enum tui_style style;
	/* What the row shows: a struct c2c_line (lines), a struct c2c_row (detail). */
	const void *ref;
	/* A struct type (by-type rows, layout and suggest subjects), or NULL. */
	const struct type *type;
};

struct tui_view {
	enum tui_screen screen;
	char *title; /* "Line 0 0x10c080", "struct config" */
	char *summary; /* a line under the title, or NULL */
	const char *keys; /* the footer's key help */
	struct tui_row *header; /* fixed rows above the scrolling ones */
	size_t nr_header;
	struct tui_row *rows;
	size_t nr_rows, alloc_rows;
	/* The subject: the line (detail), the row (annotate), the struct (layout, suggest). */
	const struct c2c_line *line;
	const struct c2c_row *row;
	const struct type *type;
	size_t cursor, top; /* selected row, first row shown */
	size_t left; /* first column shown (horizontal scroll) */
};

void tui_view_free(struct tui_view *v);

/* The screens. Each fills *v (zeroed first); the session must outlive it. */
void tui_view_lines(struct tui_view *v, struct c2c_session *s);
void tui_view_detail(struct tui_view *v, struct c2c_session *s, const struct c2c_line *l);
void tui_view_help(struct tui_view *v);
/*
 * report --by-type (only the types matching the fnmatch GLOB when not
 * NULL); -ENOENT when no row was attributed to such a type (err says so).
 */
int tui_view_types(struct tui_view *v, struct c2c_session *s, const char *glob,
		   struct err_msg *err);
/*
 * report's Task placement section of the session's file, a row per thread
 * (ref: the displayed line it touched most, or NULL); -ENOENT when the
 * file has no sched tracepoints, -ESPIPE for a pipe, or the loader's error.
 */
int tui_view_placement(struct tui_view *v, struct c2c_session *s, struct err_msg *err);
/*
 * report's Store Contention section, a row per line (ref: the line);
 * -ENOENT when no line has it (err says so).
 */
int tui_view_stores(struct tui_view *v, struct c2c_session *s, struct err_msg *err);
/* layout --profile of t with the session's profile. */
void tui_view_layout(struct tui_view *v, struct c2c_session *s, const struct type *t);
/* suggest --profile for t; -EINVAL when t cannot be re-laid (err says why). */
int tui_view_suggest(struct tui_view *v, struct c2c_session *s, const struct type *t,
		     struct err_msg *err);
/*
 * suggest --patch [--choose isolate] for t, the source looked up under
 * source_dir (NULL: the current directory); fails as suggest --patch does
 * (err says why: the source not found, not parsed).
 */
int tui_view_patch(struct tui_view *v, struct c2c_session *s, const struct type *t, bool isolate,
		   const char *source_dir, struct err_msg *err);
/*
 * The annotation of row r: its source lines around the sampled one and the
 * disassembly of its function, the sampled instruction marked.
 */
void tui_view_annotate(struct tui_view *v, struct c2c_session *s, const struct c2c_row *r,
		       const char *source_dir);

/* The struct a row's field belongs to (its outermost object), or NULL. */
const struct type *tui_row_struct(struct c2c_session *s, const struct c2c_row *r);
/* The hottest struct of a line's rows, or NULL. */
const struct type *tui_line_struct(struct c2c_session *s, const struct c2c_line *l);

/* "c2cscope report  FILE  N samples  EVENT...  sort: Total HITMs" */
void tui_title_bar(struct c2c_session *s, struct strbuf *out);

/*
 * The next row from `from` (itself included when inclusive) whose text
 * holds needle, case-insensitively, wrapping around; SIZE_MAX when none.
 */
size_t tui_view_find(const struct tui_view *v, size_t from, bool inclusive, const char *needle);
/* Move the cursor by delta rows (clamped) and keep it inside a page of height rows. */
void tui_view_move(struct tui_view *v, long delta, size_t height);
/* Make row the cursor, scrolled into a page of height rows. */
void tui_view_select(struct tui_view *v, size_t row, size_t height);

/*
 * The style of one line of layout --profile or suggest text: false or true
 * sharing (its mark or verdict), hot (a member with HITMs or write-hot),
 * an option's title, a move, else plain.
 */
enum tui_style tui_heat_style(const char *text);

/* Append text's lines as rows (the first nr_header of them as header rows). */
void tui_view_add_text(struct tui_view *v, const char *text, size_t nr_header);
struct tui_row *tui_view_add_row(struct tui_view *v, enum tui_style style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
