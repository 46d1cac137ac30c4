// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope report: perf c2c report's sections and numbers from a
 * perf.data, as text (--stdio), JSON (--json), HTML (--html) or, on a
 * terminal, the interactive browser (src/tui). See c2cscope-report(1).
 */
#include "config.h"
#include "cmd.h"
#include "options.h"
#include "typeargs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c2c/c2c_bytype.h"
#include "c2c/c2c_html.h"
#include "c2c/c2c_json.h"
#include "c2c/c2c_session.h"
#include "fmt/html.h"
#include "fmt/json_out.h"
#include "placement/placement.h"
#include "suggest/suggest.h"
#include "tui/tui.h"
#include "util/progress.h"

#define CMD "report"

struct report_args {
	struct c2c_session_opts so;
	const char *json;
	const char *html;
	uint64_t html_lines; /* 0: the renderer's default */
	bool stdio, tui; /* --stdio, --tui */
	bool stats_only;
	bool by_type;
	const char *type_glob; /* --type */
	struct cmd_strlist kernel_debug; /* --kernel-debug */
	struct tui_opts tui_opts;
};

static const struct cmd_usage usage = {
	.synopsis = "c2cscope report [-i FILE] [--stdio|--tui] [--no-color] [--source-dir DIR]\n"
		    "                [--json FILE|-] [-d tot|rmt|lcl|peer] [-c tid,pid,iaddr,dso]\n"
		    "                [--cacheline-size 64|128] [--show-all]\n"
		    "                [--full-symbols] [--no-source] [--vmlinux FILE]\n"
		    "                [--kernel-debug FILE]... [--kallsyms FILE]\n"
		    "                [--rules perf-6.1|modern] [--stats]\n"
		    "                [--by-type] [--type GLOB] [--no-attrib] [--threads N]\n"
		    "                [--html FILE [--html-lines N]]",
};

static int opt_display(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	a->so.display_given = true;
	if (c2c_parse_display(arg, &a->so.model.display))
		return cmd_error(CMD, "-d expects tot, rmt, lcl or peer, not '%s'", arg);
	return 0;
}

/* --cacheline-size: 64, or 128 as --double-cl (its alias, perf's name). */
static int opt_cacheline(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	if (strcmp(arg, "64") && strcmp(arg, "128"))
		return cmd_error(CMD, "--cacheline-size expects 64 or 128, not '%s'", arg);
	a->so.model.double_cl = !strcmp(arg, "128");
	return 0;
}

static int opt_coalesce(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	if (c2c_parse_keys(arg, &a->so.model))
		return cmd_error(CMD, "-c expects a list of tid, pid, iaddr, dso, not '%s'", arg);
	return 0;
}

static int opt_rules(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	if (!strcmp(arg, "perf-6.1") || !strcmp(arg, "perf61"))
		a->so.model.rules = MEM_SRC_PERF61;
	else if (!strcmp(arg, "modern"))
		a->so.model.rules = MEM_SRC_MODERN;
	else
		return cmd_error(CMD, "--rules expects perf-6.1 or modern, not '%s'", arg);
	return 0;
}

static int opt_type(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	a->by_type = true;
	a->type_glob = arg;
	return 0;
}

/* Parse argv into a; returns 0, or CMD_PARSE_HELP / CMD_PARSE_ERROR. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	const struct cmd_option opts[] = {
		OPT_STRING('i', "input", &a->so.path, "FILE",
			   "perf.data to read (default ./perf.data; - for a pipe)"),
		OPT_FLAG(0, "stdio", &a->stdio,
			 "text report (the default when stdout is not a terminal)"),
		OPT_FLAG(0, "tui", &a->tui,
			 "the interactive browser (the default on a terminal);\n"
			 "fails when there is none"),
		OPT_FLAG(0, "no-color", &a->tui_opts.no_color,
			 "a monochrome browser (as NO_COLOR=1 does)"),
		OPT_STRING(0, "source-dir", &a->tui_opts.source_dir, "DIR",
			   "where the browser's annotate view looks for sources"),
		OPT_STRING(0, "json", &a->json, "FILE",
			   "also write the report as JSON (- for stdout, no text)"),
		OPT_STRING(0, "html", &a->html, "FILE",
			   "write the report as one self-contained HTML page (no text\n"
			   "on stdout unless --stdio is given too)"),
		OPT_U64(0, "html-lines", &a->html_lines, "N", "lines the page draws (default 50)",
			1, 100000),
		OPT_CALLBACK('d', "display", "WHAT",
			     "sort and filter lines by tot, rmt or lcl HITMs or peer", opt_display),
		OPT_CALLBACK('c', "coalesce", "KEYS",
			     "group a line's rows by offset and KEYS (default iaddr)",
			     opt_coalesce),
		OPT_CALLBACK(0, "cacheline-size", "N",
			     "64, or 128-byte lines (adjacent-line prefetch pairs)", opt_cacheline),
		OPT_FLAG(0, "double-cl", &a->so.model.double_cl,
			 "the same as --cacheline-size 128 (perf's name)"),
		OPT_FLAG(0, "show-all", &a->so.model.show_all,
			 "show every line, not only those over 0.1% of the metric"),
		OPT_FLAG(0, "full-symbols", &a->so.full_symbols,
			 "do not cut symbols and source lines at 30 columns"),
		OPT_FLAG(0, "no-source", &a->so.model.no_source, "no Source:Line column"),
		OPT_STRING('k', "vmlinux", &a->so.symbols.vmlinux, "FILE", KERNEL_OPT_VMLINUX_HELP),
		KERNEL_OPT_DEBUG(&a->kernel_debug),
		KERNEL_OPT_KALLSYMS(&a->so.symbols.kallsyms),
		OPT_CALLBACK(0, "rules", "WHICH", "data-source rules: perf-6.1 (default) or modern",
			     opt_rules),
		OPT_FLAG(0, "stats", &a->stats_only,
			 "only the summary sections, and samples per\nfield-attribution reason"),
		OPT_FLAG(0, "by-type", &a->by_type,
			 "per struct type and field: HITMs, loads, stores, cpus,\n"
			 "reader and writer functions (instead of the tables)"),
		OPT_CALLBACK(0, "type", "GLOB", "--by-type for the struct types matching GLOB only",
			     opt_type),
		OPT_CLEAR(0, "no-attrib", &a->so.attribute,
			  "do not name fields (no DWARF is read)"),
		OPT_UINT(0, "threads", &a->so.model.threads, "N",
			 "aggregate on N threads (default 2 with two cpus or more;\n"
			 "1: all on the reading thread); same output either way",
			 1, 64),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, a, argc, argv, CMD_PARSE_NO_ARGS);

	return argi < 0 ? argi : 0;
}

static void print_warnings(const struct c2c_session *s)
{
	const char *p = s->warnings.buf;

	while (*p) {
		size_t len = strcspn(p, "\n");

		cmd_warn(CMD, "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

static int write_html(struct c2c_session *s, const struct report_args *a,
		      const struct task_placement *pl)
{
	struct c2c_html_opts ho = { .max_lines = (size_t)a->html_lines,
				    .placement = pl,
				    .structs = suggest_html_hot_structs };
	struct strbuf page = STRBUF_INIT;
	struct err_msg err = { 0 };
	int ret = EXIT_OK;

	c2c_html_render(s, &ho, &page);
	if (html_write_file(a->html, &page, &err))
		ret = cmd_report_err(CMD, &err);
	strbuf_release(&page);
	return ret;
}

/* The recording's task placement when it has sched tracepoints (--sched), or NULL. */
static struct task_placement *load_placement(const char *path, const struct c2c_model *m)
{
	struct err_msg err = { 0 };
	struct task_placement *p = NULL;

	if (!strcmp(path, "-"))
		return NULL; /* a pipe is read once */
	if (task_placement_load(path, (unsigned int)m->line_size, m->opts.rules, &p, &err) < 0) {
		cmd_warn(CMD, "no Task placement section: %s", err.msg);
		return NULL;
	}
	return p;
}

static int write_outputs(struct c2c_session *s, const struct report_args *a)
{
	struct strbuf out = STRBUF_INIT;
	struct task_placement *pl = NULL;
	struct c2c_bytype *bt = NULL;
	int ret = EXIT_OK;
	bool text;

	if (a->by_type && s->attrib)
		bt = c2c_bytype_build(s, s->attrib);
	if (bt && a->type_glob && !c2c_bytype_filter(bt, a->type_glob)) {
		c2c_bytype_free(bt);
		return cmd_error(CMD, "%s: no sample was attributed to a struct type matching '%s'",
				 a->so.path, a->type_glob);
	}
	/* text unless the JSON takes stdout; with --html only when asked */
	text = (!a->json || strcmp(a->json, "-")) && (a->stdio || !a->html);
	if (!bt && !a->stats_only && (text || a->html))
		pl = load_placement(a->so.path, s->model);
	if (text) {
		if (bt)
			c2c_bytype_render(bt, &out);
		else
			c2c_text_render(s, &out, a->stats_only);
		if (pl)
			task_placement_render(pl, &out);
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
	}
	if (a->json) {
#ifdef HAVE_JANSSON
		struct err_msg err = { 0 };
		json_t *root = c2c_json_build(s);

		if (bt)
			json_object_set_new(root, "by_type", c2c_bytype_json(bt));
		if (json_out_write(root, a->json, &err))
			ret = cmd_report_err(CMD, &err);
		json_decref(root);
#else
		ret = cmd_error(CMD, "--json needs jansson, which this build lacks");
#endif
	}
	if (a->html && !ret)
		ret = write_html(s, a, pl);
	task_placement_free(pl);
	c2c_bytype_free(bt);
	return ret;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) ? (uint64_t)st.st_size : 0;
}

enum { REPORT_TEXT, REPORT_TUI }; /* else EXIT_BAD_INPUT, after an error */

/*
 * The TUI on a terminal unless --stdio, --json, --html or --stats asks for
 * a written report; --tui insists.
 */
static int choose_tui(const struct report_args *a)
{
	char why[128] = "";

	if (a->tui && a->stdio)
		return cmd_error(CMD, "--tui and --stdio: choose one");
	if (a->tui && (a->json || a->html || a->stats_only))
		return cmd_error(CMD, "--tui browses the report: it does not take %s",
				 a->json ? "--json" :
				 a->html ? "--html" :
					   "--stats");
	if (!a->tui && (a->stdio || a->json || a->html || a->stats_only))
		return REPORT_TEXT;
#ifdef HAVE_NCURSES
	if (tui_usable(why, sizeof(why)))
		return REPORT_TUI;
#else
	snprintf(why, sizeof(why), "this build has no browser (ncursesw was not found)");
#endif
	if (a->tui)
		return cmd_error(CMD, "--tui needs a terminal: %s (--stdio prints text)", why);
	return REPORT_TEXT;
}

static int browse(struct c2c_session *s, struct report_args *a)
{
#ifdef HAVE_NCURSES
	a->tui_opts.by_type = a->by_type;
	a->tui_opts.type_glob = a->type_glob;
	return tui_run(s, &a->tui_opts);
#else
	return EXIT_BAD_INPUT;
#endif
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .so = { .path = "perf.data" } };
	struct c2c_session *s = NULL;
	struct err_msg err = { 0 };
	int ret, tui;

	a.so.attribute = true;
	a.so.model.keys[0] = C2C_KEY_IADDR;
	a.so.model.nr_keys = 1;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return cmd_options_exit(ret);
	a.so.kernel_debug = a.kernel_debug.items;
	a.so.nr_kernel_debug = a.kernel_debug.nr;
	if (a.by_type && !a.so.attribute)
		return cmd_error(CMD, "--by-type needs field attribution; drop --no-attrib");
	if ((tui = choose_tui(&a)) == EXIT_BAD_INPUT)
		return EXIT_BAD_INPUT;
	if (progress_enabled())
		a.so.progress = progress_new("Reading", file_size(a.so.path));
	ret = c2c_session_load(&a.so, &s, &err);
	progress_free(a.so.progress);
	if (ret)
		return cmd_report_err(CMD, &err);
	print_warnings(s);
	ret = tui == REPORT_TUI ? browse(s, &a) : write_outputs(s, &a);
	c2c_session_free(s);
	free(a.kernel_debug.items);
	return ret;
}
