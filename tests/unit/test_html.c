// SPDX-License-Identifier: GPL-2.0
/*
 * output/html's primitives: escaping (text and attributes), SVG elements
 * (sizes as given, tooltips escaped), the heat scale's ends and order,
 * tables as HTML with the same cells as the text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/html.h"
#include "fmt/table.h"
#include "util/strbuf.h"

static void escapes_markup_and_quotes(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	html_escape(&sb, "a<b>&\"c\"'d' e\x01\n");
	assert_string_equal(sb.buf, "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos; e\n");
	strbuf_reset(&sb);
	html_escape(&sb, NULL);
	html_escape(&sb, "");
	assert_string_equal(sb.buf, "");
	html_escapef(&sb, "%s=%d", "x<y", 3);
	assert_string_equal(sb.buf, "x&lt;y=3");
	strbuf_release(&sb);
}

static void svg_elements_keep_sizes_and_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	svg_rect(&sb, 86, 22, 48, 24, "#440154", "member", "a<b>\nc&d", "data-bytes=\"8\"");
	assert_string_equal(sb.buf,
			    "<rect x=\"86.00\" y=\"22.00\" width=\"48.00\" height=\"24.00\" "
			    "fill=\"#440154\" class=\"member\" data-bytes=\"8\"><title>a&lt;b&gt;\n"
			    "c&amp;d</title></rect>\n");
	strbuf_reset(&sb);
	svg_text(&sb, 1, 2, "middle", NULL, "%s", "rt_se & <x>");
	assert_string_equal(sb.buf, "<text x=\"1.00\" y=\"2.00\" text-anchor=\"middle\">"
				    "rt_se &amp; &lt;x&gt;</text>\n");
	strbuf_reset(&sb);
	svg_begin(&sb, 100, 50, "a \"label\"");
	svg_end(&sb);
	assert_non_null(strstr(sb.buf, "width=\"100\" height=\"50\" viewBox=\"0 0 100 50\""));
	assert_non_null(strstr(sb.buf, "aria-label=\"a &quot;label&quot;\""));
	strbuf_release(&sb);
}

static unsigned int luma(const char *c)
{
	unsigned int r, g, b;

	assert_int_equal(sscanf(c, "#%2x%2x%2x", &r, &g, &b), 3);
	return 299 * r + 587 * g + 114 * b;
}

static void heat_scale_runs_yellow_to_purple(void **state)
{
	char c[HTML_COLOUR_LEN], prev[HTML_COLOUR_LEN];
	uint64_t v;

	html_heat_colour(0, 100, c);
	assert_string_equal(c, "#f3f3f3"); /* nothing: the empty colour */
	html_heat_colour(1, 100, c);
	assert_string_equal(c, "#fde725"); /* the least: viridis' yellow */
	html_heat_colour(100, 100, c);
	assert_string_equal(c, "#440154"); /* the most: its darkest purple */
	html_heat_colour(500, 100, c);
	assert_string_equal(c, "#440154");
	html_heat_colour(1, 1, c);
	assert_string_equal(c, "#440154"); /* a scale of one: that one is the most */
	html_heat_colour(1, 100, prev);
	for (v = 2; v <= 100; v++) { /* darker as the count grows */
		html_heat_colour(v, 100, c);
		assert_true(luma(c) <= luma(prev));
		strcpy(prev, c);
	}
	assert_false(html_heat_dark(1, 100));
	assert_true(html_heat_dark(100, 100));
}

static void tables_keep_the_text_cells(void **state)
{
	struct table *t = table_new();
	struct strbuf sb = STRBUF_INIT;

	table_add_column(t, "HITM", "Rmt", TABLE_RIGHT);
	table_add_column(t, "HITM", "Lcl", TABLE_RIGHT);
	table_add_column(t, NULL, "Field", TABLE_LEFT);
	table_add_row(t);
	table_set(t, 0, "%.2f%%", 52.666);
	table_set(t, 2, "%s", "cfg.limit<1>");
	table_add_row(t);
	table_set(t, 1, "7");
	html_table(&sb, t, true);
	assert_non_null(
		strstr(sb.buf, "<tr><th colspan=\"2\">HITM</th><th colspan=\"1\"></th></tr>"));
	assert_non_null(strstr(sb.buf, "<th data-col=\"0\" class=\"num\">Rmt</th>"));
	assert_non_null(strstr(sb.buf, "<th data-col=\"2\">Field</th>"));
	assert_non_null(strstr(sb.buf, "<tr><td class=\"num\">52.67%</td><td class=\"num\"></td>"
				       "<td>cfg.limit&lt;1&gt;</td></tr>"));
	assert_non_null(strstr(sb.buf, "<td class=\"num\">7</td>"));
	strbuf_reset(&sb);
	html_table_rows(&sb, t, false, 1);
	assert_null(strstr(sb.buf, ">7<"));
	assert_null(strstr(sb.buf, "data-col"));
	table_free(t);
	strbuf_release(&sb);
}

static void page_is_self_contained(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	html_page_begin(&sb, "c2cscope report: <x>");
	html_page_end(&sb);
	assert_non_null(strstr(sb.buf, "<!DOCTYPE html>\n<html lang=\"en\">"));
	assert_non_null(strstr(sb.buf, "<title>c2cscope report: &lt;x&gt;</title>"));
	assert_null(strstr(sb.buf, "<link"));
	assert_null(strstr(sb.buf, "src="));
	assert_null(strstr(sb.buf, "https:"));
	assert_non_null(strstr(sb.buf, "</body>\n</html>\n"));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_markup_and_quotes),
		cmocka_unit_test(svg_elements_keep_sizes_and_escape),
		cmocka_unit_test(heat_scale_runs_yellow_to_purple),
		cmocka_unit_test(tables_keep_the_text_cells),
		cmocka_unit_test(page_is_self_contained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
