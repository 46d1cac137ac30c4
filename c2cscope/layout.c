// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope layout [options] [FILE...]: struct layouts the way pahole 1.24
 * prints them (or as JSON), from DWARF or BTF; the running kernel's BTF
 * when no FILE is given. See doc/c2cscope-layout.1.
 */
#include "config.h"
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "layout/layout.h"
#include "types/types.h"
#include "util/xalloc.h"

#define CMD "layout"
#define LINE_SIZE_FILE "/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size"

struct layout_args {
	char **patterns; /* NULL-terminated -C names and globs, or NULL: all */
	size_t nr_patterns;
	unsigned int cacheline_size;
	bool expand, hex, sizes, groups, json;
	uint64_t min_holes; /* --holes N; 0: no filter */
	enum type_source source;
	const char *profile; /* --profile DATA */
};

static const char usage_text[] =
	"usage: c2cscope layout [options] [FILE...]\n"
	"\n"
	"Print struct and union layouts as pahole 1.24 does: offsets, sizes, holes,\n"
	"padding and cache-line boundaries. FILE is an ELF file with DWARF or BTF, or a\n"
	"raw BTF file; without FILE, the running kernel's BTF (/sys/kernel/btf/vmlinux).\n"
	"\n"
	"  -C, --struct NAME[,NAME]  only these structs/unions (fnmatch globs allowed)\n"
	"      --cacheline-size N    cache line size in bytes (default: this cpu's, else 64)\n"
	"  -E, --expand              print named struct/union members inline\n"
	"  -x, --hex                 offsets and sizes in hexadecimal\n"
	"  -s, --sizes               one line per struct: NAME SIZE HOLES\n"
	"  -H, --holes N             only structs with at least N holes\n"
	"  -g, --groups              show kernel cache-line groups as named bands\n"
	"      --format text|json    output format (JSON: doc/layout-json.md)\n"
	"      --btf, --dwarf        read types from BTF or from DWARF only\n"
	"      --profile DATA        with one -C STRUCT: each member's HITMs, loads,\n"
	"                            stores, reader and writer functions from the\n"
	"                            perf.data DATA, and false/true sharing marks; the\n"
	"                            struct from FILE, else from DATA's own binaries\n"
	"                            (with --format json: one JSON document)\n"
	"  -h, --help                this help\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input.\n";

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

static void add_patterns(struct layout_args *a, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		a->patterns = xrealloc(a->patterns, (a->nr_patterns + 2) * sizeof(*a->patterns));
		a->patterns[a->nr_patterns++] = xstrdup(tok);
		a->patterns[a->nr_patterns] = NULL;
	}
	free(copy);
}

static int parse_number(const char *opt, const char *arg, uint64_t max, uint64_t *out)
{
	if (cmd_parse_u64(CMD, opt, arg, out))
		return -1;
	if (*out > max) {
		cmd_error(CMD, "%s: %s is too large (at most %llu)", opt, arg,
			  (unsigned long long)max);
		return -1;
	}
	return 0;
}

enum { OPT_CACHELINE = 256, OPT_FORMAT, OPT_BTF, OPT_DWARF, OPT_PROFILE };

static int parse_option(struct layout_args *a, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'C':
		add_patterns(a, arg);
		return 0;
	case OPT_CACHELINE:
		if (parse_number("--cacheline-size", arg, 4096, &v))
			return -1;
		if (v < 8 || (v & (v - 1)))
			return cmd_error(CMD, "--cacheline-size: %s is not a power of two >= 8",
					 arg),
			       -1;
		a->cacheline_size = (unsigned int)v;
		return 0;
	case 'E':
		a->expand = true;
		return 0;
	case 'x':
		a->hex = true;
		return 0;
	case 's':
		a->sizes = true;
		return 0;
	case 'H':
		return parse_number("--holes", arg, UINT32_MAX, &a->min_holes);
	case 'g':
		a->groups = true;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return cmd_error(CMD, "--format: '%s' is not text or json", arg), -1;
		a->json = !strcmp(arg, "json");
		return 0;
	case OPT_BTF:
		a->source = TYPE_SOURCE_BTF;
		return 0;
	case OPT_DWARF:
		a->source = TYPE_SOURCE_DWARF;
		return 0;
	case OPT_PROFILE:
		a->profile = arg;
		return 0;
	default:
		return -1;
	}
}

/* Returns 0 to go on, 1 after --help, -1 on a usage error (already said). */
static int parse_args(int argc, char **argv, struct layout_args *a)
{
	static const struct option longopts[] = {
		{ "struct", required_argument, NULL, 'C' },
		{ "cacheline-size", required_argument, NULL, OPT_CACHELINE },
		{ "expand", no_argument, NULL, 'E' },
		{ "hex", no_argument, NULL, 'x' },
		{ "sizes", no_argument, NULL, 's' },
		{ "holes", required_argument, NULL, 'H' },
		{ "groups", no_argument, NULL, 'g' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "btf", no_argument, NULL, OPT_BTF },
		{ "dwarf", no_argument, NULL, OPT_DWARF },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "C:ExsH:gh", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		if (c == '?' || parse_option(a, c, optarg)) {
			if (c == '?')
				fprintf(stderr, "see 'c2cscope layout --help'\n");
			return -1;
		}
	}
	if (!a->cacheline_size)
		a->cacheline_size = host_cacheline_size();
	if (a->json && (a->sizes || argc - optind > 1))
		return cmd_error(CMD, "--format json takes one FILE and no --sizes"), -1;
	if (a->profile && (a->nr_patterns != 1 || type_name_is_glob(a->patterns[0]) || a->sizes ||
			   argc - optind > 1))
		return cmd_error(CMD, "--profile takes one -C STRUCT (no glob), at most one FILE, "
				      "and no --sizes"),
		       -1;
	return 0;
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

	if (!a->patterns) {
		for (i = 0; i < type_db_nr_structs(db); i++)
			select_add(sel, type_db_struct(db, i));
		return 0;
	}
	for (i = 0; i < a->nr_patterns; i++)
		if (select_pattern(db, a->patterns[i], sel))
			return i + 1;
	return 0;
}

/*
 * Say that PATTERN matched nothing. The model was loaded with only the
 * requested names, so load it whole to find a name that is close.
 */
static int no_match(const char *path, const struct layout_args *a, const char *pattern)
{
	struct type_load_opts lo = { .source = a->source };
	const char *file = path ? path : "/sys/kernel/btf/vmlinux";
	struct strbuf sb = STRBUF_INIT;
	struct type_db *db = NULL;
	int ret;

	if (type_name_is_glob(pattern))
		return cmd_error(CMD, "%s: no struct or union matches '%s'", file, pattern);
	ret = path ? type_db_load(path, &lo, &db, NULL) : type_db_load_kernel(&lo, &db, NULL);
	type_db_describe_missing(&sb, file, pattern, ret ? NULL : db);
	ret = cmd_error(CMD, "%s", sb.buf);
	strbuf_release(&sb);
	type_db_free(db);
	return ret;
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

static void print_text(const struct type_db *db, const struct layout_args *a,
		       const struct selection *sel)
{
	struct layout_print_opts o = {
		.cacheline_size = a->cacheline_size,
		.hex = a->hex,
		.expand = a->expand,
		.groups = a->groups,
		.btf = !strcmp(type_db_source(db), "BTF"),
	};
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
	struct c2c_err err = { 0 };
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
		.source = a->source,
		.only = (const char *const *)a->patterns,
		.skip_decl = !a->json, /* only JSON shows declaration sites */
	};
	struct c2c_err err = { 0 };
	struct selection sel = { 0 };
	struct type_db *db;
	size_t missing;
	int ret;

	ret = path ? type_db_load(path, &lo, &db, &err) : type_db_load_kernel(&lo, &db, &err);
	if (ret)
		return cmd_report_err(CMD, &err);
	missing = select_structs(db, a, &sel);
	if (missing)
		ret = no_match(path, a, a->patterns[missing - 1]);
	else if (a->json)
		ret = print_json(db, a, &sel);
	else
		print_text(db, a, &sel);
	free(sel.v);
	type_db_free(db);
	return ret;
}

/* The struct for --profile: from FILE, else from the profiled binaries. */
static int profile_type(const char *path, const struct layout_args *a, struct c2c_session *s,
			struct type_db **db, const struct type **t)
{
	struct type_load_opts lo = { .source = a->source,
				     .only = (const char *const *)a->patterns };
	struct c2c_err err = { 0 };

	if (!path) {
		*t = c2c_attrib_find_type(s->attrib, a->patterns[0]);
		if (!*t)
			return cmd_error(CMD,
					 "%s: no sample was attributed to struct %s; give the "
					 "binary that defines it",
					 a->profile, a->patterns[0]);
		return 0;
	}
	if (type_db_load(path, &lo, db, &err))
		return cmd_report_err(CMD, &err);
	*t = type_db_find(*db, a->patterns[0]);
	return *t ? 0 : no_match(path, a, a->patterns[0]);
}

static int layout_profile(const char *path, const struct layout_args *a)
{
	struct layout_print_opts o = {
		.cacheline_size = a->cacheline_size,
		.hex = a->hex,
		.expand = a->expand,
		.groups = a->groups,
	};
	struct c2c_session *s = NULL;
	struct struct_profile *p;
	struct type_db *db = NULL;
	const struct type *t;
	struct c2c_err err = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (c2c_session_load_profile(a->profile, &s, &err))
		return cmd_report_err(CMD, &err);
	ret = profile_type(path, a, s, &db, &t);
	if (!ret) {
		p = profile_from_session(s, s->attrib, t);
		o.btf = db && !strcmp(type_db_source(db), "BTF");
		if (a->json)
			ret = profile_json_print(&sb, t, p, path, a->cacheline_size, &err);
		else
			profile_print_layout(&sb, t, p, &o);
		if (ret)
			ret = cmd_report_err(CMD, &err);
		else
			fwrite(sb.buf, 1, sb.len, stdout);
		profile_free(p);
	}
	strbuf_release(&sb);
	if (db)
		type_db_free(db);
	c2c_session_free(s);
	return ret;
}

int cmd_layout(int argc, char **argv)
{
	struct layout_args a = { 0 };
	int ret, i;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? EXIT_OK : EXIT_BAD_INPUT;
	} else if (a.profile) {
		ret = layout_profile(optind < argc ? argv[optind] : NULL, &a);
	} else if (optind == argc) {
		ret = layout_file(NULL, &a);
	} else {
		for (i = optind; !ret && i < argc; i++)
			ret = layout_file(argv[i], &a);
	}
	for (i = 0; i < (int)a.nr_patterns; i++)
		free(a.patterns[i]);
	free(a.patterns);
	if (fflush(stdout) != 0 && !ret)
		ret = cmd_error(CMD, "cannot write the output: %s", strerror(errno));
	return ret;
}
