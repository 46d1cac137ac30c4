// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's terminal side (tui.h): a stack of screens built by tui_view,
 * drawn with ncursesw, driven by keys. The terminal is restored on every
 * way out: quit, SIGINT, SIGTERM, SIGSEGV (and the other fatal signals),
 * exit().
 */
#include "config.h"
#include "tui/tui.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <time.h>
#include <unistd.h>

#include "c2c/c2c_model.h"
#include "tui/tui_view.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TUI_MAX_DEPTH 8
#define TUI_MIN_COLS 40
#define TUI_MIN_LINES 10
#define TUI_HSCROLL 8

struct tui {
	struct c2c_session *s;
	const struct tui_opts *opts;
	struct tui_view stack[TUI_MAX_DEPTH];
	int depth;
	bool color;
	char search[128];
	char msg[256];
	FILE *timing; /* C2CSCOPE_TUI_TIMING: microseconds per key, for bench/ */
};

static volatile sig_atomic_t curses_on;
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV,
				     SIGBUS, SIGABRT, SIGFPE, SIGILL };

static void restore_terminal(void)
{
	if (curses_on) {
		curses_on = 0;
		endwin();
	}
}

/* Put the terminal back, then die of the signal as if we never caught it. */
static void on_fatal_signal(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(bool on)
{
	size_t i;

	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		signal(fatal_signals[i], on ? on_fatal_signal : SIG_DFL);
}

bool tui_usable(char *why, size_t size)
{
	const char *term = getenv("TERM");
	int err = 0;

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		snprintf(why, size, "%s is not a terminal",
			 isatty(STDOUT_FILENO) ? "standard input" : "standard output");
		return false;
	}
	if (!term || !*term || !strcmp(term, "dumb")) {
		snprintf(why, size, "TERM is %s", term && *term ? "dumb" : "not set");
		return false;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, size, "terminfo does not know TERM=%s", term);
		return false;
	}
	del_curterm(cur_term);
	return true;
}

static const short style_colors[TUI_NR_STYLES][2] = {
	[TUI_STYLE_PLAIN] = { -1, -1 },
	[TUI_STYLE_HEADER] = { COLOR_CYAN, -1 },
	[TUI_STYLE_HOT] = { COLOR_YELLOW, -1 },
	[TUI_STYLE_FALSE_SHARING] = { COLOR_RED, -1 },
	[TUI_STYLE_TRUE_SHARING] = { COLOR_MAGENTA, -1 },
	[TUI_STYLE_MARK] = { COLOR_GREEN, -1 },
	[TUI_STYLE_DIM] = { COLOR_BLUE, -1 },
};

/* Monochrome: what each style looks like without colours. */
static const attr_t style_mono[TUI_NR_STYLES] = {
	[TUI_STYLE_PLAIN] = A_NORMAL,
	[TUI_STYLE_HEADER] = A_BOLD,
	[TUI_STYLE_HOT] = A_BOLD,
	[TUI_STYLE_FALSE_SHARING] = A_BOLD | A_UNDERLINE,
	[TUI_STYLE_TRUE_SHARING] = A_UNDERLINE,
	[TUI_STYLE_MARK] = A_BOLD,
	[TUI_STYLE_DIM] = A_DIM,
};

static attr_t style_attr(const struct tui *t, enum tui_style st)
{
	if (!t->color)
		return style_mono[st];
	return COLOR_PAIR(st + 1) | (st == TUI_STYLE_FALSE_SHARING ? A_BOLD : 0);
}

static void setup_colors(struct tui *t)
{
	const char *nc = getenv("NO_COLOR");
	int i;

	t->color = !t->opts->no_color && !(nc && *nc) && has_colors();
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	for (i = 0; i < TUI_NR_STYLES; i++)
		init_pair((short)(i + 1), style_colors[i][0], style_colors[i][1]);
}

/* One screen line: text from column left, cut at the screen's width. */
static void draw_text(int y, const char *text, size_t left, attr_t attr)
{
	size_t len = strlen(text);

	move(y, 0);
	clrtoeol();
	attrset(attr);
	if (left < len)
		addnstr(text + left, COLS);
	if (attr & A_REVERSE) /* a bar spans the whole width */
		for (int x = getcurx(stdscr); x < COLS && x >= 0; x++)
			addch(' ');
	attrset(A_NORMAL);
}

static struct tui_view *top(struct tui *t)
{
	return &t->stack[t->depth - 1];
}

/* Rows the body has: all but the title bar and title, summary, headers, footer, message. */
static size_t body_height(const struct tui_view *v)
{
	int h = LINES - 2 - (v->summary ? 1 : 0) - (int)v->nr_header - 2;

	return h > 1 ? (size_t)h : 1;
}

static void draw(struct tui *t)
{
	struct tui_view *v = top(t);
	struct strbuf sb = STRBUF_INIT;
	size_t i, h = body_height(v);
	int y = 0;

	erase();
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES) {
		mvprintw(0, 0, "terminal too small (%dx%d): c2cscope needs %dx%d", COLS, LINES,
			 TUI_MIN_COLS, TUI_MIN_LINES);
		refresh();
		return;
	}
	tui_title_bar(t->s, &sb);
	draw_text(y++, sb.buf, 0, A_REVERSE);
	strbuf_release(&sb);
	draw_text(y++, v->title ? v->title : "", 0, A_BOLD);
	if (v->summary)
		draw_text(y++, v->summary, 0, A_NORMAL);
	for (i = 0; i < v->nr_header; i++)
		draw_text(y++, v->header[i].text, v->left, style_attr(t, TUI_STYLE_HEADER));
	tui_view_select(v, v->cursor, h);
	for (i = v->top; i < v->nr_rows && i < v->top + h; i++) {
		attr_t a = style_attr(t, v->rows[i].style);

		draw_text(y++, v->rows[i].text, v->left, i == v->cursor ? a | A_REVERSE : a);
	}
	draw_text(LINES - 2, v->keys ? v->keys : "", 0, A_REVERSE);
	draw_text(LINES - 1, t->msg, 0, A_NORMAL);
	refresh();
}

static void push(struct tui *t, const struct tui_view *v)
{
	if (t->depth == TUI_MAX_DEPTH) { /* the oldest screen above the first goes */
		tui_view_free(&t->stack[1]);
		memmove(&t->stack[1], &t->stack[2], (TUI_MAX_DEPTH - 2) * sizeof(t->stack[0]));
		t->depth--;
	}
	t->stack[t->depth++] = *v;
}

static void pop(struct tui *t)
{
	tui_view_free(top(t));
	t->depth--;
}

static void say(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
}

/* Push the view a builder made (ret 0), or say why it made none after WHAT. */
static void push_or_say(struct tui *t, int ret, const struct tui_view *v, const char *what,
			const struct err_msg *err)
{
	if (ret)
		say(t, "%s%s", what, err->msg);
	else
		push(t, v);
}

static void open_layout(struct tui *t, const struct type *type)
{
	struct tui_view v;

	if (!type) {
		say(t, "no struct here: this row's field was not attributed to a struct");
		return;
	}
	tui_view_layout(&v, t->s, type);
	push(t, &v);
}

static void open_suggest(struct tui *t, const struct type *type)
{
	struct err_msg err = { 0 };
	struct tui_view v;

	if (!type) {
		say(t, "no struct here: this row's field was not attributed to a struct");
		return;
	}
	push_or_say(t, tui_view_suggest(&v, t->s, type, &err), &v, "suggest: ", &err);
}

static void open_patch(struct tui *t, bool isolate)
{
	struct err_msg err = { 0 };
	struct tui_view v;

	push_or_say(t, tui_view_patch(&v, t->s, top(t)->type, isolate, t->opts->source_dir, &err),
		    &v, "patch: ", &err);
}

static void open_types(struct tui *t)
{
	struct err_msg err = { 0 };
	struct tui_view v;

	push_or_say(t, tui_view_types(&v, t->s, t->opts->type_glob, &err), &v, "", &err);
}

static void open_placement(struct tui *t)
{
	struct err_msg err = { 0 };
	struct tui_view v;

	push_or_say(t, tui_view_placement(&v, t->s, &err), &v, "", &err);
}

static void open_stores(struct tui *t)
{
	struct err_msg err = { 0 };
	struct tui_view v;

	push_or_say(t, tui_view_stores(&v, t->s, &err), &v, "", &err);
}

static void resort(struct tui *t, enum c2c_display d)
{
	struct tui_view v;

	c2c_model_resort(t->s->model, d);
	tui_view_lines(&v, t->s);
	tui_view_free(&t->stack[0]);
	t->stack[0] = v;
	say(t, "sorted by %s", c2c_display_name(d));
}

/* The struct of the selected row: its own, or (line table) the line's hottest. */
static const struct type *selected_struct(struct tui *t)
{
	struct tui_view *v = top(t);
	const struct tui_row *r = v->nr_rows ? &v->rows[v->cursor] : NULL;

	if (v->type)
		return v->type;
	if (!r)
		return NULL;
	if (v->screen == TUI_SCREEN_LINES || v->screen == TUI_SCREEN_STORES)
		return r->ref ? tui_line_struct(t->s, r->ref) : NULL;
	if (r->type)
		return r->type;
	return v->line ? tui_line_struct(t->s, v->line) : NULL;
}

/* Keys that open a screen or act on the selected row; whether key was one. */
static bool screen_key(struct tui *t, int key)
{
	struct tui_view *v = top(t), nv;
	const struct tui_row *r = v->nr_rows ? &v->rows[v->cursor] : NULL;

	switch (key) {
	case '\n':
	case KEY_ENTER:
	case 'd':
		if (v->screen == TUI_SCREEN_PLACEMENT && r && !r->ref) {
			say(t, "none of this thread's lines is in the line table");
			return true;
		}
		if ((v->screen != TUI_SCREEN_LINES && v->screen != TUI_SCREEN_PLACEMENT &&
		     v->screen != TUI_SCREEN_STORES) ||
		    !r || !r->ref)
			return key == 'd' ? false : true;
		tui_view_detail(&nv, t->s, r->ref);
		push(t, &nv);
		return true;
	case 'a':
		if (v->screen != TUI_SCREEN_DETAIL || !r || !r->ref) {
			say(t, "a annotates a row of a line's detail (Enter on a line first)");
			return true;
		}
		tui_view_annotate(&nv, t->s, r->ref, t->opts->source_dir);
		push(t, &nv);
		return true;
	case 'l':
		open_layout(t, selected_struct(t));
		return true;
	case 's':
		open_suggest(t, selected_struct(t));
		return true;
	case 'T':
		open_types(t);
		return true;
	case 'S':
		open_placement(t);
		return true;
	case 'W':
		open_stores(t);
		return true;
	case 'p':
	case 'P':
		if (v->screen != TUI_SCREEN_SUGGEST)
			return false;
		open_patch(t, key == 'P');
		return true;
	case '?':
	case 'h':
		tui_view_help(&nv);
		push(t, &nv);
		return true;
	}
	return false;
}

static bool sort_key(struct tui *t, int key)
{
	static const struct {
		int key;
		enum c2c_display d;
	} keys[] = { { 't', C2C_DISPLAY_TOT },
		     { 'r', C2C_DISPLAY_RMT },
		     { 'L', C2C_DISPLAY_LCL },
		     { 'p', C2C_DISPLAY_PEER } };
	size_t i;

	if (top(t)->screen != TUI_SCREEN_LINES)
		return false;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].key == key) {
			resort(t, keys[i].d);
			return true;
		}
	return false;
}

/* Read a search string on the last line; false when cancelled. */
static bool prompt(struct tui *t, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	buf[0] = '\0';
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		printw("/%s", buf);
		refresh();
		c = getch();
		if (c == '\n' || c == KEY_ENTER)
			return n > 0;
		if (c == 27)
			return false;
		if ((c == KEY_BACKSPACE || c == 127 || c == 8) && n)
			buf[--n] = '\0';
		else if (c >= 32 && c < 127 && n + 1 < size) {
			buf[n++] = (char)c;
			buf[n] = '\0';
		}
	}
}

static void find(struct tui *t, bool next)
{
	struct tui_view *v = top(t);
	size_t i;

	if (!*t->search) {
		say(t, "no search yet: / starts one");
		return;
	}
	i = tui_view_find(v, v->cursor, !next, t->search);
	if (i == SIZE_MAX) {
		say(t, "not found: %s", t->search);
		return;
	}
	tui_view_select(v, i, body_height(v));
	say(t, "/%s: row %zu of %zu", t->search, i + 1, v->nr_rows);
}

/* Keys that move the cursor by rows or by pages (of the body's height). */
static const struct {
	int key;
	long rows, pages;
} row_keys[] = {
	{ KEY_DOWN, 1, 0 },  { 'j', 1, 0 }, { KEY_UP, -1, 0 },	  { 'k', -1, 0 },
	{ KEY_NPAGE, 0, 1 }, { ' ', 0, 1 }, { KEY_PPAGE, 0, -1 },
};

/* Keys that move; whether key was one. */
static bool move_key(struct tui *t, int key)
{
	struct tui_view *v = top(t);
	size_t h = body_height(v), i;

	for (i = 0; i < ARRAY_SIZE(row_keys); i++)
		if (row_keys[i].key == key) {
			tui_view_move(v, row_keys[i].rows + row_keys[i].pages * (long)h, h);
			return true;
		}
	switch (key) {
	case KEY_HOME:
	case 'g':
		tui_view_select(v, 0, h);
		return true;
	case KEY_END:
	case 'G':
		tui_view_select(v, v->nr_rows ? v->nr_rows - 1 : 0, h);
		return true;
	case KEY_RIGHT:
		v->left += TUI_HSCROLL;
		return true;
	case KEY_LEFT:
		v->left = v->left > TUI_HSCROLL ? v->left - TUI_HSCROLL : 0;
		return true;
	}
	return false;
}

/* One key; false to quit. */
static bool handle_key(struct tui *t, int key)
{
	t->msg[0] = '\0';
	if (move_key(t, key) || sort_key(t, key))
		return true;
	switch (key) {
	case 'q':
	case 27: /* Esc */
		if (t->depth == 1)
			return false;
		pop(t);
		return true;
	case 12: /* Ctrl-L */
		clearok(curscr, TRUE);
		return true;
	case KEY_RESIZE:
		return true;
	case '/':
		if (prompt(t, t->search, sizeof(t->search)))
			find(t, false);
		return true;
	case 'n':
		find(t, true);
		return true;
	}
	if (!screen_key(t, key) && key != ERR)
		say(t, "unknown key; ? shows the keys");
	return true;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void loop(struct tui *t)
{
	struct timespec ts;
	int key;

	draw(t);
	if (t->timing) { /* when the first screen was up, for bench/tui.sh */
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(t->timing, "drawn %" PRIu64 "\n",
			(uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000);
		fflush(t->timing);
	}
	while ((key = getch()) != ERR || errno == EINTR) {
		uint64_t start = now_us();
		bool go_on = handle_key(t, key);

		if (!go_on)
			break;
		draw(t);
		if (t->timing)
			fprintf(t->timing, "key %d %" PRIu64 "\n", key, now_us() - start);
	}
}

static int start_screen(struct tui *t)
{
	struct tui_view v;

	tui_view_lines(&v, t->s);
	push(t, &v);
	if (t->opts->by_type) {
		open_types(t);
		if (t->depth == 1)
			return -ENOENT;
	}
	return 0;
}

int tui_run(struct c2c_session *s, const struct tui_opts *opts)
{
	struct tui t = { .s = s, .opts = opts };
	const char *timing = getenv("C2CSCOPE_TUI_TIMING");

	setlocale(LC_ALL, "");
	if (start_screen(&t)) {
		fprintf(stderr, "c2cscope report: %s\n", t.msg);
		while (t.depth)
			pop(&t);
		return 2;
	}
	if (timing && *timing)
		t.timing = fopen(timing, "w");
	catch_signals(true);
	atexit(restore_terminal);
	if (!initscr()) {
		catch_signals(false);
		return 2;
	}
	curses_on = 1;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	setup_colors(&t);
	loop(&t);
	restore_terminal();
	catch_signals(false);
	while (t.depth)
		pop(&t);
	if (t.timing)
		fclose(t.timing);
	return 0;
}
