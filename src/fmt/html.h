/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-contained HTML pages with inline SVG: the one place that escapes
 * text for HTML and writes SVG elements, the page frame (inline CSS and a
 * small inline script that sorts tables; nothing is fetched), the heat
 * palette and its legend, and fmt/table tables as HTML tables.
 *
 * The views that draw with it (src/c2c/c2c_html.c, src/suggest/suggest_html.c) take every
 * number from the engine's models; nothing here computes a figure.
 */
#ifndef C2C_FMT_HTML_H
#define C2C_FMT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt/table.h"
#include "util/err.h"
#include "util/strbuf.h"

/* Text for an element or an attribute value: strbuf_add_xml (util/strbuf.h). */
void html_escape(struct strbuf *sb, const char *s);
void html_escapef(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* <!DOCTYPE html> ... <body>, with the page's CSS, script and SVG patterns. */
void html_page_begin(struct strbuf *sb, const char *title);
void html_page_end(struct strbuf *sb);
/* <h2 id="ID">TITLE</h2> (h3 with level 3). */
void html_heading(struct strbuf *sb, int level, const char *id, const char *title);

/*
 * A table as an HTML table: group titles as a header row, then the
 * headers; sortable tables sort on a click on a header. Right-aligned
 * columns are numbers.
 */
void html_table(struct strbuf *sb, const struct table *t, bool sortable);
/* The same with only the first max_rows rows. */
void html_table_rows(struct strbuf *sb, const struct table *t, bool sortable, size_t max_rows);

/* --- SVG ------------------------------------------------------------------ */

/* <svg> of width x height with an accessible label. */
void svg_begin(struct strbuf *sb, double width, double height, const char *label);
void svg_end(struct strbuf *sb);
/*
 * A rectangle. fill is a colour ("#aabbcc") or NULL for the class's;
 * cls may be NULL; tooltip (escaped here) may be NULL. data, when not
 * NULL, is written as is (attributes already escaped: data-x="1").
 */
void svg_rect(struct strbuf *sb, double x, double y, double w, double h, const char *fill,
	      const char *cls, const char *tooltip, const char *data);
/* Hatching over a rectangle (false/true sharing). */
void svg_hatch(struct strbuf *sb, double x, double y, double w, double h, bool true_sharing);
void svg_line(struct strbuf *sb, double x1, double y1, double x2, double y2, const char *cls);
/* anchor: "start", "middle" or "end"; text is escaped. */
void svg_text(struct strbuf *sb, double x, double y, const char *anchor, const char *cls,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* --- Heat ----------------------------------------------------------------- */

#define HTML_COLOUR_LEN 8 /* "#rrggbb" + NUL */

/*
 * The colour of value among 0..max on a colour-blind-safe sequential
 * scale (viridis, reversed for a white page: yellow, green, blue, dark
 * purple), logarithmic so that a few hot cells do not wash out the rest
 * (1 is the yellow, max the darkest purple); 0 is the page's empty colour.
 */
void html_heat_colour(uint64_t value, uint64_t max, char out[HTML_COLOUR_LEN]);
/* Whether that colour is dark enough to want light text on it. */
bool html_heat_dark(uint64_t value, uint64_t max);
/* A legend: the scale from 0 to max with its label, as its own <svg>. */
void html_heat_legend(struct strbuf *sb, uint64_t max, const char *label, bool hatches);

/* Write the page to path; 0 or -errno with err filled. */
int html_write_file(const char *path, const struct strbuf *page, struct err_msg *err);

#endif
