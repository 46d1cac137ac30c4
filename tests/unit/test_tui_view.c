// SPDX-License-Identifier: GPL-2.0
/* The TUI's view models (src/tui/tui_view.h) without a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fmt/table.h"
#include "tui/tui_view.h"

static void build(struct tui_view *v, size_t rows)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	tui_view_add_text(v, "head 1\nhead 2\n", 2);
	for (i = 0; i < rows; i++)
		tui_view_add_row(v, TUI_STYLE_PLAIN, "row %zu %s", i,
				 i % 10 == 3 ? "reader" : "writer");
}

static void test_text_split(void **state)
{
	struct tui_view v = { 0 };

	tui_view_add_text(&v, "a\nb\n\nc", 1);
	assert_int_equal(v.nr_header, 1);
	assert_string_equal(v.header[0].text, "a");
	assert_int_equal(v.header[0].style, TUI_STYLE_HEADER);
	assert_int_equal(v.nr_rows, 3);
	assert_string_equal(v.rows[0].text, "b");
	assert_string_equal(v.rows[1].text, ""); /* empty lines stay */
	assert_string_equal(v.rows[2].text, "c"); /* no final newline */
	tui_view_free(&v);
	assert_int_equal(v.nr_rows, 0);
}

static void test_move_and_scroll(void **state)
{
	struct tui_view v;

	build(&v, 100);
	tui_view_move(&v, 1, 10);
	assert_int_equal(v.cursor, 1);
	assert_int_equal(v.top, 0);
	tui_view_move(&v, 10, 10); /* past the page: scrolls by what is needed */
	assert_int_equal(v.cursor, 11);
	assert_int_equal(v.top, 2);
	tui_view_move(&v, -100, 10); /* clamped at the top */
	assert_int_equal(v.cursor, 0);
	assert_int_equal(v.top, 0);
	tui_view_move(&v, 1000, 10); /* and at the bottom, with a full last page */
	assert_int_equal(v.cursor, 99);
	assert_int_equal(v.top, 90);
	tui_view_select(&v, 95, 30); /* a taller screen after a resize */
	assert_int_equal(v.cursor, 95);
	assert_int_equal(v.top, 70);
	tui_view_free(&v);
}

static void test_find(void **state)
{
	struct tui_view v;

	build(&v, 30);
	assert_int_equal(tui_view_find(&v, 0, true, "READER"), 3); /* case-insensitive */
	assert_int_equal(tui_view_find(&v, 3, true, "reader"), 3); /* inclusive */
	assert_int_equal(tui_view_find(&v, 3, false, "reader"), 13); /* next */
	assert_int_equal(tui_view_find(&v, 23, false, "reader"), 3); /* wraps */
	assert_int_equal(tui_view_find(&v, 0, true, "head"), SIZE_MAX); /* headers are not rows */
	assert_int_equal(tui_view_find(&v, 0, true, "nothing"), SIZE_MAX);
	assert_int_equal(tui_view_find(&v, 0, true, ""), SIZE_MAX);
	tui_view_free(&v);
	memset(&v, 0, sizeof(v));
	assert_int_equal(tui_view_find(&v, 0, true, "x"), SIZE_MAX); /* no rows */
}

/* Lines as layout --profile and suggest print them (tests/attrib/sim_layout.sh). */
static void test_heat(void **state)
{
	assert_int_equal(tui_heat_style("\tint lock; /* 0 4 */ hitm 1450/0 ld 1459 st 5411 "
					"r:writer w:writer <- false sharing <- true sharing"),
			 TUI_STYLE_FALSE_SHARING);
	assert_int_equal(tui_heat_style("\tlong int updates; /* 8 8 */ hitm 1730/0 ld 1730 st 3957 "
					"<- true sharing"),
			 TUI_STYLE_TRUE_SHARING);
	assert_int_equal(tui_heat_style("\tlong int limit; /* 16 8 */ hitm 0/3379 ld 3383 st 0 "
					"r:reader"),
			 TUI_STYLE_HOT);
	assert_int_equal(tui_heat_style("\tlong int cold; /* 32 8 */ hitm 0/0 ld 5 st 0 r:reader"),
			 TUI_STYLE_PLAIN);
	assert_int_equal(tui_heat_style("false sharing: line 0: lock (written by cpus 0,2) with "
					"limit (cpus 1,3)"),
			 TUI_STYLE_FALSE_SHARING);
	assert_int_equal(tui_heat_style("true sharing: lock (written by cpus 0,2)"),
			 TUI_STYLE_TRUE_SHARING);
	assert_int_equal(
		tui_heat_style("\tint lock; /* 0 4 */ [write-hot hitm 1450 ld 1459 st 5411]"),
		TUI_STYLE_HOT);
	assert_int_equal(tui_heat_style("option 2: isolate with alignment"), TUI_STYLE_HEADER);
	assert_int_equal(tui_heat_style("  move rt_se: offset 264 -> 240 (line 4 -> 3)"),
			 TUI_STYLE_MARK);
	assert_int_equal(tui_heat_style("\t/* XXX 4 bytes hole, try to pack */"), TUI_STYLE_PLAIN);
}

static void test_help(void **state)
{
	struct tui_view v;

	tui_view_help(&v);
	assert_int_equal(v.screen, TUI_SCREEN_HELP);
	/* every key the browser reads is documented */
	assert_int_not_equal(tui_view_find(&v, 0, true, "Ctrl-L"), SIZE_MAX);
	assert_int_not_equal(tui_view_find(&v, 0, true, "t, r, L, p"), SIZE_MAX);
	assert_int_not_equal(tui_view_find(&v, 0, true, "annotate"), SIZE_MAX);
	assert_int_not_equal(tui_view_find(&v, 0, true, "suggest --profile"), SIZE_MAX);
	assert_int_not_equal(tui_view_find(&v, 0, true, "suggest --patch"), SIZE_MAX);
	tui_view_free(&v);
}

/* The detail view's Field beside Offset: a column and its cells move, groups follow. */
static void test_table_move_column(void **state)
{
	struct table *t = table_new();
	struct strbuf sb = STRBUF_INIT;

	table_add_column(t, "g", "A", TABLE_LEFT);
	table_add_column(t, "g", "B", TABLE_LEFT);
	table_add_column(t, NULL, "C", TABLE_LEFT);
	table_add_column(t, "g", "F", TABLE_LEFT);
	table_add_row(t);
	table_set(t, 0, "a1"), table_set(t, 1, "b1"), table_set(t, 3, "f1");
	table_add_row(t);
	table_set(t, 2, "c2"), table_set(t, 3, "f2");
	table_move_column(t, 3, 1); /* A F B C: one "g" group over A F B */
	table_render(t, &sb, "");
	assert_string_equal(sb.buf, "--- g ----\n"
				    "A   F   B   C\n"
				    "==============\n"
				    "a1  f1  b1\n"
				    "    f2      c2\n");
	strbuf_reset(&sb);
	table_move_column(t, 0, 3); /* F B C A: A's "g" is a title of its own, both widen */
	table_move_column(t, 9, 0); /* out of range: nothing */
	table_render(t, &sb, "");
	assert_string_equal(sb.buf, "-- g --      -- g --\n"
				    "F   B    C   A\n"
				    "====================\n"
				    "f1  b1       a1\n"
				    "f2       c2\n");
	strbuf_release(&sb);
	table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_split), cmocka_unit_test(test_move_and_scroll),
		cmocka_unit_test(test_find),	   cmocka_unit_test(test_heat),
		cmocka_unit_test(test_help),	   cmocka_unit_test(test_table_move_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
