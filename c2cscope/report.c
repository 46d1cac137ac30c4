// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope report: perf c2c report's sections and numbers from a
 * perf.data, as text (--stdio) and JSON (--json). See c2cscope-report(1).
 */
#include "config.h"
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c2c/c2c_bytype.h"
#include "c2c/c2c_json.h"
#include "c2c/c2c_session.h"
#include "output/json_out.h"
#include "tui/tui.h"
#include "util/progress.h"

#define CMD "report"

enum {
	OPT_STDIO = 256,
	OPT_JSON,
	OPT_DOUBLE_CL,
	OPT_SHOW_ALL,
	OPT_FULL_SYMBOLS,
	OPT_NO_SOURCE,
	OPT_RULES,
	OPT_STATS,
	OPT_KALLSYMS,
	OPT_BY_TYPE,
	OPT_TYPE,
	OPT_NO_ATTRIB,
	OPT_THREADS,
	OPT_TUI,
	OPT_NO_COLOR,
	OPT_SOURCE_DIR,
};

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "source-dir", required_argument, NULL, OPT_SOURCE_DIR },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "display", required_argument, NULL, 'd' },
	{ "coalesce", required_argument, NULL, 'c' },
	{ "double-cl", no_argument, NULL, OPT_DOUBLE_CL },
	{ "show-all", no_argument, NULL, OPT_SHOW_ALL },
	{ "full-symbols", no_argument, NULL, OPT_FULL_SYMBOLS },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "vmlinux", required_argument, NULL, 'k' },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "by-type", no_argument, NULL, OPT_BY_TYPE },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "no-attrib", no_argument, NULL, OPT_NO_ATTRIB },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: c2cscope report [-i FILE] [--stdio|--tui] [--no-color] [--source-dir DIR]\n"
		"                       [--json FILE|-] [-d tot|rmt|lcl|peer]\n"
		"                       [-c tid,pid,iaddr,dso] [--double-cl] [--show-all]\n"
		"                       [--full-symbols] [--no-source] [--vmlinux FILE]\n"
		"                       [--kallsyms FILE] [--rules perf-6.1|modern] [--stats]\n"
		"                       [--by-type] [--type GLOB] [--no-attrib] [--threads N]\n"
		"\n"
		"  -i, --input FILE    perf.data to read (default ./perf.data; - for a pipe)\n"
		"      --stdio         text report (the default when stdout is not a terminal)\n"
		"      --tui           the interactive browser (the default on a terminal)\n"
		"      --no-color      monochrome TUI (as NO_COLOR=1 does)\n"
		"      --source-dir DIR  where the TUI's annotate view looks for sources\n"
		"      --json FILE     also write the report as JSON (- for stdout, no text)\n"
		"  -d, --display WHAT  sort and filter lines by tot, rmt or lcl HITMs or peer\n"
		"  -c, --coalesce KEYS group a line's rows by offset and KEYS (default iaddr)\n"
		"      --double-cl     128-byte lines (adjacent-line prefetch pairs)\n"
		"      --show-all      show every line, not only those over 0.1%% of the metric\n"
		"      --full-symbols  do not cut symbols and source lines at 30 columns\n"
		"      --no-source     no Source:Line column\n"
		"  -k, --vmlinux FILE  kernel symbols from this vmlinux (else kallsyms)\n"
		"      --rules WHICH   data-source rules: perf-6.1 (default) or modern\n"
		"      --stats         only the summary sections, and samples per\n"
		"                      field-attribution reason\n"
		"      --by-type       per struct type and field: HITMs, loads, stores, cpus,\n"
		"                      reader and writer functions (instead of the tables)\n"
		"      --type GLOB     --by-type for the struct types matching GLOB only\n"
		"      --no-attrib     do not name fields (no DWARF is read)\n"
		"      --threads N     aggregate on N threads (default 2 with two cpus or more;\n"
		"                      1: all on the reading thread); same output either way\n");
}

struct report_args {
	struct c2c_session_opts so;
	const char *json;
	bool stats_only;
	bool by_type;
	const char *type_glob; /* --type */
	bool stdio, tui; /* --stdio, --tui */
	struct tui_opts tui_opts;
};

static int parse_option(int opt, struct report_args *a)
{
	switch (opt) {
	case 'i':
		a->so.path = optarg;
		return 0;
	case OPT_STDIO:
		a->stdio = true;
		return 0;
	case OPT_TUI:
		a->tui = true;
		return 0;
	case OPT_NO_COLOR:
		a->tui_opts.no_color = true;
		return 0;
	case OPT_SOURCE_DIR:
		a->tui_opts.source_dir = optarg;
		return 0;
	case OPT_JSON:
		a->json = optarg;
		return 0;
	case 'd':
		a->so.display_given = true;
		if (c2c_parse_display(optarg, &a->so.model.display))
			return cmd_error(CMD, "-d expects tot, rmt, lcl or peer, not '%s'", optarg);
		return 0;
	case 'c':
		if (c2c_parse_keys(optarg, &a->so.model))
			return cmd_error(CMD, "-c expects a list of tid, pid, iaddr, dso, not '%s'",
					 optarg);
		return 0;
	case OPT_DOUBLE_CL:
		a->so.model.double_cl = true;
		return 0;
	case OPT_SHOW_ALL:
		a->so.model.show_all = true;
		return 0;
	case OPT_FULL_SYMBOLS:
		a->so.full_symbols = true;
		return 0;
	case OPT_NO_SOURCE:
		a->so.model.no_source = true;
		return 0;
	case 'k':
		a->so.symbols.vmlinux = optarg;
		return 0;
	case OPT_KALLSYMS:
		a->so.symbols.kallsyms = optarg;
		return 0;
	case OPT_RULES:
		if (!strcmp(optarg, "perf-6.1") || !strcmp(optarg, "perf61"))
			a->so.model.rules = C2C_RULES_PERF61;
		else if (!strcmp(optarg, "modern"))
			a->so.model.rules = C2C_RULES_MODERN;
		else
			return cmd_error(CMD, "--rules expects perf-6.1 or modern, not '%s'",
					 optarg);
		return 0;
	case OPT_STATS:
		a->stats_only = true;
		return 0;
	case OPT_BY_TYPE:
		a->by_type = true;
		return 0;
	case OPT_TYPE:
		a->by_type = true;
		a->type_glob = optarg;
		return 0;
	case OPT_NO_ATTRIB:
		a->so.attribute = false;
		return 0;
	case OPT_THREADS: {
		uint64_t n;

		if (cmd_parse_u64(CMD, "--threads", optarg, &n))
			return EXIT_BAD_INPUT;
		if (n < 1 || n > 64)
			return cmd_error(CMD, "--threads expects 1 to 64, not %s", optarg);
		a->so.model.threads = (uint32_t)n;
		return 0;
	}
	default:
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
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

static int write_outputs(struct c2c_session *s, const struct report_args *a)
{
	struct strbuf out = STRBUF_INIT;
	int ret = EXIT_OK;

	struct c2c_bytype *bt = NULL;

	if (a->by_type && s->attrib)
		bt = c2c_bytype_build(s, s->attrib);
	if (bt && a->type_glob && !c2c_bytype_filter(bt, a->type_glob)) {
		c2c_bytype_free(bt);
		return cmd_error(CMD, "%s: no sample was attributed to a struct type matching '%s'",
				 a->so.path, a->type_glob);
	}
	if (!a->json || strcmp(a->json, "-")) {
		if (bt)
			c2c_bytype_render(bt, &out);
		else
			c2c_text_render(s, &out, a->stats_only);
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
	}
	if (a->json) {
#ifdef HAVE_JANSSON
		struct c2c_err err = { 0 };
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
	c2c_bytype_free(bt);
	return ret;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) ? (uint64_t)st.st_size : 0;
}

/*
 * The TUI on a terminal unless --stdio, --json or --stats asks for text;
 * --tui insists and says why it cannot. 1: TUI, 0: text, else an exit code.
 */
static int choose_tui(const struct report_args *a)
{
	char why[128];

	if (a->tui && a->stdio)
		return -cmd_error(CMD, "--tui and --stdio: choose one");
	if (a->tui && (a->json || a->stats_only))
		return -cmd_error(CMD, "--tui browses the report: it does not take %s",
				  a->json ? "--json" : "--stats");
	if (!a->tui && (a->stdio || a->json || a->stats_only))
		return 0;
#ifdef HAVE_NCURSES
	if (tui_usable(why, sizeof(why)))
		return 1;
	if (a->tui)
		return -cmd_error(CMD, "--tui needs a terminal: %s (--stdio prints text)", why);
#else
	(void)why;
	if (a->tui)
		return -cmd_error(CMD, "--tui: this build has no TUI (ncursesw was not found)");
#endif
	return 0;
}

static int browse(struct c2c_session *s, struct report_args *a)
{
#ifdef HAVE_NCURSES
	a->tui_opts.by_type = a->by_type;
	return tui_run(s, &a->tui_opts);
#else
	return EXIT_BAD_INPUT;
#endif
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .so = { .path = "perf.data" } };
	struct c2c_session *s = NULL;
	struct c2c_err err = { 0 };
	int opt, ret, tui;

	a.so.attribute = true;
	a.so.model.keys[0] = C2C_KEY_IADDR;
	a.so.model.nr_keys = 1;
	while ((opt = getopt_long(argc, argv, "i:d:c:k:h", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if ((ret = parse_option(opt, &a)))
			return ret;
	}
	if (optind < argc)
		return cmd_error(CMD, "unexpected argument '%s'; see --help", argv[optind]);
	if (a.by_type && !a.so.attribute)
		return cmd_error(CMD, "--by-type needs field attribution; drop --no-attrib");
	if ((tui = choose_tui(&a)) < 0)
		return -tui;
	if (progress_enabled())
		a.so.progress = progress_new("Reading", file_size(a.so.path));
	ret = c2c_session_load(&a.so, &s, &err);
	progress_free(a.so.progress);
	if (ret)
		return cmd_report_err(CMD, &err);
	print_warnings(s);
	ret = tui ? browse(s, &a) : write_outputs(s, &a);
	c2c_session_free(s);
	return ret;
}
