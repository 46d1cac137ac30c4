// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope layout [options] [FILE...]: struct layouts the way pahole 1.24
 * prints them (or as JSON), from DWARF or BTF; the running kernel's BTF
 * when no FILE is given. See doc/c2cscope-layout.1.
 */
#include "config.h"
#include "cmd.h"
#include "typeargs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "suggest/suggest.h"
#include "types/types.h"
#include "util/xalloc.h"

#define CMD "layout"
#define LINE_SIZE_FILE "/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size"

struct layout_args {
	struct type_args ta; /* -C, --kernel, --btf/--dwarf, --format, ... */
	unsigned int cacheline_size;
	bool expand, hex, sizes, groups, json;
	uint64_t min_holes; /* --holes N; 0: no filter */
	const char *html; /* --html FILE */
};

static const struct cmd_usage usage = {
	.synopsis = "c2cscope layout [options] [FILE...]",
	.description =
		"Print struct and union layouts as pahole 1.24 does: offsets, sizes, holes,\n"
		"padding and cache-line boundaries. FILE is an ELF file with DWARF or BTF, a\n"
		"raw BTF file or a saved JSON layout; without FILE (or with --kernel), the\n"
		"running kernel's BTF. The cache-line size defaults to this cpu's, else 64.",
	.epilogue = "Exit status: 0 ok, 2 bad usage or input.",
};

static unsigned int host_cacheline_size(void)
{
	FILE *f = fopen(LINE_SIZE_FILE, "r");
	unsigned int n = 0;

	if (f) {
		if (fscanf(f, "%u", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n >= 8 && n <= 4096 && !(n & (n - 1)) ? n : 64;
}

/* What the options allow together; 0 or an exit code after the message. */
static int check_args(struct layout_args *a, int nr_files)
{
	static const char *const formats[] = { "text", "json", NULL };
	const struct type_args *ta = &a->ta;
	int fmt = type_args_format(CMD, ta, formats);

	if (fmt < 0)
		return EXIT_BAD_INPUT;
	if (type_args_check(CMD, ta, nr_files))
		return EXIT_BAD_INPUT;
	a->json = fmt == 1;
	a->cacheline_size = type_args_cacheline(ta, host_cacheline_size());
	if (a->json && (a->sizes || nr_files > 1))
		return cmd_error(CMD, "--format json takes one FILE and no --sizes");
	if (ta->profile && (ta->structs.nr != 1 || type_name_is_glob(ta->structs.items[0]) ||
			    a->sizes || nr_files > 1))
		return cmd_error(CMD, "--profile takes one -C STRUCT (no glob), at most one FILE, "
				      "and no --sizes");
	if (a->html && !ta->profile)
		return cmd_error(CMD, "--html draws a profiled layout: give --profile DATA");
	return 0;
}

/* The index of the first FILE, or CMD_PARSE_HELP / CMD_PARSE_ERROR. */
static int parse_args(int argc, char **argv, struct layout_args *a)
{
	const struct cmd_option opts[] = {
		TYPE_OPTIONS(&a->ta, "text or json (JSON: doc/layout-json.md)"),
		TYPE_OPT_PROFILE(&a->ta),
		OPT_STRING(0, "html", &a->html, "FILE",
			   "with --profile: also draw the layout as one self-contained\n"
			   "HTML page"),
		OPT_GROUP("Layout"),
		OPT_FLAG('E', "expand", &a->expand, "print named struct/union members inline"),
		OPT_FLAG('x', "hex", &a->hex, "offsets and sizes in hexadecimal"),
		OPT_FLAG('s', "sizes", &a->sizes, "one line per struct: NAME SIZE HOLES"),
		OPT_U64('H', "holes", &a->min_holes, "N", "only structs with at least N holes", 0,
			UINT64_MAX),
		OPT_FLAG('g', "groups", &a->groups, "show kernel cache-line groups as named bands"),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, a, argc, argv, 0);

	if (argi < 0)
		return argi;
	return check_args(a, argc - argi) ? CMD_PARSE_ERROR : argi;
}

struct selection {
	const struct type **v;
	size_t n, alloc;
};

static void select_add(struct selection *sel, const struct type *t)
{
	size_t i;

	for (i = 0; i < sel->n; i++)
		if (sel->v[i] == t)
			return;
	sel->v = xgrow(sel->v, &sel->alloc, sel->n + 1, sizeof(*sel->v));
	sel->v[sel->n++] = t;
}

static int select_pattern(const struct type_db *db, const char *pat, struct selection *sel)
{
	size_t i, n, before = sel->n;
	const struct type *found[64], *td;

	if (type_name_is_glob(pat)) {
		for (i = 0; i < type_db_nr_structs(db); i++) {
			const struct type *t = type_db_struct(db, i);

			if (type_name_matches(pat, t->name))
				select_add(sel, t);
		}
		return sel->n > before ? 0 : -ENOENT;
	}
	n = type_db_find_all(db, pat, found, ARRAY_SIZE(found));
	for (i = 0; i < n && i < ARRAY_SIZE(found); i++)
		select_add(sel, found[i]);
	if (!n && (td = type_db_find_typedef(db, pat))) { /* pahole -C foo_t */
		select_add(sel, td);
		n = 1;
	}
	return n ? 0 : -ENOENT;
}

/*
 * Fill sel from the -C patterns (all structs without -C). Returns 0, or
 * the 1-based index of the first pattern that matched nothing.
 */
static size_t select_structs(const struct type_db *db, const struct layout_args *a,
			     struct selection *sel)
{
	size_t i;

	if (!a->ta.structs.nr) {
		for (i = 0; i < type_db_nr_structs(db); i++)
			select_add(sel, type_db_struct(db, i));
		return 0;
	}
	for (i = 0; i < a->ta.structs.nr; i++)
		if (select_pattern(db, a->ta.structs.items[i], sel))
			return i + 1;
	return 0;
}

static bool enough_holes(const struct type *t, uint64_t min_holes)
{
	struct layout *l;
	bool ok;

	if (!min_holes)
		return true;
	if (layout_analyze(t, 64, &l, NULL))
		return false;
	ok = layout_summary(l)->nr_holes >= min_holes;
	layout_free(l);
	return ok;
}

static void flush(struct strbuf *sb, bool force)
{
	if (sb->len && (force || sb->len > 1 << 16)) {
		fwrite(sb->buf, 1, sb->len, stdout);
		strbuf_reset(sb);
	}
}

/* The printer's options: the command's, for types read from db (NULL: none). */
static struct layout_print_opts print_opts(const struct layout_args *a, const struct type_db *db)
{
	return (struct layout_print_opts){
		.cacheline_size = a->cacheline_size,
		.hex = a->hex,
		.expand = a->expand,
		.groups = a->groups,
		.btf = db && !strcmp(type_db_source(db), "BTF"),
	};
}

static void print_text(const struct type_db *db, const struct layout_args *a,
		       const struct selection *sel)
{
	struct layout_print_opts o = print_opts(a, db);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_grow(&sb, 1 << 17);
	for (i = 0; i < sel->n; i++) {
		if (!enough_holes(sel->v[i], a->min_holes))
			continue;
		if (a->sizes)
			layout_print_sizes(&sb, sel->v[i]);
		else
			layout_print(&sb, sel->v[i], &o);
		flush(&sb, false);
	}
	flush(&sb, true);
	strbuf_release(&sb);
}

static int print_json(const struct type_db *db, const struct layout_args *a, struct selection *sel)
{
	struct layout_json_doc doc = {
		.source = type_db_source(db),
		.file = type_db_path(db),
		.cacheline_size = a->cacheline_size,
	};
	struct strbuf sb = STRBUF_INIT;
	struct err_msg err = { 0 };
	size_t i, n = 0;
	int ret;

	for (i = 0; i < sel->n; i++)
		if (enough_holes(sel->v[i], a->min_holes))
			sel->v[n++] = sel->v[i];
	doc.structs = sel->v;
	doc.nr_structs = n;
	ret = layout_json_print(&sb, &doc, &err);
	if (ret)
		return cmd_report_err(CMD, &err);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	return 0;
}

static int layout_file(const char *path, const struct layout_args *a)
{
	struct type_load_opts lo = {
		.only = a->ta.structs.items,
		.skip_decl = !a->json, /* only JSON shows declaration sites */
	};
	struct selection sel = { 0 };
	struct type_db *db;
	size_t missing;
	int ret;

	ret = type_args_load(CMD, &a->ta, path, &lo, &db);
	if (ret)
		return ret;
	missing = select_structs(db, a, &sel);
	if (missing)
		ret = type_args_missing(CMD, &a->ta, path, a->ta.structs.items[missing - 1]);
	else if (a->json)
		ret = print_json(db, a, &sel);
	else
		print_text(db, a, &sel);
	free(sel.v);
	type_db_free(db);
	return ret;
}

static int layout_profile(const char *path, const struct layout_args *a)
{
	struct strbuf sb = STRBUF_INIT;
	struct err_msg err = { 0 };
	struct profiled pd;
	int ret;

	ret = type_args_load_profile(CMD, &a->ta, path, a->ta.structs.items[0], &pd);
	if (!ret) {
		struct layout_print_opts o = print_opts(a, pd.db);

		if (a->json)
			ret = layout_profile_json(&sb, pd.type, pd.profile, path, a->cacheline_size,
						  &err);
		else
			layout_profile_print(&sb, pd.type, pd.profile, &o);
		if (ret)
			ret = cmd_report_err(CMD, &err);
		else
			fwrite(sb.buf, 1, sb.len, stdout);
		if (!ret && a->html)
			ret = suggest_html_page_write(a->html, pd.type, pd.profile, NULL,
						      a->cacheline_size, &err) ?
				      cmd_report_err(CMD, &err) :
				      0;
	}
	strbuf_release(&sb);
	profiled_release(&pd);
	return ret;
}

int cmd_layout(int argc, char **argv)
{
	struct layout_args a = { .ta.cmd = CMD };
	int ret = 0, argi, i;

	argi = parse_args(argc, argv, &a);
	if (argi < 0)
		ret = cmd_options_exit(argi);
	else if (a.ta.profile)
		ret = layout_profile(argi < argc ? argv[argi] : NULL, &a);
	else if (argi == argc)
		ret = layout_file(NULL, &a);
	for (i = argi; argi >= 0 && !a.ta.profile && !ret && i < argc; i++)
		ret = layout_file(argv[i], &a);
	type_args_release(&a.ta);
	if (fflush(stdout) != 0 && !ret)
		ret = cmd_error(CMD, "cannot write the output: %s", strerror(errno));
	return ret;
}
