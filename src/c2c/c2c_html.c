// SPDX-License-Identifier: GPL-2.0
/*
 * The report page: perf c2c report's summary figures and tables (the same
 * cells the text report prints, from c2c_view), the heatmap, the hot
 * structs (drawn by the caller's callback: suggest_html_hot_structs draws
 * each with the proposal suggest would choose), and who writes and who
 * reads each line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_html.h"
#include "c2c/c2c_html_int.h"
#include "c2c/c2c_view.h"
#include "fmt/html.h"
#include "placement/placement.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

static void figures_table(struct strbuf *sb, const char *title, const struct c2c_figure *f,
			  size_t n)
{
	size_t i;

	strbuf_addstr(sb, "<table class=\"figures\">\n<thead><tr><th colspan=\"2\">");
	html_escape(sb, title);
	strbuf_addstr(sb, "</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		strbuf_addstr(sb, "<tr><td>");
		html_escape(sb, f[i].label);
		strbuf_addf(sb, "</td><td class=\"num\" data-key=\"%s\">", f[i].key);
		if (f[i].percent)
			strbuf_addf(sb, "%.1f%%", f[i].value);
		else
			strbuf_addf(sb, "%.0f", f[i].value);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}

static void detail(struct strbuf *sb, const char *label, const char *value)
{
	strbuf_addstr(sb, "<tr><td>");
	html_escape(sb, label);
	strbuf_addstr(sb, "</td><td>");
	html_escape(sb, value && *value ? value : "-");
	strbuf_addstr(sb, "</td></tr>\n");
}

static void details_table(struct strbuf *sb, struct c2c_session *s)
{
	const struct c2c_machine *mc = &s->machine;
	const struct c2c_model *m = s->model;
	struct strbuf v = STRBUF_INIT;
	size_t i;

	strbuf_addstr(sb, "<table class=\"details\">\n<thead><tr><th colspan=\"2\">c2c details"
			  "</th></tr></thead>\n<tbody>\n");
	detail(sb, "File", s->opts.path);
	strbuf_addf(&v, "%" PRIu64, s->nr_samples);
	detail(sb, "Samples", v.buf);
	for (i = 0; i < s->nr_events; i++)
		detail(sb, i ? "" : "Events", s->event_names[i]);
	detail(sb, "Machine", mc->hostname);
	strbuf_reset(&v);
	strbuf_addf(&v, "%s %s", mc->osrelease ? mc->osrelease : "", mc->arch ? mc->arch : "");
	detail(sb, "Kernel", v.buf);
	detail(sb, "CPU", mc->cpudesc);
	strbuf_reset(&v);
	strbuf_addf(&v, "%u online of %u, %u NUMA nodes", mc->nr_cpus_online, mc->nr_cpus_avail,
		    mc->nr_nodes);
	detail(sb, "CPUs", v.buf);
	detail(sb, "perf version", mc->perf_version);
	detail(sb, "Cachelines sort on", c2c_display_name(m->opts.display));
	strbuf_reset(&v);
	c2c_view_grouping(m, &v);
	detail(sb, "Cacheline data grouping", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRIu64 " bytes%s", m->line_size,
		    m->opts.double_cl ? " (--double-cl)" : "");
	detail(sb, "Cache line size", v.buf);
	detail(sb, "Classification", m->opts.rules == MEM_SRC_MODERN ? "modern rules" : "perf 6.1");
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	strbuf_release(&v);
}

static void summary(struct strbuf *sb, struct c2c_session *s)
{
	struct c2c_figure f[64];

	html_heading(sb, 2, "summary", "Summary");
	strbuf_addstr(sb, "<div class=\"figs\">\n");
	figures_table(sb, "Trace Event Information", f, c2c_trace_figures(s->model, f, 64));
	figures_table(sb, "Global Shared Cache Line Event Information", f,
		      c2c_shared_figures(s->model, f, 64));
	details_table(sb, s);
	strbuf_addstr(sb, "</div>\n");
}

/* The displayed lines, hottest first, at most max. */
static size_t hot_lines(const struct c2c_model *m, size_t max, const struct c2c_line ***out)
{
	const struct c2c_line **v = xcalloc(max ? max : 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < m->nr_lines && n < max; i++)
		if (m->lines[i]->displayed)
			v[n++] = m->lines[i];
	*out = v;
	return n;
}

static void lines_table(struct strbuf *sb, struct c2c_session *s, size_t nr)
{
	struct table *t = c2c_view_lines_table(s);

	html_heading(sb, 2, "lines", "Shared Data Cache Line Table");
	if (table_nr_rows(t) > nr)
		strbuf_addf(sb,
			    "<p class=\"note\">The %zu hottest of %zu lines (--stdio shows all)."
			    "</p>\n",
			    nr, table_nr_rows(t));
	html_table_rows(sb, t, true, nr);
	table_free(t);
}

static void pareto(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *const *lines,
		   size_t nr)
{
	struct strbuf title = STRBUF_INIT;
	size_t i;

	html_heading(sb, 2, "pareto", "Shared Cache Line Distribution Pareto");
	for (i = 0; i < nr; i++) {
		struct table *t = c2c_view_pareto_table(s, lines[i], false);

		strbuf_reset(&title);
		c2c_view_line_title(s->model, lines[i], &title);
		strbuf_addf(sb, "<details%s id=\"line-%u\"><summary>", i < 5 ? " open" : "",
			    lines[i]->index);
		html_escape(sb, title.buf);
		strbuf_addstr(sb, "</summary>\n");
		html_table(sb, t, true);
		strbuf_addstr(sb, "</details>\n");
		table_free(t);
	}
	strbuf_release(&title);
}

/* c2cscope's own section, as the text has it: the lines only stores fight over. */
static void store_contention(struct strbuf *sb, struct c2c_session *s,
			     const struct c2c_store_line *v, size_t n)
{
	struct table *t;
	size_t i;

	if (!n)
		return;
	html_heading(sb, 2, "stores", "Store Contention");
	strbuf_addstr(sb, "<p class=\"note\">");
	for (i = 0; i < C2C_STORE_NOTE_LINES; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		html_escape(sb, c2c_store_note[i]);
	}
	strbuf_addstr(sb, "</p>\n");
	t = c2c_view_store_table(s, v, n);
	html_table(sb, t, true);
	table_free(t);
}

/* 1: the cpu writes the line (c2c_line_access: stores and locked loads), 2: it loads. */
static unsigned int cpu_role(const struct c2c_line_access *a, uint32_t cpu)
{
	return (bitmap_test(a->writer_cpus, cpu) ? 1 : 0) |
	       (bitmap_test(a->reader_cpus, cpu) ? 2 : 0);
}

static void cpu_matrix(struct strbuf *sb, struct c2c_session *s,
		       const struct c2c_line *const *lines, size_t nr)
{
	static const char *const cls[] = { "", "w", "r", "rw" }, *const txt[] = { "", "W", "R",
										  "RW" };
	uint32_t cpu, ncpu = s->model->opts.nr_cpus;
	bool *used = xcalloc(ncpu ? ncpu : 1, sizeof(bool));
	size_t i;

	html_heading(sb, 2, "cpus", "Cpu x line");
	strbuf_addstr(
		sb,
		"<p class=\"note\">W: the cpu was sampled at a row of the line that "
		"writes (stores or locked RMWs: a writer, as the text report's Writers); R: at a row that loads (a reader); RW: both. Only "
		"cpus that touched a drawn line have a column.</p>\n");
	for (i = 0; i < nr; i++)
		for (cpu = 0; cpu < ncpu; cpu++)
			used[cpu] |= bitmap_test(lines[i]->g.cpuset, cpu);
	strbuf_addstr(sb, "<table class=\"cpus\">\n<thead><tr><th>Line</th><th>Address</th>");
	for (cpu = 0; cpu < ncpu; cpu++)
		if (used[cpu])
			strbuf_addf(sb, "<th>%u</th>", cpu);
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < nr; i++) {
		struct c2c_line_access a;

		c2c_line_access_build(s, lines[i], &a);
		strbuf_addf(sb, "<tr><td class=\"num\">%u</td><td>0x%" PRIx64 "</td>",
			    lines[i]->index, lines[i]->addr);
		for (cpu = 0; cpu < ncpu; cpu++) {
			unsigned int role;

			if (!used[cpu])
				continue;
			role = cpu_role(&a, cpu);
			strbuf_addf(sb, "<td class=\"%s\" data-cpu=\"%u\">%s</td>", cls[role], cpu,
				    txt[role]);
		}
		c2c_line_access_release(&a);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	free(used);
}

static void placement_row(struct table *t, const struct task_placement_thread *pt)
{
	struct strbuf cpus = STRBUF_INIT, nodes = STRBUF_INIT, lines = STRBUF_INIT;
	size_t i;

	task_placement_thread_sets(pt, &cpus, &nodes);
	for (i = 0; i < pt->nr_lines; i++)
		strbuf_addf(&lines, "%s0x%" PRIx64 " (%" PRIu64 "/%" PRIu64 ")", i ? ", " : "",
			    pt->lines[i].line, pt->lines[i].samples, pt->lines[i].hitms);
	table_add_row(t);
	table_set(t, 0, "%u", pt->tid);
	table_set(t, 1, "%u", pt->pid);
	table_set(t, 2, "%s", pt->comm ? pt->comm : "");
	table_set(t, 3, "%s", cpus.buf);
	table_set(t, 4, "%s", nodes.buf);
	table_set(t, 5, "%" PRIu64, pt->migrations);
	table_set(t, 6, "%" PRIu64, pt->switches_in);
	table_set(t, 7, "%.3f", (double)pt->run_ns / 1e6);
	table_set(t, 8, "%s", pt->nr_lines ? lines.buf : "-");
	strbuf_release(&cpus);
	strbuf_release(&nodes);
	strbuf_release(&lines);
}

/* Where each thread ran (record --sched): the report's Task placement. */
static void placement(struct strbuf *sb, const struct task_placement *p)
{
	static const char *const heads[] = {
		"Tid",	    "Pid",    "Command",
		"Cpus",	    "Nodes",  "Migrations",
		"Switches", "Run ms", "Lines touched most (samples/HITMs)"
	};
	struct table *t = table_new();
	size_t i;

	html_heading(sb, 2, "placement", "Task placement");
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		table_add_column(t, NULL, heads[i],
				 i == 2 || i == 3 || i == 4 || i == 8 ? TABLE_LEFT : TABLE_RIGHT);
	for (i = 0; i < task_placement_nr_threads(p); i++)
		placement_row(t, task_placement_thread(p, i));
	html_table(sb, t, true);
	table_free(t);
}

void c2c_html_render(struct c2c_session *s, const struct c2c_html_opts *opts, struct strbuf *out)
{
	size_t max = opts && opts->max_lines ? opts->max_lines : C2C_HTML_LINES;
	size_t max_structs = opts && opts->max_structs ? opts->max_structs : C2C_HTML_STRUCTS;
	const struct c2c_line **lines;
	size_t nr = hot_lines(s->model, max, &lines);
	struct c2c_store_line *store = NULL; /* c2cscope's own, not in --no-attrib's */
	size_t nr_store = s->opts.attribute ? c2c_store_contention(s, &store) : 0;
	struct strbuf title = STRBUF_INIT;

	strbuf_addf(&title, "c2cscope report: %s", s->opts.path);
	html_page_begin(out, title.buf);
	html_heading(out, 1, NULL, title.buf);
	strbuf_addstr(out, "<nav><a href=\"#summary\">Summary</a><a href=\"#heatmap\">Heatmap</a>"
			   "");
	if (opts && opts->structs)
		strbuf_addstr(out, "<a href=\"#structs\">Hot structs</a>");
	strbuf_addstr(out, "<a href=\"#lines\">Lines</a><a href=\"#pareto\">Pareto</a>"
			   "<a href=\"#cpus\">Cpu x line</a>");
	if (nr_store)
		strbuf_addstr(out, "<a href=\"#stores\">Store contention</a>");
	if (opts && opts->placement)
		strbuf_addstr(out, "<a href=\"#placement\">Task placement</a>");
	strbuf_addstr(out, "</nav>\n");
	summary(out, s);
	html_heading(out, 2, "heatmap", "Hot lines");
	if (nr)
		c2c_html_heatmap(out, s, lines, nr);
	else
		strbuf_addstr(out,
			      "<p class=\"note\">No shared cache line passed the filter.</p>\n");
	if (opts && opts->structs)
		opts->structs(out, s, lines, nr, max_structs);
	lines_table(out, s, nr);
	pareto(out, s, lines, nr);
	store_contention(out, s, store, nr_store);
	cpu_matrix(out, s, lines, nr);
	if (opts && opts->placement)
		placement(out, opts->placement);
	html_page_end(out);
	free(store);
	free(lines);
	strbuf_release(&title);
}
