// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page frame, escaping, SVG elements and the heat palette
 * (see html.h). Everything the page needs is inline: a browser opening
 * the file offline shows all of it.
 */
#include "fmt/html.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void html_escape(struct strbuf *sb, const char *s)
{
	strbuf_add_xml(sb, s ? s : "");
}

void html_escapef(struct strbuf *sb, const char *fmt, ...)
{
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	html_escape(sb, tmp.buf);
	strbuf_release(&tmp);
}

/* Dark text on light, one accent, the viridis scale for heat. */
static const char page_css[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 24px 40px;"
	"color:#1b1b1b;background:#fff}\n"
	"h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:2px solid #ddd;padding-bottom:2px}h3{font-size:15px;margin:18px 0 6px}\n"
	"nav a{margin-right:14px}.note{color:#555;font-size:12px;max-width:72em}\n"
	"table{border-collapse:collapse;font-size:12px;margin:4px 0 10px}\n"
	"td,th{border:1px solid #d0d0d0;padding:2px 6px;white-space:nowrap}\n"
	"th{background:#f2f2f2;font-weight:600}td.num{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	"table.sortable th[data-col]{cursor:pointer}table.sortable th[data-col]:hover"
	"{background:#e4e4e4}\n"
	"th[data-dir=a]::after{content:' \\25B2'}th[data-dir=d]::after{content:' \\25BC'}\n"
	".figs{display:flex;flex-wrap:wrap;gap:8px 32px;align-items:flex-start}\n"
	"svg{display:block;margin:6px 0}svg text{font:11px system-ui,sans-serif;fill:#1b1b1b}\n"
	"svg text.small{font-size:9px}svg text.bold{font-weight:700}\n"
	"svg text.halo{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n"
	"svg text.light{fill:#fff;font-weight:600}\n"
	"svg .empty{fill:#f3f3f3;stroke:#c8c8c8}svg .cold{fill:#e6e6e6;stroke:#888}\n"
	"svg .bound{stroke:#d62728;stroke-width:1.5}svg .grid{stroke:#fff;stroke-width:.5}\n"
	"svg .nohitm{fill:#fff;stroke:#555}svg .whot{fill:#e66101}svg .rmostly{fill:#b2abd2}"
	".key{padding:0 4px}.key.whot{background:#e66101;color:#fff}"
	".key.rmostly{background:#b2abd2}svg .member{stroke:#333;stroke-width:.7}\n"
	"svg rect:hover{stroke:#000;stroke-width:1.5}\n"
	".hm,.hms .mt{display:none}#m-tot:checked~.hms .hm-tot,#m-rmt:checked~.hms .hm-rmt,"
	"#m-lcl:checked~.hms .hm-lcl,#m-st:checked~.hms .hm-st{display:block}\n"
	"#m-tot:checked~.hms .mt-tot,#m-rmt:checked~.hms .mt-rmt,#m-lcl:checked~.hms .mt-lcl,"
	"#m-st:checked~.hms .mt-st{display:inline}\n"
	".hms rect.c{fill:var(--tot)}#m-rmt:checked~.hms rect.c{fill:var(--rmt)}"
	"#m-lcl:checked~.hms rect.c{fill:var(--lcl)}#m-st:checked~.hms rect.c{fill:var(--st)}\n"
	".metric label{margin-right:14px}.pair{display:flex;flex-wrap:wrap;gap:8px 40px}\n"
	"details{margin:6px 0}summary{cursor:pointer;font-weight:600}\n"
	"td.w{background:#e66101;color:#fff}td.r{background:#5e3c99;color:#fff}"
	"td.rw{background:#fdb863}\n";

/* Click a header: sort its table's body by that column, again to reverse. */
static const char page_script[] =
	"function k(s){s=s.trim();if(/^0x[0-9a-f]+$/i.test(s))return parseInt(s,16);"
	"var v=parseFloat(s.replace(/[%,]/g,''));return isNaN(v)?-Infinity:v}\n"
	"document.querySelectorAll('table.sortable th[data-col]').forEach(function(h){"
	"h.addEventListener('click',function(){var t=h.closest('table'),b=t.tBodies[0],"
	"c=+h.dataset.col,n=h.classList.contains('num'),d=h.dataset.dir==='d'?'a':'d';"
	"t.querySelectorAll('th').forEach(function(x){delete x.dataset.dir});h.dataset.dir=d;"
	"var r=Array.prototype.slice.call(b.rows);r.sort(function(x,y){var p=x.cells[c]"
	".textContent,q=y.cells[c].textContent,o=n?k(p)-k(q):p.localeCompare(q);"
	"return d==='a'?o:-o});r.forEach(function(x){b.appendChild(x)})})});\n";

/* The hatch patterns every picture of the page refers to. */
static const char page_patterns[] =
	"<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>"
	"<pattern id=\"hatch-false\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
	"patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
	"stroke=\"#000\" stroke-width=\"1.2\" stroke-opacity=\".45\"/></pattern>"
	"<pattern id=\"hatch-true\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
	"<path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#000\" stroke-width=\"1\" "
	"stroke-opacity=\".45\"/></pattern></defs></svg>\n";

void html_page_begin(struct strbuf *sb, const char *title)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	html_escape(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n%s", page_css,
		    page_patterns);
}

void html_page_end(struct strbuf *sb)
{
	strbuf_addf(sb, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}

void html_heading(struct strbuf *sb, int level, const char *id, const char *title)
{
	strbuf_addf(sb, "<h%d", level);
	if (id) {
		strbuf_addstr(sb, " id=\"");
		html_escape(sb, id);
		strbuf_addch(sb, '"');
	}
	strbuf_addch(sb, '>');
	html_escape(sb, title);
	strbuf_addf(sb, "</h%d>\n", level);
}

static void table_groups(struct strbuf *sb, const struct table *t)
{
	size_t i = 0, n = table_nr_columns(t);

	for (i = 0; i < n; i++)
		if (table_column_group(t, i))
			break;
	if (i == n)
		return;
	strbuf_addstr(sb, "<tr>");
	for (i = 0; i < n;) {
		const char *g = table_column_group(t, i);
		size_t end = i + 1;

		while (g && end < n && table_column_group(t, end) &&
		       !strcmp(g, table_column_group(t, end)))
			end++;
		strbuf_addf(sb, "<th colspan=\"%zu\">", end - i);
		html_escape(sb, g ? g : "");
		strbuf_addstr(sb, "</th>");
		i = end;
	}
	strbuf_addstr(sb, "</tr>\n");
}

void html_table(struct strbuf *sb, const struct table *t, bool sortable)
{
	html_table_rows(sb, t, sortable, SIZE_MAX);
}

void html_table_rows(struct strbuf *sb, const struct table *t, bool sortable, size_t max_rows)
{
	size_t c, r, n = table_nr_columns(t);

	strbuf_addstr(sb,
		      sortable ? "<table class=\"sortable\">\n<thead>\n" : "<table>\n<thead>\n");
	table_groups(sb, t);
	strbuf_addstr(sb, "<tr>");
	for (c = 0; c < n; c++) {
		bool num = table_column_align(t, c) == TABLE_RIGHT;

		strbuf_addstr(sb, "<th");
		if (sortable)
			strbuf_addf(sb, " data-col=\"%zu\"", c);
		if (num)
			strbuf_addstr(sb, " class=\"num\"");
		strbuf_addch(sb, '>');
		html_escape(sb, table_column_header(t, c));
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr>\n</thead>\n<tbody>\n");
	for (r = 0; r < table_nr_rows(t) && r < max_rows; r++) {
		strbuf_addstr(sb, "<tr>");
		for (c = 0; c < n; c++) {
			strbuf_addstr(sb, table_column_align(t, c) == TABLE_RIGHT ?
						  "<td class=\"num\">" :
						  "<td>");
			html_escape(sb, table_cell(t, r, c));
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}

/* --- SVG ------------------------------------------------------------------ */

void svg_begin(struct strbuf *sb, double width, double height, const char *label)
{
	strbuf_addf(sb,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
		    width, height, width, height);
	html_escape(sb, label);
	strbuf_addstr(sb, "\">\n");
}

void svg_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</svg>\n");
}

void svg_rect(struct strbuf *sb, double x, double y, double w, double h, const char *fill,
	      const char *cls, const char *tooltip, const char *data)
{
	strbuf_addf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y, w, h);
	if (fill)
		strbuf_addf(sb, " fill=\"%s\"", fill);
	if (cls)
		strbuf_addf(sb, " class=\"%s\"", cls);
	if (data)
		strbuf_addf(sb, " %s", data);
	if (!tooltip) {
		strbuf_addstr(sb, "/>\n");
		return;
	}
	strbuf_addstr(sb, "><title>");
	html_escape(sb, tooltip);
	strbuf_addstr(sb, "</title></rect>\n");
}

void svg_hatch(struct strbuf *sb, double x, double y, double w, double h, bool true_sharing)
{
	strbuf_addf(sb,
		    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		    "fill=\"url(#hatch-%s)\" pointer-events=\"none\"/>\n",
		    x, y, w, h, true_sharing ? "true" : "false");
}

void svg_line(struct strbuf *sb, double x1, double y1, double x2, double y2, const char *cls)
{
	strbuf_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" class=\"%s\"/>\n",
		    x1, y1, x2, y2, cls);
}

void svg_text(struct strbuf *sb, double x, double y, const char *anchor, const char *cls,
	      const char *fmt, ...)
{
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	strbuf_addf(sb, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\"", x, y, anchor);
	if (cls)
		strbuf_addf(sb, " class=\"%s\"", cls);
	strbuf_addch(sb, '>');
	html_escape(sb, tmp.buf);
	strbuf_addstr(sb, "</text>\n");
	strbuf_release(&tmp);
}

/* --- Heat ----------------------------------------------------------------- */

/* viridis at 0, 0.1, ..., 1 */
static const unsigned char viridis[11][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x48, 0x24, 0x75 }, { 0x41, 0x44, 0x87 }, { 0x35, 0x5f, 0x8d },
	{ 0x2a, 0x78, 0x8e }, { 0x21, 0x91, 0x8c }, { 0x22, 0xa8, 0x84 }, { 0x44, 0xbf, 0x70 },
	{ 0x7a, 0xd1, 0x51 }, { 0xbd, 0xdf, 0x26 }, { 0xfd, 0xe7, 0x25 },
};

/* Where value sits on the scale, 0..1 (log: 1 is the lowest non-zero). */
static double heat_position(uint64_t value, uint64_t max)
{
	if (!value || !max)
		return -1;
	if (value >= max || max == 1)
		return 1;
	return log((double)value) / log((double)max);
}

void html_heat_colour(uint64_t value, uint64_t max, char out[HTML_COLOUR_LEN])
{
	double t = heat_position(value, max), f;
	unsigned int i, c[3], k;

	if (t < 0) {
		strcpy(out, "#f3f3f3");
		return;
	}
	f = (1 - t) * 10; /* dark is hot: the page is white */
	i = f >= 10 ? 9 : (unsigned int)f;
	f -= i;
	for (k = 0; k < 3; k++)
		c[k] = (unsigned int)lround(viridis[i][k] +
					    (viridis[i + 1][k] - viridis[i][k]) * f);
	snprintf(out, HTML_COLOUR_LEN, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

bool html_heat_dark(uint64_t value, uint64_t max)
{
	return heat_position(value, max) > 0.45;
}

void html_heat_legend(struct strbuf *sb, uint64_t max, const char *label, bool hatches)
{
	char colour[HTML_COLOUR_LEN];
	double x0 = 40, w = 240;
	int i;

	svg_begin(sb, hatches ? 820 : 300, 48, "colour scale");
	svg_text(sb, 0, 11, "start", "bold", "%s", label);
	svg_rect(sb, 8, 16, 24, 16, NULL, "empty", "no access of this kind", NULL);
	svg_text(sb, 20, 44, "middle", "small", "0");
	for (i = 0; i < 48; i++) {
		uint64_t top = max ? max : 1000; /* no scale given: a nominal one */
		uint64_t v = top <= 1 ? 1 :
					(uint64_t)llround(expm1(log1p((double)top) * (i + 1) / 48));

		html_heat_colour(v ? v : 1, top, colour);
		svg_rect(sb, x0 + i * w / 48, 16, w / 48 + 0.3, 16, colour, NULL, NULL, NULL);
	}
	svg_text(sb, x0, 44, "start", "small", "1");
	if (max)
		svg_text(sb, x0 + w, 44, "end", "small", "%llu", (unsigned long long)max);
	else
		svg_text(sb, x0 + w, 44, "end", "small", "hottest");
	svg_text(sb, x0 + w / 2, 44, "middle", "small", "log scale");
	if (hatches) {
		svg_rect(sb, 300, 16, 24, 16, NULL, "cold", NULL, NULL);
		svg_hatch(sb, 300, 16, 24, 16, false);
		svg_text(sb, 330, 29, "start", NULL, "false sharing");
		svg_rect(sb, 420, 16, 24, 16, NULL, "cold", NULL, NULL);
		svg_hatch(sb, 420, 16, 24, 16, true);
		svg_text(sb, 450, 29, "start", NULL, "true sharing");
		svg_rect(sb, 540, 16, 24, 16, NULL, "nohitm", NULL, NULL);
		svg_text(sb, 570, 29, "start", NULL, "accessed, no HITM");
		svg_rect(sb, 690, 16, 24, 16, NULL, "cold", NULL, NULL);
		svg_text(sb, 720, 29, "start", NULL, "not sampled");
	}
	svg_end(sb);
}

int html_write_file(const char *path, const struct strbuf *page, struct err_msg *err)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return err_set(err, errno, "%s: cannot write: %s", path, strerror(errno));
	if (fwrite(page->buf, 1, page->len, f) != page->len)
		ret = err_set(err, EIO, "%s: writing the page failed", path);
	if (fclose(f) && !ret)
		ret = err_set(err, errno, "%s: %s", path, strerror(errno));
	return ret;
}
